"""A coverage-guided fuzz target for reading: raw message bytes through every
reading step a mail meets. Anything but an Envelope and plain answers is a crash; so is an
input that takes longer than libFuzzer's -timeout.

    scripts/fuzz [SECONDS]                 # atheris (libFuzzer) for a while; crashes land
                                           # in var/fuzz/
    .venv/bin/python tests/support/fuzz_read.py CORPUS_DIR -max_total_time=60

Every crash it finds becomes a file in tests/abuse/fuzz_corpus/, which abuse/test_fuzz.py
replays."""

from __future__ import annotations

import sys

LANDS = ["Donal", "Bain", "Tír na nÓg"]


def read_everything(data: bytes) -> None:
    from mailref.engine.orders import read_eire_orders, read_free_orders
    from mailref.read import (
        bold_orders,
        parse_subject,
        read_ballots,
        read_envelope,
        read_rule_changes,
        strip_brace_comments,
    )
    from mailref.read.auth import verify
    from mailref.read.identity import normalise_address
    from mailref.read.names import name_keys
    from mailref.read.rulechanges import RuleChangeError

    env = read_envelope(data, ["game@ref.example"], "referee@ref.example")
    assert isinstance(env.text, str) and isinstance(env.orders, list)
    if env.from_addr is not None:
        assert "@" in env.from_addr and "\ufffd" not in env.from_addr.partition("@")[0]
        assert normalise_address(env.from_addr) == env.from_addr  # normalised once and for all
    read_ballots(env.text, 1)
    read_ballots(env.text)
    bold_orders(env.body)
    read_eire_orders(env.orders, LANDS)
    read_free_orders(env.orders)
    parse_subject(env.subject.raw)
    try:
        read_rule_changes(strip_brace_comments(env.text))
    except RuleChangeError:
        pass  # a clear refusal is an answer
    verify(env.auth_results, env.from_addr, ["mx.ref.example"])
    name_keys(env.from_name)


def main() -> None:
    import atheris

    with atheris.instrument_imports(include=["mailref"]):
        import mailref.engine.orders  # noqa: F401
        import mailref.read  # noqa: F401 - its names load lazily: import the reading modules here
        import mailref.read.auth  # noqa: F401
        import mailref.read.ballots  # noqa: F401
        import mailref.read.bold  # noqa: F401
        import mailref.read.envelope  # noqa: F401
        import mailref.read.names  # noqa: F401
        import mailref.read.rulechanges  # noqa: F401
        import mailref.read.subject  # noqa: F401
    atheris.Setup(sys.argv, read_everything)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

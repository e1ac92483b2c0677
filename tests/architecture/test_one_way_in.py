"""One way in (docs/architecture.md, "The referee"): the referee keeps mail one way and
processes kept mail one way, and the listener, the poller, the daemon, the command line and
the tests' mail all use those two; each mail runs through the chain declared as a table; its
subject is read once where it is routed."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from mailref.read.subject import parse_subject
from mailref.referee import chain
from support.helpers import send_mail
from support.joining import join

ROOT = Path(__file__).resolve().parents[2]
G, H = "nomes@ref.example", "hex@ref.example"
# What kept or processed mail before there were two ways in.
GONE = {
    "receive",
    "receive_many",
    "accept",
    "process_many",
    "process_pending",
    "process_batch",
    "pending",
    "catch_up",
    "keep_too_large",
}
# Who brings mail in, and which of the two ways each takes.
CALLERS = {
    "mailref/mail/smtp.py": {"keep"},  # the SMTP and LMTP listener
    "mailref/mail/imap.py": {"keep", "process"},  # the IMAP poller
    "mailref/daemon.py": {"process"},
    "mailref/cli/inbox.py": {"process"},  # mailref mail reprocess
    "tests/support/helpers.py": {"keep", "process"},  # the tests' send_mail
}


def referee_uses(path: Path) -> set[str]:
    """The attributes PATH reads of a referee (`referee.x`, `self.referee.x`, `r.x` in the
    benchmarks)."""
    used = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and re.search(
            r"(^|\.)(referee|r)$", ast.unparse(node.value)
        ):
            used.add(node.attr)
    return used


def test_the_referee_keeps_mail_one_way_and_processes_it_one_way():
    tree = ast.parse((ROOT / "mailref" / "referee" / "__init__.py").read_text())
    referee = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Referee")
    public = {f.name for f in referee.body if isinstance(f, ast.FunctionDef) and f.name[0] != "_"}
    ways_in = {m for m in public if re.search(r"keep|receive|accept|process|pending|catch", m)}
    assert ways_in == {"keep", "process"}


@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_each_that_brings_mail_in_takes_the_two_ways(caller):
    used = referee_uses(ROOT / caller)
    assert CALLERS[caller] <= used, used
    assert not used & GONE


def test_nothing_keeps_or_processes_mail_another_way():
    files = [
        *(ROOT / "mailref").rglob("*.py"),
        *(ROOT / "handlers").rglob("*.py"),
        *(ROOT / "bench").rglob("*.py"),
        *(ROOT / "tests").rglob("*.py"),
    ]
    for path in files:
        # The tests' own referee mails with `accept`: keep, then process (support/helpers.py).
        gone = GONE - {"accept"} if ROOT / "tests" in path.parents else GONE
        assert not referee_uses(path) & gone, path


def test_the_chain_is_a_table_of_named_links_each_described():
    names = [name for name, _, _ in chain.CHAIN]
    assert len(names) == len(set(names))
    for name, step, description in chain.CHAIN:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", name) and callable(step) and description
    assert names[-1] == "command"  # the last link always decides
    docs = (ROOT / "docs" / "architecture.md").read_text()
    assert [n for n in re.findall(r"^\| `([a-z-]+)` \|", docs, re.M) if n in names] == names


def ran(monkeypatch) -> list[str]:
    """The links each mail runs, in order, recorded as the chain runs them."""
    seen: list[str] = []

    def recorded(name, step):
        def link(c):
            seen.append(name)
            return step(c)

        return link

    monkeypatch.setattr(
        chain, "CHAIN", tuple((n, recorded(n, step), d) for n, step, d in chain.CHAIN)
    )
    return seen


def test_a_mail_runs_the_links_in_order_until_one_decides(referee, monkeypatch):
    referee.create_game("nomes", "sidekick", G)
    referee.create_game("hex", "sidekick", H)  # two games: mail to the referee goes to neither
    join(referee, "alice@x.org", G, "Alice")
    seen = ran(monkeypatch)
    send_mail(referee, "alice@x.org", G, "[Status]")
    assert seen == [name for name, _, _ in chain.CHAIN]
    seen.clear()
    send_mail(referee, "carol@x.org", "referee@ref.example", "Hello")
    names = [name for name, _, _ in chain.CHAIN]
    assert seen == names[: names.index("list-the-games") + 1]


@pytest.mark.parametrize(
    "to, subject, reads",
    [
        ([G], "[Status]", 1),  # a player's command to a game
        (["referee@ref.example"], "[Status]", 1),  # mail for no game
        ([G, H], "[Status]", 2),  # once in each game it names, with that game's labels
    ],
    ids=["a game", "no game", "two games"],
)
def test_a_mails_subject_is_read_once_where_it_is_routed(referee, monkeypatch, to, subject, reads):
    referee.create_game("nomes", "sidekick", G)
    referee.create_game("hex", "sidekick", H)
    join(referee, "alice@x.org", G, "Alice")
    join(referee, "alice@x.org", H, "Alice")
    read: list[str] = []

    def counted(line, *args, **kw):
        read.append(line)
        return parse_subject(line, *args, **kw)

    for name, module in list(sys.modules.items()):
        if name.startswith("mailref") and getattr(module, "parse_subject", None) is parse_subject:
            monkeypatch.setattr(module, "parse_subject", counted)
    send_mail(referee, "alice@x.org", ", ".join(to), subject, envelope=False)
    assert read.count(subject) == reads

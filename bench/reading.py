"""Reading benchmark: the whole reading step (bytes -> Envelope: headers, body, quotes,
bold, subject tag, loop verdict) over a mixed corpus, beside the bare `email` parse of the
same bytes. Prints messages per second and the ratio; asserts nothing.

    .venv/bin/python bench/reading.py [N]
"""

from __future__ import annotations

import email
import email.policy
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from mailref.read import read_ballots, read_envelope  # noqa: E402
from support.helpers import mail  # noqa: E402


def corpus() -> list[bytes]:
    G = "g@x.org"
    return [
        mail(
            "a@x.org",
            G,
            "Re: [Proposal 3] x",
            "FOR\n\nOn Mon, 30 Nov 2026, Bob <b@x.org> wrote:\n> AGAINST\n> more\n",
        ),
        mail(
            "a@x.org",
            G,
            "[Orders]",
            "Chatter",
            html=(
                "<p>Hi <b>Attack Bain with 17 Grain.</b> <strong>Defend Donal with 3 "
                "Grain</strong></p>"
            ),
        ),
        mail(
            "a@x.org",
            G,
            "[Proposal] Bonus",
            'Enact rule 24 "Bonus":\n' + "Some rule text. " * 40 + "\n-- \nsig\n",
        ),
        mail(
            "a@x.org",
            G,
            "RE: AW: [Vote]",
            "12 FOR\n13 AGAINST\n\n-----Original Message-----\nFrom: x\nSent: y\n",
        ),
        mail("a@x.org", G, "[Help]", "", headers={"Auto-Submitted": "auto-replied"}),
    ]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    msgs = corpus()
    batch = [msgs[i % len(msgs)] for i in range(n)]
    t = time.perf_counter()
    for raw in batch:
        email.message_from_bytes(raw, policy=email.policy.compat32)
    bare = time.perf_counter() - t
    t = time.perf_counter()
    for raw in batch:
        env = read_envelope(raw)
        read_ballots(env.text, env.subject.number)
    full = time.perf_counter() - t
    t = time.perf_counter()
    for raw in batch[: n // 4]:
        email.message_from_bytes(raw, policy=email.policy.default).get_body()
    default = (time.perf_counter() - t) * 4
    print(f"reading benchmark, {n} messages of a mixed corpus of {len(msgs)} styles")
    print(f"bare email parse (compat32)    {n / bare:9.0f} msg/s")
    print(f"bare email parse (default)     {n / default:9.0f} msg/s")
    print(
        f"mailref reading step           {n / full:9.0f} msg/s   (cost of understanding: "
        f"x{full / bare:.1f} the bare parse)"
    )


if __name__ == "__main__":
    main()

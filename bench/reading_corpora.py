"""Reading against public reply corpora: each fixture is wrapped in a mail and read by
`read_envelope`; a case passes when every line its project's test expects is kept, in order, and
nothing of the quoted, forwarded or header part is kept. Prints the pass rate per corpus and
kind, beside talon's on the same bodies when talon is installed (in this Python, or the one
named by `--talon PYTHON`). The corpora stay outside the repository:

    .venv/bin/python bench/reading_corpora.py PATH... [--talon PYTHON] [-v]

PATH is a checkout of github/email_reply_parser or mailgun/talon (see bench/corpora_cases.py)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora_cases import Case, load, squash  # noqa: E402

from mailref.read import read_envelope  # noqa: E402


def as_mail(case: Case) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = (
        "Player <p@x.org>",
        "game@ref.example",
        "Re: [Proposal 1] x",
    )
    msg["Message-ID"] = "<case@x.org>"
    msg.set_content(case.body, subtype="html" if case.html else "plain", charset="utf-8")
    return msg.as_bytes()


def mailref_reads(case: Case) -> str:
    return read_envelope(as_mail(case)).text


def passes(case: Case, text: str) -> tuple[bool, str]:
    """(passed, why not): every `keep` line in order, no `drop` line."""
    flat, at = squash(text), 0
    for line in case.keep:
        want = squash(line)
        found = flat.find(want, at)
        if found < 0:
            return False, f"lost: {line[:70]!r}"
        at = found + len(want)
    lines = {squash(ln.lstrip("> ")) for ln in text.splitlines()}
    for line in case.drop:
        bad = squash(line.lstrip("> "))
        if bad and (bad in lines or len(bad) >= 12 and bad in flat):
            return False, f"kept: {line[:70]!r}"
    return True, ""


_TALON = """
import json, sys
import talon
from talon import quotations
from talon.utils import html_to_text
talon.init()
out = []
for c in json.load(sys.stdin):
    try:
        extract = quotations.extract_from_html if c["html"] else quotations.extract_from_plain
        r = extract(c["body"])
        out.append(html_to_text(r) if c["html"] and r else r)
    except Exception as e:
        out.append(None)
print(json.dumps([
    x if isinstance(x, str) or x is None else x.decode("utf-8", "replace") for x in out
]))
"""


def talon_reads(cases: list[Case], python: str | None) -> list[str | None] | None:
    """Talon's reading of every case, or None when talon is not installed."""
    exe = python or sys.executable
    try:
        run = subprocess.run(
            [exe, "-c", _TALON],
            input=json.dumps([{"body": c.body, "html": c.html} for c in cases]),
            capture_output=True,
            text=True,
            timeout=600,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if run.returncode != 0:
        return None
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument(
        "--talon", help="a Python with talon installed (default: this one, if it has it)"
    )
    ap.add_argument("-v", "--verbose", action="store_true", help="list every case that fails")
    args = ap.parse_args()
    cases = [c for p in args.paths for c in load(p)]
    ours = [passes(c, mailref_reads(c)) for c in cases]
    theirs_text = talon_reads(cases, args.talon)
    theirs = (
        [
            passes(c, t)[0] if t is not None else False
            for c, t in zip(cases, theirs_text, strict=False)
        ]
        if theirs_text
        else None
    )
    rows: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for i, c in enumerate(cases):
        for key in ((c.corpus, "all"), (c.corpus, c.kind), ("all", "all"), ("all", c.kind)):
            rows[key][0] += 1
            rows[key][1] += ours[i][0]
            rows[key][2] += bool(theirs and theirs[i])
    head = f"{'corpus':28} {'kind':24} {'cases':>5} {'mailref':>8}" + (
        f" {'talon':>8}" if theirs else ""
    )
    print(head)
    for (corpus, kind), (n, ok, tok) in sorted(
        rows.items(), key=lambda kv: (kv[0][0] == "all", kv[0])
    ):
        line = f"{corpus:28} {kind:24} {n:5} {100 * ok / n:7.1f}%"
        print(line + (f" {100 * tok / n:7.1f}%" if theirs else ""))
    if not theirs:
        print("(talon not installed: pass --talon PYTHON for a Python that has it)")
    if args.verbose:
        for c, (ok, why) in zip(cases, ours, strict=False):
            if not ok:
                print(f"FAIL {c.corpus} {c.name} [{c.kind}]: {why}")


if __name__ == "__main__":
    main()

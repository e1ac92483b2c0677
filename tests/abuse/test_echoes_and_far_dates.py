"""Text a sender controls comes back only as text: a subject that decodes to a literal
encoded word is sent encoded, so no reader's client decodes it again into "\\r\\nBcc: …"
inside the Subject. A deadline set absurdly far off (`mailref deadline … set 9999-12-31`)
is refused with a clear message by the real CLI, not an OverflowError."""

from __future__ import annotations

import base64
import os
import subprocess
import sys

import pytest

from support.cli import run_here
from support.helpers import Outbox, mail, make_referee
from support.joining import confirm_waiting
from support.listener import listening, submit

pytestmark = pytest.mark.spec("1.4")

G = "nomes@ref.example"
ALICE = "alice@example.org"
LITERAL = "=?us-ascii?q?Status=0D=0ABcc:_victim@third.example?="


def encoded(text: str) -> str:
    return "=?utf-8?b?" + base64.b64encode(text.encode()).decode() + "?="


@pytest.mark.parametrize(
    "subject", [f"[Status] {LITERAL}", f"[Statsu] {LITERAL}", f"Hello {LITERAL}"]
)
def test_a_subject_decoding_to_an_encoded_word_is_echoed_as_text(tmp_path, clock, subject):
    referee = make_referee(tmp_path, clock)
    referee.create_game("nomes", "sidekick", G)
    with listening(referee, 10_000_000) as port:
        submit(port, ALICE, [G], mail(ALICE, G, "[Join]", "Name: Alice"))
        confirm_waiting(referee)
        outbox = Outbox(referee)
        outbox.new()
        raw = mail(ALICE, G, "placeholder").replace(
            b"Subject: placeholder", f"Subject: {encoded(subject)}".encode()
        )
        submit(port, ALICE, [G], raw)
    (reply,) = outbox.new()
    shown = str(reply["Subject"])  # decoded once, as the reader's client shows it
    assert "\r" not in shown and "\n" not in shown
    assert LITERAL in shown  # the player's text, as written
    assert reply["Bcc"] is None


def cli(cwd, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mailref", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if k != "MAILREF_CONFIG"},
    )


def test_a_deadline_years_away_is_refused_clearly(tmp_path):
    assert cli(tmp_path, "init").returncode == 0
    create = ("game", "create", "nomes", "--variant", "sidekick", "--address", G)
    assert run_here(tmp_path, *create).returncode == 0
    for name in ("Alice", "Bob"):
        player = (name, f"{name.lower()}@example.org")
        assert run_here(tmp_path, "player", "add", "nomes", *player).returncode == 0
    for how, value in [
        ("set", "9999-12-31"),
        ("set", "9999-12-31T23:00:00-05:00"),
        ("extend", "3000000d"),
        ("extend", "99999999999d"),
    ]:
        r = cli(tmp_path, "deadline", "nomes", how, value)
        assert (
            r.returncode == 2 and "Traceback" not in r.stderr and "Overflow" not in r.stderr
        ), r.stderr
        assert "at most ten years away" in r.stderr
    r = cli(tmp_path, "deadline", "nomes", "extend", "1d")
    assert r.returncode == 0 and "moved" in r.stdout

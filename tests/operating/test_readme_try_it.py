"""README's "Try it" works as written: its Python line, sent to the referee's listener, is
answered (it sent no From, and a mail nobody can be answered at gets no answer)."""

from __future__ import annotations

import re
import smtplib

import pytest

from support.helpers import Outbox
from support.listener import listening
from support.paths import ROOT

pytestmark = pytest.mark.spec("7")


def test_the_readmes_python_line_gets_the_help(referee):
    readme = (ROOT / "README.md").read_text()
    (code,) = re.findall(r"# or: python3 -c '(.+)'\n", readme)
    with listening(referee) as port, pytest.MonkeyPatch.context() as mp:
        real = smtplib.SMTP
        mp.setattr(smtplib, "SMTP", lambda host, _port: real(host, port))
        exec(code, {})  # as the shell passes it: Python reads its escapes
    (answer,) = Outbox(referee).all()
    assert answer["To"] == "you@example.org" and answer["X-Mailref-Kind"] == "help"

"""An IMAP port that is an SMTP server is named as such."""

from __future__ import annotations

import pytest

from support.ops import Site

pytestmark = pytest.mark.spec("1.3")


def test_an_imap_port_that_is_an_smtp_server_is_named_as_such(tmp_path):
    """[imap] port set to the SMTP port (2525/25/587: a mix-up an operator makes): `mailref check`
    said "unexpected response: b'220 ... ESMTP'"."""
    (tmp_path / "a").mkdir()
    smtp = Site(tmp_path / "a")
    with smtp.serve():
        (tmp_path / "b").mkdir()
        (tmp_path / "b" / "imap.pass").write_text("x\n")
        site = Site(
            tmp_path / "b",
            smtp_in=False,
            extra=f'[imap]\nhost = "127.0.0.1"\nport = {smtp.smtp_port}\n'
            'ssl = false\nusername = "referee"\npassword_file = "imap.pass"\n',
        )
        r = site.cli("check")
    line = next(x for x in r.stdout.splitlines() if x.split()[1] == "IMAP")
    assert (
        r.returncode == 1 and f"port {smtp.smtp_port} is an SMTP server, not IMAP" in line
    ), r.stdout
    assert "[imap] port" in line

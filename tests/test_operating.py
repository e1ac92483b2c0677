"""What an operator met running mailref (session 6): each test does what they did, as they
did it (the CLI and `mailref serve` as processes, a real SMTP session), and checks the answer
is one clear line, the right exit status, and nothing lost."""

from __future__ import annotations

import pytest
from ops import Site


@pytest.mark.parametrize("url, says", [
    ("postgresql://mailref@127.0.0.1:1/mailref", 'needs the Python module psycopg2, which is not installed: '
                                                 'write "postgresql+psycopg://..."'),
    ("postgres://mailref@127.0.0.1/mailref", 'is written "postgresql+psycopg://..."'),
    ("mysql://mailref@127.0.0.1/mailref", "needs the Python module MySQLdb"),
    ("foo://x", "names the database kind 'foo', unknown to SQLAlchemy"),
    ("var/mailref.sqlite3", "is not a database URL like"),
])
@pytest.mark.parametrize("command", [["serve"], ["check"], ["game", "list"]])
def test_a_database_url_mailref_cannot_open_is_one_line_naming_file_and_key(tmp_path, url, says, command):
    """Was a traceback from SQLAlchemy ("No module named 'psycopg2'", "Could not parse
    SQLAlchemy URL") from every command, `mailref serve` included (SPEC §1.3, §7)."""
    site = Site(tmp_path, smtp_in=False)
    site.config.write_text(site.config.read_text().replace('database = "sqlite:///var/mailref.sqlite3"',
                                                           f'database = "{url}"'))
    r = site.cli(*command, timeout=30)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert f"{site.config}: [daemon] database:" in r.stderr and says in r.stderr, r.stderr


def test_a_port_out_of_range_names_its_table(tmp_path):
    site = Site(tmp_path, smtp_in=False, extra='[smtp_out]\nhost = "127.0.0.1"\nport = 70000\n')
    r = site.cli("serve", timeout=30)
    assert r.returncode == 1 and f"{site.config}: [smtp_out] port: 70000 is out of range" in r.stderr, r.stderr

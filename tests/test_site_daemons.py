"""The published site with several daemons on one database (README "Running several
daemons"): each publishes its own changes as they commit, and catches up every few seconds
with the changes the others made, so every host's pages show the whole game."""

from __future__ import annotations

import smtplib

from ops import Site

from helpers import mail, wait_for
from mailref import site as site_module
from mailref.config import SiteConfig
from mailref.site import catch_up, rebuild

G = "nomes@ref.example"


def test_a_daemon_publishes_what_another_daemon_did(tmp_path):
    db = tmp_path / "shared.sqlite3"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = Site(tmp_path / "a", extra='[site]\ndir = "var/site"\n', database=f"sqlite:///{db}")
    b = Site(tmp_path / "b", database=f"sqlite:///{db}")  # another host: pages of its own, or none
    assert a.cli("game", "create", "nomes", "--variant", "sidekick", "--address", G).returncode == 0
    page = tmp_path / "a" / "var" / "site" / "nomes" / "index.html"
    with a.serve() as first, b.serve():
        assert wait_for(page.exists, 30)
        with smtplib.SMTP("127.0.0.1", b.smtp_port) as c:  # B takes this mail and changes the game
            c.sendmail("zelda@x.org", [G], mail("zelda@x.org", G, "[Join]", "Name: Zelda"))
        assert wait_for(lambda: "Zelda" in page.read_text(), 30), "A's pages show the player B let in"
        assert "site:" not in first.stderr(), first.stderr()


def test_pages_an_earlier_run_wrote_are_not_written_again(referee, tmp_path):
    """A restarted daemon (or one sharing the folder) knows from the folder which game version
    each game's pages show: 10,000 idle games are not all rendered again at its first catch-up."""
    referee.create_game("nomes", "sidekick", G)
    cfg = SiteConfig(tmp_path / "site")
    assert rebuild(referee.store, cfg, now=referee.clock()) == ["nomes"]
    page = tmp_path / "site" / "nomes" / "index.html"
    written = page.stat().st_mtime_ns
    site_module._built.clear()  # a new process
    catch_up(referee.store, cfg, referee.clock())
    assert page.stat().st_mtime_ns == written
    referee.accept(mail("zelda@x.org", G, "[Join]", "Name: Zelda"))  # a change by a process without [site]
    catch_up(referee.store, cfg, referee.clock())
    assert "Zelda" in page.read_text()

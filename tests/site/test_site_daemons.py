"""The published site with several daemons on one database (docs/several-daemons.md):
each publishes its own changes as they commit, and catches up every few seconds
with the changes the others made, so every host's pages show the whole game."""

from __future__ import annotations

import smtplib

import pytest

from mailref import site as site_module
from mailref.config import SiteConfig
from mailref.site import catch_up, rebuild
from support.helpers import mail, wait_for
from support.joining import confirm_on_site, confirm_waiting
from support.ops import Site

pytestmark = pytest.mark.spec("4.5", "6")

G = "nomes@ref.example"


def test_a_daemon_publishes_what_another_daemon_did(tmp_path):
    db = tmp_path / "shared.sqlite3"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = Site(tmp_path / "a", extra='[site]\ndir = "var/site"\n', database=f"sqlite:///{db}")
    b = Site(tmp_path / "b", database=f"sqlite:///{db}")  # another host: pages of its own, or none
    a.create_game("nomes", "sidekick", G)
    page = tmp_path / "a" / "var" / "site" / "nomes" / "index.html"
    with a.serve() as first, b.serve():
        assert wait_for(page.exists, 30)
        with smtplib.SMTP("127.0.0.1", b.smtp_port) as c:  # B takes this mail and changes the game
            c.sendmail("zelda@x.org", [G], mail("zelda@x.org", G, "[Join]", "Name: Zelda"))
        confirm_on_site(b, "zelda@x.org", url=f"sqlite:///{db}")
        assert wait_for(
            lambda: "Zelda" in page.read_text(), 30
        ), "A's pages show the player B let in"
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
    referee.accept(
        mail("zelda@x.org", G, "[Join]", "Name: Zelda")
    )  # a change by a process without [site]
    confirm_waiting(referee)
    catch_up(referee.store, cfg, referee.clock())
    assert "Zelda" in page.read_text()
    # Pages an older mailref wrote (no version file) are taken as they are, not all rendered again.
    (tmp_path / "site" / "nomes" / site_module.VERSION_FILE).unlink()
    site_module._built.clear()
    written = page.stat().st_mtime_ns
    catch_up(referee.store, cfg, referee.clock())
    assert page.stat().st_mtime_ns == written


def test_a_new_site_folder_fills_a_few_games_at_a_time(referee, tmp_path, monkeypatch):
    """The daemon's own changes wait for the site's lock while it renders: a new folder on a host
    of many games is filled over several rounds, not in one that holds the lock for minutes."""
    monkeypatch.setattr(site_module, "CATCH_UP_AT_ONCE", 2)
    for slug in ("aa", "bb", "cc"):
        referee.create_game(slug, "sidekick", f"{slug}@ref.example")
    cfg = SiteConfig(tmp_path / "site")
    catch_up(referee.store, cfg, referee.clock())
    assert sorted(p.name for p in (tmp_path / "site").iterdir() if p.is_dir()) == ["aa", "bb"]
    catch_up(referee.store, cfg, referee.clock())
    assert (tmp_path / "site" / "cc" / "index.html").exists()


def test_mail_is_answered_while_the_pages_cannot_be_written(tmp_path):
    """The pages are made beside processing, not inside it: a site folder that hangs (an NFS
    server gone, a `mailref site build` stuck holding the site's lock) left every mail after
    the first change unanswered, since processing waited for the pages, and a SIGTERM never
    ended the daemon."""
    import fcntl

    from support.helpers import maildir_mails

    s = Site(tmp_path, extra='[site]\ndir = "var/site"\n')
    s.create_game("nomes", "sidekick", G)
    lock = tmp_path / "var" / "site" / ".mailref-site.lock"
    with s.serve() as daemon, open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # what a stuck writer of the pages does
        with smtplib.SMTP("127.0.0.1", s.smtp_port) as c:
            c.sendmail("zelda@x.org", [G], mail("zelda@x.org", G, "[Join]", "Name: Zelda"))
            c.sendmail("yann@x.org", [G], mail("yann@x.org", G, "[Help]"))
        assert wait_for(
            lambda: len(maildir_mails(tmp_path)) >= 2, 30
        ), "both answered while the pages wait"
        confirm_on_site(s, "zelda@x.org")
        assert wait_for(lambda: len(maildir_mails(tmp_path)) >= 3, 30), "and Zelda's Reply"
        page = tmp_path / "var" / "site" / "nomes" / "index.html"
        assert "Zelda" not in page.read_text()
        # A stop does not wait for ever either (it waited for the lock as long as it was held).
        assert daemon.stop() == 0
        assert "another process has held the site's lock" in daemon.stderr(), daemon.stderr()
    with s.serve():  # the next start publishes what the stop left behind
        assert wait_for(lambda: "Zelda" in page.read_text(), 30), "the pages catch up once they can"

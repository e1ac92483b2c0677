"""A stop between marking filed messages `\\Deleted` and expunging them, on a server without
MOVE or UIDPLUS: the next start expunges what mailref had kept, never a person's marks."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from support.dovecot import Dovecot
from support.helpers import mail, maildir_mails, wait_for
from support.ops import Site

G = "nomes@ref.example"
pytestmark = [pytest.mark.dovecot, pytest.mark.spec("2.1")]
NO_MOVE_NO_UIDPLUS = "IMAP4rev1 LITERAL+ SASL-IR LOGIN-REFERRALS ID ENABLE IDLE NAMESPACE"


@contextmanager
def server(**kw) -> Iterator[Dovecot]:
    root = Path(tempfile.mkdtemp(prefix="mailref-dovecot-"))
    d = Dovecot(root, **kw).start()
    try:
        yield d
    finally:
        d.stop()
        shutil.rmtree(root, ignore_errors=True)


def in_folder(c, folder: str) -> list[tuple[bytes, bool]]:
    """Each message's sender mailbox and whether it is marked \\Deleted."""
    c.select_folder(folder)
    got = c.fetch("1:*", ["FLAGS", "ENVELOPE"]) if c.search(["ALL"]) else {}
    return sorted(
        (m[b"ENVELOPE"].from_[0].mailbox, b"\\Deleted" in m[b"FLAGS"]) for m in got.values()
    )


def acks(root: Path) -> list[str]:
    """Who was answered: a newcomer's [Join] is answered with its confirmation (SPEC §2.3)."""
    kinds = ("ack", "confirm")
    return sorted(m["To"] for m in maildir_mails(root) if m["X-Mailref-Kind"] in kinds)


def test_a_stop_before_the_expunge_leaves_nothing_of_ours_and_a_persons_mark_stays(tmp_path):
    with server(capabilities=NO_MOVE_NO_UIDPLUS) as d:
        c = d.client()
        assert b"UIDPLUS" not in c.capabilities() and b"MOVE" not in c.capabilities()
        c.create_folder("games")
        # The GM's client marked this one deleted, not expunged yet: it stays as the GM left it.
        c.append("games", mail("dave@x.org", G, "[Join]", "Name: Dave"), flags=[b"\\Deleted"])
        c.append("games", mail("alice@x.org", G, "[Join]", "Name: Alice"))
        c.append("games", mail("bob@x.org", G, "[Join]", "Name: Bob"))
        site = Site(tmp_path, smtp_in=False, extra=d.imap_toml("games", "1s"))
        site.create_game("nomes", "sidekick", G)
        marker = tmp_path / "crashed"
        daemon = site.serve(
            MAILREF_TEST_CRASH="before-expunge", MAILREF_TEST_CRASH_MARKER=str(marker)
        )
        assert daemon.proc.wait(60) == 137 and marker.read_text() == "before-expunge"
        daemon.stop()
        # As the stop left it: filed by COPY and marked, never expunged.
        assert in_folder(c, "games") == [(b"alice", True), (b"bob", True), (b"dave", True)]
        assert len(in_folder(c, "games-done")) == 2

        with site.serve() as again:
            assert wait_for(lambda: in_folder(c, "games") == [(b"dave", True)], 30), in_folder(
                c, "games"
            )
            assert wait_for(lambda: len(acks(tmp_path)) >= 2, 15)
            assert len(in_folder(c, "games-done")) == 2  # not filed a second time
            assert again.stop() == 0
        log = again.stderr()
        c.logout()
    said = [ln for ln in log.splitlines() if "expunged" in ln]
    assert len(said) == 1 and "2 message(s)" in said[0], log
    assert acks(tmp_path) == ["alice@x.org", "bob@x.org"]  # answered once, never twice
    assert "Traceback" not in log

"""Mail out as an operator runs it (SPEC §4.3): every row is claimed before it is
sent, so the daemon and CLI commands beside it deliver each row once; a bad row fails alone;
a row that cannot be marked sent is never sent again in a loop."""

from __future__ import annotations

import logging
import smtplib
import sqlite3
import time
from datetime import timedelta

import pytest
from sqlalchemy import select

from mailref.config import SmtpOut
from mailref.door import Settings
from mailref.mail.outbox import LEASE
from mailref.mail.relay_lanes import RELAY_SESSIONS
from mailref.store import OutboxMessage, open_store
from mailref.timeutil import utcnow
from mailref.write.compose import compose, wire
from support.delivery import Deliverer
from support.helpers import MailedReferee, mail, make_referee, wait_for
from support.ops import CountingSink, Site

pytestmark = pytest.mark.spec("4.3")

G = "nomes@ref.example"


def rows(store) -> list[OutboxMessage]:
    with store() as s:
        return list(s.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def test_daemon_and_cli_commands_beside_it_deliver_each_row_exactly_once(tmp_path):
    with CountingSink(delay=0.01) as sink:
        site = Site(tmp_path, relay_port=sink.port)
        seed_game(site, "Alice", "Bob", "Carol")
        with site.serve() as daemon:
            clis = [site.start_cli("digest", "nomes") for _ in range(2)]
            clis += [site.start_cli("outbox", "retry") for _ in range(2)]
            with smtplib.SMTP("127.0.0.1", site.smtp_port) as c:
                for i in range(12):
                    frm = f"p{i}@players.example"
                    c.sendmail(frm, [G], mail(frm, G, "[Help]"))
            clis += [site.start_cli("outbox", "retry")]
            for p in clis:
                out, err = p.communicate(timeout=120)
                assert p.returncode == 0, err
            store = open_store(f"sqlite:///{site.db}")
            try:
                done = wait_for(
                    lambda: all(r.status == "sent" for r in rows(store)) and rows(store), 60
                )
                assert done, [(r.id, r.status, r.last_error) for r in rows(store)]
                queued = rows(store)
            finally:
                store.dispose()
            assert daemon.stop() == 0
    counts = sink.message_ids()
    assert len(queued) >= 12 + 2 + 3  # help replies, digests, announcements
    assert {r.message_id for r in queued} == set(counts)
    assert [mid for mid, n in counts.items() if n != 1] == [], "a row reached the relay twice"


def seed_game(site: Site, *players: str) -> None:
    """A game and its players in the site's database, as earlier CLI commands left them."""
    referee = MailedReferee(
        open_store(f"sqlite:///{site.db}"),
        Settings("referee@ref.example", "gm@ref.example"),
        utcnow,
    )
    try:
        referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
        for name in players:
            assert referee.admin(
                "nomes",
                {"type": "player_add", "name": name, "address": f"{name.lower()}@players.example"},
                "test",
            ).ok
    finally:
        referee.store.dispose()


def _insert_row(store, recipient: str, now) -> int:
    msg = compose(
        sender="referee@ref.example",
        to="joerg@example.org",
        subject="legacy row",
        body="hello\n",
        kind="notice",
        game="nomes",
        now=now,
    )
    with store() as s, s.begin():
        row = OutboxMessage(
            game_slug="nomes",
            kind="notice",
            recipients=[recipient],
            message_id=msg["Message-ID"],
            subject="legacy row",
            raw=wire(msg),
            status="queued",
            next_attempt_at=now,
            created_at=now,
        )
        s.add(row)
        s.flush()
        return row.id


def test_a_bad_row_fails_alone_with_its_reason_and_the_others_go_out_in_the_same_round(
    referee, clock
):
    referee.create_game("nomes", "sidekick", G)
    referee.accept(mail("alice@x.org", G, "[Help]"))
    bad = _insert_row(
        referee.store, "jörg@example.org", clock()
    )  # needs SMTPUTF8, which this relay lacks
    referee.accept(mail("bob@x.org", G, "[Help]"))
    with CountingSink(smtputf8=False) as sink:
        d = Deliverer(
            referee.store,
            "referee@ref.example",
            SmtpOut(host="127.0.0.1", port=sink.port),
            "-",
            "gm@ref.example",
        )
        assert d.deliver(clock()) == (2, 1)
        assert sink.sessions <= RELAY_SESSIONS, "the batch's connections, not one per row"
        assert sorted(r for rcpt, _ in sink.mails for r in rcpt) == ["alice@x.org", "bob@x.org"]
        row = next(r for r in rows(referee.store) if r.id == bad)
        assert row.status == "failed" and "does not offer SMTPUTF8" in row.last_error
        clock.advance(days=1)
        assert d.deliver(clock()) == (1, 0)  # the GM is told once, the bad row is not tried again
        assert d.deliver(clock() + timedelta(days=3)) == (0, 0)
        alert = sink.parsed()[-1]
        assert alert["To"] == "gm@ref.example" and f"#{bad}" in alert.get_content()
    assert len(sink.mails) == 3


def test_a_recipient_no_relay_can_take_is_refused_at_queue_time(referee, clock, caplog):
    """An address literal is no address we send to (a non-ASCII one is: it goes with SMTPUTF8,
    tests/intake/test_utf8_addresses.py)."""
    referee.create_game("nomes", "sidekick", G)
    raw = (
        "From: =?utf-8?q?j=C3=B6rg?= <jörg@[192.0.2.1]>\r\nTo: "
        + G
        + "\r\nSubject: [Help]\r\nMessage-ID: <jorg1@example.org>\r\nContent-Type: text/plain; "
        "charset=utf-8\r\n"
        "\r\nhelp me\r\n"
    ).encode()
    with caplog.at_level(logging.WARNING, logger="mailref.door"):
        stored = referee.accept(raw)
    assert stored.status == "processed"
    assert rows(referee.store) == []
    assert "[192.0.2.1]" in caplog.text and "not queued" in caplog.text


def test_a_claimed_row_is_sent_by_its_claimant_only_until_the_lease_runs_out(referee, clock):
    referee.create_game("nomes", "sidekick", G)
    referee.accept(mail("alice@x.org", G, "[Help]"))
    first = Deliverer(referee.store, "r@ref.example", None, "-", "gm@ref.example", name="daemon-1")
    second = Deliverer(referee.store, "r@ref.example", None, "-", "gm@ref.example", name="cli-2")
    (claimed,) = first.claim(clock())
    assert claimed.claimed_by == "daemon-1" and claimed.status == "sending"
    assert second.claim(clock()) == []
    assert second.claim(clock(), only=claimed.id) == []
    (taken,) = second.claim(clock() + LEASE + timedelta(seconds=1))  # daemon-1 died with it
    assert taken.id == claimed.id and taken.claimed_by == "cli-2"


def test_a_row_that_cannot_be_marked_sent_is_not_sent_again_and_the_gm_is_told_once(
    tmp_path, clock, monkeypatch
):
    monkeypatch.setenv("MAILREF_LOCK_WAIT", "0.2")
    referee = make_referee(tmp_path, clock)
    referee.create_game("nomes", "sidekick", G)
    referee.accept(mail("alice@x.org", G, "[Help]"))
    locker = sqlite3.connect(
        tmp_path / "mailref.sqlite3", isolation_level=None, check_same_thread=False
    )

    def lock_the_database(envelope):
        if not locker.in_transaction:  # another process takes the write lock under our feet
            locker.execute("BEGIN EXCLUSIVE")

    try:
        with CountingSink(on_data=lock_the_database) as sink:
            d = Deliverer(
                referee.store,
                "referee@ref.example",
                SmtpOut(host="127.0.0.1", port=sink.port),
                "-",
                "gm@ref.example",
            )
            assert d.deliver(clock()) == (0, 0)
            for _ in range(5):
                assert d.deliver(clock()) == (0, 0)
            kinds = [m["X-Mailref-Kind"] for m in sink.parsed()]
            assert kinds == ["help", "alert"], "sent once, and one alert past the store"
            assert "could not be marked as sent" in sink.parsed()[1].get_content()
            locker.execute("COMMIT")
            time.sleep(1.1)
            d.deliver(clock())
            assert [r.status for r in rows(referee.store)] == ["sent"]
            assert len(sink.mails) == 2
    finally:
        locker.close()
        referee.store.dispose()


def test_outbox_drop_is_audited_and_final(tmp_path):
    site = Site(tmp_path, smtp_in=False)
    seed_game(site, "Alice")
    store = open_store(f"sqlite:///{site.db}")
    try:
        row = rows(store)[0]
        r = site.cli(
            "outbox", "drop", str(row.id), "--reason", "Alice asked for no mail", "--as", "gm-anna"
        )
        assert r.returncode == 0, r.stderr
        dropped = rows(store)[0]
        assert (dropped.status, dropped.dropped_by, dropped.drop_reason) == (
            "dropped",
            "gm-anna",
            "Alice asked for no mail",
        )
        assert dropped.dropped_at is not None
        again = site.cli("outbox", "retry", str(row.id))
        assert again.returncode == 1 and "dropped" in again.stderr
        assert site.cli("outbox", "drop", "999").returncode == 1
    finally:
        store.dispose()

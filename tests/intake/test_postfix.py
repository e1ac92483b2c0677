"""Mail through a real Postfix both ways (a private instance, tests/support/postfix.py):
players -> Postfix -> mailref over `lmtp:` and over `smtp:`, queued while mailref is down
and delivered once after it comes up; and mailref -> Postfix with its default limits ->
the players' Maildir, an Eire turn's results with the map arriving intact."""

from __future__ import annotations

import email
import email.policy
import smtplib
import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import select

from mailref.config import SmtpOut
from mailref.mail.smtp import Listener
from mailref.store import OutboxMessage
from support.delivery import Deliverer
from support.dovecot import free_port
from support.helpers import Outbox, mail, process_all, wait_for
from support.joining import confirm_waiting
from support.listener import game_on_sqlite, kept
from support.postfix import MAILDIR_DOMAIN, Postfix, postfix_binary

G, OTHER = "nomes@ref.example", "other@ref.example"

pytestmark = pytest.mark.skipif(
    postfix_binary() is None, reason="postfix not installed (scripts/setup --test)"
)

referee = pytest.fixture(game_on_sqlite)
NEXTHOP = {"lmtp": "lmtp:inet:[127.0.0.1]:{port}", "smtp": "smtp:[127.0.0.1]:{port}"}


def through(pf: Postfix, sender: str, rcpts: list[str], raw: bytes) -> None:
    """A player's MTA handing RAW to Postfix."""
    with smtplib.SMTP("127.0.0.1", pf.port, timeout=30) as c:
        c.sendmail(sender, rcpts, raw)


def nothing_listens(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return True
    return False


@pytest.mark.parametrize("kind", ["lmtp", "smtp"])
def test_players_mail_through_postfix_is_kept_once_and_answered(referee, kind):
    """Two mails for the game (one naming it only in the envelope, as a Bcc or a list does)
    pass Postfix to the listener: each kept once, each answered by the game it was for."""
    referee.create_game("other", "sidekick", OTHER)
    port = free_port()
    with (
        listening_on(referee, kind, port),
        Postfix({"ref.example": NEXTHOP[kind].format(port=port)}, ["ref.example"]) as pf,
    ):
        one = mail("ann@x.org", G, "[Help]")
        bcc = mail("ben@x.org", "players@lists.example", "[Help]")
        through(pf, "ann@x.org", [G], one)
        through(pf, "ben@x.org", [OTHER], bcc)
        assert wait_for(lambda: len(kept(referee)) == 2 and pf.queued() == 0, 30), pf.log()
    rows = kept(referee)
    assert sorted(r.rcpt_to[0] for r in rows) == [G, OTHER]
    assert all(b"Received: from" in r.raw for r in rows)  # through Postfix indeed
    replies = {m["To"]: m["X-Mailref-Game"] for m in Outbox(referee).all()}
    assert replies == {"ann@x.org": "nomes", "ben@x.org": "other"}


@pytest.mark.parametrize("kind", ["lmtp", "smtp"])
def test_while_mailref_is_down_postfix_queues_the_mail_and_delivers_it_once_after(referee, kind):
    port = free_port()
    raw = mail("ann@x.org", G, "[Help]")
    with Postfix({"ref.example": NEXTHOP[kind].format(port=port)}, ["ref.example"]) as pf:
        assert nothing_listens(port)
        through(pf, "ann@x.org", [G], raw)
        assert wait_for(lambda: "status=deferred" in pf.log(), 30), pf.log()
        assert pf.queued() == 1 and kept(referee) == []  # queued, not bounced
        with listening_on(referee, kind, port):
            pf.flush()
            # Postfix's log is written by its own process, after the queue may be empty.
            assert wait_for(
                lambda: pf.queued() == 0 and kept(referee) and "status=sent" in pf.log(), 60
            ), pf.log()
            pf.flush()  # nothing left to send again
            assert "status=sent" in pf.log()
        assert "status=bounced" not in pf.log()
    assert [r.raw.split(b"\r\n\r\n", 1)[1] for r in kept(referee)] == [raw.split(b"\r\n\r\n", 1)[1]]
    assert len(Outbox(referee).all()) == 1


def test_a_recipient_no_game_plays_at_is_refused_over_lmtp_and_the_others_are_kept(referee):
    """Postfix hands one mail for two recipients over LMTP; the one that is no game's address
    is refused (550: Postfix bounces it for that recipient alone), the game's is kept."""
    port = free_port()
    with (
        listening_on(referee, "lmtp", port),
        Postfix({"ref.example": NEXTHOP["lmtp"].format(port=port)}, ["ref.example"]) as pf,
    ):
        through(pf, "ann@x.org", [G, "nobody@ref.example"], mail("ann@x.org", G, "[Help]"))
        assert wait_for(lambda: "status=bounced" in pf.log() and kept(referee), 30), pf.log()
        # The bounce notice to ann@x.org (a domain that does not resolve here) is bounced too.
        bounced = [
            line
            for line in pf.log().splitlines()
            if "status=bounced" in line and "x.org" not in line
        ]
        assert (
            len(bounced) == 1 and "to=<nobody@ref.example>" in bounced[0] and "550" in bounced[0]
        ), bounced
        assert f"to=<{G}>" not in "".join(bounced)
    (row,) = kept(referee)
    assert row.rcpt_to == [G]


def test_an_eire_turn_s_results_with_the_map_pass_postfix_intact(tmp_path, clock):
    """mailref's relay is a Postfix with its default limits (line length, header and message
    size): every mail of an Eire turn, the results with the map as PNG and SVG, arrives in the
    players' Maildir with its body byte for byte as it left."""
    from support.helpers import make_referee, migrated_sqlite

    r = make_referee(tmp_path, clock, url=migrated_sqlite(tmp_path / "mailref.sqlite3"))
    g = "eire@ref.example"
    r.create_game("eire", "eire", g, gm=f"gm@{MAILDIR_DOMAIN}", parameters={"start_grain": "30"})
    finn, maeve = f"finn@{MAILDIR_DOMAIN}", f"maeve@{MAILDIR_DOMAIN}"
    for who, body in (
        (finn, "Name: Finn\nColor: Green\nTribe: Plainsmen\nOrigin: Llanc"),
        (maeve, "Name: Maeve\nColor: Red\nTribe: Plainsmen\nOrigin: Donal"),
    ):
        r.accept(mail(who, g, "[Join]", body), "smtp", who, [g])
        confirm_waiting(r)
    assert r.admin("eire", {"type": "start"}, "gm").ok
    r.accept(mail(finn, g, "[Orders]", "**Invest 5 Grain in Llanc.**"), "smtp", finn, [g])
    r.accept(mail(maeve, g, "[Orders]", "**Defend Donal with 3 Grain.**"), "smtp", maeve, [g])
    with Postfix({}, []) as pf:
        d = Deliverer(
            r.store,
            "referee@ref.example",
            SmtpOut(host="127.0.0.1", port=pf.port),
            tmp_path / "out",
            f"gm@{MAILDIR_DOMAIN}",
        )
        sent, failed = d.deliver(clock())
        assert failed == 0 and sent > 0
        assert wait_for(lambda: len(pf.delivered()) == sent, 30), pf.log()
        arrived = {m["Message-ID"]: m for m in pf.delivered()}
    with r.store() as s:
        left = [
            email.message_from_bytes(bytes(raw), policy=email.policy.default)
            for raw in s.scalars(select(OutboxMessage.raw).order_by(OutboxMessage.id))
        ]
    assert sorted(arrived) == sorted(m["Message-ID"] for m in left)
    maps = 0
    for out in left:
        got = arrived[out["Message-ID"]]
        assert body_of(got.as_bytes()) == body_of(out.as_bytes()), out["Subject"]
        assert got["Subject"] == out["Subject"] and got["To"] == out["To"]
        pngs = [
            p.get_payload(decode=True) for p in got.walk() if p.get_content_type() == "image/png"
        ]
        maps += bool(pngs) and pngs[0][:8] == b"\x89PNG\r\n\x1a\n"
    assert maps >= 2  # the results with the map, to each player
    r.store.dispose()


def body_of(raw: bytes) -> bytes:
    """The body, after the header, line ends made LF (a Maildir holds LF)."""
    raw = raw.replace(b"\r\n", b"\n")
    return raw.split(b"\n\n", 1)[1]


@contextmanager
def listening_on(referee, kind: str, port: int) -> Iterator[None]:
    """REFEREE's listener, SMTP or LMTP (KIND), on PORT while the block runs."""
    lmtp = ("127.0.0.1", port) if kind == "lmtp" else None
    listener = Listener(
        referee,
        "127.0.0.1",
        None if lmtp else port,
        200_000,
        on_stored=lambda: process_all(referee),
        lmtp=lmtp,
    )
    listener.start()
    try:
        yield
    finally:
        listener.stop()

"""Joining by mail as SPEC §2.3 has it: the [Join], then the newcomer's plain Reply to the
confirmation the game sent to that address."""

from __future__ import annotations

import email.policy
import email.utils
from email.message import EmailMessage

from sqlalchemy import select

from mailref.store import OutboxMessage
from support.helpers import deliver, mail
from support.parsed import outgoing


def confirmation(referee, address: str):
    """The latest join confirmation the game sent ADDRESS, parsed; None when there is none.
    REFEREE: a referee, or the store of a daemon running elsewhere."""
    with getattr(referee, "store", referee)() as s:
        rows = s.execute(
            select(OutboxMessage.recipients, OutboxMessage.raw)
            .where(OutboxMessage.kind == "confirm")
            .order_by(OutboxMessage.id.desc())
        ).all()
    raw = next((r for rcpts, r in rows if address.lower() in [a.lower() for a in rcpts]), None)
    return outgoing(bytes(raw)) if raw is not None else None


def reply_to_confirmation(referee, address: str, body: str = "Yes, count me in.\n") -> bytes:
    """ADDRESS's plain Reply to its latest confirmation, as raw mail."""
    conf = confirmation(referee, address)
    assert conf is not None, f"no confirmation was sent to {address}"
    game = conf["From"].addresses[0].addr_spec
    if address.isascii():
        return mail(address, game, f"Re: {conf['Subject']}", body, in_reply_to=conf["Message-ID"])
    msg = EmailMessage(policy=email.policy.SMTPUTF8)  # an address as SMTPUTF8 writes it
    msg["From"], msg["To"], msg["Subject"] = address, game, f"Re: {conf['Subject']}"
    msg["Message-ID"] = email.utils.make_msgid(domain="players.example")
    msg["In-Reply-To"] = msg["References"] = conf["Message-ID"]
    msg.set_content(body)
    return msg.as_bytes()


def confirm(referee, address: str, body: str = "Yes, count me in.\n"):
    """ADDRESS answers its latest confirmation with a plain Reply; returns the stored mail."""
    reply = reply_to_confirmation(referee, address, body)
    game = confirmation(referee, address)["From"].addresses[0].addr_spec
    return deliver(referee, reply, "smtp", address, [game])


def join(referee, address: str, game: str, name: str, more: str = "", **kw):
    """ADDRESS sends [Join] (a `Name:` line and MORE lines) to GAME and confirms it; returns
    the stored confirming mail."""
    body = f"Name: {name}\n{more}"
    deliver(referee, mail(address, game, "[Join]", body, **kw), "smtp", address, [game])
    return confirm(referee, address)


def confirm_waiting(referee) -> None:
    """Every newcomer whose join waits for its confirmation answers it with a plain Reply."""
    from mailref.store import Game

    with referee.store() as s:
        waiting = [e["address"] for g in s.query(Game) for e in g.state.get("joining") or []]
    for address in waiting:
        confirm(referee, address)


def confirm_over_smtp(store, port: int, address: str, timeout: float = 30) -> None:
    """ADDRESS's plain Reply to its confirmation, once a daemon (over STORE) has sent it, into
    that daemon's SMTP listener at PORT."""
    import smtplib

    from support.helpers import wait_for

    assert wait_for(lambda: confirmation(store, address), timeout), f"no confirmation to {address}"
    raw = reply_to_confirmation(store, address)
    game = confirmation(store, address)["From"].addresses[0].addr_spec
    with smtplib.SMTP("127.0.0.1", port) as c:
        c.sendmail(address, [game], raw)


def confirm_on_site(site, address: str, timeout: float = 30, url: str = "") -> None:
    """ADDRESS's Reply to its confirmation, into the listener of the daemon SITE serves (its
    database at URL when not the site's own file)."""
    from mailref.store import open_store

    store = open_store(url or f"sqlite:///{site.db}", migrate=False)
    try:
        confirm_over_smtp(store, site.smtp_port, address, timeout)
    finally:
        store.dispose()

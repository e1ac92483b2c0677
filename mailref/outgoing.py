"""The mail a transaction queues: a game's mail to each recipient (threaded by matter) and
alerts to the GM, each a row of the outbox table written on the transaction's own connection;
the one reply to a command is reply.py's."""

from __future__ import annotations

import email.utils
import hashlib
import logging
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from mailref.engine.context import Outgoing
from mailref.engine.variants.inbox import setting
from mailref.engine.variants.watching import watchers_of
from mailref.read.subject import game_label, with_game_label
from mailref.render import render
from mailref.store import Game, OutboxMessage
from mailref.store.counters import count_mailed, count_reply
from mailref.store.keys import secret
from mailref.write import address
from mailref.write.compose import compose, wire
from mailref.write.lists import ANNOUNCING, list_headers, unsubscribe_token
from mailref.write.nouns import reworded
from mailref.write.picture import svg_to_png
from mailref.write.taps import reply_links, taps_of, with_taps
from mailref.write.zones import rezone

log = logging.getLogger("mailref.door")  # the name operators filter the door's lines by


@dataclass
class Settings:
    from_address: str = "referee@localhost"
    admin_address: str = "gm@localhost"
    replies_per_day: int = 20
    # The same, to mail from an address that is no player's (see queue_reply).
    replies_per_stranger: int = 5
    site_url: str = ""  # [site] base_url: mail footers link to the game's pages
    # The https base of the one-click unsubscribe ([site] base_url where [web] listen is set).
    one_click_url: str = ""
    trusted_authserv_ids: tuple[str, ...] = ()  # [auth]: whose Authentication-Results count (§2.7)


def _page(settings: Settings, slug: str | None) -> dict[str, str]:
    return {
        "game_page": f"{settings.site_url}{slug}/" if settings.site_url and slug else "",
        "admin_address": settings.admin_address,
    }


@dataclass
class Source:
    """Where an action came from, and where its one reply goes (mail only)."""

    kind: str  # mail | timer | admin
    ref: str = ""  # inbox id, timer name, admin name
    reply_to: str | None = None
    message_id: str | None = None
    references: list[str] = field(default_factory=list)
    subject: str = ""
    inbox_id: int | None = None
    identity: str | None = (
        None  # the From addr-spec: the reply cap counts it too, whatever Reply-To says
    )
    stranger: bool = False  # the From address is no player's (nor the GM's) of the game it wrote to
    # A player's reply to a mail the game sent that player (SPEC §2.2): answered within an
    # allowance of its own, which forged mail cannot spend.
    answering: bool = False
    # The refusal of mail not verified as the sender's (SPEC §2.7), in this game: answered
    # within an allowance of its own per sender and game, which the player's mail never spends.
    unverified: str = ""

    def label(self) -> str:
        return f"{self.kind}:{self.ref}" if self.ref else self.kind


def recipients(state: dict, to: list[str] | str, settings: Settings) -> list[str]:
    # An open seat's former holder had the game's last mail to them (variants/substitutes).
    seats = [p for p in state["players"] if not p.get("vacant")]
    if to == "all":
        return [p["addresses"][0] for p in seats if p["status"] != "left"]
    if to == "gm":
        return [state.get("gm") or settings.admin_address]
    out = []
    for name in to:
        if "@" in name:
            out.append(name)
            continue
        p = next((q for q in seats if q["name"] == name), None)
        if p:
            out.append(p["addresses"][0])
    return out


def sender(state: dict | None, settings: Settings) -> str:
    """A game's mail is From the game (SPEC §2.3), so a plain Reply reaches it; the rest is
    From the referee. The envelope sender is always `from_address` (outbox delivery)."""
    if state and state.get("address") and state.get("name"):
        return email.utils.formataddr((state["name"], state["address"]))
    return settings.from_address


def said(template: str, **vars: Any) -> str:
    """TEMPLATE's text, in the game's own noun for a player where its ruleset gives one."""
    text = render(template, **vars)
    game = vars.get("game")
    return reworded(text, game) if isinstance(game, dict) else text


def game_subject(state: dict | None, subject: str) -> str:
    """Every subject a game sends names it: "[Nomes] [Proposal 12] Title"."""
    if state and state.get("slug") and state.get("name"):
        subject = reworded(subject, state)
        return with_game_label(subject, game_label(state["name"], state["slug"]))
    return subject


def pictures(
    out: Outgoing,
) -> tuple[list[tuple[str, str, str, bytes]], list[tuple[str, str, bytes]]]:
    """The engine's SVG pictures as inline PNGs (shown by every client), each SVG attached."""
    inline, attachments = [], list(out.attachments)
    for cid, stem, svg in out.images:
        png = svg_to_png(svg)
        if png is not None:
            inline.append((cid, f"{stem}.png", "image/png", png))
        attachments.append((f"{stem}.svg", "image/svg+xml", svg.encode("utf-8")))
    return inline, attachments


def reader_zone(state: dict | None, addr: str | None) -> str:
    """The zone ADDR's player asked for with `[Settings] zone:`, when not the game's."""
    if state is None:
        return ""
    a = (addr or "").lower()
    for p in state.get("players", ()):
        if a in p["addresses"]:
            zone = setting(p, "zone")
            return zone if zone and zone != state.get("timezone") else ""
    return ""


def one_click(session: Session, settings: Settings, state: dict, addr: str, kind: str) -> str:
    """The https URI that switches ADDR's player to the digest (RFC 8058), where the host
    serves one and the mail is an announcement; else ""."""
    if not settings.one_click_url or kind not in ANNOUNCING:
        return ""
    a = addr.lower()
    name = next((p["name"] for p in state["players"] if a in p["addresses"]), None)
    if name is None:
        return ""
    token = unsubscribe_token(secret(session, UNSUBSCRIBE_KEY), state["slug"], name)
    return f"{settings.one_click_url}unsubscribe/{token}"


UNSUBSCRIBE_KEY = "unsubscribe"  # the name of the HMAC key of the links in the secrets table


def held(state: dict, out: Outgoing) -> set[str]:
    """The addresses of the players on the daily digest, who get OUT in it instead."""
    names = set(out.held)
    return {p["addresses"][0].lower() for p in state["players"] if p["name"] in names}


def queue(
    session: Session,
    settings: Settings,
    game: Game | None,
    state: dict,
    out: Outgoing,
    now: datetime,
    exclude: set[str] | frozenset[str] = frozenset(),
) -> str:
    """Queue OUT to each of its recipients but EXCLUDE (the author, whose ack carries it);
    returns the rendered body."""
    page = {**_page(settings, state.get("slug")), "now": now, "mail_subject": out.subject}
    page["to_gm"] = out.to == "gm"  # the footer names the GM to everybody else
    page["reply_links"] = reply_links(state, out, game_subject)  # a digest item's own
    body = said(out.template, **{**page, **out.vars})
    taps = taps_of(state, out, game_subject) if game is not None else ([], [])
    zoned: dict[str, str] = {}  # body in a player's own zone (SPEC §2.5 `zone:`)
    inline, attachments = pictures(out)
    key = thread_key(out.subject) if game is not None else None
    on_digest = held(state, out)
    mailed: list[str] = []
    watching = set(watchers_of(state, out.kind, out.to))
    watched = said(out.template, **{**page, **out.vars, "to_watcher": True}) if watching else ""
    for addr in dict.fromkeys([*recipients(state, out.to, settings), *watching]):
        counted = addr  # as the door reads it back (mailed_today)
        if not addr.isascii():
            addr = address.ascii_domain(
                addr
            )  # a domain as DNS knows it; the local part may stay UTF-8
        if (
            addr.lower() in exclude
            or addr.lower() in on_digest
            or _undeliverable(addr, out.kind, state.get("slug"))
        ):
            continue
        thread = thread_id(game, key, addr, settings) if key and game is not None else None
        text, subject = watched if counted in watching else body, game_subject(state, out.subject)
        if zone := reader_zone(state, addr):
            if zone not in zoned:
                local = {**out.vars, "game": {**state, "timezone": zone}}
                zoned[zone] = rezone(said(out.template, **{**page, **local}), zone)
            text, subject = zoned[zone], rezone(subject, zone)
        msg = compose(
            sender=sender(state, settings),
            to=addr,
            subject=subject,
            body=with_taps(text, taps),
            kind=out.kind,
            game=state.get("slug"),
            now=now,
            html=out.html,
            attachments=attachments,
            loop=settings.from_address,
            inline=inline,
            message_id=thread if out.opens else None,
            in_reply_to=None if out.opens else thread,
            headers=list_headers(
                state,
                announcement=out.kind in ANNOUNCING,
                one_click=one_click(session, settings, state, addr, out.kind) if game else "",
                watcher=counted in watching,
            ),
        )
        _add(session.connection(), game.slug if game else None, out.kind, addr, msg, now)
        mailed.append(counted)
    if game is not None:
        count_mailed(session.connection(), game.slug, mailed, now.strftime("%Y-%m-%d"))
    return body


# The matter or turn a mail is about, from the tag its subject starts with: "[Proposal 12] …",
# "[CfJ 3] …", "[Turn 4] …", "[Results] Turn 4", the Emperor's "[Judge 12] …" (proposal 12).
_THREAD = re.compile(
    r"\[(Proposal|CfJ|DoV|Judgement|Point of Order|Turn|Judge) (\d+)\]|\[Results\] Turn (\d+)\b"
)


def thread_key(subject: str) -> str | None:
    m = _THREAD.match(subject)
    if not m:
        return None
    if m.group(3):
        return f"turn-{m.group(3)}"
    word = {"Judge": "proposal"}.get(m.group(1), m.group(1))
    return f"{word.lower().replace(' ', '-')}-{m.group(2)}"


def thread_id(game: Game, key: str, addr: str, settings: Settings) -> str:
    """The Message-ID of the mail that opened thread KEY for ADDR (`Outgoing.opens`): the
    reminders and results of the matter answer it, so mail clients thread them under it. One
    per game, matter and recipient, made again from these whenever needed: nothing is stored.
    (A game's numbers are never reused; its creation time tells a game from an older one of
    the same slug.)"""
    domain = (
        game.address.rpartition("@")[2] or settings.from_address.rpartition("@")[2] or "localhost"
    ).lower()
    who = hashlib.sha256(addr.lower().encode("utf-8")).hexdigest()[:12]
    slug = re.sub(r"[^A-Za-z0-9-]", "-", game.slug)
    return f"<{key}.{slug}.{game.created_at:%Y%m%d%H%M%S}.{who}@{domain}>"


def confirmation_id(game: Game, token: str, settings: Settings) -> str:
    """The Message-ID of the confirmation of a join: a Reply names it, and so its code."""
    domain = game.address.rpartition("@")[2] or settings.from_address.rpartition("@")[2]
    return f"<join.{token}@{(domain or 'localhost').lower()}>"


def queue_alert(
    session: Session,
    settings: Settings,
    slug: str | None,
    gm: str | None,
    subject: str,
    lines: list[str],
    now: datetime,
    label: str = "",
) -> None:
    """An alert that is no game's own mail (a quarantined mail, mail to postmaster, mail that
    cannot be delivered) to GM, else the admin. SLUG: the game it concerns, if any; LABEL, when
    given with it, names it in the subject ("[LABEL] Alert: ...").

    At most `replies_per_day` such alerts reach one address a day, then one saying so: each
    is set off by mail anyone can send (mail to postmaster from a new address every time, mail
    that fails, replies a relay refuses), and the GM's mailbox is no place for a flood of them.
    The mail itself is kept; `mailref mail list` and `outbox list` show what was not told."""
    to = (gm or settings.admin_address).lower()
    count = count_reply(session.connection(), f"alerts:{to}", now.strftime("%Y-%m-%d"))
    if count > settings.replies_per_day + 1:
        log.warning(
            "alert not mailed (%s has had %s alerts today): %s",
            to,
            settings.replies_per_day,
            subject,
        )
        return
    if count == settings.replies_per_day + 1:
        subject = "Alert: more alerts today are not mailed"
        lines = [
            f"You have had {settings.replies_per_day} alerts today; the next ones until tomorrow "
            "(UTC) are only "
            "logged. This one was: " + " ".join(lines[:1])[:300],
            "See `mailref mail list --status failed`, `mailref mail list` (mail to postmaster) and "
            "`mailref outbox list` for what happened meanwhile.",
        ]
    queue(
        session,
        settings,
        None,
        {"slug": slug, "gm": gm, "name": label, "players": []},
        Outgoing("alert", "gm", subject, "alert.txt", {"game": {}, "lines": lines}),
        now,
    )


def gm_alerts(settings: Settings):
    """The outbox's way to tell a game's GM (who can act on it: tell the player, set another
    address) of its undelivered mail; the admin for mail of no game."""

    def alert(
        session: Session, slug: str | None, now: datetime, subject: str, lines: list[str]
    ) -> None:
        game = session.scalar(select(Game).where(Game.slug == slug)) if slug else None
        gm = game.state.get("gm") if game is not None else None
        queue_alert(session, settings, slug, gm, subject, lines, now)

    return alert


def _undeliverable(addr: str | None, kind: str, slug: str | None) -> bool:
    """Refused at queue time: a row no relay can take would only fail at every attempt."""
    why = address.problem(addr)
    if why:
        log.warning(
            "not queued: %s mail%s to %r: the address %s",
            kind,
            f" of {slug}" if slug else "",
            addr,
            why,
        )
    return why is not None


# One Core INSERT per outgoing mail, built once: no ORM object, no flush of the unit of work.
_OUTBOX_INSERT = insert(cast(Table, OutboxMessage.__table__))  # a mapped class's table is a Table


def _add(
    conn: Connection,
    slug: str | None,
    kind: str,
    addr: str,
    msg,
    now: datetime,
    inbox_id: int | None = None,
) -> None:
    conn.execute(
        _OUTBOX_INSERT,
        {
            "game_slug": slug,
            "kind": kind,
            "recipients": [addr],
            "message_id": msg["Message-ID"],
            "subject": str(msg["Subject"]),
            "raw": wire(msg),
            "status": "queued",
            "next_attempt_at": now,
            "created_at": now,
            "inbox_id": inbox_id,
        },
    )

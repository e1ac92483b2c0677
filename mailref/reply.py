"""The one reply to a command, within the sender's daily allowance (SPEC §2.2): to the address
that asked, carrying the pictures of the mail it announces, a row of the outbox table written
on the transaction's own connection as the game's mail is (outgoing.py)."""

from __future__ import annotations

from datetime import datetime
from html import escape as html_escape
from typing import Any

from sqlalchemy.orm import Session

from mailref.engine.context import Outgoing
from mailref.engine.variants.watching import watchers_of
from mailref.outgoing import (
    Settings,
    Source,
    _add,
    _page,
    _undeliverable,
    game_subject,
    pictures,
    reader_zone,
    said,
    sender,
)
from mailref.read.subject import reply_subject
from mailref.store.counters import count_mailed, count_reply
from mailref.write import address
from mailref.write.compose import compose
from mailref.write.lists import list_headers
from mailref.write.zones import rezone

Inline = list[tuple[str, str, str, bytes]]  # (content id, filename, mime, data)
Attachments = list[tuple[str, str, bytes]]  # (filename, mime, data)


def queue_reply(
    session: Session,
    settings: Settings,
    slug: str | None,
    source: Source,
    now: datetime,
    kind: str,
    template: str,
    vars: dict[str, Any],
    folded: list[Outgoing] | tuple[Outgoing, ...] = (),
    message_id: str | None = None,
    subject: str = "",
) -> bool:
    """The one reply to a command, within the sender's daily allowance (SPEC §2.2): past it,
    one notice and then silence until the next UTC day. FOLDED: the mail to players the reply
    carries (apply), whose pictures it carries too; MESSAGE_ID: the thread that mail opens for
    the author (thread_id), so its reminders and results follow the ack; SUBJECT: what the
    reply answers, in place of the mail's own (a confirmation's). False when the reply
    asked for was not queued (the quota notice instead, or nothing)."""
    reply_to = source.reply_to
    addr = address.ascii_domain(reply_to) if reply_to and not reply_to.isascii() else reply_to
    if _undeliverable(addr, kind, slug) or addr is None or reply_to is None:
        return False  # no address is undeliverable too
    day = now.strftime("%Y-%m-%d")
    # Counted per reply address and per sender: a sender who changes Reply-To on every mail
    # still gets only the day's allowance. One atomic upsert each: several daemons
    # may answer one sender at once (SPEC §6).
    # Statements on the transaction's connection: the ORM session's own execute path (and
    # finding its connection, each time) cost more than the statements.
    conn, count = session.connection(), 0
    for who in dict.fromkeys(a for a in (addr, source.identity) if a):
        if source.unverified:
            who = f"unverified:{source.unverified}:{who}"
        elif source.answering:
            who = f"answers:{who}"
        count = max(count, count_reply(conn, who, day))
    # Anyone can write From (or Reply-To) any address: a stranger's mail could make the referee
    # mail a third party of the stranger's choosing 21 times a day, its subject echoed back
    # each time. An address that plays no game it wrote to gets a few answers a day (help, a
    # refusal, the [Join] that makes it a player); a player the full allowance.
    limit = (
        min(settings.replies_per_stranger, settings.replies_per_day)
        if source.stranger or source.unverified
        else settings.replies_per_day
    )
    if count > limit + 1:
        return False
    quota = count == limit + 1
    if quota:
        kind, template, folded, subject = "error", "quota.txt", (), ""
        vars = {"limit": limit, "game": vars.get("game") or {}}
    subject = reply_subject(subject or source.subject)
    state = vars.get("game") if slug and isinstance(vars.get("game"), dict) else None
    page = {**_page(settings, slug), "now": now, "to_gm": _is_gm(state, addr, settings)}
    page["to_watcher"] = bool(state and addr.lower() in watchers_of(state, "announcement", "all"))
    body = said(template, **{**page, **vars})
    if state and (zone := reader_zone(state, addr)):
        local = {**vars, "game": {**state, "timezone": zone}}
        body = rezone(said(template, **{**page, **local}), zone)
    html: str | None
    inline: Inline | None
    attachments: Attachments | None
    html, inline, attachments = (
        _carried_pictures(body, folded)
        if any(o.images or o.attachments for o in folded)
        else (None, None, None)
    )
    msg = compose(
        sender=sender(state, settings),
        to=addr,
        subject=game_subject(state, subject),
        body=body,
        kind=kind,
        game=slug,
        now=now,
        reply=True,
        in_reply_to=source.message_id,
        references=source.references,
        loop=settings.from_address,
        html=html,
        inline=inline,
        attachments=attachments,
        message_id=None if quota else message_id,
        headers={**list_headers(state), **refusal_header(vars)},
    )
    _add(conn, slug, kind, addr, msg, now, source.inbox_id)
    if slug:
        count_mailed(conn, slug, [reply_to], day)
    return not quota


def _is_gm(state: dict[str, Any] | None, addr: str | None, settings: Settings) -> bool:
    """Whether ADDR is the GM of the game of STATE (the admin, where it names none)."""
    gm = (state or {}).get("gm") or settings.admin_address
    return bool(state and addr and addr.lower() == str(gm).lower())


def refusal_header(vars: dict[str, Any]) -> dict[str, str]:
    """An error reply names its refusal's code (engine/refusals/), for a filter or a test to
    read; an error that is no refusal (an oversize mail) has none."""
    code = vars.get("refusal")
    return {"X-Mailref-Refusal": code} if code else {}


def _carried_pictures(
    body: str, folded: list[Outgoing] | tuple[Outgoing, ...]
) -> tuple[str | None, Inline | None, Attachments]:
    """The pictures of the mail an ack carries: each inline PNG shown under the ack's text in
    an HTML alternative, each SVG (and any other attachment) attached, as in the mail itself."""
    inline: Inline = []
    attachments: Attachments = []
    imgs = ""
    for out in folded:
        i, a = pictures(out)
        inline += i
        attachments += a
        imgs += "".join(
            f'<p><img src="cid:{cid}" alt="{html_escape(out.subject)}"></p>' for cid, *_ in i
        )
    if not inline:
        return None, None, attachments
    return f"<html><body><pre>{html_escape(body)}</pre>{imgs}</body></html>", inline, attachments

"""A mail over the size limit in the IMAP folder: only its header is kept, and its sender is
told from the game it was for. The poller hands the header over (Referee.keep, `over_limit`)."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from sqlalchemy import select

from mailref.outgoing import Source
from mailref.read import match_game, read_envelope
from mailref.reply import queue_reply
from mailref.safe import one_line

if TYPE_CHECKING:
    from mailref.referee import Referee
    from mailref.referee.mails import Stored

log = logging.getLogger("mailref.imap")


def kept_head(head: bytes, size: int, max_size: int) -> bytes:
    """What the inbox keeps of a mail over the size limit: its header, and a note of why."""
    note = (
        f"\r\nX-Mailref-Truncated: {size} bytes over the limit of {max_size}; only the header is "
        "kept\r\n\r\n"
    ).encode()
    return head.rstrip(b"\r\n") + note


def too_large(referee: Referee, stored: Stored, head: bytes, size: int, max_size: int) -> str:
    """Tell the sender of a mail over the size limit, kept as STORED (Referee.keep), from the
    game it was for (so a plain Reply reaches that game); its status."""
    started = time.monotonic()
    if not stored.new:
        return "ignored"
    env = read_envelope(head, own_address=referee.settings.from_address)
    with referee.store() as s, s.begin():
        from mailref.store import Game, InboxMessage

        row = s.get_one(InboxMessage, stored.id)  # kept a moment ago (Referee.keep)
        games = {g.slug: g.address for g in s.execute(select(Game.slug, Game.address))}
        slug = match_game(env.recipients, games)
        row.status, row.verdict = "ignored", f"too large: {size} bytes (limit {max_size})"
        row.sender, row.subject, row.game_slug = (
            env.from_addr or "",
            env.subject.raw[:500],
            slug,
        )
        if env.machine is None and env.from_addr:
            state = s.scalar(select(Game.state).where(Game.slug == slug)) if slug else {}
            # A stranger's few answers a day (reply.queue_reply), as for mail read whole.
            known = (
                any(env.from_addr in p["addresses"] for p in (state or {}).get("players", []))
                or env.from_addr == str((state or {}).get("gm") or "").lower()
            )
            queue_reply(
                s,
                referee.settings,
                slug,
                Source(
                    "mail",
                    str(stored.id),
                    env.reply_to or env.from_addr,
                    env.message_id,
                    env.references,
                    env.subject.raw[:200],
                    stored.id,
                    identity=env.from_addr,
                    stranger=not known,
                ),
                referee.clock(),
                "error",
                "error.txt",
                {
                    "reason": f"your mail is {size // 1024} KB, over the referee's limit of "
                    f"{max_size // 1024} KB, so it was not read",
                    "hint": "send the command again without attachments",
                    "subject": env.subject.raw[:200],
                    "game": state or {},
                },
            )
    log.info(
        "mail #%s from %s game=%s tag=%s: ignored: %s (%d ms)",
        stored.id,
        one_line(env.from_addr or "-"),
        slug or "-",
        env.subject.tag or "-",
        one_line(row.verdict),
        (time.monotonic() - started) * 1000,
    )
    return "ignored"

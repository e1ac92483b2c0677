"""What only the store knows, for the GM's digest: mail quarantined, mail answered with an
error, bounces."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Row, func, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from mailref.referee import verdicts
from mailref.store import Bounce, Game, InboxMessage
from mailref.timeutil import iso

# Lines of each kind (quarantined, answered with an error, bounces) a GM's digest lists.
FACTS_MAX = 50


def digest_facts(s: Session, game: Game, now: datetime) -> dict[str, Any]:
    """The newest FACTS_MAX of each kind and how many more. Only the columns shown are read,
    never the raw bytes: a day of a stranger's big mail stays out of memory at every deadline."""
    since = now - timedelta(days=1)
    failed = (InboxMessage.status == verdicts.FAILED) & (
        (InboxMessage.game_slug == game.slug) | InboxMessage.game_slug.is_(None)
    )
    rejected = (
        (InboxMessage.game_slug == game.slug)
        & (InboxMessage.received_at >= since)
        & InboxMessage.verdict.like(verdicts.ERROR.rstrip() + "%")
    )
    bounced = (Bounce.game_slug == game.slug) & (Bounce.at >= since)
    q = _newest(
        s,
        failed,
        InboxMessage.id,
        InboxMessage.sender,
        InboxMessage.mail_from,
        InboxMessage.subject,
        InboxMessage.error,
    )
    r = _newest(
        s,
        rejected,
        InboxMessage.id,
        InboxMessage.sender,
        InboxMessage.subject,
        InboxMessage.verdict,
    )
    b = _newest(s, bounced, Bounce.id, Bounce.at, Bounce.address, Bounce.player)
    return {
        "quarantined": [
            {
                "id": m.id,
                "sender": m.sender or m.mail_from,
                "subject": m.subject[:200],
                "error": m.error.splitlines()[0][:300] if m.error else "",
            }
            for m in q[0]
        ],
        "quarantined_more": q[1],
        "rejected": [
            {"id": m.id, "sender": m.sender, "subject": m.subject[:200], "verdict": m.verdict[:300]}
            for m in r[0]
        ],
        "rejected_more": r[1],
        "bounces": [{"at": iso(x.at), "address": x.address, "player": x.player} for x in b[0]],
        "bounces_more": b[1],
    }


def _newest(
    s: Session,
    where: ColumnElement[bool],
    id_col: InstrumentedAttribute[int],
    *cols: InstrumentedAttribute[Any],
) -> tuple[Sequence[Row[Any]], int]:
    """The newest FACTS_MAX rows WHERE (oldest first), and how many older ones there are."""
    rows = s.execute(
        select(id_col, *cols).where(where).order_by(id_col.desc()).limit(FACTS_MAX)
    ).all()
    more = (
        (s.scalar(select(func.count()).select_from(id_col.class_).where(where)) or 0) - len(rows)
        if len(rows) == FACTS_MAX
        else 0
    )
    return rows[::-1], more

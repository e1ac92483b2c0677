"""A mail whose processing failed: kept with its error (status failed) and the GM alerted,
so the operator can fix the cause and run `mailref mail reprocess`."""

from __future__ import annotations

import logging
import traceback
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from mailref.outgoing import Settings, queue_alert
from mailref.read.subject import game_label
from mailref.referee import verdicts
from mailref.referee.mails import Mail
from mailref.store import Game
from mailref.store.faults import is_store_fault

log = logging.getLogger("mailref")


def quarantine_mail(s: Session, settings: Settings, row: Mail, e: Exception, now: datetime) -> None:
    """Keep the mail and the error, tell the GM (in the batch's transaction)."""
    err = f"{type(e).__name__}: {e}"
    # What to do, in the line itself: that the mail was kept, who was told, how to retry it.
    log.error(
        "message #%s from %s quarantined (kept, status failed; the GM is alerted): %s; "
        "once the cause is fixed: mailref mail reprocess %s",
        row.id,
        row.sender or row.mail_from or "?",
        err,
        row.id,
        exc_info=e,
    )
    trace = "".join(traceback.format_exception(e))[-2000:]
    row.lease_until = None
    row.status, row.error = verdicts.FAILED, err + "\n" + trace
    try:
        with (
            s.begin_nested()
        ):  # an alert that cannot be queued must not hold up the rest of the batch
            # The game's GM (SPEC §2.1), the game named in the subject (§2.6); else the admin.
            game = (
                s.scalar(select(Game).where(Game.slug == row.game_slug)) if row.game_slug else None
            )
            gm = game.state.get("gm") if game is not None else None
            label = (
                game_label(game.state.get("name", ""), game.slug) if game is not None else "mailref"
            )
            queue_alert(
                s,
                settings,
                row.game_slug,
                gm,
                f"Alert: message #{row.id} quarantined",
                [
                    f"Message #{row.id} from {row.sender or row.mail_from or '?'} failed: {err}",
                    f"Retry with: mailref mail reprocess {row.id}",
                ],
                now,
                label=label,
            )
    except Exception as alert:
        if is_store_fault(alert) and not isinstance(alert, OSError):
            raise
        log.error("the alert for message #%s could not be queued", row.id, exc_info=alert)


def alert_timer_failed(store, settings: Settings, slug: str, e: Exception, now: datetime) -> None:
    """Tell the GM, once, that the game's deadline cannot fire (it is tried again, less often):
    the game waits until the cause is fixed, `mailref proposal fail` or a new value set."""
    with store() as s, s.begin():
        game = s.scalar(select(Game).where(Game.slug == slug))
        state = game.state if game is not None else {}
        queue_alert(
            s,
            settings,
            slug,
            state.get("gm"),
            f"Alert: the deadline of {slug} cannot fire",
            [
                f"The game's deadline failed: {type(e).__name__}: {e}",
                "The referee tries it again, less and less often, and says when it fires. "
                "Until then the game waits: look at `mailref game show "
                f"{slug}` and the log, and correct what it names.",
            ],
            now,
            label=game_label(state.get("name", ""), slug),
        )

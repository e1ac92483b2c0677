"""Delivery of the outbox: over an SMTP relay with retries and back-off, or into a Maildir
when no relay is configured. A row is marked sent only after the relay accepted it (so a
crash in between may send it twice, never zero times; the Message-ID is the same)."""

from __future__ import annotations

import logging
import mailbox
import smtplib
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import select

from mailref.config import SmtpOut
from mailref.store import OutboxMessage, Store

log = logging.getLogger("mailref.outbox")
ALERT_AFTER = timedelta(days=2)


def backoff(attempts: int) -> timedelta:
    return timedelta(seconds=min(30 * 2 ** max(attempts - 1, 0), 3600))


class Deliverer:
    def __init__(self, store: Store, sender: str, relay: SmtpOut | None, maildir: Path, admin: str):
        self.store, self.sender, self.relay, self.maildir, self.admin = store, sender, relay, Path(maildir), admin

    def _send_smtp(self, rows: list[OutboxMessage]) -> dict[int, str | None]:
        results: dict[int, str | None] = {}
        r = self.relay
        try:
            with smtplib.SMTP(r.host, r.port, timeout=30) as smtp:
                if r.starttls:
                    smtp.starttls()
                if r.username:
                    smtp.login(r.username, r.password)
                for row in rows:
                    try:
                        smtp.sendmail(self.sender, row.recipients, row.raw)
                        results[row.id] = None
                    except smtplib.SMTPException as e:
                        results[row.id] = f"{type(e).__name__}: {e}"
        except (OSError, smtplib.SMTPException) as e:
            for row in rows:
                results.setdefault(row.id, f"relay {r.host}:{r.port} unreachable: {e}")
        return results

    def _write_maildir(self, rows: list[OutboxMessage]) -> dict[int, str | None]:
        box = mailbox.Maildir(str(self.maildir), create=True)
        results: dict[int, str | None] = {}
        for row in rows:
            try:
                box.add(row.raw)
                results[row.id] = None
            except OSError as e:
                results[row.id] = f"maildir {self.maildir}: {e}"
        return results

    def deliver(self, now: datetime, only: int | None = None, limit: int = 200) -> tuple[int, int]:
        """Deliver what is due; returns (sent, failed)."""
        with self.store() as s:
            q = select(OutboxMessage).where(OutboxMessage.status == "queued", OutboxMessage.next_attempt_at <= now)
            if only is not None:
                q = select(OutboxMessage).where(OutboxMessage.id == only, OutboxMessage.status != "sent")
            rows = list(s.scalars(q.order_by(OutboxMessage.id).limit(limit)))
        if not rows:
            return 0, 0
        results = self._send_smtp(rows) if self.relay else self._write_maildir(rows)
        sent = failed = 0
        with self.store() as s, s.begin():
            for row in rows:
                row = s.get(OutboxMessage, row.id)
                err = results.get(row.id)
                row.attempts += 1
                if err is None:
                    row.status, row.sent_at, row.last_error = "sent", now, ""
                    sent += 1
                    continue
                failed += 1
                row.status, row.last_error = "queued", err
                row.next_attempt_at = now + backoff(row.attempts)
                if not row.alerted and now - row.created_at >= ALERT_AFTER and row.kind != "alert":
                    row.alerted = 1
                    self._alert(s, row, now)
                log.warning("outbox #%s not delivered (attempt %s): %s", row.id, row.attempts, err)
        return sent, failed

    def _alert(self, s, row: OutboxMessage, now: datetime) -> None:
        from mailref.door import Settings, queue
        from mailref.engine.context import Outgoing

        queue(s, Settings(self.sender, self.admin), None, {"slug": row.game_slug, "gm": None, "players": []},
              Outgoing("alert", "gm", "Alert: outgoing mail undelivered for 2 days", "alert.txt",
                       {"game": {}, "lines": [f"Outbox #{row.id} to {', '.join(row.recipients)} ({row.subject}) "
                                              f"is undelivered since {row.created_at:%Y-%m-%d %H:%M} UTC: {row.last_error}",
                                              "It is still being retried; `mailref outbox list` shows the queue."]}), now)

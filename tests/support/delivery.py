"""The outbox's Deliverer as the daemon and the CLI build it: it tells a game's GM of its
undelivered mail through the application's `gm_alerts`."""

from __future__ import annotations

from mailref.mail import outbox
from mailref.outgoing import Settings, gm_alerts


class Deliverer(outbox.Deliverer):
    def __init__(self, store, sender: str, relay, maildir, admin: str, **kw) -> None:
        kw.setdefault("alert", gm_alerts(Settings(sender, admin)))
        super().__init__(store, sender, relay, maildir, admin, **kw)

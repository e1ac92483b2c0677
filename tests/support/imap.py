"""The IMAP settings the tests give the poller for a private Dovecot."""

from __future__ import annotations

from mailref.config import Imap
from support.dovecot import PASSWORD, USER


def imap_cfg(dovecot, folder: str, **kw) -> Imap:
    return Imap(
        host="127.0.0.1",
        port=dovecot.port,
        ssl=False,
        username=USER,
        password=PASSWORD,
        folder=folder,
        processed_folder=f"{folder}-done",
        rejected_folder=f"{folder}-rejected",
        **kw,
    )

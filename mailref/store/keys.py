"""The host's secrets in the `secrets` table: each made once, at its first use, and kept."""

from __future__ import annotations

import secrets

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from mailref.store.models import Secret


def secret(session: Session, name: str) -> bytes:
    """The secret NAME (32 random bytes), made now when there is none. Two processes making
    it at once keep the first one committed: the loser reads it back."""
    value = session.scalar(select(Secret.value).where(Secret.name == name))
    if value is None:
        try:
            with session.begin_nested():
                session.add(Secret(name=name, value=secrets.token_hex(32)))
        except IntegrityError:
            pass
        value = session.scalar(select(Secret.value).where(Secret.name == name))
    assert value is not None  # written just above, or by whoever won the race to it
    return bytes.fromhex(value)

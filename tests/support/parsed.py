"""Mail parsed as `email.policy.default` parses it, but each header (name, value) once a
session and each outgoing mail once: the stock header registry makes a new class and parses
again on every access, and a test reads its outbox again and again. Header objects and
messages are only read, never changed, so sharing them changes nothing a test sees."""

from __future__ import annotations

import email
import email.headerregistry
import email.message
import email.policy
import functools


class _ParsedOnce(email.headerregistry.HeaderRegistry):
    """The same header objects (defects and all) as the stock registry's, made once."""

    def __init__(self) -> None:
        super().__init__()
        self._parse = functools.lru_cache(maxsize=20_000)(super().__call__)

    def __call__(self, name: str, value: str):
        return self._parse(name, value)


DEFAULT = email.policy.default.clone(header_factory=_ParsedOnce())
SMTPUTF8 = email.policy.SMTPUTF8.clone(header_factory=_ParsedOnce())


@functools.lru_cache(maxsize=2_000)
def outgoing(raw: bytes) -> email.message.EmailMessage:
    """An outbox row's mail as the player receives it."""
    return email.message_from_bytes(raw, policy=DEFAULT)

"""The command line's own arguments read and checked: KEY=VALUE pairs, row numbers, mail
addresses, text from standard input."""

from __future__ import annotations

import argparse
import sys

from mailref.engine.context import Refused


class Usage(Exception):
    """A command line that cannot be read: said in one line, exit code 2."""


def kv(items: list[str]) -> dict[str, str]:
    """KEY=VALUE items as a dict, stripped; anything else is a Usage error."""
    out = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise Usage(f"{item!r} is not KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def row_id(value: str) -> int:
    """A row number as SQLite and PostgreSQL can hold it."""
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not 0 < n < 2**63:
        raise argparse.ArgumentTypeError(f"{value} is not a row number (1 to {2**63 - 1})")
    return n


def checked_address(value: str, what: str, ascii_local: bool = False) -> str:
    """VALUE checked, its domain in IDNA form; ASCII_LOCAL for the game's own address (every
    mail is From it, so a relay without SMTPUTF8 must take it)."""
    from mailref.write.address import check

    try:
        return check(value, what, ascii_local)
    except ValueError as e:
        raise Refused("bad_address", why=e) from None


def text_of(value: str) -> str:
    """VALUE, or standard input when VALUE is -."""
    return sys.stdin.read().strip() if value == "-" else value

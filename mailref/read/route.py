"""Which game a message is for: by recipient, case-insensitively, with or without a +tag."""

from __future__ import annotations


def base_address(addr: str) -> str:
    addr = addr.strip().strip("<>").lower()
    local, _, domain = addr.partition("@")
    return f"{local.split('+', 1)[0]}@{domain}"


def is_postmaster(addr: str) -> bool:
    """RFC 5321 §4.5.1: `postmaster`, with or without a domain, in any case."""
    return base_address(addr).partition("@")[0] == "postmaster"


def match_game(recipients: list[str], games: dict[str, str], named: bool = False) -> str | None:
    """The slug whose address (in GAMES: slug -> address) is among RECIPIENTS; with exactly
    one game everything goes to it (unless NAMED: only a game the recipients name)."""
    wanted = {base_address(a): slug for slug, a in games.items()}
    for r in recipients:
        slug = wanted.get(base_address(r))
        if slug:
            return slug
    if len(games) == 1 and not named:
        return next(iter(games))
    return None

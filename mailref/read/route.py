"""Which game a message is for: by recipient, case-insensitively, with or without a +tag."""

from __future__ import annotations


def base_address(addr: str) -> str:
    addr = addr.strip().strip("<>").lower()
    local, _, domain = addr.partition("@")
    return f"{local.split('+', 1)[0]}@{domain}"


def match_game(recipients: list[str], games: dict[str, str]) -> str | None:
    """The slug whose address (in GAMES: slug -> address) is among RECIPIENTS; with exactly
    one game everything goes to it."""
    wanted = {base_address(a): slug for slug, a in games.items()}
    for r in recipients:
        slug = wanted.get(base_address(r))
        if slug:
            return slug
    if len(games) == 1:
        return next(iter(games))
    return None

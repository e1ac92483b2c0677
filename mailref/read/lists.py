"""Mail that a mailing list or our own mail brought back (SPEC §2.2, §2.3): a game's own
mail echoed by a list that strips our headers is no person's, and a command a player sent
through the game's own list is a person's, whatever `Precedence: list` the list added."""

from __future__ import annotations

import re

from mailref.read.route import base_address

_MAILTO = re.compile(r"<mailto:([^>?]+)", re.I)


def game_sending(address: str | None, games: dict[str, str]) -> str | None:
    """The game address (GAMES: slug -> address) ADDRESS is, with or without a +tag: only
    mailref writes From a game's address, so such mail is our own come back."""
    if not address:
        return None
    a = base_address(address)
    return next((g for g in games.values() if base_address(g) == a), None)


def list_post_address(headers: dict[str, str]) -> str | None:
    """The address a list's members post to (RFC 2369 List-Post), lower-cased."""
    m = _MAILTO.search(headers.get("list-post", ""))
    return m.group(1).strip().lower() if m else None


def through_its_list(list_id: str | None, game_list_id: object) -> bool:
    """Whether mail with the List-Id LIST_ID came through the list the game is played on
    (its `list_id` parameter, written with or without angle brackets)."""
    return (
        bool(list_id and game_list_id) and list_id == str(game_list_id).strip().strip("<>").lower()
    )

"""The list headers of a game's mail (SPEC §4.3): `List-Id` (RFC 2919) on all of it, so mail
programs can filter a game; on announcements `List-Unsubscribe` (RFC 2369) with
`List-Unsubscribe-Post` (RFC 8058), whose mailto switches the player to the daily digest."""

from __future__ import annotations

from urllib.parse import quote

from mailref.write.compose import header_safe

# What a mail program's unsubscribe button sends: a [Settings] command, so that leaving the
# single announcements never means leaving the game (short: a URI cannot be folded).
UNSUBSCRIBE_SUBJECT = "[Settings] digest"


def list_id(name: str, slug: str, address: str) -> str:
    """`Nomes <nomes.ref.example>`: the game's slug under its address's domain."""
    domain = address.rpartition("@")[2].lower() or "localhost"
    return f"{header_safe(name, 60)} <{slug}.{domain}>"


def list_headers(state: dict | None, announcement: bool = False) -> dict[str, str]:
    """The list headers of a mail of the game STATE (none for mail of no game)."""
    if not state or not state.get("address") or not state.get("slug"):
        return {}
    address, slug = state["address"], state["slug"]
    out = {"List-Id": list_id(state.get("name") or slug, slug, address)}
    if announcement:
        out["List-Unsubscribe"] = f"<mailto:{address}?subject={quote(UNSUBSCRIBE_SUBJECT)}>"
        out["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return out

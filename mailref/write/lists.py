"""The list headers of a game's mail (SPEC §4.3): `List-Id` (RFC 2919) on all of it, so mail
programs can filter a game; on announcements `List-Unsubscribe` (RFC 2369) with
`List-Unsubscribe-Post` (RFC 8058), whose mailto, and https link where the host serves one,
switch the player to the daily digest."""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any
from urllib.parse import quote

from mailref.write.compose import header_safe

# The kinds of mail to the players that are announcements: they carry List-Unsubscribe (SPEC
# §4.3) and the one-tap links (taps.py).
ANNOUNCING = frozenset({"announcement", "turn", "results", "ruleset"})

# What a mail program's unsubscribe button sends: a [Settings] command, so that leaving the
# single announcements never means leaving the game (short: a URI cannot be folded).
UNSUBSCRIBE_SUBJECT = "[Settings] digest"
# What it sends for a watcher, who has no digest to go to: the end of the watching.
UNWATCH_SUBJECT = "[Unwatch]"


def list_id(name: str, slug: str, address: str) -> str:
    """`Nomes <nomes.ref.example>`: the game's slug under its address's domain."""
    domain = address.rpartition("@")[2].lower() or "localhost"
    return f"{header_safe(name, 60)} <{slug}.{domain}>"


def one_click_base(base_url: str, listen: str) -> str:
    """The base of the one-click unsubscribe links: BASE_URL where the host serves them
    (`[web] listen`) and it is https, as RFC 8058 asks; else "" (the mailto alone)."""
    return base_url if listen and base_url.startswith("https://") else ""


def unsubscribe_token(key: bytes, slug: str, name: str) -> str:
    """`SLUG.MAC`: MAC the URL-safe HMAC-SHA256 under KEY of the game SLUG and the player NAME,
    so that nobody who lacks the key can make the link of another player."""
    mac = hmac.new(key, f"{slug}\0{name}".encode(), hashlib.sha256).digest()
    return f"{slug}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def list_headers(
    state: dict[str, Any] | None,
    announcement: bool = False,
    one_click: str = "",
    watcher: bool = False,
) -> dict[str, str]:
    """The list headers of a mail of the game STATE (none for mail of no game); ONE_CLICK, on
    an announcement, is the https URI of its reader's one-click unsubscribe. A WATCHER's
    unsubscribe ends the watching: a watcher has no digest to go to."""
    if not state or not state.get("address") or not state.get("slug"):
        return {}
    address, slug = state["address"], state["slug"]
    out = {"List-Id": list_id(state.get("name") or slug, slug, address)}
    if announcement:
        subject = UNWATCH_SUBJECT if watcher else UNSUBSCRIBE_SUBJECT
        mailto = f"<mailto:{address}?subject={quote(subject)}>"
        out["List-Unsubscribe"] = f"<{one_click}>, {mailto}" if one_click else mailto
        out["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return out

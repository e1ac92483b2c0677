"""A game with `require_auth=on` acts on a player's mail only when a trusted receiving server
vouches for the sender (SPEC §2.7). Otherwise nothing changes and the answer goes to the
player's REGISTERED address, never to one the mail named, so a forger learns nothing and the
player learns that someone wrote in their name."""

from __future__ import annotations

from dataclasses import dataclass

from mailref.door import Settings
from mailref.engine.state import Player
from mailref.read import Envelope
from mailref.read.auth import verify


@dataclass(frozen=True)
class Unverified:
    why: str
    reply_to: str | None
    reason: str
    hint: str


def refusal(
    state: dict, env: Envelope, player: Player | None, settings: Settings
) -> Unverified | None:
    """Why this mail may not act in this game, or None when it may."""
    if not state["parameters"].get("require_auth"):
        return None
    verdict = verify(env.auth_results, env.from_addr, settings.trusted_authserv_ids)
    if verdict.verified:
        return None
    # A stranger's [Join] is answered at the From address: it is the one being registered.
    to = player["addresses"][0] if player else env.from_addr
    return Unverified(
        verdict.why,
        to,
        f"this mail could not be verified as sent by {env.from_addr}, so nothing was done "
        f"({verdict.why})",
        "this game requires authenticated mail (require_auth): send it from your own provider's "
        "server, which signs it (DKIM) and is listed in your domain's SPF/DMARC records",
    )

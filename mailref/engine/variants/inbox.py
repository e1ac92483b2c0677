"""A player's own inbox settings (SPEC §2.5 `[Settings]`): `digest: daily` (announcements in
one mail a day), `zone:` (deadlines in that zone beside UTC), `discussion: off` (no relayed
words of the other players). Kept on the player as `settings`."""

from __future__ import annotations

import zoneinfo

from mailref.engine.context import Ctx, Refused
from mailref.engine.state import Action, GameState, Player
from mailref.engine.variants.actions import Acting, action

# Each setting, its values (None: any zone name), and what it is when never set.
SETTINGS: dict[str, tuple[tuple[str, ...] | None, str]] = {
    "digest": (("off", "daily"), "off"),
    "zone": (None, ""),
    "discussion": (("on", "off"), "on"),
}


def setting(player: Player, key: str) -> str:
    """PLAYER's KEY, or its default."""
    return str((player.get("settings") or {}).get(key) or SETTINGS[key][1])


def zone_of(state: GameState, player: Player | None) -> str:
    """The zone PLAYER's deadlines are written in: their own, else the game's."""
    return (player and setting(player, "zone")) or str(state.get("timezone") or "UTC")


def check_setting(key: str, value: str) -> str:
    """VALUE as KEY keeps it; refused when it is not one KEY takes."""
    if key not in SETTINGS:
        raise Refused(
            f"there is no setting {key!r}",
            "settings: digest: daily / off, zone: Europe/Berlin, discussion: on / off",
        )
    values, _ = SETTINGS[key]
    if values is None:
        try:
            zoneinfo.ZoneInfo(value)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise Refused(
                f"zone: {value!r} is not a time zone I know",
                "write a zone name like Europe/Berlin or America/New_York",
            ) from None
        return value
    if value.lower() not in values:
        raise Refused(f"{key}: {value!r} is not one of " + " / ".join(values))
    return value.lower()


class Inbox(Acting):
    """The `[Settings]` command."""

    @action("settings")
    def on_settings(self, state: GameState, action: Action, ctx: Ctx) -> None:
        p = self.must_player(state, action["player"])
        values = {k.lower(): check_setting(k.lower(), str(v)) for k, v in action["values"].items()}
        mine = p.setdefault("settings", {})
        for key, value in values.items():
            if value == SETTINGS[key][1]:
                mine.pop(key, None)
            else:
                mine[key] = value
        if values.get("digest") == "off":
            p.pop("unsubscribed", None)
        if action.get("unsubscribe"):
            p["unsubscribed"] = True  # the next digest says how to undo it
        changed = ", ".join(f"{k}: {v}" for k, v in values.items())
        ctx.ack(f"Settings changed: {changed}." if values else "No setting changed.")
        game_zone = f"the game's ({zone_of(state, None)})"
        listed = "; ".join(f"{k}: {setting(p, k) or game_zone}" for k in SETTINGS)
        ctx.ack(f"Your settings: {listed}.")

"""A player's own inbox settings (SPEC §2.5 `[Settings]`): `digest: daily` (announcements in
one mail a day), `zone:` (deadlines in that zone beside UTC), `discussion: off` (no relayed
words of the other players). Kept on the player as `settings`."""

from __future__ import annotations

import zoneinfo
from datetime import datetime

from mailref.engine.context import Ctx, Refused
from mailref.engine.state import Action, GameState, Player
from mailref.engine.variants.actions import Acting, action
from mailref.timeutil import iso, parse_iso

# The mail to the players that a daily digest holds back (SPEC §2.5 `digest: daily`).
HELD_KINDS = frozenset({"announcement", "turn", "results", "ruleset"})

# Each setting, its values (None: any zone name), and what it is when never set.
SETTINGS: dict[str, tuple[tuple[str, ...] | None, str]] = {
    "digest": (("off", "daily"), "off"),
    "zone": (None, ""),
    "discussion": (("on", "off"), "on"),
}


def setting(player: Player, key: str) -> str:
    """PLAYER's KEY, or its default."""
    return str((player.get("settings") or {}).get(key) or SETTINGS[key][1])


def settings_of(player: Player) -> dict[str, str]:
    """Every setting of PLAYER, as `game show --json` shows them ("" zone: the game's)."""
    return {key: setting(player, key) for key in SETTINGS}


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
    """The `[Settings]` command, and the daily digest of the players who asked for one."""

    def hold_for_digests(self, state: GameState, ctx: Ctx, sent: int) -> None:
        """The announcements of this action (ctx.out from SENT on) are held for each player
        on the daily digest, who is left out of them (Outgoing.held) and gets them in one
        mail at `digest_at` in their zone."""
        daily = [
            p for p in state["players"] if p["status"] != "left" and setting(p, "digest") == "daily"
        ]
        if not daily:
            return
        for out in ctx.out[sent:]:
            if out.kind not in HELD_KINDS or out.to == "gm":
                continue
            names = [p["name"] for p in daily if out.to == "all" or p["name"] in out.to]
            for name in names:
                p = self.player(state, name)
                p.setdefault("held", []).append(
                    {
                        "at": iso(ctx.now),
                        "subject": out.subject,
                        "lines": list(out.vars.get("lines") or []),
                    }
                )
                p.setdefault(
                    "digest_next",
                    iso(self._next_digest(state["parameters"], zone_of(state, p), ctx.now)),
                )
            out.held = tuple(names)

    def player_digest_times(self, state: GameState) -> list[datetime]:
        return [parse_iso(p["digest_next"]) for p in state["players"] if p.get("digest_next")]

    def send_player_digests(self, state: GameState, ctx: Ctx) -> None:
        """Each player's held announcements whose digest time has come, in one mail."""
        for p in state["players"]:
            if not p.get("digest_next") or parse_iso(p["digest_next"]) > ctx.now:
                continue
            held = p.pop("held", [])
            del p["digest_next"]
            if held and p["status"] != "left":
                ctx.send(
                    "digest",
                    [p["name"]],
                    "Your daily digest",
                    "player_digest.txt",
                    game=state,
                    held=held,
                    unsubscribed=bool(p.get("unsubscribed")),
                )

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

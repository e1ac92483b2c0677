"""A player's own inbox settings (SPEC §2.5 `[Settings]`): `digest: daily` (announcements in
one mail a day), `zone:` (deadlines in that zone beside UTC), `discussion: off` (no relayed
words of the other players). Kept on the player as `settings`."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from typing import Any, Protocol

from mailref.engine.context import Ctx, Outgoing, Refused
from mailref.engine.parameters import Value
from mailref.engine.state import Action, GameState, OtherAction, Player
from mailref.engine.variants.actions import action
from mailref.engine.variants.digests import next_digest
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
        raise Refused("no_setting", key=key)
    values, _ = SETTINGS[key]
    if values is None:
        try:
            zoneinfo.ZoneInfo(value)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise Refused("setting_unknown_zone", zone=value) from None
        return value
    if value.lower() not in values:
        raise Refused("setting_not_one_of", key=key, value=value, values=values)
    return value.lower()


class InboxHost(Protocol):
    """What the inbox asks of the game: its players, and the parameters' defaults."""

    @property
    def defaults(self) -> dict[str, Value]: ...

    def player(self, state: GameState, name: str) -> Player | None: ...

    def must_player(self, state: GameState, name: str) -> Player: ...


class Inbox:
    """The `[Settings]` command, and the daily digest of the players who asked for one."""

    def __init__(self, game: InboxHost) -> None:
        self.game = game

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
                p = self.game.player(state, name)
                assert p is not None  # one of `daily`, players of this game
                self.hold_for(state, p, out, ctx)
            out.held = tuple(names)

    def hold_for(
        self, state: GameState, p: Player, out: Outgoing, ctx: Ctx, capped: bool = False
    ) -> None:
        """Keep OUT for P's next digest (CAPPED: past the day's mails_per_player_day)."""
        item: dict[str, Any] = {
            "at": iso(ctx.now),
            "subject": out.subject,
            "lines": without_seed(out.vars.get("lines") or [], ctx.seed_lines),
        }
        if capped:
            item["capped"] = True
        p.setdefault("held", []).append(item)
        p.setdefault(
            "digest_next", iso(next_digest(state["parameters"], zone_of(state, p), ctx.now))
        )

    def cap_mail_per_player(self, state: GameState, action: Action, ctx: Ctx, sent: int) -> None:
        """No number of players together makes the game mail one player more than
        `mails_per_player_day` a UTC day (SPEC §2.2): ACTION's `mailed` (the door's count of
        what each player had today, journaled) plus this action's mail. Past it, that day's
        announcements wait in the player's next digest, said once in one last mail; replies
        and reminders, which concern the player alone, still go. Older journals, without
        `mailed`, replay uncapped."""
        had = action.get("mailed")
        if had is None:
            return
        limit = int(
            state["parameters"].get(
                "mails_per_player_day", self.game.defaults["mails_per_player_day"]
            )
        )
        day, counts = ctx.now.strftime("%Y-%m-%d"), dict(had)
        for out in list(ctx.out[sent:]):
            if out.to == "gm":
                continue
            present = {p["name"]: p for p in state["players"] if p["status"] != "left"}
            names = list(present) if out.to == "all" else [n for n in out.to if n in present]
            for name in names:
                if name in out.held:
                    continue
                n = counts.get(name, 0)
                if out.kind not in HELD_KINDS or n < limit - 1:
                    counts[name] = n + 1
                    continue
                self.hold_for(state, present[name], out, ctx, capped=True)
                out.held = (*out.held, name)
                if present[name].get("capped_on") != day:
                    present[name]["capped_on"] = day
                    counts[name] = n + 1
                    self.tell_capped(state, ctx, name, limit)

    def tell_capped(self, state: GameState, ctx: Ctx, name: str, limit: int) -> None:
        """The one mail that says the day's further announcements come in the digest."""
        ctx.send(
            "announcement",
            [name],
            "Today's further announcements come in your digest",
            "notice.txt",
            game=state,
            heading="",
            lines=[
                f"This game has sent you {limit} mails today (UTC), the most it sends one "
                "player in a day (mails_per_player_day). The rest of today's announcements "
                "come in one digest, at the next digest time; replies to your own mail "
                "still come at once.",
            ],
        )

    def digest_times(self, state: GameState) -> list[datetime]:
        """When a player's digest is due: the game is woken then."""
        return [at for p in state["players"] if (at := parse_iso(p.get("digest_next")))]

    def send_digests(self, state: GameState, ctx: Ctx) -> None:
        """Each player's held announcements whose digest time has come, in one mail."""
        for p in state["players"]:
            if not (due := parse_iso(p.get("digest_next"))) or due > ctx.now:
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
                    capped=any(h.get("capped") for h in held) and setting(p, "digest") != "daily",
                )

    @action("settings")
    def on_settings(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        p = self.game.must_player(state, action["player"] or "")
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
        ctx.ack(
            "To change one, send [Settings] with a line for each: digest: daily (or off), "
            "zone: Europe/Paris (a zone name), discussion: off (or on)."
        )


def without_seed(lines: list[str], seed_lines: set[str]) -> list[str]:
    """LINES without those naming the seed (SEED_LINES) and the blank line before each."""
    out: list[str] = []
    for line in lines:
        if line in seed_lines:
            if out and not out[-1].strip():
                out.pop()
            continue
        out.append(line)
    return out

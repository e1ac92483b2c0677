"""A player's own inbox settings (SPEC §2.5 `[Settings]`): `digest: daily` (announcements in
one mail a day), `zone:` (deadlines in that zone beside UTC), `discussion: off` (no relayed
words of the other players). Kept on the player as `settings`."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from mailref.engine.context import Ctx, Outgoing, Refused
from mailref.engine.parameters import Value
from mailref.engine.state import Action, GameState, OtherAction, Player
from mailref.engine.variants import waiting
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

if TYPE_CHECKING:
    from mailref.engine.variants.players import Players


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
    def players(self) -> Players: ...

    @property
    def defaults(self) -> dict[str, Value]: ...


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
                p = self.game.players.player(state, name)
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
        announcements wait in the player's next digest and requests (a question to judge) in
        one mail of them (variants/waiting.py), said once in one last mail; replies and
        reminders, which answer the player's own doing, still go. Older journals, without
        `mailed`, replay uncapped."""
        had = action.get("mailed")
        if had is None:
            return
        limit = self.mails_per_day(state)
        day, counts = ctx.now.strftime("%Y-%m-%d"), dict(had)
        for out in list(ctx.out[sent:]):
            if out.to == "gm":
                continue
            present = {p["name"]: p for p in state["players"] if p["status"] != "left"}
            names = list(present) if out.to == "all" else [n for n in out.to if n in present]
            request = out.kind in waiting.REQUEST_KINDS
            for name in names:
                if name in out.held:
                    continue
                n = counts.get(name, 0)
                if (out.kind not in HELD_KINDS and not request) or n < limit - 1:
                    counts[name] = n + 1
                    continue
                p = present[name]
                if request:
                    waiting.hold(state, p, waiting.item_of(out, ctx), zone_of(state, p), ctx.now)
                else:
                    self.hold_for(state, p, out, ctx, capped=True)
                out.held = (*out.held, name)
                if p.get("capped_on") != day:
                    p["capped_on"] = day
                    counts[name] = n + 1
                    self.tell_capped(state, ctx, name, limit)

    def cap_mail_to_gm(
        self, state: GameState, action: Action, ctx: Ctx, sent: int, alerted: int
    ) -> None:
        """The GM has the same allowance a day (SPEC §2.2): ACTION's `mailed_gm` (journaled by
        the door) plus this action's mail to the GM. Past it, the alerts and requests wait and
        go together in one mail at the GM's digest or the turn of the day, said once; the
        rest (digests, a turn's orders, a preview) still goes. Journals without `mailed_gm`
        replay uncapped."""
        had = action.get("mailed_gm")
        if had is None:
            return
        limit, day, n = self.mails_per_day(state), ctx.now.strftime("%Y-%m-%d"), int(had)
        mine = [o for o in ctx.out[sent:] if o.to == "gm"]
        items: list[tuple[Outgoing | None, dict[str, Any]]] = [
            (o, waiting.item_of(o, ctx)) for o in mine if o.kind in waiting.REQUEST_KINDS
        ]
        items += [(None, waiting.alert_item(a, line, ctx)) for a, line in ctx.alerts[alerted:]]
        n += sum(o.kind not in waiting.REQUEST_KINDS for o in mine)  # never held, but counted
        held = 0
        for out, item in items:
            if n < limit - 1:
                n += 1
                continue
            waiting.hold(state, None, item, state["timezone"], ctx.now)
            if out is None:
                held += 1
            else:
                ctx.out.remove(out)
            if state.get("gm_capped_on") != day:
                state["gm_capped_on"] = day
                n += 1
                self.tell_gm_capped(state, ctx, limit)
        if held:
            ctx.alerts[len(ctx.alerts) - held :] = []

    def refresh_waiting(self, state: GameState, ctx: Ctx, sent: int) -> None:
        """A request sent only to update one that waits (`refresh`, its `about` the same):
        it takes that one's place if it waits, and is mailed to nobody either way."""
        for out in [o for o in ctx.out[sent:] if o.vars.get("refresh")]:
            ctx.out.remove(out)
            if out.to == "gm":
                waiting.refresh(state, None, out, ctx)
                continue
            for name in out.to:
                waiting.refresh(state, self.game.players.player(state, name), out, ctx)

    def mails_per_day(self, state: GameState) -> int:
        return int(
            state["parameters"].get(
                "mails_per_player_day", self.game.defaults["mails_per_player_day"]
            )
        )

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
                "Requests for you to act on (a question to judge) wait too, and come together "
                "in one mail at your digest time or when the day turns (UTC), whichever is "
                "first.",
            ],
        )

    def tell_gm_capped(self, state: GameState, ctx: Ctx, limit: int) -> None:
        """The one mail that says the day's further requests to the GM wait."""
        ctx.send(
            "alert",
            "gm",
            "Today's further requests wait for one mail",
            "notice.txt",
            game=state,
            heading="",
            lines=[
                f"This game has sent you {limit} mails today (UTC), the most it sends one "
                "address in a day (mails_per_player_day). Today's further alerts and requests "
                "wait, and come together in one mail at your digest time or when the day "
                "turns (UTC), whichever is first; replies to your own mail still come at once.",
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
        p = self.game.players.must_player(state, action["player"] or "")
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

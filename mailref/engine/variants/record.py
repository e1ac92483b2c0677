"""A player's record: what each holder of a seat did, counted as the game goes (turns played,
missed and late, time away; `records` by holder) and read from its matters (votes cast and
abstentions); `[Stats] NAME` says it, and `[History]` the game's results so far, in one mail."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol, cast

from mailref.engine.context import Ctx, Refused
from mailref.engine.state import GameState, OtherAction, Player
from mailref.engine.variants.actions import action
from mailref.engine.variants.extensions import spoken
from mailref.engine.variants.substitutes import holder, tenures
from mailref.timeutil import iso, parse_iso

# What [Stats] sums across the host's games.
FIGURES = ("games", "played", "missed", "late", "votes", "abstained", "away", "won")
# The words a Nomic's ballot uses to abstain.
ABSTAINING = frozenset({"ABSTAIN", "DEFERENTIAL"})

if TYPE_CHECKING:
    from mailref.engine.variants.deadlines import Deadlines
    from mailref.engine.variants.players import Players


class RecordHost(Protocol):
    """What the record asks of the game: its players, when a turn's reminder went, and how it
    words a moment."""

    @property
    def players(self) -> Players: ...

    nomic: bool

    @property
    def deadlines(self) -> Deadlines: ...


def figures(state: GameState, address: str, now: datetime) -> dict[str, int]:
    """What the holder(s) of ADDRESS did in the game of STATE, summed: its turns played, missed
    and late, votes cast, abstentions, seconds away, and whether they won it."""
    out = dict.fromkeys(FIGURES, 0)
    names = {
        str(t["holder"])
        for p in state["players"]
        for t in tenures(p)
        if str(t.get("address") or "").lower() == address.lower()
    }
    for name in names:
        counts = (state.get("records") or {}).get(name) or {}
        for key in ("played", "missed", "late", "away"):
            out[key] += int(counts.get(key, 0))
        if since := parse_iso(counts.get("away_since")):
            out["away"] += int((now - since).total_seconds())
        cast, abstained = Record.votes(state, name)
        out["votes"] += cast
        out["abstained"] += abstained
        out["won"] += name in state["winners"] or any(
            p["name"] in state["winners"] and holder(p) == name for p in state["players"]
        )
    out["games"] = 1 if names else 0
    return out


def figures_line(summed: dict[str, int]) -> str:
    """The line of [Stats] that sums a holder's other games on the host."""
    away = summed.get("away", 0)
    return (
        f"In the host's {summed['games']} other game{'' if summed['games'] == 1 else 's'} from "
        f"the same address: turns played {summed['played']}, missed {summed['missed']}, late "
        f"{summed['late']}; votes cast {summed['votes']}, abstentions {summed['abstained']}; "
        f"time away {spoken(timedelta(seconds=away)) if away else 'none'}; "
        f"won {summed['won']}."
    )


def record_of(state: GameState, name: str) -> dict[str, Any]:
    """The counts kept for NAME (a holder of a seat), made on first use."""
    records = state.setdefault("records", {})
    return records.setdefault(name, {"played": 0, "missed": 0, "late": 0, "away": 0})


class Record:
    """The counts of each holder, and the [History] and [Stats] that tell them."""

    def __init__(self, game: RecordHost) -> None:
        self.game = game

    # ---- counted as the game goes -------------------------------------------------
    def turn_closed(self, state: GameState, missing: list[str]) -> None:
        """A turn closes: each active seat played it (late: after its reminder) or missed it."""
        t = state["turn"]
        if not t or not t.get("deadline"):
            return
        due = parse_iso(t["deadline"])
        reminded = self.game.deadlines.reminder_at(state, due, t.get("started")) if due else None
        orders = cast(dict[str, Any], state.get("orders") or {})
        for p in state["players"]:
            if p["status"] != "active":
                continue
            counts = record_of(state, holder(p))
            if p["name"] in missing:
                counts["missed"] += 1
                continue
            counts["played"] += 1
            at = parse_iso((orders.get(p["name"]) or {}).get("at"))
            if at and reminded and at > reminded:
                counts["late"] += 1

    def status_changed(self, state: GameState, p: Player, ctx: Ctx) -> None:
        """Time away is counted from going away or idle to coming back."""
        counts = record_of(state, holder(p))
        if p["status"] in ("away", "idle") and not p.get("vacant"):
            counts.setdefault("away_since", iso(ctx.now))
        elif since := parse_iso(counts.pop("away_since", None)):
            counts["away"] += int((ctx.now - since).total_seconds())

    # ---- told by mail -------------------------------------------------------------
    @action("stats")
    def on_stats(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """[Stats] NAME (or the sender's own): the record of one who plays or played."""
        name = str(action.get("name") or action.get("player") or "").strip()
        lines = self.stats_lines(state, name, ctx.now)
        elsewhere = action.get("elsewhere")  # summed by the referee, journaled with the mail
        if lines and elsewhere and elsewhere.get("games"):
            lines.append(figures_line(elsewhere))
        if not lines:
            raise Refused(
                "no_record",
                name=name,
                known=sorted({t["holder"] for p in state["players"] for t in tenures(p)}),
            )
        ctx.reply(
            "ack",
            "notice.txt",
            game=state,
            heading=f"The record of {lines[0]} in {state['name']}",
            lines=lines[1:],
        )

    def stats_lines(self, state: GameState, name: str, now: datetime) -> list[str]:
        """NAME as the game knows them, then the lines of their record; none: nobody so."""
        want = name.lower()
        held = [
            (p, t)
            for p in state["players"]
            for t in tenures(p)
            if want in (str(t["holder"]).lower(), p["name"].lower())
        ]
        if not held:
            return []
        who = str(held[0][1]["holder"])
        counts = dict((state.get("records") or {}).get(who) or {})
        away = int(counts.get("away", 0))
        if since := parse_iso(counts.get("away_since")):
            away += int((now - since).total_seconds())
        lines = [who]
        for p, t in held:
            seat = "" if p["name"] == who else f"the seat of {p['name']}, "
            until = f"until {self.game.deadlines.when(state, t['to'])}" if t.get("to") else "to now"
            lines.append(f"Held {seat}from {self.game.deadlines.when(state, t['from'])} {until}.")
        if not self.game.nomic:
            lines.append(
                f"Turns played: {counts.get('played', 0)}; missed: {counts.get('missed', 0)}; "
                f"late (after the reminder): {counts.get('late', 0)}."
            )
        cast, abstained = self.votes(state, who)
        if self.game.nomic:
            lines.append(f"Votes cast: {cast}; abstentions: {abstained}.")
        lines.append(f"Time away: {spoken(timedelta(seconds=away)) if away else 'none'}.")
        return lines

    @staticmethod
    def votes(state: GameState, name: str) -> tuple[int, int]:
        """(ballots NAME cast on decided matters, those that abstained or were never cast)."""
        cast = abstained = 0
        for m in [*state["proposals"], *state["judgements"]]:
            if not m.get("closed") or m.get("author") == name:
                continue
            vote = (m.get("votes") or {}).get(name)
            if vote is None or vote.upper() in ABSTAINING:
                joined = next((p["joined"] for p in state["players"] if p["name"] == name), None)
                if vote is not None or (joined and joined <= m["opened"]):
                    abstained += 1
            else:
                cast += 1
        return cast, abstained

    @action("history")
    def on_history(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """[History]: the game's results so far, in one mail."""
        ctx.reply(
            "ack",
            "notice.txt",
            game=state,
            heading=f"The history of {state['name']}",
            lines=self.history_lines(state),
        )

    def history_lines(self, state: GameState) -> list[str]:
        lines: list[str] = []
        for h in cast(list[dict[str, Any]], state.get("history") or []):
            orders = h.get("orders") or {}
            lines.append(f"Turn {h['turn']}: orders from {', '.join(sorted(orders)) or 'nobody'}.")
            for text in str(h.get("results") or "").strip().splitlines():
                lines.append(f"  {text}")
        for m in [*state["proposals"], *state["judgements"]]:
            if m.get("closed"):
                title = f" ({m['title']})" if m.get("title") else ""
                by = f" by {m['author']}" if m.get("author") else ""
                lines.append(
                    f"{m.get('kind', 'proposal').capitalize()} {m['number']}{title}{by}: "
                    f"{m['status']}."
                )
        for p in state["players"]:
            if len(held := tenures(p)) > 1:
                lines.append(
                    f"The seat of {p['name']}: "
                    + "; then ".join(
                        f"{t['holder']} from {self.game.deadlines.when(state, t['from'])}"
                        for t in held
                    )
                    + "."
                )
        if state["winners"]:
            lines.append(f"Won by {', '.join(state['winners'])}.")
        return lines or ["Nothing has been decided yet."]

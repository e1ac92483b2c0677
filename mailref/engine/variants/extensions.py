"""Moving the deadline that runs now: the admin's `mailref deadline`, the GM's `[Deadline] +2d`
or `[Deadline] Fri 18:00` by mail, and a player's `[Deadline] +1d`, which asks the GM, who
answers `[Deadline] ok` (or `no`). Extensions by mail are bounded per turn by `max_extension`
(SPEC §2.5 `[Deadline]`). See docs/decisions/time.md."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from mailref.engine.context import Ctx, Refused
from mailref.engine.dates import read_moment
from mailref.engine.state import GameState, Matter, OtherAction, Turn
from mailref.engine.variants.actions import action
from mailref.engine.variants.inbox import zone_of
from mailref.timeutil import format_duration, iso, parse_duration, parse_iso

if TYPE_CHECKING:
    from mailref.engine.variants.deadlines import Deadlines
    from mailref.engine.variants.players import Players


AHEAD_MOST = timedelta(days=365)  # a deadline set by mail is at most a year ahead
ASK = "[Deadline] +1d"


def spoken(length: str | timedelta) -> str:
    """A length as people say it: "1 day", "2 days 12 hours", "30 minutes"."""
    td = parse_duration(length) if isinstance(length, str) else length
    secs, parts = int(td.total_seconds()), []
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        n, secs = divmod(secs, size)
        if n:
            parts.append(f"{n} {unit}{'' if n == 1 else 's'}")
    return " ".join(parts) or format_duration(td)


def moment(text: str | None) -> datetime:
    """The moment TEXT names: a deadline that is set (`deadline_to_move` refuses none)."""
    at = parse_iso(text)
    assert at is not None, text
    return at


class ExtensionsHost(Protocol):
    """What moving a deadline asks of the game: the deadline that runs now, its players, how
    it words a deadline, and its announcements."""

    @property
    def players(self) -> Players: ...

    def current_deadline_holder(self, state: GameState) -> Turn | Matter | None: ...

    @property
    def deadlines(self) -> Deadlines: ...

    def event(self, state: GameState, ctx: Ctx, text: str) -> None: ...

    def announce(self, state: GameState, ctx: Ctx, subject: str, lines: list[str]) -> None: ...


class Extensions:
    """The deadline that runs now, moved; the extensions of it that mail has made."""

    def __init__(self, game: ExtensionsHost) -> None:
        self.game = game

    def deadline_to_move(self, state: GameState) -> Turn | Matter:
        target = self.game.current_deadline_holder(state)
        if target is None or not target.get("deadline"):
            raise Refused("no_deadline_now")
        return target

    @staticmethod
    def deadline_label(target: Turn | Matter) -> str:
        if "title" in target and "number" in target:
            return f"The vote on proposal {target['number']}"
        if "number" in target:
            return f"Turn {target['number']}'s deadline"
        return "The deadline"

    def extensions_left(self, state: GameState, target: Turn | Matter) -> int:
        most = int(state["parameters"].get("max_extension", 2))
        return most - int(target.get("extensions") or 0)

    def check_extension(self, state: GameState, target: Turn | Matter) -> None:
        """Refused when this turn has had all the extensions by mail it may have."""
        if self.extensions_left(state, target) <= 0:
            most = int(state["parameters"].get("max_extension", 2))
            raise Refused(
                "extensions_spent",
                times=target.get("extensions") or 0,
                most=most,
                deadline=self.game.deadlines.when(state, target["deadline"]),
            )

    @action("deadline")
    def on_deadline(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        target = self.deadline_to_move(state)
        old = moment(target["deadline"])
        if action.get("extend"):
            new = old + parse_duration(action["extend"])
        elif action.get("at"):  # the GM's "Fri 18:00", read in the GM's zone
            gm = self.game.players.by_address(state, str(action.get("address") or ""))
            try:
                new = read_moment(str(action["at"]), zone_of(state, gm), ctx.now, day_end=True)
            except ValueError as e:
                raise Refused("unreadable_date", why=e) from None
        else:
            new = moment(action["when"])
        if not action.get("by"):  # by mail (the admin's shell is not bounded)
            self.check_by_mail(state, target, old, new, ctx)
        why = [f"Reason: {action['reason']}"] if action.get("reason") else []
        self.move_deadline(state, target, new, ctx, why)

    def check_by_mail(
        self, state: GameState, target: Turn | Matter, old: datetime, new: datetime, ctx: Ctx
    ) -> None:
        if new <= ctx.now:
            raise Refused("deadline_passed", at=self.game.deadlines.when(state, new))
        if new - ctx.now > AHEAD_MOST:
            raise Refused("deadline_too_far_ahead")
        if new > old:
            self.check_extension(state, target)
            target["extensions"] = int(target.get("extensions") or 0) + 1

    def move_deadline(
        self, state: GameState, target: Turn | Matter, new: datetime, ctx: Ctx, lines: list[str]
    ) -> None:
        old = moment(target["deadline"])
        target["deadline"] = iso(new)
        target.pop("reminded", None)
        what = self.deadline_label(target)
        # The mail may go out long after (queued by `mailref deadline` while the daemon is down):
        # a deadline due at once says so as of the change, never "now".
        due = (new - ctx.now).total_seconds()
        to = (
            f"{self.game.deadlines.when(state, new)} (already past when it was set)"
            if due < -30
            else f"{self.game.deadlines.when(state, new)} (due at once when it was set)"
            if due < 30
            else self.game.deadlines.when(state, new, ctx)
        )
        text = f"{what} moved from {self.game.deadlines.when(state, old)} to {to}."
        ctx.ack(text)
        # Read later: no "in 1 minute".
        self.game.event(
            state,
            ctx,
            f"{what} moved from {self.game.deadlines.when(state, old)} to "
            f"{self.game.deadlines.when(state, new)}.",
        )
        self.game.announce(state, ctx, "Deadline changed", [text, *lines])

    @action("deadline_request")
    def on_deadline_request(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """A player asks for more time: the GM is asked, the deadline stays until granted."""
        p = self.game.players.must_player(state, action["player"] or "")
        target = self.deadline_to_move(state)
        self.check_extension(state, target)
        more = parse_duration(action["extend"])
        old = moment(target["deadline"])
        requests = target.setdefault("requests", {})
        replaced = requests.get(p["name"])
        requests[p["name"]] = {
            "extend": format_duration(more),
            "reason": str(action.get("reason") or "")[:500],
            "at": iso(ctx.now),
        }
        gm = state.get("gm") or "the admin"
        day = ctx.now.strftime("%Y-%m-%d")
        # One alert a day for a player's request however often it is replaced (a forger's
        # flood From a player): the GM's `ok` grants the one waiting, and says which.
        told = bool(replaced and replaced.get("alerted") == day)
        requests[p["name"]]["alerted"] = day
        if replaced:
            ctx.ack(f"It replaces your request for {spoken(replaced['extend'])} more.")
        ctx.ack(
            f"Your request for {spoken(more)} more went to the GM ({gm}); "
            f"{self.deadline_label(target).lower()} stays "
            f"{self.game.deadlines.when(state, old, ctx)} unless "
            "the GM grants it, and you will hear the answer."
        )
        self.game.event(state, ctx, f"{p['name']} asked the GM for {spoken(more)} more.")
        reason = requests[p["name"]]["reason"]
        # Told already: the alert is not sent again, but where it still waits for the GM (the
        # day's allowance spent, variants/waiting.py) the request in its place is updated.
        ctx.send(
            "alert",
            "gm",
            f"[Deadline] {p['name']} asks for {spoken(more)} more",
            "notice.txt",
            game=state,
            about=f"deadline-request:{p['name']}",
            refresh=told,
            act=f'a mail with the subject "[Deadline] ok {p["name"]}" (or "[Deadline] no '
            f'{p["name"]}").',
            heading=f"{p['name']} asks for {spoken(more)} more time.",
            lines=[
                f"{self.deadline_label(target)} is {self.game.deadlines.when(state, old, ctx)}; "
                "granted, it "
                f"would be {self.game.deadlines.when(state, old + more, ctx)}.",
                *([f"Reason: {reason}"] if reason else []),
                f"Extensions left this turn: {self.extensions_left(state, target)}.",
                "",
                "To grant it, reply with the line: ok. To refuse it, reply with: no.",
            ],
        )

    @action("deadline_answer")
    def on_deadline_answer(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """The GM's `[Deadline] ok` (or `no`) to the request waiting."""
        target = self.deadline_to_move(state)
        requests = target.get("requests") or {}
        if not requests:
            raise Refused("no_request_waiting")
        named = str(action.get("name") or "").strip().lower()
        who = next((n for n in requests if n.lower() == named), None) if named else None
        if who is None and (named or len(requests) > 1):
            waiting = ", ".join(sorted(requests))
            raise Refused("which_request", named=named, name=action.get("name"), waiting=waiting)
        who = who or next(iter(requests))
        asked = {"player": who, **requests.pop(who)}
        if not requests:
            target.pop("requests", None)
        if not action.get("ok"):
            ctx.ack(f"{asked['player']}'s request for {spoken(asked['extend'])} more is refused.")
            self.game.event(
                state, ctx, f"The GM refused {asked['player']}'s request for more time."
            )
            ctx.send(
                "announcement",
                [asked["player"]],
                "[Deadline] Your request for more time",
                "notice.txt",
                game=state,
                heading=f"The GM refused your request for {spoken(asked['extend'])} more.",
                lines=[
                    f"{self.deadline_label(target)} stays "
                    f"{self.game.deadlines.when(state, target['deadline'], ctx)}."
                ],
            )
            return
        old = moment(target["deadline"])
        new = old + parse_duration(asked["extend"])
        self.check_by_mail(state, target, old, new, ctx)
        self.move_deadline(
            state,
            target,
            new,
            ctx,
            [f"{asked['player']} asked for {spoken(asked['extend'])} more, and the GM granted it."],
        )

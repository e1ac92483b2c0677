"""The variant every game's rules build on. `Variant` composes the shared concerns (players,
consent to join, absence, limits, admin commands, extensions, enactment, deadlines, digests,
replies, dice), declares what a variant offers the handlers and the site, and dispatches each
action to the handler declared for it."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from mailref.engine import matters
from mailref.engine.context import Ctx, Refused
from mailref.engine.state import Action, GameState, Rule
from mailref.engine.variants.absence import Absence
from mailref.engine.variants.admin import AdminOverrides
from mailref.engine.variants.court import CourtOrders
from mailref.engine.variants.deadlines import Deadlines
from mailref.engine.variants.dice import Dice
from mailref.engine.variants.digests import Digests
from mailref.engine.variants.enactment import Enactment
from mailref.engine.variants.extensions import Extensions
from mailref.engine.variants.inbox import Inbox
from mailref.engine.variants.joining import Consent
from mailref.engine.variants.limits import Limits
from mailref.engine.variants.players import Players
from mailref.engine.variants.replies import Replies
from mailref.timeutil import format_duration, iso, parse_duration

READ_ONLY = {"status", "rules", "help"}
# Mail whose announcement to everybody is chatter, not play: capped per player and UTC day.
CHATTER = {"roll", "join", "away", "back", "quit", "idle", "unidle"}
# Mail that opens a matter every player is told of and asked to vote on or read.
OPENS_MATTER = frozenset({"propose", "cfj", "dov"})
# Actions an ended game still takes, and those a paused one takes besides.
AFTER_THE_END = READ_ONLY | {
    "tick",
    "set",
    "office",
    "player_add",
    "player_status",
    "player_remove",
    "digest",
    "settings",
    "undo",
}
WHILE_PAUSED = AFTER_THE_END | {
    "resume",
    "join",
    "confirm",
    "approve",
    "away",
    "back",
    "quit",
    "score",
    "rule",
}


class Variant(
    Players,
    Consent,
    Absence,
    Limits,
    AdminOverrides,
    Extensions,
    CourtOrders,
    Enactment,
    Deadlines,
    Digests,
    Replies,
    Dice,
    Inbox,
):
    """A game's rules over its state. A variant overrides these declarations and the hooks of
    the concerns it composes; its handlers are its methods declared with `@action`."""

    name = "base"
    title = "game"
    nomic = True
    judgement_label = "judgement"  # how players name a judgement ("judgement 3")
    defaults: dict[str, Any] = {
        "reminder_before": "1d",
        "digest_at": "08:00",
        "require_auth": False,  # SPEC §2.7: act only on verified mail
        "max_text": 20_000,  # characters of a proposal, rule or other text
        "announcements_per_day": 10,  # chatter announcements one player causes
        "matters_per_day": 10,
        "mails_per_player_day": 60,  # SPEC §2.2: all the game's mail to one player, a UTC day
        "joins_per_day": 10,  # SPEC §2.3: newcomers the game takes in a UTC day
        "join_approval": "auto",  # gm: each confirmed [Join] waits for the GM's [Approve]
        "discussion": "relay",  # SPEC §2.3: players' words without a command reach the others
        "max_absence": "30d",  # SPEC §2.5: the longest `[Away] until DATE`
        "max_extension": 2,  # SPEC §2.5: extensions of one deadline by mail
    }  # proposals, CfJs, DoVs one player opens a UTC day
    duration_params: set[str] = {"reminder_before"}
    offices: tuple[str, ...] = ("admin", "gm")
    capped_matters: frozenset[str] = OPENS_MATTER  # actions counted against matters_per_day
    commands: list[tuple[str, str]] = []
    # Tags a player obviously means but this game's rules do not offer: what the rules offer
    # instead, as (reason, hint), said in place of "[X] is not a command"
    # (docs/decisions/withdraw.md).
    instead: dict[str, tuple[str, str]] = {}
    # Tags that mean another of this game's commands: [Idle] is plainly being away, where a
    # game has absence but no idling (BlogNomic has its own, and takes [Away] as idling).
    same_as: dict[str, str] = {"idle": "away", "unidle": "back"}

    # ---- what a variant offers the handlers and the site ---------------------------
    # The words a ballot may say, in the game's order; none: a game without votes.
    vote_words: tuple[str, ...] = ()
    # Statuses in which this game's matters take votes.
    open_statuses: tuple[str, ...] = ("voting", "pending")
    votable_judgements = False  # judgements (CfJs, DoVs) are decided by vote, as proposals are
    strip_braces = False  # "{ }" in a proposal is a comment the rule changes never carry
    archived_collections: tuple[str, ...] = ("proposals", "judgements")  # see engine/archive.py

    def translate_vote(self, meaning: str) -> str:
        """The vote word this game uses for a ballot read as MEANING (FOR, AGAINST, ...)."""
        return meaning

    def quorum(self, state: GameState) -> int | None:
        """The votes a matter needs, where the game decides by quorum; None elsewhere."""
        return None

    def rules_told(self, state: GameState) -> list[str]:
        """How a game without a rule list is played: a first sentence, then points; none here."""
        return []

    def parameter_lines(self, state: GameState) -> list[str]:
        """The parameters shown beside `rules_told` ("turn_length = 2d"); none here."""
        return []

    def still_open(self) -> tuple[str, ...]:
        """Statuses of matters that are never archived, whatever their timestamps say."""
        return (*self.open_statuses, "open", "pending", "voting", "awaiting-judgement")

    def initial_state(
        self,
        slug: str,
        name: str,
        address: str,
        gm: str | None,
        timezone: str,
        parameters: dict[str, Any],
        now: datetime,
    ) -> GameState:
        params = {**self.defaults}
        for k, v in parameters.items():
            params[k] = self.check_param(k, v)
        return {
            "slug": slug,
            "name": name or slug,
            "variant": self.name,
            "address": address,
            "gm": gm,
            "timezone": timezone,
            "status": "active" if self.nomic else "forming",
            "parameters": params,
            "players": [],
            "order": [],
            "turn": None,
            "proposals": [],
            "judgements": [],
            "rules": self.initial_rules(),
            "rule_history": [],
            "winners": [],
            "next_number": 1,
            "created": iso(now),
            "events": [],
            "digest_next": iso(self._next_digest(params, timezone, now)),
            "paused_at": None,
            "rolls": [],
        }

    def initial_rules(self) -> list[Rule]:
        return []

    def check_param(self, key: str, value: Any) -> Any:
        known = set(self.defaults)
        if key not in known and key not in ("list_id",):
            raise Refused(
                f"unknown parameter {key!r} for {self.name}",
                "known: " + ", ".join(sorted(known | {"list_id"})),
            )
        default = self.defaults.get(key)
        if key in self.duration_params or key == "max_absence":
            try:
                return format_duration(parse_duration(str(value)))
            except ValueError as e:
                raise Refused(f"{key}: {e}") from None
        if key == "discussion":
            if str(value).lower() not in ("relay", "off"):
                raise Refused(f"discussion: {value!r} is not relay or off")
            return str(value).lower()
        if key == "join_approval":
            if str(value).lower() not in ("auto", "gm"):
                raise Refused(f"join_approval: {value!r} is not auto or gm")
            return str(value).lower()
        if key == "digest_at":
            if not re.fullmatch(r"([01]?\d|2[0-3]):[0-5]\d", str(value)):
                raise Refused(f"digest_at: {value!r} is not a time like 08:00")
            return str(value)
        if isinstance(default, bool):
            if str(value).lower() in ("on", "true", "yes", "1"):
                return True
            if str(value).lower() in ("off", "false", "no", "0"):
                return False
            raise Refused(f"{key}: {value!r} is not on/off")
        if isinstance(default, int):
            try:
                return int(value)
            except ValueError:
                raise Refused(f"{key}: {value!r} is not a whole number") from None
        return value

    def event(self, state: GameState, ctx: Ctx, text: str) -> None:
        state["events"].append({"at": iso(ctx.now), "text": text})
        del state["events"][:-300]
        ctx.note(text)

    def takes(self, tag: str) -> bool:
        """Whether a subject tag is a command of this variant (tags name their action)."""
        return (
            tag in READ_ONLY | {"join", "quit", "turn", "roll", "away", "back", "settings"}
            or tag.replace("-", "_") in self.actions
        )

    def not_a_command(self, state: GameState, tag: str) -> Refused:
        """The refusal of a tag this variant has no use for, named as the player wrote it
        ("[Proposal]", not the action "[Propose]"), the variant named once ("of Eire", not "of Eire
        (Eire)"); or, for a word the player obviously meant, what the rules offer instead."""
        if tag in self.instead:
            return Refused(*self.instead[tag])
        title = "" if state["name"] == self.title else self.title
        return Refused("not_a_command", tag=matters.label(tag), game=state["name"], title=title)

    def handle(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """Apply ACTION to STATE through the handler declared for its type, within the game's
        status (ended, paused) and the limits on what one player's mail may cost the others."""
        kind = action["type"]
        fn = self.actions.get(kind.replace("-", "_"))
        if fn is None:
            raise self.not_a_command(state, kind)
        if state["status"] == "ended" and kind not in AFTER_THE_END:
            raise Refused("game_ended", game=state["name"], winners=state["winners"])
        if state["status"] == "paused" and kind not in WHILE_PAUSED:
            raise Refused("game_paused")
        self.check_text_size(state, action)
        # Only actions that say so: a journal written before the cap holds matters it would
        # refuse now, and replaying them must give the same game (engine/replay.py).
        capped = kind in self.capped_matters and action.get("capped") and not action.get("by")
        if capped:
            self.check_matters_per_day(state, action, ctx)
        sent = len(ctx.out)
        fn(self, state, action, ctx)
        if capped:
            self.count_matter(state, action, ctx)
        if kind in ("join", "confirm", "approve") and action.get("capped") and not action.get("by"):
            self.cap_newcomers(state, ctx, sent)
        if kind in CHATTER and not action.get("by"):
            self.cap_chatter(state, action, ctx, sent)
        if action.get("by") and (why := str(action.get("reason") or "").strip()):
            self.tell_why(ctx, sent, why)
        self.hold_for_digests(state, ctx, sent)
        self.cap_mail_per_player(state, action, ctx, sent)

    def check_victory(self, state: GameState, ctx: Ctx) -> None:
        pass

    def announce(
        self,
        state: GameState,
        ctx: Ctx,
        subject: str,
        lines: list[str],
        kind: str = "announcement",
        to: list[str] | str = "all",
        opens: bool = False,
    ) -> None:
        # The subject already says it: the body does not repeat it as a heading.
        ctx.send(kind, to, subject, "notice.txt", game=state, heading="", lines=lines, opens=opens)

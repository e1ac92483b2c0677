"""The variant every game's rules build on. `Variant` holds the shared concerns as components
(absence, the admin's commands, consent to join, court orders, dice, digests, enactment,
extensions, inbox, limits, the players, a player's record, substitutes, watchers:
variants/components.py), declares what a variant offers the handlers and the site, and the
hooks the components ask of it, and dispatches each action to the handler declared for it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from mailref.engine import matters
from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics.gamestate import keep_columns
from mailref.engine.parameters import Span, Value
from mailref.engine.ruleparams import Table
from mailref.engine.schema import SCHEMA
from mailref.engine.state import Action, GameState, Matter, Player, Rule, Turn
from mailref.engine.variants import rule_tables
from mailref.engine.variants.absence import Absence
from mailref.engine.variants.actions import Acting
from mailref.engine.variants.admin import AdminOverrides
from mailref.engine.variants.components import Held
from mailref.engine.variants.court import CourtOrders
from mailref.engine.variants.deadlines import Deadlines
from mailref.engine.variants.dice import Dice
from mailref.engine.variants.digests import Digests, next_digest
from mailref.engine.variants.enactment import Enactment
from mailref.engine.variants.extensions import Extensions
from mailref.engine.variants.inbox import Inbox
from mailref.engine.variants.joining import Consent
from mailref.engine.variants.limits import Limits
from mailref.engine.variants.players import Players
from mailref.engine.variants.record import Record
from mailref.engine.variants.replies import Replies
from mailref.engine.variants.substitutes import Substitutes
from mailref.engine.variants.watching import Watching
from mailref.timeutil import iso

READ_ONLY = {"status", "rules", "help", "history", "stats"}
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
    "unwatch",  # the unsubscribe of the last announcement's mail
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
    "watch",
    "watch_confirm",
    "press",  # talk needs no deadline
}


class Variant(Acting):
    """A game's rules over its state. A variant overrides these declarations and the hooks of
    the concerns it holds; its handlers are its methods declared with `@action`, and those
    of the components it holds (variants/components.py)."""

    absence = Held(Absence)
    admin = Held(AdminOverrides)
    consent = Held(Consent)
    court = Held(CourtOrders)
    deadlines = Held(Deadlines)
    dice = Held(Dice)
    extensions = Held(Extensions)
    inbox = Held(Inbox)
    digests = Held(Digests)
    enactment = Held(Enactment)
    replies = Held(Replies)
    limits = Held(Limits)
    players = Held(Players)
    record = Held(Record)
    substitutes = Held(Substitutes)
    watching = Held(Watching)

    name = "base"
    title = "game"
    nomic = True
    judgement_label = "judgement"  # how players name a judgement ("judgement 3")
    # Every parameter once: its kind, default, the rule stating it (variants/rule_tables.py).
    parameter_table: Table = rule_tables.SHARED
    whole_rule_numbers = False  # sidekick: rule numbers are positive integers, no sub-rules
    # Rules whose wording the referee's code carries out (beside those run by parameters): a
    # passed rewording of one is flagged to the GM, since the referee goes on as written before.
    runs_rules: frozenset[str] = frozenset()
    offices: tuple[str, ...] = ("admin", "gm")
    capped_matters: frozenset[str] = OPENS_MATTER  # actions counted against matters_per_day
    commands: list[tuple[str, str]] = []
    # Tags a player obviously means but this game's rules do not offer: what the rules offer
    # instead, as the code of the refusal said in place of "[X] is not a command"
    # (docs/decisions/withdraw.md).
    instead: dict[str, str] = {}
    # Tags that mean another of this game's commands: [Idle] is plainly being away, where a
    # game has absence but no idling (BlogNomic has its own, and takes [Away] as idling).
    same_as: dict[str, str] = {"idle": "away", "unidle": "back"}
    dated_absence = True  # `[Away] until 6 Jan` (BlogNomic's Idle has no dates)

    # ---- the players' hooks: what follows their comings and goings (players.py) --------
    def new_player_fields(self, state: GameState, action: Action) -> dict[str, Any]:
        """The fields a new player's record starts with besides the shared ones; none here."""
        return {}

    def after_join(self, state: GameState, player: Player, action: Action, ctx: Ctx) -> None:
        """Everybody is told of the newcomer, with what the join changed (`join_news`)."""
        self.announce(
            state,
            ctx,
            f"{player['name']} joins the game",
            [f"{player['name']} has joined {state['name']}.", *self.join_news(state, player)],
        )

    def join_news(self, state: GameState, player: Player) -> list[str]:
        """What the join changed for everybody, told with it (a place in the turn order, an
        office the referee gave the newcomer)."""
        return []

    def before_leaving_order(self, state: GameState, player: Player, ctx: Ctx) -> None:
        """What a leaving player's turn becomes; nothing here."""

    def after_status_change(self, state: GameState, player: Player, ctx: Ctx) -> None:
        """What follows a player's going away, return or leaving; nothing here."""

    # ---- what a variant offers the handlers and the site ---------------------------
    # The words a ballot may say, in the game's order; none: a game without votes.
    vote_words: tuple[str, ...] = ()
    # Statuses in which this game's matters take votes.
    open_statuses: tuple[str, ...] = ("voting", "pending")
    votable_judgements = False  # judgements (CfJs, DoVs) are decided by vote, as proposals are
    strip_braces = False  # "{ }" in a proposal is a comment the rule changes never carry
    archived_collections: tuple[str, ...] = ("proposals", "judgements")  # see engine/archive.py

    def ballots_taken(self, state: GameState) -> tuple[str, ...]:
        """The ballots the game takes now (a Nomic's policy says; none: no votes here)."""
        return self.vote_words

    def translate_vote(self, meaning: str) -> str:
        """The vote word this game uses for a ballot read as MEANING (FOR, AGAINST, ...)."""
        return meaning

    def quorum(self, state: GameState) -> int | None:
        """The votes a matter needs, where the game decides by quorum; None elsewhere."""
        return None

    def deadline_times(self, state: GameState, now: datetime) -> list[datetime]:
        """When the game's own deadlines next want the clock; none here."""
        return []

    def fire_deadlines(self, state: GameState, ctx: Ctx) -> None:
        """What falls due at a tick; nothing here."""

    def current_deadline_holder(self, state: GameState) -> Turn | Matter | None:
        """The turn or matter whose deadline runs now, which [Deadline] moves."""
        return state["turn"] if state["turn"] and state["turn"].get("deadline") else None

    # ---- what players read: the hooks of [Help], [Status] and [Rules] (replies.py) ----
    def mail_ruleset(
        self,
        state: GameState,
        ctx: Ctx,
        why: str,
        diff: list[str],
        reason: str | None = None,
        address: str = "",
        whole: bool = False,
    ) -> None:
        """The ruleset mail after a change: the changes, the scores and the standing."""
        ctx.send(
            "ruleset",
            "all",
            f"[Rules] {why}",
            "ruleset.txt",
            game=state,
            why=why,
            diff=diff,
            **self.enactment.rule_list(state, whole),
            scores=self.score_lines(state),
            reason=reason or "",
            standing=self.standing_lines(state),
            address=address,
            proposals=self.ruleset_proposals(state, ctx),
        )

    def ruleset_proposals(self, state: GameState, ctx: Ctx) -> list[str]:
        """The proposals listed beside the rules, in the ruleset mail and the answer to [Rules]
        (none: no list)."""
        return []

    def help_commands(self, state: GameState | None = None) -> list[tuple[str, str]]:
        """The commands [Help] lists, as the rules now read them (replies.py's plain list)."""
        return self.replies.help_commands(state)

    def rules_for_display(self, state: GameState) -> list[Rule]:
        return state["rules"]

    def standing_lines(self, state: GameState) -> list[str]:
        """What the rule list shows besides the rules, before the scores (sidekick rules 5–6)."""
        return []

    def score_lines(self, state: GameState) -> list[str]:
        return [f"{p['name']}: {p['score']}" for p in self.players.present(state)]

    def status_lines(self, state: GameState, ctx: Ctx | None = None) -> list[str]:
        """The state in lines; with CTX, each deadline says how far off it is ("in 4 days")."""
        lines = [f"Status: {state['status']}"]
        lines.append(
            f"{self.replies.players_word(state)}: "
            + ", ".join(
                f"{p['name']} ({p['status']}, {p['score']})" for p in self.players.present(state)
            )
        )
        lines += self.absence.lines(state)
        if state["order"]:
            lines.append("Turn order: " + ", ".join(state["order"]))
        if state["turn"]:
            t = state["turn"]
            # No "deadline none": a mover who moved is waiting for the vote, not late.
            due = (
                f", moved: proposal {t['proposal']}"
                if t.get("proposal")
                else f", deadline {self.deadlines.when(state, t['deadline'], ctx)}"
                if t.get("deadline")
                else ""
            )
            lines.append(f"Turn {t['number']}: {t.get('player') or 'nobody present can move'}{due}")
        for p in state["proposals"]:
            if p["status"] in self.open_statuses:
                due = (
                    f", deadline {self.deadlines.when(state, p['deadline'], ctx)}"
                    if p.get("deadline")
                    else ""
                )
                lines.append(
                    f"Proposal {p['number']} \"{p['title']}\" by {p['author']}: {p['status']}{due}"
                )
        for j in state["judgements"]:
            if j["status"] == "open":
                lines.append(
                    f"Judgement {j['number']} by {j['by']}: open, judge {j.get('judge') or '-'}"
                )
        if state["winners"]:
            lines.append("Winners: " + ", ".join(state["winners"]))
        return lines

    def after_undo(self, before: GameState, state: GameState, ctx: Ctx) -> None:
        """What an undo reopened (STATE, against BEFORE) that its players must hear of; none."""

    def generators(self, state: GameState) -> dict[str, list[str]]:
        """Named random generators besides dice (BlogNomic's FRUIT and COLOUR)."""
        return {}

    def late_players(
        self, state: GameState, now: datetime | None = None
    ) -> list[tuple[str, str | None]]:
        """(line, deadline) of everyone the game waits for; the digest lists under "Late" only
        those whose deadline has passed, the rest under "Waiting for"."""
        return []

    def refused_orders(self, state: GameState) -> list[str]:
        """The orders refused this turn, for the GM's digest."""
        return []

    def rules_told(self, state: GameState) -> list[str]:
        """How a game without a rule list is played: a first sentence, then points; none here."""
        return []

    def outlook(self, state: GameState, m: Matter, now: datetime) -> str:
        """Where the open matter M stands at NOW and when it is decided, in a line; none here
        (a deadline says it)."""
        return ""

    def ballot_words(self, state: GameState) -> list[str]:
        """The words a ballot may say in STATE's game now, as the site offers them."""
        return list(self.vote_words)

    def gm_news(self, state: GameState) -> list[str]:
        """What the GM is told of a new game besides how to run it by mail; nothing here."""
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
        state: GameState = {
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
            "digest_next": iso(next_digest(params, timezone, now)),
            "paused_at": None,
            "rolls": [],
            "schema": SCHEMA,
        }
        keep_columns(state)  # the gamestate the shipped rules declare
        return state

    def initial_rules(self) -> list[Rule]:
        return []

    @property
    def defaults(self) -> dict[str, Value]:
        """The parameters a new game starts with."""
        return self.parameter_table.defaults

    @property
    def duration_params(self) -> set[str]:
        """The lengths of deadlines: a new one applies from the next deadline set."""
        return {
            p.name
            for p in self.parameter_table
            if isinstance(p.kind, Span) and p.kind.times_deadlines
        }

    def parameter(self, state: GameState, name: str) -> object:
        """The value of parameter NAME the game runs by now: the GM's or the rules', else the
        default."""
        return self.parameter_table.value(state["parameters"], name)

    def check_param(self, key: str, value: object) -> Value:
        """VALUE of parameter KEY as the GM sets it, in its stored form; Refused if it is none."""
        return self.parameter_table.check(self.name, key, value)

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
            return Refused(self.instead[tag])
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
        self.limits.check_text_size(state, action)
        self.substitutes.check_holder(state, action)
        # Only actions that say so: a journal written before the cap holds matters it would
        # refuse now, and replaying them must give the same game (engine/replay.py).
        capped = kind in self.capped_matters and action.get("capped") and not action.get("by")
        if capped:
            self.limits.check_matters_per_day(state, action, ctx)
        sent, alerted = len(ctx.out), len(ctx.alerts)
        fn(self, state, action, ctx)
        keep_columns(state)  # a rule enacted or repealed, a newcomer: the columns follow
        if capped:
            self.limits.count_matter(state, action, ctx)
        if kind in ("join", "confirm", "approve") and action.get("capped") and not action.get("by"):
            self.limits.cap_newcomers(state, ctx, sent)
        if kind in CHATTER and not action.get("by"):
            self.limits.cap_chatter(state, action, ctx, sent)
        if action.get("by") and (why := str(action.get("reason") or "").strip()):
            self.admin.tell_why(ctx, sent, why)
        self.inbox.refresh_waiting(state, ctx, sent)
        self.inbox.hold_for_digests(state, ctx, sent)
        self.inbox.cap_mail_per_player(state, action, ctx, sent)
        self.inbox.cap_mail_to_gm(state, action, ctx, sent, alerted)

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
        words: list[str] | None = None,
    ) -> None:
        # The subject already says it: the body does not repeat it as a heading. WORDS: the vote
        # words a matter it opens offers (each gets its one-tap link).
        more: dict[str, Any] = {"words": words} if words else {}
        ctx.send(
            kind,
            to,
            subject,
            "notice.txt",
            game=state,
            heading="",
            lines=lines,
            opens=opens,
            **more,
        )

"""BlogNomic core rules (seed 002): votable matters in one numbering (Proposals, CfJs, DoVs),
quorum, deferential votes, vetoes, self-kills, and the referee acting as Admin, resolving
every matter the moment the ruleset allows it. The concerns live beside this module: who
counts (`wizards`), when play is held back (`hiatus`), posting and voting (`submitting`),
resolving (`resolution`), dynasties (`dynasty`)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, cast

from mailref.engine import matters
from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics.gamestate import Gamestate
from mailref.engine.mechanics.voting import VotingPolicy
from mailref.engine.ruleset_file import shipped_rules
from mailref.engine.state import (
    Action,
    BlogNomicState,
    GameState,
    Matter,
    OtherAction,
    Player,
    Rule,
)
from mailref.engine.variants import rule_tables
from mailref.engine.variants.actions import action
from mailref.engine.variants.base import READ_ONLY, Variant
from mailref.engine.variants.blognomic.dynasty import Dynasties
from mailref.engine.variants.blognomic.hiatus import Hiatus
from mailref.engine.variants.blognomic.resolution import Resolution
from mailref.engine.variants.blognomic.submitting import Submitting
from mailref.engine.variants.blognomic.wizards import Wizards
from mailref.engine.variants.components import Held
from mailref.timeutil import iso, parse_held_iso

_GENERATOR = re.compile(
    r"The (?P<name>[A-Z]+) (?:\(or (?P<alias>[A-Z]+)\) )?command will return a random result "
    r"from the following(?: options)?:\s*(?P<options>[^.\n]+)\."
)


# Rules "Votes" and "Resolution of Proposals": Wizards vote FOR, AGAINST or DEFERENTIAL (the
# Historian also VETO); the author's vote is FOR until they vote; a matter is enacted the
# moment it is Popular and failed the moment it is Unpopular, by quorum.
VOTING = VotingPolicy(
    words=("FOR", "AGAINST", "DEFERENTIAL", "VETO"),
    offered=("FOR", "AGAINST", "DEFERENTIAL"),
    open_status="pending",
    undecided=("pending",),
    decision="quorum",
    closing="as soon as decided",
    passed_status="enacted",
    failed_status="failed",
    author_vote="FOR",
    author_may_change=True,
    abstain_vote="none",  # no ABSTAIN unless a new rule allows it
)


class BlogNomic(Variant):
    proposals = Held(Submitting)
    wizards = Held(Wizards)
    gamestate = Held(Gamestate)
    hiatus = Held(Hiatus)
    resolution = Held(Resolution)
    dynasty = Held(Dynasties)

    name = "blognomic"
    title = "BlogNomic"
    parameter_table = rule_tables.BLOGNOMIC
    policy = VOTING
    vote_words = VOTING.words
    # Idle Wizards, matters, votes, enacting and failing, proposals, resolution, CfJs, victory;
    # Tags, Seasonal Downtime, Dormancy (SPEC §5.2).
    runs_rules = frozenset(
        {"1.3", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11", "1.12", "3.2", "3.4", "3.5"}
    )
    votable_judgements = True  # CfJs and DoVs are decided by vote
    open_statuses = ("pending",)
    same_as: dict[str, str] = {}  # [Idle] and [Unidle] are its own
    dated_absence = False  # Idle until Unidle: no dates
    commands = [
        ("[Join]", "with a body line `Name: YourName` to become a Wizard under that name"),
        (
            "[Proposal] Title",
            "a proposal; the body is its text (rule changes in the usual forms are applied on "
            "enactment)",
        ),
        (
            "Reply to [Proposal N] / [CfJ N] / [DoV N], or [Vote] N",
            "FOR, AGAINST, DEFERENTIAL (or VETO, the Historian, on proposals)",
        ),
        ("[Vote] with lines `12 FOR`", "several votes at once"),
        ("[Withdraw] N", "withdraw your own pending proposal"),
        ("[CfJ] question", "a Call for Judgement, decided by vote"),
        ("[DoV] title", "a Declaration of Victory: the game goes into Hiatus while it is pending"),
        (
            "[Ascension] Theme",
            "the new Historian's address; body lines `Wizard: NewWord`, `Historian: NewWord`, "
            "`Keep: 2.3, 2.5`, `Inactive: Dormancy`",
        ),
        (
            "[Historian] Name",
            "the new Historian passes the role to another Wizard, before the Ascension Address",
        ),
        (
            "[Idle] / [Unidle]",
            "idle Wizards are not counted as Wizards; no [Unidle] within {unidle_after} of idling",
        ),
        (
            "[Roll] DICE6, [Roll] FRUIT, [Roll] COLOUR",
            'a random result (rule "Random Generators"), journaled and announced',
        ),
        (
            "[Update] Thaum -3",
            "alter the gamestate (the GNDT), one line each: `Thaum of Ben +2`, `Hand: Fox, Owl`, "
            "`Home = Wilderness`, `Thaum +DICE6 from roll 3` (a roll of yours, once), each with an "
            "optional `because ...`; all lines or none",
        ),
        (
            "[Transfer] 5 Thaum to Ben",
            "give another Wizard an amount of yours (an asset, such as a currency, moves only so)",
        ),
        (
            "[Trade] Ben: my Fox for your Owl",
            "offer a trade; the other accepts by replying yes (or [Trade] Accept N) within "
            "{trade_window}, or declines by replying no",
        ),
        ("[Status], [Rules], [Help]", "the state, the ruleset, this text"),
        ("[Quit]", "leave the game"),
    ]

    def initial_rules(self) -> list[Rule]:
        return shipped_rules("blognomic")  # type: ignore[return-value]

    def initial_state(self, *args: Any, **kw: Any) -> GameState:
        state = super().initial_state(*args, **kw)
        cast("BlogNomicState", state).update(
            {
                "historian": None,
                "dynasty": 1,
                "theme": None,
                "ascension_pending": False,
                "dov_cooldown": {},
                "terms": {"player": "Wizard", "leader": "Historian"},
            }
        )
        return state

    def handle(self, state: GameState, action: Action, ctx: Ctx) -> None:
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        super().handle(state, action, ctx)
        if action["type"] not in READ_ONLY:  # a reply that only reads changes nothing
            if (
                not action.get("by")
                and (p := self.players.player(state, str(action.get("player") or ""))) is not None
            ):
                p["seen"] = iso(
                    ctx.now
                )  # rule "Idle Wizards": "has not posted ... in the last seven days"
            self.hiatus.sync_status(bn, ctx.now)

    # ---- the clock: resolving matters and the reminders before (resolution.py) -------
    def deadline_times(self, state: GameState, now: datetime) -> list[datetime]:
        return self.resolution.deadline_times(state, now)

    def fire_deadlines(self, state: GameState, ctx: Ctx) -> None:
        self.resolution.fire_deadlines(state, ctx)

    def late_players(
        self, state: GameState, now: datetime | None = None
    ) -> list[tuple[str, str | None]]:
        return self.resolution.late_players(state, now)

    def ballots_taken(self, state: GameState) -> tuple[str, ...]:
        return self.proposals.ballots_taken(state)  # the lifecycle's policy as the rules read

    # ---- who counts (wizards.py): rule 4.1's quorum of the Wizards --------------------
    def quorum(self, state: GameState) -> int:
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        return self.wizards.quorum(bn)

    # ---- Wizards' comings and goings: idling, joining, leaving, Dormancy ----------------
    @action("idle")
    def on_idle(self, state: GameState, action: Action, ctx: Ctx) -> None:
        self._idle_self(state, cast("Action", {**action, "name": action["player"]}), ctx)

    @action("away")
    def on_away(self, state: GameState, action: Action, ctx: Ctx) -> None:
        self._idle_self(state, action, ctx)

    def _idle_self(self, state: GameState, action: Action, ctx: Ctx) -> None:
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        act = cast("OtherAction", action)
        if act.get("dates"):
            raise Refused("idle_has_no_end")
        p = self.players.must_player(state, cast(str, act.get("name") or act["player"]))
        was = p["status"]
        self.players.set_away(state, action, ctx, "idle")
        if was != "idle" and p["name"] == act["player"]:
            p["self_idled"] = {"at": iso(ctx.now), "dynasty": bn["dynasty"]}

    @action("unidle")
    def on_unidle(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """Rule "Idle Wizards": no Unidle "if ... the Wizard who would be Unidled asked to become
        (or rendered themselves) Idle within the previous four days, and within the current
        dynasty"."""
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        name = cast(str, action["player"])  # the sender's: only a player unidles
        p = self.players.must_player(state, name)
        if p["status"] != "idle":
            raise Refused("not_idle")
        idled = p.get("self_idled")
        if idled and idled["dynasty"] == bn["dynasty"]:
            until = parse_held_iso(idled["at"]) + self.deadlines.duration(state, "unidle_after")
            if ctx.now < until:
                raise Refused(
                    "unidle_too_soon",
                    idled=self.deadlines.when(state, idled["at"], ctx),
                    until=self.deadlines.when(state, until, ctx),
                )
        self.players.set_away(state, cast("Action", {**action, "name": name}), ctx, "active")

    @action("back")
    def on_back(self, state: GameState, action: Action, ctx: Ctx) -> None:
        self.on_unidle(state, action, ctx)

    @action("join")
    def on_join(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """Rule "Wizards": "A human who has ceased to be a Wizard in this way may not become a
        Wizard again within the following two weeks." Known by name or by address."""
        name, address = (
            str(action.get("name") or "").strip().lower(),
            str(action.get("address") or "").lower(),
        )
        for p in state["players"]:
            if (
                p["status"] == "left"
                and p.get("left_at")
                and not p.get("removed")
                and (p["name"].lower() == name or address in p["addresses"])
            ):
                until = parse_held_iso(p["left_at"]) + self.deadlines.duration(
                    state, "rejoin_after"
                )
                if ctx.now < until:
                    raise Refused(
                        "rejoin_too_soon",
                        name=p["name"],
                        left=self.deadlines.when(state, p["left_at"], ctx),
                        until=self.deadlines.when(state, until, ctx),
                    )
        self.players.on_join(state, action, ctx)

    @action("player_add")
    def on_player_add(self, state: GameState, action: Action, ctx: Ctx) -> None:
        sent = len(ctx.out)
        self.players.on_join(state, action, ctx)  # the admin may add anyone at any time
        self.players.welcome_added(state, action, ctx, sent)

    @action("quit")
    def on_quit(self, state: GameState, action: Action, ctx: Ctx) -> None:
        name = cast(str, action["player"])  # the sender's: only a player quits
        self.players.on_quit(state, action, ctx)
        cast("Player", self.players.player(state, name))["removed"] = False
        self.historian_left(state, name, ctx)

    @action("player_remove")
    def on_player_remove(self, state: GameState, action: Action, ctx: Ctx) -> None:
        name = cast(str, action["player"])  # the admin's command names the player
        self.players.on_quit(state, action, ctx)
        self.historian_left(state, name, ctx)
        self.players.tell_removed(state, action, ctx)
        # The two weeks bar those who ceased "by posting an entry", not those the admin removed.
        cast("Player", self.players.player(state, name))["removed"] = True

    def historian_left(self, state: GameState, name: str, ctx: Ctx) -> None:
        """Rule "Dynasties": "If there is no Historian, the Dynasty is a Metadynasty." When the
        Historian leaves, the game has none, and an Ascension Address awaited from them no longer
        holds the game in Hiatus."""
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        if bn["historian"] is None or self.players.player(
            state, bn["historian"]
        ) is not self.players.player(state, name):
            return
        waiting = bn["ascension_pending"]
        bn.update({"historian": None, "ascension_pending": False})
        self.hiatus.sync_status(bn, ctx.now)
        text = (
            f"{name}, the Historian, has left the game: there is no Historian, and dynasty "
            f"{bn['dynasty']} "
            "is a Metadynasty (rule \"Dynasties\")."
        )
        if waiting:
            text += " No Ascension Address will come from them" + (
                "." if self.hiatus.hiatus_reason(bn, ctx.now) else ": the Hiatus ends."
            )
        self.event(state, ctx, text)
        self.announce(state, ctx, "No Historian: a Metadynasty", [text])

    @action("player_status")
    def on_player_status(self, state: GameState, action: Action, ctx: Ctx) -> None:
        self.players.set_away(
            state,
            action,
            ctx,
            "idle" if (st := cast("OtherAction", action)["status"]) == "away" else st,
        )

    def after_status_change(self, state: GameState, player: Player, ctx: Ctx) -> None:
        self.tell_dormancy(state, ctx)
        self.resolution.resolve(state, ctx)  # quorum follows at once

    def after_join(self, state: GameState, player: Player, action: Action, ctx: Ctx) -> None:
        # Every Wizard's record has `seen` from the join on, so that `mailref replay` after an
        # upgrade finds the same fields in every record (engine/upgraded.py).
        player["seen"] = iso(ctx.now)
        super().after_join(state, player, action, ctx)
        self.tell_dormancy(state, ctx)
        self.resolution.resolve(state, ctx)

    def tell_dormancy(self, state: GameState, ctx: Ctx) -> None:
        """Rule "Dormancy": the Wizards learn when it begins or ends (an Idle or a join changes
        it), not from a refused proposal. A state that does not yet say whether the game is
        Dormant learns it silently."""
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        now = self.hiatus.dormant(bn)
        if "dormant" not in bn:
            bn["dormant"] = now
            return
        if now == bn["dormant"]:
            return
        bn["dormant"] = now
        text = (
            f"BlogNomic is Dormant: there are fewer than {state['parameters']['dormant_below']} "
            "Wizards, so "
            "proposals may not be submitted (rule \"Dormancy\")."
            if now
            else "BlogNomic is no longer Dormant: proposals may be submitted again."
        )
        # Announced, not logged: replaying a journal must give no event its live state lacks
        # (engine/upgraded.py sets apart added fields, never added events).
        self.announce(state, ctx, "Dormant" if now else "No longer Dormant", [text])

    def all_matters(self, state: GameState) -> list[Matter]:
        return sorted(state["proposals"] + state["judgements"], key=lambda m: m["number"])

    def find_matter(self, state: GameState, number: int) -> Matter | None:
        return next((m for m in self.all_matters(state) if m["number"] == number), None)

    @staticmethod
    def label(m: Matter) -> str:
        return matters.label(m.get("kind") or "proposal")

    @action("office")
    def on_office(self, state: GameState, action: Action, ctx: Ctx) -> None:
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        self.admin.on_office(state, action, ctx)
        if cast("OtherAction", action)["office"].lower() == "historian":
            holder = self.players.holder(state, "historian")
            bn["historian"] = holder["name"] if holder else None

    def status_lines(self, state: GameState, ctx: Ctx | None = None) -> list[str]:
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        lines = [
            f"Dynasty {bn['dynasty']}"
            + (f" ({bn['theme']})" if bn["theme"] else "")
            + f", Historian: {bn['historian'] or 'none (Metadynasty)'}",
            f"Wizards: {', '.join(self.wizards.names(bn))}; quorum {self.quorum(state)}",
        ]
        idle = [p["name"] for p in state["players"] if p["status"] == "idle"]
        if idle:
            lines.append("Idle: " + ", ".join(idle))
        if self.hiatus.dormant(bn):
            least = state["parameters"]["dormant_below"]
            lines.append(
                f"Dormant: fewer than {least} Wizards, so proposals may not be submitted "
                f"until {least} play"
            )
        for m in self.all_matters(state):
            if m["status"] == "pending":
                lines.append(
                    f"{self.label(m)} {m['number']} \"{m.get('question') or m['title']}\" by "
                    f"{m['author']}: "
                    + ", ".join(f"{k} {v}" for k, v in sorted(m["votes"].items()))
                )
                if ctx is not None:
                    lines.append("  " + self.outlook(state, m, ctx.now))
        return lines

    def outlook(self, state: GameState, m: Matter, now: datetime) -> str:
        return self.resolution.outlook(state, m, now)

    @action("deadline")
    def on_deadline(self, state: GameState, action: Action, ctx: Ctx) -> None:
        self.resolution.move_decidable(state, action, ctx)

    @action("set")
    def on_set(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """A changed `dormant_below` is told as what the game now needs, and whether it is
        Dormant by it; the game's Dormancy is then as told, so the Idle or join that changes it
        next is announced. What the new values decide (a Popular proposal open longer than a
        shorter `min_open`) is decided at once, not at the next ballot."""
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        sent = len(ctx.out)
        self.admin.on_set(state, action, ctx)
        if "dormant_below" in cast("OtherAction", action)["values"]:
            least, have = state["parameters"]["dormant_below"], len(self.wizards.names(bn))
            dormant = self.hiatus.dormant(bn)
            words = f"The game now needs {least} Wizards to leave Dormancy, and has {have}: " + (
                f"it is Dormant, so proposals may not be submitted until {least} play."
                if dormant
                else "it is not Dormant, so proposals may be submitted."
            )
            ctx.ack(words)
            for o in ctx.out[sent:]:
                if o.template == "notice.txt" and isinstance(o.vars.get("lines"), list):
                    o.vars["lines"] = [words, *o.vars["lines"]]
            bn["dormant"] = dormant
        self.resolution.resolve(state, ctx)

    def ballot_words(self, state: GameState) -> list[str]:
        """VETO is the Historian's: in a Metadynasty nobody may cast it."""
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        words = list(self.vote_words)
        return words if bn["historian"] else [w for w in words if w != "VETO"]

    def gm_news(self, state: GameState) -> list[str]:
        """A new game is a Metadynasty, and Dormant until enough Wizards play: the GM hears
        both before the first ballot or proposal meets them."""
        bn = cast("BlogNomicState", state)  # BlogNomic's own keys
        slug, least = state["slug"], state["parameters"]["dormant_below"]
        lines = [
            f"The game begins in dynasty {bn['dynasty']} as a Metadynasty: there is no "
            "Historian, so a DEFERENTIAL vote follows nobody and nobody may VETO (rule "
            '"Dynasties"). To name a Historian, reply to this mail with [Office] historian NAME, '
            f"or on the host: `mailref office {slug} historian NAME`."
        ]
        if self.hiatus.dormant(bn):
            lines.append(
                f"It is Dormant until {least} Wizards play: no proposal may be submitted before "
                '(rule "Dormancy"). For a smaller game, reply to this mail with [Set] '
                f"dormant_below=3, or on the host: `mailref game set {slug} dormant_below=3`."
            )
        return lines

    def score_lines(self, state: GameState) -> list[str]:
        return []

    def generators(self, state: GameState) -> dict[str, list[str]]:
        """The commands rule "Random Generators" names, read from its current text, so a proposal
        that changes "the potential outcomes of the GNDT’s random result commands" changes them:
        "The FRUIT command will return a random result from the following options: Lemon, ..."."""
        out: dict[str, list[str]] = {}
        for r in state["rules"]:
            if r["title"].strip().lower() != "random generators":
                continue
            for m in _GENERATOR.finditer(r["text"]):
                options = [
                    o.strip()
                    for o in re.split(r",\s*(?:and\s+|or\s+)?", m.group("options"))
                    if o.strip()
                ]
                for name in filter(None, (m.group("name"), m.group("alias"))):
                    out[name.upper()] = options
        return out

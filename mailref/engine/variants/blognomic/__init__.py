"""BlogNomic core rules (seed 002): votable matters in one numbering (Proposals, CfJs, DoVs),
quorum, deferential votes, vetoes, self-kills, and the referee acting as Admin, resolving
every matter the moment the ruleset allows it. The concerns live beside this module: who
counts (`wizards`), when play is held back (`hiatus`), posting and voting (`submitting`),
resolving (`resolution`), dynasties (`dynasty`)."""

from __future__ import annotations

import re
from typing import Any

from mailref.engine import matters
from mailref.engine.context import Ctx
from mailref.engine.mechanics.gamestate import Gamestate
from mailref.engine.mechanics.voting import VotingPolicy
from mailref.engine.ruleset_file import shipped_rules
from mailref.engine.state import Action, GameState, Matter, Rule
from mailref.engine.variants import rule_tables
from mailref.engine.variants.actions import action
from mailref.engine.variants.base import READ_ONLY, Variant
from mailref.engine.variants.blognomic.dynasty import Dynasties
from mailref.engine.variants.blognomic.hiatus import Hiatus
from mailref.engine.variants.blognomic.resolution import Resolution
from mailref.engine.variants.blognomic.submitting import Submitting
from mailref.engine.variants.blognomic.wizards import Wizards
from mailref.timeutil import iso

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
)


class BlogNomic(Wizards, Hiatus, Submitting, Resolution, Dynasties, Gamestate, Variant):
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
            "`Home = Wilderness`, each with an optional `because ...`; all lines or none",
        ),
        ("[Transfer] 5 Thaum to Ben", "give another Wizard an amount of yours"),
        (
            "[Trade] Ben: my Fox for your Owl",
            "offer a trade; the other accepts with [Trade] Accept N within {trade_window}",
        ),
        ("[Status], [Rules], [Help]", "the state, the ruleset, this text"),
        ("[Quit]", "leave the game"),
    ]

    def initial_rules(self) -> list[Rule]:
        return shipped_rules("blognomic")  # type: ignore[return-value]

    def initial_state(self, *args: Any, **kw: Any) -> GameState:
        state = super().initial_state(*args, **kw)
        state.update(
            historian=None,
            dynasty=1,
            theme=None,
            ascension_pending=False,
            dov_cooldown={},
            terms={"player": "Wizard", "leader": "Historian"},
        )
        return state

    def handle(self, state: GameState, action: Action, ctx: Ctx) -> None:
        super().handle(state, action, ctx)
        if action["type"] not in READ_ONLY:  # a reply that only reads changes nothing
            if (
                not action.get("by")
                and (p := self.player(state, str(action.get("player") or ""))) is not None
            ):
                p["seen"] = iso(
                    ctx.now
                )  # rule "Idle Wizards": "has not posted ... in the last seven days"
            self.sync_status(state, ctx.now)

    def all_matters(self, state: GameState) -> list[dict]:
        return sorted(state["proposals"] + state["judgements"], key=lambda m: m["number"])

    def find_matter(self, state: GameState, number: int) -> Matter | None:
        return next((m for m in self.all_matters(state) if m["number"] == number), None)

    @staticmethod
    def label(m: Matter) -> str:
        return matters.label(m.get("kind") or "proposal")

    @action("office")
    def on_office(self, state: GameState, action: Action, ctx: Ctx) -> None:
        super().on_office(state, action, ctx)
        if action["office"].lower() == "historian":
            holder = self.holder(state, "historian")
            state["historian"] = holder["name"] if holder else None

    def status_lines(self, state: GameState, ctx: Ctx | None = None) -> list[str]:
        lines = [
            f"Dynasty {state['dynasty']}"
            + (f" ({state['theme']})" if state["theme"] else "")
            + f", Historian: {state['historian'] or 'none (Metadynasty)'}",
            f"Wizards: {', '.join(self.wizards(state))}; quorum {self.quorum(state)}",
        ]
        idle = [p["name"] for p in state["players"] if p["status"] == "idle"]
        if idle:
            lines.append("Idle: " + ", ".join(idle))
        if self.dormant(state):
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

    def ballot_words(self, state: GameState) -> list[str]:
        """VETO is the Historian's: in a Metadynasty nobody may cast it."""
        words = list(self.vote_words)
        return words if state["historian"] else [w for w in words if w != "VETO"]

    def gm_news(self, state: GameState) -> list[str]:
        """A new game is a Metadynasty, and Dormant until enough Wizards play: the GM hears
        both before the first ballot or proposal meets them."""
        slug, least = state["slug"], state["parameters"]["dormant_below"]
        lines = [
            f"The game begins in dynasty {state['dynasty']} as a Metadynasty: there is no "
            "Historian, so a DEFERENTIAL vote follows nobody and nobody may VETO (rule "
            f'"Dynasties"). To name a Historian, on the host: `mailref office {slug} historian '
            "NAME`."
        ]
        if self.dormant(state):
            lines.append(
                f"It is Dormant until {least} Wizards play: no proposal may be submitted before "
                f'(rule "Dormancy"). For a smaller game, on the host: `mailref game set {slug} '
                "dormant_below=3`."
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

"""BlogNomic core rules (seed 002): votable matters in one numbering (Proposals, CfJs, DoVs),
quorum, deferential votes, vetoes, self-kills, and the referee acting as Admin, resolving
every matter the moment the ruleset allows it."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from mailref import resource
from mailref.engine import matters
from mailref.engine.context import Ctx, Refused
from mailref.engine.ruleset import changes_from, find_rule, sort_key
from mailref.engine.variants.base import READ_ONLY, Variant
from mailref.timeutil import format_duration, iso, parse_duration, parse_iso

HOUR = timedelta(hours=1)
_GENERATOR = re.compile(r"The (?P<name>[A-Z]+) (?:\(or (?P<alias>[A-Z]+)\) )?command will return a random result "
                        r"from the following(?: options)?:\s*(?P<options>[^.\n]+)\.")


# The subject of the new Historian's own mail; a plain Reply to it is the Ascension Address.
ASCENSION_ASK = "[Ascension] Your Ascension Address as Historian of dynasty {n}"


class BlogNomic(Variant):
    name = "blognomic"
    title = "BlogNomic"
    defaults = {**Variant.defaults, "popular_after": "48h", "min_open": "12h", "stale_after": "7d",
                "dov_open_min": "12h", "dov_open_sure": "24h", "dov_cooldown": "120h",
                "max_pending": 2, "max_per_day": 3, "dormant_below": 5, "seasonal_downtime": True,
                "rejoin_after": "14d", "unidle_after": "4d"}
    duration_params = {"reminder_before", "popular_after", "min_open", "stale_after", "dov_open_min",
                       "dov_open_sure", "dov_cooldown", "rejoin_after", "unidle_after"}
    vote_words = ("FOR", "AGAINST", "DEFERENTIAL", "VETO")
    # Idle Wizards, matters, votes, enacting and failing, proposals, resolution, CfJs, victory;
    # Tags, Seasonal Downtime, Dormancy (SPEC §5.2).
    runs_rules = frozenset({"1.3", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11", "1.12", "3.2", "3.4", "3.5"})
    votable_judgements = True  # CfJs and DoVs are decided by vote
    open_statuses = ("pending",)
    same_as: dict[str, str] = {}  # [Idle] and [Unidle] are its own
    commands = [
        ("[Join]", "with a body line `Name: YourName` to become a Wizard under that name"),
        ("[Proposal] Title", "a proposal; the body is its text (rule changes in the usual forms are applied on enactment)"),
        ("Reply to [Proposal N] / [CfJ N] / [DoV N], or [Vote] N", "FOR, AGAINST, DEFERENTIAL (or VETO, the Historian, on proposals)"),
        ("[Vote] with lines `12 FOR`", "several votes at once"),
        ("[Withdraw] N", "withdraw your own pending proposal"),
        ("[CfJ] question", "a Call for Judgement, decided by vote"),
        ("[DoV] title", "a Declaration of Victory: the game goes into Hiatus while it is pending"),
        ("[Ascension] Theme", "the new Historian's address; body lines `Wizard: NewWord`, `Historian: NewWord`, `Keep: 2.3, 2.5`, `Inactive: Dormancy`"),
        ("[Historian] Name", "the new Historian passes the role to another Wizard, before the Ascension Address"),
        ("[Idle] / [Unidle]", "idle Wizards are not counted as Wizards; no [Unidle] within 4 days of idling"),
        ("[Roll] DICE6, [Roll] FRUIT, [Roll] COLOUR", "a random result (rule \"Random Generators\"), journaled and announced"),
        ("[Status], [Rules], [Help]", "the state, the ruleset, this text"),
        ("[Quit]", "leave the game"),
    ]

    def initial_rules(self) -> list[dict]:
        return json.loads((resource("data") / "blognomic_rules.json").read_text())

    def initial_state(self, *args: Any, **kw: Any) -> dict:
        state = super().initial_state(*args, **kw)
        state.update(historian=None, dynasty=1, theme=None, ascension_pending=False, dov_cooldown={},
                     terms={"player": "Wizard", "leader": "Historian"})
        return state

    # ---- who counts --------------------------------------------------------------
    def wizards(self, state: dict) -> list[str]:
        """Idle Wizards are not counted as Wizards (rule "Idle Wizards")."""
        return [p["name"] for p in state["players"] if p["status"] == "active"]

    def quorum(self, state: dict) -> int:
        return len(self.wizards(state)) // 2 + 1

    def must_be_wizard(self, state: dict, name: str, what: str) -> None:
        """Rule "Idle Wizards": "For the purposes of all Gamestate and the Ruleset, excluding Rules
        “Ruleset and Gamestate”, “Wizards”, “Dynasties”, “Fair Play” and any of those Rules’
        subrules, Idle Wizards are not counted as Wizards"."""
        if name not in self.wizards(state):
            raise Refused(f"Idle Wizards are not counted as Wizards: an idle Wizard cannot {what}",
                          "send [Unidle] first")

    def valid_vote(self, state: dict, m: dict, name: str) -> str | None:
        """Rule "Votes": "A Wizard’s Vote on a Votable Matter is the last valid voting icon that
        they have used"; DEFERENTIAL is valid, as the Historian's Vote, only "When the Historian
        has a valid Vote other than VETO". So FOR then DEF with no Historian vote stays FOR
        (docs/decisions.md); and "if the author ... has not used a valid voting icon ..., then
        the author’s Vote is FOR"."""
        hist = state["historian"]
        for b in reversed([b for b in m.get("ballots", []) if b["player"] == name]):
            if b["vote"] in ("FOR", "AGAINST"):
                return b["vote"]
            # "A non-Wizard never has a Vote, even if they were a Wizard previously and had cast a
            # valid Vote": an Idle Historian's vote is none, so DEFERENTIAL follows nothing.
            if b["vote"] == "DEFERENTIAL" and hist and name != hist and hist in self.wizards(state):
                follows = self.valid_vote(state, m, hist)
                if follows in ("FOR", "AGAINST"):
                    return follows
        if name == m["author"]:
            return "FOR"
        return None

    def effective_votes(self, state: dict, m: dict) -> dict[str, str]:
        """Valid votes of counted Wizards ("A non-Wizard never has a Vote")."""
        out = {}
        for name in self.wizards(state):
            vote = self.valid_vote(state, m, name)
            if vote:
                out[name] = vote
        return out

    def opinion(self, state: dict, m: dict, now: datetime) -> tuple[bool, bool, dict]:
        """(popular, unpopular, counts) exactly as rule "Votes" words them."""
        votes = self.effective_votes(state, m)
        q = self.quorum(state)
        n_for = sum(v == "FOR" for v in votes.values())
        n_against = sum(v == "AGAINST" for v in votes.values())
        long_open = now - parse_iso(m["opened"]) >= self.duration(state, "popular_after")
        popular = n_for >= q or (long_open and len(votes) > 1 and n_for > n_against)
        unpopular = len(self.wizards(state)) - n_against < q or (long_open and not popular)
        return popular, unpopular, {"FOR": n_for, "AGAINST": n_against, "quorum": q}

    # ---- game-wide states --------------------------------------------------------
    @staticmethod
    def in_downtime(now: datetime) -> bool:
        """Seasonal Downtime: from 24 December until 27 December (UTC)."""
        return now.month == 12 and 24 <= now.day < 27

    @staticmethod
    def special_active(state: dict, name: str) -> bool:
        """Rule "Special Case": "The text of Special Case Rules that are inactive shall be
        interpreted, for the purpose of play, to mean nothing." A repealed one means nothing
        either; one without a status "[X]" is active ("default to active")."""
        for r in state["rules"]:
            base, _, status = r["title"].partition("[")
            if r["number"].startswith("3.") and base.strip().lower() == name.lower():
                return not status.strip().lower().startswith("inactive")
        return False

    def downtime(self, state: dict, now: datetime) -> bool:
        return (state["parameters"]["seasonal_downtime"] and self.special_active(state, "Seasonal Downtime")
                and self.in_downtime(now))

    def dormant(self, state: dict) -> bool:
        return self.special_active(state, "Dormancy") and len(self.wizards(state)) < state["parameters"]["dormant_below"]

    def hiatus_reason(self, state: dict, now: datetime) -> str | None:
        if state["ascension_pending"]:
            return "the game is in Hiatus until the new Historian's Ascension Address"
        if any(j["kind"] == "dov" and j["status"] == "pending" for j in state["judgements"]):
            return "the game is in Hiatus while a Declaration of Victory is pending"
        if self.downtime(state, now):
            return "the game is in Seasonal Downtime (24–27 December)"
        return None

    def handle(self, state: dict, action: dict, ctx: Ctx) -> None:
        super().handle(state, action, ctx)
        if action["type"] not in READ_ONLY:  # a reply that only reads changes nothing
            if not action.get("by") and (p := self.player(state, str(action.get("player") or ""))) is not None:
                p["seen"] = iso(ctx.now)  # rule "Idle Wizards": "has not posted ... in the last seven days"
            self.sync_status(state, ctx.now)

    def late_players(self, state: dict, now: datetime | None = None) -> list[tuple[str, str | None]]:
        """For the GM's digest: who has not voted on each pending matter, and the Wizards silent
        for `quiet_after` (7 days), whom rule "Idle Wizards" lets an Admin render Idle: a Wizard
        who stopped playing without [Idle] or [Quit] still counts in the quorum, and every
        proposal then fails at 48 hours. The referee does not idle them itself: the GM decides."""
        out: list[tuple[str, str | None]] = []
        for m in self.all_matters(state):
            if m["status"] == "pending" and (missing := [n for n in self.wizards(state) if n not in m["votes"]]):
                out.append((f"Not yet voted on {self.label(m)} {m['number']}: {', '.join(missing)}", None))
        quiet = parse_duration(str(state["parameters"].get("quiet_after", "7d")))
        for p in state["players"]:
            last = p.get("seen") or p.get("rejoined") or p.get("joined")  # older games' records lack `seen`
            if p["status"] == "active" and last and now and now - parse_iso(last) >= quiet:
                out.append((f"{p['name']} has sent nothing since {self.when(state, last)}: an Admin may render them "
                            f"Idle (rule \"Idle Wizards\"), which lowers the quorum: `mailref player away "
                            f"{state['slug']} {p['name']}`", iso(parse_iso(last) + quiet)))
        return out

    def sync_status(self, state: dict, now: datetime) -> None:
        """SPEC §1.5: `hiatus` while proposals are not accepted (a pending DoV, the awaited
        Ascension Address, Seasonal Downtime)."""
        if state["status"] in ("active", "hiatus"):
            state["status"] = "hiatus" if self.hiatus_reason(state, now) else "active"

    def all_matters(self, state: dict) -> list[dict]:
        return sorted(state["proposals"] + state["judgements"], key=lambda m: m["number"])

    def find_matter(self, state: dict, number: int) -> dict | None:
        return next((m for m in self.all_matters(state) if m["number"] == number), None)

    @staticmethod
    def label(m: dict) -> str:
        return matters.label(m.get("kind") or "proposal")

    # ---- submitting --------------------------------------------------------------
    def on_propose(self, state: dict, action: dict, ctx: Ctx) -> None:
        author = action["player"]
        self.must_be_wizard(state, author, "submit a Proposal")
        if why := self.hiatus_reason(state, ctx.now):
            raise Refused(f"no proposals now: {why}")
        if self.dormant(state):
            raise Refused(f"BlogNomic is Dormant with fewer than {state['parameters']['dormant_below']} Wizards: "
                          "proposals may not be submitted (rule \"Dormancy\")")
        matters.must_not_repeat(state["proposals"], author, action["title"], action["text"], ("pending",),
                                zone=state.get("timezone") or "UTC",
                                hint="to change it, send [Withdraw] N and propose it again")
        mine = [p for p in state["proposals"] if p["author"] == author]
        if sum(p["status"] == "pending" for p in mine) >= state["parameters"]["max_pending"]:
            raise Refused(f"you already have {state['parameters']['max_pending']} proposals pending (rule \"Proposals\")")
        today = ctx.now.strftime("%Y-%m-%d")
        if sum(p["opened"].startswith(today) for p in mine) >= state["parameters"]["max_per_day"]:
            raise Refused(f"you already made {state['parameters']['max_per_day']} proposals today (UTC)")
        changes = self.numbered(state, changes_from(action["changes"]))
        self.check_tags(state, action["title"], changes)
        prop = matters.new_matter(state, ctx, author, action["title"], action["text"], "pending", None,
                                  changes=[c.as_dict() for c in changes], self_killed=False, vetoed=False,
                                  reminded=False)
        prop["votes"][author] = "FOR"  # the author's vote is FOR until they vote
        state["proposals"].append(prop)
        ctx.ack(f"Proposal {prop['number']} \"{prop['title']}\" is pending; quorum is {self.quorum(state)}.")
        for c in changes:
            ctx.ack("  " + c.describe(full=True))
            if c.signoff:
                ctx.ack(f'  (Set aside as your closing words, not rule text: "{c.signoff}")')
        if not changes:
            ctx.ack("  (no rule changes recognised: if enacted, the GM applies it by hand)")
        # Not refused: a proposal pending before it may yet make its changes fit. But its author
        # and the voters learn now, not at enactment, that as things stand nothing of it would apply.
        warning = ""
        if changes and (problem := self.cannot_apply(state, changes)):
            warning = (f"As the ruleset reads now, these changes cannot apply: {problem}. Enacted so, none of "
                       "them would be applied (the GM would be asked to correct the ruleset).")
            ctx.ack(f"  Note: {warning} To correct it, send [Withdraw] {prop['number']} and propose it again.")
        self.event(state, ctx, f"{author} proposed {prop['number']} \"{prop['title']}\".")
        ctx.send("announcement", "all", f"[Proposal {prop['number']}] {prop['title']}", "proposal.txt", opens=True, game=state,
                 proposal=prop, changes=[c.describe() for c in changes], voters=self.wizards(state),
                 words=["FOR", "AGAINST", "DEFERENTIAL"], warning=warning, timing=self.decided_by(state, prop, ctx))
        self.resolve(state, ctx)

    def numbered(self, state: dict, changes: list) -> list:
        """A new rule whose place is not named goes at the end of the Dynastic Rules. The number
        is the next free one when the matter is enacted (renumbered then): two pending proposals
        each enacting a new rule are both shown 2.20 now, and the later one becomes 2.21."""
        last = max([sort_key(r["number"])[1] for r in state["rules"] if r["number"].startswith("2.")] + [0])
        for c in changes:
            if c.kind == "enact" and (c.placed or not c.number):
                last += 1
                c.number, c.placed = f"2.{last}", True
        return changes

    def check_tags(self, state: dict, title: str, changes: list) -> None:
        """Rule "Tags": "Votable Matters require the [Core] tag in order to make changes to the
        Core Rules, and the [Appendix] tag in order to make changes to the Appendix Rules."
        """
        if not self.special_active(state, "Tags"):
            return
        need = {}
        for c in changes:
            if c.kind == "enact":
                number = c.number or ""
            else:
                rule = find_rule(state["rules"], c)
                number = rule["number"] if rule else (c.number or "")
            section = number.split(".")[0]
            if section in self.TAGGED:
                need.setdefault(self.TAGGED[section], []).append(number)
        for tag, numbers in need.items():
            if f"[{tag.lower()}]" not in title.lower():
                raise Refused(f"a change to the {tag} Rules (rule {', '.join(numbers)}) needs the [{tag}] tag in the title "
                              "(rule \"Tags\")", f"write the subject as: [Proposal] [{tag}] {title}")

    TAGGED = {"1": "Core", "4": "Appendix"}

    def on_cfj(self, state: dict, action: dict, ctx: Ctx) -> None:
        self._new_judgement(state, action, ctx, "cfj")

    def on_dov(self, state: dict, action: dict, ctx: Ctx) -> None:
        author = action["player"]
        self.must_be_wizard(state, author, "declare victory")
        if author == state["historian"]:
            raise Refused("the Historian cannot declare victory (rule \"Victory and Ascension\")")
        if state["ascension_pending"]:
            raise Refused("no DoV may be started between an enacted DoV and its Ascension Address")
        if self.downtime(state, ctx.now):
            raise Refused("the game is in Seasonal Downtime (24–27 December)")
        until = state["dov_cooldown"].get(author)
        if until and ctx.now < parse_iso(until):
            raise Refused(f"your last DoV failed with an AGAINST vote: no new DoV before {self.when(state, until, ctx)} (120 hours)")
        self._new_judgement(state, action, ctx, "dov")

    def _new_judgement(self, state: dict, action: dict, ctx: Ctx, kind: str) -> None:
        author = action["player"]
        self.must_be_wizard(state, author, "raise a Call for Judgement" if kind == "cfj" else "declare victory")
        matters.must_not_repeat([j for j in state["judgements"] if j["kind"] == kind], author, action["question"],
                                action.get("text", ""), ("pending",), "CfJ" if kind == "cfj" else "DoV",
                                state.get("timezone") or "UTC")
        changes = self.numbered(state, changes_from(action.get("changes", [])))
        self.check_tags(state, action["question"], changes)
        m = matters.new_matter(state, ctx, author, action["question"], action.get("text", ""), "pending", None,
                               reminded=False)
        m.update(kind=kind, question=action["question"], by=author, judge=None, ruling=None,
                 changes=[c.as_dict() for c in changes])
        m["votes"][author] = "FOR"
        state["judgements"].append(m)
        label = self.label(m)
        ctx.ack(f"{label} {m['number']} \"{m['question']}\" is pending; quorum is {self.quorum(state)}.")
        self.event(state, ctx, f"{author} raised {label} {m['number']}: {m['question']}.")
        lines = [f"{label} {m['number']} by {author}: {m['question']}", *([""] + m["text"].splitlines() if m["text"].strip() else []), "",
                 f"Reply with FOR, AGAINST or DEFERENTIAL. Quorum is {self.quorum(state)}."]
        lines[-1:-1] = [self.decided_by(state, m, ctx), ""]
        if kind == "dov":
            lines.insert(1, "The game is in Hiatus while this DoV is pending.")
        self.announce(state, ctx, f"[{label} {m['number']}] {m['question']}", lines, opens=True)
        self.resolve(state, ctx)

    def on_withdraw(self, state: dict, action: dict, ctx: Ctx) -> None:
        m = matters.must_open(matters.find(state, action["number"]), action["number"], ("pending",))
        if m["author"] != action["player"]:
            raise Refused(f"proposal {m['number']} is {m['author']}'s, not yours")
        self.close(state, m, ctx, "failed", "withdrawn")
        ctx.ack(f"Proposal {m['number']} is withdrawn.")

    # ---- votes -------------------------------------------------------------------
    def on_vote(self, state: dict, action: dict, ctx: Ctx) -> None:
        name = action["player"]
        if name not in self.wizards(state):
            raise Refused("idle Wizards are not counted: send [Unidle] first")
        for b in action["ballots"]:
            m = self.find_matter(state, b["number"])
            label = self.label(m) if m else "matter"
            m = matters.must_open(m, b["number"], ("pending",), label)
            vote = b["vote"]
            if vote not in self.vote_words:
                raise Refused(f"{b['word']} is not a vote here", "vote FOR, AGAINST or DEFERENTIAL")
            if vote == "VETO" and (name != state["historian"] or label != "Proposal"):
                raise Refused("only the Historian may VETO, and only a proposal")
            ctx.ack(matters.cast(m, name, vote, ctx, action.get("source", ""), label, zone=state.get("timezone") or "UTC",
                                 reason=b.get("reason") or ""))
            if label == "Proposal" and name == m["author"] and vote == "AGAINST" and not m["self_killed"]:
                m["self_killed"] = True
                ctx.ack("Your AGAINST on your own proposal self-kills it (rule \"Special Proposal Voting\").")
            if vote == "VETO" and not m.get("vetoed"):
                m["vetoed"] = True
                ctx.ack(f"Proposal {m['number']} is Vetoed.")
        self.resolve(state, ctx)

    # ---- resolution as Admin -----------------------------------------------------
    def resolve(self, state: dict, ctx: Ctx) -> None:
        """Enact or fail every matter whose condition holds now, until nothing changes."""
        for _ in range(200):
            if not self._resolve_one(state, ctx):
                return

    def _resolve_one(self, state: dict, ctx: Ctx) -> bool:
        now = ctx.now
        stale = self.duration(state, "stale_after")
        pending = [p for p in state["proposals"] if p["status"] == "pending"]
        for p in pending:
            if now - parse_iso(p["opened"]) > stale:
                self.close(state, p, ctx, "failed", "stale")
                return True
        for j in state["judgements"]:
            if j["status"] != "pending":
                continue
            popular, unpopular, _ = self.opinion(state, j, now)
            age = now - parse_iso(j["opened"])
            if j["kind"] == "cfj":
                if popular:
                    self.close(state, j, ctx, "enacted", "popular")
                    return True
                if unpopular:
                    self.close(state, j, ctx, "failed", "unpopular")
                    return True
            elif self.downtime(state, now):
                # Seasonal Downtime allows only "Votable Matters", "Gamestate Tracking" and "Call for
                # Judgement": enacting a DoV is "Victory and Ascension" business (docs/decisions.md).
                continue
            else:
                votes = self.effective_votes(state, j)
                hist_for = (state["historian"] in self.wizards(state)
                            and self.valid_vote(state, j, state["historian"]) == "FOR")
                no_against = "AGAINST" not in votes.values()
                if popular and ((age >= self.duration(state, "dov_open_min") and (hist_for or no_against))
                                or age >= self.duration(state, "dov_open_sure")):
                    self.close(state, j, ctx, "enacted", "popular")
                    return True
                if unpopular and age >= self.duration(state, "dov_open_min"):
                    self.close(state, j, ctx, "failed", "unpopular")
                    return True
        if self.hiatus_reason(state, now) or not pending:
            return False
        oldest = pending[0]  # numbering follows submission, so the first pending is the oldest
        if oldest["self_killed"]:
            self.close(state, oldest, ctx, "failed", "self-killed")
            return True
        if oldest["vetoed"]:
            self.close(state, oldest, ctx, "failed", "vetoed")
            return True
        popular, unpopular, _ = self.opinion(state, oldest, now)
        if popular and now - parse_iso(oldest["opened"]) >= self.duration(state, "min_open"):
            self.close(state, oldest, ctx, "enacted", "popular")
            return True
        if unpopular:
            self.close(state, oldest, ctx, "failed", "unpopular")
            return True
        return False

    def why_opinion(self, state: dict, m: dict, counts: dict, reason: str) -> str:
        """The clause of rule "Votes" that made a matter Popular or Unpopular when the tally alone
        does not show it (FOR 2 with quorum 3 enacted after 48 hours)."""
        after = format_duration(self.duration(state, "popular_after"))
        if reason == "popular" and counts["FOR"] < counts["quorum"]:
            return f"Popular: open {after} or more, with more than one vote and more FOR than AGAINST."
        if reason == "unpopular" and len(self.wizards(state)) - counts["AGAINST"] >= counts["quorum"]:
            return f"Unpopular: open {after} or more without being Popular."
        return ""

    def close(self, state: dict, m: dict, ctx: Ctx, status: str, reason: str, note: str = "") -> None:
        _, _, counts = self.opinion(state, m, ctx.now)
        m.update(status=status, reason=reason, closed=iso(ctx.now), tally=counts)
        label = self.label(m)
        title = m.get("question") or m["title"]
        lines = [f"{label} {m['number']} \"{title}\" by {m['author']} {'has' if status == 'failed' else 'is'} {status.upper()} ({reason}).",
                 f"Tally: FOR {counts['FOR']}, AGAINST {counts['AGAINST']}, quorum {counts['quorum']}.",
                 "Votes: " + (", ".join(f"{k} {v}" for k, v in sorted(m["votes"].items())) or "none"),
                 "Resolved by the referee acting as Admin."]
        wizards = set(self.wizards(state))
        if gone := sorted(k for k in m["votes"] if k not in wizards):
            # "A non-Wizard never has a Vote": listed beside a tally that leaves them out, say why.
            lines.insert(3, f"Not counted, having left or gone Idle (\"A non-Wizard never has a Vote\"): {', '.join(gone)}.")
        if reason in ("popular", "unpopular") and (why := self.why_opinion(state, m, counts, reason)):
            lines.insert(2, why)
        hist = state.get("historian")
        hist_vote = self.valid_vote(state, m, hist) if hist in self.wizards(state) else None
        if label == "DoV" and status == "enacted":
            # Rule "Victory and Ascension": which of its two clauses enacted it.
            if hist_vote == "FOR" or "AGAINST" not in self.effective_votes(state, m).values():
                clause = (f"{format_duration(self.duration(state, 'dov_open_min'))} or more, "
                          + ("with the Historian's FOR." if hist_vote == "FOR" else "with no AGAINST vote."))
            else:
                clause = f"{format_duration(self.duration(state, 'dov_open_sure'))} or more."
            lines.insert(2, "Popular and open " + clause)
        if deferring := sorted(n for n, v in m["votes"].items() if v == "DEFERENTIAL" and n != hist):
            # The tally counts them as the Historian's vote: say so, or "FOR 4" reads as a miscount.
            lines.insert(2, f"DEFERENTIAL ({', '.join(deferring)}) " + (
                f"counts as the Historian's vote, {hist_vote}." if hist_vote in ("FOR", "AGAINST")
                else "does not count: there is no Historian (the Metadynasty; an earlier vote stands)." if not hist
                else "does not count: the Historian has no valid FOR or AGAINST vote (an earlier vote stands)."))
        if note:
            lines.append(note)
        if status == "enacted" and label != "DoV" and any(c.get("placed") for c in m.get("changes", [])):
            # The numbers the referee chose, as the ruleset reads now (an earlier matter may have taken them).
            m["changes"] = [c.as_dict() for c in self.numbered(state, changes_from(m["changes"]))]
        if status == "enacted" and label != "DoV" and (why := self.enactment_note(state, changes_from(m.get("changes", [])))):
            lines.append(why)
        self.event(state, ctx, lines[0])
        ctx.send("results", "all", f"[{label} {m['number']}] {status.upper()}: {title}", "notice.txt",
                 game=state, heading=lines[0], lines=lines[1:])
        if status == "enacted" and label != "DoV":
            self.apply_matter(state, m, ctx)
        if label == "DoV":
            self.after_dov(state, m, ctx)

    def apply_matter(self, state: dict, m: dict, ctx: Ctx) -> None:
        label = self.label(m)
        failed = self.enact_changes(state, ctx, changes_from(m.get("changes", [])), f"{label.lower()} {m['number']}",
                                    f"{label} {m['number']} \"{m.get('question') or m['title']}\" is enacted")
        if failed and m.get("changes"):
            m["reason"] += f"; its changes could not apply: {failed}"

    # ---- dynasties ---------------------------------------------------------------
    def after_dov(self, state: dict, dov: dict, ctx: Ctx) -> None:
        if dov["status"] == "enacted":
            # The new dynasty's Hiatus holds before the other DoVs fail, so their failing never
            # announces a false "Hiatus ends" while the Ascension Address is awaited.
            for p in state["players"]:
                if "historian" in p["offices"]:
                    p["offices"].remove("historian")
            winner = self.player(state, dov["author"])
            winner["offices"].append("historian")
            state.update(historian=winner["name"], dynasty=state["dynasty"] + 1, ascension_pending=True,
                         winners=[winner["name"]])
            for other in state["judgements"]:
                if other["kind"] == "dov" and other["status"] == "pending":
                    self.close(state, other, ctx, "failed", "another DoV was enacted")
            text = (f"{winner['name']} wins the dynasty and is the Historian of dynasty {state['dynasty']}. "
                    "The Hiatus continues until their Ascension Address ([Ascension] Theme).")
            self.event(state, ctx, text)
            others = [p["name"] for p in self.present(state) if p["name"] != winner["name"]]
            self.announce(state, ctx, f"A new dynasty: {winner['name']} is Historian", [text], kind="results", to=others)
            # The winner's own mail asks for the address, tagged so that a plain Reply is it (as the
            # Emperor's judge mail is): replying to the announcement was "no command".
            ctx.send("turn", [winner["name"]], ASCENSION_ASK.format(n=state["dynasty"]), "notice.txt", game=state,
                     heading=text, lines=[
                         "Reply to this mail with your Ascension Address: a line `Theme: your theme`, the words of "
                         "the address for the Wizards, and as you wish `Wizard: NewWord`, `Historian: NewWord`, "
                         "`Keep: 2.3, 2.5` (the dynastic rules to keep; the others are repealed), `Inactive: Dormancy`.",
                         "(Or send a mail with the subject \"[Ascension] Your theme\"; to pass the role on first, "
                         "\"[Historian] Name\".)"])
            return
        if "AGAINST" in dov["votes"].values():
            state["dov_cooldown"][dov["author"]] = iso(ctx.now + self.duration(state, "dov_cooldown"))
        if not self.hiatus_reason(state, ctx.now):
            self.announce(state, ctx, "Hiatus ends", ["No DoV is pending: the Hiatus ends."])

    def on_historian(self, state: dict, action: dict, ctx: Ctx) -> None:
        """Rule "Victory and Ascension": "That Wizard may pass this role to another Wizard at this
        point by making a post to that effect, if they wish": after the DoV, before the Address."""
        if not state["ascension_pending"] or action["player"] != state["historian"]:
            raise Refused("only the new Historian may pass the role on, between the enacted DoV and the Ascension Address")
        to = self.must_player(state, action["to"])
        if to["name"] == action["player"]:
            raise Refused("you already are the Historian")
        self.must_be_wizard(state, to["name"], "become Historian")
        self.player(state, action["player"])["offices"].remove("historian")
        to["offices"].append("historian")
        state["historian"] = to["name"]
        text = (f"{action['player']} passes the role of Historian to {to['name']}, who makes the Ascension Address "
                "([Ascension] Theme); the Hiatus continues until then.")
        ctx.ack(text)
        self.event(state, ctx, text)
        self.announce(state, ctx, f"{to['name']} is the new Historian", [text])

    def on_ascension(self, state: dict, action: dict, ctx: Ctx) -> None:
        if not state["ascension_pending"] or action["player"] != state["historian"]:
            raise Refused("only the new Historian makes the Ascension Address, once a DoV has been enacted")
        if self.downtime(state, ctx.now):
            raise Refused("the game is in Seasonal Downtime (24–27 December): the Ascension Address waits until "
                          "27 December (only \"Votable Matters\", \"Gamestate Tracking\" and \"Call for Judgement\" "
                          "actions are allowed)")
        fields = action.get("fields", {})
        renames = {state["terms"]["player"]: fields.get("wizard") or fields.get(state["terms"]["player"].lower()),
                   state["terms"]["leader"]: fields.get("historian") or fields.get(state["terms"]["leader"].lower())}
        keep = {k.strip().strip('"') for k in re.split(r"[,;]", fields.get("keep", "")) if k.strip()}
        inactive = {k.strip().strip('"').lower() for k in re.split(r"[,;]", fields.get("inactive", "")) if k.strip()}
        kept, repealed = [], []
        rules = []
        for r in state["rules"]:
            if r["number"].startswith("2.") and r["number"] not in keep and r["title"] not in keep:
                repealed.append(f"{r['number']} {r['title']}")
                continue
            if r["number"].startswith("3.") and "[" in r["title"]:
                base = r["title"].split("[")[0].strip()
                r["title"] = f"{base} [{'Inactive' if base.lower() in inactive else 'Active'}]"
            if r["number"].startswith("2."):
                kept.append(f"{r['number']} {r['title']}")
            rules.append(r)
        for old, new in renames.items():
            if new and new != old:
                for r in rules:
                    r["text"] = re.sub(rf"\b{old}(s?)\b", rf"{new}\1", r["text"])
                    r["title"] = re.sub(rf"\b{old}(s?)\b", rf"{new}\1", r["title"])
                key = "player" if old == state["terms"]["player"] else "leader"
                state["terms"][key] = new
        state["rules"] = rules
        state["rule_history"] += [{"rule": x.split()[0], "change": "repeal", "by": "ascension", "at": iso(ctx.now)}
                                  for x in repealed]
        state.update(theme=action["theme"], ascension_pending=False, winners=[])
        ctx.ack(f"Ascension Address recorded: dynasty {state['dynasty']}, theme \"{action['theme']}\".")
        diff = [f"- Rule {x} (repealed: not kept)" for x in repealed] + [f"= Rule {x} (kept)" for x in kept]
        diff += [f"~ the term {o} is now {n}" for o, n in renames.items() if n and n != o]
        self.event(state, ctx, f"Ascension Address: theme {action['theme']}.")
        self.mail_ruleset(state, ctx, f"Dynasty {state['dynasty']} begins: {action['theme']}", diff,
                          address=(f"The Ascension Address of {action['player']}:\n\n{action['text']}"
                                   if action.get("text") else ""))
        self.resolve(state, ctx)

    # ---- absence -----------------------------------------------------------------
    def on_idle(self, state: dict, action: dict, ctx: Ctx) -> None:
        self._idle_self(state, {**action, "name": action["player"]}, ctx)

    def on_away(self, state: dict, action: dict, ctx: Ctx) -> None:
        self._idle_self(state, action, ctx)

    def _idle_self(self, state: dict, action: dict, ctx: Ctx) -> None:
        p = self.must_player(state, action.get("name") or action["player"])
        was = p["status"]
        self._set_away(state, action, ctx, "idle")
        if was != "idle" and p["name"] == action["player"]:
            p["self_idled"] = {"at": iso(ctx.now), "dynasty": state["dynasty"]}

    def on_unidle(self, state: dict, action: dict, ctx: Ctx) -> None:
        """Rule "Idle Wizards": no Unidle "if ... the Wizard who would be Unidled asked to become (or
        rendered themselves) Idle within the previous four days, and within the current dynasty"."""
        p = self.must_player(state, action["player"])
        if p["status"] != "idle":
            raise Refused("you are not idle")
        idled = p.get("self_idled")
        if idled and idled["dynasty"] == state["dynasty"]:
            until = parse_iso(idled["at"]) + self.duration(state, "unidle_after")
            if ctx.now < until:
                raise Refused(f"you went Idle {self.when(state, idled['at'], ctx)}: no Unidle within four days of idling in the same "
                              f"dynasty (rule \"Idle Wizards\")", f"send [Unidle] after {self.when(state, until, ctx)}")
        self._set_away(state, {**action, "name": action["player"]}, ctx, "active")

    def on_back(self, state: dict, action: dict, ctx: Ctx) -> None:
        self.on_unidle(state, action, ctx)

    def on_join(self, state: dict, action: dict, ctx: Ctx) -> None:
        """Rule "Wizards": "A human who has ceased to be a Wizard in this way may not become a
        Wizard again within the following two weeks." Known by name or by address."""
        name, address = str(action.get("name") or "").strip().lower(), str(action.get("address") or "").lower()
        for p in state["players"]:
            if p["status"] == "left" and p.get("left_at") and not p.get("removed") and (
                    p["name"].lower() == name or address in p["addresses"]):
                until = parse_iso(p["left_at"]) + self.duration(state, "rejoin_after")
                if ctx.now < until:
                    raise Refused(f"{p['name']} ceased to be a Wizard {self.when(state, p['left_at'], ctx)} and may not become a Wizard "
                                  "again within the following two weeks (rule \"Wizards\")", f"join again after {self.when(state, until, ctx)}")
        super().on_join(state, action, ctx)

    def on_player_add(self, state: dict, action: dict, ctx: Ctx) -> None:
        sent = len(ctx.out)
        Variant.on_join(self, state, action, ctx)  # the admin may add anyone at any time
        self.welcome_added(state, action, ctx, sent)

    def on_quit(self, state: dict, action: dict, ctx: Ctx) -> None:
        super().on_quit(state, action, ctx)
        self.player(state, action["player"])["removed"] = False
        self.historian_left(state, action["player"], ctx)

    def on_player_remove(self, state: dict, action: dict, ctx: Ctx) -> None:
        super().on_quit(state, action, ctx)
        self.historian_left(state, action["player"], ctx)
        self.tell_removed(state, action, ctx)
        # The two weeks bar those who ceased "by posting an entry", not those the admin removed.
        self.player(state, action["player"])["removed"] = True

    def historian_left(self, state: dict, name: str, ctx: Ctx) -> None:
        """Rule "Dynasties": "If there is no Historian, the Dynasty is a Metadynasty." The status
        went on naming the Historian who had left, and an Ascension Address still awaited from
        them held the game in Hiatus for ever."""
        if state["historian"] is None or self.player(state, state["historian"]) is not self.player(state, name):
            return
        waiting = state["ascension_pending"]
        state.update(historian=None, ascension_pending=False)
        self.sync_status(state, ctx.now)
        text = (f"{name}, the Historian, has left the game: there is no Historian, and dynasty {state['dynasty']} "
                "is a Metadynasty (rule \"Dynasties\").")
        if waiting:
            text += (" No Ascension Address will come from them" +
                     ("." if self.hiatus_reason(state, ctx.now) else ": the Hiatus ends."))
        self.event(state, ctx, text)
        self.announce(state, ctx, "No Historian: a Metadynasty", [text])

    def on_player_status(self, state: dict, action: dict, ctx: Ctx) -> None:
        self._set_away(state, action, ctx, "idle" if action["status"] == "away" else action["status"])

    def after_status_change(self, state: dict, player: dict, ctx: Ctx) -> None:
        self.tell_dormancy(state, ctx)
        self.resolve(state, ctx)  # quorum follows at once

    def after_join(self, state: dict, player: dict, action: dict, ctx: Ctx) -> None:
        # Every Wizard's record has `seen` from the join on (a field only some records had was a
        # difference to `mailref replay` after an upgrade, not an addition it sets apart).
        player["seen"] = iso(ctx.now)
        super().after_join(state, player, action, ctx)
        self.tell_dormancy(state, ctx)
        self.resolve(state, ctx)

    def tell_dormancy(self, state: dict, ctx: Ctx) -> None:
        """Rule "Dormancy": the Wizards learn when it begins or ends (an Idle or a join changes
        it), not from a refused proposal. A game from before this was kept learns it silently."""
        now = self.dormant(state)
        if "dormant" not in state:
            state["dormant"] = now
            return
        if now == state["dormant"]:
            return
        state["dormant"] = now
        text = (f"BlogNomic is Dormant: there are fewer than {state['parameters']['dormant_below']} Wizards, so "
                "proposals may not be submitted (rule \"Dormancy\")." if now
                else "BlogNomic is no longer Dormant: proposals may be submitted again.")
        # Announced, not logged: a journal an older mailref wrote replays with no event more than
        # its live state has (engine/upgraded.py sets apart added fields, never added events).
        self.announce(state, ctx, "Dormant" if now else "No longer Dormant", [text])

    # ---- admin -------------------------------------------------------------------
    def on_office(self, state: dict, action: dict, ctx: Ctx) -> None:
        super().on_office(state, action, ctx)
        if action["office"].lower() == "historian":
            holder = self.holder(state, "historian")
            state["historian"] = holder["name"] if holder else None

    def on_decide(self, state: dict, action: dict, ctx: Ctx) -> None:
        m = matters.must_open(self.find_matter(state, action["number"]), action["number"], ("pending",))
        status = "enacted" if action["outcome"] == "enact" else "failed"
        reason = {"enact": "enacted by the admin", "fail": "failed by the admin", "veto": "vetoed"}[action["outcome"]]
        ctx.ack(f"{self.label(m)} {m['number']}: {reason}.")
        self.close(state, m, ctx, status, reason, note=f"Admin: {action.get('reason') or 'no reason given'}")

    def on_vote_override(self, state: dict, action: dict, ctx: Ctx) -> None:
        m = matters.must_open(self.find_matter(state, action["number"]), action["number"], ("pending",))
        p = self.must_player(state, action["player"])
        previous = m["votes"].get(p["name"])
        ctx.ack(matters.cast(m, p["name"], action["vote"], ctx, f"admin {action.get('by')}", self.label(m), zone=state.get("timezone") or "UTC") + " (admin override)")
        self.tell_vote_override(state, action, ctx, p["name"], m, self.label(m), action["vote"], previous)
        self.resolve(state, ctx)

    # ---- timers and status -------------------------------------------------------
    def deadline_times(self, state: dict, now: datetime) -> list[datetime]:
        # Thresholds already passed were weighed by the last resolve(); only later ones wake us.
        out = []
        p = state["parameters"]
        for m in self.all_matters(state):
            if m["status"] != "pending":
                continue
            opened = parse_iso(m["opened"])
            for key in ("min_open", "popular_after", "stale_after", "dov_open_min", "dov_open_sure"):
                out.append(opened + self.duration(state, key) + timedelta(seconds=1 if key == "stale_after" else 0))
            if m.get("reminded") is False:
                out.append(self.reminder_at(state, opened + self.duration(state, "popular_after"), m["opened"]))
        if p["seasonal_downtime"]:
            now_year = parse_iso(state["digest_next"]).year
            for y in (now_year, now_year + 1):  # Downtime begins (status hiatus) and ends
                out += [datetime(y, 12, 24, tzinfo=UTC), datetime(y, 12, 27, tzinfo=UTC)]
        return [t for t in out if t > now]

    def fire_deadlines(self, state: dict, ctx: Ctx) -> None:
        self.resolve(state, ctx)
        self.remind_wizards(state, ctx)

    def decided_by(self, state: dict, m: dict, ctx: Ctx) -> str:
        """The matter's announcement says by when it is decided: BlogNomic has no vote deadline,
        but open `popular_after` (48 h) a matter is Popular or Unpopular on the votes cast."""
        at = parse_iso(m["opened"]) + self.duration(state, "popular_after")
        return (f"It is decided as soon as it is Popular or Unpopular (quorum {self.quorum(state)}), and at the "
                f"latest from {self.when(state, at, ctx)}, on the votes cast by then.")

    def remind_wizards(self, state: dict, ctx: Ctx) -> None:
        """A matter open 48 hours (`popular_after`) may be decided without the votes not yet
        cast: it is Popular with more FOR than AGAINST, else Unpopular. `reminder_before` ahead
        of that (not in its first half), each Wizard who has not voted on it (not its author,
        whose vote is FOR; not Idle) gets one reminder naming the matters that reach it then.
        BlogNomic's blog needs none (its Wizards read the front page); by mail, a Wizard who
        missed the announcement would otherwise learn of the matter from its result. Once a
        matter; none for a matter resolved before (a matter made before this had no `reminded`)."""
        owed: dict[tuple[str, str], list[dict]] = {}
        for m in self.all_matters(state):
            if m["status"] != "pending" or m.get("reminded") is not False:
                continue
            decidable = parse_iso(m["opened"]) + self.duration(state, "popular_after")
            if ctx.now < self.reminder_at(state, decidable, m["opened"]):
                continue
            m["reminded"] = True
            for name in self.wizards(state):
                if name != m["author"] and name not in m["votes"]:
                    owed.setdefault((name, iso(decidable)), []).append(m)
        for (name, decidable), due in owed.items():
            what = [f"{self.label(m)} {m['number']} \"{m.get('question') or m['title']}\" by {m['author']}" for m in due]
            first = due[0]
            ctx.send("reminder", [name], f"[{self.label(first)} {first['number']}] Reminder: you have not voted; "
                     f"it may be decided from {self.when(state, decidable)}", "notice.txt", game=state,
                     heading=f"A reminder from the referee of {state['name']}: you have not voted on "
                     f"{' and '.join(what)}.",
                     lines=[f"From {self.when(state, decidable, ctx)}, {'it' if len(due) == 1 else 'each'} may be decided "
                            "without your vote: enacted with more FOR than AGAINST, else failed (rule \"Votable Matters\").",
                            "To vote, reply to this mail with FOR, AGAINST or DEFERENTIAL"
                            + ("" if len(due) == 1 else ", one line each: \"12 FOR\"") + "."])

    def status_lines(self, state: dict) -> list[str]:
        lines = [f"Dynasty {state['dynasty']}" + (f" ({state['theme']})" if state["theme"] else "") +
                 f", Historian: {state['historian'] or 'none (Metadynasty)'}",
                 f"Wizards: {', '.join(self.wizards(state))}; quorum {self.quorum(state)}"]
        idle = [p["name"] for p in state["players"] if p["status"] == "idle"]
        if idle:
            lines.append("Idle: " + ", ".join(idle))
        for m in self.all_matters(state):
            if m["status"] == "pending":
                lines.append(f"{self.label(m)} {m['number']} \"{m.get('question') or m['title']}\" by {m['author']}: "
                             + ", ".join(f"{k} {v}" for k, v in sorted(m["votes"].items())))
        return lines

    def score_lines(self, state: dict) -> list[str]:
        return []

    def generators(self, state: dict) -> dict[str, list[str]]:
        """The commands rule "Random Generators" names, read from its current text, so a proposal
        that changes "the potential outcomes of the GNDT’s random result commands" changes them:
        "The FRUIT command will return a random result from the following options: Lemon, ..."."""
        out: dict[str, list[str]] = {}
        for r in state["rules"]:
            if r["title"].strip().lower() != "random generators":
                continue
            for m in _GENERATOR.finditer(r["text"]):
                options = [o.strip() for o in re.split(r",\s*(?:and\s+|or\s+)?", m.group("options")) if o.strip()]
                for name in filter(None, (m.group("name"), m.group("alias"))):
                    out[name.upper()] = options
        return out

"""The referee acting as Admin in BlogNomic: every matter enacted or failed the moment the
ruleset allows it, its result told, its changes applied; and the reminders before a matter
may be decided on the votes cast."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, cast

from mailref.engine.context import Ctx, Refused
from mailref.engine.dates import read_moment
from mailref.engine.ruleset import changes_from
from mailref.engine.state import BlogNomicState, GameState, Matter
from mailref.engine.variants.inbox import zone_of
from mailref.timeutil import format_duration, iso, parse_duration, parse_held_iso, parse_iso


class Resolution:
    """Resolving matters, and the timers that lead to it: held by the game as `resolution`,
    whose clock hooks hand them here."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def resolve(self, state: GameState, ctx: Ctx) -> None:
        """Enact or fail every matter whose condition holds now, until nothing changes."""
        for _ in range(200):
            if not self._resolve_one(state, ctx):
                return

    def _resolve_one(self, state: GameState, ctx: Ctx) -> bool:
        now = ctx.now
        stale = self.game.deadlines.duration(state, "stale_after")
        pending = [p for p in state["proposals"] if p["status"] == "pending"]
        for p in pending:
            if now - parse_held_iso(p["opened"]) > stale:
                self.close(state, p, ctx, "failed", "stale")
                return True
        for j in state["judgements"]:
            if j["status"] != "pending":
                continue
            popular, unpopular, _ = self.game.wizards.opinion(state, j, now)
            age = now - parse_held_iso(j["opened"])
            if j["kind"] == "cfj":
                if popular:
                    self.close(state, j, ctx, "enacted", "popular")
                    return True
                if unpopular:
                    self.close(state, j, ctx, "failed", "unpopular")
                    return True
            elif self.game.hiatus.downtime(state, now):
                # Seasonal Downtime allows only "Votable Matters", "Gamestate Tracking" and "Call
                # for
                # Judgement": enacting a DoV is "Victory and Ascension" business
                # (docs/games/blognomic.md).
                continue
            else:
                votes = self.game.wizards.effective_votes(state, j)
                historian = cast("BlogNomicState", state)["historian"]
                hist_for = (
                    historian in self.game.wizards.names(state)
                    and self.game.wizards.valid_vote(state, j, historian) == "FOR"
                )
                no_against = "AGAINST" not in votes.values()
                if popular and (
                    (
                        age >= self.game.deadlines.duration(state, "dov_open_min")
                        and (hist_for or no_against)
                    )
                    or age >= self.game.deadlines.duration(state, "dov_open_sure")
                ):
                    self.close(state, j, ctx, "enacted", "popular")
                    return True
                if unpopular and age >= self.game.deadlines.duration(state, "dov_open_min"):
                    self.close(state, j, ctx, "failed", "unpopular")
                    return True
        if self.game.hiatus.hiatus_reason(state, now) or not pending:
            return False
        oldest = pending[0]  # numbering follows submission, so the first pending is the oldest
        if oldest["self_killed"]:
            self.close(
                state,
                oldest,
                ctx,
                "failed",
                "withdrawn" if oldest.get("withdrawn") else "self-killed",
            )
            return True
        if oldest["vetoed"]:
            self.close(state, oldest, ctx, "failed", "vetoed")
            return True
        popular, unpopular, _ = self.game.wizards.opinion(state, oldest, now)
        if popular and now - parse_held_iso(oldest["opened"]) >= self.game.deadlines.duration(
            state, "min_open"
        ):
            self.close(state, oldest, ctx, "enacted", "popular")
            return True
        if unpopular:
            self.close(state, oldest, ctx, "failed", "unpopular")
            return True
        return False

    def why_opinion(self, state: GameState, m: Matter, counts: dict, reason: str) -> str:
        """The clause of rule "Votes" that made a matter Popular or Unpopular when the tally alone
        does not show it (FOR 2 with quorum 3 enacted after 48 hours)."""
        after = format_duration(self.game.deadlines.duration(state, "popular_after"))
        if reason == "popular" and counts["FOR"] < counts["quorum"]:
            return (
                f"Popular: open {after} or more, with more than one vote and more FOR than AGAINST."
            )
        if (
            reason == "unpopular"
            and len(self.game.wizards.names(state)) - counts["AGAINST"] >= counts["quorum"]
        ):
            return f"Unpopular: open {after} or more without being Popular."
        return ""

    def close(
        self,
        state: GameState,
        m: Matter,
        ctx: Ctx,
        status: str,
        reason: str,
        note: str = "",
        by_hand: bool = False,
    ) -> None:
        """Close matter M; BY_HAND: the GM or the admin decided it, not the rules' Admin."""
        _, _, counts = self.game.wizards.opinion(state, m, ctx.now)
        self.game.proposals.record_outcome(
            m, status == self.game.policy.passed_status, reason, counts, ctx
        )
        label = self.game.label(m)
        title = m.get("question") or m["title"]
        lines = [
            f"{label} {m['number']} \"{title}\" by {m['author']} "
            f"{'has' if status == 'failed' else 'is'} {status.upper()} ({reason}).",
            f"Tally: FOR {counts['FOR']}, AGAINST {counts['AGAINST']}, quorum {counts['quorum']}.",
            "Votes: " + (", ".join(f"{k} {v}" for k, v in sorted(m["votes"].items())) or "none"),
        ]
        if not by_hand:
            lines.append("Resolved by the referee acting as Admin.")
        wizards = set(self.game.wizards.names(state))
        if gone := sorted(k for k in m["votes"] if k not in wizards):
            # "A non-Wizard never has a Vote": listed beside a tally that leaves them out, say why.
            lines.insert(
                3,
                "Not counted, having left or gone Idle (\"A non-Wizard never has a Vote\"): "
                f"{', '.join(gone)}.",
            )
        if reason in ("popular", "unpopular") and (
            why := self.why_opinion(state, m, counts, reason)
        ):
            lines.insert(2, why)
        hist = state.get("historian")
        hist_vote = (
            self.game.wizards.valid_vote(state, m, hist)
            if hist in self.game.wizards.names(state)
            else None
        )
        if label == "DoV" and status == "enacted":
            # Rule "Victory and Ascension": which of its two clauses enacted it.
            if (
                hist_vote == "FOR"
                or "AGAINST" not in self.game.wizards.effective_votes(state, m).values()
            ):
                clause = (
                    f"{format_duration(self.game.deadlines.duration(state, 'dov_open_min'))} or "
                    "more, "
                    + (
                        "with the Historian's FOR."
                        if hist_vote == "FOR"
                        else "with no AGAINST vote."
                    )
                )
            else:
                sure = self.game.deadlines.duration(state, "dov_open_sure")
                clause = f"{format_duration(sure)} or more."
            lines.insert(2, "Popular and open " + clause)
        if deferring := sorted(
            n for n, v in m["votes"].items() if v == "DEFERENTIAL" and n != hist
        ):
            # The tally counts them as the Historian's vote: say so, or "FOR 4" reads as a miscount.
            deferential = self.game.parameter_table.value(state["parameters"], "deferential")
            lines.insert(
                2,
                f"DEFERENTIAL ({', '.join(deferring)}) "
                + (
                    "counts as AGAINST (rule 1.6 as it now reads)."
                    if deferential == "against"
                    else "does not count (rule 1.6 as it now reads; an earlier vote stands)."
                    if deferential == "nothing"
                    else f"counts as the Historian's vote, {hist_vote}."
                    if hist_vote in ("FOR", "AGAINST")
                    else (
                        "does not count: there is no Historian (the Metadynasty; an earlier vote "
                        "stands)."
                    )
                    if not hist
                    else (
                        "does not count: the Historian has no valid FOR or AGAINST vote (an "
                        "earlier vote stands)."
                    )
                ),
            )
        if note:
            lines.append(note)
        if (
            status == "enacted"
            and label != "DoV"
            and any(c.get("placed") for c in m.get("changes", []))
        ):
            # The numbers the referee chose, as the ruleset reads now (an earlier matter may have
            # taken them).
            m["changes"] = [
                c.as_dict() for c in self.game.proposals.numbered(state, changes_from(m["changes"]))
            ]
        if (
            status == "enacted"
            and label != "DoV"
            and (m.get("changes") or not m.get("effects"))  # effect lines are carried out
            and (
                why := self.game.enactment.enactment_note(state, changes_from(m.get("changes", [])))
            )
        ):
            lines.append(why)
        self.game.event(state, ctx, lines[0])
        ctx.send(
            "results",
            "all",
            f"[{label} {m['number']}] {status.upper()}: {title}",
            "notice.txt",
            game=state,
            heading=lines[0],
            lines=lines[1:],
        )
        if status == "enacted" and label != "DoV":
            self.apply_matter(state, m, ctx)
        if label == "DoV":
            self.game.dynasty.after_dov(state, m, ctx)

    def apply_matter(self, state: GameState, m: Matter, ctx: Ctx) -> None:
        label = self.game.label(m)
        if effects := m.get("effects"):
            # An enacted CfJ's effect lines (SPEC §4.4): scores at once, undos by the court.
            by, results = f"{label.lower()} {m['number']}", ctx.out[-1]
            done = self.game.court.carry_out(state, ctx, effects, by, strict=False)
            if (
                not self.game.court.order_undos(ctx, effects, by, strict=False, mail=results)
                and done
            ):
                results.vars["lines"] += ["", "What it changes:", *done]
            if not m.get("changes"):
                return
        self.game.proposals.enact(state, m, ctx, "is enacted")

    def deadline_times(self, state: GameState, now: datetime) -> list[datetime]:
        # Thresholds already passed were weighed by the last resolve(); only later ones wake us.
        out = []
        p = state["parameters"]
        for m in self.game.all_matters(state):
            if m["status"] != "pending":
                continue
            opened = parse_iso(m["opened"])
            for key in (
                "min_open",
                "popular_after",
                "stale_after",
                "dov_open_min",
                "dov_open_sure",
            ):
                out.append(
                    opened
                    + self.game.deadlines.duration(state, key)
                    + timedelta(seconds=1 if key == "stale_after" else 0)
                )
            decidable = self.game.wizards.decidable_at(state, m)
            out.append(decidable)
            if m.get("reminded") is False:
                out.append(self.game.deadlines.reminder_at(state, decidable, m["opened"]))
        if p["seasonal_downtime"]:
            now_year = parse_held_iso(state["digest_next"]).year
            (m1, d1), (m2, d2) = self.game.hiatus.downtime_days(state)
            for y in (now_year, now_year + 1):  # Downtime begins (status hiatus) and ends
                out += [datetime(y, m1, d1, tzinfo=UTC), datetime(y, m2, d2, tzinfo=UTC)]
        return [t for t in out if t > now]

    def fire_deadlines(self, state: GameState, ctx: Ctx) -> None:
        self.resolve(state, ctx)
        self.remind_wizards(state, ctx)

    def decided_by(self, state: GameState, m: Matter, ctx: Ctx) -> str:
        """The matter's announcement says by when it is decided: BlogNomic has no vote deadline,
        but open `popular_after` (48 h) a matter is Popular or Unpopular on the votes cast."""
        at = self.game.wizards.decidable_at(state, m)
        return (
            "It is decided as soon as it is Popular or Unpopular "
            f"(quorum {self.game.quorum(state)}), "
            "and at the "
            f"latest from {self.game.deadlines.when(state, at, ctx)}, on the votes cast by then."
        )

    def outlook(self, state: GameState, m: Matter, now: datetime) -> str:
        """Whether the open matter M is Popular at NOW, and when it is enacted or decided:
        BlogNomic has no vote deadline, and a Popular proposal may still wait (`min_open`, the
        proposals before it, a Hiatus)."""
        game = self.game
        popular, unpopular, counts = game.wizards.opinion(state, m, now)
        tally = f"FOR {counts['FOR']}, AGAINST {counts['AGAINST']}, quorum {counts['quorum']}"
        opened = parse_iso(m["opened"])
        word = "Popular" if popular else "Unpopular"
        if m.get("kind") == "dov":
            least, sure = (
                opened + game.deadlines.duration(state, k)
                for k in ("dov_open_min", "dov_open_sure")
            )
            if popular:
                return (
                    f"Popular ({tally}): enacted from {game.deadlines.when(state, least)} with the "
                    f"Historian's FOR or no AGAINST, else from {game.deadlines.when(state, sure)}."
                )
            if unpopular:
                return f"Unpopular ({tally}): it fails from {game.deadlines.when(state, least)}."
        elif (popular or unpopular) and m.get("kind") == "cfj":
            return f"{word} ({tally}): it is decided now."
        elif popular or unpopular:
            if held := game.hiatus.hiatus_reason(state, now):
                return f"{word} ({tally}); nothing is decided while {held}."
            done = "enacted" if popular else "failed"
            if any(
                p["status"] == "pending" and p["number"] < m["number"] for p in state["proposals"]
            ):
                return f"{word} ({tally}): it is {done} once the proposals before it are decided."
            at = opened + game.deadlines.duration(state, "min_open")
            if popular and at > now:
                return f"Popular ({tally}): it is enacted at {game.deadlines.when(state, at)}."
            return f"{word} ({tally}): it is {done} now."
        return (
            f"Not yet Popular ({tally}): it is enacted as soon as it is Popular, and decided on "
            f"the votes cast from "
            f"{game.deadlines.when(state, game.wizards.decidable_at(state, m))}."
        )

    def move_decidable(self, state: GameState, action: Any, ctx: Ctx) -> None:
        """BlogNomic has no vote deadline, but its players are told when each open matter may
        be decided on the votes cast: the GM's `[Deadline] +2d` (or a moment) moves that, for
        every open matter, as another game's deadline moves."""
        game = self.game
        pending = [m for m in game.all_matters(state) if m["status"] == "pending"]
        if not pending:
            raise Refused("no_deadline_now")
        lines = []
        for m in pending:
            old = game.wizards.decidable_at(state, m)
            if action.get("extend"):
                new = old + parse_duration(action["extend"])
            elif action.get("at"):
                gm = game.players.by_address(state, str(action.get("address") or ""))
                try:
                    new = read_moment(str(action["at"]), zone_of(state, gm), ctx.now, day_end=True)
                except ValueError as e:
                    raise Refused("unreadable_date", why=e) from None
            else:
                new = parse_iso(action["when"])
            if not action.get("by"):  # by mail, bounded as any deadline moved by mail
                game.extensions.check_by_mail(state, m, old, new, ctx)
            m["decidable"] = iso(new)
            lines.append(
                f"{game.label(m)} {m['number']} \"{m.get('question') or m['title']}\" may be "
                f"decided on the votes cast from {game.deadlines.when(state, new, ctx)} (it was "
                f"{game.deadlines.when(state, old)}); as soon as it is Popular or Unpopular, "
                "as before."
            )
        for line in lines:
            ctx.ack(line)
        game.event(
            state, ctx, f"The GM gave the open matters until {game.deadlines.when(state, new)}."
        )
        why = [f"Reason: {action['reason']}"] if action.get("reason") else []
        game.announce(state, ctx, "Deadline changed", [*lines, *why])

    def remind_wizards(self, state: GameState, ctx: Ctx) -> None:
        """A matter open 48 hours (`popular_after`) may be decided without the votes not yet
        cast: it is Popular with more FOR than AGAINST, else Unpopular. `reminder_before` ahead
        of that (not in its first half), each Wizard who has not voted on it (not its author,
        whose vote is FOR; not Idle) gets one reminder naming the matters that reach it then.
        BlogNomic's blog needs none (its Wizards read the front page); by mail, a Wizard who
        missed the announcement would otherwise learn of the matter from its result. Once a
        matter; none for a matter resolved before, nor for one without `reminded`."""
        owed: dict[tuple[str, str], list[dict]] = {}
        for m in self.game.all_matters(state):
            if m["status"] != "pending" or m.get("reminded") is not False:
                continue
            decidable = self.game.wizards.decidable_at(state, m)
            if ctx.now < self.game.deadlines.reminder_at(state, decidable, m["opened"]):
                continue
            m["reminded"] = True
            for name in self.game.proposals.waiting_for(state, m):
                if name != m["author"]:
                    owed.setdefault((name, iso(decidable)), []).append(m)
        for (name, decidable), due in owed.items():
            what = [
                f"{self.game.label(m)} {m['number']} \"{m.get('question') or m['title']}\" by "
                f"{m['author']}"
                for m in due
            ]
            first = due[0]
            ctx.send(
                "reminder",
                [name],
                f"[{self.game.label(first)} {first['number']}] Reminder: you have not voted; "
                f"it may be decided from {self.game.deadlines.when(state, decidable)}",
                "notice.txt",
                game=state,
                heading=f"A reminder from the referee of {state['name']}: you have not voted on "
                f"{' and '.join(what)}.",
                lines=[
                    f"From {self.game.deadlines.when(state, decidable, ctx)}, "
                    f"{'it' if len(due) == 1 else 'each'} may be decided "
                    "without your vote: enacted with more FOR than AGAINST, else failed (rule "
                    "\"Votable Matters\").",
                    self.game.proposals.how_to_vote()
                    + ("" if len(due) == 1 else ', one line each: "12 FOR"')
                    + ".",
                ],
            )

    def late_players(
        self, state: GameState, now: datetime | None = None
    ) -> list[tuple[str, str | None]]:
        """For the GM's digest: who has not voted on each pending matter, and the Wizards silent
        for `quiet_after` (7 days), whom rule "Idle Wizards" lets an Admin render Idle: a Wizard
        who stopped playing without [Idle] or [Quit] still counts in the quorum, and every
        proposal then fails at 48 hours. The referee does not idle them itself: the GM decides."""
        out: list[tuple[str, str | None]] = []
        for m in self.game.all_matters(state):
            if m["status"] == "pending" and (missing := self.game.proposals.waiting_for(state, m)):
                out.append(
                    (
                        f"Not yet voted on {self.game.label(m)} {m['number']}: "
                        f"{', '.join(missing)}",
                        None,
                    )
                )
        quiet = parse_duration(str(self.game.parameter(state, "quiet_after")))
        for p in state["players"]:
            last = (
                p.get("seen") or p.get("rejoined") or p.get("joined")
            )  # older games' records lack `seen`
            if p["status"] == "active" and last and now and now - parse_held_iso(last) >= quiet:
                out.append(
                    (
                        f"{p['name']} has sent nothing since "
                        f"{self.game.deadlines.when(state, last)}: "
                        "an Admin "
                        "may render them "
                        "Idle (rule \"Idle Wizards\"), which lowers the quorum: `mailref player "
                        "away "
                        f"{state['slug']} {p['name']}`",
                        iso(parse_held_iso(last) + quiet),
                    )
                )
        return out

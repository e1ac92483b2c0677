"""Who counts in BlogNomic: Wizards and Idle Wizards, quorum and the valid vote of each (rules
"Idle Wizards", "Votes"). Joining, leaving, idling and Dormancy are the game's own hooks and
handlers (blognomic/__init__.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from mailref.engine.context import Refused
from mailref.engine.mechanics import voting
from mailref.engine.ruleparams import quorum_of
from mailref.engine.state import BlogNomicState, Matter
from mailref.engine.variants.extensions import moment


class Wizards:
    """Who counts, and the valid vote of each: held by the game as `wizards`."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def names(self, state: BlogNomicState) -> list[str]:
        """Idle Wizards are not counted as Wizards (rule "Idle Wizards")."""
        return [p["name"] for p in state["players"] if p["status"] == "active"]

    def quorum(self, state: BlogNomicState) -> int:
        """Rule 4.1 (Keywords): "half the number of Wizards in that subset, rounded down, plus
        one"."""
        return quorum_of(state["parameters"].get("quorum", "1/2 down +1"), len(self.names(state)))

    def must_be_wizard(self, state: BlogNomicState, name: str, what: str) -> None:
        """Rule "Idle Wizards": "For the purposes of all Gamestate and the Ruleset, excluding Rules
        “Ruleset and Gamestate”, “Wizards”, “Dynasties”, “Fair Play” and any of those Rules’
        subrules, Idle Wizards are not counted as Wizards"."""
        if name not in self.names(state):
            raise Refused("idle_wizard_cannot", what=what)

    def valid_vote(self, state: BlogNomicState, m: Matter, name: str) -> str | None:
        """Rule "Votes": "A Wizard’s Vote on a Votable Matter is the last valid voting icon that
        they have used"; DEFERENTIAL is valid, as the Historian's Vote, only "When the Historian
        has a valid Vote other than VETO". So FOR then DEF with no Historian vote stays FOR
        (docs/games/blognomic.md); and "if the author ... has not used a valid voting icon ..., then
        the author’s Vote is FOR"."""
        hist = state["historian"]
        deferential = self.game.parameter_table.value(state["parameters"], "deferential")
        for b in reversed([b for b in m.get("ballots", []) if b["player"] == name]):
            if b["vote"] in ("FOR", "AGAINST", "ABSTAIN"):  # ABSTAIN only where a rule allows it
                return b["vote"]
            if b["vote"] == "DEFERENTIAL" and name != hist and deferential != "historian":
                # rule 1.6 reworded: DEFERENTIAL is AGAINST, or no vote (the one before stands)
                if deferential == "against":
                    return "AGAINST"
                continue
            # "A non-Wizard never has a Vote, even if they were a Wizard previously and had cast a
            # valid Vote": an Idle Historian's vote is none, so DEFERENTIAL follows nothing.
            if b["vote"] == "DEFERENTIAL" and hist and name != hist and hist in self.names(state):
                follows = self.valid_vote(state, m, hist)
                if follows in ("FOR", "AGAINST"):
                    return follows
        if name == m["author"]:
            return "FOR"
        return None

    def effective_votes(self, state: BlogNomicState, m: Matter) -> dict[str, str]:
        """Valid votes of counted Wizards ("A non-Wizard never has a Vote")."""
        out = {}
        for name in self.names(state):
            vote = self.valid_vote(state, m, name)
            if vote:
                out[name] = vote
        return out

    def decidable_at(self, state: BlogNomicState, m: Matter) -> datetime:
        """When M may be decided on the votes cast: open `popular_after` (rule "Votes"), or
        when the GM's [Deadline] moved it to."""
        if m.get("decidable"):
            return moment(m["decidable"])
        return moment(m["opened"]) + self.game.deadlines.duration(state, "popular_after")

    def opinion(self, state: BlogNomicState, m: Matter, now: datetime) -> tuple[bool, bool, dict]:
        """(popular, unpopular, counts) exactly as rule "Votes" words them."""
        long_open = now >= self.decidable_at(state, m)
        outcome = voting.count(
            self.game.proposals.policy_in(state),
            self.effective_votes(state, m),
            self.names(state),
            self.quorum(state),
            long_open,
        )
        return outcome.passes, outcome.fails, outcome.counts

"""Who counts in BlogNomic: Wizards and Idle Wizards, quorum and the valid vote of each, and
joining, leaving, idling and Dormancy (rules "Wizards", "Idle Wizards", "Votes", "Dormancy")."""

from __future__ import annotations

from datetime import datetime

from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics import voting
from mailref.engine.ruleparams import quorum_of
from mailref.engine.state import Action, GameState, Matter, Player
from mailref.engine.variants.actions import Acting, action
from mailref.engine.variants.base import Variant
from mailref.timeutil import iso, parse_iso


class Wizards(Acting):
    """Wizards, their votes, and their comings and goings."""

    def wizards(self, state: GameState) -> list[str]:
        """Idle Wizards are not counted as Wizards (rule "Idle Wizards")."""
        return [p["name"] for p in state["players"] if p["status"] == "active"]

    def quorum(self, state: GameState) -> int:
        """Rule 4.1 (Keywords): "half the number of Wizards in that subset, rounded down, plus
        one"."""
        return quorum_of(state["parameters"].get("quorum", "1/2 down +1"), len(self.wizards(state)))

    def must_be_wizard(self, state: GameState, name: str, what: str) -> None:
        """Rule "Idle Wizards": "For the purposes of all Gamestate and the Ruleset, excluding Rules
        “Ruleset and Gamestate”, “Wizards”, “Dynasties”, “Fair Play” and any of those Rules’
        subrules, Idle Wizards are not counted as Wizards"."""
        if name not in self.wizards(state):
            raise Refused("idle_wizard_cannot", what=what)

    def valid_vote(self, state: GameState, m: Matter, name: str) -> str | None:
        """Rule "Votes": "A Wizard’s Vote on a Votable Matter is the last valid voting icon that
        they have used"; DEFERENTIAL is valid, as the Historian's Vote, only "When the Historian
        has a valid Vote other than VETO". So FOR then DEF with no Historian vote stays FOR
        (docs/games/blognomic.md); and "if the author ... has not used a valid voting icon ..., then
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

    def effective_votes(self, state: GameState, m: Matter) -> dict[str, str]:
        """Valid votes of counted Wizards ("A non-Wizard never has a Vote")."""
        out = {}
        for name in self.wizards(state):
            vote = self.valid_vote(state, m, name)
            if vote:
                out[name] = vote
        return out

    def decidable_at(self, state: GameState, m: Matter) -> datetime:
        """When M may be decided on the votes cast: open `popular_after` (rule "Votes"), or
        when the GM's [Deadline] moved it to."""
        if m.get("decidable"):
            return parse_iso(m["decidable"])
        return parse_iso(m["opened"]) + self.duration(state, "popular_after")

    def opinion(self, state: GameState, m: Matter, now: datetime) -> tuple[bool, bool, dict]:
        """(popular, unpopular, counts) exactly as rule "Votes" words them."""
        long_open = now >= self.decidable_at(state, m)
        outcome = voting.count(
            self.policy,
            self.effective_votes(state, m),
            self.wizards(state),
            self.quorum(state),
            long_open,
        )
        return outcome.passes, outcome.fails, outcome.counts

    @action("idle")
    def on_idle(self, state: GameState, action: Action, ctx: Ctx) -> None:
        self._idle_self(state, {**action, "name": action["player"]}, ctx)

    @action("away")
    def on_away(self, state: GameState, action: Action, ctx: Ctx) -> None:
        self._idle_self(state, action, ctx)

    def _idle_self(self, state: GameState, action: Action, ctx: Ctx) -> None:
        if action.get("dates"):
            raise Refused("idle_has_no_end")
        p = self.must_player(state, action.get("name") or action["player"])
        was = p["status"]
        self._set_away(state, action, ctx, "idle")
        if was != "idle" and p["name"] == action["player"]:
            p["self_idled"] = {"at": iso(ctx.now), "dynasty": state["dynasty"]}

    @action("unidle")
    def on_unidle(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """Rule "Idle Wizards": no Unidle "if ... the Wizard who would be Unidled asked to become
        (or rendered themselves) Idle within the previous four days, and within the current
        dynasty"."""
        p = self.must_player(state, action["player"])
        if p["status"] != "idle":
            raise Refused("not_idle")
        idled = p.get("self_idled")
        if idled and idled["dynasty"] == state["dynasty"]:
            until = parse_iso(idled["at"]) + self.duration(state, "unidle_after")
            if ctx.now < until:
                raise Refused(
                    "unidle_too_soon",
                    idled=self.when(state, idled["at"], ctx),
                    until=self.when(state, until, ctx),
                )
        self._set_away(state, {**action, "name": action["player"]}, ctx, "active")

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
                until = parse_iso(p["left_at"]) + self.duration(state, "rejoin_after")
                if ctx.now < until:
                    raise Refused(
                        "rejoin_too_soon",
                        name=p["name"],
                        left=self.when(state, p["left_at"], ctx),
                        until=self.when(state, until, ctx),
                    )
        super().on_join(state, action, ctx)

    @action("player_add")
    def on_player_add(self, state: GameState, action: Action, ctx: Ctx) -> None:
        sent = len(ctx.out)
        Variant.on_join(self, state, action, ctx)  # the admin may add anyone at any time
        self.welcome_added(state, action, ctx, sent)

    @action("quit")
    def on_quit(self, state: GameState, action: Action, ctx: Ctx) -> None:
        super().on_quit(state, action, ctx)
        self.player(state, action["player"])["removed"] = False
        self.historian_left(state, action["player"], ctx)

    @action("player_remove")
    def on_player_remove(self, state: GameState, action: Action, ctx: Ctx) -> None:
        super().on_quit(state, action, ctx)
        self.historian_left(state, action["player"], ctx)
        self.tell_removed(state, action, ctx)
        # The two weeks bar those who ceased "by posting an entry", not those the admin removed.
        self.player(state, action["player"])["removed"] = True

    def historian_left(self, state: GameState, name: str, ctx: Ctx) -> None:
        """Rule "Dynasties": "If there is no Historian, the Dynasty is a Metadynasty." When the
        Historian leaves, the game has none, and an Ascension Address awaited from them no longer
        holds the game in Hiatus."""
        if state["historian"] is None or self.player(state, state["historian"]) is not self.player(
            state, name
        ):
            return
        waiting = state["ascension_pending"]
        state.update(historian=None, ascension_pending=False)
        self.sync_status(state, ctx.now)
        text = (
            f"{name}, the Historian, has left the game: there is no Historian, and dynasty "
            f"{state['dynasty']} "
            "is a Metadynasty (rule \"Dynasties\")."
        )
        if waiting:
            text += " No Ascension Address will come from them" + (
                "." if self.hiatus_reason(state, ctx.now) else ": the Hiatus ends."
            )
        self.event(state, ctx, text)
        self.announce(state, ctx, "No Historian: a Metadynasty", [text])

    @action("player_status")
    def on_player_status(self, state: GameState, action: Action, ctx: Ctx) -> None:
        self._set_away(
            state, action, ctx, "idle" if action["status"] == "away" else action["status"]
        )

    def after_status_change(self, state: GameState, player: Player, ctx: Ctx) -> None:
        self.tell_dormancy(state, ctx)
        self.resolve(state, ctx)  # quorum follows at once

    def after_join(self, state: GameState, player: Player, action: Action, ctx: Ctx) -> None:
        # Every Wizard's record has `seen` from the join on, so that `mailref replay` after an
        # upgrade finds the same fields in every record (engine/upgraded.py).
        player["seen"] = iso(ctx.now)
        super().after_join(state, player, action, ctx)
        self.tell_dormancy(state, ctx)
        self.resolve(state, ctx)

    @action("set")
    def on_set(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """A changed `dormant_below` is told as what the game now needs, and whether it is
        Dormant by it; the game's Dormancy is then as told, so the Idle or join that changes it
        next is announced. What the new values decide (a Popular proposal open longer than a
        shorter `min_open`) is decided at once, not at the next ballot."""
        sent = len(ctx.out)
        super().on_set(state, action, ctx)
        if "dormant_below" in action["values"]:
            least, have = state["parameters"]["dormant_below"], len(self.wizards(state))
            words = f"The game now needs {least} Wizards to leave Dormancy, and has {have}: " + (
                f"it is Dormant, so proposals may not be submitted until {least} play."
                if self.dormant(state)
                else "it is not Dormant, so proposals may be submitted."
            )
            ctx.ack(words)
            for o in ctx.out[sent:]:
                if o.template == "notice.txt" and isinstance(o.vars.get("lines"), list):
                    o.vars["lines"] = [words, *o.vars["lines"]]
            state["dormant"] = self.dormant(state)
        self.resolve(state, ctx)

    def tell_dormancy(self, state: GameState, ctx: Ctx) -> None:
        """Rule "Dormancy": the Wizards learn when it begins or ends (an Idle or a join changes
        it), not from a refused proposal. A state that does not yet say whether the game is
        Dormant learns it silently."""
        now = self.dormant(state)
        if "dormant" not in state:
            state["dormant"] = now
            return
        if now == state["dormant"]:
            return
        state["dormant"] = now
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

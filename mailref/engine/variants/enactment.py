"""Rule changes put in force: the admin's own, and those of a decided matter, applied whole
or not at all, with the parameters that follow a rewritten rule and the ruleset mailed (the
game's hook `mail_ruleset`). Held by the game as `enactment`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, cast

from mailref.engine.context import Ctx, Refused
from mailref.engine.parameters import Bonus, Switch, Value
from mailref.engine.rule_index import numbered
from mailref.engine.ruleparams import Param, Table, bound, marked, read, says
from mailref.engine.ruleset import (
    RuleConflict,
    apply_changes,
    changes_from,
    check_changes,
    plain,
    sort_key,
)
from mailref.engine.state import Action, GameState, OtherAction, Rule
from mailref.engine.variants.actions import action
from mailref.timeutil import iso


def _titled(rules: list, changes: list) -> dict[str, str]:
    """The rules' numbers by title, when a change names its rule by title (else none: only
    then are the rules walked)."""
    if all(c.number for c in changes if c.kind != "enact"):
        return {}
    return {str(r.get("title", "")).lower(): r["number"] for r in rules}


class EnactmentHost(Protocol):
    """What changing the ruleset asks of the game: the parameters it runs rules by and the
    rules its code runs, how it numbers rules, its log, victory, and the lines a ruleset mail
    shows."""

    parameter_table: Table
    whole_rule_numbers: bool
    runs_rules: frozenset[str]

    def check_param(self, key: str, value: object) -> Value: ...

    def event(self, state: GameState, ctx: Ctx, text: str) -> None: ...

    def check_victory(self, state: GameState, ctx: Ctx) -> None: ...

    def rules_for_display(self, state: GameState) -> list[Rule]: ...

    def mail_ruleset(
        self,
        state: GameState,
        ctx: Ctx,
        why: str,
        diff: list[str],
        reason: str | None = None,
    ) -> None: ...


class Enactment:
    """Changing the ruleset."""

    def __init__(self, game: EnactmentHost) -> None:
        self.game = game

    @property
    def rule_parameters(self) -> dict[str, tuple[str, ...]]:
        return self.game.parameter_table.by_rule

    def rules_stating(self, state: GameState) -> dict[str, tuple[str, ...]]:
        """Rule number -> the parameters it states: as the game's ruleset file binds them
        (docs/rulesets.md), else as the variant's table does."""
        bindings = state.get("ruleset", {}).get("bindings")
        if bindings is None:
            return self.rule_parameters
        out: dict[str, tuple[str, ...]] = {}
        for name, number in bindings.items():
            out[number] = out.get(number, ()) + (name,)
        return out

    def stating_param(self, state: GameState, name: str) -> Param:
        """Parameter NAME as this game binds it to a rule."""
        bindings = state.get("ruleset", {}).get("bindings")
        p = self.game.parameter_table[name]
        return bound(p, bindings[name]) if bindings and name in bindings else p

    def coded_rules(self, state: GameState) -> frozenset[str]:
        """The rules whose wording the referee's code carries out in this game."""
        part = state.get("ruleset")
        return frozenset(part.get("runs", {})) if part else self.game.runs_rules

    @action("rule")
    def on_rule(self, state: GameState, action: Action, ctx: Ctx) -> None:
        changes = changes_from(cast("OtherAction", action)["changes"])
        by = action.get("by_label") or f"admin {action.get('by')}"
        try:
            rules, entries, diff = apply_changes(
                plain(state["rules"]),
                changes,
                by,
                iso(ctx.now),
                state["rule_history"],
                self.game.whole_rule_numbers,
            )
        except RuleConflict as e:
            raise Refused("rule_conflict", why=e) from None
        touched = self.touched_rules(state["rules"], changes, state)
        state["rules"] = cast("list[Rule]", rules)
        state["rule_history"] += entries
        for c in changes:
            ctx.ack(c.describe())
        self.game.event(
            state, ctx, f"Rule change by {by}: " + "; ".join(c.describe() for c in changes)
        )
        why = f"Ruleset updated by {by}"
        followed = self.follow_rule_parameters(
            state, ctx, touched, why, new=self.new_switch_rules(state, changes)
        )
        self.game.check_victory(state, ctx)
        self.game.mail_ruleset(
            state,
            ctx,
            why,
            diff + ([""] + followed if followed else []),
            reason=action.get("reason"),
        )

    def marked_text(self, state: GameState, rule: dict) -> list[dict]:
        """RULE's text in pieces, the sentences the referee runs by a parameter marked with the
        value it runs them by (the ruleset page)."""
        number = str(rule["number"])
        params = [
            (
                self.stating_param(state, name),
                self.game.parameter_table.value(state["parameters"], name),
            )
            for name in self.rules_stating(state).get(number, ())
        ]
        return (
            marked(str(rule.get("text", "")), params)
            if params
            else [{"text": rule.get("text", ""), "mark": ""}]
        )

    def touched_rules(
        self, rules: list, changes: list, state: GameState | None = None
    ) -> list[str]:
        """The numbers of the rules run by parameters that CHANGES amend, repeal or renumber."""
        titles = _titled(rules, changes)
        touched = {
            c.number or titles.get(str(c.ref_title or "").lower())
            for c in changes
            if c.kind != "enact"
        }
        touched |= {
            c.number for c in changes if c.kind == "enact"
        }  # a rule enacted again in its place
        stating = self.rules_stating(state) if state is not None else self.rule_parameters
        return sorted(x for x in touched if x in stating)

    def cannot_apply(self, state: GameState, changes: list) -> str | None:
        """Why CHANGES could not apply to the ruleset as it reads now (a dry run), or None."""
        try:
            check_changes(
                plain(state["rules"]), changes, state["rule_history"], self.game.whole_rule_numbers
            )
        except RuleConflict as e:
            return str(e)
        return None

    def enactment_note(self, state: GameState, changes: list) -> str | None:
        """The line the players read in a decided matter's result when the referee will not change
        the ruleset for it (SPEC §3.1: flagged to the GM, never half-applied), so that nobody
        believes an "ENACTED" changed the rules when it did not."""
        if not changes:
            return "It has no rule changes the referee can apply: the GM applies its effects."
        problem = self.cannot_apply(state, changes)
        if problem:
            return (
                f"Its rule changes cannot apply to the ruleset as it now reads ({problem}): none "
                "of them is "
                "applied, and the GM is asked to correct the ruleset."
            )
        return None

    def enact_changes(
        self,
        state: GameState,
        ctx: Ctx,
        changes: list,
        by: str,
        why: str,
        then: Callable[[], None] | None = None,
    ) -> str | None:
        """Apply a decided matter's CHANGES exactly and mail the ruleset; never half-apply.
        THEN runs once the rules (and the parameters they set) are in force, before the ruleset
        mail, so that what it does (open the next turn) follows the new rules and the mail shows it.
        Returns why nothing was applied (the GM is alerted), or None."""
        if not changes:
            ctx.alert(
                f"{why}; it has no rule changes the referee could read: apply its effects. By "
                "mail, reply to this alert with [Score] NAME +N for a score, or with [Rule] and "
                "the rule changes (Amend rule 21 to read: ...) for a rule; or on the host: "
                "`mailref score ...`, `mailref rule ...`.",
                f"apply the effects of {by} by hand",
            )
            if then:
                then()
            return "no readable rule changes"
        try:
            rules, entries, diff = apply_changes(
                plain(state["rules"]),
                changes,
                by,
                iso(ctx.now),
                state["rule_history"],
                self.game.whole_rule_numbers,
            )
        except RuleConflict as e:
            ctx.alert(
                f"{why} but its changes could not apply: {e}. Nothing was applied. To correct "
                "the ruleset, reply to this alert with [Rule] and the changes as they should "
                "read (Amend rule 21 to read: ...), or on the host: `mailref rule ...`.",
                f"the rule changes of {by} could not apply",
            )
            if then:
                then()
            return str(e)
        titles = _titled(state["rules"], changes)
        touched = self.touched_rules(state["rules"], changes, state)
        state["rules"] = cast("list[Rule]", rules)
        state["rule_history"] = state["rule_history"] + entries
        reworded = {
            c.number or titles.get(str(c.ref_title or "").lower())
            for c in changes
            if c.kind not in ("enact", "retitle")
        }
        # A rule the code runs is the GM's to watch unless its parameters and switches say all
        # of it: each read from the new text (Sidekick rule 12 "a tie passes" is; "two thirds of
        # the votes cast" is not).
        coded = sorted(
            (x for x in reworded if x in self.coded_rules(state) and not self.read_whole(state, x)),
            key=sort_key,
        )
        switching = self.new_switch_rules(state, changes)
        new = [c for c in changes if c.kind == "enact" and c.number not in switching]
        also = ""
        if (
            new
        ):  # SPEC §3.1 leaves such rules to the GM: one line in the digest says so, not an alert
            named = ", ".join(f'{c.number or ""} "{c.title}"'.strip() for c in new)
            also = (
                f"The referee does not run its new rule{'s' if len(new) > 1 else ''} {named}: "
                "what they require is the GM's to apply (by mail: [Score] NAME +N for a score, "
                "[Rule] with the changes for a rule; or on the host: `mailref score`, "
                "`mailref rule`)."
            )
            self.game.event(state, ctx, f"{why}. {also}")
        followed = self.follow_rule_parameters(
            state, ctx, touched, why, coded=coded, also=also, new=switching
        )
        if then:
            then()
        self.game.mail_ruleset(state, ctx, why, diff + ([""] + followed if followed else []))
        return None

    def read_whole(self, state: GameState, number: str) -> bool:
        """Whether rule NUMBER states parameters and its text says each unmistakably (repealed,
        it says that none applies)."""
        names = self.rules_stating(state).get(number, ())
        rule = numbered(plain(state["rules"]), number)
        text = None if rule is None else str(rule.get("text", ""))
        return bool(names) and (
            text is None or all(read(self.stating_param(state, n), text) is not None for n in names)
        )

    def switches_stated(self, state: GameState, number: str) -> dict[str, Value]:
        """The switches of the voting policy the text of rule NUMBER states in one of their
        forms (a new "Abstentions" rule sets one just as an amendment of its own rule does)."""
        rule = numbered(plain(state["rules"]), number)
        text = "" if rule is None else str(rule.get("text", ""))
        out = {}
        for p in self.game.parameter_table:
            if isinstance(p.kind, Switch):
                value = p.kind.read(p.patterns, False, " ".join(text.split()))
                if value is not None:
                    out[p.name] = value
        return out

    def stated_elsewhere(self, state: GameState, name: str, number: str) -> bool:
        """Whether a rule in force other than NUMBER states switch NAME (a new "Abstentions"
        rule), so that NUMBER saying nothing of it leaves it as that rule sets it."""
        return any(
            name in self.switches_stated(state, str(r["number"]))
            for r in state["rules"]
            if str(r["number"]) != number
        )

    def new_switch_rules(self, state: GameState, changes: list) -> list[str]:
        """The rules CHANGES enact anew (none the referee runs by a parameter) that state a
        switch."""
        return [
            str(c.number)
            for c in changes
            if c.kind == "enact"
            and c.number
            and c.number not in self.rules_stating(state)
            and self.switches_stated(state, str(c.number))
        ]

    def in_force(self, state: GameState, name: str) -> bool:
        """Whether the rule stating parameter NAME is on the rule list (rule 2 of Sidekick: "Any
        rules that are not on the rule list do not apply"); an operator's setting always is."""
        part = state.get("ruleset")  # a game of its own rules: a parameter no rule states is set
        rule = part.get("bindings", {}).get(name) if part else self.game.parameter_table[name].rule
        return rule is None or numbered(plain(state["rules"]), rule) is not None

    def ack_changes(self, ctx: Ctx, changes: list) -> None:
        """The mover's ack names each rule change read from the proposal, in full, and the
        explanation and closing words set aside from it."""
        for c in changes:
            ctx.ack("  " + c.describe(full=True))
            if c.aside:
                said = " ".join(c.aside.split())
                said = said if len(said) <= 200 else said[:199] + "…"
                ctx.ack(f'  (Set aside as your explanation, not rule text: "{said}")')
            if c.signoff:
                ctx.ack(f'  (Set aside as your closing words, not rule text: "{c.signoff}")')

    def follow_rule_parameters(
        self,
        state: GameState,
        ctx: Ctx,
        numbers: list[str],
        why: str,
        coded: list[str] | None = None,
        also: str = "",
        new: list[str] | None = None,
    ) -> list[str]:
        """The referee runs some rules by parameters (Sidekick rule 22 is fail_points). When a
        passed change rewrites such a rule, the parameter follows the new text where it says the
        value unmistakably; otherwise the GM is asked to set it. CODED are rewritten rules the
        referee carries out as the game's documents wrote them (Sidekick rule 12: more FOR than
        AGAINST): the GM is told that the new wording is theirs to enforce. Returns the lines
        telling the players what the referee now does; the GM gets one alert for it all."""
        told, ask, sets = [], [], []
        if coded:
            titles = {str(r["number"]): r.get("title", "") for r in state["rules"]}
            named = ", ".join(f'{n} "{titles[n]}"' if titles.get(n) else n for n in coded)
            ask.append(
                f"It rewrites rule{'s' if len(coded) > 1 else ''} {named}, which the referee "
                "carries out as the "
                "game's initial rules say, not as they now read: where the new wording decides "
                "otherwise, "
                "correct the outcome by hand, by mail as a Reply to this alert: [Score] NAME +N "
                "for a score, [Decide] N enact (or fail) for a proposal, [Override] N NAME FOR "
                "for a vote, [Set] KEY=VALUE for a setting; or on the host: `mailref score`, "
                "`mailref proposal enact|fail`, `mailref vote`, `mailref game set`."
            )
            # Every player learns it too, in the ruleset mail: never a silent "as first written".
            told.append(
                f"Rule{'s' if len(coded) > 1 else ''} {named} changed, and the referee does not "
                f"read all the new text asks: it still carries {'them' if len(coded) > 1 else 'it'}"
                " out as first written where the new text differs, and the GM, told of it, "
                "settles by hand what the new text decides otherwise."
            )
        wanted = set(numbers)
        texts = {
            str(r["number"]): str(r.get("text", ""))
            for r in state["rules"]
            if str(r["number"]) in wanted
        }
        table = {p.name: self.stating_param(state, p.name) for p in self.game.parameter_table}
        stating = self.rules_stating(state)
        for n in sorted(numbers, key=lambda x: [int(p) for p in x.split(".") if p.isdigit()]):
            if n not in texts:  # repealed: what it stated no longer applies (rule 2)
                values = {
                    x: self.game.parameter_table.value(state["parameters"], x) for x in stating[n]
                }
                stated = "; ".join(
                    says(table[name], value)
                    for name, value in values.items()
                    if value or not isinstance(table[name].kind, Bonus)  # no bonus: nothing lost
                )
                line = f"Rule {n} is repealed, so no longer: {stated}."
                told.append(line)
                self.game.event(state, ctx, line)
                continue
            for name in stating[n]:
                before = self.game.parameter_table.value(state["parameters"], name)
                value = read(table[name], texts[n]) if n in texts else None
                kind = table[name].kind
                if (
                    isinstance(kind, Switch)
                    and value == kind.silent
                    and kind.read((), False, texts[n]) is None
                    and self.stated_elsewhere(state, name, n)
                ):
                    continue  # it says nothing of it: what another rule states holds
                if value is None:
                    ask.append(
                        f"It changes rule {n}, which the referee runs as {name} = {before}, and "
                        "the new text "
                        "does not say a value the referee can read. If it changes that, reply "
                        f"to this alert with [Set] {name}=..., or on the host: "
                        f"`mailref game set {state['slug']} {name}=...`."
                    )
                    told.append(
                        f"Rule {n} changed, and its new text does not say unmistakably what the "
                        "referee "
                        f"runs by {name}: the referee still runs it as {says(table[name], before)} "
                        f"({name} = {before}) until the GM sets it."
                    )
                    continue
                try:
                    value = self.game.check_param(name, value)
                except Refused as e:  # "within 999999 weeks": a value no game runs by
                    ask.append(
                        f"It changes rule {n}, and its new text says {name} = {value}, which the "
                        f"referee cannot run by ({e.reason}). It still runs {name} = {before}; "
                        f"set another by replying to this alert with [Set] {name}=..., or on "
                        f"the host: `mailref game set {state['slug']} {name}=...`."
                    )
                    told.append(
                        f"Rule {n} changed, and its new text says a value the referee cannot run "
                        f"{name} by ({e.reason}): the referee still runs it as "
                        f"{says(table[name], before)} ({name} = {before}) until the GM sets it."
                    )
                    continue
                if before is not None and self.game.check_param(name, before) == value:
                    continue
                state["parameters"][name] = value
                line = (
                    f"From now on the referee runs rule {n} as it now reads: "
                    f"{says(table[name], value)} "
                    f"({name}: {before} -> {value})."
                )
                told.append(line)
                sets.append(f"{name}=...")
                self.game.event(state, ctx, line)
        for n in new or ():  # a new rule stating a switch: followed as it reads
            for name, value in self.switches_stated(state, n).items():
                before = self.game.parameter_table.value(state["parameters"], name)
                if value == before:
                    continue
                state["parameters"][name] = value
                line = (
                    f"From now on the referee runs new rule {n} as it reads: "
                    f"{says(table[name], value)} ({name}: {before} -> {value})."
                )
                told.append(line)
                sets.append(f"{name}=...")
                self.game.event(state, ctx, line)
        if told or ask:  # ALSO (what else is the GM's) rides along, never alone
            told_gm = [x for x in told if x.startswith("From now on") or " is repealed, " in x]
            undo = (
                [
                    "If a reading is wrong, reply to this alert with [Set] "
                    + " ".join(sets)
                    + ", or on the host: `mailref game set "
                    + state["slug"]
                    + " "
                    + " ".join(sets)
                    + "`."
                ]
                if sets
                else []
            )
            ctx.alert(
                f"{why}.\n\n" + "\n".join(told_gm + undo + ask + ([also] if also else [])),
                "a value the referee runs by is to be set"
                if ask
                else "the referee runs by new " f"values: {why}",
            )
        return told

    def rule_list(self, state: GameState, whole: bool = False) -> dict:
        """The rule list a ruleset mail shows: `rules` (all when WHOLE, else none: the mail
        carries the changes, and the site's rules page and [Rules] the whole set, since a
        ruleset grown by a rule a turn would make every mail longer), `rule_count`."""
        rules = self.game.rules_for_display(state)
        return {"rules": rules if whole else [], "rule_count": len(rules)}

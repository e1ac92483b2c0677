"""A ruleset file a GM writes by hand (docs/rulesets.md): a header of `key: value` lines, then
the rules, each opened by a `## NUMBER Title` line and followed by its text, kept verbatim
(a line `# section: NAME` puts the rules after it in that section).
`load` checks it whole and gives every problem as one line: its line number and what to write
instead, so that a GM mends the file in one pass."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mailref import resource
from mailref.engine.context import Refused
from mailref.engine.ruleparams import Table, bound, read
from mailref.engine.ruleset import sort_key
from mailref.engine.variants import rule_tables


@dataclass(frozen=True)
class Mechanic:
    """A component a game's rules may ask for: the variants that run it and the parameters it
    cannot run without (each bound to a rule or set)."""

    variants: tuple[str, ...]
    needs: tuple[str, ...] = ()
    main: bool = False  # the way matters move: exactly one per game
    rules: bool = True  # the engine keeps a rule list (an orders game keeps none)


ALL_NOMICS = ("sidekick", "blognomic", "imperial")
MECHANICS: dict[str, Mechanic] = {
    "turn-order": Mechanic(("sidekick",), ("turn_timeout", "vote_timeout"), main=True),
    "concurrent-matters": Mechanic(("blognomic",), ("popular_after", "quorum"), main=True),
    "senate": Mechanic(("imperial",), ("vote_period", "first_b_rule"), main=True),
    # The orders games, which keep no rule list: a game of them exports and imports.
    "eire": Mechanic(("eire",), main=True, rules=False),
    "orders": Mechanic(("orders",), main=True, rules=False),
    "points": Mechanic(("sidekick",), ("win_score", "pass_points", "fail_points")),
    "judges": Mechanic(ALL_NOMICS),
    "absence": Mechanic(ALL_NOMICS),
    "dice": Mechanic(ALL_NOMICS),
    "offices": Mechanic(ALL_NOMICS),
}
# What a GM's own ruleset may name; `eire` and `orders` are written by `game export` alone.
NOMIC = [name for name, m in MECHANICS.items() if m.rules]
TABLES: dict[str, Table] = {
    "sidekick": rule_tables.SIDEKICK,
    "blognomic": rule_tables.BLOGNOMIC,
    "imperial": rule_tables.IMPERIAL,
    "eire": rule_tables.EIRE,
    "orders": rule_tables.ORDERS,
}
HEADER_KEYS = ("name", "mechanics", "noun", "bind", "set", "runs")


class RulesetProblems(Exception):
    """The file's problems, one line each ("line 12: ... write ... instead")."""

    def __init__(self, source: str, problems: list[str]):
        super().__init__("\n".join(f"{source}: {p}" for p in problems))
        self.problems = problems


@dataclass
class Ruleset:
    """What a ruleset file says: the game's name, its mechanics and the variant running them,
    its rules, each parameter bound to the rule stating it (with the value read there), the
    operator's settings, the rules the referee runs by code and the noun for a player."""

    name: str = ""
    mechanics: list[str] = field(default_factory=list)
    variant: str = ""
    noun: str = ""
    rules: list[dict[str, str]] = field(default_factory=list)
    bindings: dict[str, str] = field(default_factory=dict)  # parameter -> rule number
    values: dict[str, object] = field(default_factory=dict)  # parameter -> value
    runs: dict[str, str] = field(default_factory=dict)  # rule number -> what the code does
    preamble: str = ""  # a published ruleset's words before its first rule (rules_text.py)

    def judged_by_people(self) -> list[dict[str, str]]:
        """The rules the referee neither runs by a parameter nor by code: people judge them."""
        run = set(self.bindings.values()) | set(self.runs)
        return [r for r in self.rules if r["number"] not in run]

    def state_part(self) -> dict[str, object]:
        """What a game made from this file keeps of it beside its rules and parameters."""
        part: dict[str, object] = {
            "mechanics": list(self.mechanics),
            "bindings": dict(self.bindings),
            "runs": dict(self.runs),
            "noun": self.noun,
        }
        if self.preamble:
            part["preamble"] = self.preamble
        return part


def shipped(variant: str) -> Ruleset:
    """The ruleset of a shipped Nomic, from its file `data/VARIANT.nomic`."""
    return load((resource("data") / f"{variant}.nomic").read_text(encoding="utf-8"), variant)


def shipped_rules(variant: str) -> list[dict[str, str]]:
    """The initial rules of a shipped Nomic, from its file `data/VARIANT.nomic`."""
    return shipped(variant).rules


def load(text: str, source: str = "ruleset") -> Ruleset:
    """The ruleset TEXT says; RulesetProblems with every problem found, one line each."""
    out, problems = Ruleset(), []
    lines = text.splitlines()
    where: dict[str, int] = {}  # what was said -> its line, for problems found later
    rule: dict[str, str] | None = None
    body: list[str] = []
    in_rules, section = False, ""

    def close() -> None:
        if rule is not None:
            rule["text"] = "\n".join(body).strip("\n")
            out.rules.append(rule)

    for i, line in enumerate(lines, 1):
        part = re.fullmatch(r"#\s*section:\s*(\S+)\s*", line)
        if part:  # the rules that follow are of this section (BlogNomic's core, dynastic, ...)
            close()
            rule, body, section = None, [], part.group(1)
            continue
        head = re.match(r"##\s+(\S+)\s*(.*)$", line)
        if head:
            close()
            in_rules, number, title = True, head.group(1).rstrip("."), head.group(2).strip()
            body = []
            rule = {"number": number, "title": title} | ({"section": section} if section else {})
            if not re.fullmatch(r"[1-9]\d*(\.[1-9]\d*)*", number):
                problems.append(
                    f"line {i}: {number!r} is not a rule number: write `## 7 Title`, or "
                    "`## 7.2 Title` for a sub-rule"
                )
                rule, where["bad rules"] = None, i
            elif f"rule {number}" in where:
                problems.append(
                    f"line {i}: rule {number} is numbered twice (first at line "
                    f"{where['rule ' + number]}): give this rule a number of its own"
                )
                rule, where["bad rules"] = None, i
            else:
                where[f"rule {number}"] = i
            continue
        if in_rules:
            body.append(line)
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue  # a blank line or a comment in the header
        _header(out, line, i, where, problems)
    close()
    keeps_rules = next((m.rules for m in map(MECHANICS.get, out.mechanics) if m and m.main), True)
    if not out.rules and keeps_rules:
        problems.append(f"line {len(lines) + 1}: no rules: write each as `## 1 Title` and its text")
    elif out.rules and not keeps_rules:
        problems.append(
            f"line {where['rule ' + out.rules[0]['number']]}: an orders game keeps no rules: "
            "leave them out"
        )
    _check(out, where, problems)
    if problems:
        raise RulesetProblems(source, problems)
    out.rules.sort(key=lambda r: sort_key(r["number"]))
    return out


def _header(out: Ruleset, line: str, i: int, where: dict[str, int], problems: list[str]) -> None:
    m = re.match(r"(\w+)(?:\s+(\w+))?\s*:\s*(.*)$", line.strip())
    if not m or m.group(1) not in HEADER_KEYS:
        problems.append(
            f"line {i}: {line.strip()!r} is not a header line: write one of "
            "`name: ...`, `mechanics: ...`, `noun: ...`, `bind PARAM: RULE`, `set PARAM: VALUE`, "
            "`runs RULE: what the referee does`, or start the rules with `## 1 Title`"
        )
        return
    key, arg, value = m.group(1), m.group(2), m.group(3).strip()
    if key in ("bind", "set", "runs") and not arg:
        problems.append(f"line {i}: `{key}` names nothing: write `{key} NAME: ...`")
        return
    if key in ("name", "noun", "mechanics") and arg:
        problems.append(f"line {i}: write `{key}: {value}`, without {arg!r}")
        return
    if key == "name":
        out.name = value
    elif key == "noun":
        out.noun = value
    elif key == "mechanics":
        out.mechanics += [w.strip().lower() for w in value.split(",") if w.strip()]
        where["mechanics"] = i
    elif key == "runs":
        out.runs[str(arg)] = value
        where[f"runs {arg}"] = i
    else:
        where[f"param {arg}"] = i
        if key == "bind":
            out.bindings[str(arg)] = value.removeprefix("rule").strip()
        else:
            out.values[str(arg)] = value


def _check(out: Ruleset, where: dict[str, int], problems: list[str]) -> None:
    """Mechanics known and agreeing on one variant; each parameter bound to a rule that states
    it, or set to a value of its kind; each mechanic with its parameters."""
    at = where.get("mechanics", 1)
    unknown = [m for m in out.mechanics if m not in MECHANICS]
    for m in unknown:
        problems.append(f"line {at}: no mechanic {m!r}: write some of {', '.join(NOMIC)}")
    main = [m for m in out.mechanics if m in MECHANICS and MECHANICS[m].main]
    if len(main) != 1:
        mains = ", ".join(k for k in NOMIC if MECHANICS[k].main)
        problems.append(f"line {at}: name exactly one of {mains} in `mechanics:`")
        return
    out.variant = MECHANICS[main[0]].variants[0]
    for m in out.mechanics:
        if m in MECHANICS and out.variant not in MECHANICS[m].variants:
            problems.append(f"line {at}: {m} does not go with {main[0]}: leave it out")
    table, texts = TABLES[out.variant], {r["number"]: r["text"] for r in out.rules}
    known = ", ".join(table.params)
    for name, number in out.bindings.items():
        line = f"line {where[f'param {name}']}"
        if name not in table.params:
            problems.append(f"{line}: no parameter {name!r}: write one of {known}")
        elif number not in texts:  # after a misnumbered rule, that rule's line says it all
            if "bad rules" not in where:
                problems.append(f"{line}: {name} is bound to rule {number}, not in the file")
        else:
            value = read(bound(table[name], number), texts[number])
            if value is None:
                problems.append(
                    f"{line}: rule {number} does not state {name} once and plainly: bind {name} "
                    "to the rule that does, or `set` it"
                )
            else:
                out.values[name] = value
    for name, given in list(out.values.items()):
        if name in out.bindings:
            continue
        line = f"line {where[f'param {name}']}"
        if name not in table.params:
            problems.append(f"{line}: no parameter {name!r}: write one of {known}")
            continue
        try:
            out.values[name] = table.check(out.variant, name, given)
        except Refused:
            problems.append(
                f"{line}: {given!r} is no value of {name}: write one as `mailref game set` takes "
                f"it, e.g. `set {name}: {table.shown(name, table[name].default or '')}`"
            )
    for number in out.runs:
        if number not in texts:
            problems.append(f"line {where['runs ' + number]}: rule {number} is not in the file")
    for m in out.mechanics:
        for name in MECHANICS.get(m, Mechanic(())).needs:
            if name not in out.values and f"param {name}" not in where:
                problems.append(
                    f"line {at}: {m} needs {name}: write `bind {name}: RULE` for the rule that "
                    f"states it, or `set {name}: VALUE`"
                )

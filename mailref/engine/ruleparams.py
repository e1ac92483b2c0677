"""The parameters a game runs by, each declared once in its variant's table: its kind, its
default, the rule that states it (Sidekick rule 22 "When a player's proposal fails, he/she
receives -5 points." is fail_points = -5), and what the referee does by it. Defaults, the GM's
`game set`, [Help] and the docs derive from the table.

When an enacted change rewrites a rule that states a parameter, the referee reads the new value
from the new text and runs the game by it. Only an unmistakable reading counts: every place the
patterns find says the same value (or, where they find none, the whole rule says exactly one
amount of the parameter's kind); anything else is left to the GM, who is alerted, and the value
stays."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cached_property

from mailref.engine.context import Refused
from mailref.engine.parameters import Kind, Value, quorum_of

__all__ = ["Param", "Table", "bound", "marked", "quorum_of", "read", "says"]


@dataclass(frozen=True)
class Param:
    """A parameter: NAME, its KIND, its DEFAULT (None: unset until the GM sets it), what the
    referee does by it (SAYS, `{v}` the value), and the RULE that states it (None: an operator's
    setting). PATTERNS are regular expressions in which `{v}` stands for the value as the rule
    writes it; WHERE says, for the docs, where it stands; with no pattern found, FALLBACK takes
    the one amount of the kind in the whole rule. A default not WRITTEN into a new game's state
    (a parameter declared after games began) is the value until the GM sets one."""

    name: str
    kind: Kind
    default: Value | None
    says: str
    rule: str | None = None
    patterns: tuple[str, ...] = ()
    where: str = ""
    fallback: bool = True
    written: bool = True


class Table:
    """A variant's parameters, each once, in the order the docs list them."""

    def __init__(self, *params: Param) -> None:
        self.params = {p.name: p for p in params}

    def extend(self, *params: Param) -> Table:
        """This table with PARAMS added, or put in place of those of the same name."""
        return Table(*{**self.params, **{p.name: p for p in params}}.values())

    def __iter__(self) -> Iterator[Param]:
        return iter(self.params.values())

    def __getitem__(self, name: str) -> Param:
        return self.params[name]

    @cached_property
    def defaults(self) -> dict[str, Value]:
        """The values a new game starts with."""
        return {p.name: p.default for p in self if p.default is not None and p.written}

    @cached_property
    def by_rule(self) -> dict[str, tuple[str, ...]]:
        """Rule number -> the parameters it states."""
        out: dict[str, tuple[str, ...]] = {}
        for p in self:
            if p.rule is not None:
                out[p.rule] = out.get(p.rule, ()) + (p.name,)
        return out

    def value(self, values: Mapping[str, object], name: str) -> object:
        """The value of NAME a game with VALUES runs by: its own, else the default."""
        v = values.get(name)
        return self.params[name].default if v is None or v == "" else v

    def run_by(self, values: Mapping[str, object]) -> dict[str, object]:
        """Every value a game with VALUES runs by: its own, and the default of each parameter
        it holds none of (a game begun before the parameter was declared)."""
        return {**{p.name: p.default for p in self if p.default is not None}, **values}

    def check(self, variant: str, key: str, value: object) -> Value:
        """VALUE of KEY as the GM sets it, in its stored form; Refused when KEY is no parameter
        of VARIANT's or VALUE is not of its kind."""
        if key not in self.params:
            raise Refused("unknown_parameter", key=key, variant=variant, known=sorted(self.params))
        return self.params[key].kind.parse(key, value)

    def shown(self, name: str, value: Value) -> str:
        """VALUE of NAME as the GM writes it ("on", "2d"); a name no longer in the table (an
        old game's) as stored."""
        p = self.params.get(name)
        return p.kind.shown(value) if p else str(value)

    def spoken_in(self, text: str, values: Mapping[str, object]) -> str:
        """TEXT with each `{name}` of a parameter put as players read the value the game runs
        by now ("within {unidle_after}" is "within 4 days"); other braces are left as written."""

        def value(m: re.Match[str]) -> str:
            p = self.params.get(m.group(1))
            if p is None:
                return m.group(0)
            v = values.get(p.name, p.default)
            return p.kind.spoken(v) if isinstance(v, int | str) else m.group(0)

        return re.sub(r"\{(\w+)\}", value, text)


def bound(param: Param, rule: str) -> Param:
    """PARAM as a game's own ruleset binds it to RULE (docs/rulesets.md): its patterns where
    they find the value, else the one amount of its kind in that rule."""
    return replace(param, rule=rule, fallback=True)


def read(param: Param, text: str) -> Value | None:
    """PARAM's value in the rule TEXT, or None when the text does not say it unmistakably."""
    return param.kind.read(param.patterns, param.fallback, " ".join(text.split()))


def says(param: Param, value: object) -> str:
    """What the referee does by PARAM at VALUE, in words ("a failed proposal scores -3")."""
    if isinstance(value, int) and "{v:+d}" in param.says:
        return param.says.format(v=value)
    return param.says.replace("{v:+d}", "{v}").format(v=value)


def marked(text: str, params: list[tuple[Param, object]]) -> list[dict[str, str]]:
    """TEXT cut into pieces, each sentence that states one of PARAMS marked with what the
    referee runs it by ("a failed proposal scores -5 (fail_points = -5)"), for the ruleset page."""
    pieces = re.split(r"((?<=[.!?:])\s+|\n\s*)", text)  # sentences, and the lines of a list
    out: list[dict[str, str]] = []
    for piece in pieces:
        notes = [
            f"{says(p, v)} ({p.name} = {v})"
            for p, v in params
            if piece.strip()
            and any(
                re.search(rx, " ".join(piece.split()), re.I)
                for rx in p.kind.regexes(p.patterns, p.fallback)
            )
        ]
        if out and not notes and not out[-1]["mark"]:
            out[-1]["text"] += piece
        else:
            out.append({"text": piece, "mark": "; ".join(notes)})
    return out

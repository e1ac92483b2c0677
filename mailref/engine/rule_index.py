"""The rules of a ruleset found by number and by title without walking them. A game of a
thousand rules looks rules up at every action (a proposal checked, a vote that enacts it, the
columns the rules declare), in the referee and again in the pages' replay of the journal.

A list of rules in a game's state is never changed in place: every change makes a new list
(ruleset.apply_changes copies each rule it writes; an Ascension renames rules as it makes its
new list), so an index made for a list holds for as long as the list is a game's ruleset. The
index of the list a change makes is the one the change kept up to date, so a ruleset is indexed
once, not once an action."""

from __future__ import annotations

import re
import threading
from bisect import bisect_right
from collections import OrderedDict
from functools import lru_cache
from operator import itemgetter
from typing import Any

Rules = list[dict[str, Any]]

_NUMBER = itemgetter("number")
_TITLE = itemgetter("title")
_KEPT = 256  # lists indexed at once: each game's live state, the pages' replays, a few more


@lru_cache(maxsize=16384)  # every rule's number is looked at by every index made
def sort_key(number: str) -> tuple[int, ...]:
    """A rule number as rules are ordered and told apart by it: by value ("03" is 3)."""
    return tuple(int(p) for p in re.findall(r"\d+", number)) or (0,)


@lru_cache(maxsize=16384)
def title_key(title: str | None) -> str:
    """A title as rules are told apart by it: case and the spaces around it aside."""
    return (title or "").strip().lower()


class RuleIndex:
    """RULES by number (by value), by exact number and by title, the first of two rules that
    share one found, as a walk from the top finds it; KEYS: each rule's sort key, in order."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._index()
        self.columns: Any = None  # the columns the rules declare, once read (mechanics/columns)
        # A copy's: the columns of the rules it was copied from, and every rule it has added,
        # replaced (the old and the new) or removed since, so that a change of rules declaring
        # no column reads no rule again.
        self.columns_before: Any = None
        self.changed: list[dict[str, Any]] = []

    def _index(self) -> None:
        rules = self.rules
        self.keys = list(map(sort_key, map(_NUMBER, rules)))
        # Made from the bottom up, so that the first of two rules sharing a key is the one kept.
        up = rules[::-1]
        self.by_key = dict(zip(self.keys[::-1], up, strict=True))
        self.by_number = dict(zip(map(str, map(_NUMBER, up)), up, strict=True))
        self.by_title = dict(zip(map(title_key, map(_TITLE, up)), up, strict=True))
        self.ordered = self.keys == sorted(self.keys)

    def copy(self) -> RuleIndex:
        """A copy to change: its own list and lookups, the rules themselves shared."""
        out = RuleIndex.__new__(RuleIndex)
        out.rules, out.keys = list(self.rules), list(self.keys)
        out.by_key, out.by_number = dict(self.by_key), dict(self.by_number)
        out.by_title, out.ordered = dict(self.by_title), self.ordered
        out.columns = None
        out.columns_before, out.changed = self.columns, []
        return out

    def add(self, rule: dict[str, Any]) -> None:
        """A new rule, in number order if the rules are in order (else at the end)."""
        key = sort_key(rule["number"])
        at = bisect_right(self.keys, key) if self.ordered else len(self.rules)
        self.rules.insert(at, rule)
        self.keys.insert(at, key)
        self.by_key.setdefault(key, rule)
        self.by_number.setdefault(str(rule["number"]), rule)
        self.by_title.setdefault(title_key(rule.get("title")), rule)
        self.changed.append(rule)

    def replace(self, old: dict[str, Any], new: dict[str, Any]) -> None:
        """NEW in OLD's place, with OLD's number (a copy of OLD to write to)."""
        self.rules[self.rules.index(old)] = new
        self.changed += [old, new]
        key, number = sort_key(old["number"]), str(old["number"])
        title = title_key(old.get("title"))
        if self.by_key.get(key) is old:
            self.by_key[key] = new
        if self.by_number.get(number) is old:
            self.by_number[number] = new
        if self.by_title.get(title) is old:
            self.by_title[title] = new

    def remove(self, rule: dict[str, Any]) -> None:
        self.rules.remove(rule)
        self._index()
        self.changed.append(rule)

    def retitled(self) -> None:
        """A rule's title has changed: the titles are looked up anew."""
        up = self.rules[::-1]
        self.by_title = dict(zip(map(title_key, map(_TITLE, up)), up, strict=True))


_kept: OrderedDict[int, RuleIndex] = OrderedDict()  # id(list) -> its index, which holds it
_lock = threading.Lock()  # the daemon's pages are made on a thread of their own


def index(rules: Rules) -> RuleIndex:
    """The index of RULES, made once for the list."""
    with _lock:
        got = _kept.get(id(rules))
        if got is not None and got.rules is rules and len(got.keys) == len(rules):
            _kept.move_to_end(id(rules))
            return got
    made = RuleIndex(rules)
    keep(made)
    return made


def keep(made: RuleIndex) -> None:
    """MADE as the index of its list from now on (a change's index, up to date)."""
    with _lock:
        _kept[id(made.rules)] = made
        _kept.move_to_end(id(made.rules))
        while len(_kept) > _KEPT:
            _kept.popitem(last=False)


def numbered(rules: Rules, number: str) -> dict[str, Any] | None:
    """The rule whose number reads NUMBER exactly, or None."""
    return index(rules).by_number.get(str(number))

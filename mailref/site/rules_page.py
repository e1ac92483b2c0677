"""What the rules page shows: the ruleset as a tree (each sub-rule under its rule), flat in
reading order for the template, each rule with the changes the chronicle holds of it, and the
rules repealed. A rule's changes are made into rows only when its section is rendered again
(site/fragments.py): rule 21 of a long game holds a thousand of them."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from mailref.engine.state import GameState, Rule
from mailref.site.history import Chronicle, RuleEvent
from mailref.site.times import when

_INACTIVE = re.compile(r"\[inactive\]\s*$", re.I)


def rule_tree(rules: list[Rule], chron: Chronicle, marks: Any = None) -> list[dict[str, Any]]:
    """Rules in order, each sub-rule (21.3.1) under its parent (21.3) where that exists; MARKS
    (a rule -> its text in pieces) marks the sentences the referee runs by a parameter. Each
    node holds its chronicle's `events`, made into its `history` when its section is rendered."""
    roots: list[dict[str, Any]] = []
    stack: list[dict[str, Any]] = []
    for r in rules:
        title = r["title"]
        inactive = bool(r.get("inactive")) or "]" in title and bool(_INACTIVE.search(title))
        node = {
            "number": r["number"],
            "title": title,
            "text": r["text"],
            "inactive": inactive,
            "kind": r.get("type"),
            "id": "rule-" + r["number"].replace(".", "-"),
            "pieces": (marks(r) if marks else None) or [{"text": r["text"], "mark": ""}],
            "events": chron.rules.get(r["number"], []),
            "children": [],
        }
        while stack and not r["number"].startswith(stack[-1]["number"] + "."):
            stack.pop()
        (stack[-1]["children"] if stack else roots).append(node)
        stack.append(node)
    return roots


def rule_rows(roots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rule tree in reading order, flat, for a template without recursion (a chain of a
    few hundred sub-rules passed Python's recursion limit in a recursive macro): each node
    with its `depth` and how many sections `close` after it."""
    rows = list(walk(roots))
    for i, row in enumerate(rows):
        below = rows[i + 1]["depth"] if i + 1 < len(rows) else 0
        row["close"] = row["depth"] + 1 - below
    return rows


def walk(nodes: list[dict[str, Any]]) -> Any:
    """Every node of the tree NODES in reading order, setting its `depth`; without recursion."""
    stack = [(n, 0) for n in reversed(nodes)]
    while stack:
        n, depth = stack.pop()
        n["depth"] = depth
        yield n
        stack.extend((c, depth + 1) for c in reversed(n.get("children", [])))


def event_row(e: RuleEvent, zone: str, page_of: dict[str, str]) -> dict[str, Any]:
    """One change of a rule as its history shows it, its link to the page showing its matter
    now (PAGE_OF: a matter's id -> an older page of matters)."""
    return {
        "change": e.change,
        "at": when(e.at, zone),
        "by": e.by,
        "link": resolve(matter_link(e.by), page_of),
        "title": e.title,
        "old_title": e.old_title,
        "diff": e.diff,
    }


def resolve(link: str | None, page_of: dict[str, str]) -> str | None:
    """LINK (proposals.html#proposal-3) to the page that shows its matter now."""
    if not link or not page_of:
        return link
    anchor_ = link.split("#", 1)[1]
    return page_of.get(anchor_, "proposals.html") + "#" + anchor_


def repealed(
    state: GameState, chron: Chronicle, zone: str, page_of: dict[str, str]
) -> list[dict[str, Any]]:
    """Rules no longer in the ruleset whose last change was a repeal, with their history."""
    current = {r["number"] for r in state["rules"]}
    out = []
    for number, events in chron.rules.items():
        if number not in current and events and events[-1].change == "repealed":
            out.append(
                {
                    "number": number,
                    "title": events[-1].title,
                    "id": "repealed-" + number.replace(".", "-"),
                    "history": [event_row(e, zone, page_of) for e in events],
                }
            )
    return sorted(out, key=lambda r: [int(x) for x in re.findall(r"\d+", r["number"])])


def anchor(label: str) -> str:
    """`proposal 3` -> `proposal-3`: the id of that matter on proposals.html."""
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


@lru_cache(maxsize=8192)
def matter_link(by: str) -> str | None:
    """Where the matter BY names ("proposal 3") is read, None for what is no matter."""
    m = re.fullmatch(r"(proposal|cfj|dov|judgement|point of order) (\d+)", by.strip(), re.I)
    return f"proposals.html#{anchor(by)}" if m else None

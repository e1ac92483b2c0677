"""A ruleset's rules are found by number and title through an index kept with the list: every
change must come out exactly as a walk over the rules makes it, faults included, however the
rules were numbered, titled or ordered."""

from __future__ import annotations

import random

import pytest

from mailref.engine import rule_index
from mailref.engine.change import RuleChange
from mailref.engine.mechanics import columns
from mailref.engine.ruleset import RuleConflict, apply_changes, check_changes, find_rule


def _key(number: str) -> tuple[int, ...]:
    return rule_index.sort_key(number)


def _walked(rules: list[dict], changes: list[RuleChange]) -> tuple[list[dict], list[str]]:
    """The changes as a walk over every rule applies them: (rules in order, diff), or raises
    RuleConflict with every fault."""
    rules = [dict(r) for r in rules]
    diff: list[str] = []  # the kind of each change's line: + new, - repealed, ~ changed
    faults: list[str] = []

    def find(c: RuleChange) -> dict | None:
        if c.number:
            return next((r for r in rules if _key(r["number"]) == _key(c.number)), None)
        want = (c.ref_title or "").strip().lower()
        return next((r for r in rules if r["title"].strip().lower() == want), None)

    for c in changes:
        if c.kind == "enact":
            number = (
                ".".join(str(int(p)) for p in c.number.split("."))
                if c.number
                else str(max([_key(r["number"])[0] for r in rules] + [0]) + 1)
            )
            if any(_key(r["number"]) == _key(number) for r in rules):
                faults.append(f"taken {number}")
                continue
            if any(r["title"].strip().lower() == (c.title or "").strip().lower() for r in rules):
                faults.append(f"titled {c.title}")
                continue
            rules.append({"number": number, "title": c.title, "text": c.text})
            diff.append("+")
            continue
        rule = find(c)
        if rule is None:
            faults.append(f"none {c.ref}")
        elif c.kind == "repeal":
            rules.remove(rule)
            diff.append("-")
        elif c.kind == "retitle":
            rule["title"] = c.title
            diff.append("~")
        elif c.kind == "replace" and c.old not in rule["text"]:
            faults.append(f"words {rule['number']}")
        else:
            old = rule["text"]
            rule["text"] = c.text if c.kind == "amend" else old.replace(c.old or "", c.new or "")
            diff.append("~")
    if faults:
        raise RuleConflict(*faults)
    return sorted(rules, key=lambda r: _key(r["number"])), diff


def _some_change(rng: random.Random, rules: list[dict]) -> RuleChange:
    numbers = [r["number"] for r in rules] or ["1"]
    titles = [r["title"] for r in rules] or ["Nothing"]
    pick = rng.choice(numbers + ["0" + rng.choice(numbers), str(rng.randint(1, 40))])
    by_title = rng.random() < 0.3
    ref = {"ref_title": rng.choice(titles).upper()} if by_title else {"number": pick}
    kind = rng.choice(["enact", "enact", "amend", "replace", "retitle", "repeal"])
    if kind == "enact":
        number = rng.choice([None, str(rng.randint(1, 40)), "0" + rng.choice(numbers)])
        title = rng.choice([f"Rule of {rng.randint(1, 60)}", rng.choice(titles).lower()])
        return RuleChange("enact", number=number, title=title, text=f"Text {rng.random()}")
    if kind == "amend":
        return RuleChange("amend", text=f"New {rng.random()}\nline two", **ref)
    if kind == "replace":
        return RuleChange("replace", old=rng.choice(["Text", "line", "absent"]), new="X", **ref)
    if kind == "retitle":
        return RuleChange("retitle", title=f"Retitled {rng.randint(1, 9)}", **ref)
    return RuleChange("repeal", **ref)


def _outcome(rules: list[dict], changes: list[RuleChange]) -> object:
    """What the changes make of RULES, or how many faults stop them."""
    try:
        made, entries, diff = apply_changes(rules, changes, "proposal 1", "now")
    except RuleConflict as e:
        return ("refused", len(e.faults))
    return (made, [d[0] for d in diff if d[1:7] == " Rule "])  # each change's own line


def _walked_outcome(rules: list[dict], changes: list[RuleChange]) -> object:
    try:
        made, diff = _walked(rules, changes)
    except RuleConflict as e:
        return ("refused", len(e.faults))
    return (made, diff)


@pytest.mark.parametrize("seed", range(12))
def test_a_change_found_through_the_index_comes_out_as_a_walk_makes_it(seed: int) -> None:
    rng = random.Random(seed)
    rules = [
        {"number": str(n), "title": f"Rule of {n}", "text": f"Text {n}\nline"}
        for n in rng.sample(range(1, 30), 12)
    ]
    if seed % 3:  # a ruleset read in order, as every change leaves it
        rules.sort(key=lambda r: _key(r["number"]))
    for _ in range(60):
        changes = [_some_change(rng, rules) for _ in range(rng.randint(1, 3))]
        ours, walked = _outcome(rules, changes), _walked_outcome(rules, changes)
        assert ours == walked, changes
        if isinstance(ours, tuple) and ours[0] != "refused":
            rules = ours[0]  # type: ignore[assignment]
            fresh = rule_index.RuleIndex(list(rules))
            kept = rule_index.index(rules)
            assert (kept.by_key, kept.by_number, kept.by_title) == (
                fresh.by_key,
                fresh.by_number,
                fresh.by_title,
            )
            for c in changes:
                if c.kind != "enact":
                    assert find_rule(rules, c) == _find_walking(rules, c)


def _find_walking(rules: list[dict], c: RuleChange) -> dict | None:
    if c.number:
        return next((r for r in rules if _key(r["number"]) == _key(c.number)), None)
    want = (c.ref_title or "").strip().lower()
    return next((r for r in rules if r["title"].strip().lower() == want), None)


def test_a_dry_run_leaves_the_ruleset_and_its_index_as_they_were() -> None:
    rules = [
        {"number": "1", "title": "One", "text": "a"},
        {"number": "2", "title": "Two", "text": "b"},
    ]
    before = [dict(r) for r in rules]
    check_changes(rules, [RuleChange("enact", number="3", title="Three", text="c")])
    check_changes(rules, [RuleChange("retitle", number="1", title="Uno")])
    assert rules == before
    assert find_rule(rules, RuleChange("amend", ref_title="one")) is rules[0]
    assert find_rule(rules, RuleChange("amend", number="3")) is None


def test_the_first_of_two_rules_sharing_a_number_or_title_is_the_one_found() -> None:
    rules = [
        {"number": "3", "title": "Twin", "text": "first"},
        {"number": "03", "title": "twin", "text": "second"},
    ]
    assert find_rule(rules, RuleChange("amend", number="3"))["text"] == "first"  # type: ignore[index]
    assert find_rule(rules, RuleChange("amend", ref_title="TWIN"))["text"] == "first"  # type: ignore[index]


def test_a_new_list_of_the_same_rules_declares_the_same_columns() -> None:
    text = "Each Wizard has an amount of Gold, which is a nonnegative integer, tracked in the GNDT."
    rules = [{"number": "1", "title": "Coins", "text": text}]
    first = columns.from_rules(rules)
    again = columns.from_rules([dict(r) for r in rules])
    assert first == again and first
    first[0]["name"] = "changed by its caller"
    assert columns.from_rules(rules)[0]["name"] != "changed by its caller"
    made, _, _ = apply_changes(rules, [RuleChange("repeal", number="1")], "p", "now")
    assert columns.from_rules(made) == []


def test_the_columns_follow_each_change_of_the_rules_declaring_them() -> None:
    gold = "Each Wizard has an amount of Gold, which is a nonnegative integer, tracked in the GNDT."
    debt = "Each Wizard has an amount of Debt, which is an integer, tracked in the GNDT."
    rules = [
        {"number": "1", "title": "Gold", "text": gold},
        {"number": "2", "title": "Tea", "text": "Tea is served."},
    ]
    assert [c["slug"] for c in columns.from_rules(rules)] == ["gold"]
    steps = [
        (RuleChange("amend", number="2", text="Coffee is served."), ["gold"]),
        (RuleChange("enact", number="3", title="Debt", text=debt), ["gold", "debt"]),
        (RuleChange("retitle", number="3", title="Owing"), ["gold", "debt"]),
        (RuleChange("amend", number="1", text="Gold is no more."), ["debt"]),
        (RuleChange("enact", number="4", title="Lunch", text="Lunch is at noon."), ["debt"]),
        (RuleChange("repeal", number="3"), []),
        (RuleChange("amend", number="2", text=gold), ["gold"]),
    ]
    for change, slugs in steps:
        rules, _, _ = apply_changes(rules, [change], "p", "now")
        assert [c["slug"] for c in columns.from_rules(rules)] == slugs, change

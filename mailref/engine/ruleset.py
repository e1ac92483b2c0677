"""The ruleset: rules with numbers (sub-rules 21.3.1 too), titles and text, changed exactly
and atomically: either every change of a proposal applies, or none does."""

from __future__ import annotations

import difflib
from typing import Any, cast

from mailref.engine.change import RuleChange
from mailref.engine.rule_index import RuleIndex, index, keep, sort_key, title_key
from mailref.engine.state import Rule


class RuleConflict(Exception):
    """Changes cannot apply: unknown rule, number taken, text not found; FAULTS holds every one,
    so that a proposal's author reads them all at once (SPEC §2.6)."""

    def __init__(self, *faults: str):
        super().__init__(*faults)
        self.faults = list(faults)

    def __str__(self) -> str:
        if len(self.faults) == 1:
            return self.faults[0]
        return f"{len(self.faults)} faults:\n" + "\n".join(f"  - {f}" for f in self.faults)


def plain(rules: list[Rule]) -> list[dict[str, Any]]:
    """RULES as this module's functions take them: plain dicts (they copy what they change)."""
    return cast("list[dict[str, Any]]", rules)


def free_rule_number(rules: list[dict], history: list[dict] | None = None) -> str:
    """The next unused whole rule number: one above every rule's, a repealed one's included."""
    numbers = [r["number"] for r in rules] + [
        str(h["rule"]) for h in history or [] if str(h.get("rule", "")).strip('"')[:1].isdigit()
    ]
    return str(max([sort_key(n)[0] for n in numbers] + [0]) + 1)


def sort_rules(rules: list[dict]) -> list[dict]:
    return sorted(rules, key=lambda r: sort_key(r["number"]))


def rule_number(text: str, whole: bool = False) -> str:
    """A new rule's number in its canonical form, compared by value ("03" is 3). Raises
    RuleConflict unless every part is a positive integer; WHOLE refuses sub-rules (24.5)."""
    parts = text.split(".")
    if not all(p.isdigit() for p in parts) or any(int(p) <= 0 for p in parts):
        raise RuleConflict(f"{text} is not a rule number: a rule number is a positive integer")
    if whole and len(parts) > 1:
        raise RuleConflict(
            f'{text} is not a rule number here: "The reference number must be a positive integer" '
            "(rule 10), so 24, not 24.5"
        )
    return ".".join(str(int(p)) for p in parts)


def find_rule(rules: list[dict], change: RuleChange) -> dict | None:
    """The rule CHANGE refers to, by number (by value) or by title."""
    return _found(index(rules), change)


def _found(rules: RuleIndex, change: RuleChange) -> dict | None:
    if change.number:
        return rules.by_key.get(sort_key(change.number))
    return rules.by_title.get(title_key(change.ref_title))


def _history_hint(history: list[dict], ref: str) -> str:
    for h in reversed(history):
        if h.get("rule") == ref.strip('"') and h.get("change") == "repeal":
            return f" (it was repealed by {h['by']})"
    return ""


def apply_changes(
    rules: list[dict],
    changes: list[RuleChange],
    by: str,
    at: str,
    history: list[dict] | None = None,
    whole_numbers: bool = False,
    dry: bool = False,
) -> tuple[list[dict], list[dict], list[str]]:
    """(new rules, history entries, diff lines). Raises RuleConflict naming every fault.
    New rule numbers are unique by value; WHOLE_NUMBERS (sidekick) refuses sub-rules. RULES
    stay as they are: the list is copied, and a rule dict only when a change writes to it, so
    a change costs the same however many rules there are. A DRY run's rules are thrown away:
    neither sorted nor new rules' diff lines written (every change is checked)."""
    work = index(rules).copy()  # the rules as changed so far, looked up without a walk
    rules = work.rules
    history = history or []
    entries: list[dict] = []
    diff: list[str] = []
    faults: list[str] = []
    # A number suggested for one new rule is not one another change of the same proposal asks.
    asked = [{"number": c.number} for c in changes if c.kind == "enact" and c.number]
    for c in changes:
        try:
            if c.kind == "enact":
                number = (
                    rule_number(c.number, whole_numbers)
                    if c.number
                    else str(max([k[0] for k in work.by_key] + [0]) + 1)
                )
                taken = work.by_key.get(sort_key(number))
                if taken:
                    raise RuleConflict(
                        f'rule {c.number or number} already exists as rule {taken["number"]} '
                        f'("{taken["title"]}"); a new rule needs an unused number, such as '
                        f"{free_rule_number(rules + asked, history)}"
                    )
                if title_key(c.title) in work.by_title:
                    raise RuleConflict(f'a rule titled "{c.title}" already exists')
                work.add({"number": number, "title": c.title, "text": c.text})
                entries.append({"rule": number, "change": "enact", "by": by, "at": at})
                if not dry:
                    diff += [f'+ Rule {number} "{c.title}" (new)'] + [
                        f"+   {ln}" for ln in (c.text or "").splitlines()
                    ]
                continue
            rule = _found(work, c)
            if rule is None:
                raise RuleConflict(f"there is no rule {c.ref}{_history_hint(history, c.ref)}")
            number = rule["number"]
            if c.kind != "repeal":  # the caller's rule stays as it is
                copied = dict(rule)
                work.replace(rule, copied)
                rule = copied
            if c.kind == "repeal":
                work.remove(rule)
                diff.append(f'- Rule {number} "{rule["title"]}" (repealed)')
            elif c.kind == "retitle":
                diff.append(f'~ Rule {number}: title "{rule["title"]}" -> "{c.title}"')
                rule["title"] = c.title
                work.retitled()
            else:
                old = rule["text"]
                if c.kind == "amend":
                    new = c.text or ""
                else:
                    if c.old not in old:
                        raise RuleConflict(f'rule {number} does not contain the words "{c.old}"')
                    new = old.replace(c.old, c.new or "")
                rule["text"] = new
                diff.append(f'~ Rule {number} "{rule["title"]}" (amended)')
                diff += [
                    "    " + d
                    for d in difflib.unified_diff(
                        old.splitlines(), new.splitlines(), lineterm="", n=1
                    )
                ][2:]
            entries.append({"rule": number, "change": c.kind, "by": by, "at": at})
        except RuleConflict as e:  # every fault is reported; the change is left out
            faults += e.faults
    if faults:
        raise RuleConflict(*faults)
    if dry:
        return rules, entries, diff  # a dry run's rules are not read
    if not work.ordered:  # a ruleset read out of order is put in order by its first change
        return sort_rules(rules), entries, diff
    keep(work)  # the new ruleset's index, already made
    return rules, entries, diff


def check_changes(
    rules: list[dict],
    changes: list[RuleChange],
    history: list[dict] | None = None,
    whole_numbers: bool = False,
) -> None:
    """Dry run: raises RuleConflict if the changes could not apply to RULES now."""
    apply_changes(
        rules, changes, by="check", at="", history=history, whole_numbers=whole_numbers, dry=True
    )


def changes_from(data: list[dict[str, Any]]) -> list[RuleChange]:
    return [RuleChange.from_dict(d) for d in data]

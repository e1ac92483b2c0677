"""A ruleset as groups publish it (numbered rules with titles, a wiki page of headed rules, a
`rules.md`), read into rules for the GM to confirm: every line of the text is kept verbatim, in
the preamble before the first rule or in a rule. Rules numbered in the text keep their numbers
(one that repeats or goes back gets the next free number, and says what it was written as);
headed rules without numbers are numbered in order."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mailref.engine.ruleset import sort_key

# A rule's number at the start of its line, unindented (an indented "1." is a list in a rule).
NUMBERED = re.compile(r"^(?:Rule\s+)?(\d+(?:\.\d+)*)[.):]?\s+(\S.*)$", re.I)
MARKDOWN = re.compile(r"^#{1,6}\s+(.*\S)\s*$")
TITLE_MAX = 60  # a line longer than this is text, not a heading


@dataclass
class ReadRules:
    """What a plain ruleset says: its PREAMBLE (text before the first rule) and its RULES
    (number, title, text; `written`: the number as the text wrote it, where it differs)."""

    preamble: str = ""
    rules: list[dict[str, str]] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)  # each rule's first line, as written

    def verbatim(self) -> str:
        """The text as read, put back together: the preamble, each rule's first line and text."""
        parts = [self.preamble]
        for heading, r in zip(self.headings, self.rules, strict=True):
            # an untitled rule's first line is its heading's words after the number
            rest = r["text"] if r["title"] else "".join(r["text"].split("\n", 1)[1:])
            parts += [heading, rest]
        return "\n".join(parts)


def _says(rest: str) -> bool:
    """Whether REST, after a number, is a rule's words or its title."""
    return len(rest) >= 20 or (len(rest) >= 2 and rest[-1] not in ".,;!?")


def _heading(line: str, before: str, after: str) -> str | None:
    """LINE's title when it heads a rule: a Markdown heading, or a short line that ends in no
    sentence mark, alone after a blank line and followed by text."""
    m = MARKDOWN.match(line)
    if m:
        return m.group(1)
    s = line.strip()
    if s and len(s) <= TITLE_MAX and s.endswith(":") and s.upper() == s and s[0].isalpha():
        return s.rstrip(":")  # "TURN ORDER:"
    if (
        s
        and len(s) <= TITLE_MAX
        and not before.strip()
        and after.strip()
        and s[-1] not in ".,;!?"
        and not s.startswith(("•", "-", "*", "{", "[", "("))
    ):
        return s.rstrip(":")
    return None


def read_rules(text: str) -> ReadRules:
    """The rules TEXT holds: by their numbers where it numbers them, else by their headings."""
    lines = text.replace("\r\n", "\n").split("\n")
    # Numbered where at least three lines number a rule's words or title (not a list of "7. ?").
    numbered = sum(1 for x in lines if (m := NUMBERED.match(x)) and _says(m.group(2))) >= 3
    out = ReadRules()
    last: tuple[int, ...] = (0,)
    body: list[str] | None = None  # the lines of the rule being read
    bodies: list[list[str]] = []
    taken: set[str] = set()
    preamble: list[str] = []
    for i, line in enumerate(lines):
        start = None
        if numbered:
            m = NUMBERED.match(line)
            if m:
                rest = m.group(2)
                title = rest if len(rest) <= TITLE_MAX and rest[-1] not in ".,;!?" else ""
                start = (m.group(1), title, "" if title else rest)
        else:
            before = lines[i - 1] if i else ""
            after = next((x for x in lines[i + 1 : i + 3] if x.strip()), "")
            title = _heading(line, before, after)
            if title is not None:
                start = (str(len(out.rules) + 1), title, "")
        if start is None:
            (body if body is not None else preamble).append(line)
            continue
        written, title, first = start
        number = written
        if number in taken or sort_key(number) <= last:  # a repeat, or a sub-game's own 1, 2
            number = str(max(sort_key(n)[0] for n in taken) + 1)
        current = {"number": number, "title": title}
        body = [first] if first else []
        bodies.append(body)
        if number != written:
            current["written"] = written
        taken.add(number)
        last = sort_key(number)
        out.rules.append(current)
        out.headings.append(line)
    out.preamble = "\n".join(preamble).strip("\n")
    for r, lines_of_rule in zip(out.rules, bodies, strict=True):
        r["text"] = "\n".join(lines_of_rule).strip("\n")
    return out


def as_file(read: ReadRules, name: str, mechanics: str) -> str:
    """READ as a ruleset file (docs/rulesets.md) whose every rule is judged by people."""
    lines = [f"name: {name}", f"mechanics: {mechanics}"]
    for r in read.rules:
        lines += ["", f"## {r['number']} {r['title']}".rstrip(), r["text"]]
    return "\n".join(lines) + "\n"

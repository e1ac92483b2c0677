"""One rule change as the engine keeps, applies and describes it; mailref/read/rulechanges.py
fills it in from a proposal's text. A module of its own, so the engine (and `mailref replay`)
never compiles the reader's expressions (SPEC §8: replay, start-up included)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class RuleChange:
    kind: str  # enact | amend | replace | repeal | retitle
    number: str | None = None  # "24", "21.3.1"
    ref_title: str | None = None  # a rule named by its quoted title
    title: str | None = None  # enact / retitle
    text: str | None = None  # enact / amend
    old: str | None = None  # replace
    new: str | None = None
    line: int = 0
    signoff: str | None = None  # the mail's closing words, set aside from the last rule text
    aside: str | None = None  # the paragraphs under a rule text given on its own line: why
    placed: bool | None = None  # True: the referee chose the number (the proposal named none)

    @property
    def ref(self) -> str:
        return self.number if self.number else f'"{self.ref_title}"'

    def describe(self, full: bool = False) -> str:
        """One line; FULL: the whole text below it, as it will be enacted (the author's ack)."""
        text = (
            ("\n" + "\n".join("      " + ln for ln in (self.text or "").splitlines()))
            if full
            else " " + _short(self.text)
        )
        if self.kind == "enact":
            num = f" {self.number}" if self.number else ""
            return f'Enact rule{num} "{self.title}":{text}'
        if self.kind == "amend":
            return f"Amend rule {self.ref} to read:{text}"
        if self.kind == "replace":
            return f'In rule {self.ref}, replace "{self.old}" with "{self.new}"'
        if self.kind == "repeal":
            return f"Repeal rule {self.ref}"
        return f'Retitle rule {self.ref} to "{self.title}"'

    def as_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}

    @classmethod
    def from_dict(cls, d: dict) -> RuleChange:
        return cls(**d)


def _short(text: str | None, n: int = 70) -> str:
    t = " ".join((text or "").split())
    return t if len(t) <= n else t[: n - 1] + "…"

"""What an action is applied with: the time and the random source it is given, and where
its consequences (the reply, mail to players, journal summary) are collected."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol


class Refused(Exception):
    """The action is not allowed: nothing changes and the sender gets an `error` reply.

    CODE names the refusal in the catalogue (engine/refusals/), PARAMS fill its words; each
    face (the player's mail, the CLI, the GM's alert) renders them with `words`."""

    def __init__(self, code: str, /, **params: Any):
        from mailref.engine.refusals import CATALOGUE

        if code not in CATALOGUE:
            raise KeyError(f"no refusal {code!r} in the catalogue (engine/refusals/)")
        super().__init__(code)
        self.code, self.params = code, params

    def words(self, face: str = "mail") -> tuple[str, str]:
        """(reason, hint) as FACE says them: "mail", "cli" or "alert"."""
        from mailref.engine.refusals import render

        return render(self.code, self.params, face)

    @property
    def reason(self) -> str:
        return self.words()[0]

    @property
    def hint(self) -> str:
        return self.words()[1]

    def __str__(self) -> str:
        return self.reason


class RandomSource(Protocol):
    """Where live draws come from: `random.Random`, or the seed chain (engine/dice.py)."""

    def randint(self, lo: int, hi: int) -> int: ...


@dataclass
class Outgoing:
    kind: str  # X-Mailref-Kind
    to: list[str] | str  # "all" | "gm" | player names | addresses
    subject: str
    template: str
    vars: dict[str, Any] = field(default_factory=dict)
    attachments: list[tuple[str, str, bytes]] = field(
        default_factory=list
    )  # (filename, mime, data)
    html: str | None = None  # an HTML alternative, where a table or map helps
    # Pictures as SVG text: (content id, file stem, svg). The door sends each as an inline
    # PNG (what mail clients show; the HTML refers to it as cid:ID) with the SVG attached.
    images: list[tuple[str, str, str]] = field(default_factory=list)
    # The first mail of a matter or turn ("[Proposal 12] Title", "[Turn 3] Your move"): the
    # door gives it the Message-ID its later mail (reminders, results) answers, so a mail
    # client shows them in one thread.
    opens: bool = False
    held: tuple[str, ...] = ()  # the players on the daily digest, who get it there instead


class Ctx:
    """Time and randomness come in; mail and the ack go out. On replay the recorded draws
    are given back in order, so the same journal yields the same state."""

    def __init__(
        self,
        now: datetime,
        rng: RandomSource | None = None,
        draws: list[int] | None = None,
        facts: dict | None = None,
    ):
        self.now = now
        self._rng = rng or random.SystemRandom()
        self._replay = list(draws) if draws is not None else None
        self.draws: list[int] = []
        self.out: list[Outgoing] = []
        self.ack_lines: list[str] = []
        self.reply_kind = "ack"
        self.reply_template = "ack.txt"
        self.reply_vars: dict[str, Any] = {}
        self.summary: list[str] = []
        self.facts = facts or {}
        self.alerts: list[tuple[str, str]] = []  # (what it is about, the text)
        # The seed chain (SPEC §4.4), set by the door: the seed in use, by number and SHA-256,
        # and how to reveal it. Only mail says them; the state never holds them (replay has none).
        self.dice: dict[str, Any] | None = None
        # The lines saying the seed (above): a digest holds none of them, as the state does not.
        self.seed_lines: set[str] = set()
        self._reveal: Any = None
        self.revealed: dict[str, Any] | None = None
        # Undo orders this entry gives (engine/court.py), and whether the entry is being
        # replayed by one: then a ruling stands as it was made, and orders are not given again.
        self.court: list[dict[str, Any]] = []
        self.rerun = False

    def use_dice(self, seed: dict[str, Any], reveal: Any) -> None:
        """The seed in use ({number, sha256}) and the function that reveals it (the door's)."""
        self.dice, self._reveal = seed, reveal

    def reveal_dice(self) -> dict[str, Any] | None:
        """Reveal the seed this entry draws from and commit the next: {number, seed, sha256,
        next_number, next_sha256}; None where there is no chain (replay, an injected source)."""
        if self.revealed is None and self._reveal is not None:
            self.revealed = self._reveal()
            self.dice = {
                "number": self.revealed["next_number"],
                "sha256": self.revealed["next_sha256"],
            }
        return self.revealed

    def randint(self, lo: int, hi: int) -> int:
        if self._replay is not None:
            if not self._replay:
                raise RuntimeError("replay ran out of recorded random draws")
            value = self._replay.pop(0)
        else:
            value = self._rng.randint(lo, hi)
        self.draws.append(value)
        return value

    def draws_for(self, key: str) -> None:
        """The draws that follow are for KEY (a combat, by its land): a re-resolution of the
        same turn (variants/preview.py) gives it the same ones; here nothing changes."""

    def shuffle(self, items: list) -> list:
        """Fisher–Yates with journaled draws."""
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(0, i)
            items[i], items[j] = items[j], items[i]
        return items

    def ack(self, line: str) -> None:
        self.ack_lines.append(line)

    def reply(self, kind: str, template: str, **vars: Any) -> None:
        self.reply_kind, self.reply_template, self.reply_vars = kind, template, vars

    def send(
        self,
        kind: str,
        to: list[str] | str,
        subject: str,
        template: str,
        *,
        opens: bool = False,
        **vars: Any,
    ) -> Outgoing:
        o = Outgoing(kind, to, subject, template, vars, opens=opens)
        self.out.append(o)
        return o

    def order(
        self, undo: list[dict[str, Any]], label: str, strict: bool, mail: Outgoing | None = None
    ) -> None:
        """Order the entries UNDO names void (engine/court.py), by LABEL ("judgement 3"). STRICT:
        a line that names nothing refuses the action. MAIL is the announcement that tells the
        players what changed; without one, the door sends its own."""
        if not self.rerun:
            self.court.append({"undo": undo, "label": label, "strict": strict, "mail": mail})

    def note(self, line: str) -> None:
        self.summary.append(line)

    def alert(self, line: str, about: str = "") -> None:
        """Something the GM must act on; mailed as an `alert` whose subject says what it is
        ABOUT ("Alert: judgement 2 has no judge"), else the first words of LINE."""
        self.alerts.append((about or alert_about(line), line))


def alert_about(line: str, most: int = 60) -> str:
    """What an alert LINE is about, for its subject: its first clause, cut at a word."""
    head = re.split(r"[.:;(\n]", line.strip(), maxsplit=1)[0].strip()
    if len(head) > most:
        head = head[:most].rsplit(" ", 1)[0] + "…"
    return head

"""Votable matters shared by the Nomic variants: numbering, ballots with history where the
last valid vote counts, and tallies."""

from __future__ import annotations

import typing
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, Protocol

from mailref.engine.context import Ctx, Refused
from mailref.engine.state import GameState, Matter
from mailref.timeutil import iso, when


class Votable(Protocol):
    """A game whose matters take votes in some statuses (a variant): all this module asks of
    one, so that the variants build on it without it knowing them."""

    open_statuses: tuple[str, ...]


# How a command's tag or a matter's kind is named to players: "[CfJ]", "DoV 4", "[Point of Order]".
LABELS = {
    "cfj": "CfJ",
    "dov": "DoV",
    "point-of-order": "Point of Order",
    "propose": "Proposal",
    "proposal": "Proposal",
}


def label(kind: str, default: str = "") -> str:
    """The name players know KIND by; DEFAULT (else KIND in title case) for one not listed."""
    return LABELS.get(kind) or default or kind.replace("-", " ").title()


def open_statuses(variant: Votable) -> set[str]:
    """The statuses in which VARIANT's matters take votes."""
    return set(variant.open_statuses)


def find(
    state: GameState,
    number: int,
    collection: Literal["proposals", "judgements"] = "proposals",
) -> Matter | None:
    return next((m for m in state[collection] if m["number"] == number), None)


def new_matter(
    state: GameState,
    ctx: Ctx,
    author: str,
    title: str,
    text: str,
    status: str,
    deadline: datetime | None,
    **extra: Any,
) -> Matter:
    number = state["next_number"]
    state["next_number"] += 1
    # The variant's own keys (EXTRA) are declared on Matter (state.py), not checked here.
    return typing.cast(
        Matter,
        {
            "number": number,
            "title": title,
            "author": author,
            "text": text,
            "status": status,
            "reason": None,
            "votes": {},
            "ballots": [],
            "opened": iso(ctx.now),
            "deadline": iso(deadline) if deadline else None,
            "closed": None,
            **extra,
        },
    )


def cast(
    matter: Matter,
    player: str,
    vote: str,
    ctx: Ctx,
    source: str = "",
    label: str = "proposal",
    zone: str = "UTC",
    reason: str = "",
) -> str:
    """Record VOTE; returns the ack line saying what it replaced (when, in the game's ZONE) and
    echoing the voter's REASON (SPEC §3.2)."""
    previous = matter["votes"].get(player)
    prev_at = next((b["at"] for b in reversed(matter["ballots"]) if b["player"] == player), None)
    matter["votes"][player] = vote
    matter["ballots"].append({"player": player, "vote": vote, "at": iso(ctx.now), "source": source})
    line = f"Vote recorded: {label} {matter['number']} — {vote}"
    if previous and prev_at:
        line += f" (replaces {previous} of {when(prev_at, zone)})"
    elif previous:
        line += f" (replaces {previous})"
    if reason:
        line += f"; your reason: {reason}"
    return line


def tally(votes: dict[str, str]) -> Counter:
    return Counter(votes.values())


def tally_text(
    counts: Mapping[str, int], order: tuple[str, ...] = ("FOR", "AGAINST", "ABSTAIN")
) -> str:
    return ", ".join(f"{w} {counts.get(w, 0)}" for w in order)


def must_open(
    matter: Matter | None, number: int, open_statuses: tuple[str, ...], label: str = "proposal"
) -> Matter:
    if matter is None:
        raise Refused("no_matter", label=label, number=number)
    if matter["status"] not in open_statuses:
        raise Refused("matter_closed_to_votes", label=label, number=number, status=matter["status"])
    return matter


def must_not_repeat(
    collection: Sequence[Mapping[str, Any]],
    author: str,
    title: str,
    text: str,
    open_statuses: tuple[str, ...],
    label: str = "proposal",
    zone: str = "UTC",
    withdraw: bool = False,
) -> None:
    """The same matter sent again (the client's Send pressed twice, an Outbox retry under a new
    Message-ID, the mail sent from two accounts) is no new matter: a copy would count against
    the author's limits (BlogNomic's two pending, Imperial's oldest replaced) and be voted on
    twice. Same author, title and text, while the first is still open. WITHDRAW: the answer
    says to withdraw the first and propose it again (BlogNomic)."""

    def words(s: str | None) -> str:
        return " ".join((s or "").split())

    first = next(
        (
            m
            for m in collection
            if m["author"] == author
            and m["status"] in open_statuses
            and words(m.get("question") or m["title"]).lower() == words(title).lower()
            and words(m.get("text") or m.get("detail")) == words(text)
        ),
        None,
    )
    if first:
        raise Refused(
            "repeats_matter",
            label=label,
            number=first["number"],
            title=first.get("question") or first["title"],
            opened=when(first["opened"], zone),
            withdraw=withdraw,
        )

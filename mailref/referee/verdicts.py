"""The statuses and verdicts the referee writes on an inbox row, in one place. They are
stored data: old databases hold them, `mailref mail list` shows them and the GM's digest
picks the verdicts that begin with `error:`, so every string here stays as it is."""

from __future__ import annotations

from collections.abc import Iterable

# An inbox row's status once the referee has looked at it.
PROCESSED = "processed"  # answered: acted on, or told why not
IGNORED = "ignored"  # not answered: a machine's mail, a list's post
FAILED = "failed"  # quarantined: kept with its error for `mailref mail reprocess`

ERROR = "error: "  # a mail refused, answered or not (the GM's digest lists these)
OK = "ok"  # a command applied that has nothing to report ([Status], [Rules])

POSTMASTER_OVER_ALLOWANCE = "postmaster: over the day's allowance, not passed on"
POSTMASTER_PASSED = "postmaster: passed to the admin"
LIST_OR_NEWSLETTER = "list or newsletter mail without a command: not answered"
NO_GAME = "no game for these recipients: the games listed"
LIST_DISCUSSION = "list discussion (no command)"
DISCUSSION_OVER_ALLOWANCE = "discussion: over the day's allowance, not relayed"
STRANGER_WITHOUT_COMMAND = "a stranger's mail without a command: not answered"


def discussion(count: int) -> str:
    """A player's words relayed to COUNT other players."""
    return f"discussion: relayed to {count} player{'s' if count != 1 else ''}"


def error(reason: str) -> str:
    """A mail refused: REASON says why, as the error reply does when one is sent."""
    return f"{ERROR}{reason}"


def ok(lines: list[str]) -> str:
    """A command applied: what it did, cut to 500 characters."""
    return f"{OK}: " + "; ".join(lines)[:500] if lines else OK


def sender_refused(problem: str) -> str:
    """A From nobody can be answered at (forged or unreadable): no reply was sent."""
    return error(f"sender refused, no reply sent: {problem}")


def not_verified(why: str) -> str:
    """A player's command that SPEC §2.7 could not verify as theirs."""
    return error(f"not verified: {why}")


def machine(why: str) -> str:
    """An automated mail (a bounce, an auto-reply, a list's notice), never answered."""
    return f"machine: {why}"


def own_mail_back(address: str) -> str:
    """A game's own mail come back, e.g. through a list that kept none of its headers."""
    return machine(f"sent from the game address {address} (our own mail come back)")


def bounce_for(addresses: Iterable[str]) -> str:
    """Added to a bounce's verdict: the addresses it reports."""
    return f"; bounce for {', '.join(addresses)}"

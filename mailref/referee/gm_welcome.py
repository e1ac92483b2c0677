"""The mail a new game's GM gets: what the game is, its address, how to invite players, and
the GM's commands by mail, with what the game's own rules leave for the GM to know (a
BlogNomic Metadynasty, Dormancy). No journal entry: the game's history starts with its
players."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy.orm import Session

from mailref.door import Settings
from mailref.engine.context import Outgoing
from mailref.engine.state import GameState
from mailref.engine.variants import get_variant
from mailref.outgoing import queue
from mailref.store import Game


def gm_lines(state: GameState) -> list[str]:
    """The welcome's lines for the game STATE."""
    v = get_variant(state["variant"])
    address, gm = state["address"], state["gm"]
    approve = state["parameters"].get("join_approval") == "gm"
    # "Nomic Sidekick Nomic, a game of Nomic Sidekick Nomic": the variant named once.
    of = "" if state["name"] == v.title else f", a game of {v.title},"
    lines = [
        f"{state['name']}{of} is open at {address}, with you ({gm}) as its "
        "GM. Players write to that address; so do you, from this one.",
        "",
        "To invite players: give them the address and ask each to send a mail there with the "
        "subject [Join] and a line `Name: THEIR NAME`. Each gets a confirmation mail and is in "
        "once they answer it with a plain Reply"
        + (", and you take them in with [Approve] NAME." if approve else "."),
        "",
        "Your commands by mail, each a subject sent to " + address + ":",
        "  [Deadline] +2d, or [Deadline] Fri 18:00: move the running deadline",
        "  [Deadline] pause, [Deadline] resume: stop the game's clocks and start them again",
        "  ok or no, as a Reply to a player's request for more time",
    ]
    if approve:
        lines.append("  [Approve] NAME, as a Reply to the mail asking for it: take a newcomer in")
    lines.append(
        "  [Score] NAME +2 (or -2, =2), as a Reply to the game's mail: change a player's score"
    )
    if state.get("rules"):
        lines.append(
            "  [Rule], as a Reply to the game's mail, with lines as a proposal writes them "
            '(Amend rule 21 to read: ..., Enact rule 30 "Title": ..., Repeal rule 3.5): '
            "correct the ruleset, all or none"
        )
    lines.append(
        "  [Undo] 41 42, as a Reply to the game's mail: void those journal entries (the "
        "game's journal page numbers them), or name what to undo: [Undo] proposal 3, [Undo] "
        "the vote of Bob on proposal 3; the rest is replayed"
    )
    lines.append(
        f"  [Set] {v.replies.set_example()}, a line each, as a Reply to the game's mail: "
        "change the game's settings as `mailref game set` does, all or none"
    )
    if v.takes("decide"):
        lines.append(
            "  [Decide] 3 enact (or fail, veto), as a Reply to the game's mail: decide a "
            "proposal now"
        )
    if v.takes("vote_override"):
        lines.append(
            "  [Override] 3 NAME FOR, as a Reply to the game's mail: record a player's vote"
        )
    lines += [
        "  [Office] OFFICE NAME, as a Reply to the game's mail: name who holds an office",
        "  [Status], [Rules], [Help]: the game as its players see it",
        "On the host, `mailref game show "
        + state["slug"]
        + "` shows the game; each command above has its host command there too "
        "(docs/operating.md).",
    ]
    news = v.gm_news(state)
    return [*lines, *([""] + news if news else [])]


def welcome_gm(session: Session, settings: Settings, game: Game, now: datetime) -> None:
    """Mail GAME's GM, where it has one: the admin who made it without one read the same
    answer on the terminal."""
    state = game.state
    if not state.get("gm"):
        return
    out = Outgoing(
        "notice",
        "gm",
        f"Your game {state['name']} is open at {state['address']}",
        "notice.txt",
        {"game": state, "heading": "", "lines": gm_lines(cast(GameState, state))},
    )
    queue(session, settings, game, state, out, now)

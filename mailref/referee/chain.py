"""The chain a kept mail runs through, declared as a table as Mailman 3's chains are
(`_link_descriptions`): each link is (name, step, what it does). A step that decides the mail
(sets its status and verdict, queues any answer) returns True and the chain stops there; the
others read or route the mail and pass it on. The steps themselves are in steps.py: first what
no game needs, then routing to a game, then the checks in the game, then the command."""

from __future__ import annotations

from collections.abc import Callable

from mailref.read import match_game
from mailref.referee import steps, verdicts
from mailref.referee.case import Case

Step = Callable[[Case], "bool | None"]

CHAIN: tuple[tuple[str, Step, str], ...] = (
    # ---- before routing: what no game needs
    ("forged-sender", steps.refuse_forged_sender, "A From nobody can be told at is refused."),
    ("machine", steps.ignore_machine, "A loop, bounce or auto-reply is never answered."),
    ("own-mail", steps.ignore_own_mail, "A game's own mail come back through a list."),
    ("reply-to-game", steps.keep_replies_off_games, "A Reply-To at a game's address is dropped."),
    ("postmaster", steps.pass_to_postmaster, "Mail to postmaster goes to the admin."),
    # ---- routing: the game, once
    ("route", steps.route, "The game the recipients name, else the thread's."),
    ("stray-list-mail", steps.ignore_stray_list_mail, "A list's post for no game."),
    ("list-the-games", steps.list_the_games, "Mail for no game gets the list of games."),
    ("open-game", steps.open_game, "The game locked, its player found, the subject read."),
    # ---- in the game
    ("list-discussion", steps.ignore_list_discussion, "Players talking on the game's list."),
    ("list-or-bulk", steps.ignore_list_or_bulk, "Another list's post or a newsletter."),
    ("suggest-a-tag", steps.suggest_a_tag, "A bracketed word that is no command."),
    ("labelled-game", steps.point_to_labelled_game, "A subject naming another game."),
    ("thread-game", steps.point_to_thread_game, "A Reply to another game's mail."),
    ("unverified", steps.refuse_unverified, "A command not verified as the sender's."),
    ("administrivia", steps.answer_administrivia, "A player's unsubscribe, answered."),
    ("discussion", steps.relay_discussion, "A player's words, relayed to the others."),
    ("reply-without-command", steps.refuse_reply_without_command, "A reply with no command."),
    ("stranger-without-command", steps.ignore_stranger_without_command, "A stranger's words."),
    ("command", steps.apply_command, "The command, through its handler and the door."),
)


def process(c: Case) -> None:
    """Route and apply one kept mail, in the caller's transaction; a mail whose recipients
    name several games is answered by each of them, in the order named."""
    run(c)
    if c.game is None or c.by_thread:
        return  # not for a game (a machine's, the referee's own), or for the one it answers
    first = (c.slug, c.row.status, c.row.verdict)
    for slug in other_games_named(c):
        c.env.subject = None  # read again, with this game's labels
        again = Case(c.s, c.row, c.env, c.now, {slug: c.games[slug]}, c.settings, c.rng)
        run(again)
        verdict = f"{first[2]}; {slug}: {c.row.verdict}"
        status = c.row.status if first[1] != verdicts.PROCESSED else first[1]
        first = (first[0], status, verdict)
    c.row.game_slug, c.row.status, c.row.verdict = first


def run(c: Case) -> None:
    """One mail through the chain, for the game its recipients name first, until a step
    decides it."""
    c.row.sender, c.row.subject = c.env.from_addr or "", c.env.subject_line[:500]
    for name, step, _ in CHAIN:
        c.step = name
        if step(c):
            return  # decided; the command, the last link, always decides


def other_games_named(c: Case) -> list[str]:
    """The games other than the one answering whose addresses are among the recipients. A copy
    an MTA hands each game is the same mail (Message-ID and author): the inbox keeps the first."""
    named: list[str] = []
    for r in c.env.recipients:
        slug = match_game([r], c.games, named=True)
        if slug and slug != c.slug and slug not in named:
            named.append(slug)
    return named

"""Where a mail goes, decided once for each mail: the game its recipients name, else the one
whose mail it answers (SPEC §2.3), and its subject read once in that game, with the game's
labels. And mail that belongs to no game, or to no command: the referee's own answers (SPEC
§2.3, §2.5) — the list of the games it runs, and "did you mean [Proposal]?" for a misspelt
tag."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from sqlalchemy import Text, cast, select
from sqlalchemy.orm import Session

from mailref import engine
from mailref.engine.variants.base import Variant
from mailref.read import Envelope, match_game
from mailref.read.subject import TAGS, Subject, game_label, parse_subject
from mailref.store import Game, OutboxMessage


@dataclass(frozen=True)
class Route:
    """The game a mail is for, as routing found it."""

    slug: str | None  # None: the mail is for no game (the referee's list of games answers it)
    by_thread: bool  # the recipients named no game: the mail it answers did


def route(s: Session, env: Envelope, games: dict[str, str]) -> Route:
    """The game the recipients name (GAMES: slug -> address), else the one whose mail ENV
    answers."""
    slug = match_game(env.recipients, games)
    return Route(slug, False) if slug else Route(game_of_thread(s, env), True)


@dataclass(frozen=True)
class Reading:
    """A mail's subject as read in the game it was routed to: the command tag read there is the
    one every step and handler goes by."""

    subject: Subject
    labels: tuple[str, ...]  # how the game names itself in subjects: its label, name and slug
    foreign: bool  # a reply that may answer another game's mail


def read_in_game(s: Session, env: Envelope, name: str, slug: str) -> Reading:
    """ENV's subject read once, with the game's labels taken off (even when they spell a
    command); a reply whose subject lost its tag takes the tag of the mail it answers."""
    labels = (game_label(name, slug), name, slug)
    subject = parse_subject(env.subject_line, game_tags=labels)
    if subject.tag is None:
        subject = subject_of_reply(s, env, subject, labels)
    # A reply that does not carry this game's own label (every subject it sends does) may
    # answer another game's mail: "[CfJ 4]" of Blog Nomic sent to Nomes Two is not Nomes Two's.
    foreign = bool(
        subject.tag
        and env.in_reply_to
        and not any(f"[{x}]".lower() in subject.raw.lower() for x in labels)
    )
    return Reading(subject, labels, foreign)


def game_of_thread(s: Session, env: Envelope) -> str | None:
    """When the recipients do not decide: the game that sent the mail this one answers."""
    refs = list(dict.fromkeys(reversed(env.in_reply_to + env.references)))[:20]
    if not refs:
        return None
    found = s.execute(
        select(OutboxMessage.message_id, OutboxMessage.game_slug).where(
            OutboxMessage.message_id.in_(refs), OutboxMessage.game_slug.is_not(None)
        )
    ).all()
    rows = {message_id: slug for message_id, slug in found}
    return next((rows[r] for r in refs if r in rows), None)


def subject_of_reply(
    s: Session, env: Envelope, subject: Subject, labels: tuple[str, ...] = ()
) -> Subject:
    """A reply whose SUBJECT lost its tag is tied to what it answers by In-Reply-To."""
    for ref in reversed(env.in_reply_to + env.references):
        subj = s.scalar(
            select(OutboxMessage.subject).where(OutboxMessage.message_id == ref).limit(1)
        )
        if subj:
            parsed = parse_subject(subj, game_tags=labels)
            if parsed.tag:
                return type(parsed)(
                    subject.raw,
                    parsed.tag,
                    parsed.number,
                    subject.rest,
                    True,
                    forwarded=subject.forwarded,
                )
    return subject


def games_list(session: Session) -> list[dict]:
    """Every game on this host, as the referee's [Help] lists it."""
    out = []
    for g in session.scalars(select(Game).order_by(Game.slug)):
        variant = engine.get_variant(g.variant)
        join = next((what for usage, what in variant.commands if usage.startswith("[Join]")), "")
        out.append(
            {
                "name": g.state.get("name", g.slug),
                "slug": g.slug,
                "variant": g.variant,
                "title": variant.title,
                "address": g.address,
                "status": g.state.get("status", ""),
                "players": sum(1 for p in g.state.get("players", []) if p.get("status") != "left"),
                "join": join,
            }
        )
    return out


def example_tags(variant: Variant) -> tuple[str, ...]:
    """Two of the game's own command tags, the ones players use most, for a hint."""
    tags = [usage.split("]")[0] + "]" for usage, _ in variant.commands if usage.startswith("[")]
    common = [t for t in ("[Orders]", "[Proposal]", "[Vote]", "[Status]") if t in tags]
    return tuple((common or tags or ["[Status]"])[:2])


def did_you_mean(word: str, examples: tuple[str, ...] = ("[Status]", "[Vote]")) -> tuple[str, str]:
    """(reason, hint) for a subject whose leading [WORD] is no command; EXAMPLES: tags of the
    game's own to offer instead."""
    names = sorted({k for k in TAGS} | {t.replace("-", " ") for t in TAGS.values()})
    typed = word.strip().lower()
    # Letters swapped are the likeliest slip: [Stauts] is [Status], though [Stats] is as near.
    close = [n for n in names if sorted(n) == sorted(typed)][:1] or difflib.get_close_matches(
        typed, names, n=1, cutoff=0.7
    )
    if close:
        tag = close[0].title().replace("Cfj", "CfJ").replace("Dov", "DoV")
        return (
            f"[{word}] is not a command: did you mean [{tag}]?",
            f"Write the subject as [{tag}] … and send it again. Send [Help] for all the commands.",
        )
    return (
        f"[{word}] is not a command of this game",
        f"Start the subject with a command tag such as {' or '.join(examples)}; send [Help] for "
        "all of them.",
    )


def wrong_game(session: Session, slug: str, here: str, named: bool = False) -> tuple[str, str]:
    """(reason, hint) for a reply sent to the game HERE that answers a mail of game SLUG (NAMED:
    whose subject names SLUG); nothing was done here."""
    game = session.scalar(select(Game).where(Game.slug == slug))
    name = game.state.get("name", slug) if game else slug
    return (
        f"this is {here}, but your mail {'names' if named else 'answers a mail of'} {name}"
        + (f"; nothing was done in {here}" if named else ""),
        f"send it to {name} at {game.address if game else slug}",
    )


def game_named(session: Session, label: str, here: str) -> str | None:
    """The slug of the game, other than HERE, whose subject label is LABEL ("[Nomes]"), if any.
    Asked only for a subject carrying a label not its game's, before its command tag."""
    want = label.strip().lower()
    # The name alone, not each game's whole state: "[EXT] [Vote] 3" (a mail gateway's label)
    # asks this of every game on the host.
    rows = session.execute(
        select(Game.slug, Game.state["name"].as_string())
        .where(Game.slug != here)
        .order_by(Game.slug)
    )
    for slug, name in rows:
        if want in {
            game_label(name or slug, slug).lower(),
            str(name or slug).lower(),
            slug.lower(),
        }:
            return slug
    return None


def wrong_door(session: Session, subject: str, sender: str | None) -> str:
    """What to tell someone whose mail reached the referee's own address but is meant for a game:
    a subject naming the game ("Re: [Nomes] [Proposal 2] …" sent from an old address book), or a
    command from a player of it. Nothing was done there (SPEC §2.3 routes by recipient and
    thread only): say so, and where to send it. "" when the mail names no game of the sender's."""
    low, who = subject.lower(), (sender or "").lower()
    named, mine = [], []
    for g in session.scalars(select(Game).order_by(Game.slug)):
        name = g.state.get("name", g.slug)
        if any(f"[{x}]".lower() in low for x in {game_label(name, g.slug), name, g.slug}):
            named.append(g)
        elif who and any(
            who in p.get("addresses", []) and p.get("status") != "left"
            for p in g.state.get("players", [])
        ):
            mine.append(g)
    if len(named) == 1:
        g = named[0]
        return (
            f"Your mail names {g.state.get('name', g.slug)} but came to the referee's own "
            "address, where no game "
            "is played: nothing was done (no vote or command was recorded). Send it to "
            f"{g.address}; a plain Reply "
            "to any mail of that game goes there."
        )
    if not named and mine and "[" in subject:
        games = ", ".join(f"{g.state.get('name', g.slug)} at {g.address}" for g in mine)
        return (
            "Your mail came to the referee's own address, where no game is played: nothing was "
            "done. Commands "
            f"go to the address of the game they are for; you play {games}."
        )
    return ""


def plays_here(s: Session, address: str, admin: str) -> bool:
    """Whether ADDRESS plays (or is the GM of) any game on this host, or is its admin: no
    stranger, answered with a player's allowance (SPEC §2.2) whichever game it writes to."""
    a = address.lower()
    if a == admin.lower():
        return True
    # The games' state holds the address as a JSON string: only those are read whole.
    text = cast(Game.state, Text)
    candidates = select(Game.state).where(text.contains(f'"{a}"', autoescape=True))
    for (state,) in s.execute(candidates):
        if str(state.get("gm") or "").lower() == a:
            return True
        if any(
            a in p.get("addresses", ()) and p.get("status") != "left"
            for p in state.get("players", ())
        ):
            return True
    return False

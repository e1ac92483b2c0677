"""The game as its players' email group (SPEC §2.3): a player's mail in which nothing was read
as a command is relayed to the other players, From "NAME via GAME" at the game's address, with
Reply-To the game, so that a Reply reaches the game and, through it, everybody."""

from __future__ import annotations

import email.utils
import hashlib
import re
from datetime import datetime

from sqlalchemy.orm import Session

from mailref.engine.state import Player
from mailref.engine.variants.rule_tables import SHARED
from mailref.outgoing import Settings, _add, game_subject, thread_id, thread_key
from mailref.read import Envelope
from mailref.store import Game, InboxMessage
from mailref.store.counters import count_mailed, count_reply, mailed_today
from mailref.write.compose import compose
from mailref.write.lists import list_headers


def relays(state: dict) -> bool:
    """Whether GAME relays its players' words: `discussion=relay` (the default), and not
    played on a mailing list (the list relays them there)."""
    params = state.get("parameters", {})
    return str(params.get("discussion", "relay")) != "off" and not params.get("list_id")


def mails_per_player_day(state: dict) -> int:
    """The most mail the game sends one player a UTC day (a game made before it: 60)."""
    return int(state.get("parameters", {}).get("mails_per_player_day", 60))


def max_relayed(state: dict) -> int:
    """The most characters of a mail the game relays (its table's default until the GM sets
    one: not written into games' states, so replay is unchanged)."""
    return int(str(SHARED.value(state.get("parameters", {}), "max_relayed")))


def cut(text: str, most: int) -> str:
    """TEXT, or its first MOST characters (to the last line break among them) and a line
    saying how much of it was cut."""
    if len(text) <= most:
        return text
    kept = text[:most]
    if (nl := kept.rfind("\n")) > most // 2:
        kept = kept[:nl]
    return kept.rstrip() + (
        f"\n\n[{len(text) - len(kept):,} more characters cut: the game relays at most "
        f"{most:,} characters of a mail]"
    )


def reads_as_orders(env: Envelope) -> bool:
    """Whether the sender's own words are mostly bold (orders): at least half their letters."""
    if not env.orders:
        return False
    bold = sum(len("".join(o.split())) for o in env.orders)
    return 2 * bold >= len("".join(env.text.split()))


def talk_key(subject: str) -> str:
    """The thread of words under SUBJECT (its "Re:"s and case aside), made from what players
    know, as a matter's is (outgoing.thread_id)."""
    words = re.sub(r"^(?:\s*(?:re|aw|sv|fwd?)\s*:)+", "", subject, flags=re.I)
    words = " ".join(words.lower().split())
    return "talk-" + hashlib.sha256(words.encode("utf-8")).hexdigest()[:12]


def _lower(player: dict) -> set[str]:
    return {a.lower() for a in player["addresses"]}


def wants_discussion(player: dict) -> bool:
    return str(player.get("settings", {}).get("discussion", "on")) != "off"


def relay(
    session: Session,
    settings: Settings,
    game: Game,
    player: Player,
    env: Envelope,
    now: datetime,
    inbox_id: int | None,
) -> int | None:
    """Queue ENV's words to every other player who takes discussion; the number relayed to
    (0: nobody takes them, nothing counted), or None when PLAYER has spent the day's
    allowance (`replies_per_day` mails)."""
    state = game.state
    name, address = state["name"], state["address"]
    raw = env.subject.raw
    # A reply in a matter's thread stays in each reader's own copy of that thread.
    key = next((k for i, ch in enumerate(raw) if ch == "[" and (k := thread_key(raw[i:]))), None)
    # Never the author's In-Reply-To or References: they may name a mail the game sent the
    # author alone, which a reader could name to spend the author's answers. Each reader's
    # copy answers that reader's own thread of the matter, or of the subject.
    key = key or talk_key(env.subject.rest)
    mine = {a.lower() for a in player["addresses"]}
    said = env.text.strip("\n")
    if not said.strip():
        return 0  # nothing of the author's own: no words to relay
    # The author's new words only: the mail answered (perhaps the author's own ack, with its
    # footer) and the signature are the author's copy, not the players' discussion.
    body = cut(said, max_relayed(state)) + (
        f"\n\n-- \n{player['name']}'s words to the players of {name}, relayed by its referee."
        " A Reply reaches all players; a mail with a command tag acts in the game.\n"
    )
    subject = game_subject(state, env.subject.raw or f"Words from {player['name']}")
    readers = [
        p["addresses"][0]
        for p in state["players"]
        if p["status"] != "left"
        and not p.get("vacant")  # its former holder no longer reads the game
        and p["addresses"][0].lower() not in mine
        and wants_discussion(p)
    ]
    if not readers:
        return 0
    conn, day = session.connection(), now.strftime("%Y-%m-%d")
    # SPEC §2.2: a reader the game has mailed mails_per_player_day times today reads no more
    # (none left: as if over the sender's allowance).
    had, limit = mailed_today(conn, state["slug"], day), mails_per_player_day(state)
    readers = [to for to in readers if had.get(to.lower(), 0) < limit]
    # Counted per game: words forged in one game spend nothing of the author's in another.
    spent = f"discussion:{state['slug']}:{player['addresses'][0].lower()}"
    if not readers or count_reply(conn, spent, day) > (settings.replies_per_day):
        return None
    count_mailed(conn, state["slug"], readers, day)
    answered = copy_answered(game, env, player["addresses"], settings)
    written = words_written(session, game, answered) if answered else None
    if written:  # the parent's author as a reader is named by their first address
        first = [p["addresses"][0] for p in state["players"] if written[0] in _lower(p)]
        written = (first[0].lower(), written[1]) if first else None
    for to in readers:
        root = thread_id(game, key, to, settings)
        parent = root
        if written and written[0] == to.lower():
            parent = written[1]  # the parent's author has no copy of it: the mail they sent
        elif answered:
            parent = thread_id(game, answered, to, settings)
        msg = compose(
            sender=email.utils.formataddr((f"{player['name']} via {name}", address)),
            to=to,
            subject=subject,
            body=body,
            kind="discussion",
            game=state["slug"],
            now=now,
            in_reply_to=parent,
            references=list(dict.fromkeys([root, parent])),
            message_id=thread_id(game, said_key(env), to, settings),
            loop=settings.from_address,
            headers={"Reply-To": address, **list_headers(state)},
        )
        _add(conn, state["slug"], "discussion", to, msg, now, inbox_id)
    return len(readers)


def said_key(env: Envelope) -> str:
    """The thread key of the copies of ENV's words: each reader's copy has the Message-ID
    `thread_id` makes of it for that reader, so a Reply to any copy names its words."""
    return "said-" + env.sha256[:16]


def copy_answered(game: Game, env: Envelope, authors: list[str], settings: Settings) -> str | None:
    """The thread key of the game's mail ENV answers, when what it names is the author's own
    copy of it (relayed words, an announcement): each reader's copy then answers the reader's
    copy of the same mail. A Message-ID of mail sent to anyone else is never followed."""
    for mid in [*env.in_reply_to, *reversed(env.references)][:8]:
        key = mid[1:].partition(".")[0]
        if not re.fullmatch(r"[a-z]+(?:-[a-z0-9]+)+", key):
            continue
        if any(thread_id(game, key, a, settings) == mid for a in authors):
            return key
    return None


def words_written(session: Session, game: Game, key: str) -> tuple[str, str] | None:
    """(author's address, Message-ID) of the mail whose words were relayed under KEY: its
    author got no copy, and threads a Reply to it under the mail they sent."""
    if not key.startswith("said-"):
        return None
    row = (
        session.query(InboxMessage.sender, InboxMessage.message_id)
        .filter(InboxMessage.game_slug == game.slug)
        .filter(InboxMessage.sha256.startswith(key[5:]))
        .first()
    )
    return (row.sender.lower(), row.message_id) if row and row.message_id else None

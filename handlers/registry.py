"""The handlers' registry: which function reads which subject tag, what a handler is given
(GameView) and the helpers handlers share (who signed, `Key: value` lines, mail that is only
an attachment)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

from mailref.engine import Refused, matters
from mailref.engine.state import Action, GameState, Player
from mailref.engine.variants.base import Variant
from mailref.engine.variants.watching import watchers
from mailref.read import Envelope


class Talk(Refused):
    """A Reply in a thread whose words hold none of what was looked for (a ballot, an answer to
    a trade): the players talking, relayed as discussion where the game relays it."""


@dataclass
class GameView:
    state: GameState
    variant: Variant
    player: Player | None  # the sender, when registered
    gm: str = ""  # the game's GM's address (else the admin's), who acts on the game by mail
    admin: str = ""  # the host's admin address, who may correct any game by mail
    verifies: bool = True  # the host trusts an authentication server: mail can be verified

    @property
    def name(self) -> str | None:
        return self.player["name"] if self.player else None


Handler = Callable[[Envelope, GameView], Action]


@dataclass
class Route:
    tag: str
    fn: Handler
    players_only: bool


REGISTRY: dict[str, Route] = {}
_ACTION = {
    "proposal": "propose",
    "point-of-order": "cfj",
    "override": "vote_override",
}  # tags whose action is named otherwise


def handles(*tags: str, players_only: bool = True) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for tag in tags:
            REGISTRY[tag] = Route(tag, fn, players_only)
        return fn

    return register


def dispatch(env: Envelope, view: GameView, tag: str) -> Action:
    tag = view.variant.same_as.get(tag, tag)  # [Idle] in Sidekick is its [Away]
    route = REGISTRY.get(tag)
    if route is None:
        raise Refused("not_a_command_here", tag=tag)
    if route.players_only and view.player is None:
        not_a_player(env, view)
    if (
        tag == "results"
        and env.subject.is_reply
        and view.player is not None
        and (env.from_addr or "").lower() != str(view.state.get("gm") or "").lower()
    ):
        return reply_to_results(env, view)
    # Before the body is read: [Judge] in Eire is no command there, not "no ACCEPT, VETO or IGNORE
    # found".
    if not view.variant.takes(_ACTION.get(tag, tag)):
        raise view.variant.not_a_command(view.state, tag)
    if env.subject.forwarded and tag not in ("status", "rules", "help"):
        raise forwarded(env, tag)
    return route.fn(env, view)


def reply_to_results(env: Envelope, view: GameView) -> Action:
    """A player's Reply to the game's "[Results] Turn N" is no [Results] of theirs. With bold
    text it is the player's orders for the turn now open; else it is refused as no command."""
    if env.orders and view.variant.takes("orders"):
        env.subject = dataclasses.replace(env.subject, tag="orders", number=None, rest="")
        return REGISTRY["orders"].fn(env, view)
    raise Refused("no_command_in_reply")


def forwarded(env: Envelope, tag: str) -> Refused:
    """A forward ("Fwd: [Proposal] Hats") passes on someone's mail: its text is not the
    forwarder's proposal, its votes are not the forwarder's ballots (SPEC §2.4: forwarded
    messages are not commands). Nothing is recorded; the answer says how to act oneself."""
    number, rest = env.subject.number, env.subject.rest.strip()
    if tag == "proposal" and number is None:
        return Refused("forwarded_proposal", title=rest)
    if tag in ("proposal", "vote"):
        return Refused("forwarded_vote", number=number)
    return Refused("forwarded_command", tag=matters.label(tag))


def not_a_player(env: Envelope, view: GameView) -> NoReturn:
    """The refusal of a command from an address that is no player's, with what to do."""
    a = (env.from_addr or "").lower()
    gone = next(
        (p for p in view.state["players"] if a and a in p["addresses"] and p["status"] == "left"),
        None,
    )
    if gone:  # Carol, who sent [Quit], writing again
        raise Refused("player_has_left", name=gone["name"], game=view.state["name"])
    named = (env.from_name or "").strip().lower()
    player = next(
        (
            p
            for p in view.state["players"]
            if named and p["name"].lower() in (named, named.split()[0]) and p["status"] != "left"
        ),
        None,
    )
    gm, game = view.state.get("gm"), view.state["name"]
    if a and a == str(gm or "").lower():  # the GM, told as the GM, not sent to ask the GM
        raise Refused("gm_not_a_player", game=game, tag=matters.label(env.subject.tag or ""))
    if a and a in watchers(view.state):  # a watcher's [Vote] or [Orders]
        raise Refused("watchers_do_not_play", game=game)
    if player:  # Alice writing from her other address
        raise Refused(
            "not_a_players_address", address=env.from_addr, game=game, name=player["name"], gm=gm
        )
    raise Refused("not_a_player", address=env.from_addr, game=game, gm=gm)


def read_whole(env: Envelope, what: str) -> None:
    """Refuse a mail whose text the game would keep but reading saw only part of (limits.py)."""
    if env.truncated:
        from mailref.read.limits import BOUNDARIES_MAX, LINE_MAX, READ_MAX

        raise Refused(
            "too_long_to_read", what=what, most=READ_MAX, lines=LINE_MAX, parts=BOUNDARIES_MAX
        )


def not_only_attached(env: Envelope, what: str, text: str) -> None:
    """Refuse a mail whose TEXT (the proposal, the results; the orders found) is in an attachment
    the referee does not read: a PDF, a .docx, Outlook's winmail.dat. The players would be asked to
    vote on a bare title, or be sent empty results, or the orders would be "no bold text". A line
    pointing at the attachment ("Orders attached.") is no text either."""
    if env.attachments and not any(
        line.strip() and not _POINTS_AT_ATTACHMENT.search(line) for line in text.splitlines()
    ):
        raise Refused("text_only_attached", what=what)


# "Orders attached.", "Please see the attached PDF": at most a few words around "attach…", each
# word followed by non-word characters, so that no two ways of splitting a line are ever tried.
_POINTS_AT_ATTACHMENT = re.compile(
    r"^\W*(?:\w+\W+){0,6}attach(?:ed|ment|ments)?\b\W*(?:\w+\W+){0,5}\w*$", re.I
)


def signer(env: Envelope, view: GameView) -> str:
    """The author's names (player name and From display name), so that reading rule changes
    can tell a name alone closing the mail from rule text."""
    return f"{view.name or ''} {env.from_name or ''}"


def body_fields(text: str) -> dict[str, str]:
    """`Key: value` lines, keys lower-cased."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() and len(key) < 30 and value.strip():
            out.setdefault(key.strip().lower(), value.strip())
    return out

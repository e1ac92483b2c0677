"""The shapes of the engine's plain data: a game's state, its players, matters and turn, and
the actions applied to it. They are JSON as stored; these types say which keys they carry.
Keys marked NotRequired belong to some variants only, or to records made after they were added."""

from __future__ import annotations

from typing import Any, NotRequired, Required, TypedDict


class Player(TypedDict):
    name: str
    addresses: list[str]  # lower case; the first is where mail goes
    status: str  # active | away | idle | left
    score: int
    offices: list[str]  # admin, gm, historian, emperor, senator, ...
    joined: str  # ISO time
    name_keys: NotRequired[list[str]]  # the name folded for look-alike letters
    rejoined: NotRequired[str]
    left_at: NotRequired[str]
    removed: NotRequired[bool]  # BlogNomic: left by the admin's removal
    seen: NotRequired[str]  # BlogNomic: last mail that did something
    self_idled: NotRequired[dict[str, Any]]  # BlogNomic: {"at", "dynasty"} of going Idle oneself
    color: NotRequired[str]  # Eire
    tribe: NotRequired[str]  # Eire
    origin: NotRequired[str]  # Eire
    eliminated: NotRequired[bool]  # Eire
    # announcements waiting for the player's digest (variants/inbox.py)
    held: NotRequired[list[dict[str, Any]]]
    digest_next: NotRequired[str]
    # [level, since] pairs: since which victory check the player has held each score level
    score_levels: NotRequired[list[list[int]]]


class Ballot(TypedDict):
    """One vote as it was cast; a matter keeps every ballot, the last valid one counts."""

    player: str
    vote: str
    at: str
    source: str


class Matter(TypedDict, total=False):
    """A proposal, or a judgement (CfJ, DoV, Point of Order): what players vote on or ask."""

    number: Required[int]
    status: Required[str]  # voting | pending | open | enacted | failed | ...
    opened: Required[str]
    title: str
    author: str
    text: str
    reason: str | None
    votes: dict[str, str]  # player -> the vote that stands
    ballots: list[Ballot]
    deadline: str | None
    closed: str | None
    changes: list[dict[str, Any]]  # rule changes, as `ruleset.RuleChange.as_dict()`
    reminded: bool
    tally: dict[str, Any]
    # judgements
    kind: str  # cfj | dov | point-of-order
    question: str
    detail: str
    by: str
    judge: str | None
    ruling: str | None
    # BlogNomic proposals
    self_killed: bool
    vetoed: bool


class Turn(TypedDict, total=False):
    number: Required[int]
    player: str | None  # Nomic: the mover
    deadline: str | None
    started: str
    reminded: bool
    proposal: int | None  # Sidekick: the mover's proposal
    closed: str  # orders games: when the turn closed
    awaiting_results: bool  # a GM-adjudicated turn waits for [Results]


class Rule(TypedDict, total=False):
    number: Required[str]  # "12", "2.3"
    title: str
    text: str


class Event(TypedDict):
    """A line of what happened, kept for the GM's next digest."""

    at: str
    text: str


class Roll(TypedDict):
    at: str
    player: str
    dice: str
    values: list[Any]
    why: str


class GameState(TypedDict):
    """The whole state of one game, as `Variant.initial_state` makes it and actions change it."""

    slug: str
    name: str
    variant: str
    address: str  # the game's own mail address
    gm: str | None
    timezone: str
    status: str  # forming | active | hiatus | paused | ended
    parameters: dict[str, Any]
    players: list[Player]
    order: list[str]  # the turn order, by name
    turn: Turn | None
    proposals: list[Matter]
    judgements: list[Matter]
    rules: list[Rule]
    rule_history: list[dict[str, Any]]
    winners: list[str]
    next_number: int
    created: str
    events: list[Event]
    digest_next: str
    paused_at: str | None
    rolls: list[Roll]
    schema: int  # engine/schema.py: an older state is upgraded to it when read
    resume_status: NotRequired[str]
    # the daily counts behind the limits (variants/limits.py)
    opened: NotRequired[dict[str, Any]]
    newcomers: NotRequired[dict[str, Any]]
    announced: NotRequired[dict[str, Any]]
    # Sidekick
    next_judgement: NotRequired[int]
    # BlogNomic
    historian: NotRequired[str | None]
    dynasty: NotRequired[int]
    theme: NotRequired[str | None]
    ascension_pending: NotRequired[bool]
    dov_cooldown: NotRequired[dict[str, str]]
    terms: NotRequired[dict[str, str]]
    dormant: NotRequired[bool]
    # orders games
    orders: NotRequired[dict[str, dict[str, Any]]]
    history: NotRequired[list[dict[str, Any]]]
    # Eire
    lands: NotRequired[list[dict[str, Any]]]
    grain: NotRequired[dict[str, int]]
    high_king: NotRequired[str | None]


class VoteLine(TypedDict):
    """One ballot of a [Vote] action, as read from the mail."""

    number: int
    vote: str
    word: str
    line: str


class Action(TypedDict, total=False):
    """What is applied to a game: from a mail (by its handler), a deadline (`tick`), or an
    admin (`by` set). `type` names the handler; the other keys are those it reads."""

    type: Required[str]
    player: str | None  # the sender's player name
    address: str  # the sender's address
    by: str  # the admin who gave the command
    by_label: str
    reason: str
    capped: bool  # counted against the daily limits (mail only)
    source: str
    # what a mail says
    title: str
    text: str
    question: str
    changes: list[dict[str, Any]]
    sentences: list[str]  # bold orders
    ballots: list[VoteLine]
    ignored: list[Any]
    number: int
    kind: str
    name: str
    name_keys: list[str]
    more: list[str]  # further addresses of a joining player
    dice: str
    why: str
    to: str
    theme: str
    fields: dict[str, str]
    verdict: str
    choices: dict[str, str]  # Eire: Color, Tribe, Land of a joining player
    # what an admin says
    values: dict[str, Any]  # `set`
    office: str
    holder: str | None
    status: str  # `player_status`
    op: str  # `score`: = + -
    amount: int | str
    outcome: str  # `decide`: enact | fail | veto
    vote: str  # `vote_override`
    extend: str  # `deadline`, `deadline_request`
    when: str
    at: str  # `deadline` by mail: "Fri 18:00", read in the GM's zone
    gm: bool  # by mail from the game's GM (`deadline`, `pause`, `resume`)
    ok: bool  # `deadline_answer`: the GM grants the request waiting
    dates: str  # `away`: "until 6 Jan", "24 Dec to 6 Jan"
    on: bool  # Imperial `playtest`: on or off

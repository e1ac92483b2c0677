"""The shapes of the engine's plain data: a game's state, its players, matters and turn, and
the actions applied to it. They are JSON as stored; these types say which keys they carry.
Keys marked NotRequired belong to some variants only, or to records made after they were added."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, Required, TypedDict


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
    away_from: NotRequired[str]  # a dated absence set ahead: it begins then
    away_until: NotRequired[str | None]  # a dated absence ends by itself then
    # announcements waiting for the player's digest (variants/inbox.py)
    held: NotRequired[list[dict[str, Any]]]
    digest_next: NotRequired[str]
    capped_on: NotRequired[str]  # the UTC day mails_per_player_day was last reached
    # requests past the day's allowance, {"due", "items"} (variants/waiting.py)
    waiting: NotRequired[dict[str, Any]]
    settings: NotRequired[dict[str, str]]  # [Settings] the player changed from their defaults
    unsubscribed: NotRequired[bool]  # the digest's one-click unsubscribe, told in the next one
    # [level, since] pairs: since which victory check the player has held each score level
    score_levels: NotRequired[list[list[int]]]
    # substitutes (variants/substitutes.py): since when the seat is open, each holder's
    # {"holder", "address", "from", "to"}, and the turns it missed in a row
    vacant: NotRequired[str]
    tenures: NotRequired[list[dict[str, Any]]]
    missed_in_a_row: NotRequired[int]


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
    decided: str  # a judgement ruled (Sidekick)
    changes: list[dict[str, Any]]  # rule changes, as `ruleset.RuleChange.as_dict()`
    reminded: bool
    tally: dict[str, Any]
    turn: int  # Sidekick: the turn the proposal was made in
    # judgements
    kind: str  # cfj | dov | point-of-order
    question: str
    detail: str
    by: str
    judge: str | None
    ruling: str | None
    effects: list[Any]  # a judgement's effect lines, carried out when it is upheld
    asker_not_judge: bool  # a CfJ opened since the asker is never its judge
    held: list[str]  # a ruling's score lines past rule 4's penalty, waiting for the GM
    # deadlines
    awaiting_since: str  # Imperial: since when a matter waits for the GM
    last_reminded: str  # Imperial: the last reminder of the judge
    vote_period: str  # Imperial: rule 6 as it read at submission
    extensions: int  # extensions by mail (variants/extensions.py)
    requests: dict[str, Any]  # player -> a deadline request waiting for the GM
    takeover_extended: bool  # moved once for a seat taken over (variants/substitutes.py)
    decidable: str  # BlogNomic: when the GM's [Deadline] lets it be decided on the votes cast
    # BlogNomic proposals
    self_killed: bool
    vetoed: bool
    withdrawn: bool


class Turn(TypedDict, total=False):
    number: Required[int]
    player: str | None  # Nomic: the mover
    deadline: str | None
    started: str
    reminded: bool
    proposal: int | None  # Sidekick: the mover's proposal
    closed: str  # orders games: when the turn closed
    awaiting_results: bool  # a GM-adjudicated turn waits for [Results]
    before: str | None  # Sidekick: the player before a mover who left, for the next turn
    last: str | None  # Sidekick: the mover of a turn that ended with no mover
    extensions: int  # extensions by mail (variants/extensions.py)
    requests: dict[str, Any]  # player -> a deadline request waiting for the GM
    takeover_extended: bool  # moved once for a seat taken over (variants/substitutes.py)


class Rule(TypedDict, total=False):
    number: Required[str]  # "12", "2.3"
    title: str
    text: str
    type: str  # Imperial, as shown: A (always) or B (while a playtest runs)
    inactive: bool  # Imperial, as shown: a B rule with no playtest running
    section: str  # BlogNomic: the ruleset's section (core, dynastic, ...)


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
    used: NotRequired[str]  # the mail whose [Update] used it (mechanics/named_rolls.py)


class Alteration(TypedDict):
    """One value of the gamestate changed: by whom, when, why and from which mail."""

    at: str
    by: str
    player: str  # whose value
    column: str  # the column's name
    old: Any
    new: Any
    why: str
    source: str


class Gamestate(TypedDict):
    """The per-player values the rules declare (engine/mechanics/columns.py), as a table."""

    columns: list[dict[str, Any]]  # `columns.Column`
    values: dict[str, dict[str, Any]]  # player -> column slug -> value
    log: list[Alteration]  # the latest alterations, newest last
    trades: NotRequired[list[dict[str, Any]]]  # offers (mechanics/trades.py), open or closed


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
    taken: NotRequired[dict[str, Any]]  # {"day", "count"} of newcomers taken in (joins_per_day)
    # the GM's mail past the day's allowance: the day it was reached, and what waits
    # ({"due", "items"}, variants/waiting.py)
    gm_capped_on: NotRequired[str]
    gm_waiting: NotRequired[dict[str, Any]]
    # joins waiting for their confirmation, and confirmed ones for the GM (variants/joining.py)
    joining: NotRequired[list[dict[str, Any]]]
    awaiting_gm: NotRequired[list[dict[str, Any]]]
    # each holder's turns played, missed and late, and time away (variants/record.py)
    records: NotRequired[dict[str, dict[str, Any]]]
    # who watches the game, and the requests to watch awaiting a reply (variants/watching.py)
    watchers: NotRequired[list[dict[str, Any]]]
    watch_asked: NotRequired[list[dict[str, Any]]]
    preview: NotRequired[dict[str, Any]]  # a resolved turn the GM previews (variants/preview.py)
    # a game made from a ruleset file: its mechanics, parameter bindings, coded rules, noun
    ruleset: NotRequired[dict[str, Any]]
    # a game imported from a file: the journal entries it had where it ran before, which its
    # dice draws count on from (engine/dice.py `drawn_as`)
    entries_before: NotRequired[int]
    gamestate: NotRequired[Gamestate]  # the columns a ruleset declares (mechanics/gamestate.py)


class SidekickState(GameState):
    """Nomic Sidekick Nomic's state: judgements numbered apart, and the victory checks."""

    next_judgement: NotRequired[int]
    score_checks: NotRequired[int]  # victory checks so far: the clock of `score_levels`


class BlogNomicState(GameState):
    """BlogNomic's state: its dynasties, their Historian and theme, DoVs and Dormancy."""

    historian: NotRequired[str | None]
    dynasty: NotRequired[int]
    theme: NotRequired[str | None]
    ascension_pending: NotRequired[bool]
    dov_cooldown: NotRequired[dict[str, str]]
    terms: NotRequired[dict[str, str]]
    dormant: NotRequired[bool]


class OrdersState(GameState):
    """An orders game's state: this turn's orders and the turns resolved."""

    orders: NotRequired[dict[str, dict[str, Any]]]
    history: NotRequired[list[dict[str, Any]]]
    endings: NotRequired[list[dict[str, Any]]]  # draws and concessions (variants/agreed_end.py)


class EireState(OrdersState):
    """Eire's state: the map's lands, each player's grain, the High King."""

    lands: NotRequired[list[dict[str, Any]]]
    grain: NotRequired[dict[str, int]]
    high_king: NotRequired[str | None]


class VoteLine(TypedDict):
    """One ballot of a [Vote] action, as read from the mail."""

    number: int
    vote: str
    word: str
    line: str
    reason: NotRequired[str]  # the words after the vote


class _Acting(TypedDict, total=False):
    """What any action may carry besides its own keys: who and how."""

    player: str | None  # the sender's player name
    by: str  # the admin who gave the command
    by_label: str
    reason: str
    capped: bool  # counted against the daily limits (mail only)
    source: str
    mailed: dict[str, int]  # player -> the game's mails to them today (SPEC §2.2), journaled
    mailed_gm: int  # the game's mails to its GM today, journaled the same way
    ignored: list[Any]  # lines of the mail set aside, told to the sender


class JoinAction(_Acting, total=False):
    type: Required[Literal["join"]]
    name: Required[str]
    address: Required[str]  # the sender's address
    choices: dict[str, str]  # Eire: Color, Tribe, Land of a joining player
    more: list[str]  # further addresses of a player the admin adds
    name_keys: list[str]  # the name folded for look-alike letters
    token: str  # the confirmation code, given when the join is kept


class ConfirmAction(_Acting, total=False):
    type: Required[Literal["confirm"]]
    address: Required[str]
    tokens: Required[list[str]]  # the codes the confirmation names
    consents: bool  # its own words say yes, or carry the code (older journals: unset)


class ProposalAction(_Acting, total=False):
    type: Required[Literal["propose"]]
    title: Required[str]
    text: Required[str]
    changes: Required[list[dict[str, Any]]]  # as `ruleset.RuleChange.as_dict()`


class VoteAction(_Acting, total=False):
    type: Required[Literal["vote"]]
    ballots: Required[list[VoteLine]]


class JudgementAction(_Acting, total=False):
    """A CfJ, a Point of Order or a DoV (`kind` says which of the first two)."""

    type: Required[Literal["cfj", "dov"]]
    question: str
    text: str
    kind: str  # cfj | point-of-order
    title: str
    changes: list[dict[str, Any]]
    effects: list[Any]  # effect lines, carried out when it is upheld
    asker_not_judge: bool  # the asker is never the judge (journaled: older CfJs replay alike)


class SettingsAction(_Acting, total=False):
    type: Required[Literal["settings"]]
    values: Required[dict[str, Any]]
    unsubscribe: bool  # from the one-click unsubscribe


class OrdersAction(_Acting, total=False):
    type: Required[Literal["orders"]]
    sentences: list[str]  # bold orders
    loose: list[str]  # lines not bold that may be orders, told to the author
    text: str


OtherType = Literal[
    "approve",
    "ascension",
    "away",
    "back",
    "column",
    "concede",
    "deadline",
    "deadline_answer",
    "deadline_request",
    "decide",
    "dice_reveal",
    "digest",
    "directive",
    "draw",
    "end_vote",
    "forfeit",
    "help",
    "historian",
    "history",
    "idle",
    "judge",
    "office",
    "pause",
    "player_add",
    "player_remove",
    "player_status",
    "playtest",
    "press",
    "proclamation",
    "publish",
    "quit",
    "results",
    "resume",
    "roll",
    "rule",
    "rules",
    "ruling",
    "score",
    "set",
    "start",
    "stats",
    "status",
    "takeover",
    "tick",
    "trade",
    "transfer",
    "undo",
    "unidle",
    "unwatch",
    "update",
    "vacate",
    "vote_override",
    "watch",
    "watch_confirm",
    "withdraw",
]


class OtherAction(_Acting, total=False):
    """Every other action: `type` names its handler, the other keys are those it reads."""

    type: Required[OtherType]
    address: str  # the sender's address
    name: str
    more: list[str]
    name_keys: list[str]
    # what a mail says
    title: str
    text: str
    question: str
    changes: list[dict[str, Any]]
    sentences: list[str]
    effects: list[Any]
    ballots: list[VoteLine]
    lines: list[dict[str, Any]]  # `update`: the alterations, one a line
    give: str  # `trade`: the item offered
    take: str  # `trade`: the item asked for
    answer: str  # `trade`: "decline" (the one offered) or withdraw (the one who offered)
    number: int
    kind: str
    dice: str
    why: str
    to: str
    theme: str
    fields: dict[str, Any]  # `column`: kind, bounds, default; others: `Key: value` lines
    verdict: str
    # what an admin says
    values: dict[str, Any]  # `set`
    key: str  # `bind`: the parameter
    rule: str  # `bind`: the rule stating it
    shipped: dict[str, Any]  # `bind` in a shipped Nomic's game: the table's bindings it takes on
    office: str
    holder: str | None
    status: str  # `player_status`
    entries: list[int]  # `undo`: the journal entries voided
    op: str  # `score`: = + -
    amount: int | str
    outcome: str  # `decide`: enact | fail | veto
    reopen: bool  # `decide`: reverse a result the referee closed
    vote: str  # `vote_override`
    extend: str  # `deadline`, `deadline_request`
    when: str
    at: str  # `deadline` by mail: "Fri 18:00", read in the GM's zone
    gm: bool  # by mail from the game's GM, else the admin (`deadline`, `pause`, `publish`)
    ok: bool  # `deadline_answer`: the GM grants the request waiting
    dates: str  # `away`: "until 6 Jan", "24 Dec to 6 Jan"
    on: bool  # Imperial `playtest`: on or off
    bounded: bool  # `ruling`: score lines past rule 4's penalty wait for the GM
    seat: str  # `takeover`: the open seat the newcomer takes
    elsewhere: dict[str, int]  # `stats`: the holder's figures summed over the host's other games
    token: str  # `watch`, `takeover`: the confirmation code, given when the request is kept
    tokens: list[str]  # `watch_confirm`: the codes the reply names
    consents: bool  # `watch_confirm`: its own words say yes
    recipients: list[str]  # `press`: the players it is for ("all": every other player)
    grey: bool  # `press`: without the sender's name
    names: list[str]  # `draw`: the players who share the game (none: every survivor)


# What is applied to a game: from a mail (by its handler), a deadline (`tick`), or an admin
# (`by` set). The common actions have types of their own, told apart by `type`.
Action = (
    JoinAction
    | ConfirmAction
    | ProposalAction
    | VoteAction
    | JudgementAction
    | SettingsAction
    | OrdersAction
    | OtherAction
)

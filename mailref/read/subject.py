"""The subject line: reply/forward prefixes, a list's own [tag], the command tag and the
number of the matter a reply is about ("Re: [Proposal 12] Title")."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Reply and forward prefixes in the common languages, repeated and mixed: "Re: AW: Fwd[2]:".
_PREFIX = re.compile(
    # Also Italian RIF, Hungarian Vá/Továbbítás, Dutch Doorst, Latvian Atb., Greek ΑΠ/ΣΧΕΤ/ΠΡΘ,
    # Russian Ответ/Отв, Chinese 回复/答复/转发 (full-width colon too).
    r"^\s*(re|fwd?|fw|aw|wg|sv|vs|vb|tr|rv|res|enc|antw|antwort|odp|r|ynt|ref|rif|vá|továbbítás|doorst|atb\.?"
    r"|απ|σχετ|πρθ|ответ|отв|回复|答复|转发)\s*(\[\d+\]|\(\d+\))?\s*[:：]\s*",
    re.I,
)

# Those of the prefixes that mark a forward (German WG, French TR, Portuguese ENC, Spanish RV,
# Swedish VB, Dutch Doorst, Hungarian Továbbítás, Greek ΠΡΘ, Chinese 转发); VS is a reply in
# Finnish, a forward in Danish: read as a reply.
_FORWARD = {"fwd", "fw", "wg", "tr", "enc", "rv", "vb", "doorst", "továbbítás", "πρθ", "转发"}

# Canonical command tags and the words people write for them.
TAGS: dict[str, str] = {
    "join": "join",
    "confirm": "confirm",  # the answer to a join's confirmation (SPEC §2.3)
    "approve": "approve",  # the GM takes in a confirmed join
    "vacate": "vacate",  # the GM opens a seat to a substitute
    "score": "score",  # the GM changes a player's score
    "rule": "rule",  # the GM corrects the ruleset ([Rules] reads it)
    "undo": "undo",  # the GM voids journal entries
    "set": "set",  # the GM changes the game's settings ([Settings] are a player's own)
    "decide": "decide",  # the GM enacts or fails a proposal
    "override": "override",  # the GM records a player's vote
    "office": "office",  # the GM names an office's holder
    "takeover": "takeover",  # a newcomer takes an open seat
    "take over": "takeover",
    "history": "history",  # the game's results so far
    "stats": "stats",  # a player's record
    "watch": "watch",  # follow a game without playing it
    "unwatch": "unwatch",
    "press": "press",  # words to some players through the referee (orders games)
    "draw": "draw",  # end the game shared, by every survivor's yes
    "concede": "concede",
    "proposal": "proposal",
    "propose": "proposal",
    "vote": "vote",
    "votes": "vote",
    "ballot": "vote",
    "cfj": "cfj",
    "judgement": "cfj",
    "judgment": "cfj",
    "call for judgement": "cfj",
    "call for judgment": "cfj",
    "point of order": "point-of-order",
    "ruling": "ruling",
    "dov": "dov",
    "declaration of victory": "dov",
    "ascension": "ascension",
    "judge": "judge",
    "proclamation": "proclamation",
    "directive": "directive",
    "orders": "orders",
    "order": "orders",
    "results": "results",
    "forfeit": "forfeit",
    "publish": "publish",
    "withdraw": "withdraw",
    "away": "away",
    "back": "back",
    "returned": "back",
    "idle": "idle",
    "unidle": "unidle",
    "roll": "roll",
    "update": "update",  # an alteration of the gamestate (mechanics/gamestate.py)
    "gndt": "update",
    "trade": "trade",
    "transfer": "transfer",
    "column": "column",
    "status": "status",
    "rules": "rules",
    "ruleset": "rules",
    "help": "help",
    "quit": "quit",
    "settings": "settings",
    "setting": "settings",
    "deadline": "deadline",
    "extension": "deadline",
    "leave": "quit",
    "playtest": "playtest",
    "historian": "historian",
    "turn": "turn",  # the game's own turn mail, "[Turn 3] Your move": only ever met in a reply
}
# Tags that, carrying a number, name the matter a reply is about.
_MATTER = {"proposal", "cfj", "point-of-order", "dov", "vote", "ruling", "judge", "withdraw"}

_LEAD_NUMBER = re.compile(
    r"[:\s]*(?:on\s+)?(?:(?:proposal|prop\.?|p|cfj|dov)\s*)?#?(\d+)\b[\s:.-]*", re.I
)
_BRACKET = re.compile(r"^\s*\[([^\]]{1,60})\]\s*")
# "Bob is away.", "Bob is away until 6 Jan" (the dates are the subject's rest).
_AWAY = re.compile(
    r"^\s*(?P<name>.+?)\s+is\s+away(?:\s+(?P<rest>(?:until|till|til|through|from|for)\b.*?))?"
    r"\.?\s*$",
    re.I,
)
_RETURNED = re.compile(r"^\s*(?P<name>.+?)\s+has\s+returned\.?\s*$", re.I)


@dataclass(frozen=True)
class Subject:
    raw: str
    tag: str | None  # canonical tag, e.g. "proposal"
    number: int | None  # "[Proposal 12]" or "[Vote] 12" -> 12
    rest: str  # what follows the tag: a title, a question, "d6"
    is_reply: bool
    name: str | None = None  # "NAME is away" / "NAME has returned"
    unknown: str | None = None  # a leading "[Word]" that is no command (for "did you mean")
    forwarded: bool = (
        False  # the outermost prefix is a forward's ("Fwd: Re: [Proposal 3]"), not a reply's
    )
    label: str | None = (
        None  # a leading "[Label]" before the command tag, not this game's (another game's?)
    )


def _forward(subject: str) -> bool:
    m = _PREFIX.match(subject)
    return m is not None and m.group(1).lower() in _FORWARD


def strip_prefixes(subject: str) -> tuple[str, bool]:
    s, replied = subject.strip(), False
    while True:
        m = _PREFIX.match(s)
        if not m:
            return s, replied
        s, replied = s[m.end() :], True


def reply_subject(subject: str) -> str:
    """The subject of an answer: "Re: " and the subject without its reply prefixes, as mail
    clients write it ("AW: SV: RE : [X] Title" -> "Re: [X] Title"). A forward's prefix stays
    ("Re: Fwd: …"): the answer is to the forwarded mail."""
    s = subject.strip()
    while (m := _PREFIX.match(s)) and m.group(1).lower() not in _FORWARD:
        s = s[m.end() :]
    return f"Re: {s or '(no subject)'}"


def game_label(name: str, slug: str) -> str:
    """How every subject a game sends names it: "[Nomes] [Proposal 12] Title" (SPEC §2.6)."""
    label = " ".join(str(name or "").replace("[", "(").replace("]", ")").split())
    return label if 0 < len(label) <= 40 else slug


def with_game_label(subject: str, label: str) -> str:
    """SUBJECT with "[LABEL] " after its Re:/Fwd: prefixes, unless a leading tag names it."""
    # Stripped first: the prefixes are measured off the end, and a subject cut to 200 characters
    # for a reply ends in a space, which put the label inside the first word ("Re: B[Nomes] UY").
    subject = subject.strip()
    s, _ = strip_prefixes(subject)
    head = subject[: len(subject) - len(s)]
    rest = s
    while m := _BRACKET.match(rest):
        if m.group(1).strip().lower() == label.lower():
            return subject
        rest, _ = strip_prefixes(rest[m.end() :])  # "[list] Re: [Nomes] …" names it already
    return f"{head}[{label}] {s}".strip()


def parse_subject(
    subject: str, list_tags: tuple[str, ...] = (), game_tags: tuple[str, ...] = ()
) -> Subject:
    """GAME_TAGS: the game's own labels (name, slug), stripped even when they spell a command."""
    raw = " ".join(
        (subject or "")[:2000].split()
    )  # a subject past 2,000 characters is not a command
    s, replied = strip_prefixes(raw)
    forwarded = _forward(raw)
    games = {t.lower() for t in game_tags}
    unknown = None
    for _ in range(4):  # "[list] Re: [Nomes] [Proposal 3]": list and game tags before the command
        m = _BRACKET.match(s)
        if not m:
            break
        inner = m.group(1).strip()
        word = re.sub(r"[\s#:.]*\d+$", "", inner).strip().lower()
        if word in TAGS and inner.lower() not in games:
            break
        if list_tags and inner.lower() not in games | {t.lower().strip("[]") for t in list_tags}:
            break
        if inner.lower() not in games and unknown is None:
            unknown = inner
        forwarded = forwarded or not replied and _forward(s[m.end() :].lstrip())  # "[list] Fwd: …"
        s, more = strip_prefixes(s[m.end() :])
        replied = replied or more
    m = _BRACKET.match(s)
    if m:
        inner = m.group(1).strip()
        num = re.search(r"[\s#:.]*(\d+)$", inner)
        word = (inner[: num.start()] if num else inner).strip().lower()
        tag = TAGS.get(word)
        if tag:
            rest = s[m.end() :].strip()
            number = int(num.group(1)) if num else None
            if number is None and tag in _MATTER and (tag != "proposal" or replied):
                # "[Vote] 12", "[Vote]: 6", "[Vote] Proposal 1", "[Vote] P6", "[Vote] on #6"; but
                # "[Proposal] 3 strikes rule" is a title (only a reply's number names a matter).
                lead = _LEAD_NUMBER.match(rest)
                if lead:
                    number, rest = int(lead.group(1)), rest[lead.end() :].strip()
            return Subject(raw, tag, number, rest, replied, forwarded=forwarded, label=unknown)
    if m := _AWAY.match(s):
        return Subject(
            raw,
            "away",
            None,
            m.group("rest") or "",
            replied,
            name=m.group("name").strip("[]\"' "),
            forwarded=forwarded,
        )
    if m := _RETURNED.match(s):
        return Subject(
            raw,
            "back",
            None,
            "",
            replied,
            name=m.group("name").strip("[]\"' "),
            forwarded=forwarded,
        )
    return Subject(raw, None, None, s, replied, unknown=unknown, forwarded=forwarded)


_BARE = re.compile(
    r"^\s*(?P<word>[^\W\d_][^\W\d]*(?: [^\W\d]+){0,3}?)\s*(?:[:：]\s*(?P<rest>.*))?$"
)


def bare_command(rest: str) -> str | None:
    """ "Proposal: Caps" -> "[Proposal] Caps", "Status" -> "[Status]": a command word written
    without its brackets, for the hint of the help that answers a subject with no tag."""
    m = _BARE.match(rest[:200])
    if not m or m.group("word").lower() not in TAGS:
        return None
    return f"[{m.group('word')}]" + (
        f" {m.group('rest').strip()}" if (m.group("rest") or "").strip() else ""
    )


def no_tag(rest: str) -> str:
    """Why a mail to a game gets the help: its subject has no tag (and what it may have meant)."""
    meant = bare_command(rest)
    if meant:
        return (
            f'I found no command tag in your subject: did you mean "{meant}"? A command\'s tag '
            "goes in square "
            "brackets at the start of the subject. Here is the help."
        )
    return "I found no command tag in your subject, so here is the help."

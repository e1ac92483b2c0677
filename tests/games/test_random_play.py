"""Random mail against every variant, as a crowd of careless players, a GM and a stranger
would send it: proposals of every kind of rule change and of none, ballots in many words,
judgements, orders (sensible and not), joins, quits, absences, withdrawals, with days passing
and deadlines firing. Whatever comes, no mail may fail in processing (a quarantined mail is a
bug), and every game must replay from its journal to its live state. Fixed seeds: a failure
is the same failure on every run."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from mailref.store import InboxMessage
from support.declared import assert_declared
from support.helpers import Clock, assert_replays, mail, make_referee
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("5")

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]
GM = "gm@ref.example"
STEPS = 150
WORDS = [
    "FOR",
    "AGAINST",
    "ABSTAIN",
    "DEFERENTIAL",
    "VETO",
    "YES",
    "NO",
    "for",
    "**FOR**",
    "Aye",
    "+1",
    "I vote FOR",
    "against.",
    "FOR 1, AGAINST 2",
    "",
]
LANDS = ["Ardagh", "Donal", "Llanc", "Tara", "Bain", "Emain", "Bréifne", "Nowhere"]
EIRE_JOIN = {
    "Ann": "Color: Green\nTribe: Sidhe\nOrigin: Ardagh",
    "Bob": "Color: Red\nTribe: Plainsmen\nOrigin: Donal",
    "Cat": "Color: Gold\nTribe: Merfolk\nOrigin: Llanc",
    "Dan": "Color: Teal\nTribe: Woodkin\nOrigin: Tara",
    "Eve": "Color: Blue\nTribe: Sidhe\nOrigin: Bain",
}
TAGS = {
    "sidekick": [
        "[Proposal] Idea",
        "[Vote] {n}",
        "Re: [Proposal {n}] Idea",
        "[CfJ] Is it?",
        "[Ruling] {j}",
        "[Forfeit]",
        "[Withdraw] {n}",
        "[Away]",
        "[Back]",
        "[Roll] d6",
        "[Status]",
        "[Rules]",
        "[Quit]",
        "[Join]",
    ],
    "blognomic": [
        "[Proposal] Idea",
        "[Vote] {n}",
        "Re: [Proposal {n}] Idea",
        "[CfJ] Is it?",
        "[DoV]",
        "[Ascension] Pirates",
        "[Idle]",
        "[Unidle]",
        "[Withdraw] {n}",
        "[Status]",
        "[Quit]",
        "[Join]",
    ],
    "imperial": [
        "[Proposal] Idea",
        "[Vote] {n}",
        "Re: [Proposal {n}] Idea",
        "[Judge] {n}",
        "[Proclamation] Roads",
        "[Directive] Go",
        "[CfJ] Is it?",
        "[Status]",
        "[Quit]",
        "[Join]",
        "[Playtest] start",
        "[Playtest] end",
    ],
    "eire": ["[Orders]", "[Orders]", "[Status]", "[Quit]", "[Join]", "[Away]", "[Back]"],
    "orders": ["[Orders]", "[Orders]", "[Results]", "[Status]", "[Quit]", "[Join]"],
}


def address(name: str) -> str:
    return f"{name.lower()}@x.org"


def proposal_text(rng: random.Random, n: int) -> str:
    r = rng.randint(1, 40)
    return rng.choice(
        [
            f'Enact rule {100 + n} "Idea {n}":\nPlayers may hum {n} times.\n',
            f"Amend rule {r} to read:\nEverything is {n}.\n",
            f"Repeal rule {r}.\n",
            f'Retitle rule {r} to "T{n}".\n',
            f"Transmute rule {r}.\n",
            "We should all be nicer.\n",
        ]
    )


def orders_text(rng: random.Random) -> str:
    return "\n".join(
        f"**{rng.choice(['Invest', 'Attack', 'Defend'])} {rng.randint(0, 60)} Grain in "
        f"{rng.choice(LANDS)}**"
        if rng.random() < 0.5
        else f"**Attack {rng.choice(LANDS)} with {rng.randint(0, 60)} Grain**"
        for _ in range(rng.randint(1, 4))
    )


def body_of(rng: random.Random, subject: str, n: int, variant: str, i: int) -> str:
    tag = subject.split(" ")[0] if not subject.startswith("Re:") else "[Vote]"
    if tag == "[Proposal]":
        return proposal_text(rng, n)
    if tag == "[Vote]":
        return rng.choice(WORDS) + ("\n\n> FOR\n" if rng.random() < 0.2 else "")
    if tag == "[Orders]":
        return orders_text(rng)
    if tag == "[Ruling]":
        return rng.choice(["TRUE", "FALSE", "It is so.", "UPHELD"])
    if tag == "[Judge]":
        return rng.choice(["ACCEPT", "VETO", "IGNORE", "maybe"])
    if tag == "[Join]":
        return f"Name: New{i}" + (
            "\n" + rng.choice(list(EIRE_JOIN.values())) if variant == "eire" else ""
        )
    return rng.choice(["", "hello", "**x**", "Turn results: everyone held.\n"])


@pytest.mark.parametrize("variant", sorted(TAGS))
def test_random_mail_never_fails_and_every_game_replays(variant, tmp_path):
    rng = random.Random(f"{variant}-9")
    clock = Clock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    r = make_referee(tmp_path, clock, seed=9)
    game = f"{variant}@ref.example"
    r.create_game(
        "g",
        variant,
        game,
        gm=GM,
        parameters={"communion": "2", "start_grain": "100"} if variant == "eire" else {},
    )
    for name in NAMES:
        extra = "\n" + EIRE_JOIN[name] if variant == "eire" else ""
        r.accept(
            mail(address(name), game, "[Join]", f"Name: {name}{extra}"),
            "smtp",
            address(name),
            [game],
        )
        confirm_waiting(r)
    if variant in ("eire", "orders"):
        r.admin("g", {"type": "start"}, "gm")
    for i in range(STEPS):
        state = r.state("g")
        numbers = [p["number"] for p in state.get("proposals", [])] or [1]
        judgements = [j["number"] for j in state.get("judgements", [])] or [1]
        who = rng.choice([*NAMES, "gm", "stranger"])
        mover = (state.get("turn") or {}).get("player")
        if mover and rng.random() < 0.4:
            who = mover
        sender = GM if who == "gm" else "x@evil.example" if who == "stranger" else address(who)
        subject = rng.choice(TAGS[variant]).format(
            n=rng.choice(numbers[-5:]), j=rng.choice(judgements[-3:])
        )
        body = body_of(rng, subject, state.get("next_number", 1), variant, i)
        r.accept(mail(sender, game, subject, body), "smtp", sender, [game])
        if rng.random() < 0.15:
            clock.advance(hours=rng.choice([1, 6, 12, 24, 49]))
            r.tick()
    with r.store() as s:
        failed = [
            (m.id, m.subject, m.verdict[:300])
            for m in s.scalars(select(InboxMessage).where(InboxMessage.status == "failed"))
        ]
    assert failed == []
    assert_replays(r)
    assert_declared(r)

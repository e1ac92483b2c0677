"""Dice players can check: each seed's SHA-256 is published before its rolls, the seed is
revealed later, and every roll recomputes from it (HMAC-SHA256 of the seed over the journal
entry and the draw's place, with rejection sampling)."""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import hmac
import io
import json
import re

import pytest
from sqlalchemy import select

from mailref.cli.dice import cmd_dice_verify
from mailref.cli.games import cmd_game_show
from mailref.store import Game, JournalEntry
from support.helpers import Outbox, assert_replays
from support.joining import confirm_waiting
from support.play import addr, send

pytestmark = pytest.mark.spec("4.4")

EIRE = "eire@ref.example"
NOMIC = "nomes@ref.example"
_SHA = re.compile(r"SHA-256 (?:is )?([0-9a-f]{64})")
_SEED = re.compile(r"seed (\d+) is revealed: ([0-9a-f]{64})")


def derived(seed: str, seq: int, index: int, lo: int, hi: int) -> int:
    """The documented derivation, written out again here: what a player would compute."""
    n, space = hi - lo + 1, 1 << 256
    for attempt in range(100):
        x = int.from_bytes(
            hmac.new(
                bytes.fromhex(seed),
                f"mailref-dice:{seq}:{index}:{attempt}".encode(),
                hashlib.sha256,
            ).digest(),
            "big",
        )
        if x < space - space % n:
            return lo + x % n
    raise AssertionError("no draw in 100 attempts")


def verify(referee, slug: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cmd_dice_verify(referee, argparse.Namespace(slug=slug), "gm")
    return code, out.getvalue()


def entries_with_draws(referee, slug: str) -> list[tuple[int, list[int]]]:
    with referee.store() as s:
        gid = s.scalar(select(Game.id).where(Game.slug == slug))
        return [
            (q, d)
            for q, d in s.execute(
                select(JournalEntry.seq, JournalEntry.draws)
                .where(JournalEntry.game_id == gid)
                .order_by(JournalEntry.seq)
            )
            if d
        ]


def body(msg) -> str:
    return Outbox.body(msg).replace("\r\n", "\n")


def play_eire(referee, gm_preview: bool = False) -> None:
    referee.rng = None  # the random source a server runs with: the game's seed chain
    params = {
        "turn_length": "1d",
        "start_grain": "20",
        **({"gm_preview": "on"} if gm_preview else {}),
    }
    referee.create_game("eire", "eire", EIRE, gm="gm@ref.example", parameters=params)
    for name, color, origin in (("alice", "Red", "Donal"), ("bob", "Gold", "Llanc")):
        send(
            referee,
            name,
            "[Join]",
            f"Name: {name.title()}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}",
            to=EIRE,
        )
        confirm_waiting(referee)
    referee.admin("eire", {"type": "start"}, "gm")


def attack_targets(referee, name: str) -> list[str]:
    state = referee.state("eire")
    mine = [x for x in state["lands"] if x["owner"] == name]
    return sorted(
        {
            n
            for x in mine
            if x["output"] >= 5
            for n in x["neighbours"]
            if next(y for y in state["lands"] if y["name"] == n)["owner"] is None
        }
    )


def test_eire_rolls_come_from_a_committed_seed_revealed_with_the_results(referee, outbox):
    """The turn mail gives the seed's SHA-256; the results mail reveals the seed, which hashes to
    it, and every d10 in the results recomputes from it; the next turn mail commits a new seed."""
    play_eire(referee)
    turn1 = [m for m in outbox.to(addr("alice"), kind="turn")][-1]
    committed = _SHA.findall(body(turn1))
    assert committed, body(turn1)
    a = attack_targets(referee, "Alice")[:2]
    b = [x for x in attack_targets(referee, "Bob") if x not in a][:1]
    send(
        referee,
        "alice",
        "[Orders]",
        f"**Attack {a[0]} with 8 Grain**\n**Attack {a[1]} with 8 Grain**",
        to=EIRE,
    )
    send(referee, "bob", "[Orders]", f"**Attack {b[0]} with 10 Grain**", to=EIRE)
    results = body(outbox.to(addr("alice"), kind="results")[-1])
    seed_no, seed = _SEED.search(results).groups()
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == committed[0], results
    rolls = [int(x) for x in re.findall(r"d10 (\d+)", results)]
    assert len(rolls) == 6, results  # three combats, a d10 for each side
    [(seq, draws)] = entries_with_draws(referee, "eire")
    assert draws == rolls
    assert [derived(seed, seq, i, 1, 10) for i in range(6)] == rolls
    turn2 = body([m for m in outbox.to(addr("alice"), kind="turn")][-1])
    nxt = _SHA.findall(turn2)[0]
    assert nxt != committed[0] and f"whose SHA-256 is {nxt}" in results
    code, out = verify(referee, "eire")
    assert code == 0 and "6 draws recomputed from revealed seeds: all match." in out, out
    assert_replays(referee)


@pytest.mark.parametrize("variant", ["blognomic", "sidekick", "imperial"])
def test_nomic_rolls_recompute_once_the_admin_reveals_the_seed(referee, outbox, variant):
    """[Roll] in each Nomic that rolls: each roll's announcement names the seed it came from
    and its SHA-256 (the join ack no longer carries it: it is said where dice are rolled, and
    on the site); `dice reveal` tells every player the seed, and `dice verify` recomputes
    every roll (the turn order drawn in Sidekick too)."""
    referee.rng = None
    referee.create_game("g", variant, NOMIC, gm="gm@ref.example")
    for n in ("alice", "bob", "carol"):
        send(referee, n, "[Join]", f"Name: {n.title()}")
        confirm_waiting(referee)
    join_ack = body(outbox.to(addr("alice"), kind="ack")[0])
    assert "SHA-256" not in join_ack, join_ack
    send(referee, "bob", "[Roll] 3d6", "for the weather")
    send(referee, "carol", "[Roll] DICE20")
    told = body(outbox.to(addr("alice"), kind="announcement")[-1])
    committed = _SHA.findall(told)[0]
    code, out = verify(referee, "g")
    assert code == 0 and "not revealed yet" in out, out
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        cmd_game_show(referee, argparse.Namespace(slug="g", json=True), "gm")
    chain = json.loads(shown.getvalue())["dice"]
    assert (
        chain["next_sha256"] == committed and chain["seeds"][0]["seed"] is None
    )  # the secret stays so
    assert referee.admin("g", {"type": "dice_reveal"}, "gm").ok
    reveal = body(outbox.to(addr("alice"), kind="announcement")[-1])
    seed = _SEED.search(reveal).group(2)
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == committed
    rolls = entries_with_draws(referee, "g")
    bob_rolls = next(d for q, d in rolls if len(d) == 3)
    bob_seq = next(q for q, d in rolls if len(d) == 3)
    assert [derived(seed, bob_seq, i, 1, 6) for i in range(3)] == bob_rolls
    code, out = verify(referee, "g")
    n = sum(len(d) for _, d in rolls)
    assert code == 0 and f"{n} draws recomputed from revealed seeds: all match." in out, out
    assert "not revealed" not in out.split("seed 2")[0]
    assert_replays(referee)


def test_a_tampered_draw_fails_verification(referee, outbox):
    """A recorded roll that its seed does not give is named, and `dice verify` exits 1."""
    referee.rng = None
    referee.create_game("g", "blognomic", NOMIC, gm="gm@ref.example")
    send(referee, "alice", "[Join]", "Name: Alice")
    confirm_waiting(referee)
    send(referee, "alice", "[Roll] d100")
    referee.admin("g", {"type": "dice_reveal"}, "gm")
    with referee.store() as s, s.begin():
        entry = next(e for e in s.scalars(select(JournalEntry)) if e.draws)
        seq, true = entry.seq, entry.draws
        entry.draws = [true[0] % 100 + 1]
    code, out = verify(referee, "g")
    assert code == 1 and "do NOT match" in out and f"entry {seq}" in out, out
    with referee.store() as s, s.begin():  # the journal as it was, for the replay after the test
        next(e for e in s.scalars(select(JournalEntry)) if e.seq == seq).draws = true


def test_rolls_made_before_the_seed_chain_are_said_unverifiable(referee, outbox):
    """A game whose earlier draws came from a random source without a chain keeps them (replay
    uses them) and `dice verify` says they cannot be checked."""
    referee.create_game("g", "blognomic", NOMIC, gm="gm@ref.example")
    send(referee, "alice", "[Join]", "Name: Alice")
    confirm_waiting(referee)
    send(referee, "alice", "[Roll] d6")  # drawn from the injected source: no seed
    referee.rng = None
    send(referee, "alice", "[Roll] d6")
    referee.admin("g", {"type": "dice_reveal"}, "gm")
    code, out = verify(referee, "g")
    assert (
        code == 0
        and "1 draws recomputed" in out
        and "1 older draws" in out
        and "unverifiable" in out
    ), out
    assert_replays(referee)

"""A plain Reply to the game's own turn mail keeps its tag, [Turn N] (SPEC §2.5), through real
SMTP sessions: in an orders game (Eire) the reply's bold lines are the player's orders, HTML
or plain, quote removed; in Sidekick the reply is answered with how to move, naming the
game's own commands. A misspelt tag's hint names this game's commands, never [Vote] in Eire."""

from __future__ import annotations

import pytest

from support.helpers import EIRE_PLAYERS, Outbox, mail, player_addr
from support.joining import confirm_waiting
from support.listener import listening, submit

pytestmark = pytest.mark.spec("2.5")

EIRE, NOMES = "eire@ref.example", "nomes@ref.example"
PLAYERS, addr = EIRE_PLAYERS, player_addr


@pytest.fixture
def host(referee):
    referee.create_game(
        "eire",
        "eire",
        EIRE,
        name="Eire Autumn",
        gm="gm@ref.example",
        parameters={"start_grain": "20"},
    )
    referee.create_game("nomes", "sidekick", NOMES, name="Nomes")
    with listening(referee) as port:
        yield lambda raw, frm, to: submit(port, frm, [to], raw)


def reply(to_msg, frm: str, body: str, html: str | None = None) -> bytes:
    """A mail client's Reply: Re: the subject, threaded, the original quoted below."""
    quoted = "\n".join("> " + line for line in Outbox.body(to_msg).splitlines())
    return mail(
        frm,
        str(to_msg["From"]),
        "Re: " + str(to_msg["Subject"]),
        f"{body}\n\n{quoted}\n",
        in_reply_to=to_msg["Message-ID"],
        html=html,
    )


def test_a_reply_to_the_eire_turn_mail_is_read_as_orders(referee, outbox, host):
    for name, choices in PLAYERS.items():
        host(mail(addr(name), EIRE, "[Join]", f"Name: {name}\n{choices}\n"), addr(name), EIRE)
        confirm_waiting(referee)
    assert referee.admin("eire", {"type": "start"}, "gm").ok
    turn = outbox.to(addr("Finn"), kind="turn")[-1]
    assert "[Turn 1]" in str(turn["Subject"])
    box = Outbox(referee)
    box.new()
    # Gmail: HTML with the bold order, the turn mail quoted in a gmail_quote block
    html = (
        '<div dir="ltr"><b>Invest 5 Grain in Llanc</b><br>Good luck all.</div>'
        '<div class="gmail_quote"><b>Attack Donal with 20 Grain</b></div>'
    )
    host(
        reply(turn, addr("Finn"), "*Invest 5 Grain in Llanc*\nGood luck all.", html=html),
        addr("Finn"),
        EIRE,
    )
    (ack,) = box.new()
    assert ack["X-Mailref-Kind"] == "ack", Outbox.body(ack)
    body = Outbox.body(ack)
    assert "OK   Invest 5 Grain in Llanc" in body and "Attack Donal" not in body
    assert referee.state("eire")["orders"]["Finn"]["orders"][0]["text"] == "Invest 5 Grain in Llanc"


def test_a_reply_to_the_sidekick_turn_mail_says_how_to_move(referee, host):
    """Without rule changes it says how to move; with them it is the move."""
    for who in ("alice", "bob"):
        host(mail(f"{who}@x.org", NOMES, "[Join]", f"Name: {who.title()}"), f"{who}@x.org", NOMES)
        confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"].lower()
    box = Outbox(referee)
    turn = box.to(f"{mover}@x.org", kind="turn")[-1]
    box.new()
    host(reply(turn, f"{mover}@x.org", "Tea, anyone?"), f"{mover}@x.org", NOMES)
    (err,) = box.new()
    assert err["X-Mailref-Kind"] == "error" and err["Subject"] == "Re: " + str(turn["Subject"])
    body = Outbox.body(err)
    assert (
        "a move only with rule changes in it" in body
        and "[Proposal] followed by your title" in body
    )
    assert "is not a command" not in body
    assert referee.state("nomes")["proposals"] == []
    host(
        reply(turn, f"{mover}@x.org", 'Enact rule 301 "Tea":\nTea is served.'),
        f"{mover}@x.org",
        NOMES,
    )
    assert [p["title"] for p in referee.state("nomes")["proposals"]] == ["Tea"]


def test_a_misspelt_tag_in_eire_names_eire_commands(referee, host):
    for name, choices in PLAYERS.items():
        host(mail(addr(name), EIRE, "[Join]", f"Name: {name}\n{choices}\n"), addr(name), EIRE)
        confirm_waiting(referee)
    box = Outbox(referee)
    box.new()
    host(mail(addr("Finn"), EIRE, "[Moves]", "**Invest 5 Grain in Llanc**"), addr("Finn"), EIRE)
    (err,) = box.new()
    body = Outbox.body(err)
    assert "[Orders]" in body and "[Vote]" not in body


def test_a_reply_sent_to_the_wrong_game_says_where_it_belongs(referee, host):
    """Bob replies to a Nomes proposal but sends it to the Eire address (In-Reply-To names the
    Nomes mail): he is told which game his mail answers and where to send it."""
    for who in ("alice", "bob"):
        host(mail(f"{who}@x.org", NOMES, "[Join]", f"Name: {who.title()}"), f"{who}@x.org", NOMES)
        confirm_waiting(referee)
    host(
        mail("bob@x.org", EIRE, "[Join]", "Name: Bob\nColor: Red\nTribe: Plainsmen\nOrigin: Donal"),
        "bob@x.org",
        EIRE,
    )
    confirm_waiting(referee)
    mover = referee.state("nomes")["turn"]["player"].lower()
    other = ({"alice", "bob"} - {mover}).pop()
    host(
        mail(f"{mover}@x.org", NOMES, "[Proposal] Tea", 'Enact rule 301 "Tea":\nTea is served.'),
        f"{mover}@x.org",
        NOMES,
    )
    box = Outbox(referee)
    prop = [m for m in box.to(f"{other}@x.org") if "[Proposal 1]" in str(m["Subject"])][-1]
    box.new()
    raw = mail(
        f"{other}@x.org", EIRE, "Re: " + str(prop["Subject"]), "FOR", in_reply_to=prop["Message-ID"]
    )
    host(raw, f"{other}@x.org", EIRE)
    (err,) = box.new()
    body = Outbox.body(err)
    assert err["X-Mailref-Kind"] == "error" and "Eire Autumn" in str(err["Subject"])
    assert "this is Eire Autumn, but your mail answers a mail of Nomes" in body and NOMES in body
    assert referee.state("nomes")["proposals"][0]["votes"] == {mover.title(): "FOR"}

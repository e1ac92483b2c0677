"""Joining by mail (SPEC §2.3): [Join], the confirmation to that address, the newcomer's
reply; the GM's approval where the game asks for it; the newcomers a game takes in a day."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.joining import confirm, confirmation, join

pytestmark = pytest.mark.spec("2.3")

G = "nomes@ref.example"
GM = "gm@ref.example"


def _kinds(msgs, to: str) -> list[str]:
    return [m["X-Mailref-Kind"] for m in msgs if m["To"] == to]


def test_a_newcomer_joins_by_mail_and_replies_to_the_confirmation(referee, smtp, outbox):
    """Over real SMTP: Bob's [Join] gets a confirmation (nothing else happens); his plain Reply
    makes him a player, he is answered as one, and everybody hears he joined."""
    referee.create_game("nomes", "sidekick", G, gm=GM)
    referee.admin("nomes", {"type": "player_add", "name": "Alice", "address": "alice@x.org"}, "a")
    outbox.new()
    smtp(mail("bob@x.org", G, "[Join]", "Name: Bob"), "bob@x.org")
    (conf,) = outbox.new()
    assert conf["To"] == "bob@x.org" and conf["X-Mailref-Kind"] == "confirm"
    assert "[Confirm] Join" in conf["Subject"] and conf["In-Reply-To"]
    text = Outbox.body(conf)
    assert (
        "to join Nomic Sidekick Nomic as Bob" in text
        and "reply to this mail with the word yes" in text
    )
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Alice"]
    reply = mail("bob@x.org", G, f"Re: {conf['Subject']}", "ok!", in_reply_to=conf["Message-ID"])
    smtp(reply, "bob@x.org")
    sent = outbox.new()
    # His answer, and the news of his joining (and the turn order it draws), the same mail
    # the others get (SPEC §2.6).
    (ack,) = outbox.to("bob@x.org", sent, "ack")
    assert "Bob joined Nomic Sidekick Nomic" in Outbox.body(ack)
    for who in ("alice@x.org", "bob@x.org"):
        assert "[Nomic Sidekick Nomic] Bob joins the game" in [
            m["Subject"] for m in outbox.to(who, sent, "announcement")
        ]
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Alice", "Bob"]


def test_a_confirm_mail_with_the_code_line_joins_too(referee, outbox):
    """A mail client that loses the thread: [Confirm] with the confirmation's `Code:` line."""
    referee.create_game("nomes", "sidekick", G, gm=GM)
    referee.accept(mail("bob@x.org", G, "[Join]", "Name: Bob"), "smtp", "bob@x.org", [G])
    code = next(
        line.split()[-1]
        for line in Outbox.body(confirmation(referee, "bob@x.org")).splitlines()
        if line.startswith("Code:")
    )
    referee.accept(mail("bob@x.org", G, "[Confirm]", f"Code: {code}"), "smtp", "bob@x.org", [G])
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Bob"]


def test_join_approval_gm_holds_each_confirmed_join_for_the_gm(referee, outbox):
    """With `join_approval=gm` a confirmed join waits: the GM is told and takes the newcomer
    in with [Approve] NAME; a player's [Approve] is refused; `mailref player add` takes one in
    too."""
    referee.create_game("nomes", "sidekick", G, gm=GM, parameters={"join_approval": "gm"})
    outbox.new()
    join(referee, "bob@x.org", G, "Bob")
    sent = outbox.new()
    assert _kinds(sent, "bob@x.org") == ["confirm", "ack"]
    ack = outbox.to("bob@x.org", sent, kind="ack")[0]
    assert "The GM of Nomic Sidekick Nomic takes in each newcomer" in Outbox.body(ack)
    (alert,) = [m for m in sent if m["To"] == GM]
    assert "send [Approve] Bob" in Outbox.body(alert)
    assert referee.state("nomes")["players"] == []
    referee.admin("nomes", {"type": "player_add", "name": "Carol", "address": "carol@x.org"}, "a")
    referee.accept(mail("carol@x.org", G, "[Approve] Bob"), "smtp", "carol@x.org", [G])
    assert "only the GM" in Outbox.body(outbox.to("carol@x.org", outbox.new(), kind="error")[0])
    referee.accept(mail(GM, G, "[Approve] Bob", in_reply_to=alert["Message-ID"]), "smtp", GM, [G])
    sent = outbox.new()
    assert "Bob joined" in Outbox.body(outbox.to(GM, sent, kind="ack")[0])
    assert "[Nomic Sidekick Nomic] Bob joins the game" in [
        m["Subject"] for m in outbox.to("bob@x.org", sent, "announcement")
    ]  # his word that he plays
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Carol", "Bob"]
    join(referee, "dan@x.org", G, "Dan")
    referee.admin("nomes", {"type": "player_add", "name": "Dan", "address": "dan@x.org"}, "a")
    assert referee.state("nomes")["awaiting_gm"] == []


def test_a_game_takes_in_at_most_joins_per_day_newcomers_a_day(referee, outbox, clock):
    """The eleventh newcomer of a day is refused, naming the limit, and can join the next day;
    the admin's `player add` is not counted."""
    referee.create_game("nomes", "sidekick", G, gm=GM)
    for i in range(10):
        join(referee, f"p{i}@x.org", G, f"P{i}")
    referee.admin("nomes", {"type": "player_add", "name": "Adm", "address": "adm@x.org"}, "a")
    outbox.new()
    referee.accept(mail("late@x.org", G, "[Join]", "Name: Late"), "smtp", "late@x.org", [G])
    (refused,) = outbox.to("late@x.org", outbox.new())
    assert refused["X-Mailref-Kind"] == "error" and "joins_per_day" in Outbox.body(refused)
    assert len(referee.state("nomes")["players"]) == 11
    clock.advance(days=1)
    join(referee, "late@x.org", G, "Late")
    assert referee.state("nomes")["players"][-1]["name"] == "Late"


def test_a_confirmation_answered_after_the_days_newcomers_waits_for_the_next_day(
    referee, outbox, clock
):
    """A confirmation sent before the day's newcomers were taken in is answered the same day
    with the limit; the same Reply the next day joins."""
    referee.create_game("nomes", "sidekick", G, gm=GM, parameters={"joins_per_day": 1})
    referee.accept(mail("a@x.org", G, "[Join]", "Name: Ann"), "smtp", "a@x.org", [G])
    join(referee, "b@x.org", G, "Ben")
    confirm(referee, "a@x.org")
    assert "joins_per_day" in Outbox.body(outbox.to("a@x.org", outbox.all())[-1])
    clock.advance(days=1)
    confirm(referee, "a@x.org")
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Ben", "Ann"]

"""Press through the referee in an orders game: `[Press] to NAME` reaches the players it names
and a copy the GM, never anybody else (watchers neither); grey press hides its sender from the
players but not from the GM; press holding bold text, which is orders, is refused; `press`
sets what a game allows."""

from __future__ import annotations

from mailref.config import SiteConfig
from mailref.site import rebuild
from support.helpers import Outbox, assert_replays, send_mail
from support.orders_play import EIRE, addr, seat_eire, send

GM = "gm@ref.example"
WANDA = "wanda@watch.example"


def _journal(referee) -> list[dict]:
    """The actions of the game's journal, oldest first."""
    from mailref.store import Game, JournalEntry

    with referee.store() as s:
        game = s.query(Game).filter_by(slug="eire").one()
        entries = s.query(JournalEntry).filter_by(game_id=game.id).order_by(JournalEntry.seq)
        return [e.action for e in entries]


def _eire(referee, outbox, **parameters) -> None:
    seat_eire(referee, 3, watcher=WANDA, **parameters)
    outbox.new()


def test_press_to_one_player_reaches_that_player_and_the_gm_only(referee, outbox):
    """Finn's press to Maeve: Maeve has it from Finn, the GM a copy naming both; Oisin and the
    watcher have nothing; Finn's answer says where it went; the journal keeps it."""
    _eire(referee, outbox)
    send(referee, "Finn", EIRE, "[Press] to maeve", "Shall we share the north?\n\nFinn")
    sent = outbox.new()
    assert sorted(m["To"] for m in sent) == sorted([addr("Maeve"), GM, addr("Finn")])
    (press,) = outbox.to(addr("Maeve"), sent, "press")
    assert "[Press] from Finn" in press["Subject"]
    assert "Shall we share the north?" in Outbox.body(press)
    (copy,) = outbox.to(GM, sent, "press")
    assert "Finn to Maeve" in copy["Subject"] and "share the north" in Outbox.body(copy)
    (ack,) = outbox.to(addr("Finn"), sent, "ack")
    assert "went to Maeve, with a copy to the GM" in Outbox.body(ack)
    (kept,) = [a for a in _journal(referee) if a.get("type") == "press"]
    assert kept["recipients"] == ["maeve"] and "share the north" in kept["text"]

    # Maeve's plain Reply answers Finn alone.
    send(referee, "Maeve", EIRE, f"Re: {press['Subject']}", "Yes, if you leave Donal alone.")
    sent = outbox.new()
    assert sorted(m["To"] for m in sent) == sorted([addr("Finn"), GM, addr("Maeve")])
    assert_replays(referee)


def test_grey_press_hides_the_sender_from_the_players_not_from_the_gm(referee, outbox, tmp_path):
    """With `press=grey`, `[Press] grey to all` reaches every other player without Finn's name;
    the GM's copy names him; the published journal keeps the entry without his name."""
    _eire(referee, outbox, press="grey")
    send(referee, "Finn", EIRE, "[Press] grey to all", "Beware the Merfolk.\n\nFinn")
    sent = outbox.new()
    for who in ("Maeve", "Oisin"):
        (press,) = outbox.to(addr(who), sent, "press")
        assert "[Press] grey" in press["Subject"] and "Finn" not in press["Subject"]
        body = Outbox.body(press)
        assert "Beware the Merfolk." in body
        assert "from Finn" not in body
    assert outbox.to(WANDA, sent) == []
    (copy,) = outbox.to(GM, sent, "press")
    assert "Finn to Maeve, Oisin (grey)" in copy["Subject"]
    rebuild(referee.store, SiteConfig(tmp_path / "site"), "eire", referee.clock())
    journal = (tmp_path / "site" / "eire" / "journal.html").read_text()
    (row,) = [r for r in journal.split("<tr ") if "Press went to 2 players" in r]
    assert "Finn" not in row and "Beware" not in row
    assert_replays(referee)


def test_grey_press_where_the_game_allows_white_only_is_refused(referee, outbox):
    _eire(referee, outbox)
    send(referee, "Finn", EIRE, "[Press] grey to Maeve", "Boo.")
    (refused,) = outbox.new()
    assert refused["To"] == addr("Finn") and refused["X-Mailref-Refusal"] == "grey_press_off"


def test_press_with_bold_orders_is_refused_and_reaches_nobody(referee, outbox):
    """Bold text is orders: press holding it is refused whole, so orders never leak."""
    _eire(referee, outbox)
    send(referee, "Finn", EIRE, "[Press] to Maeve", "My plan: **Attack Donal with 10 Grain.**")
    (refused,) = outbox.new()
    assert refused["To"] == addr("Finn") and refused["X-Mailref-Refusal"] == "press_holds_orders"
    assert "orders go with [Orders]" in Outbox.body(refused)
    assert_replays(referee)


def test_press_off_and_press_to_a_stranger_are_refused(referee, outbox):
    _eire(referee, outbox, press="off")
    send(referee, "Finn", EIRE, "[Press] to Maeve", "Hello.")
    (refused,) = outbox.new()
    assert refused["X-Mailref-Refusal"] == "press_off"
    referee.admin("eire", {"type": "set", "values": {"press": "white"}}, "gm")
    outbox.new()
    send(referee, "Finn", EIRE, "[Press] to Brian", "Hello.")
    (refused,) = outbox.new()
    assert refused["X-Mailref-Refusal"] == "press_to_nobody"
    assert "Maeve, Oisin" in Outbox.body(refused)
    send(referee, WANDA, EIRE, "[Press] to Maeve", "Hello from the gallery.")
    (refused,) = outbox.new()
    assert refused["X-Mailref-Refusal"] == "watchers_do_not_play"


def test_press_goes_while_the_game_is_paused(referee, outbox):
    """A pause stops the deadlines, not the talk."""
    _eire(referee, outbox)
    referee.admin("eire", {"type": "pause"}, "gm")
    outbox.new()
    send(referee, "Finn", EIRE, "[Press] to Maeve", "While we wait: truce?")
    assert outbox.to(addr("Maeve"), outbox.new(), "press")


def test_press_names_players_as_people_write_them(referee, outbox):
    """`to Maeve and oisin`, `to Maeve, Oisin`: each named player has it once; naming oneself
    among them sends nothing to oneself."""
    _eire(referee, outbox)
    for subject in ("[Press] to Maeve and oisin", "[Press] To: Maeve, Oisin, Finn"):
        send(referee, "Finn", EIRE, subject, "The north is yours.")
        sent = outbox.new()
        assert sorted(m["To"] for m in sent if m["X-Mailref-Kind"] == "press") == sorted(
            [addr("Maeve"), addr("Oisin"), GM]
        )


def test_a_reply_to_grey_press_is_told_its_sender_is_unnamed(referee, outbox):
    """Maeve's Reply to grey press cannot reach its unnamed sender: she is told so and how to
    answer, not that her press named nobody; nobody gets it."""
    _eire(referee, outbox, press="grey")
    send(referee, "Finn", EIRE, "[Press] grey to Maeve", "Beware the Merfolk.")
    (press,) = outbox.to(addr("Maeve"), outbox.new(), "press")
    quoted = "Who are you?\n\n> Beware the Merfolk.\n"
    subject = f"Re: {press['Subject']}"
    send_mail(referee, addr("Maeve"), EIRE, subject, quoted, in_reply_to=press["Message-ID"])
    (refused,) = outbox.new()
    assert refused["To"] == addr("Maeve")
    assert refused["X-Mailref-Refusal"] == "press_grey_reply"
    assert "does not name its sender" in Outbox.body(refused)
    assert_replays(referee)

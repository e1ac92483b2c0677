"""Substitutes: the GM opens a seat whose player is gone (`mailref player vacate`, or [Vacate]
by mail), or the game does after `abandon_after` turns missed in a row; a newcomer's
[Takeover] NAME, confirmed by reply as a join is, takes the seat with its holdings and score;
the deadline running then moves once by `takeover_extension`; the seat keeps each tenure."""

from __future__ import annotations

from datetime import timedelta

from mailref.config import SiteConfig
from mailref.site import rebuild
from mailref.timeutil import parse_iso
from support.helpers import Outbox, assert_replays, deliver, last_to, mail
from support.joining import confirm
from support.orders_play import DIPLO, EIRE, addr, seat_eire, send

NIAMH = "niamh@subs.example"
ROIS = "rois@subs.example"
GM = "gm@ref.example"


def _eire(referee, **parameters) -> None:
    seat_eire(referee, **parameters)


def _seat(referee, slug: str, name: str) -> dict:
    return next(p for p in referee.state(slug)["players"] if p["name"] == name)


def test_a_vacated_eire_seat_is_taken_over_and_the_deadline_moves_once(referee, outbox, tmp_path):
    """The GM opens Maeve's seat; Niamh's [Takeover] Maeve is answered with a confirmation, and
    her reply seats her with Maeve's lands and Grain; everybody is told who took over; the
    turn's deadline moves by a day, and a second takeover in the same turn moves it no more;
    the site shows both tenures of the seat."""
    _eire(referee)
    grain, lands = referee.state("eire")["grain"]["Maeve"], _seat(referee, "eire", "Maeve")
    due = parse_iso(referee.state("eire")["turn"]["deadline"])
    outbox.new()  # the game's opening mail, the GM's among them
    assert referee.admin("eire", {"type": "vacate", "name": "Maeve"}, "gm").ok
    seat = _seat(referee, "eire", "Maeve")
    assert seat["vacant"] and seat["status"] == "away"
    opened = [m for m in outbox.new() if "is open" in m["Subject"]]
    assert opened and "[Takeover] Maeve" in Outbox.body(opened[0])

    # The one who left no longer plays it.
    send(referee, "Maeve", EIRE, "[Orders]", "**Defend Donal with 5 Grain.**")
    (refused,) = outbox.to(addr("Maeve"), outbox.new())
    assert refused["X-Mailref-Refusal"] == "seat_is_open"

    send(referee, NIAMH, EIRE, "[Takeover] Maeve", "Name: Niamh")
    (asked,) = outbox.new()
    assert asked["To"] == NIAMH and asked["X-Mailref-Kind"] == "confirm"
    assert "take over the seat of Maeve" in Outbox.body(asked)
    assert "[Confirm] Take over Maeve in Eire as Niamh" in asked["Subject"]
    assert _seat(referee, "eire", "Maeve")["addresses"] == [addr("Maeve")]  # not before the reply
    confirm(referee, NIAMH)
    seat = _seat(referee, "eire", "Maeve")
    assert seat["addresses"] == [NIAMH] and seat["status"] == "active" and "vacant" not in seat
    assert referee.state("eire")["grain"]["Maeve"] == grain
    assert seat["origin"] == lands["origin"]
    assert [t["holder"] for t in seat["tenures"]] == ["Maeve", "Niamh"]
    moved = parse_iso(referee.state("eire")["turn"]["deadline"])
    assert moved == due + timedelta(days=1)
    new = outbox.new()
    told = [m for m in new if m["Subject"].endswith("takes over the seat of Maeve")]
    assert {m["To"] for m in told} == {addr("Finn"), NIAMH}
    assert "Niamh has taken over the seat of Maeve" in Outbox.body(told[0])
    (ack,) = outbox.to(NIAMH, new, kind="ack")
    assert "You hold the seat of Maeve" in Outbox.body(ack)
    assert "Turn 1 of Eire is open" in Outbox.body(ack)  # the open turn's mail, with it

    # Niamh plays the seat; a second takeover this turn does not move the deadline again.
    send(referee, NIAMH, EIRE, "[Orders]", "**Defend Donal with 5 Grain.**")
    assert "Maeve" in referee.state("eire")["orders"]
    assert referee.admin("eire", {"type": "vacate", "name": "Finn"}, "gm").ok
    send(referee, ROIS, EIRE, "[Takeover] Finn", "Name: Rois")
    confirm(referee, ROIS)
    assert _seat(referee, "eire", "Finn")["addresses"] == [ROIS]
    assert parse_iso(referee.state("eire")["turn"]["deadline"]) == moved

    rebuild(referee.store, SiteConfig(tmp_path / "site"), "eire", referee.clock())
    page = (tmp_path / "site" / "eire" / "index.html").read_text()
    assert "held by <bdi>Maeve</bdi> from" in page and "<bdi>Niamh</bdi> from" in page
    assert_replays(referee)


def test_a_seat_taken_over_waits_for_the_gms_approval_where_joins_do(referee, outbox):
    """With join_approval=gm the confirmed takeover waits for the GM's [Approve] NAME."""
    _eire(referee)
    assert referee.admin("eire", {"type": "set", "values": {"join_approval": "gm"}}, "gm").ok
    assert referee.admin("eire", {"type": "vacate", "name": "Maeve"}, "gm").ok
    send(referee, NIAMH, EIRE, "[Takeover] Maeve", "Name: Niamh")
    confirm(referee, NIAMH)
    assert _seat(referee, "eire", "Maeve").get("vacant")
    (alert,) = [
        m
        for m in outbox.new()
        if m["To"] == GM and "asks to take over the seat of Maeve" in Outbox.body(m)
    ]
    deliver(referee, mail(GM, EIRE, "[Approve] Niamh", in_reply_to=alert["Message-ID"]))
    assert _seat(referee, "eire", "Maeve")["addresses"] == [NIAMH]
    assert_replays(referee)


def test_a_takeover_of_a_seat_not_open_is_refused(referee, outbox):
    _eire(referee)
    send(referee, NIAMH, EIRE, "[Takeover] Finn", "Name: Niamh")
    (refused,) = outbox.to(NIAMH, outbox.new())
    assert refused["X-Mailref-Refusal"] == "no_open_seat"
    assert "Finn" not in [e["join"].get("seat") for e in referee.state("eire").get("joining", [])]


def _diplo(referee, **parameters) -> None:
    referee.create_game("diplo", "orders", DIPLO, gm=GM, parameters=parameters)
    for name in ("Ann", "Bob"):
        send(referee, name, DIPLO, "[Join]", f"Name: {name}")
        confirm(referee, addr(name))
    assert referee.admin("diplo", {"type": "start"}, "gm").ok


def test_the_gms_vacate_by_mail_opens_an_orders_seat(referee, outbox, clock):
    """The GM's [Vacate] Bob, as a Reply to the game's mail to the GM, opens Bob's seat; from
    another mail of the GM's address it is refused, since anyone can write that From."""
    _diplo(referee)
    send(referee, "Ann", DIPLO, "[Orders]", "**Army Paris holds.**")
    clock.advance(days=2, seconds=1)
    referee.tick()
    (digest,) = [m for m in outbox.new() if m["To"] == GM and "Orders of all" in m["Subject"]]
    send(referee, GM, DIPLO, "[Vacate] Bob")
    (refused,) = outbox.to(GM, outbox.new())
    assert refused["X-Mailref-Refusal"] == "vacate_needs_a_reply"
    assert not _seat(referee, "diplo", "Bob").get("vacant")
    deliver(referee, mail(GM, DIPLO, "[Vacate] Bob", in_reply_to=digest["Message-ID"]))
    assert _seat(referee, "diplo", "Bob")["vacant"]
    assert_replays(referee)


def test_a_seat_missing_abandon_after_turns_in_a_row_opens(referee, outbox, clock):
    """With abandon_after=2, Bob's seat opens when his second turn in a row passes without his
    orders; Ann, who ordered, keeps hers."""
    _diplo(referee, abandon_after="2")
    for turn in (1, 2):
        send(referee, "Ann", DIPLO, "[Orders]", "**Army Paris holds.**")
        clock.advance(days=2, seconds=1)
        referee.tick()
        assert not _seat(referee, "diplo", "Ann").get("vacant")
        assert bool(_seat(referee, "diplo", "Bob").get("vacant")) == (turn == 2)
        said = f"Turn {turn}: all hold."
        send(referee, GM, DIPLO, "[Results]", said, in_reply_to=last_to(referee, GM, DIPLO))
    outbox.new()
    send(referee, "Bob", DIPLO, "[Stats] Bob")
    (stats,) = outbox.to(addr("Bob"), outbox.new())
    assert "missed: 2" in Outbox.body(stats)
    assert_replays(referee)


def test_an_open_seats_former_holder_is_told_once_and_mailed_no_more(referee, outbox, clock):
    """Once Bob's seat is open, Bob is told so in one mail of his own, and gets none of the
    game's mail after it: not the announcement, the results nor the next turn's mail."""
    _diplo(referee)
    outbox.new()
    assert referee.admin("diplo", {"type": "vacate", "name": "Bob"}, "gm").ok
    (told,) = outbox.to(addr("Bob"), outbox.new())
    assert told["Subject"].endswith("Your seat of Bob is open")
    assert "no longer comes to you" in Outbox.body(told)
    send(referee, "Ann", DIPLO, "[Orders]", "**Army Paris holds.**")
    clock.advance(days=2, seconds=1)
    referee.tick()
    said = "Turn 1: all hold."
    send(referee, GM, DIPLO, "[Results]", said, in_reply_to=last_to(referee, GM, DIPLO))
    new = outbox.new()
    assert [m for m in new if m["X-Mailref-Kind"] == "results"], "the results went out"
    assert outbox.to(addr("Bob"), new) == []
    assert_replays(referee)


def test_game_show_json_shows_open_seats_and_each_seats_tenures(referee):
    """The machine-readable view marks Maeve's seat open while it is, then lists both its
    holders with their times."""
    from mailref.engine import public_view

    _eire(referee)
    assert referee.admin("eire", {"type": "vacate", "name": "Maeve"}, "gm").ok
    seats = {p["name"]: p for p in public_view(referee.state("eire"))["players"]}
    assert seats["Maeve"]["vacant"] and seats["Finn"]["vacant"] is None
    assert [t["holder"] for t in seats["Finn"]["tenures"]] == ["Finn"]
    send(referee, NIAMH, EIRE, "[Takeover] Maeve", "Name: Niamh")
    confirm(referee, NIAMH)
    maeve = next(p for p in public_view(referee.state("eire"))["players"] if p["name"] == "Maeve")
    assert maeve["vacant"] is None
    assert [(t["holder"], t["to"] is None) for t in maeve["tenures"]] == [
        ("Maeve", False),
        ("Niamh", True),
    ]
    assert_replays(referee)

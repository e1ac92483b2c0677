"""Orders games by mail: a four-player Eire game to a Communion victory, a GM-adjudicated game with
posted results."""

from __future__ import annotations

from support.helpers import Outbox, assert_replays, deliver, last_to, mail, send_mail
from support.joining import confirm

EIRE = "eire@ref.example"


DIPLO = "diplo@ref.example"


def addr(n: str) -> str:
    return f"{n.lower()}@eire.example"


def send(r, who, to, subject, body="", html=None, in_reply_to=None):
    frm = addr(who) if "@" not in who else who
    return send_mail(r, frm, to, subject, body, envelope=False, html=html, in_reply_to=in_reply_to)


# Who joins a small Eire game, in order: name, color, origin (all Plainsmen).
SEATS = (("Finn", "Green", "Llanc"), ("Maeve", "Red", "Donal"), ("Oisin", "Gold", "Tara"))


def seat_eire(referee, players=2, *, watcher=None, start=True, **parameters) -> None:
    """An Eire game whose GM is gm@ref.example, 30 Grain each: the first PLAYERS of SEATS join
    by mail and confirm by reply, WATCHER watches, and the GM starts it unless told not to."""
    referee.create_game(
        "eire", "eire", EIRE, gm="gm@ref.example", parameters={"start_grain": "30", **parameters}
    )
    for name, color, origin in SEATS[:players]:
        tribe = f"Name: {name}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}"
        send(referee, name, EIRE, "[Join]", tribe)
        confirm(referee, addr(name))
    if watcher:
        send(referee, watcher, EIRE, "[Watch]")
        confirm(referee, watcher)
    if start:
        assert referee.admin("eire", {"type": "start"}, "gm").ok


def replies(r, who):
    return [
        m
        for m in Outbox(r).all()
        if m["To"] == addr(who) and m["X-Mailref-Kind"] in ("ack", "error")
    ]


def play_eire(referee, clock):
    referee.create_game(
        "eire",
        "eire",
        EIRE,
        gm="gm@ref.example",
        parameters={"communion": "2", "start_grain": "100"},
    )
    joins = [
        ("Finn", "Green", "Sidhe", "Ardagh"),
        ("Maeve", "Red", "Plainsmen", "Donal"),
        ("Oisin", "Gold", "Merfolk", "Llanc"),
        ("Bran", "Teal", "Woodkin", "Tara"),
    ]
    send(referee, "Finn", EIRE, "[Join]", "Name: Finn\nColor: Red\nTribe: Sidhe\nOrigin: Bain")
    assert "must start in a Menhir Valley" in Outbox.body(replies(referee, "Finn")[-1])
    for name, color, tribe, origin in joins:
        send(
            referee,
            name,
            EIRE,
            "[Join]",
            f"Name: {name}\nColor: {color}\nTribe: {tribe}\nOrigin: {origin}",
        )
        confirm(referee, addr(name))
    assert referee.state("eire")["status"] == "forming"
    send(referee, "Finn", EIRE, "[Orders]", "**Invest 5 Grain in Ardagh**")
    assert "no turn is open" in Outbox.body(replies(referee, "Finn")[-1])
    assert referee.admin("eire", {"type": "start"}, "gm").ok

    plans = [
        {"Finn": "<p>Turn one: <b>Invest 10 Grain in Ardagh.</b></p>"},
        {"Finn": "<p>Onwards! <b>Attack Bréifne with 25 Grain</b></p>"},
        {
            "Finn": (
                "<p><strong>Attack Emain with 25 Grain</strong> and <b>Defend Ardagh with 5 "
                "Grain</b></p>"
            )
        },
    ]
    box = Outbox(referee)
    for turn, plan in enumerate(plans, 1):
        assert referee.state("eire")["turn"]["number"] == turn
        box.new()
        send(referee, "Finn", EIRE, "[Orders]", "see HTML", html=plan["Finn"])
        assert "OK   " in Outbox.body(replies(referee, "Finn")[-1])
        assert referee.state("eire")["orders"][
            "Finn"
        ]  # kept, and private: nobody else was mailed them
        assert [m["To"] for m in box.new()] == [addr("Finn")]
        send(referee, "Maeve", EIRE, "[Orders]", "My move: **Defend Donal with 5 Grain**")
        send(referee, "Oisin", EIRE, "[Orders]", "[b]Invest 5 Grain in Llanc[/b]")
        box.new()
        send(referee, "Bran", EIRE, "[Orders]", "*Defend Tara with 3 Grain*")
        # Bran's orders resolve the turn: one reply for them, and the results with the map as
        # everybody gets them
        mine = {m["X-Mailref-Kind"]: m for m in box.new() if m["To"] == addr("Bran")}
        assert f"[Results] Turn {turn}" in Outbox.body(mine["ack"])
        results = mine["results"]
        assert f"Results of turn {turn}" in Outbox.body(results)
        assert [
            p.get_content_type() for p in results.walk() if p.get_content_maintype() == "image"
        ] == ["image/png", "image/svg+xml"]
        clock.advance(hours=1)
    state = referee.state("eire")
    assert state["status"] == "ended" and state["winners"] == ["Finn"]
    from mailref.engine import public_view

    view = public_view(state)
    assert {"lands", "grain", "high_king", "orders"} <= set(view)
    assert set(view["lands"][0]) >= {"name", "type", "coast", "owner", "output", "neighbours"}
    owners = {x["name"]: x["owner"] for x in state["lands"]}
    assert owners["Emain"] == owners["Bréifne"] == "Finn"
    results = [
        m
        for m in Outbox(referee).all()
        if m["X-Mailref-Kind"] == "results" and m["To"] == addr("Maeve")
    ]
    assert len(results) == 3
    last = results[-1]
    assert "Finn by Communion" in Outbox.body(last) and "d10" in Outbox.body(last)
    svg = [p for p in last.iter_attachments() if p.get_content_type() == "image/svg+xml"]
    assert svg and b"<svg" in svg[0].get_content()
    png = [p for p in last.walk() if p.get_content_type() == "image/png"]  # what mail clients show
    assert (
        png and f'cid:{png[0]["Content-ID"].strip("<>")}' in last.get_body(("html",)).get_content()
    )
    assert_replays(referee)


def play_gm_orders(referee, clock, outbox):
    referee.create_game(
        "diplo", "orders", DIPLO, gm="gm@ref.example", parameters={"turn_length": "1d"}
    )
    for n in ("Ann", "Ben"):
        send(referee, n, DIPLO, "[Join]", f"Name: {n}")
        confirm(referee, addr(n))
    referee.admin("diplo", {"type": "start"}, "gm")
    send(referee, "Ann", DIPLO, "[Orders]", "I think **Army Paris - Burgundy. Fleet Brest holds.**")
    ack = Outbox.body(replies(referee, "Ann")[-1])
    assert "Army Paris - Burgundy" in ack and "Fleet Brest holds" in ack
    send(
        referee, "Ann", DIPLO, "[Orders]", "**Army Paris holds.**"
    )  # replace is this game's choice
    assert referee.state("diplo")["orders"]["Ann"]["orders"] == [
        {"kind": "free", "text": "Army Paris holds"}
    ]
    clock.advance(hours=23)
    referee.tick()
    assert [m["To"] for m in outbox.all() if m["X-Mailref-Kind"] == "reminder"] == [addr("Ben")]
    clock.advance(hours=1, seconds=1)
    referee.tick()
    digest = [
        m
        for m in outbox.all()
        if m["X-Mailref-Kind"] == "digest" and "Orders of all players" in m["Subject"]
    ]
    assert digest and digest[0]["To"] == "gm@ref.example"
    assert "Army Paris holds" in Outbox.body(digest[0]) and "Ben: no orders" in Outbox.body(
        digest[0]
    )
    send(referee, "Ben", DIPLO, "[Results]", "I won everything.")
    assert "only the GM" in Outbox.body(replies(referee, "Ben")[-1])
    deliver(
        referee,
        mail(
            "gm@ref.example",
            DIPLO,
            "[Results] Spring 1901",
            "Paris holds. Nothing else moved.",
            in_reply_to=last_to(referee, "gm@ref.example", DIPLO),
        ),
    )
    res = [m for m in outbox.all() if m["X-Mailref-Kind"] == "results"]
    assert sorted(m["To"] for m in res) == [addr("Ann"), addr("Ben")]
    assert "Paris holds" in Outbox.body(res[0])
    assert referee.state("diplo")["turn"]["number"] == 2
    assert_replays(referee)

"""GM preview of an Eire turn (gm_preview=on): the resolved results, with the rolls and the
map, go to the GM alone; [Publish] from the GM (or `mailref turn publish`) sends the same
results to every player and opens the next turn; a correction before that resolves the turn
again from the same rolls."""

from __future__ import annotations

import re

import pytest

from mailref.config import SiteConfig
from mailref.site import rebuild
from support.helpers import Outbox, assert_replays, last_to, mail
from support.joining import confirm_waiting
from support.play import addr, send

pytestmark = pytest.mark.spec("5.4")

EIRE = "eire@ref.example"
GM = "gm@ref.example"


def body(msg) -> str:
    return Outbox.body(msg).replace("\r\n", "\n")


def start(referee) -> None:
    referee.rng = None  # the seed chain, as a server draws
    referee.create_game(
        "eire",
        "eire",
        EIRE,
        gm=GM,
        parameters={"turn_length": "1d", "start_grain": "20", "gm_preview": "on"},
    )
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


def independent_neighbour(referee, name: str) -> str:
    state = referee.state("eire")
    lands = {x["name"]: x for x in state["lands"]}
    return next(
        n
        for x in lands.values()
        if x["owner"] == name
        for n in x["neighbours"]
        if lands[n]["owner"] is None
    )


def combats(text: str) -> str:
    return text.split("Combats:")[1].split("Investments:")[0]


def test_an_eire_turn_reaches_the_players_only_after_publish(referee, outbox, smtp, tmp_path):
    """Played over SMTP into the referee's listener, as players' and the GM's mail arrives."""

    def by_mail(who: str, subject: str, text: str = "") -> None:
        smtp(mail(who, EIRE, subject, text), who, EIRE)

    start(referee)
    target = independent_neighbour(referee, "Alice")
    by_mail(addr("alice"), "[Orders]", f"**Attack {target} with 9 Grain**")
    outbox.new()
    by_mail(addr("bob"), "[Orders]", "**Invest 10 Grain in Llanc**")
    sent = outbox.new()
    assert not [m for m in sent if m["X-Mailref-Kind"] == "results"], [m["Subject"] for m in sent]
    [preview] = [m for m in sent if m["X-Mailref-Kind"] == "preview"]
    assert preview["To"] == GM and "[Preview] Turn 1" in preview["Subject"]
    text = body(preview)
    assert (
        "for you, the GM, alone" in text and "[Publish]" in text and re.search(r"d10 \d+", text)
    ), text
    assert any(p.get_content_type() == "image/png" for p in preview.walk())  # the map
    assert (
        "Dice: seed 1 is revealed" not in text
    )  # the seed stays secret until the players have the rolls
    site = tmp_path / "site"
    rebuild(referee.store, SiteConfig(site), now=referee.clock())
    assert (
        "No turn has been resolved yet." in (site / "eire" / "turns.html").read_text()
    )  # nor on the site
    # Meanwhile a player asking learns the GM is adjudicating; late orders are refused.
    by_mail(addr("alice"), "[Orders]", "**Defend Donal with 1 Grain**")
    assert "adjudicating" in body(outbox.new()[-1])
    smtp(mail(GM, EIRE, "[Publish]", in_reply_to=last_to(referee, GM, EIRE)), GM, EIRE)
    sent = outbox.new()
    results = {m["To"]: body(m) for m in sent if m["X-Mailref-Kind"] == "results"}
    assert set(results) == {addr("alice"), addr("bob")}, [m["Subject"] for m in sent]
    assert combats(results[addr("alice")]) == combats(text)  # the rolls the GM saw
    assert "Dice: seed 1 is revealed" in results[addr("alice")]
    assert [m for m in sent if m["X-Mailref-Kind"] == "turn" and m["To"] == addr("bob")]
    ack = [m for m in sent if m["To"] == GM]
    assert ack and "went to every player; turn 2 is open" in body(ack[-1]), [body(m) for m in ack]
    assert referee.state("eire")["turn"]["number"] == 2
    rebuild(referee.store, SiteConfig(site), now=referee.clock())
    assert (
        combats(text).strip().splitlines()[1].strip() in (site / "eire" / "turns.html").read_text()
    )
    assert_replays(referee)


def test_a_correction_before_publish_resolves_again_from_the_same_rolls(referee, outbox):
    """The GM changes independent_defense while the results wait: a new preview, the same d10s,
    the new defence; `mailref turn publish` sends that one."""
    start(referee)
    target = independent_neighbour(referee, "Alice")
    send(referee, "alice", "[Orders]", f"**Attack {target} with 9 Grain**", to=EIRE)
    send(referee, "bob", "[Orders]", "**Invest 10 Grain in Llanc**", to=EIRE)
    first = body(outbox.to(GM, kind="preview")[-1])
    assert referee.admin("eire", {"type": "set", "values": {"independent_defense": "3"}}, "gm").ok
    second = body(outbox.to(GM, kind="preview")[-1])
    assert "resolved again after a correction" in second
    rolls = re.compile(r"d10 (\d+)")
    assert rolls.findall(combats(first)) == rolls.findall(combats(second))
    assert "against 10 + d10" in combats(first) and "against 3 + d10" in combats(second)
    assert not outbox.to(addr("alice"), kind="results")
    referee.admin("eire", {"type": "digest"}, "gm")
    assert "The results of turn 1 wait for your [Publish]" in body(outbox.to(GM, kind="digest")[-1])
    assert referee.admin("eire", {"type": "publish"}, "gm").ok
    results = body(outbox.to(addr("alice"), kind="results")[-1])
    assert combats(results) == combats(second)
    assert_replays(referee)


def test_publish_is_the_gms_and_only_when_results_wait(referee, outbox):
    start(referee)
    send(referee, "alice", "[Publish]", to=EIRE)
    assert "only the GM" in body(outbox.to(addr("alice"))[-1])
    published = mail(GM, EIRE, "[Publish]", in_reply_to=last_to(referee, GM, EIRE))
    referee.accept(published, "smtp", GM, [EIRE])
    assert "no results are waiting" in body(outbox.to(GM)[-1])


def test_a_game_without_a_gm_previews_to_the_admin_whose_publish_is_honoured(referee, outbox):
    """An Eire game with gm_preview=on made without --gm sent its preview to the host's admin
    address with "send [Publish]", and that address's [Publish] was refused ("only the GM
    publishes"): the turn could never go out by mail."""
    referee.rng = None
    referee.create_game("eire", "eire", EIRE, parameters={"turn_length": "1d", "gm_preview": "on"})
    for name, color, origin in (("alice", "Red", "Donal"), ("bob", "Gold", "Llanc")):
        body_ = f"Name: {name.title()}\nColor: {color}\nTribe: Plainsmen\nOrigin: {origin}"
        send(referee, name, "[Join]", body_, to=EIRE)
        confirm_waiting(referee)
    referee.admin("eire", {"type": "start"}, "admin")
    send(referee, "alice", "[Orders]", "**Invest 5 Grain in Donal**", to=EIRE)
    outbox.new()
    send(referee, "bob", "[Orders]", "**Invest 5 Grain in Llanc**", to=EIRE)
    [preview] = [m for m in outbox.new() if m["X-Mailref-Kind"] == "preview"]
    assert preview["To"] == GM and "[Publish]" in body(preview)  # GM: the admin here
    send(referee, "alice", "[Publish]", to=EIRE)
    assert "only the GM" in body(outbox.to(addr("alice"))[-1])
    published = mail(GM, EIRE, "[Publish]", in_reply_to=last_to(referee, GM, EIRE))
    referee.accept(published, "smtp", GM, [EIRE])
    sent = outbox.new()
    assert {m["To"] for m in sent if m["X-Mailref-Kind"] == "results"} == {
        addr("alice"),
        addr("bob"),
    }
    assert referee.state("eire")["turn"]["number"] == 2
    assert_replays(referee)

"""Watchers: anyone may follow a game by mail without playing it. [Watch] is confirmed as a
join is; a watcher gets the game's announcements and results, never the orders, acks or press
of its players, and has no vote; [Unwatch] (what the List-Unsubscribe of a watcher's mail
sends) ends it; `watching=off` keeps a game to its players."""

from __future__ import annotations

from urllib.parse import unquote

from mailref.config import SiteConfig
from mailref.site import rebuild
from support.helpers import Outbox, assert_replays, mail
from support.joining import confirm, confirmation
from support.orders_play import EIRE, addr, seat_eire, send

WANDA = "wanda@watch.example"


def _eire(referee, **parameters) -> None:
    seat_eire(referee, start=False, **parameters)


def _watch(referee, who: str = WANDA) -> None:
    send(referee, who, EIRE, "[Watch]")
    confirm(referee, who)


def test_a_watcher_gets_the_results_and_not_the_orders_nor_a_vote(referee, outbox, tmp_path):
    """Wanda asks to watch and is sent a confirmation, not made a watcher; her reply makes her
    one. She then gets Eire's results with the map, never the turn mail, anyone's orders or
    their acks; her [Orders] is refused as a watcher's; the site counts her."""
    _eire(referee)
    outbox.new()
    send(referee, WANDA, EIRE, "[Watch]")
    (asked,) = outbox.new()
    assert asked["To"] == WANDA and asked["X-Mailref-Kind"] == "confirm"
    assert "[Confirm] Watch" in asked["Subject"]
    assert "to watch" in Outbox.body(asked)
    assert not referee.state("eire").get("watchers")
    confirm(referee, WANDA)
    (ack,) = outbox.to(WANDA, outbox.new())
    assert "You watch" in Outbox.body(ack)
    assert [w["address"] for w in referee.state("eire")["watchers"]] == [WANDA]

    assert referee.admin("eire", {"type": "start"}, "gm").ok
    send(referee, "Finn", EIRE, "[Orders]", "**Invest 5 Grain in Llanc.**")
    send(referee, "Maeve", EIRE, "[Orders]", "**Defend Donal with 5 Grain.**")
    mine = outbox.to(WANDA, outbox.new())
    assert [m["X-Mailref-Kind"] for m in mine] == ["results"]
    (results,) = mine
    assert "Results of turn 1" in Outbox.body(results)
    # Her unsubscribe button ends the watching, not a digest she has none of.
    assert "subject=" in results["List-Unsubscribe"]
    assert "[Unwatch]" in unquote(results["List-Unsubscribe"])

    send(referee, WANDA, EIRE, "[Orders]", "**Attack Donal with 5 Grain.**")
    (refused,) = outbox.to(WANDA, outbox.new())
    assert refused["X-Mailref-Refusal"] == "watchers_do_not_play"
    assert "you watch" in Outbox.body(refused)
    assert "Wanda" not in referee.state("eire")["orders"]
    rebuild(referee.store, SiteConfig(tmp_path / "site"), "eire", referee.clock())
    page = (tmp_path / "site" / "eire" / "index.html").read_text()
    assert "1 person watches this game" in page
    assert WANDA not in page  # counted, never named
    assert "2 players, 1 watcher" in (tmp_path / "site" / "index.html").read_text()
    assert_replays(referee)


def test_the_list_unsubscribe_of_a_watchers_mail_ends_the_watching(referee, outbox):
    """The mailto of a watcher's List-Unsubscribe is an [Unwatch]: sent as a mail program sends
    it, Wanda watches no longer and gets no more of the game's mail."""
    _eire(referee)
    _watch(referee)
    assert referee.admin("eire", {"type": "start"}, "gm").ok
    send(referee, "Finn", EIRE, "[Orders]", "**Invest 5 Grain in Llanc.**")
    send(referee, "Maeve", EIRE, "[Orders]", "**Defend Donal with 5 Grain.**")
    (results,) = outbox.to(WANDA, outbox.new(), "results")
    target = results["List-Unsubscribe"].split("mailto:")[1].rstrip(">")
    to, _, query = target.partition("?subject=")
    referee.accept(mail(WANDA, to, unquote(query)), "smtp", WANDA, [to])
    assert not referee.state("eire").get("watchers")
    (gone,) = outbox.to(WANDA, outbox.new())
    assert "no longer watch" in Outbox.body(gone)
    send(referee, "Finn", EIRE, "[Orders]", "**Invest 5 Grain in Llanc.**")
    send(referee, "Maeve", EIRE, "[Orders]", "**Defend Donal with 5 Grain.**")
    assert outbox.to(WANDA, outbox.new()) == []
    assert_replays(referee)


def test_a_game_with_watching_off_refuses_a_watcher(referee, outbox):
    """`watching=off`: a [Watch] is refused and nothing is asked of the address."""
    _eire(referee, watching="off")
    outbox.new()
    send(referee, WANDA, EIRE, "[Watch]")
    (refused,) = outbox.to(WANDA, outbox.new())
    assert refused["X-Mailref-Refusal"] == "watching_off"
    assert confirmation(referee, WANDA) is None


def test_a_watcher_of_a_nomic_is_refused_a_vote(referee, outbox):
    """In a Nomic too a watcher has no vote: a [Vote] from one is refused as a watcher's."""
    from support.helpers import deliver

    game = "nomes@ref.example"
    referee.create_game("nomes", "sidekick", game, gm="gm@ref.example")
    for name in ("Alice", "Bob"):
        referee.admin("nomes", {"type": "player_add", "name": name, "address": addr(name)}, "admin")
    deliver(referee, mail(WANDA, game, "[Watch]"), "smtp", WANDA, [game])
    confirm(referee, WANDA)
    outbox.new()
    deliver(referee, mail(WANDA, game, "[Vote] 1", "FOR"), "smtp", WANDA, [game])
    (refused,) = outbox.to(WANDA, outbox.new())
    assert refused["X-Mailref-Refusal"] == "watchers_do_not_play"
    assert_replays(referee)


def test_a_watcher_who_joins_reads_the_game_once_as_a_player(referee, outbox):
    """Wanda watches, then joins and plays: each result reaches her once, as a player's, and its
    unsubscribe moves her to the digest as any player's does."""
    _eire(referee)
    _watch(referee)
    send(referee, WANDA, EIRE, "[Join]", "Name: Wanda\nColor: Gold\nTribe: Plainsmen\nOrigin: Tara")
    confirm(referee, WANDA)
    assert [p["name"] for p in referee.state("eire")["players"]][-1] == "Wanda"
    assert referee.admin("eire", {"type": "start"}, "gm").ok
    for who, order in (
        ("Finn", "**Invest 5 Grain in Llanc.**"),
        ("Maeve", "**Defend Donal with 5 Grain.**"),
        (WANDA, "**Defend Tara with 5 Grain.**"),
    ):
        send(referee, who, EIRE, "[Orders]", order)
    (results,) = outbox.to(WANDA, outbox.new(), "results")
    assert "[Settings] digest" in unquote(results["List-Unsubscribe"])
    assert_replays(referee)


def test_a_watcher_may_stop_watching_an_ended_game(referee, outbox):
    """The unsubscribe of the announcement that the game ended still works: [Unwatch] is taken
    after the end, as a setting is."""
    _eire(referee)
    _watch(referee)
    assert referee.admin("eire", {"type": "start"}, "gm").ok
    send(referee, "Finn", EIRE, "[Draw]")
    (ballot,) = outbox.to(addr("Maeve"), outbox.new(), "ending")
    send(referee, "Maeve", EIRE, f"Re: {ballot['Subject']}", "yes")
    assert referee.state("eire")["status"] == "ended"
    (news,) = outbox.to(WANDA, outbox.new(), "announcement")
    assert "[Unwatch]" in unquote(news["List-Unsubscribe"])
    send(referee, WANDA, EIRE, "[Unwatch]")
    assert not referee.state("eire").get("watchers")
    assert_replays(referee)


def test_help_offers_watching_where_the_game_allows_it(referee, outbox):
    """[Help] names [Watch] in a game open to watchers, and not in one with `watching=off`."""
    _eire(referee)
    outbox.new()
    send(referee, "Finn", EIRE, "[Help]")
    (help_,) = outbox.to(addr("Finn"), outbox.new())
    assert "[Watch] / [Unwatch]" in Outbox.body(help_)
    referee.admin("eire", {"type": "set", "values": {"watching": "off"}}, "gm")
    outbox.new()
    send(referee, "Finn", EIRE, "[Help]")
    (help_,) = outbox.to(addr("Finn"), outbox.new())
    assert "[Watch]" not in Outbox.body(help_)


def test_a_watcher_gets_a_previewed_turn_only_once_it_is_published(referee, outbox):
    """With `gm_preview=on` the results go to the GM alone first: the watcher, like the
    players, reads them only once they are published."""
    _eire(referee, gm_preview="on")
    _watch(referee)
    assert referee.admin("eire", {"type": "start"}, "gm").ok
    outbox.new()
    send(referee, "Finn", EIRE, "[Orders]", "**Invest 5 Grain in Llanc.**")
    send(referee, "Maeve", EIRE, "[Orders]", "**Defend Donal with 5 Grain.**")
    assert outbox.to(WANDA, outbox.new()) == []
    assert referee.admin("eire", {"type": "publish"}, "gm").ok
    (results,) = outbox.to(WANDA, outbox.new(), "results")
    assert "Results of turn 1" in Outbox.body(results)
    assert_replays(referee)


def test_a_watchers_mail_never_says_a_reply_reaches_the_players(referee, outbox):
    """A watcher's words without a command reach nobody, so neither the answer to the watch
    nor the results a watcher gets say that a reply reaches all players; they say how to stop
    watching. The players' copy of the same results still says it."""
    _eire(referee)
    outbox.new()
    send(referee, WANDA, EIRE, "[Watch]")
    outbox.new()
    confirm(referee, WANDA)
    (ack,) = outbox.to(WANDA, outbox.new())
    assert "A reply without a command reaches all players" not in Outbox.body(ack)
    assert "[Unwatch]" in Outbox.body(ack)

    assert referee.admin("eire", {"type": "start"}, "gm").ok
    send(referee, "Finn", EIRE, "[Orders]", "**Invest 5 Grain in Llanc.**")
    send(referee, "Maeve", EIRE, "[Orders]", "**Defend Donal with 5 Grain.**")
    sent = outbox.new()
    (watched,) = outbox.to(WANDA, sent)
    assert "A reply without a command reaches all players" not in Outbox.body(watched)
    assert "You watch Eire: [Unwatch] stops it" in Outbox.body(watched)
    (played,) = [m for m in outbox.to(addr("Finn"), sent) if m["X-Mailref-Kind"] == "results"]
    assert "A reply without a command reaches all players" in Outbox.body(played)
    assert_replays(referee)


def test_a_watchers_second_yes_to_the_confirmation_is_told_they_watch(referee, outbox):
    """Wanda's second Reply of yes to her confirmation (a double send) is told that she
    watches the game already, not that no join waits and she should send [Join]."""
    _eire(referee)
    _watch(referee)
    outbox.new()
    confirm(referee, WANDA)
    (again,) = outbox.to(WANDA, outbox.new())
    assert again["X-Mailref-Refusal"] == "watches_already"
    assert "you watch Eire already" in Outbox.body(again)
    assert "[Join]" not in Outbox.body(again)
    assert_replays(referee)


def test_game_show_json_counts_the_watchers_and_never_names_them(referee):
    from mailref.engine import public_view

    _eire(referee)
    assert public_view(referee.state("eire"))["watchers"] == 0
    _watch(referee)
    view = public_view(referee.state("eire"))
    assert view["watchers"] == 1
    assert WANDA not in repr(view)
    assert_replays(referee)

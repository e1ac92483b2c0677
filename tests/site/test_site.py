"""The published site (SPEC §4.5), read in a real headless Chromium as a phone shows it,
after whole games played by the other suites' own drivers. Every page also passes a strict
HTML5 parse, every feed an XML parse in the Atom namespace. Screenshots of each page kind
go to test-output/site/ for people to look at."""

from __future__ import annotations

import os
import re
import signal
import smtplib
import socket
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from mailref import cli
from mailref.config import SiteConfig
from mailref.site import history, rebuild
from mailref.store import OutboxMessage, open_store
from support.blognomic import play_a_dynasty_change
from support.dovecot import free_port
from support.helpers import Outbox, mail, wait_for
from support.imperial import play_a_proclamation, play_an_accepted_proposal
from support.joining import confirm_over_smtp, confirm_waiting
from support.orders_play import play_eire, play_gm_orders
from support.sidekick import mover, others, play_sidekick_to_a_winner, send
from support.site import ATOM, publish_after_each_change, see, valid

pytestmark = pytest.mark.spec("4.5")


def test_a_sidekick_game_to_a_winner(tmp_path, browser):
    play_sidekick_to_a_winner(tmp_path)
    store = open_store(f"sqlite:///{tmp_path}/mailref.sqlite3")
    site = tmp_path / "site"
    assert rebuild(store, SiteConfig(site)) == ["nomes"]
    valid(site, "nomes")
    host = see(browser, site, "index.html", "host-index.png").text
    assert "Nomic Sidekick Nomic" in host and "sidekick" in host and "won by" in host
    # Three columns (the variant, address and players under the name and status) fit a phone:
    # see() asserts nothing is wider than its screen.
    assert re.search(r"ended — won by \w+\s+\d+ players?\s+—", host), host
    home = see(browser, site, "nomes/index.html", "game-index-sidekick.png").text
    winner = re.search(r"Won by (\w+)\.", home).group(1)
    assert re.search(
        rf"{winner}\s+30\s+—\s+active", home
    ), "the winner's score in the players table"
    assert "The game has ended" in home and "Nothing is pending." in home
    matters = see(browser, site, "nomes/proposals.html", "proposals-sidekick.png").text
    assert matters.count("Outcome") >= 3 and "passed" in matters
    assert re.search(r"Proposal 1: Rule 24", matters) and re.search(r"Alice\s+FOR", matters)
    store.dispose()


EVIL = "<script>alert(1)</script> {{ 7*7 }}"


def test_a_nomic_rule_enacted_amended_and_another_repealed(sidekick_game, tmp_path, browser):
    game = sidekick_game
    site = tmp_path / "site"
    publish_after_each_change(game, site)
    game.admin("nomes", {"type": "set", "values": {"name": "<i>Nomes</i> & {% raw %}"}}, "gm")

    def move(subject: str, body: str) -> int:
        send(game, mover(game), subject, body)
        number = game.state("nomes")["proposals"][-1]["number"]
        if number == 1:  # while it is pending, the game's page says how to vote
            home = see(browser, site, "nomes/index.html", "game-index-pending.png").text
            assert "Proposal 1:" in home and "[Vote] 1" in home and "FOR, AGAINST, ABSTAIN" in home
        for voter in others(game):
            send(game, voter, f"[Vote] {number}", "FOR")
        assert game.state("nomes")["proposals"][-1]["status"] == "passed"
        return number

    move(
        f"[Proposal] Dice {EVIL}",
        f'Enact rule 24 "Dice <b>bold</b>":\nEach player may roll {EVIL} once a day.\n',
    )
    rules = (site / "nomes" / "rules.html").read_text()
    assert "Enacted" in rules and "Amended" not in rules  # the site followed the commit by itself
    move("[Proposal] Twice", "Amend rule 24 to read:\nEach player may roll twice a day.\n")
    move("[Proposal] Less", "Repeal rule 19.\n")
    game.admin(
        "nomes",
        {"type": "rule", "changes": [{"kind": "retitle", "number": "24", "title": "Dice"}]},
        "gm",
    )
    send(game, others(game)[0], "[CfJ] Is rule 24 fair?", "It favours the lucky.")
    judge = game.state("nomes")["judgements"][0]["judge"]
    send(game, judge, "[Ruling] 1", "It is fair: everyone rolls.")
    valid(site, "nomes")

    page = see(browser, site, "nomes/rules.html", "rules-nomic.png")
    text = page.text
    rule24 = text[text.rindex("24. Dice\n") :]  # the rule, not its line in the contents
    rule24 = rule24[: rule24.index("Repealed rules")]
    assert "Each player may roll twice a day." in rule24
    assert re.search(r"Enacted by proposal 1 on \w{3} 1 Dec 2026", rule24)
    assert re.search(r"Amended by proposal 2 on", rule24)
    assert re.search(r"Retitled by admin gm on .*: “Dice <b>bold</b>” → “Dice”", rule24)
    assert rule24.index("Enacted") < rule24.index("Amended") < rule24.index("Retitled")
    assert (
        f"- Each player may roll {EVIL} once a day." in rule24
        and "+ Each player may roll twice a day." in rule24
    )
    repealed = text[text.index("Repealed rules") :]
    assert "19. " in repealed and "Repealed by proposal 3" in repealed
    assert "start the game with 0 points" in repealed, "a repealed rule keeps its last text"
    assert not re.search(r"^19\. ", text[: text.index("Repealed rules")], re.M)
    assert "<i>Nomes</i> & {% raw %}" in page.facts["title"]
    matters = see(browser, site, "nomes/proposals.html", "proposals-nomic.png").text
    assert f"Proposal 1: Dice {EVIL}" in matters and "49" not in matters
    assert re.search(
        rf"CfJ 1: Is rule 24 fair\?.*?Judge\s+{judge}\s+It favours the lucky\.\s+Ruling\s+"
        r"It is fair: everyone rolls\.",
        matters,
        re.S,
    )
    assert "No votes" not in matters[matters.index("CfJ 1:") :], "a judge's ruling is not voted on"
    feed = (site / "nomes" / "feed.atom").read_text()
    assert ET.fromstring(feed).find(f"{ATOM}title").text == "<i>Nomes</i> & {% raw %}"


def test_pages_kept_up_mail_by_mail_are_the_pages_made_from_scratch(sidekick_game, tmp_path):
    """The rule history steps its cached replay on in place after each change (site/history.py):
    what it shows is exactly what a fresh process replaying the whole journal shows."""
    game = sidekick_game
    kept = tmp_path / "kept"
    publish_after_each_change(game, kept)
    for subject, body in [
        ("[Proposal] Dice", 'Enact rule 24 "Dice":\nEach player may roll once a day.\n'),
        ("[Proposal] Twice", "Amend rule 24 to read:\nEach player may roll twice a day.\n"),
        ("[Proposal] Less", "Repeal rule 19.\n"),
        (
            "[Proposal] Thrice",
            'Amend rule 24 to read:\nThree rolls.\nEnact rule 25 "Coins":\nFlip.\n',
        ),
    ]:
        send(game, mover(game), subject, body)
        number = game.state("nomes")["proposals"][-1]["number"]
        for voter in others(game):
            send(game, voter, f"[Vote] {number}", "FOR")
    history._CACHE.clear()
    fresh = tmp_path / "fresh"
    rebuild(game.store, SiteConfig(fresh), "nomes", now=game.clock())
    pages_of = lambda root: {p.name: p.read_bytes() for p in (root / "nomes").iterdir()}  # noqa: E731
    assert pages_of(kept) == pages_of(fresh)
    assert "Three rolls." in (kept / "nomes" / "rules.html").read_text()


def test_a_blognomic_dynasty_change(blognomic_game, tmp_path, browser):
    play_a_dynasty_change(blognomic_game)
    site = tmp_path / "site"
    rebuild(blognomic_game.store, SiteConfig(site), now=blognomic_game.clock())
    valid(site, "blog")
    home = see(browser, site, "blog/index.html", "game-index-blognomic.png").text
    assert "Dynasty 2 of Ben · theme Pirates" in home
    assert re.search(r"Ben\s+\S+\s+historian", home)
    matters = see(browser, site, "blog/proposals.html", "proposals-blognomic.png").text
    assert "DoV 2: I have won" in matters and "DoV 3: No, I have" in matters
    dov = matters[matters.index("DoV 2: I have won") :]
    assert re.search(r"Outcome\s+enacted", dov) and re.search(r"Dan\s+FOR", dov)
    assert re.search(
        r"CfJ 4: Was the Ascension legal\?.*?Outcome\s+failed \(unpopular\)", matters, re.S
    )
    rules = see(browser, site, "blog/rules.html", "rules-blognomic.png").text
    assert re.search(r"Dormancy \[Inactive\]\s+inactive", rules)
    repealed = rules[rules.index("Repealed rules") :]
    assert "Repealed by ascension" in repealed


def test_an_imperial_proclamation(imperial_game, tmp_path, browser):
    game = imperial_game
    play_an_accepted_proposal(game, Outbox(game))
    play_a_proclamation(game)
    site = tmp_path / "site"
    rebuild(game.store, SiteConfig(site), now=game.clock())
    valid(site, "empire")
    page = see(browser, site, "empire/rules.html", "rules-imperial.png")
    assert browser.evaluate(
        "!!document.querySelector('#rule-21 #rule-21-3 #rule-21-3-1')"
    ), "sub-rules nest"
    text = page.text
    sub = text[text.index("21.3.1. ") :]
    sub = sub[: sub.index("21.3.2. ")]
    assert "Roads are free." in sub
    assert re.search(r"Amended by proposal 1 on .*Amended by proclamation \"Roads\" on", sub, re.S)
    assert "+ Roads are free." in sub
    assert re.search(r"21\. The World\s+B rule\s+inactive", text)
    assert re.search(
        r"27\. Dragons\s+B rule\s+inactive\s+Dragons exist\. \[Scribe: placeholder\]", text
    )
    matters = see(browser, site, "empire/proposals.html", "proposals-imperial.png").text
    assert re.search(r"Proposal 1: Dragons.*?Outcome\s+accepted", matters, re.S)
    assert re.search(r"Point of Order 1: Hello", matters)
    feed = ET.parse(site / "empire" / "feed.atom").getroot()
    titles = [e.find(f"{ATOM}title").text for e in feed.findall(f"{ATOM}entry")]
    assert any("Imperial Proclamation: Roads" in t for t in titles)


def test_eire_turns_with_their_maps(referee, clock, tmp_path, browser):
    site = tmp_path / "site"
    publish_after_each_change(referee, site)
    play_eire(referee, clock)
    valid(site, "eire")
    home = see(browser, site, "eire/index.html", "game-index-eire.png")
    assert home.facts["svgs"] == 1
    assert re.search(r"Emain\s+Finn\s+", home.text) and "Won by Finn." in home.text
    assert re.search(
        r"Finn\s+active\s+\d+\s+Green\s+Sidhe\s+Ardagh", home.text
    ), "grain, color, tribe, origin"
    from mailref.site import svg_to_png

    if svg_to_png(
        (site / "eire" / "map.svg").read_text()
    ):  # the mail's PNG renderer is usable here
        assert (site / "eire" / "map.png").read_bytes().startswith(
            b"\x89PNG"
        ) and "SVG · PNG" in home.text
    else:
        assert not (site / "eire" / "map.png").exists() and "SVG" in home.text
    turns = see(browser, site, "eire/turns.html", "turns-eire.png")
    assert [i["alt"].split(".")[0] for i in turns.facts["images"]] == [
        f"Map after turn {n}" for n in (3, 2, 1)
    ]
    assert any("Finn: " in i["alt"] for i in turns.facts["images"])
    assert "Turn 1" in turns.text and "Results of turn 1" in turns.text and "d10" in turns.text
    assert "Invest" in turns.text


def test_a_gm_adjudicated_orders_game(referee, clock, tmp_path):
    site = tmp_path / "site"
    publish_after_each_change(referee, site)
    play_gm_orders(referee, clock, Outbox(referee))
    valid(site, "diplo")
    assert "Paris holds. Nothing else moved." in (site / "diplo" / "turns.html").read_text()
    referee.accept(
        mail("ann@eire.example", "diplo@ref.example", "[Orders]", "**Army Marseilles holds.**"),
        "smtp",
    )
    assert referee.state("diplo")["orders"]["Ann"]
    home = (site / "diplo" / "index.html").read_text()
    assert "Turn 2" in home and "Orders received from 1 of 2 players." in home
    assert (
        "Marseilles" not in home and "Marseilles" not in (site / "diplo" / "feed.atom").read_text()
    ), "orders stay private until the turn resolves"


def test_the_swap_is_atomic_and_readers_keep_the_old_pages(referee, tmp_path):
    site = tmp_path / "site"
    cfg = publish_after_each_change(referee, site)
    referee.create_game("nomes", "sidekick", "nomes@ref.example")
    with open(site / "nomes" / "index.html") as before:
        referee.accept(mail("ann@x.org", "nomes@ref.example", "[Join]", "Name: Ann"), "smtp")
        confirm_waiting(referee)
        assert "Nobody has joined yet" in before.read()  # a reader mid-page finishes the old page
    assert "Ann" in (site / "nomes" / "index.html").read_text()
    assert sorted(p.name for p in site.iterdir()) == [
        ".mailref-site.lock",
        "hall.html",
        "index.html",
        "nomes",
        "style.css",
    ]
    assert rebuild(referee.store, cfg, "nosuch") == []


def test_without_an_atomic_exchange_the_old_pages_step_aside(referee, tmp_path, monkeypatch):
    from mailref.site import publish

    monkeypatch.setattr(
        publish, "_renameat2", None
    )  # a system or file system without RENAME_EXCHANGE
    site = tmp_path / "site"
    publish_after_each_change(referee, site)
    referee.create_game("nomes", "sidekick", "nomes@ref.example")
    referee.accept(mail("ann@x.org", "nomes@ref.example", "[Join]", "Name: Ann"), "smtp")
    confirm_waiting(referee)
    assert "Ann" in (site / "nomes" / "index.html").read_text()
    assert sorted(p.name for p in site.iterdir()) == [
        ".mailref-site.lock",
        "hall.html",
        "index.html",
        "nomes",
        "style.css",
    ]


def test_cli_site_build_and_mail_footers_link_to_the_pages(tmp_path, capsys):
    conf = tmp_path / "mailref.toml"
    conf.write_text(
        '[daemon]\ndatabase = "sqlite:///var/db.sqlite3"\n[site]\ndir = "public"\n'
        'base_url = "https://games.example.org/mail"\n'
    )
    argv = ["--config", str(conf)]
    assert (
        cli.main(
            [
                *argv,
                "game",
                "create",
                "nomes",
                "--variant",
                "sidekick",
                "--address",
                "nomes@ref.example",
            ]
        )
        == 0
    )
    assert (
        tmp_path / "public" / "nomes" / "index.html"
    ).exists()  # built after the change, by itself
    assert cli.main([*argv, "player", "add", "nomes", "Ann", "ann@x.org"]) == 0
    assert "Ann" in (tmp_path / "public" / "nomes" / "index.html").read_text()
    store = open_store(f"sqlite:///{tmp_path}/var/db.sqlite3")
    with store() as s:
        raw = s.query(OutboxMessage).filter_by(kind="announcement").first().raw.decode()
    store.dispose()
    assert "The game on the web: https://games.example.org/mail/nomes/" in raw
    capsys.readouterr()
    assert cli.main([*argv, "site", "build"]) == 0
    assert "nomes" in capsys.readouterr().out
    assert cli.main([*argv, "site", "build", "nosuch"]) == 1
    feed = ET.parse(tmp_path / "public" / "nomes" / "feed.atom").getroot()
    assert (
        feed.get("{http://www.w3.org/XML/1998/namespace}base")
        == "https://games.example.org/mail/nomes/"
    )
    conf.write_text(
        '[daemon]\ndatabase = "sqlite:///var/db.sqlite3"\n[site]\nbase_url = "games.example.org"\n'
    )
    assert cli.main([*argv, "site", "build"]) == 1
    assert "[site] base_url" in capsys.readouterr().err
    conf.write_text('[daemon]\ndatabase = "sqlite:///var/db.sqlite3"\n')
    assert cli.main([*argv, "site", "build"]) == 1
    assert "no [site] table" in capsys.readouterr().err


def test_the_running_daemon_publishes_what_mail_changes(tmp_path):
    port = free_port()
    conf = tmp_path / "mailref.toml"
    conf.write_text(f'[smtp_in]\nhost = "127.0.0.1"\nport = {port}\n[site]\ndir = "public"\n')
    assert (
        cli.main(
            [
                "--config",
                str(conf),
                "game",
                "create",
                "nomes",
                "--variant",
                "sidekick",
                "--address",
                "nomes@ref.example",
            ]
        )
        == 0
    )
    env = {k: v for k, v in os.environ.items() if k not in ("MAILREF_CONFIG", "NOTIFY_SOCKET")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mailref", "serve"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    page = tmp_path / "public" / "nomes" / "index.html"
    store = open_store(f"sqlite:///{tmp_path}/var/mailref.sqlite3", migrate=False)
    try:
        assert wait_for(lambda: port_open(port), 30)
        for name in ("Ann", "Ben"):
            with smtplib.SMTP("127.0.0.1", port) as c:
                c.sendmail(
                    f"{name.lower()}@x.org",
                    ["nomes@ref.example"],
                    mail(f"{name.lower()}@x.org", "nomes@ref.example", "[Join]", f"Name: {name}"),
                )
            confirm_over_smtp(store, port, f"{name.lower()}@x.org")
        assert wait_for(
            lambda: "Turn 1" in page.read_text() and "Ben" in page.read_text(), 30
        ), page.read_text()
    finally:
        store.dispose()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0, proc.stderr.read().decode()[-2000:]


def port_open(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0

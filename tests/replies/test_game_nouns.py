"""A game whose ruleset names its players ("noun: Nome") is told in its own word: every reply,
announcement, [Status], [Help] and digest of a short game says "Nome" where the referee would
say "player", while the rules and the players' own words are quoted as written."""

from __future__ import annotations

import re
from pathlib import Path

from mailref.engine.ruleset_file import load
from support.helpers import Outbox, assert_replays, send_mail
from support.joining import confirm

PEBBLE = Path(__file__).parents[2] / "examples" / "pebble.nomic"
G = "nomes@ref.example"
NAMES = ["Ann", "Ben", "Cat"]
PLAYER = re.compile(r"(?<![\w@.-])(player|players|wizard|wizards)(?![\w@-])", re.I)


def addr(name: str) -> str:
    return f"{name.lower()}@players.example"


def send(referee, who: str, subject: str, body: str = "") -> None:
    send_mail(referee, addr(who), G, subject, body)


def nomes_game(referee) -> None:
    text = PEBBLE.read_text().replace("noun: Pebbler", "noun: Nome")
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example", ruleset=load(text))
    for name in NAMES:
        send(referee, name, "[Join]", f"Name: {name}\n")
        confirm(referee, addr(name))


def said_by_the_referee(referee, body: str) -> str:
    """BODY without what it quotes: the rules' words, as the game's rules have them."""
    for r in referee.state("nomes")["rules"]:
        for line in r["text"].splitlines():
            body = body.replace(line.strip(), "")
    return body


def test_every_mail_of_a_short_game_calls_the_players_nomes(referee):
    nomes_game(referee)
    mover = referee.state("nomes")["turn"]["player"]
    send(referee, mover, "[Proposal] Kindness", 'Enact rule 11 "Kind":\nBe kind.\n')
    others = [n for n in NAMES if n != mover]
    send(referee, others[0], "Re: [Proposal 1] Kindness", "FOR")
    send(referee, others[1], "Re: [Proposal 1] Kindness", "AGAINST")
    for command in ("[Status]", "[Help]", "[Rules]"):
        send(referee, others[0], command)
    referee.admin("nomes", {"type": "digest"}, "gm")
    mails = Outbox(referee).all()
    assert len(mails) > 15 and "digest" in {m["X-Mailref-Kind"] for m in mails}
    said = {
        f"{m['Subject']}: {line}"
        for m in mails
        for line in (str(m["Subject"]) + "\n" + said_by_the_referee(referee, Outbox.body(m)))
        .replace("\r", "")
        .splitlines()
        if PLAYER.search(line)
    }
    assert not said, "\n".join(sorted(said))
    last = {m["X-Mailref-Kind"]: Outbox.body(m) for m in mails if m["To"] == addr(others[0])}
    assert "\nNomes: Ann (active, " in last["status"].replace("\r", "")
    assert "A reply without a command reaches all Nomes;" in last["status"]
    assert "the Nome before the mover judges" in last["help"]
    rules = last["ruleset"]
    assert "All players must always abide by all the rules then in effect." in rules
    assert_replays(referee)


def test_the_site_calls_the_players_nomes_and_quotes_the_rules_as_written(referee, tmp_path):
    from mailref.config import SiteConfig
    from mailref.site import rebuild
    from support.site import valid

    nomes_game(referee)
    mover = referee.state("nomes")["turn"]["player"]
    send(referee, mover, "[Proposal] Kindness", 'Enact rule 11 "Kind":\nBe kind.\n')
    assert rebuild(referee.store, SiteConfig(tmp_path / "site")) == ["nomes"]
    valid(tmp_path / "site", "nomes")
    index = (tmp_path / "site" / "nomes" / "index.html").read_text()
    assert ">Nomes</h2>" in index and ">Players<" not in index
    rules = (tmp_path / "site" / "nomes" / "rules.html").read_text()
    assert "All players must always abide by all the rules then in effect." in rules


def test_an_ascension_renaming_wizards_is_said_in_the_referees_words():
    from mailref.write.nouns import reworded

    game = {
        "variant": "blognomic",
        "terms": {"player": "Frostling", "leader": "Historian"},
        "rules": [{"number": "1.2", "title": "Wizards", "text": "Any Wizard may propose."}],
        "players": [{"name": "Ann"}],
    }
    said = "Wizards: Ann. Rule 1.2: Any Wizard may propose. A player may vote."
    assert reworded(said, game) == (
        "Frostlings: Ann. Rule 1.2: Any Wizard may propose. A Frostling may vote."
    )
    assert reworded(said, {**game, "terms": {"player": "Wizard"}}) == said

"""SPEC checked from outside, session 9: what a player, GM or operator met, each answered as
the SPEC says (docs/decisions.md, "SPEC checked from outside, session 9")."""

from __future__ import annotations

import re

import pytest
from listener import listening, submit

from helpers import EIRE_PLAYERS, Outbox, mail, player_addr

EIRE, ORDERS = "eire@ref.example", "diplo@ref.example"


@pytest.fixture
def smtp(referee):
    """Send a raw mail through the referee's own listener, as a sending server does."""
    with listening(referee) as port:
        yield lambda raw, frm, to: submit(port, frm, [to], raw)


def test_rules_in_an_orders_game_say_what_governs_it_not_an_empty_rule_list(referee, smtp, tmp_path):
    """SPEC §2.5: [Rules] is "the current ruleset". In Eire and a GM's orders game it listed an
    empty rule list and everybody's score of 0 ("The rule list of Eire / Scores: Finn: 0"), and
    the site's rules page (§4.5) said "The ruleset is empty."; both now say the game has no rule
    list that proposals change, what governs it, and its parameters."""
    from test_site import publish_after_each_change, valid

    site = tmp_path / "site"
    publish_after_each_change(referee, site)
    referee.create_game("eire", "eire", EIRE, name="Eire", gm="gm@ref.example")
    referee.create_game("diplo", "orders", ORDERS, name="Diplo", gm="gm@ref.example")
    for name, choices in EIRE_PLAYERS.items():
        smtp(mail(player_addr(name), EIRE, "[Join]", f"Name: {name}\n{choices}\n"), player_addr(name), EIRE)
    finn = player_addr("Finn")
    smtp(mail(finn, ORDERS, "[Join]", "Name: Finn"), finn, ORDERS)
    box = Outbox(referee)
    box.new()
    smtp(mail(finn, EIRE, "[Rules]", ""), finn, EIRE)
    (reply,) = box.new()
    said = Outbox.body(reply)
    assert reply["X-Mailref-Kind"] == "ruleset" and "Scores:" not in said, said
    assert "Eire has no rule list that proposals change." in said, said
    assert "docs/eire-house-rules.md" in said and "Victory: Dominion (22 contiguous lands)" in said, said
    assert "  turn_length = 2d" in said and "  walk_in = on" in said, said
    smtp(mail(finn, ORDERS, "[Rules]", ""), finn, ORDERS)
    (reply,) = box.new()
    said = Outbox.body(reply)
    assert "Diplo has no rule list that proposals change." in said and "The GM adjudicates every turn" in said, said
    assert "  orders_final = replace" in said and "Scores:" not in said, said
    smtp(mail(finn, ORDERS, "[Help]", ""), finn, ORDERS)
    assert "[Status], [Rules], [Help], [Quit]" in Outbox.body(box.new()[0])
    for slug, said in (("eire", "Eire has no rule list that proposals change. It is played by the rules of Eire"),
                       ("diplo", "Diplo has no rule list that proposals change. The GM adjudicates every turn")):
        valid(site, slug)
        page = " ".join(re.sub(r"<[^>]+>", " ", (site / slug / "rules.html").read_text()).split())
        assert said in page and "The ruleset is empty" not in page and "The current ruleset" not in page, page
        assert "Parameters" in page and "turn_length = 2d" in page, page


def test_require_auth_on_with_no_trusted_server_is_said_to_the_gm_at_once(tmp_path):
    """SPEC §2.7: with no [auth] trusted_authserv_ids nothing can be verified, so a game set
    require_auth=on refuses every player's command. `game set` said only "require_auth = on"; the
    GM learnt it from the players' refusals. It now says so (exit 0: the setting is taken)."""
    from ops import Site

    site = Site(tmp_path, smtp_in=False)
    r = site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", "nomes@ref.example",
                 "--set", "require_auth=on")
    assert r.returncode == 0 and "trusts no authentication server" in r.stdout, (r.stdout, r.stderr)
    for value, warned in (("off", False), ("on", True)):
        r = site.cli("game", "set", "nomes", f"require_auth={value}")
        assert r.returncode == 0 and ("every player's command in this game is refused" in r.stdout) == warned, r.stdout
    (tmp_path / "trusting").mkdir()
    trusting = Site(tmp_path / "trusting", smtp_in=False, extra='[auth]\ntrusted_authserv_ids = ["mx.ref.example"]\n')
    r = trusting.cli("game", "create", "nomes", "--variant", "sidekick", "--address", "nomes@ref.example",
                     "--set", "require_auth=on")
    assert r.returncode == 0 and "note:" not in r.stdout, r.stdout


def test_the_daemon_logs_the_site_and_the_trusted_servers_it_uses(tmp_path):
    """SPEC §1.2: `mailref serve` "logs what it uses". Its start line named the database, the
    listener, IMAP and the relay or outbox, but not the published site's folder nor the servers
    whose Authentication-Results it trusts, both of which change what players get."""
    from ops import Site

    site = Site(tmp_path, smtp_in=False, extra='[site]\ndir = "var/site"\n'
                                                '[auth]\ntrusted_authserv_ids = ["mx.ref.example"]\n')
    daemon = site.serve().ready()
    try:
        said = next(line for line in daemon.stderr().splitlines() if "mailref starting:" in line)
    finally:
        daemon.stop()
    assert f"site {tmp_path / 'var' / 'site'}" in said and "trusted authentication servers mx.ref.example" in said, said


def test_the_same_question_sent_twice_in_sidekick_is_one_judgement(referee, smtp):
    """SPEC §2.6 (exactly one reply; a matter once): BlogNomic and Imperial took a CfJ sent twice
    word for word (Send pressed twice, a client's retry under a new Message-ID) as one; Sidekick
    opened a second judgement, mailing the judge and every player twice."""
    nomes = "nomes@ref.example"
    referee.create_game("nomes", "sidekick", nomes, name="Nomes")
    for name in ("Alice", "Bob", "Carol"):
        smtp(mail(player_addr(name), nomes, "[Join]", f"Name: {name}"), player_addr(name), nomes)
    box = Outbox(referee)
    box.new()
    alice = player_addr("Alice")
    for _ in range(2):
        smtp(mail(alice, nomes, "[CfJ] Was Bob's move legal?", "He moved twice."), alice, nomes)
    kinds = [(m["To"], m["X-Mailref-Kind"]) for m in box.new() if m["To"] == alice and "Re:" in str(m["Subject"])]
    assert kinds == [(alice, "ack"), (alice, "error")], kinds
    assert [j["number"] for j in referee.state("nomes")["judgements"]] == [1]
    smtp(mail(alice, nomes, "[CfJ] Was Carol's vote counted?", ""), alice, nomes)
    assert [j["number"] for j in referee.state("nomes")["judgements"]] == [1, 2]
    # The check is the handler's: an older journal holding such a copy is still taken by the engine
    # (so `mailref replay` and the site's rule history still replay it).
    copy = {"type": "cfj", "player": "Alice", "question": "Was Bob's move legal?", "text": "He moved twice.\n"}
    assert referee.admin("nomes", copy, "journal").ok


@pytest.mark.parametrize("variant", ["sidekick", "blognomic", "imperial", "eire", "orders"])
def test_help_lists_the_absence_roll_and_quit_every_variant_takes(referee, smtp, variant):
    """SPEC §2.5: [Help] is "the commands". Imperial's did not list [Away], [Roll] or [Quit],
    BlogNomic's not [Quit], Eire's and the orders game's not [Away] or [Roll], though each
    variant takes them; a player reading the help could not learn how to leave or be away."""
    address = f"{variant}@ref.example"
    referee.create_game(variant, variant, address, name=variant.title(), gm="gm@ref.example")
    box = Outbox(referee)
    box.new()
    smtp(mail("stranger@x.org", address, "[Help]", ""), "stranger@x.org", address)
    (reply,) = box.new()
    said = Outbox.body(reply)
    assert reply["X-Mailref-Kind"] == "help", said
    for tag in ("[Roll]", "[Quit]", ("[Idle]" if variant == "blognomic" else "[Away]")):
        assert tag in said, (tag, said)


def test_machine_mail_to_a_game_is_logged_with_that_game(referee, smtp, caplog):
    """SPEC §7: one log line per mail handled names the game. An auto-reply to a game's address
    (ignored before routing, SPEC §2.2) was logged `game=-`: an operator watching a flood of them
    could not tell which game's address drew it."""
    import logging

    referee.create_game("nomes", "sidekick", "nomes@ref.example", name="Nomes")
    referee.create_game("other", "sidekick", "other@ref.example", name="Other")  # two games: no default one
    with caplog.at_level(logging.INFO, logger="mailref"):
        smtp(mail("robot@x.org", "nomes@ref.example", "Out of office", "Back Monday.",
                  headers={"Auto-Submitted": "auto-replied"}), "robot@x.org", "nomes@ref.example")
    (line,) = [r.getMessage() for r in caplog.records if r.getMessage().startswith("mail #")]
    assert "from robot@x.org game=nomes tag=-: ignored: machine: Auto-Submitted: auto-replied" in line, line


def test_player_add_in_eire_is_told_its_choices_in_the_clis_terms(tmp_path):
    """SPEC §1.4 `player add` (Eire's choices go in `--choice`): a missing or taken choice was
    answered with the [Join] mail's hint, "add a body line `Color: Green`", useless at a prompt."""
    from ops import Site

    site = Site(tmp_path, smtp_in=False)
    assert site.cli("game", "create", "eire", "--variant", "eire", "--address", "eire@ref.example").returncode == 0
    r = site.cli("player", "add", "eire", "Dan", "dan@x.org")
    assert r.returncode == 1 and "add `--choice color=Red`" in r.stderr and "body line" not in r.stderr, r.stderr
    r = site.cli("player", "add", "eire", "Dan", "dan@x.org", "--choice", "color=Red", "--choice", "tribe=Merfolk",
                 "--choice", "origin=Emain")
    assert r.returncode == 1 and "add `--choice origin=" in r.stderr and "(a land free for Merfolk)" in r.stderr, r.stderr

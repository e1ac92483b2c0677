"""SPEC audit, session 7: what a user met, checked through real SMTP sessions and the CLI
(each test names the SPEC section it holds the product to)."""

from __future__ import annotations

import pytest
from listener import listening, submit

from helpers import EIRE_PLAYERS, Outbox, mail, player_addr

EIRE, NOMES = "eire@ref.example", "nomes@ref.example"


@pytest.fixture
def host(referee):
    # Eire named as its variant is: "[Judge] is not a command of Eire", not "of Eire (Eire)".
    referee.create_game("eire", "eire", EIRE, name="Eire", gm="gm@ref.example")
    referee.create_game("nomes", "sidekick", NOMES, name="Nomes")
    with listening(referee) as port:
        yield lambda raw, frm, to: submit(port, frm, [to], raw)


def test_a_tag_of_another_variant_is_no_command_here_whatever_its_body(referee, host):
    """SPEC §2.5: a tag that does not apply to this variant gets an error saying so, before its
    body is read: [Judge] in Eire or Sidekick is not "no ACCEPT, VETO or IGNORE found", [Vote]
    in Eire is not "no vote found", and [Proposal] is named as the player wrote it."""
    for name, choices in EIRE_PLAYERS.items():
        host(mail(player_addr(name), EIRE, "[Join]", f"Name: {name}\n{choices}\n"), player_addr(name), EIRE)
    host(mail("alice@x.org", NOMES, "[Join]", "Name: Alice"), "alice@x.org", NOMES)
    box = Outbox(referee)
    box.new()
    finn = player_addr("Finn")
    for subject, body, said in [("[Judge] 1", "Nonsense", "[Judge] is not a command of Eire."),
                                ("[Vote] 1", "Perhaps", "[Vote] is not a command of Eire."),
                                ("[Proposal] Peace", "Let us all be friends.", "[Proposal] is not a command of Eire.")]:
        host(mail(finn, EIRE, subject, body), finn, EIRE)
        (err,) = box.new()
        assert err["X-Mailref-Kind"] == "error" and said in Outbox.body(err), Outbox.body(err)
    host(mail("alice@x.org", NOMES, "[Judge] 1", "Nonsense"), "alice@x.org", NOMES)
    (err,) = box.new()
    assert "[Judge] is not a command of Nomes (Nomic Sidekick Nomic)." in Outbox.body(err), Outbox.body(err)
    assert referee.state("eire")["proposals"] == [] and referee.state("nomes")["proposals"] == []


def test_the_site_offers_veto_on_proposals_only(referee, tmp_path):
    """SPEC §5.2: VETO is the Historian's, on proposals only; the site's "how to vote" line of a
    pending CfJ offered it beside FOR, AGAINST and DEFERENTIAL."""
    from mailref.config import SiteConfig
    from mailref.site import rebuild_quietly

    site = tmp_path / "site"
    cfg = SiteConfig(site)
    referee.after_change = lambda slug: rebuild_quietly(referee.store, cfg, slug, referee.clock())
    blog = "blog@ref.example"
    referee.create_game("blog", "blognomic", blog)
    for n in ("Ann", "Ben", "Cat", "Dan", "Eve"):
        referee.accept(mail(f"{n.lower()}@x.org", blog, "[Join]", f"Name: {n}"), "smtp")
    referee.accept(mail("ann@x.org", blog, "[Proposal] Tea", 'Enact a new rule entitled "Tea" with the following '
                        "text:\nTea is served."), "smtp")
    referee.accept(mail("eve@x.org", blog, "[CfJ] Was tea legal?", "It was served cold."), "smtp")
    home = (site / "blog" / "index.html").read_text()
    cfj, proposal = home.split('id="proposal-1"')
    assert "<code>DEFERENTIAL</code>" in cfj and "VETO" not in cfj, cfj
    assert "<code>VETO</code>" in proposal


def test_a_from_address_with_a_name_is_refused_in_words(tmp_path):
    """SPEC §1.3: a bad configuration names the file, the key and what is wrong, in a sentence."""
    from ops import Site

    site = Site(tmp_path, smtp_in=False)
    site.config.write_text(site.config.read_text().replace('"referee@ref.example"', '"Referee <referee@ref.example>"'))
    r = site.cli("game", "list")
    assert r.returncode == 1
    assert r.stderr.strip().endswith("mailref.toml: [daemon] from_address: 'Referee <referee@ref.example>' "
        "is not a bare address: write it as name@example.org, without a name or <>"), r.stderr


def test_the_admins_reason_is_told_to_the_players(tmp_path):
    """SPEC §1.4: a command that changes a game records who did it and why (`--reason`), and
    announces to the players what they would expect to be told: why the game is paused, why
    a player was set away, why an office changed hands."""
    from ops import Site
    from parsed import outgoing
    from sqlalchemy import select

    from mailref.store import OutboxMessage, open_store

    site = Site(tmp_path, smtp_in=False)
    assert site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", "nomes@ref.example").returncode == 0
    for name in ("Alice", "Bob"):
        assert site.cli("player", "add", "nomes", name, f"{name.lower()}@x.org").returncode == 0
    for args, subject in [(("game", "pause", "nomes"), "The game is paused"),
                          (("player", "away", "nomes", "Bob"), "Bob is away"),
                          (("office", "nomes", "admin", "Alice"), "Office: admin")]:
        r = site.cli(*args, "--reason", f"because of {args[0]}")
        assert r.returncode == 0, r.stderr
        store = open_store(f"sqlite:///{site.db}", migrate=False)
        with store() as s:  # what the daemon would send
            mails = [outgoing(bytes(raw)) for raw in s.scalars(select(OutboxMessage.raw))]
        store.dispose()
        told = [m for m in mails if subject in str(m["Subject"]) and m["To"] == "alice@x.org"]
        assert told, [str(m["Subject"]) for m in mails]
        assert f"Reason: because of {args[0]}" in told[-1].get_body(("plain",)).get_content()


def test_a_quarantined_mail_alerts_its_games_gm_naming_the_game(referee, monkeypatch):
    """SPEC §2.1: a mail whose processing fails is quarantined and the GM is alerted: the GM of
    its game (not only the admin), in a subject that names the game (§2.6)."""
    from mailref.handlers import REGISTRY

    referee.create_game("nomes", "sidekick", NOMES, name="Nomes", gm="master@x.org")
    referee.accept(mail("alice@x.org", NOMES, "[Join]", "Name: Alice"), "smtp")
    monkeypatch.setattr(REGISTRY["status"], "fn", lambda env, view: 1 / 0)  # a bug in a handler
    stored = referee.accept(mail("alice@x.org", NOMES, "[Status]"), "smtp")
    assert stored.status == "failed"
    (alert,) = [m for m in Outbox(referee).all() if m["X-Mailref-Kind"] == "alert"]
    assert alert["To"] == "master@x.org" and alert["X-Mailref-Game"] == "nomes"
    assert str(alert["Subject"]) == f"[Nomes] Alert: message #{stored.id} quarantined"


def test_the_gms_results_titled_by_the_turn_are_not_named_twice(referee):
    """SPEC §5.5: the GM's [Results] mail goes to all players; "[Results] Turn 1" (the turn is its
    title) reached them as "[Results] Turn 1: Turn 1"; a title of its own is kept."""
    game = "diplo@ref.example"
    referee.create_game("diplo", "orders", game, name="Diplo", gm="gm@x.org")
    for n in ("ann", "ben"):
        referee.accept(mail(f"{n}@x.org", game, "[Join]", f"Name: {n.title()}"), "smtp")
    assert referee.admin("diplo", {"type": "start"}, "gm").ok
    box = Outbox(referee)

    def everybody_orders() -> None:  # results are taken for a closed turn (session 9)
        for n in ("ann", "ben"):
            referee.accept(mail(f"{n}@x.org", game, "[Orders]", "**Hold.**"), "smtp")
        box.new()

    everybody_orders()
    referee.accept(mail("gm@x.org", game, "[Results] Turn 1", "Paris holds."), "smtp")
    assert {str(m["Subject"]) for m in box.to("ann@x.org", box.new(), "results")} == {"[Diplo] [Results] Turn 1"}
    everybody_orders()
    referee.accept(mail("gm@x.org", game, "[Results] Spring 1901", "Brest holds."), "smtp")
    assert {str(m["Subject"]) for m in box.to("ann@x.org", box.new(), "results")} == {"[Diplo] [Results] Turn 2: Spring 1901"}


def test_a_game_is_not_created_at_the_referees_own_address(tmp_path):
    """SPEC §2.2/§2.5: the referee's own address (from_address) answers with the list of games and
    never answers mail from itself; `game create` took it as a game's address, a game that would
    hear nobody."""
    from ops import Site

    site = Site(tmp_path, smtp_in=False)
    r = site.cli("game", "create", "nomes", "--variant", "sidekick", "--address", "Referee@ref.example")
    assert r.returncode == 1, r.stderr
    assert "mailref: refused: the address Referee@ref.example is the referee's own (from_address)" in r.stderr
    assert site.cli("game", "list").stdout.count("\n") <= 1


def test_the_referees_list_of_games_names_each_game_once(referee, host):
    """SPEC §2.5: a mail with no tag to the referee's own address gets the games it runs, each
    with its address and variant; a game named as its variant is ("Eire") was listed
    "Eire — Eire (eire)"."""
    box = Outbox(referee)
    box.new()
    host(mail("stranger@x.org", "referee@ref.example", "hello", "What is this?"), "stranger@x.org",
         "referee@ref.example")
    (help_,) = box.new()
    body = Outbox.body(help_)
    assert help_["X-Mailref-Kind"] == "help"
    assert "  Eire (eire), forming, 0 players" in body and "Eire — Eire" not in body, body
    assert "  Nomes — Nomic Sidekick Nomic (sidekick), active, 0 players" in body, body
    assert "address: eire@ref.example" in body and "address: nomes@ref.example" in body

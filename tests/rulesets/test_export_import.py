"""A game exported as it stands and imported goes on as the same game: `game show --json` is
equal but for its slug, address and times, mid-game with open matters, in each Nomic variant;
each player is mailed once that it runs here, with how to leave."""

from __future__ import annotations

import pytest

from mailref.engine import get_variant
from mailref.engine.game_file import export, parse, shown_values
from mailref.engine.public import public_view
from support import blognomic as bn
from support import imperial as imp
from support import sidekick as sk
from support.helpers import Outbox

HERE = "copy@ref.example"


def exported(referee, slug: str) -> str:
    state = referee.state(slug)
    table = get_variant(state["variant"]).parameter_table
    values = state["parameters"]
    return export(state, shown_values(table, values))


def shown(referee, slug: str) -> dict:
    view = public_view(referee.state(slug))
    return {k: v for k, v in view.items() if k not in ("slug", "address", "created")}


def round_trip(referee, slug: str) -> None:
    _, state = parse(exported(referee, slug), "game.nomic")
    referee.import_game("copy", HERE, state, "gm")
    assert shown(referee, "copy") == shown(referee, slug)
    assert exported(referee, "copy").replace(HERE, "") == exported(referee, slug).replace(
        referee.state(slug)["address"], ""
    ).replace(f'"slug": "{slug}"', '"slug": "copy"')
    told = [
        m
        for m in Outbox(referee).all()
        if m["X-Mailref-Kind"] == "notice" and "now runs here" in str(m["Subject"])
    ]
    active = [p for p in referee.state("copy")["players"] if p["status"] == "active"]
    assert len(told) == len(active)
    assert "send [Quit] to this address" in " ".join(Outbox.body(told[0]).split())


def test_a_sidekick_game_with_a_vote_open_goes_on_where_it_stood(sidekick_game):
    game = sidekick_game
    mover = sk.mover(game)
    sk.send(game, mover.lower(), "[Proposal] Bonus", sk.PROPOSAL)
    sk.send(game, sk.others(game)[0].lower(), "Re: [Proposal 1] Bonus", "FOR")
    round_trip(game, "nomes")
    last = sk.others(game)[1]
    from support.helpers import send_mail

    send_mail(game, sk.addr(last.lower()), HERE, "Re: [Proposal 1] Bonus", "FOR")
    copy = game.state("copy")
    assert copy["proposals"][0]["status"] == "passed"
    assert game.state("nomes")["proposals"][0]["status"] == "voting"


def test_a_blognomic_game_with_pending_proposals_goes_on_where_it_stood(blognomic_game):
    game = blognomic_game
    bn.send(game, "Ann", "[Proposal] Gold", bn.PROP)
    bn.send(game, "Ben", "Re: [Proposal 1] Gold", "FOR")
    round_trip(game, "blog")


def test_an_imperial_game_with_a_proposal_before_the_senate_goes_on(imperial_game):
    game = imperial_game
    imp.send(game, "Ann", "[Proposal] Dragons", imp.PROP)
    imp.send(game, "Ben", "Re: [Proposal 1] Dragons", "YES")
    round_trip(game, "empire")


def test_a_file_without_the_game_part_is_refused_with_its_line():
    from mailref.engine.ruleset_file import RulesetProblems

    with pytest.raises(RulesetProblems) as e:
        parse("name: X\nmechanics: turn-order\nset turn_timeout: 2d\nset vote_timeout: 2d\n")
    assert e.value.problems[0].startswith("line 5: no `=== the game as it stands ===` line")


def test_export_then_import_by_the_cli_replays_identical(tmp_path):
    import json
    from pathlib import Path

    from support.cli import run as cli

    pebble = Path(__file__).parents[2] / "examples" / "pebble.nomic"
    assert cli(tmp_path, "init").returncode == 0
    assert cli(tmp_path, "game", "create", "p", "--ruleset", str(pebble), "--address", "p@x.org")
    for name in ("Ann", "Ben"):
        assert cli(tmp_path, "player", "add", "p", name, f"{name}@x.org").returncode == 0
    out = cli(tmp_path, "game", "export", "p", "--to", str(tmp_path / "p.game"))
    assert out.returncode == 0, out.stderr
    made = cli(tmp_path, "game", "import", "q", str(tmp_path / "p.game"), "--address", "q@x.org")
    assert made.returncode == 0, made.stderr

    def show(slug: str) -> dict:
        view = json.loads(cli(tmp_path, "game", "show", slug, "--json").stdout)
        return {k: v for k, v in view.items() if k not in ("slug", "address", "created", "dice")}

    assert show("q") == show("p")
    assert show("q")["ruleset"]["bindings"]["win_score"] == "7"
    replay = cli(tmp_path, "replay")
    assert replay.returncode == 0 and "identical" in replay.stdout


def test_a_game_file_of_a_newer_mailref_is_refused_with_its_line(sidekick_game):
    from mailref.engine.ruleset_file import RulesetProblems

    text = exported(sidekick_game, "nomes")
    newer = text.replace(f'"schema": {sidekick_game.state("nomes")["schema"]}', '"schema": 999')
    with pytest.raises(RulesetProblems) as e:
        parse(newer, "game.nomic")
    mark = text.splitlines().index("=== the game as it stands ===") + 1
    assert e.value.problems == [
        f"line {mark + 1}: a newer mailref wrote this game: import it with that version"
    ]

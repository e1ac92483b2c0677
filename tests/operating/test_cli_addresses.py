"""The CLI refuses addresses it cannot use: a From address with a name, a game at the referee's own
address."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.spec("1.4")


def test_a_from_address_with_a_name_is_refused_in_words(tmp_path):
    """SPEC §1.3: a bad configuration names the file, the key and what is wrong, in a sentence."""
    from support.ops import Site

    site = Site(tmp_path, smtp_in=False)
    site.config.write_text(
        site.config.read_text().replace('"referee@ref.example"', '"Referee <referee@ref.example>"')
    )
    r = site.cli("game", "list")
    assert r.returncode == 1
    assert r.stderr.strip().endswith(
        "mailref.toml: [daemon] from_address: 'Referee <referee@ref.example>' "
        "is not a bare address: write it as name@example.org, without a name or <>"
    ), r.stderr


def test_a_game_is_not_created_at_the_referees_own_address(tmp_path):
    """SPEC §2.2/§2.5: the referee's own address (from_address) answers with the list of games and
    never answers mail from itself; `game create` took it as a game's address, a game that would
    hear nobody."""
    from support.ops import Site

    site = Site(tmp_path, smtp_in=False)
    r = site.cli(
        "game", "create", "nomes", "--variant", "sidekick", "--address", "Referee@ref.example"
    )
    assert r.returncode == 1, r.stderr
    assert (
        "mailref: refused: the address Referee@ref.example is the referee's own (from_address)"
        in r.stderr
    )
    assert site.cli("game", "list").stdout.count("\n") <= 1

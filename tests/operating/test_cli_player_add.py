"""`player add` in Eire is told its choices in the CLI's terms."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.spec("1.4")


def test_player_add_in_eire_is_told_its_choices_in_the_clis_terms(tmp_path):
    """SPEC §1.4 `player add` (Eire's choices go in `--choice`): a missing or taken choice was
    answered with the [Join] mail's hint, "add a body line `Color: Green`", useless at a prompt."""
    from support.ops import Site

    site = Site(tmp_path, smtp_in=False)
    site.create_game("eire", "eire", "eire@ref.example")
    r = site.cli("player", "add", "eire", "Dan", "dan@x.org")
    assert (
        r.returncode == 1 and "add `--choice color=Red`" in r.stderr and "body line" not in r.stderr
    ), r.stderr
    r = site.cli(
        "player",
        "add",
        "eire",
        "Dan",
        "dan@x.org",
        "--choice",
        "color=Red",
        "--choice",
        "tribe=Merfolk",
        "--choice",
        "origin=Emain",
    )
    assert (
        r.returncode == 1
        and "add `--choice origin=" in r.stderr
        and "(a land free for Merfolk)" in r.stderr
    ), r.stderr

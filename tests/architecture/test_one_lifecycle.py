"""Every Nomic's proposals are submitted, voted on and decided by the one lifecycle of
engine/mechanics/ (docs/architecture.md, "Mechanics"), configured by its voting policy."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mailref.engine.mechanics.proposals import Proposals
from mailref.engine.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
NOMICS = sorted(name for name, v in VARIANTS.items() if v.nomic)


@pytest.mark.parametrize("name", NOMICS)
def test_a_nomic_votes_and_decides_through_the_one_lifecycle(name):
    variant = VARIANTS[name]
    assert isinstance(variant.proposals, Proposals)
    assert variant.proposals.game is variant
    for kind in ("vote", "vote_override", "decide"):
        assert variant.actions[kind].__qualname__ == f"proposals.on_{kind}", kind
        assert getattr(type(variant.proposals), f"on_{kind}") is vars(Proposals)[f"on_{kind}"]
    assert variant.vote_words == variant.policy.words
    assert set(variant.policy.offered) <= set(variant.policy.words)


def test_the_matter_and_the_mechanics_import_no_variant_even_for_the_type_checker():
    """engine/matters.py and engine/mechanics/ are what variants build on: a variant may import
    them, never the other way round (the lifecycle takes only the table of actions)."""
    below = [ROOT / "mailref/engine/matters.py", *(ROOT / "mailref/engine/mechanics").glob("*.py")]
    for path in below:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "mailref.engine.variants"
            ):
                assert node.module == "mailref.engine.variants.actions", (path.name, node.module)

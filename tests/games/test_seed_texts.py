"""Every shipped rule text (data/*.nomic) against the seed it was taken from, sentence by
sentence, both ways: no sentence is shipped that the seed does not say, and no sentence of the
seed's rules is missing from what ships (rule 4.4 had lost Prioritisation item 5)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mailref.engine.ruleset_file import shipped_rules

pytestmark = pytest.mark.spec("5")

SEED_DIRS = [
    Path(__file__).parent / "seeds",
    Path(__file__).resolve().parents[4] / "shared" / "seeds",
    Path("/work/shared/seeds"),
]

# variant -> (seed file, where its rules begin, seed sentences deliberately not shipped, each with
# why).
# Eire ships no rule text (its rules are the engine; data/eire_map.json is the map).
SOURCES = {
    "sidekick": ("004_d3239d30721e5133.txt", "1. This email group", {}),
    "blognomic": ("002_ccc576e043ebf04a.txt", "Core Rules", {}),
    "imperial": (
        "000_bf224c4d4f24310b.txt",
        "The Game of Imperial Nomic",
        {
            'and paying any additional costs."': (
                "rule 22 drops the stray closing quote of the seed's web page"
            ),
            "back to index": "the web page's navigation link, not rule text",
        },
    ),
}

_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "\u00a0": " "})
_MARKER = re.compile(r"^\s*(?:[•·]\s*|\d+(?:\.\d+)*\.?\s+(?=\S)|\d+\.\s*$)")
_SPLIT = re.compile(r"(?<=[.!?;:])\s+")


def norm(text: str) -> str:
    return " ".join(text.translate(_QUOTES).split()).lower()


def sentences(text: str) -> list[str]:
    """Each line without its list marker ("1.", "•", "21.3.1"), cut after . ! ? ; or :."""
    out = []
    for line in text.splitlines():
        line = _MARKER.sub("", line)
        out += [norm(s) for s in _SPLIT.split(line) if norm(s).strip(" .")]
    return out


def seed_text(variant: str) -> str:
    name, start, _ = SOURCES[variant]
    for d in SEED_DIRS:
        if (d / name).exists():
            text = (d / name).read_text(encoding="utf-8")
            return text[text.index(start) :]
    pytest.skip(f"the seed text {name} is not on this machine")


def shipped(variant: str) -> list[dict]:
    return shipped_rules(variant)


@pytest.mark.parametrize("variant", sorted(SOURCES))
def test_every_shipped_sentence_is_in_the_seed(variant):
    seed = norm(seed_text(variant))
    missing = [
        f"rule {r['number']}: {s}"
        for r in shipped(variant)
        for s in sentences(r["text"])
        if s not in seed
    ]
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("variant", sorted(SOURCES))
def test_every_seed_sentence_is_shipped(variant):
    rules = shipped(variant)
    ours = norm("\n".join(r["title"] + "\n" + r["text"] for r in rules))
    known = SOURCES[variant][2]
    missing = [s for s in sentences(seed_text(variant)) if s not in ours and s not in known]
    assert not missing, "\n".join(missing)


def test_blognomic_prioritisation_keeps_its_fifth_item():
    """Rule 4.4 "Prioritisation", the seed's last line: "5. Special Case Rules have equal precedence
    as Dynastic Rules, unless that Special Case Rule explicitly says it can’t be overruled by a
    Dynastic Rule."."""
    text = next(r["text"] for r in shipped("blognomic") if r["number"] == "4.4")
    assert text.rstrip().endswith(
        "5. Special Case Rules have equal precedence as Dynastic Rules, unless that "
        "Special Case Rule explicitly says it can’t be overruled by a Dynastic Rule."
    )

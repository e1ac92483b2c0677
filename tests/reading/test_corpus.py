"""Realistic mail from each client style (tests/reading/corpus/*.eml) against its expected
envelope."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mailref.engine import get_variant
from mailref.read import read_ballots, read_envelope, read_rule_changes

pytestmark = pytest.mark.spec("2.4")

CORPUS = Path(__file__).parent / "corpus"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())


def test_every_eml_has_an_expectation():
    assert sorted(p.name for p in CORPUS.glob("*.eml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_message(name):
    raw = (CORPUS / name).read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    env = read_envelope(raw, own_address="referee@ref.example")
    want = EXPECTED[name]
    assert env.from_addr == want["from"]
    assert env.subject.tag == want["tag"]
    if "number" in want:
        assert env.subject.number == want["number"]
    if "rest" in want:
        assert env.subject.rest == want["rest"]
    assert env.text == want["text"]  # the whole of the sender's own words, nothing quoted
    if "votes" in want:
        ballots = read_ballots(env.text, env.subject.number).ballots
        assert {str(b.number): b.vote for b in ballots} == want["votes"]
    if want["tag"] == "orders":
        assert env.orders == want["orders"]
    if "changes" in want:
        assert [c.kind for c in read_rule_changes(env.text)] == want["changes"]
    assert (env.machine is not None) == want.get("machine", False)


LINES = json.loads((CORPUS / "ballot_lines.json").read_text())


def test_the_ballot_corpus_is_large_enough():
    assert len(LINES["prose"]) >= 30 and len(LINES["ballots"]) >= 20


@pytest.mark.parametrize("line", LINES["prose"])
def test_prose_is_never_a_ballot(line):
    reading = read_ballots(line, 12)
    assert reading.ballots == [] and reading.ignored == []


@pytest.mark.parametrize("line,number,meaning,variant", LINES["ballots"])
def test_genuine_ballot_forms(line, number, meaning, variant):
    (b,) = read_ballots(line, 12).ballots
    assert (b.number, b.vote, b.line) == (number, meaning, line)
    words = get_variant(variant).vote_words
    translate = getattr(get_variant(variant), "translate_vote", lambda v: v)
    assert translate(meaning) in words  # the word is in that variant's vocabulary

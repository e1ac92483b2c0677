"""The store's JSON (mailref/store/fastjson.py) reads back what the standard library reads back,
for every value the state, the journal and the mail rows hold, and for the odd ones too."""

from __future__ import annotations

import json
import random
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from mailref.store import fastjson

pytestmark = pytest.mark.spec("4.4")


def _value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return rng.randint(-(2**70), 2**70) if rng.random() < 0.2 else rng.randint(-1000, 10**12)
    if kind == 1:
        return rng.random() * 10 ** rng.randint(-5, 20)
    if kind == 2:
        return "".join(rng.choice('aé€😀 "\\\n\t0123456789') for _ in range(rng.randint(0, 30)))
    if kind == 3:
        return rng.choice([True, False, None])
    if kind in (4, 5):
        return "x" * rng.randint(0, 3)
    if kind == 6:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    if kind == 7:
        return {
            rng.choice(["a", "b", "Ü", "12"]) + str(i): _value(rng, depth + 1)
            for i in range(rng.randint(0, 5))
        }
    return {
        i: _value(rng, depth + 1) for i in range(rng.randint(0, 3))
    }  # int keys, as json writes them


def test_round_trips_equal_the_standard_library():
    rng = random.Random(14)
    for _ in range(3000):
        v = _value(rng)
        expected = json.loads(json.dumps(v))
        assert fastjson.loads(fastjson.dumps(v)) == expected
        assert fastjson.copy(v) == expected
        assert fastjson.loads(json.dumps(v)) == expected
        assert fastjson.loads(fastjson.dumps(v).encode()) == expected


def test_a_copy_is_a_copy():
    state = {"players": [{"name": "Alice", "score": 3}], "n": 2**80}
    copied = fastjson.copy(state)
    copied["players"][0]["score"] = 4
    assert state["players"][0]["score"] == 3 and copied["n"] == 2**80


@dataclass
class Thing:
    x: int


class Name(str):
    pass


@pytest.mark.parametrize("odd", [Thing(1), datetime(2026, 12, 1, tzinfo=UTC), {1, 2}])
def test_what_json_refuses_is_refused(odd):
    with pytest.raises(TypeError):
        json.dumps(odd)
    with pytest.raises(TypeError):
        fastjson.dumps({"v": odd})


def test_subclasses_are_written_as_json_writes_them():
    v = {"name": Name("Alice"), "o": OrderedDict(b=1, a=2)}
    assert fastjson.loads(fastjson.dumps(v)) == json.loads(json.dumps(v))


@pytest.mark.parametrize(
    "text",
    ["a\ud800b", "\udcff", "19 digits 1234567890123456789 in a string", "١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨٩٠"],
)
def test_odd_text_reads_back(text):
    """A lone surrogate (undecodable mail bytes read with surrogateescape) is refused by orjson:
    json reads it. Long runs of digits, ASCII or not, read back as they were."""
    for written in (
        fastjson.dumps({"t": text, "n": [2**64, -(2**63) - 1, 10**18]}),
        json.dumps({"t": text}),
    ):
        assert fastjson.loads(written) == json.loads(written)
        assert fastjson.loads(written.encode("utf-8", "surrogatepass")) == json.loads(written)


def test_loads_all_reads_each_as_loads_does():
    rng = random.Random(5)
    for _ in range(200):
        texts = [fastjson.dumps(_value(rng)) for _ in range(rng.randint(0, 6))]
        assert fastjson.loads_all(texts) == [json.loads(t) for t in texts]
    # A run of digits ends at each text: two texts of ten digits are not one run of twenty.
    texts = ["1234567890", "1234567890", '"a\\ud800"']
    assert fastjson.loads_all(texts) == [1234567890, 1234567890, "a\ud800"]
    assert fastjson.loads_all(["18446744073709551616", "1"]) == [2**64, 1]

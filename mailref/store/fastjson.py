"""JSON for the store and the state copy, through orjson where it gives what `json` gives.

A changing command copies the game state and writes it back, and every mail reads it: with
the standard library that was a tenth of a ballot's cost; orjson does the same work tens of
times faster. Wherever orjson would differ from `json` it is not used: objects `json` would
refuse or write differently (subclasses, dataclasses, datetimes, integers beyond 64 bits) make
orjson raise and `json` decides; text with a run of 19 or more digits (an integer orjson
would read as a float) is read by `json`. Only the spelling of the stored text differs (no
spaces, UTF-8 instead of \\u escapes), never what is read back."""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTS = (
    orjson.OPT_NON_STR_KEYS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
)
# A run of 19 ASCII digits, found as a run of "0" once every digit is written "0": bytes.translate
# and `in` are several times faster than a regular expression (the journal `replay` reads is
# megabytes of text). Only ASCII digits can make a JSON number.
_AS_ZERO = bytes.maketrans(b"0123456789", b"0" * 10)
_BIG = b"0" * 19


# Without keys other than strings, orjson writes twice as fast (a long game's state is
# hundreds of kilobytes, written at every change); a key that is not a string is retried.
_STR_KEYS = _OPTS & ~orjson.OPT_NON_STR_KEYS


def _encoded(obj: Any) -> bytes:
    try:
        return orjson.dumps(obj, option=_STR_KEYS)
    except (TypeError, orjson.JSONEncodeError):
        return orjson.dumps(obj, option=_OPTS)


def dumps(obj: Any) -> str:
    try:
        return _encoded(obj).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(obj)


def loads(text: str | bytes | bytearray | memoryview) -> Any:
    if isinstance(text, memoryview):
        text = bytes(text)
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if _BIG in raw.translate(_AS_ZERO):
        return json.loads(text)
    try:
        return orjson.loads(text)
    except (
        orjson.JSONDecodeError
    ):  # e.g. a lone surrogate (mail read with surrogateescape), which json reads
        return json.loads(text)


def loads_all(texts: list[str]) -> list[Any]:
    """loads() of each text, the digit runs looked for once over them all (`replay` reads a
    journal of thousands): orjson alone reads each when none has a long run."""
    if not all(type(t) is str for t in texts):
        return [loads(t) for t in texts]
    # Joined by a line break, no run of digits spans two texts.
    if _BIG in "\n".join(texts).encode("utf-8", "surrogatepass").translate(_AS_ZERO):
        return [loads(t) for t in texts]
    out = []
    for t in texts:
        try:
            out.append(orjson.loads(t))
        except orjson.JSONDecodeError:
            out.append(json.loads(t))
    return out


def copy(obj: Any) -> Any:
    """A deep copy of plain JSON data (what `json.loads(json.dumps(obj))` gives)."""
    try:
        data = _encoded(obj)
    except (TypeError, orjson.JSONEncodeError):
        return json.loads(json.dumps(obj))
    return loads(data)

"""Quick paths give what the slow paths give: outgoing header lines that already fit
(mailref/write/compose.py), headers read without encoded words (mailref/read/envelope.py)."""

from __future__ import annotations

import email.policy
import random
import re
import string
from datetime import UTC, datetime

import pytest

from mailref.write.compose import _WIRE, compose, wire

pytestmark = pytest.mark.spec("2.4", "4.3")

COMPAT32 = email.policy.compat32.clone(linesep="\r\n", max_line_length=78)
NAMES = [
    "Subject",
    "To",
    "From",
    "Message-ID",
    "X-Mailref-Kind",
    "References",
    "In-Reply-To",
    "Date",
    "X",
]


def test_quick_fold_equals_compat32_on_random_header_values():
    rng = random.Random(14)
    alphabet = string.ascii_letters + string.digits + string.punctuation + "   \t=?é\x00"
    quick = 0
    for _ in range(20000):
        name = rng.choice(NAMES)
        value = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 90)))
        assert _WIRE.fold_binary(name, value) == COMPAT32.fold_binary(name, value), (name, value)
        quick += (
            len(name) + len(value) < 76 and value.isascii() and value == " ".join(value.split())
        )
    assert quick > 1000  # the quick path was taken, not only the fallback


def test_composed_mail_is_byte_identical_to_the_compat32_generator():
    now = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    cases = [
        dict(
            sender="Nomes <nomes@ref.example>",
            to="alice@players.example",
            subject="Re: [Help]",
            body="Hi\n" * 40,
            kind="help",
            game="nomes",
            now=now,
            reply=True,
            in_reply_to="<a@b>",
            references=[f"<r{i}@x>" for i in range(12)],
        ),
        dict(
            sender="Éire Mór <eire@ref.example>",
            to="bob@players.example",
            subject="[Éire] Turn 3 — results " * 4,
            body="Tribes: " + "ü" * 300,
            kind="results",
            game="eire",
            now=now,
            html="<p>hi</p>",
            attachments=[("map.svg", "image/svg+xml", b"<svg/>")],
        ),
    ]
    for kw in cases:
        msg = compose(**kw)
        ours, theirs = wire(msg), msg.as_bytes(policy=COMPAT32)
        if kw["subject"].isascii():
            assert ours == theirs
            continue
        # An encoded subject is folded shorter than compat32 folds it (RFC 2047's 75 characters
        # a word, mailref/write/compose.py); everything else is byte for byte the same.
        assert _without_subject(ours) == _without_subject(theirs)
        back = email.message_from_bytes(ours, policy=email.policy.default)["Subject"]
        assert back == kw["subject"].strip()
        words = re.findall(rb"=\?[^?]+\?[bBqQ]\?[^?]*\?=", ours.split(b"\r\n\r\n")[0])
        assert words and max(len(w) for w in words) <= 75


def _without_subject(raw: bytes) -> bytes:
    head, _, body = raw.partition(b"\r\n\r\n")
    return re.sub(rb"Subject:.*?\r\n(?! )", b"", head, flags=re.S) + b"\r\n\r\n" + body


def test_reading_a_plain_header_skips_decoding_and_gives_the_same_text():
    from email.header import decode_header, make_header

    from mailref.read.envelope import clean

    rng = random.Random(7)
    alphabet = string.ascii_letters + string.digits + string.punctuation + "  \t\r\n\x00"
    for _ in range(5000):
        value = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        slow = " ".join(str(make_header(decode_header(value))).replace("\x00", "").split())
        assert clean(value) == slow, value

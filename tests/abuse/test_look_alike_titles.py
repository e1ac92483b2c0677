"""Look-alike text cannot pass as another's: a bidi override in a title, a name that differs only by
an accent."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.hostile_smtp import G, mover
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("2.3")


def test_a_bidi_override_in_a_title_cannot_pass_it_off_as_anothers(game, smtp, outbox):
    """A title ending in U+202E (RIGHT-TO-LEFT OVERRIDE) and "ecilA yb" was announced as
    `Proposal 1: "Hats \u202eecilA yb" by Bob`, which a mail client shows as
    `Proposal 1: "Hats boB yb "by Alice`. Mail text drops bidi controls, as headers do."""
    name, addr = mover(game)
    outbox.new()
    smtp(
        mail(
            addr,
            G,
            "[Proposal] Hats \u202eecilA yb",
            'Enact rule 301 "Hats\u202e":\nHats for \u2067all.',
        ),
        addr,
    )
    sent = outbox.new()
    assert sent and any("Proposal 1" in Outbox.body(m) for m in sent)
    for m in sent:
        for part in m.walk():
            if part.get_content_maintype() == "text":
                text = part.get_content()
                assert not any(
                    c in text for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                ), text
    assert any(f'"Hats ecilA yb" by {name}' in Outbox.body(m) for m in sent)


def test_a_name_that_differs_only_by_an_accent_cannot_join_beside_the_original(game, smtp, outbox):
    """Confusable folding kept accents: "Alíce" (í) joined beside Alice, and read as her in
    every list of players and every announcement at a glance."""
    from mailref.read.names import name_keys

    assert set(name_keys("Alíce")) & set(name_keys("Alice")) and set(
        name_keys("Ali\u0301ce")
    ) & set(name_keys("Alice"))
    assert not set(name_keys("Alina")) & set(name_keys("Alice"))
    outbox.new()
    smtp(mail("mallory@evil.example", G, "[Join]", "Name: Alíce"), "mallory@evil.example")
    confirm_waiting(game)
    (reply,) = outbox.new()
    assert reply["X-Mailref-Kind"] == "error" and "looks like Alice" in Outbox.body(reply)
    assert [p["name"] for p in game.state("nomes")["players"]] == ["Alice", "Bob"]

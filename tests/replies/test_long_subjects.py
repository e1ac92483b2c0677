"""A long subject cut for the reply keeps its label in place."""

from __future__ import annotations

import pytest

from support.helpers import mail
from support.hostile_smtp import BOB, G

pytestmark = pytest.mark.spec("2.6")


def test_a_long_subject_cut_for_the_reply_keeps_its_label_in_place(game, smtp, outbox):
    """A subject cut to 200 characters for the reply ended in a space, and the game's label
    went inside the first word: "Re: [[Nomic Sidekick Nomic] [Propsal] word ..." and, without a
    tag, "Re: B[Nomic Sidekick Nomic] UY ..."."""
    outbox.new()
    smtp(mail(BOB, G, "[Propsal] " + "word " * 50), BOB)
    smtp(mail("gm@ref.example", G, "BUY " * 60), "gm@ref.example")  # a player's is relayed
    subjects = [" ".join(str(m["Subject"]).split()) for m in outbox.new()]
    assert subjects[0].startswith("Re: [Nomic Sidekick Nomic] [Propsal] word word"), subjects
    assert subjects[1].startswith("Re: [Nomic Sidekick Nomic] BUY BUY"), subjects

"""The same question sent twice in Sidekick is one judgement."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail, player_addr
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("2.1")


def test_the_same_question_sent_twice_in_sidekick_is_one_judgement(referee, smtp):
    """SPEC §2.6 (exactly one reply; a matter once): BlogNomic and Imperial took a CfJ sent twice
    word for word (Send pressed twice, a client's retry under a new Message-ID) as one; Sidekick
    opened a second judgement, mailing the judge and every player twice."""
    nomes = "nomes@ref.example"
    referee.create_game("nomes", "sidekick", nomes, name="Nomes")
    for name in ("Alice", "Bob", "Carol"):
        smtp(mail(player_addr(name), nomes, "[Join]", f"Name: {name}"), player_addr(name), nomes)
        confirm_waiting(referee)
    box = Outbox(referee)
    box.new()
    alice = player_addr("Alice")
    for _ in range(2):
        smtp(mail(alice, nomes, "[CfJ] Was Bob's move legal?", "He moved twice."), alice, nomes)
    kinds = [
        (m["To"], m["X-Mailref-Kind"])
        for m in box.new()
        if m["To"] == alice and "Re:" in str(m["Subject"])
    ]
    assert kinds == [(alice, "ack"), (alice, "error")], kinds
    assert [j["number"] for j in referee.state("nomes")["judgements"]] == [1]
    smtp(mail(alice, nomes, "[CfJ] Was Carol's vote counted?", ""), alice, nomes)
    assert [j["number"] for j in referee.state("nomes")["judgements"]] == [1, 2]
    # The check is the handler's: an older journal holding such a copy is still taken by the engine
    # (so `mailref replay` and the site's rule history still replay it).
    copy = {
        "type": "cfj",
        "player": "Alice",
        "question": "Was Bob's move legal?",
        "text": "He moved twice.\n",
    }
    assert referee.admin("nomes", copy, "journal").ok

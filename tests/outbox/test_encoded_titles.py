"""A non-ASCII proposal title is folded in encoded words of at most 75 characters."""

from __future__ import annotations

import pytest

from support.table_play import ENCODED_WORD, NOMES, nomes

pytestmark = pytest.mark.spec("4.3")


def test_a_non_ascii_proposal_title_is_folded_in_encoded_words_of_75_characters(table):
    """Item 20: RFC 2047 §2 — no encoded word longer than 75 characters, whatever the title."""
    nomes(table, "Alice", "Bob")
    mover = table.referee.state("nomes")["turn"]["player"]
    title = "Céilí bonus: féile na nÓg agus ceol le haghaidh gach imreoir atá ag imirt — Ó Briain"
    before = len(table.sink.mails)
    got = table.send(
        f"{mover.lower()}@x.org", NOMES, f"[Proposal] {title}", 'Enact rule 301 "Céilí":\nCéilí.\n'
    )
    assert title in str(table.reply(got, f"{mover.lower()}@x.org")["Subject"])
    raws = table.raw_since(before)
    assert len(raws) == 3  # the ack, and the proposal to each player
    for raw in raws:
        head = raw.split(b"\r\n\r\n")[0]
        words = ENCODED_WORD.findall(head)
        assert words and max(len(w) for w in words) <= 75, max(words, key=len)
        assert max(len(line) for line in head.split(b"\r\n")) <= 78

"""HTML paragraphs of a proposal keep their blank line."""

from __future__ import annotations

import pytest

from support.table_play import NOMES, nomes

pytestmark = pytest.mark.spec("2.4")


def test_html_paragraphs_of_a_proposal_keep_their_blank_line(table):
    """Item 20: two <p> paragraphs are two paragraphs of the rule, as the author saw them."""
    nomes(table, "Alice", "Bob")
    mover = table.referee.state("nomes")["turn"]["player"]
    html = (
        '<html><body><p>Enact rule 301 "Tea":</p><p>Tea is served at four.</p>'
        "<p>Nobody may refuse a second cup.</p></body></html>"
    )
    table.write(f"{mover.lower()}@x.org", NOMES, "[Proposal] Tea", "", html=html)
    prop = table.referee.state("nomes")["proposals"][0]
    assert prop["changes"][0]["text"] == "Tea is served at four.\n\nNobody may refuse a second cup."

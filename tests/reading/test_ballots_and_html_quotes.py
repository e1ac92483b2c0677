"""Ballots are read only from unmistakable lines (SPEC §3.2), and each client's HTML quote is
removed as HTML, before any text exists (SPEC §2.4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mailref.read import read_ballots
from mailref.read.ballots import VOTE_WORDS
from mailref.read.html import html_texts

pytestmark = pytest.mark.spec("3.2", "2.4")

# ---- ballots -----------------------------------------------------------------------------

FORMS = [
    "{w}",
    "**{w}**",
    "*{w}*",
    "{w}!",
    "{w}.",
    "I vote {w}",
    "Vote: {w}",
    "My vote is {w}",
    "12 {w}",
    "#12: {w}",
    "Proposal 12 - {w}",
]
# Words that are part of the allowed forms themselves; any other word is "beyond" them.
FORM_WORDS = {
    "i",
    "vote",
    "my",
    "is",
    "proposal",
    "prop",
    "p",
    "cfj",
    "dov",
    "matter",
    "no",
    "b",
    "it",
    "this",
}
extra_words = st.text(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'", min_size=1, max_size=9
).filter(lambda w: w.lower().strip("'") not in FORM_WORDS and w.strip("'"))


@settings(max_examples=300, deadline=None)
@given(
    form=st.sampled_from(FORMS),
    word=st.sampled_from(sorted(VOTE_WORDS)),
    extra=st.lists(extra_words, min_size=1, max_size=3),
    before=st.booleans(),
    sep=st.sampled_from([" ", ", ", " -- ", ": ", "; "]),
    no_break=st.sampled_from([" ", ", ", " and "]),
)
def test_a_line_with_words_beyond_the_allowed_forms_is_never_a_ballot(
    form, word, extra, before, sep, no_break
):
    ballot = form.format(w=word)
    assert read_ballots(ballot, 12).ballots  # the form alone is a ballot ...
    words = " ".join(extra)
    # ... with any other word before it, or after it without a sentence break, it is prose
    line = f"{words}{sep}{ballot}" if before else f"{ballot.rstrip('.!')}{no_break}{words}"
    assert read_ballots(line, 12).ballots == []


@pytest.mark.parametrize(
    "line",
    ["Present company excepted, I vote against.", "No strong feelings yet -- what does this mean?"],
)
def test_prose_is_reported_as_a_near_miss_not_a_ballot(line):
    r = read_ballots(f"Hi all,\n{line}\nCheers", 12)
    assert r.ballots == [] and r.near_misses == [line]


def test_a_long_line_of_emphasis_is_read_quickly_and_is_no_ballot():
    assert read_ballots("*" * 100_000 + "FOR" + "_" * 100_000, 1).ballots == []


# ---- HTML quotes, per client --------------------------------------------------------------

OWA = (
    '<div>AGAINST</div><div id="appendonsend"></div><hr style="display:inline-block;width:98%">'
    '<div id="divRplyFwdMsg" dir="ltr"><font><b>From:</b> Nomes<br><b>Sent:</b> Tuesday<br>'
    "<b>To:</b> Nora<br><b>Subject:</b> [Proposal 1] x</font><div>&nbsp;</div></div>"
    "<div>1 FOR</div>"
)
OWA_HR_ONLY = (
    "<div><b>Attack Reudh with 12 Grain</b></div><hr><font><b>From:</b> Eire<br>"
    "<b>Sent:</b> Monday<br><b>To:</b> Oisin<br><b>Subject:</b> [Orders]</font>"
    "<div><b>Attack Donal with 5 Grain</b></div>"
)
OUTLOOK_DESKTOP = (
    '<p>FOR</p><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">'
    "<p><b>From:</b> Nomes<br><b>Sent:</b> Tuesday<br><b>To:</b> Bob</p></div><p>AGAINST</p>"
)
GMAIL = (
    '<div dir="ltr">FOR</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">'
    'On Tue, Bob wrote:<br></div><blockquote class="gmail_quote">AGAINST</blockquote></div>'
)
GMAIL_ATTR_ONLY = (
    '<div>FOR</div><div class="gmail_quote">Bob said<div>AGAINST</div></div><div>after</div>'
)
APPLE = (
    'Against.<div><br><blockquote type="cite"><div>On 1 Dec 2026, at 09:00, Nomes wrote:</div>'
    "<div>FOR</div></blockquote></div>"
)
THUNDERBIRD = (
    '<div class="moz-cite-prefix">On 01.12.26 09:00, Nomes wrote:<br></div>'
    '<blockquote type="cite">AGAINST would be silly</blockquote><p>I vote FOR</p>'
)


@pytest.mark.parametrize(
    "html,own",
    [
        (OWA, "AGAINST"),
        (OWA_HR_ONLY, "**Attack Reudh with 12 Grain**"),
        (OUTLOOK_DESKTOP, "FOR"),
        (GMAIL, "FOR"),
        (GMAIL_ATTR_ONLY, "FOR\nafter"),
        (APPLE, "Against."),
        (THUNDERBIRD, "I vote FOR"),
        # an unclosed quote runs to the end, as a browser shows it
        ('<p>FOR</p><blockquote type="cite"><div>AGAINST', "FOR"),
    ],
)
def test_each_clients_quote_is_removed_as_html(html, own):
    full, mine = html_texts(html)
    assert mine == own
    assert len(full) > len(mine)  # the whole body keeps the quote


def test_a_rule_that_starts_no_header_block_is_the_senders_own():
    html = "<p>FOR</p><hr><p>From: my notes</p><p>more</p>"
    assert html_texts(html) == ("FOR\n\nFrom: my notes\n\nmore",) * 2  # paragraphs stay apart


def test_quote_removal_is_linear_in_the_html():
    # 5,000 nested quotes and 5,000 rules: one pass, no quadratic rescans
    html = (
        '<blockquote type="cite">' * 5_000 + "x" + "</blockquote>" * 5_000 + "<hr><p>y</p>" * 5_000
    )
    full, mine = html_texts("<p>FOR</p>" + html)
    assert mine.startswith("FOR")


def test_the_hint_speaks_the_games_own_vote_words():
    from mailref.engine import get_variant
    from mailref.read.ballots import how_to_vote

    hint = how_to_vote(get_variant("imperial").vote_words)
    assert "`I vote YES`" in hint and "(the votes here: YES, NO)" in hint
    assert "`12 FOR`" in how_to_vote(get_variant("blognomic").vote_words)


def test_a_header_block_inside_a_quote_does_not_cut_the_reply_below_it():
    html = (
        '<div class="moz-cite-prefix">On 01.12.26, Nomes wrote:</div><blockquote type="cite">'
        "<hr><b>From:</b> Bob<br><b>Sent:</b> Monday<br><b>To:</b> "
        "all<br>FOR</blockquote><p>AGAINST</p>"
    )
    assert html_texts(html)[1] == "AGAINST"

"""Each mail program's quote is recognised in the HTML by its structure, before any text exists,
and the words the sender wrote above it are all kept (SPEC §2.4)."""

from __future__ import annotations

import pytest

from mailref.read import read_ballots, read_envelope
from mailref.read.html import html_texts
from support.helpers import mail

pytestmark = pytest.mark.spec("2.4")

MINE_HTML = "<div>AGAINST. It breaks rule 5.</div><div>Oisin</div>"
MINE = "AGAINST. It breaks rule 5.\nOisin"
HEADER = (
    "<b>From:</b> Nora Quill &lt;nora@quill.example&gt;<br><b>Sent:</b> Tuesday, 1 December 2026 "
    "10:00<br>"
    "<b>To:</b> Oisin<br><b>Subject:</b> [Proposal 5] Dice<br>"
)
QUOTES = {
    "gmail": (
        '<div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Tue, 1 Dec 2026 at 10:00, '
        "Nora "
        'Quill wrote:<br></div><blockquote class="gmail_quote" style="margin:0 0 0 '
        '.8ex">FOR</blockquote></div>'
    ),
    "gmail, quoted again by outlook.com": '<div class="x_gmail_quote">On Tuesday Nora wrote:<div>FOR</div></div>',  # noqa: E501 - one real-world line, kept whole
    "apple mail": (
        '<div><br><blockquote type="cite"><div>On 1 Dec 2026, at 10:00, Nora Quill wrote:</div>'
        "<div>FOR</div></blockquote></div>"
    ),
    "thunderbird": (
        '<div class="moz-cite-prefix">On 01/12/2026 10:00, Nora Quill wrote:<br></div>'
        '<blockquote type="cite"><p>FOR</p></blockquote>'
    ),
    "yahoo": (
        '<div class="yahoo_quoted" id="yahoo_quoted_7"><div>On Tuesday, 1 December 2026, 10:00, '
        "Nora Quill "
        "wrote:</div><div>FOR</div></div>"
    ),
    "outlook web": (
        '<div id="appendonsend"></div><hr style="display:inline-block;width:98%">'
        f'<div id="divRplyFwdMsg" dir="ltr"><font>{HEADER}</font></div><div>FOR</div>'
    ),
    "outlook web, x_ prefixed": f'<div id="x_divRplyFwdMsg">{HEADER}</div><div>FOR</div>',
    "outlook 2003": (
        f'<div class="OutlookMessageHeader" lang="en-us" dir="ltr" align="left"><hr>{HEADER}'
        "</div><div>FOR</div>"
    ),
    "outlook desktop, top border": (
        '<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">'
        f"<p>{HEADER}</p></div><p>FOR</p>"
    ),
    "hotmail, date first": (
        "<hr>Date: Tue, 1 Dec 2026 10:00:00 +0000<br>To: oisin@x.org<br>"
        "From: nora@quill.example<br>Subject: Dice<br><br>FOR"
    ),
    "rule then bold fields on one line": (
        "<div><hr/><div><font><b>From: nora@quill.example</b> "
        "<b>Date: Tue, 1 Dec 2026 10:00:00 +0000</b></font></div><div>FOR</div></div>"
    ),
    "rule then german block": (
        "<hr><b>Von:</b> Nora<br><b>Gesendet:</b> Dienstag, 1. Dezember 2026 10:00<br>"
        "<b>An:</b> Oisin<br><b>Betreff:</b> Dice<br>FOR"
    ),
}


@pytest.mark.parametrize("quote", QUOTES.values(), ids=QUOTES.keys())
def test_the_clients_quote_is_removed_and_every_own_line_kept(quote):
    full, own = html_texts(f"<html><body>{MINE_HTML}{quote}</body></html>")
    assert own == MINE
    assert "FOR" in full


@pytest.mark.parametrize("quote", QUOTES.values(), ids=QUOTES.keys())
def test_an_html_only_reply_votes_with_the_senders_line_only(quote):
    raw = mail("oisin@x.org", "nomes@ref.example", "Re: [Proposal 5] Dice", html=MINE_HTML + quote)
    env = read_envelope(raw)
    assert env.text == MINE
    assert [(b.vote, b.reason) for b in read_ballots(env.text, 5).ballots] == [
        ("AGAINST", "It breaks rule 5.")
    ]


def test_a_rule_in_the_senders_own_words_is_kept():
    html = "<p>FOR</p><hr><p>Date: whenever suits</p><p>See you then.</p>"
    assert html_texts(html)[1] == "FOR\n\nDate: whenever suits\n\nSee you then."


ATTRIBUTION = "<div>On Tue, 1 Dec 2026 at 10:00, Nora Quill &lt;nora@quill.example&gt; wrote:</div>"


def test_a_blockquote_the_sender_set_above_the_attribution_is_their_own_words():
    """A plain <blockquote> (no program marks its quote so) above the attribution of the mail
    answered is the sender's own indented text; the quote below the attribution is not."""
    html = (
        f"{MINE_HTML}<blockquote>Rule 5 reads: tea at five.</blockquote>"
        f"{ATTRIBUTION}<blockquote><div>FOR</div></blockquote>"
    )
    own = html_texts(html)[1]
    assert "Rule 5 reads: tea at five." in own and "> Rule 5" not in own
    env = read_envelope(mail("oisin@x.org", "g@ref.example", "Re: [Proposal 5]", html=html))
    assert env.text == f"{MINE}\nRule 5 reads: tea at five."


@pytest.mark.parametrize(
    "blockquote",
    [
        '<blockquote type="cite">FOR</blockquote>',
        '<blockquote class="gmail_quote">FOR</blockquote>',
    ],
)
def test_a_quote_a_program_marked_stays_a_quote_above_an_attribution(blockquote):
    html = f"{MINE_HTML}{blockquote}{ATTRIBUTION}<blockquote>FOR</blockquote>"
    env = read_envelope(mail("oisin@x.org", "g@ref.example", "Re: [Proposal 5]", html=html))
    assert env.text == MINE


def test_a_plain_blockquote_with_no_attribution_below_stays_a_quote():
    html = f"{MINE_HTML}<blockquote>FOR</blockquote>"
    env = read_envelope(mail("oisin@x.org", "g@ref.example", "Re: [Proposal 5]", html=html))
    assert env.text == MINE

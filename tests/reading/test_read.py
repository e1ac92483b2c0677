"""Reading mail as people write it (SPEC §2.4, §2.5, §3)."""

from __future__ import annotations

import glob
import os
import sysconfig

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mailref.read import (
    bold_orders,
    own_words,
    parse_subject,
    read_ballots,
    read_envelope,
    read_rule_changes,
    strip_brace_comments,
)
from mailref.read.html import html_to_text
from mailref.read.rulechanges import RuleChangeError
from support.helpers import mail

pytestmark = pytest.mark.spec("2.4", "2.5", "3.1", "3.2", "3.3")


@pytest.mark.parametrize(
    "subject,tag,number,rest",
    [
        ("[Proposal] More points", "proposal", None, "More points"),
        ("Re: [Proposal 12] More points", "proposal", 12, "More points"),
        ("RE: AW: Fwd: [proposal 3] x", "proposal", 3, "x"),
        ("SV: Re[2]: [Vote] 7", "vote", 7, ""),
        ("[nomes] Re: [CfJ] Is rule 3 broken?", "cfj", None, "Is rule 3 broken?"),
        ("[Point of Order] Timing", "point-of-order", None, "Timing"),
        ("[Roll] DICE6", "roll", None, "DICE6"),
        ("[ruling] 4", "ruling", 4, ""),
        ("=?utf-8?q?=5BJoin=5D_s=C3=BC=C3=9F?=", "join", None, "süß"),
        ("Hello there", None, None, "Hello there"),
    ],
)
def test_subject_tags(subject, tag, number, rest):
    raw = mail("a@x.org", "g@x.org", "placeholder").replace(
        b"Subject: placeholder", b"Subject: " + subject.encode()
    )
    s = read_envelope(raw).subject
    assert (s.tag, s.number, s.rest) == (tag, number, rest)


def test_away_and_returned_subjects_name_the_player():
    assert parse_subject("Bob is away").tag == "away"
    assert parse_subject("Bob is away").name == "Bob"
    assert parse_subject("Re: Bob has returned").tag == "back"


def test_vote_in_a_quote_never_counts():
    text = own_words(
        "Thanks!\n\nOn Mon, 30 Nov 2026 at 10:02, Bob <bob@x.org> wrote:\n> FOR\n> AGAINST\n"
    )
    assert read_ballots(text, 12).ballots == []


def test_bottom_posting_keeps_the_reply_below_the_quote():
    text = own_words("On Mon, Bob wrote:\n> Proposal text\n> more\n\nAGAINST\n")
    assert [b.vote for b in read_ballots(text, 12).ballots] == ["AGAINST"]


@pytest.mark.parametrize(
    "attribution",
    [
        "Am 30.11.2026 um 10:02 schrieb Bob <bob@x.org>:",
        "Le lun. 30 nov. 2026 à 10:02, Bob <bob@x.org> a écrit :",
        "El lun, 30 nov 2026 a las 10:02, Bob (<bob@x.org>) escribió:",
        "Op ma 30 nov. 2026 om 10:02 schreef Bob <bob@x.org>:",
        "-----Original Message-----",
        "---------- Forwarded message ---------",
    ],
)
def test_attributions_in_many_languages_end_the_own_words(attribution):
    text = own_words(f"FOR\n\n{attribution}\nAGAINST is what I said before\n")
    assert text == "FOR"


def test_outlook_header_block_and_signature_and_footer():
    body = (
        "AGAINST\n\nSent from my iPhone\n\n________________________________\nFrom: Bob "
        "<bob@x.org>\n"
        "Sent: Monday, 30 November 2026 10:02\nTo: nomes\nSubject: [Proposal 3]\n\nFOR\n"
    )
    assert own_words(body) == "AGAINST"
    assert own_words("FOR\n-- \nAlice\nVote FOR everything\n") == "FOR"
    assert own_words("AGAINST\n\nFrom: Bob\nSent: today\nTo: me\n\nFOR") == "AGAINST"


@pytest.mark.parametrize(
    "text,expected",
    [
        ("<p>Chatter <b>Attack Bain with 17 Grain</b></p>", ["Attack Bain with 17 Grain"]),
        ("<p><strong>Defend Donal with 5 Grain.</strong></p>", ["Defend Donal with 5 Grain"]),
        (
            '<span style="font-weight: bold">Invest 10 Grain in Llanc</span>',
            ["Invest 10 Grain in Llanc"],
        ),
        ('<span style="font-weight:700">Declare High King</span>', ["Declare High King"]),
    ],
)
def test_bold_in_html(text, expected):
    assert bold_orders(html_to_text(text)) == expected


def test_bold_in_plain_markdown_and_bbcode_one_order_per_sentence():
    text = (
        "I think **Attack Bain with 5 Grain. Defend Donal\nwith 3 Grain** and *Invest 2 Grain in "
        "Llanc* and [b]Declare High King[/b], __Defend Reudh with 1 Grain__"
    )
    assert bold_orders(text) == [
        "Attack Bain with 5 Grain",
        "Defend Donal with 3 Grain",
        "Invest 2 Grain in Llanc",
        "Declare High King",
        "Defend Reudh with 1 Grain",
    ]


def test_html_only_mail_blockquote_is_a_quote():
    raw = mail(
        "a@x.org",
        "g@x.org",
        "Re: [Proposal 2] x",
        "",
        html="<div>FOR</div><blockquote>AGAINST</blockquote>",
    )
    # a text/plain part that is empty falls back to the HTML
    env = read_envelope(raw.replace(b"Content-Type: text/plain", b"Content-Type: text/x-nothing"))
    assert env.text.strip() == "FOR"


@pytest.mark.parametrize(
    "line,number,vote",
    [
        ("12 FOR", 12, "FOR"),
        ("#12: AGAINST", 12, "AGAINST"),
        ("Proposal 12 - FOR", 12, "FOR"),
        ("P7 abstain", 7, "ABSTAIN"),
        ("3: DEF", 3, "DEFERENTIAL"),
        ("**4 VETO**", 4, "VETO"),
    ],
)
def test_numbered_ballot_lines(line, number, vote):
    (b,) = read_ballots(line).ballots
    assert (b.number, b.vote) == (number, vote)


def test_several_ballots_last_one_in_the_mail_wins():
    r = read_ballots("12 FOR\n13 AGAINST\n12 AGAINST\n")
    assert {b.number: b.vote for b in r.ballots} == {12: "AGAINST", 13: "AGAINST"}
    assert r.ignored and "replaced" in r.ignored[0][1]


@pytest.mark.parametrize(
    "text,vote",
    [
        ("FOR", "FOR"),
        ("Great idea.\nYes!", "FOR"),
        ("I vote against.", "AGAINST"),
        ("**Abstain**", "ABSTAIN"),
    ],
)
def test_a_ballot_line_in_a_reply(text, vote):
    assert read_ballots(text, 5).ballots[0].vote == vote


@pytest.mark.parametrize("text", ["yes, of course", "I vote against this one.", "Great idea. FOR"])
def test_prose_with_a_vote_word_is_no_ballot(text):
    r = read_ballots(text, 5)
    assert r.ballots == [] and r.near_misses == [text]


def test_two_ballot_lines_for_one_proposal_the_last_counts():
    r = read_ballots("FOR\nActually, no.\nAGAINST", 5)
    assert [(b.number, b.vote, b.line) for b in r.ballots] == [(5, "AGAINST", "AGAINST")]
    assert r.ignored == [("FOR", "replaced by a later vote on 5 in the same mail")]


def test_rule_changes_all_forms_with_curly_quotes():
    text = (
        "Preamble that is not a change.\n"
        "Enact rule 24 “Bonus”:\nEveryone gets 5 points.\nReally.\n"
        'Enact a new rule 25 titled "Second":\nText two.\n'
        'Enact a new rule entitled "Third" with the following text:\nText three.\n'
        "Amend rule 12 to read:\nNew twelve.\n"
        "In rule 21.3.1, replace “five” with “seven”.\n"
        "Repeal rule 15.\n"
        'Retitle rule "Voting" to "Ballots".\n'
    )
    cs = read_rule_changes(text)
    assert [c.kind for c in cs] == [
        "enact",
        "enact",
        "enact",
        "amend",
        "replace",
        "repeal",
        "retitle",
    ]
    assert (cs[0].number, cs[0].title, cs[0].text) == (
        "24",
        "Bonus",
        "Everyone gets 5 points.\nReally.",
    )
    assert (cs[2].number, cs[2].title) == (None, "Third")
    assert (cs[4].number, cs[4].old, cs[4].new) == ("21.3.1", "five", "seven")
    assert (cs[6].ref_title, cs[6].title) == ("Voting", "Ballots")


def test_malformed_rule_change_names_the_line():
    with pytest.raises(RuleChangeError) as e:
        read_rule_changes("Hello\nRepeal rule fifteen please\n")
    assert e.value.line == 2


def test_brace_comments_removed_square_kept():
    assert strip_brace_comments("Rule {why not} text [note]") == "Rule  text [note]"


def test_charsets_and_transfer_encodings():
    raw = (
        b"From: =?iso-8859-1?q?J=F6rg?= <j@x.org>\r\nTo: g@x.org\r\nSubject: [Vote] 3\r\n"
        b"Content-Type: text/plain; charset=windows-1252\r\nContent-Transfer-Encoding: "
        b"quoted-printable\r\n\r\n"
        b"AGAINST =93quoted=94 caf=E9\r\n"
    )
    env = read_envelope(raw)
    assert env.from_name == "Jörg" and "café" in env.text and "“quoted”" in env.text
    raw2 = (
        b"From: a@x.org\r\nSubject: [Vote] 3\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Transfer-Encoding: base64\r\n\r\nRk9SIOKckw==\r\n"
    )
    assert read_envelope(raw2).text == "FOR ✓"


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x00\x00\x00",
        b"From: \xff\xfe <x@y>\r\nSubject: \xe9t\xe9\r\n\r\nbody\x00",
        b"Content-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\nContent-Type: text/plain; "
        b"charset=bogus-9\r\n\r\nFOR",
        b"Subject: " + b"x" * 5000 + b"\r\n\r\n" + b"y" * 5000,
        b"Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!notbase64",
    ],
)
def test_bad_mail_yields_an_envelope(raw):
    env = read_envelope(raw)
    assert env.sha256 and isinstance(env.text, str)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_any_bytes_give_an_envelope_deterministically(raw):
    a, b = read_envelope(raw), read_envelope(raw)
    assert a == b


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=500))
def test_any_text_reads_ballots_and_changes_without_crashing(text):
    read_ballots(text, 1)
    try:
        read_rule_changes(text)
    except RuleChangeError:
        pass


def test_cpython_email_samples_parse():
    root = sysconfig.get_paths()["stdlib"]
    files = glob.glob(os.path.join(root, "test", "test_email", "data", "msg_*.txt"))
    if not files:
        pytest.skip("CPython's test_email data is not installed here")
    for f in files:
        with open(f, "rb") as fh:
            read_envelope(fh.read())


LANDS = ["Donal", "Reudh", "Bain", "Llanc", "Tír Conaill"]


def test_eire_orders_from_bold_with_did_you_mean():
    from mailref.engine.orders import read_eire_orders

    html = (
        "<p>Friends, my plan: <b>Attack bain with 17 Grain.</b> <b>Defend DONAL with 5 Grain</b> "
        "<b>Invest 10 Grain in tir conaill</b> <b>Attack Llanx with 3 Grain</b> <b>Declare High "
        "King</b> "
        "<b>Eat lunch</b></p>"
    )
    r = read_eire_orders(bold_orders(html_to_text(html)), LANDS)
    assert [(o.kind, o.land, o.grain) for o in r.orders] == [
        ("attack", "Bain", 17),
        ("defend", "Donal", 5),
        ("invest", "Tír Conaill", 10),
        ("high-king", None, None),
    ]
    assert r.rejected[0] == (
        "Attack Llanx with 3 Grain",
        'there is no land "Llanx"; did you mean Llanc?',
    )
    assert r.rejected[1][0] == "Eat lunch" and "not an order" in r.rejected[1][1]


def test_free_text_orders_are_each_bold_sentence():
    from mailref.engine.orders import read_free_orders

    r = read_free_orders(bold_orders("chatter **Army Paris - Burgundy. Fleet Brest holds.** more"))
    assert [o.text for o in r.orders] == ["Army Paris - Burgundy", "Fleet Brest holds"]


@pytest.mark.parametrize(
    "subject,number,rest",
    [
        ("[Vote] Proposal 1", 1, ""),
        ("[Vote]: 6", 6, ""),
        ("[Vote] P6", 6, ""),
        ("[Vote] on #6", 6, ""),
        ("[Vote] 12 - my ballot", 12, "my ballot"),
        ("Re: [Proposal] 3 strikes rule", 3, "strikes rule"),
    ],
)
def test_the_vote_subject_names_its_proposal_in_the_ways_people_write_it(subject, number, rest):
    s = parse_subject(subject)
    assert (s.number, s.rest) == (number, rest)


def test_a_proposal_title_may_start_with_a_number():
    s = parse_subject("[Proposal] 3 strikes rule")
    assert (s.tag, s.number, s.rest) == ("proposal", None, "3 strikes rule")


@pytest.mark.parametrize(
    "body,text,signoff",
    [
        ('Enact rule 27 "Café Rule":\nCoffee is served.\n\nBob', "Coffee is served.", "Bob"),
        (
            'Enact rule 27 "X":\nLine one.\nLine two.\n\nThoughts welcome!\n\nCheers, Bob',
            "Line one.\nLine two.",
            "Thoughts welcome! / Cheers, Bob",
        ),
        ('Enact rule 30 "Y":\nA rule.\n\n— Bob Brown', "A rule.", "— Bob Brown"),
        (
            "Amend rule 5 to read:\nAll players vote.\n\nPenalties apply to late votes.",
            "All players vote.\n\nPenalties apply to late votes.",
            None,
        ),
        (
            'Enact rule 31 "Z":\nThe Judge decides.\n\nSee Also',
            "The Judge decides.\n\nSee Also",
            None,
        ),
    ],
)
def test_the_mails_closing_words_are_not_rule_text(body, text, signoff):
    (change,) = read_rule_changes(body, "Bob Brown")
    assert (change.text, change.signoff) == (text, signoff)

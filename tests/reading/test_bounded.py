"""Every reading step takes bounded, linear time whatever the mail holds: each pattern that
can be slow on adversarial text has a generous budget of CPU time that a super-linear pattern
would blow by far, and each step is given adversarial inputs of 1 MB."""

from __future__ import annotations

import time

import pytest

from mailref.engine.orders import read_eire_orders, read_free_orders
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
from mailref.read.limits import READ_MAX
from mailref.read.rulechanges import RuleChangeError
from support.helpers import mail

pytestmark = pytest.mark.spec("2.4")

# CPU seconds of this process (other processes on a loaded machine do not count): a
# backtracking pattern takes from 10 s to minutes on these inputs, a linear one well under 0.5 s.
BUDGET = 5.0
STEP_BUDGET = 10.0
MB = 1_000_000


def within_budget(fn, *args) -> float:
    t = time.process_time()
    try:
        fn(*args)
    except RuleChangeError:
        pass  # refusing a malformed line is an answer too
    spent = time.process_time() - t
    assert spent < BUDGET, f"{getattr(fn, '__name__', fn)} took {spent:.1f}s"
    return spent


def fill(unit: str, size: int = MB) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def test_bold_on_100kb_of_unclosed_bbcode_lines():
    within_budget(bold_orders, "[b]x\n" * 20_000)  # took 10.6 s


def test_attribution_pattern_on_one_8kb_line():
    within_budget(own_words, "a <@ " * 1600 + "\n> quoted")  # took over a minute


def test_ballots_on_lines_of_emphasis_marks():
    within_budget(read_ballots, fill("b" * 300 + "\n", 100_000), 3)  # took 18 s
    within_budget(read_ballots, fill("*" * 200 + "x\n", 100_000), 3)


def test_brace_comments_on_a_long_run_of_spaces():
    within_budget(strip_brace_comments, " " * 100_000 + "x")  # took 15 s at 40 KB, quadratic


ADVERSARIAL = {
    "unclosed-bbcode": fill("[b]x\n"),
    "attribution": fill("a <@ "),
    "attribution-lines": fill("a <@ " * 50 + "\n"),
    "schrieb": fill("Am" + " schrieb" * 30 + "\n"),
    "spaces": " " * MB + "x",
    "space-lines": fill(" " * 500 + "x\n"),
    "stars": fill("*" * 200 + "x\n"),
    "bees": fill("b" * 300 + "\n"),
    "votes": fill("vote " * 100 + "\n"),
    "digits": fill("1 " * 200 + "\n"),
    "enact": fill("Enact rule " + "1." * 100 + "\n"),
    "replace": fill('In rule 1, replace "' + 'a" ' * 100 + "\n"),
    "wrote": fill("On x\nwrote" + " " * 300 + "x\n"),
    "headers": fill("From: x\n"),
    "quotes": fill(">" * 1000 + "\n"),
    "marks": fill("-*_[]/b> :" * 30 + "\n"),
    "bold-orders": fill("**defend with " * 20 + "**\n"),
    "underscores": fill("__x " * 10 + "\n"),
    "html": fill("<b><i>x<p style='font-weight:bold'>" * 3 + "<a <@ \n"),
}
STEPS = {
    "own_words": own_words,
    "ballots": lambda t: read_ballots(t, 3),
    "numbered-ballots": read_ballots,
    "rule_changes": read_rule_changes,
    "brace_comments": strip_brace_comments,
    "subject": parse_subject,
    "html": html_to_text,
    "bold": bold_orders,
    "eire_orders": lambda t: read_eire_orders(bold_orders(t), ["Donal", "Bain"]),
    "free_orders": lambda t: read_free_orders(bold_orders(t)),
}


@pytest.mark.parametrize("kind", sorted(ADVERSARIAL))
def test_every_reading_step_is_bounded_on_1mb(kind):
    text = ADVERSARIAL[kind]
    for name, step in STEPS.items():
        t = time.process_time()
        try:
            step(text)
        except RuleChangeError:
            pass
        assert time.process_time() - t < STEP_BUDGET, f"{name} on {kind}"


@pytest.mark.parametrize("kind", ["unclosed-bbcode", "attribution-lines", "bees", "html"])
def test_read_envelope_is_bounded_on_a_1mb_mail(kind):
    text = ADVERSARIAL[kind]
    raw = mail(
        "a@x.org",
        "g@ref.example",
        "[Orders] " + " ".join(text[:5000].split()),
        text,
        html=f"<p>{text}</p>",
    )
    t = time.process_time()
    read_envelope(raw)
    assert time.process_time() - t < STEP_BUDGET


def test_reading_sees_a_bounded_text_and_the_start_of_a_long_one():
    env = read_envelope(mail("a@x.org", "g@ref.example", "[Vote] 3", "FOR\n" + "x" * 3 * READ_MAX))
    assert len(env.text) <= READ_MAX and env.text.startswith("FOR")


# Constructs left open make the standard library's HTML parser rescan to the end each time:
# 200 KB of "<!--" took 200 s, 60 KB of "<a b='" 60 s.
@pytest.mark.parametrize("unit", ["<!--", "<a b='", '<b x="', "<![CDATA[", "<?", "<a", "</", "<!x"])
def test_html_left_open_is_read_in_linear_time(unit):
    within_budget(html_to_text, fill(unit, 200_000))


def multipart(body: str) -> bytes:
    return (
        "From: a@x.org\r\nTo: g@ref.example\r\nSubject: [Status]\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/mixed; boundary="b0"\r\n\r\n' + body
    ).encode()


def test_a_mail_of_many_mime_parts_is_read_at_once():
    """10 MB of one-line parts (the listener's size limit): the parser took minutes."""
    env = read_envelope(multipart("--b0\r\nContent-Type: text/plain\r\n\r\nx\r\n" * 280_000))
    assert env.truncated and "too many MIME parts" in env.defects[-1]
    within_budget(
        read_envelope, multipart("--b0\r\nContent-Type: text/plain\r\n\r\nx\r\n" * 280_000)
    )


def test_mime_nested_past_the_parsers_recursion_is_read_not_raised():
    deep = "".join(
        f'--b{i}\r\nContent-Type: multipart/mixed; boundary="b{i + 1}"\r\n\r\n' for i in range(950)
    )
    raw = multipart(deep + "--b950\r\n\r\nhello\r\n")
    within_budget(read_envelope, raw)  # was: RecursionError, the mail quarantined
    env = read_envelope(raw)
    assert env.subject.tag == "status" and env.truncated


def headed(header: str, body: str = "hi") -> bytes:
    return f"From: a@x.org\r\nSubject: [Status]\r\n{header}\r\n\r\n{body}\r\n".encode()


@pytest.mark.parametrize(
    "header",
    [
        "To: "
        + ", ".join(f"u{i}@x.org" for i in range(100_000)),  # took 235 s (a list kept unique)
        "Cc: " + ", ".join(f"N{i} <u{i}@x.org>" for i in range(100_000)),
        "X-Subject: " + "=?utf-8?q?a?= " * 100_000,  # took 25 s as a Subject
    ],
    ids=["to", "cc", "encoded-words"],
)
def test_a_header_of_a_megabyte_is_read_at_once(header):
    within_budget(read_envelope, headed(header))


def test_a_subject_of_100000_encoded_words_is_read_at_once_and_is_no_command():
    raw = "From: a@x.org\r\nSubject: [Status] " + "=?utf-8?q?a?= " * 100_000 + "\r\n\r\nhi\r\n"
    within_budget(read_envelope, raw.encode())


def test_the_newest_references_of_a_huge_header_are_kept():
    env = read_envelope(headed("References: " + " ".join(f"<m{i}@x>" for i in range(100_000))))
    assert env.references[-1] == "<m99999@x>"


def test_a_9mb_body_of_bounce_words_is_scanned_at_once():
    """flufl.bounce's patterns searched all of it: 40 s."""
    within_budget(
        read_envelope,
        headed(
            "Content-Type: text/plain", "error: user@x.org failed, unknown mailbox\r\n" * 210_000
        ),
    )

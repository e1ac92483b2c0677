"""Rule numbers are bounded when a mail submits them (8 levels, 6 digits a part) and
answered with a clear error; a ruleset however deep is published without recursion, and a
game whose pages cannot be made is said once and tried again with a growing wait."""

from __future__ import annotations

import logging
import re

import pytest

from mailref.config import SiteConfig
from mailref.site import rebuild, trouble
from support.helpers import Outbox, mail, make_referee
from support.joining import confirm_waiting
from support.listener import listening, submit

pytestmark = pytest.mark.spec("3.1")

G = "empire@ref.example"
JOE, ANN = "joe@example.org", "ann@example.org"


@pytest.fixture
def empire(tmp_path, clock):
    """An imperial game with Joe its Emperor and Ann a Senator, and a send function."""
    referee = make_referee(tmp_path, clock)
    referee.create_game("empire", "imperial", G)
    with listening(referee, 10_000_000) as port:

        def send(who: str, subject: str, body: str = "") -> None:
            submit(port, who, [G], mail(who, G, subject, body))

        send(JOE, "[Join]", "Name: Joe")
        confirm_waiting(referee)
        send(ANN, "[Join]", "Name: Ann")
        confirm_waiting(referee)
        yield referee, send


@pytest.mark.parametrize(
    "number, words",
    [
        ("1.1.1.1.1.1.1.1.1", "9 levels deep; a rule number has at most 8"),
        ("9" * 1900, "a part of 1,900 digits; each part of a rule number has at most 6"),
        ("21.1234567", "a part of 7 digits"),
    ],
)
def test_a_rule_number_too_deep_or_too_long_is_refused_with_the_limit(empire, number, words):
    referee, send = empire
    outbox = Outbox(referee)
    outbox.new()
    rules = len(referee.state("empire")["rules"])
    send(JOE, "[Proclamation] Deep", f'Enact rule {number} "Deep":\nDeep text.\n')
    send(ANN, "[Proposal] Deep", f'Enact rule {number} "Deep":\nDeep text.\n')
    replies = outbox.new()
    assert [m["X-Mailref-Kind"] for m in replies] == ["error", "error"]
    for reply in replies:
        assert words in Outbox.body(reply) and len(Outbox.body(reply)) < 3000
    state = referee.state("empire")
    assert len(state["rules"]) == rules and not state.get("proposals")


def test_eight_levels_are_taken(empire):
    referee, send = empire
    send(JOE, "[Proclamation] Deep", 'Enact rule 21.3.1.1.1.1.1.999999 "Deep":\nDeep text.\n')
    assert any(r["number"] == "21.3.1.1.1.1.1.999999" for r in referee.state("empire")["rules"])


def test_a_ruleset_hundreds_of_levels_deep_is_published(empire, tmp_path):
    referee, _send = empire
    numbers = ["21"]
    for _ in range(400):  # older than the submission limit, or a GM's corrections
        numbers.append(numbers[-1] + ".1")
    referee.admin(
        "empire",
        {
            "type": "rule",
            "changes": [
                {"kind": "enact", "number": n, "title": f"Level {n.count('.')}", "text": "Deeper."}
                for n in numbers[2:]
            ],
        },
        "gm",
    )  # 21 and 21.1 are rules already
    site = tmp_path / "site"
    assert rebuild(referee.store, SiteConfig(site)) == ["empire"]
    page = (site / "empire" / "rules.html").read_text()
    assert page.count('<section class="rule') == page.count("</section>")
    assert "Level 400" in page and re.search(r'id="rule-21(-1){400}"', page)
    # Each deep rule sits inside its parent: the last one is inside every section before it.
    last = page.index('id="rule-21' + "-1" * 400 + '"')
    assert (
        page[:last].count('<section class="rule') - page[:last].count("</section>") == 401
    )  # and its own


def test_a_page_that_fails_is_said_once_and_tried_with_a_growing_wait(caplog):
    where, e = "/srv/site", RecursionError("maximum recursion depth exceeded")
    with caplog.at_level(logging.INFO, "mailref.site"):
        trouble.page_failed(where, "empire", 7, e, now=100.0)
        waits = []
        now = 100.0
        for _ in range(12):
            assert not trouble.page_due(where, "empire", 7, now=now + 1)
            while not trouble.page_due(where, "empire", 7, now=now):
                now += 1
            waits.append(now)
            trouble.page_failed(where, "empire", 7, e, now=now)
        assert trouble.page_due(where, "empire", 8, now=now)  # the game changed: tried at once
        trouble.page_made(where, "empire")
        assert trouble.page_due(where, "empire", 7, now=now)
    gaps = [b - a for a, b in zip([100.0] + waits[:-1], waits, strict=True)]
    assert (
        gaps == sorted(gaps)
        and gaps[0] == trouble.BACKOFF_FIRST
        and gaps[-1] == trouble.BACKOFF_MOST
    )
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2 and "cannot be made" in said[0] and "made again" in said[1]

"""A right-to-left override in a title stays inside the title."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.joining import confirm_waiting
from support.outside_smtp import ALICE, BOB, EMPIRE, RLO

pytestmark = pytest.mark.spec("4.5")


def test_a_right_to_left_override_in_a_title_stays_inside_the_title(
    referee, smtp, tmp_path, chromium
):  # noqa: F811
    """A title starting with U+202E reversed the rest of its heading on the pages (the rule's
    "B rule" tag came out as "elur B", left of the title) and the rest of mail subjects. On the
    pages the title is isolated (what <bdi> does); in subjects the override is dropped."""
    import html5lib

    from mailref.config import SiteConfig
    from mailref.site import rebuild_quietly

    site = tmp_path / "site"
    cfg = SiteConfig(site)
    referee.after_change = lambda slug: rebuild_quietly(referee.store, cfg, slug, referee.clock())
    referee.create_game("empire", "imperial", EMPIRE, name="Empire")
    for who in (ALICE, BOB):  # Alice, the first, holds the throne
        smtp(mail(who, EMPIRE, "[Join]", f"Name: {who.split('@')[0].title()}"), who, EMPIRE)
        confirm_waiting(referee)
    box = Outbox(referee)
    box.new()
    smtp(
        mail(
            ALICE,
            EMPIRE,
            f"[Proclamation] {RLO}Tea at noon",
            f'Enact rule 30 "{RLO}Tea":\nTea is served.',
        ),
        ALICE,
        EMPIRE,
    )
    smtp(mail(BOB, EMPIRE, f"[Proposal] {RLO}Hats for all", "Everyone wears a hat."), BOB, EMPIRE)
    subjects = [str(m["Subject"]) for m in box.new()]
    assert "[Empire] [Proposal 1] Hats for all" in subjects, subjects
    assert not any(RLO in s for s in subjects), subjects

    page = site / "empire" / "rules.html"
    html5lib.HTMLParser(strict=True).parse(page.read_bytes())
    chromium.open(page)
    where = chromium.evaluate("""(() => {
        const h = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].find(h => \
h.textContent.includes('Tea'));
        const node = h.firstChild, at = node.data.indexOf('Tea'), title = document.createRange();
        title.setStart(node, at); title.setEnd(node, at + 3);
        const number = document.createRange();
        number.setStart(node, node.data.indexOf('30')); number.setEnd(node, \
node.data.indexOf('30') + 2);
        return {number: number.getBoundingClientRect().left, title: \
title.getBoundingClientRect().left,
                tag: h.querySelector('.tag').getBoundingClientRect().left, tagText: \
h.querySelector('.tag').textContent};
    })()""")
    assert where["tagText"] == "B rule"
    # Left to right as written: "30. Tea" (reversed by its own override: "aeT"), then "B rule".
    assert where["number"] < where["title"] < where["tag"], where

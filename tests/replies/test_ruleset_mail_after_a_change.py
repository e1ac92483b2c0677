"""The ruleset mail after an enactment carries the change and where the whole set is (the
site's rules page, `[Rules]`), not every rule again: a player of a long BlogNomic game is not
sent the whole ruleset for each new rule."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, assert_replays, make_referee
from support.play import addr, send  # the same players' addresses, mail sent the same way
from support.play_four import BLOG, blog, last

pytestmark = pytest.mark.spec("5.2")

SITE = "https://nomic.example/games/"


def test_a_blognomic_enactment_mails_the_change_and_a_link_not_the_ruleset(tmp_path, clock):
    referee = make_referee(tmp_path, clock, site_url=SITE)
    outbox = Outbox(referee)
    blog(referee)
    rules = {r["title"]: r for r in referee.state("blog")["rules"]}
    amended, repealed = rules["Scoring"], rules["The Devil's Playthings"]
    first_line = amended["text"].splitlines()[0]
    send(
        referee,
        "bob",
        "[Proposal] Dragons",
        'Enact a new rule entitled "Dragons" with the following text:\n'
        "Each Wizard may own one dragon.\n\n"
        f'In rule {amended["number"]}, replace "score a card" with "score one card".\n\n'
        f"Repeal rule {repealed['number']}.\n",
        to=BLOG,
    )
    for p in ("alice", "carol", "zoe"):
        send(referee, p, "[Vote] 1", "FOR", to=BLOG)
    clock.advance(hours=12, seconds=1)
    referee.tick()
    assert referee.state("blog")["proposals"][0]["status"] == "enacted"
    ruleset = last(outbox, addr("alice"), "ruleset")
    body = Outbox.body(ruleset)
    assert len(ruleset.as_bytes()) < 10_000, len(ruleset.as_bytes())
    assert "Each Wizard may own one dragon." in body  # the new rule whole
    assert f'~ Rule {amended["number"]} "{amended["title"]}" (amended)' in body
    now_reads = first_line.replace("score a card", "score one card")
    assert f"    -{first_line}" in body and f"    +{now_reads}" in body
    assert f'- Rule {repealed["number"]} "{repealed["title"]}" (repealed)' in body
    assert repealed["text"] not in body  # named, not quoted
    count = len(referee.state("blog")["rules"])
    assert f"The rule list now has {count} rules; send [Rules] for all of them." in body
    assert f"The whole ruleset on the web: {SITE}blog/rules.html" in body
    # The whole set still answers [Rules].
    send(referee, "alice", "[Rules]", to=BLOG)
    whole = Outbox.body(last(outbox, addr("alice"), "ruleset", "Rules"))
    assert all(r["title"] in whole for r in referee.state("blog")["rules"])
    assert len(whole) > 40_000
    assert_replays(referee)
    referee.store.dispose()

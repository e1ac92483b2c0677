"""A BlogNomic GM who only uses mail corrects a sub-rule and repeals one by [Rule], and every
Wizard gets the change, not the whole ruleset."""

from __future__ import annotations

import pytest

from support.blognomic import G, addr
from support.helpers import Outbox, assert_replays, send_mail

pytestmark = pytest.mark.spec("4.4", "2.5")

GM = "gm@ref.example"


def test_the_blognomic_gm_repeals_and_enacts_sub_rules_by_mail(blognomic_game):
    r = blognomic_game
    outbox = Outbox(r)
    (notice,) = [m for m in outbox.to(GM) if "is open at" in str(m["Subject"])]
    outbox.new()
    body = 'Repeal rule 2.18.\n\nEnact rule 2.20 "Tea Time":\nEvery Wizard may drink tea.\n'
    send_mail(r, GM, G, "[Rule]", body, in_reply_to=notice["Message-ID"])
    numbers = {x["number"] for x in r.state("blog")["rules"]}
    assert "2.18" not in numbers and "2.20" in numbers
    (told,) = outbox.to(addr("Ann"), outbox.new(), kind="ruleset")
    said = Outbox.body(told)
    assert "Every Wizard may drink tea." in said and len(said.encode()) < 10_000
    assert_replays(r)

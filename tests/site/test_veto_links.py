"""The site offers veto on proposals only."""

from __future__ import annotations

import pytest

from support.helpers import mail
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("4.5")


@pytest.mark.parametrize("historian", ["Eve", None], ids=["historian", "metadynasty"])
def test_the_site_offers_veto_on_proposals_only(referee, tmp_path, historian):
    """SPEC §5.2: VETO is the Historian's, on proposals only; the site's "how to vote" line of a
    pending CfJ offered it beside FOR, AGAINST and DEFERENTIAL. In a Metadynasty there is no
    Historian, and the site offered VETO all the same."""
    from mailref.config import SiteConfig
    from mailref.site import rebuild_quietly

    site = tmp_path / "site"
    cfg = SiteConfig(site)
    referee.after_change = lambda slug: rebuild_quietly(referee.store, cfg, slug, referee.clock())
    blog = "blog@ref.example"
    referee.create_game("blog", "blognomic", blog)
    for n in ("Ann", "Ben", "Cat", "Dan", "Eve"):
        referee.accept(mail(f"{n.lower()}@x.org", blog, "[Join]", f"Name: {n}"), "smtp")
        confirm_waiting(referee)
    if historian:
        assert referee.admin(
            "blog", {"type": "office", "office": "historian", "holder": historian}, "gm"
        ).ok
    referee.accept(
        mail(
            "ann@x.org",
            blog,
            "[Proposal] Tea",
            'Enact a new rule entitled "Tea" with the following ' "text:\nTea is served.",
        ),
        "smtp",
    )
    referee.accept(mail("eve@x.org", blog, "[CfJ] Was tea legal?", "It was served cold."), "smtp")
    home = (site / "blog" / "index.html").read_text()
    cfj, proposal = home.split('id="proposal-1"')
    assert "<code>DEFERENTIAL</code>" in cfj and "VETO" not in cfj, cfj
    assert ("<code>VETO</code>" in proposal) == bool(historian), proposal

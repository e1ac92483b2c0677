"""A long ruleset opens with contents linking to each rule."""

from __future__ import annotations

import pytest

from mailref.config import SiteConfig
from mailref.site import rebuild
from support.helpers import make_referee

pytestmark = pytest.mark.spec("4.5")


def test_a_long_ruleset_opens_with_contents_linking_to_each_rule(tmp_path, clock, browser):
    """BlogNomic's ruleset is some forty rules: on a phone one long scroll, with no way to rule
    2.14 but scrolling. rules.html now opens with a contents list, a link to each rule."""
    referee = make_referee(tmp_path, clock)
    referee.create_game("blog", "blognomic", "blog@ref.example")
    rules = referee.state("blog")["rules"]
    assert rebuild(referee.store, SiteConfig(tmp_path / "site")) == ["blog"]
    browser.open(tmp_path / "site" / "blog" / "rules.html")
    toc = browser.evaluate("""[...document.querySelectorAll('nav.toc a')].map(a => [a.textContent,
        !!document.getElementById(a.getAttribute('href').slice(1))])""")
    assert (
        len(toc) == browser.evaluate("document.querySelectorAll('main > section.rule').length") > 5
    ), toc
    assert all(found for _, found in toc), [t for t, found in toc if not found]
    assert toc[0][0].startswith(f"{rules[0]['number']}. {rules[0]['title']}"), toc[0]

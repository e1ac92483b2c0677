"""Strangers' text on the published pages (SPEC §4.5), read in headless Chromium as a phone
shows it: markup in proposal titles and rule texts is shown as text, never run; the longest
name a player may take, right-to-left names and titles, and words longer than the screen
keep every table and column on the screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from mailref.config import SiteConfig
from mailref.site import rebuild
from support.helpers import mail
from support.joining import confirm_waiting
from support.site import see, valid

pytestmark = pytest.mark.spec("4.5")

# Slugs of this file's own: the site's replay cache is keyed by database URL, slug and creation
# time, which a PostgreSQL test database emptied for the next test and the tests' clock repeat.
G = "strangers@ref.example"
LONGEST = "W" * 40  # names are at most 40 characters (mailref/read/names.py)
STRANGERS = [
    ("Alice", "alice@x.org"),
    (LONGEST, "w@x.org"),
    ("مرحبا بالعالم", "rtl@x.org"),
    ("O'Brien", "ob@x.org"),
    ("Dan", "dan@x.org"),
]
MARKUP = '<script>alert("t")</script> & </title><h1>big'


def no_hidden_scrolling(browser) -> list[str]:  # noqa: F811
    """The scroll boxes (tables) whose content is wider than the box: on a phone those
    columns are off the screen."""
    return browser.evaluate("""[...document.querySelectorAll('nav, .scroll, table, pre, .text, h1, \
h2, h3, p, dd')]
        .filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => e.tagName + ': ' + e.innerText.slice(0, 40))""")


def test_strangers_text_is_shown_as_text_and_fits_a_phone(referee, tmp_path, browser):  # noqa: F811
    referee.create_game("strangers", "blognomic", G, name="Blog " + "N" * 34)
    for name, a in STRANGERS:
        referee.accept(mail(a, G, "[Join]", f"Name: {name}"))
        confirm_waiting(referee)
    referee.accept(
        mail(
            "w@x.org",
            G,
            f"[Proposal] {MARKUP}",
            'Enact a new rule entitled "<img src=x onerror=alert(1)>" with the following text:\n'
            "<script>alert(3)</script> " + "A" * 1500 + "\n",
        )
    )
    referee.accept(
        mail(
            "rtl@x.org",
            G,
            "[Proposal] " + "Z" * 190 + " \u202eשלום עולם",
            "Free text " + "L" * 1900,
        )
    )
    referee.accept(mail("ob@x.org", G, "[Vote] 1", "FOR"))
    states = {p["title"] for p in referee.state("strangers")["proposals"]}
    assert MARKUP in states and len(states) == 2, states

    site = tmp_path / "site"
    rebuild(referee.store, SiteConfig(site), now=referee.clock())
    valid(site, "strangers")
    for rel in (
        "index.html",
        "strangers/index.html",
        "strangers/proposals.html",
        "strangers/rules.html",
    ):
        page = see(browser, site, rel, f"strangers-{rel.replace('/', '-')}.png")
        if rel != "index.html":  # the host's six-column table of games scrolls sideways, by design
            assert no_hidden_scrolling(browser) == [], rel
        assert "<h1>big" not in Path(site / rel).read_text()
        if rel != "index.html" and rel != "strangers/rules.html":
            assert MARKUP in page.text, rel  # the title as its author wrote it, as text
    home = see(browser, site, "strangers/index.html", "strangers-strangers-index.html.png")
    assert LONGEST in home.text and "مرحبا بالعالم" in home.text
    matters = see(
        browser, site, "strangers/proposals.html", "strangers-strangers-proposals.html.png"
    ).text
    assert "<img src=x onerror=alert(1)>" in matters and "<script>alert(3)</script>" in matters


def test_control_characters_a_player_pasted_keep_the_feed_well_formed_and_the_pages_valid(
    referee, tmp_path, browser
):  # noqa: F811
    """A bell, an escape sequence, a form feed, C1 controls and noncharacters in a title or a
    proposal's text made feed.atom not well-formed XML (a feed reader drops it whole) and the
    pages invalid HTML."""
    g = "controls@ref.example"
    referee.create_game("controls", "imperial", g)
    referee.accept(mail("alice@x.org", g, "[Join]", "Name: Alice"))
    confirm_waiting(referee)
    raw = (
        "From: Alice <alice@x.org>\r\nTo: "
        + g
        + "\r\nSubject: [Proposal] Bell\x07 and \x1b[31mred\x01\x85\r\n"
        "Message-ID: <controls@x.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        "Text with \x08 backspace, \x1b[2J escape, \x0c form feed, \ufffe \uffff \x9b.\r\n"
    ).encode("utf-8")
    referee.accept(raw)
    assert (
        "\x07" in referee.state("controls")["proposals"][0]["title"]
    )  # kept as written in the state
    site = tmp_path / "site"
    rebuild(referee.store, SiteConfig(site), now=referee.clock())
    valid(site, "controls")  # strict HTML5 and an Atom feed that parses
    matters = see(browser, site, "controls/proposals.html", "strangers-controls.png").text
    assert "Bell\ufffd and \ufffd[31mred" in matters and "form feed" in matters

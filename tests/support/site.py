"""The published site as the tests read it: a headless Chromium, strict HTML5 and Atom checks,
pages seen as a phone shows them."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import html5lib
import pytest

from mailref.config import SiteConfig
from mailref.site import rebuild_quietly
from support.browser import Browser, chromium_binary

SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "site"
ATOM = "{http://www.w3.org/2005/Atom}"


def chromium():
    """One headless Chromium for a worker (a session-scoped fixture in tests/conftest.py)."""
    binary = chromium_binary()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: scripts/setup --test installs it")
        pytest.skip("chromium is not installed (scripts/setup --test installs it)")
    b = Browser(binary)
    yield b
    b.close()


def publish_after_each_change(referee, site: Path) -> SiteConfig:
    """What `Referee.from_config` does when [site] is configured."""
    cfg = SiteConfig(site)
    referee.after_change = lambda slug: rebuild_quietly(referee.store, cfg, slug, referee.clock())
    return cfg


def valid(site: Path, slug: str) -> None:
    """Every page parses as strict HTML5; the feed is Atom with its required elements."""
    parser = html5lib.HTMLParser(strict=True)
    pages = [site / "index.html", *sorted((site / slug).glob("*.html"))]
    assert len(pages) >= 4
    for page in pages:
        parser.parse(page.read_bytes())  # raises html5lib.html5parser.ParseError
    feed = ET.parse(site / slug / "feed.atom").getroot()
    assert feed.tag == f"{ATOM}feed"
    for key in ("id", "title", "updated", "author"):
        assert feed.find(f"{ATOM}{key}") is not None, key
    entries = feed.findall(f"{ATOM}entry")
    assert entries
    for e in entries:
        assert all(
            e.find(f"{ATOM}{k}") is not None and (e.find(f"{ATOM}{k}").text or "").strip()
            for k in ("id", "title", "updated")
        )
    assert len({e.find(f"{ATOM}id").text for e in entries}) == len(entries)
    assert not list(site.glob(".*.new-*")) and not list(
        site.glob(".*.old-*")
    ), "no half-built site left behind"


def see(browser: Browser, site: Path, rel: str, shot: str):
    """Open a page as a phone shows it: styled, no script, nothing wider than the screen."""
    page = browser.open(site / rel, SHOTS / shot)
    assert page.facts["scripts"] == 0
    assert page.facts["stylesheet"] != "none", "style.css was loaded"
    assert page.facts["overflow"] <= 0, f"{rel} is wider than a phone screen"
    for img in page.facts["images"]:
        assert img["alt"] and img["loaded"], img
    for href in page.facts["links"]:
        assert not href.startswith(("/", "http")), f"{rel}: {href} is not relative"
        target = href.split("#")[0]
        if target and not target.startswith("mailto:"):
            assert (
                (site / rel).parent.joinpath(target).resolve().exists()
            ), f"{rel}: broken link {href}"
    return page

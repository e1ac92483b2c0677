"""The daemon's pages after a burst of mail: a change after a quiet spell is published at once,
and the changes made within BUILD_EVERY of a build are published together by the next one (a
long game's build costs more with every turn; one a mail would cost it per mail), not by the
round that catches up with other processes' changes meanwhile."""

from __future__ import annotations

import asyncio
import time

import pytest

from mailref import daemon_pages, site
from mailref.config import SiteConfig
from mailref.daemon_pages import Pages
from support.joining import confirm, join

pytestmark = pytest.mark.spec("6")

G = "nomes@ref.example"


async def _until(pred, timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end and not pred():
        await asyncio.sleep(0.05)
    return bool(pred())


def test_a_burst_of_changes_is_published_by_one_build(referee, tmp_path, monkeypatch):
    referee.create_game("nomes", "sidekick", G)
    pages = Pages(referee, SiteConfig(tmp_path / "site"))
    referee.after_change = pages.changed
    now = [1000.0]
    pages.monotonic = lambda: now[0]  # the loop's own clock, moved by the test
    # Catching up with other processes' changes, as often as the loop turns, leaves alone
    # what waits here for its build.
    monkeypatch.setattr(daemon_pages, "SITE_EVERY", 0.05)
    builds: list[str] = []
    made = site.rebuild_quietly

    def counted(*args, **kw):
        builds.append(args[2])
        return made(*args, **kw)

    monkeypatch.setattr(site, "rebuild_quietly", counted)
    page = tmp_path / "site" / "nomes" / "index.html"

    async def play() -> None:
        running = asyncio.create_task(pages.run())
        await asyncio.to_thread(join, referee, "zelda@x.org", G, "Zelda")
        assert await _until(lambda: builds == ["nomes"]), "a change after a quiet spell: at once"
        for step in (
            lambda: confirm(referee, "zelda@x.org"),
            lambda: join(referee, "yann@x.org", G, "Yann"),
            lambda: confirm(referee, "yann@x.org"),
        ):
            await asyncio.to_thread(step)
            await asyncio.sleep(0.1)  # the loop is free to build between the mails
        await asyncio.sleep(0.3)
        assert builds == ["nomes"], "the burst waits for the next build"
        assert "Yann" not in page.read_text()
        now[0] += daemon_pages.BUILD_EVERY
        pages.kick.set()
        assert await _until(lambda: len(builds) == 2 and "Yann" in page.read_text())
        assert "Zelda" in page.read_text()
        await asyncio.sleep(0.3)
        assert builds == ["nomes", "nomes"], "the whole burst, by one build"
        running.cancel()

    asyncio.run(play())

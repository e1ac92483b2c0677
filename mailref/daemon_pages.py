"""The daemon's published pages (`[site]`): made by a loop of their own, never inside the work
lock, so processing does not wait for them (a long game's pages take a while, and a site
folder can hang)."""

from __future__ import annotations

import asyncio
import threading
import time

from mailref.config import SiteConfig
from mailref.referee import Referee
from mailref.referee.threads import lent_state

SITE_EVERY = 5.0  # seconds: how soon the pages show a change another process made
# Seconds between two builds of one game's pages: a change after a quiet spell is published at
# once, and the changes a burst of mail makes within this are published by one build.
BUILD_EVERY = 2.0


class Pages:
    """The games changed since the pages were last made, and the loop that makes them."""

    def __init__(self, referee: Referee, site_config: SiteConfig) -> None:
        self.referee, self.site_config = referee, site_config
        self.due: set[str] = set()
        self.lock = threading.Lock()
        self.kick = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None  # the daemon's, once `run` runs
        self.monotonic = time.monotonic  # when builds were made, and are due again

    def changed(self, slug: str) -> None:
        """Referee.after_change, on the thread that committed the change."""
        with self.lock:
            self.due.add(slug)
        if self.loop is not None:  # else the loop's first round publishes it
            self.loop.call_soon_threadsafe(self.kick.set)

    async def run(self) -> None:
        """The pages of each game this daemon changed, soon after the change; every SITE_EVERY
        also those of the changes another process made (another daemon on this database, on its
        own host with its own site folder; the CLI with a configuration without [site]), and at
        start those a stop left behind (each game's folder says which version it shows)."""
        from mailref import site

        self.loop = asyncio.get_running_loop()
        store, clock = self.referee.store, self.referee.clock
        caught_up = -SITE_EVERY
        built: dict[str, float] = {}  # slug -> when its pages were last made (monotonic)
        while True:
            self.kick.clear()
            now = self.monotonic()
            with self.lock:
                due = sorted(g for g in self.due if g not in built or now - built[g] >= BUILD_EVERY)
                self.due.difference_update(due)
                waiting = [built[g] + BUILD_EVERY - now for g in self.due]
            for slug in due:
                built[slug] = self.monotonic()
                with lent_state(self.referee.states, slug) as held:  # not decoded again
                    await asyncio.to_thread(
                        site.rebuild_quietly, store, self.site_config, slug, clock(), held
                    )
            if (
                time.monotonic() - caught_up >= SITE_EVERY
            ):  # however busy this daemon's own games keep it
                caught_up = time.monotonic()
                with self.lock:  # the games waiting for their build here: with the state lent
                    leave = frozenset(self.due)
                await asyncio.to_thread(site.catch_up, store, self.site_config, clock(), leave)
            try:
                await asyncio.wait_for(self.kick.wait(), timeout=min([SITE_EVERY, *waiting]))
            except TimeoutError:
                pass

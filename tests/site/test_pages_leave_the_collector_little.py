"""After a round of pages the daemon freezes what it holds (the game's state, what the pages
keep), so that the garbage collector's walks do not grow with the game; every FROZEN_ROUNDS
rounds it collects everything once, so a cycle frozen on its way out is still freed."""

from __future__ import annotations

import gc
import weakref

import pytest

from mailref import daemon_pages
from mailref.config import SiteConfig


class _Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def pages(referee, tmp_path):
    made = daemon_pages.Pages(referee, SiteConfig(tmp_path / "site"))
    yield made
    gc.unfreeze()


def test_a_round_of_pages_freezes_what_the_process_holds(pages):
    kept = _Cycle()
    pages.freeze()
    assert gc.get_freeze_count() > 0
    gone = weakref.ref(kept)
    del kept
    gc.collect()
    assert gone() is not None  # frozen: the collector left it


def test_a_cycle_frozen_on_its_way_out_is_freed_within_the_rounds(pages):
    kept = _Cycle()
    pages.freeze()
    gone = weakref.ref(kept)
    del kept
    for _ in range(daemon_pages.FROZEN_ROUNDS - 1):
        pages.freeze()
    assert gone() is None

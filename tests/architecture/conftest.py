"""The architecture tests hold the product to SPEC §4.1 (one door) and the rooms of
ARCHITECTURE.md."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_itemcollected(item):
    if HERE in Path(item.path).parents:
        item.add_marker(pytest.mark.spec("4.1"))

"""Fixtures of this folder's tests."""

from support.play_four import dov_after_12h  # noqa: F401  (fixtures)
from support.table_play import table  # noqa: F401  (fixtures)

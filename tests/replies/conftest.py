"""Fixtures of this folder's tests."""

from support.hostile_smtp import game  # noqa: F401  (fixtures)
from support.play_four import dov_after_12h  # noqa: F401  (fixtures)

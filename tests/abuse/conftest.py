"""Fixtures of this folder's tests."""

from support.hostile_smtp import game  # noqa: F401  (fixtures)

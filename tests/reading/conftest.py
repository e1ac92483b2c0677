"""Fixtures of this folder's tests."""

from support.table_play import table  # noqa: F401  (fixtures)

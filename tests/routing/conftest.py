"""Fixtures of this folder's tests."""

from support.host_fixture import host  # noqa: F401  (fixtures)
from support.table_play import table  # noqa: F401  (fixtures)

"""Package names that load on first use (PEP 562), so the command line's start-up pays only
for what a command uses (SPEC §8 replay). Pure: imports nothing of the referee's own."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


def lazy_names(package: str, where: dict[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` for PACKAGE: NAME comes from its submodule WHERE[NAME], imported
    the first time NAME is asked for, then kept in the package's namespace."""

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{where[name]}"), name)
        setattr(import_module(package), name, value)
        return value

    return __getattr__

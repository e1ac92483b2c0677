"""A concern a variant holds rather than inherits: `dice = Held(Dice)` on the variant's class
makes one `Dice` per variant, given the variant as its host (what the concern asks of the game
is a small Protocol in its own module), and the concern's `@action` handlers join the variant's
action table (variants/actions.py) as if they were the variant's own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

C = TypeVar("C")


class Held(Generic[C]):
    """The component MAKE(variant) a variant holds under the attribute this is assigned to;
    made the first time it is asked for, then kept on the variant."""

    def __init__(self, make: Callable[[Any], C]) -> None:
        self.make = make
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, host: None, owner: type) -> Held[C]: ...
    @overload
    def __get__(self, host: object, owner: type) -> C: ...
    def __get__(self, host: object | None, owner: type) -> Held[C] | C:
        if host is None:
            return self
        # Kept in the instance's __dict__, which a non-data descriptor yields to from now on.
        made = self.make(host)
        vars(host)[self.name] = made
        return made

    @property
    def kind(self) -> type:
        """The component's class (MAKE is a class in every use)."""
        assert isinstance(self.make, type)
        return self.make


def held(cls: type) -> dict[str, Held[Any]]:
    """The components CLS's instances hold, by attribute, its own and its bases'."""
    found: dict[str, Held[Any]] = {}
    for klass in reversed(cls.__mro__):
        for name, value in vars(klass).items():
            if isinstance(value, Held):
                found[name] = value
    return found

"""The table of actions a variant handles: each handler method declares the action it takes
with `@action("kind")`, and every class built on `Acting` carries the table of them all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

Handler = Callable[..., None]  # (variant, state, action, ctx) -> None

_DECLARED: dict[Callable[..., Any], str] = {}


def action(kind: str) -> Callable[[Handler], Handler]:
    """Declares the decorated method the handler of actions of type KIND (`action["type"]`)."""

    def declare(fn: Handler) -> Handler:
        _DECLARED[fn] = kind
        return fn

    return declare


class Acting:
    """Builds `actions` (action type -> handler) when a class is made: an override of a declared
    handler, declared again or not, takes its place, and an undeclared `on_` method is an error."""

    actions: ClassVar[dict[str, Handler]] = {}

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        names: dict[str, str] = {}
        for klass in reversed(cls.__mro__):
            for name, value in vars(klass).items():
                if name.startswith("on_") and callable(value):
                    if value not in _DECLARED and name not in names.values():
                        raise TypeError(
                            f"{klass.__name__}.{name} handles no declared action: add @action(...)"
                        )
                    if value in _DECLARED:
                        names[_DECLARED[value]] = name
        cls.actions = {kind: vars_lookup(cls, name) for kind, name in names.items()}


def vars_lookup(cls: type, name: str) -> Handler:
    """The function NAME resolves to on CLS (its own or the nearest base's)."""
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name]
    raise AttributeError(name)

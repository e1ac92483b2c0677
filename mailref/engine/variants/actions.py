"""The table of actions a variant handles: each handler method declares the action it takes
with `@action("kind")`, and every class built on `Acting` carries the table of them all, the
handlers of the components it holds (variants/components.py) among them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from mailref.engine.variants.components import held

Handler = Callable[..., None]  # (variant, state, action, ctx) -> None

_DECLARED: dict[Callable[..., Any], str] = {}


def action(kind: str) -> Callable[[Handler], Handler]:
    """Declares the decorated method the handler of actions of type KIND (`action["type"]`)."""

    def declare(fn: Handler) -> Handler:
        _DECLARED[fn] = kind
        return fn

    return declare


def declared(cls: type) -> dict[str, str]:
    """Action type -> the name of CLS's method that handles it: an override of a declared
    handler, declared again or not, takes its place, and an undeclared `on_` method is an error."""
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
    return names


class Acting:
    """Builds `actions` (action type -> handler) when a class is made."""

    actions: ClassVar[dict[str, Handler]] = {}

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        table: dict[str, Handler] = {}
        for attr, component in held(cls).items():
            for kind, name in declared(component.kind).items():
                table[kind] = handed_to(attr, name)
        for kind, name in declared(cls).items():
            table[kind] = vars_lookup(cls, name)
        cls.actions = table


def handed_to(attr: str, name: str) -> Handler:
    """A handler that hands the action to method NAME of the component held as ATTR."""

    def hand(variant: object, state: Any, action: Any, ctx: Any) -> None:
        getattr(getattr(variant, attr), name)(state, action, ctx)

    hand.__name__ = name
    hand.__qualname__ = f"{attr}.{name}"
    return hand


def vars_lookup(cls: type, name: str) -> Handler:
    """The function NAME resolves to on CLS (its own or the nearest base's)."""
    for klass in cls.__mro__:
        if name in vars(klass):
            fn: Handler = vars(klass)[name]
            return fn
    raise AttributeError(name)

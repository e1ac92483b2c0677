"""A variant overrides of the concerns `Variant` composes only their declared hooks
(engine/variants/hooks.py) and the action handlers it declares with `@action`: "which
`after_join` runs" is read from one table, not from an MRO of twenty classes."""

from __future__ import annotations

import pytest

from mailref.engine.mechanics.proposals import Proposals
from mailref.engine.variants import VARIANTS
from mailref.engine.variants.base import Variant
from mailref.engine.variants.hooks import HOOKS

CONCERNS = {c.__name__: c for c in Variant.__mro__}


def _methods(cls: type) -> set[str]:
    return {
        n
        for n, v in vars(cls).items()
        if not n.startswith("__") and (callable(v) or isinstance(v, staticmethod | classmethod))
    }


SHARED = set().union(*(_methods(c) for c in Variant.__mro__))


@pytest.mark.parametrize("hook", sorted(HOOKS))
def test_a_declared_hook_is_defined_by_its_concern(hook):
    concern = HOOKS[hook][0]
    assert hook in _methods(CONCERNS[concern]), f"{concern} defines no {hook}"


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_overrides_only_declared_hooks_and_actions(name):
    own = [c for c in type(VARIANTS[name]).__mro__ if c not in Variant.__mro__]
    overridden = {
        f"{c.__name__}.{m}"
        for c in own
        if c is not Proposals
        for m in _methods(c) & SHARED
        if m not in HOOKS and not m.startswith("on_")
    }
    assert not overridden, sorted(overridden)

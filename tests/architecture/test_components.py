"""The shared concerns a variant holds as components rather than inherits: each converted
concern is a base of no variant class, and the concerns still inherited as mixins may only
grow fewer (engine/variants/components.py)."""

from __future__ import annotations

import pytest

from mailref.engine.variants import VARIANTS
from mailref.engine.variants.absence import Absence
from mailref.engine.variants.base import Variant
from mailref.engine.variants.components import Held, held
from mailref.engine.variants.court import CourtOrders
from mailref.engine.variants.dice import Dice
from mailref.engine.variants.digests import Digests
from mailref.engine.variants.extensions import Extensions
from mailref.engine.variants.inbox import Inbox
from mailref.engine.variants.joining import Consent
from mailref.engine.variants.limits import Limits
from mailref.engine.variants.record import Record
from mailref.engine.variants.substitutes import Substitutes

COMPONENTS = {
    "absence": Absence,
    "consent": Consent,
    "court": CourtOrders,
    "dice": Dice,
    "digests": Digests,
    "extensions": Extensions,
    "inbox": Inbox,
    "limits": Limits,
    "record": Record,
    "substitutes": Substitutes,
}
# The concerns `Variant` still inherits: this list only shrinks.
MIXINS = {
    "Players",
    "AdminOverrides",
    "Enactment",
    "Deadlines",
    "Replies",
}


def test_the_mixins_left_are_only_those_not_yet_components():
    assert {b.__name__ for b in Variant.__bases__} <= MIXINS


def test_variant_holds_each_component():
    assert {name: h.kind for name, h in held(Variant).items()} == COMPONENTS


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_no_variant_class_inherits_a_component(name):
    mro = type(VARIANTS[name]).__mro__
    assert [c.__name__ for c in mro if c in COMPONENTS.values()] == []
    assert [c.__name__ for c in mro if issubclass(c, tuple(COMPONENTS.values()))] == []


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_each_variant_holds_its_own_components_given_the_variant(name):
    variant = VARIANTS[name]
    for attr, kind in COMPONENTS.items():
        component = getattr(variant, attr)
        assert type(component) is kind
        assert component.game is variant
        assert getattr(variant, attr) is component


def test_a_components_actions_join_the_variants_table():
    for kind in (
        "roll",
        "dice_reveal",
        "digest",
        "settings",
        "undo",
        "confirm",
        "approve",
        "deadline_request",
    ):
        assert kind in Variant.actions
        assert Variant.actions[kind].__qualname__.split(".")[0] in COMPONENTS


def test_held_is_a_declaration_on_the_class():
    assert isinstance(vars(Variant)["dice"], Held)

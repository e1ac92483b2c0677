"""The concerns a variant holds as components rather than inherits: each converted concern is a
base of no variant class, a variant class has one base (`Variant`, or an orders game on it) and
its own concerns held, and `Variant` inherits no concern at all
(engine/variants/components.py)."""

from __future__ import annotations

import pytest

from mailref.engine.mechanics.gamestate import Gamestate
from mailref.engine.variants import VARIANTS
from mailref.engine.variants.absence import Absence
from mailref.engine.variants.actions import Acting
from mailref.engine.variants.admin import AdminOverrides
from mailref.engine.variants.agreed_end import AgreedEnd
from mailref.engine.variants.base import Variant
from mailref.engine.variants.blognomic.dynasty import Dynasties
from mailref.engine.variants.blognomic.hiatus import Hiatus
from mailref.engine.variants.blognomic.resolution import Resolution
from mailref.engine.variants.blognomic.submitting import Submitting
from mailref.engine.variants.blognomic.wizards import Wizards
from mailref.engine.variants.components import Held, held
from mailref.engine.variants.court import CourtOrders
from mailref.engine.variants.deadlines import Deadlines
from mailref.engine.variants.dice import Dice
from mailref.engine.variants.digests import Digests
from mailref.engine.variants.eire_resolution import EireResolution
from mailref.engine.variants.enactment import Enactment
from mailref.engine.variants.extensions import Extensions
from mailref.engine.variants.imperial_acts import ImperialActs
from mailref.engine.variants.imperial_proposals import ImperialProposals
from mailref.engine.variants.inbox import Inbox
from mailref.engine.variants.joining import Consent
from mailref.engine.variants.limits import Limits
from mailref.engine.variants.players import Players
from mailref.engine.variants.press import Press
from mailref.engine.variants.preview import Preview
from mailref.engine.variants.record import Record
from mailref.engine.variants.replies import Replies
from mailref.engine.variants.sidekick_judges import SidekickJudges
from mailref.engine.variants.sidekick_timers import SidekickTimers
from mailref.engine.variants.sidekick_votes import SidekickVotes
from mailref.engine.variants.substitutes import Substitutes
from mailref.engine.variants.watching import Watching

COMPONENTS = {
    "absence": Absence,
    "admin": AdminOverrides,
    "consent": Consent,
    "court": CourtOrders,
    "deadlines": Deadlines,
    "dice": Dice,
    "digests": Digests,
    "enactment": Enactment,
    "extensions": Extensions,
    "inbox": Inbox,
    "limits": Limits,
    "players": Players,
    "replies": Replies,
    "record": Record,
    "substitutes": Substitutes,
    "watching": Watching,
}
# Each variant's own concerns, held as components (the attribute, the class).
OWN = {
    "sidekick": {
        "proposals": SidekickVotes,
        "judges": SidekickJudges,
        "timers": SidekickTimers,
        "gamestate": Gamestate,
    },
    "imperial": {"proposals": ImperialProposals, "acts": ImperialActs, "gamestate": Gamestate},
    "blognomic": {
        "proposals": Submitting,
        "wizards": Wizards,
        "hiatus": Hiatus,
        "resolution": Resolution,
        "dynasty": Dynasties,
        "gamestate": Gamestate,
    },
    "eire": {
        "adjudication": EireResolution,
        "preview": Preview,
        "press": Press,
        "agreed_end": AgreedEnd,
    },
    "orders": {"press": Press, "agreed_end": AgreedEnd},
}


def test_variant_inherits_no_concern():
    """Every shared concern is a component: `Variant` builds on the action table alone."""
    assert Variant.__bases__ == (Acting,)


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
        "tick",
        "help",
        "status",
        "set",
        "pause",
        "bind",
        "join",
        "quit",
        "away",
        "player_add",
        "rule",
    ):
        assert kind in Variant.actions
        assert Variant.actions[kind].__qualname__.split(".")[0] in COMPONENTS


def test_held_is_a_declaration_on_the_class():
    assert isinstance(vars(Variant)["dice"], Held)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_class_has_one_base_and_inherits_no_concern_of_its_own(name):
    cls = type(VARIANTS[name])
    assert len(cls.__bases__) == 1, cls.__bases__
    base = cls.__bases__[0]
    assert base is Variant or base.__bases__ == (Variant,)
    assert [c.__name__ for c in cls.__mro__[1:] if c not in base.__mro__] == []


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_holds_its_own_concerns_given_the_variant(name):
    variant = VARIANTS[name]
    own = {attr: h.kind for attr, h in held(type(variant)).items() if attr not in COMPONENTS}
    assert own == OWN[name]
    for attr, kind in own.items():
        component = getattr(variant, attr)
        assert type(component) is kind
        assert component.game is variant


def test_press_and_an_agreed_end_are_the_orders_games_own():
    """Press and draws are held by the orders games' base (docs/decisions/table.md): a Nomic
    takes none of their actions."""
    from mailref.engine.variants.turns import OrdersGame

    own = {name: h.kind for name, h in held(OrdersGame).items() if name not in COMPONENTS}
    assert own == {"press": Press, "agreed_end": AgreedEnd}
    for kind in ("press", "draw", "concede", "end_vote"):
        assert OrdersGame.actions[kind].__qualname__.split(".")[0] in own
        assert kind not in Variant.actions

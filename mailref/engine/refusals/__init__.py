"""The catalogue of refusals: each code's words, rendered per face. The player's mail says
reason and hint; the CLI says them in the operator's terms where those differ; the GM's alert
says the reason alone. Sites raise `Refused(code, **params)` and never write the words."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Literal

from mailref.engine.refusals import (
    games,
    gamestate,
    mail,
    nomic,
    operator,
    orders,
    parameters,
    players,
    seats,
    steering,
    table,
)
from mailref.engine.refusals.wording import Wording

if TYPE_CHECKING:
    from jinja2 import Environment, Template

Face = Literal["mail", "cli", "alert"]

CATALOGUE: dict[str, Wording] = {
    **operator.WORDS,
    **games.WORDS,
    **gamestate.WORDS,
    **nomic.WORDS,
    **parameters.WORDS,
    **players.WORDS,
    **orders.WORDS,
    **seats.WORDS,
    **steering.WORDS,
    **table.WORDS,
    **mail.WORDS,
}


def render(code: str, params: dict[str, Any], face: Face | str = "mail") -> tuple[str, str]:
    """(reason, hint) of the refusal CODE with PARAMS, as FACE says them."""
    w = CATALOGUE[code]
    reason, hint = w.reason, w.hint
    if face == "cli":
        reason = w.cli_reason if w.cli_reason is not None else reason
        hint = w.cli_hint if w.cli_hint is not None else hint
    said = _template(reason).render(params), _template(hint).render(params) if hint else ""
    return (said[0], "") if face == "alert" else said


@cache
def _template(text: str) -> Template:
    return _environment().from_string(text)


@lru_cache(maxsize=1)
def _environment() -> Environment:
    from jinja2 import Environment, StrictUndefined

    env = Environment(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=True)
    env.filters["repr"] = repr  # a name as Python quotes it: 'nomes'
    env.filters["thousands"] = lambda n: f"{n:,}"  # 12,000
    return env

"""[Status], [Rules], [Help], [Quit], [Roll]: the state, the ruleset, the commands."""

import re

from mailref.engine import Refused
from mailref.engine.state import Action, OtherAction
from mailref.handlers.registry import GameView, handles, not_a_player
from mailref.read import Envelope


def players_or_gm(env: Envelope, view: GameView) -> None:
    """The game as its players read it is the GM's to read too (the welcome offers it)."""
    if view.player is None and (env.from_addr or "").lower() not in {
        view.gm.lower(),
        view.admin.lower(),
    } - {""}:
        not_a_player(env, view)


@handles("status", players_only=False)
def status(env: Envelope, view: GameView) -> Action:
    players_or_gm(env, view)
    return {"type": "status", "player": view.name}


@handles("rules", players_only=False)
def rules(env: Envelope, view: GameView) -> Action:
    players_or_gm(env, view)
    if env.subject.is_reply and env.subject.rest.strip():
        # "Re: [Nomes] [Rules] Proposal 2 … is in effect": a reply to the ruleset mail, with
        # words for the players ("Congrats!"), not a request for the whole rule list again.
        raise Refused("reply_to_ruleset")
    return {"type": "rules", "player": view.name}


@handles("help", players_only=False)
def help_(env: Envelope, view: GameView) -> Action:
    action: OtherAction = {"type": "help", "player": view.name}
    if (env.from_addr or "").lower() in {view.gm.lower(), view.admin.lower()} - {""}:
        action["gm"] = True  # the GM's help lists the GM's own commands too
    return action


@handles("quit")
def quit_(env: Envelope, view: GameView) -> Action:
    return {"type": "quit", "player": view.name}


@handles("roll")
def roll(env: Envelope, view: GameView) -> Action:
    # "2d6+1", "2d6 + 1", "DICE20": the dice, then what the roll is for.
    m = re.match(r"\s*((?:dice|\d*\s*d)\s*\d+(?:\s*[+-]\s*\d+)?)(.*)", env.subject.rest, re.I)
    dice, why = (
        (m.group(1), m.group(2))
        if m
        else ((env.subject.rest.split() or [""])[0], " ".join(env.subject.rest.split()[1:]))
    )
    dice = dice.lower().replace("dice", "d").replace(" ", "")
    if not why.strip():  # "[Roll] DICE6" with "rolling for my card" as the mail's first line
        why = next((ln for ln in env.text.splitlines() if ln.strip()), "")[:200]
    return {"type": "roll", "player": view.name, "dice": dice, "why": " ".join(why.split())}

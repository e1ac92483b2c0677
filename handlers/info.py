"""[Status], [Rules], [Help], [Quit], [Roll]: the state, the ruleset, the commands."""

from mailref.handlers import GameView, handles
from mailref.read import Envelope


@handles("status")
def status(env: Envelope, view: GameView) -> dict:
    return {"type": "status", "player": view.name}


@handles("rules")
def rules(env: Envelope, view: GameView) -> dict:
    return {"type": "rules", "player": view.name}


@handles("help", players_only=False)
def help_(env: Envelope, view: GameView) -> dict:
    return {"type": "help", "player": view.name}


@handles("quit")
def quit_(env: Envelope, view: GameView) -> dict:
    return {"type": "quit", "player": view.name}


@handles("roll")
def roll(env: Envelope, view: GameView) -> dict:
    dice = env.subject.rest.split()[0] if env.subject.rest.split() else ""
    dice = dice.lower().replace("dice", "d")
    return {"type": "roll", "player": view.name, "dice": dice, "why": " ".join(env.subject.rest.split()[1:])}

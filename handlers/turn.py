"""[Forfeit]: give up this turn (sidekick). A plain Reply to the game's own turn mail
("Re: [Eire] [Turn 3] Orders are due …") keeps its tag, [Turn 3] (SPEC §2.5): in an orders
game that reply is the player's orders, and the GM's reply to the orders of all players is
the turn's results; elsewhere it says how to move."""

import dataclasses
import re

from mailref.engine import Refused
from mailref.engine.state import Action
from mailref.handlers.registry import REGISTRY, GameView, handles, not_a_player, signer
from mailref.read import Envelope, RuleChangeError, read_rule_changes


@handles("forfeit")
def forfeit(env: Envelope, view: GameView) -> Action:
    return {"type": "forfeit", "player": view.name}


@handles("turn", players_only=False)
def reply_to_turn(env: Envelope, view: GameView) -> Action:
    if view.player is None:
        gm = (view.state.get("gm") or "").lower()
        if gm and (env.from_addr or "").lower() == gm and view.variant.takes("results"):
            # The GM's plain Reply to "[Turn 3] Orders of all players" (the digest that asks for
            # the results) is the results; its subject is the digest's, not a title.
            results = REGISTRY["results"].fn(env, view)
            results["title"] = ""
            return results
        not_a_player(env, view)
    if view.variant.takes("orders"):
        return REGISTRY["orders"].fn(env, view)
    move = next(
        (usage for usage, _ in view.variant.commands if usage.startswith("[Proposal]")), None
    )
    if move and (title := move_title(env, view)):
        # "Your move" answered with Reply and the rule changes: that is the move, a proposal.
        env.subject = dataclasses.replace(
            env.subject, tag="proposal", number=None, rest=title, is_reply=False
        )
        return REGISTRY["proposal"].fn(env, view)
    if move:
        raise Refused("turn_reply_without_changes")
    raise Refused("turn_reply_not_a_command")


_TITLE_LINE = re.compile(r"^\s*title\s*:\s*(?P<title>\S.{0,199}?)\s*$", re.I | re.M)


def move_title(env: Envelope, view: GameView) -> str | None:
    """The title of a move sent as a Reply to "Your move": a `Title: …` line (taken out of the
    proposal's text), else named after its first rule change ("Tea" for `Enact rule 24 "Tea"`,
    "Amend rule 12"). None when the reply holds no rule change: then it is not a move."""
    try:
        changes = read_rule_changes(env.text, signer(env, view))
    except RuleChangeError:
        return None  # not read as a move: the usual answer says how to write one
    if not changes:
        return None
    if m := _TITLE_LINE.search(env.text):
        env.text = (env.text[: m.start()] + env.text[m.end() :]).strip("\n")
        return m.group("title")
    c = changes[0]
    rule = c.number or f'"{c.ref_title}"'
    return (
        c.title
        if c.kind == "enact"
        else {"repeal": f"Repeal rule {rule}", "retitle": f"Retitle rule {rule}"}.get(
            c.kind, f"Amend rule {rule}"
        )
    )

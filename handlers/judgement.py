"""[CfJ] / [Judgement] / [Point of Order] question, and the judge's [Ruling] N."""

import re

from mailref.engine import Refused, matters
from mailref.engine.state import Action, JudgementAction
from mailref.handlers.registry import GameView, handles
from mailref.handlers.vote import ballots
from mailref.read import Envelope, RuleChangeError, read_rule_changes
from mailref.read.effects import read_effects, without_effects


@handles("cfj", "point-of-order")
def cfj(env: Envelope, view: GameView) -> Action:
    if env.subject.number is not None and view.variant.votable_judgements:
        return ballots(env, view)  # "Re: [CfJ 7]" is a vote where CfJs are decided by vote
    if env.subject.is_reply and env.subject.number is not None:
        # The judge's plain Reply to "[Judgement 3] You are the judge: …" is the ruling.
        j = next(
            (
                x
                for x in view.state.get("judgements") or ()
                if x.get("number") == env.subject.number
            ),
            None,
        )
        if j and view.name and j.get("judge") == view.name and j.get("status") == "open":
            return ruling(env, view)
        if j and j.get("status") != "open":
            # The judge's, or anyone's, reply once it is ruled ("Thanks", a Reply to the ruling's
            # ack)
            # is told that it was ruled on, not that only its judge answers it.
            raise Refused(
                "judgement_ruled_already", number=env.subject.number, judge=j.get("judge")
            )
        judge = j.get("judge") if j else None
        raise Refused("only_judge_answers", number=env.subject.number, judge=judge)
    question = env.subject.rest.strip() or env.text.strip().split("\n")[0]
    if not question:
        raise Refused("cfj_needs_question")
    if not view.variant.votable_judgements:
        # The same question sent twice (Send pressed twice, a client's retry) is one judgement.
        # Here, not in the engine, so that a journal holding such a copy still replays.
        matters.must_not_repeat(
            [{**j, "author": j["by"]} for j in view.state.get("judgements") or ()],
            view.name,
            question[:300],
            env.text,
            ("open",),
            view.variant.judgement_label,
            view.state.get("timezone") or "UTC",
        )
    action: JudgementAction = {
        "type": "cfj",
        "player": view.name,
        "question": question[:300],
        "text": env.text,
        "kind": "point-of-order" if env.subject.tag == "point-of-order" else "cfj",
        "changes": _changes(env.text),
        "asker_not_judge": True,  # rule 17 as the engine now reads it (variants/sidekick_judges)
    }
    if view.variant.votable_judgements:
        action["effects"] = effects_of(env.text, view)
    return action


def effects_of(text: str, view: GameView) -> list[dict]:
    """The effect lines of TEXT (SPEC §4.4), each player named as the game spells them; a line
    naming nobody in the game is refused, so that its author can say it again."""
    names = {p["name"].lower(): p["name"] for p in view.state.get("players") or ()}
    out = read_effects(text)
    for e in out:
        key = "score" if "score" in e else "player" if "player" in e else None
        if key is None:
            continue
        name = names.get(str(e[key]).lower())
        if name is None:
            raise Refused("effect_names_no_player", name=e[key])
        e[key] = name
    return out


def _changes(text: str) -> list[dict]:
    """Rule changes a judgement asks for, where it is written in the usual forms; a judgement
    is free text, so unreadable lines are left to the GM rather than refused."""
    try:
        return [c.as_dict() for c in read_rule_changes(without_effects(text))]
    except RuleChangeError:
        return []


@handles("ruling")
def ruling(env: Envelope, view: GameView) -> Action:
    if env.subject.number is None:
        raise Refused("ruling_names_no_judgement")
    # "[Ruling] The Senate builds roads." typed at the top of a plain Reply: the tag is the
    # command, not the ruling's first words (they are announced to everybody).
    text = re.sub(r"^\s*\[ruling\]\s*(?:\d+\b)?\s*[:.-]?\s*", "", env.text, flags=re.I)
    return {
        "type": "ruling",
        "player": view.name,
        "number": env.subject.number,
        "text": text,
        "effects": effects_of(text, view),
        "changes": _changes(text),
        "bounded": True,  # score lines past rule 4's penalty wait for the GM (journaled)
    }

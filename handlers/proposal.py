"""[Proposal] Title: a new proposal (the body is its text), or, carrying a number or being a
reply, a ballot on that proposal. [Withdraw] N withdraws your own pending proposal."""

import dataclasses

from mailref.engine import Refused
from mailref.engine.matters import open_statuses
from mailref.engine.ruleset import free_rule_number
from mailref.engine.state import Action
from mailref.handlers.registry import GameView, handles, not_only_attached, signer
from mailref.handlers.vote import ballots
from mailref.read import Envelope, RuleChangeError, read_rule_changes, strip_brace_comments
from mailref.read.limits import BOUNDARIES_MAX, LINE_MAX, READ_MAX


@handles("proposal")
def proposal(env: Envelope, view: GameView) -> Action:
    if env.subject.number is not None or env.subject.is_reply:
        if env.subject.number is None and (number := proposal_titled(view, env.subject.rest)):
            # "Re: Re: [Proposal] Unicorns": a reply to the ack of one's own submission names the
            # proposal by its title only.
            env.subject = dataclasses.replace(env.subject, number=number)
        return ballots(env, view)
    title = env.subject.rest.strip()
    if env.truncated:
        raise Refused(
            "proposal_too_long_to_read", most=READ_MAX, lines=LINE_MAX, parts=BOUNDARIES_MAX
        )
    not_only_attached(env, "proposal", env.text)
    if not title:
        raise Refused("proposal_needs_title")
    text = env.text
    # Imperial "{ }" comments "will be removed before THS includes the new proposal into the
    # ruleset": the voters read them in the proposal, the rule changes never carry them.
    readable = strip_brace_comments(text) if view.variant.strip_braces else text
    try:
        changes = read_rule_changes(readable, signer(env, view))
    except RuleChangeError as e:
        free = free_rule_number(view.state.get("rules", []), view.state.get("rule_history"))
        faults = [(n, text.strip()[:80], why) for n, text, why in e.faults]
        raise Refused("unreadable_rule_changes", faults=faults, free=free) from None
    return {
        "type": "propose",
        "player": view.name,
        "title": title[:200],
        "text": text,
        "changes": [c.as_dict() for c in changes],
    }


@handles("withdraw")
def withdraw(env: Envelope, view: GameView) -> Action:
    if env.subject.number is None:
        raise Refused("withdraw_names_no_proposal")
    return {"type": "withdraw", "player": view.name, "number": env.subject.number}


def proposal_titled(view: GameView, title: str) -> int | None:
    """The number of the one proposal titled TITLE (an open one first), else None."""
    want = " ".join(title.split()).lower()
    if not want:
        return None
    same = [
        p
        for p in view.state.get("proposals", [])
        if " ".join(str(p.get("title", "")).split()).lower() == want
    ]
    statuses = open_statuses(view.variant)
    open_ = [p for p in same if p.get("status") in statuses]
    pick = open_ if open_ else same
    return pick[0]["number"] if len(pick) == 1 else None

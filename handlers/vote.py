"""[Vote] or a reply to an announced matter: ballots in the body (SPEC §3.2)."""

from mailref.engine import Refused
from mailref.engine.matters import label, open_statuses
from mailref.engine.state import Action, VoteLine
from mailref.handlers.registry import GameView, Talk, handles
from mailref.read import Envelope, read_ballots
from mailref.read.ballots import how_to_vote, quoted_ballot, vote_like


class NoBallot(Talk):
    """A mail in which a ballot was looked for and none found: its words may be discussion."""


@handles("vote")
def ballots(env: Envelope, view: GameView) -> Action:
    reading = read_ballots(
        env.text, env.subject.number or only_open_matter(view), numeric_meanings(view)
    )
    if not reading.ballots:
        if closed := closed_matter(view, env.subject.number):
            # Asking to rewrite a vote that cannot count any more only costs a second mail; words
            # with no vote in them are the players talking about it.
            if vote_like(env.text) or quoted_ballot(env.body):
                raise Refused("matter_closed", matter=closed)
            raise Talk("matter_closed", matter=closed)
        words = view.variant.vote_words or ("FOR", "AGAINST", "ABSTAIN")
        raise NoBallot(
            "no_ballot",
            number=env.subject.number,
            until=still_taken(view, env.subject.number),
            how=how_to_vote(words),
            near_misses=reading.near_misses,
            ignored=reading.ignored,
        )
    words = view.variant.ballots_taken(view.state)
    out: list[VoteLine] = []
    for b in reading.ballots:
        if b.number is None:  # never: read_ballots numbers each ballot it keeps
            continue
        vote = view.variant.translate_vote(b.vote)
        if words and vote not in words:
            raise Refused("not_a_vote_word", line=b.line, word=b.word, words=words)
        out.append(
            {"number": b.number, "vote": vote, "word": b.word, "line": b.line, "reason": b.reason}
        )
    return {"type": "vote", "player": view.name, "ballots": out, "ignored": reading.ignored}


def numeric_meanings(view: GameView) -> tuple[str, ...]:
    """The meanings `+1`, `-1` and `0` have in this game: those of FOR, AGAINST and ABSTAIN it has
    (Imperial: FOR and AGAINST, as YES and NO; BlogNomic: no ABSTAIN)."""
    words = view.variant.vote_words or ("FOR", "AGAINST", "ABSTAIN")
    return tuple(
        m for m in ("FOR", "AGAINST", "ABSTAIN") if view.variant.translate_vote(m) in words
    )


def still_taken(view: GameView, number: int | None) -> str:
    """The deadline of an open matter, for people ("" when none): a voter whose Reply held no
    readable ballot (often a Reply to the reminder, near the deadline) is told until when a second
    try counts, not only how to write it."""
    if number is None:
        return ""
    m = next(
        (
            m
            for m in view.state.get("proposals") or []
            if isinstance(m, dict) and m.get("number") == number
        ),
        None,
    )
    if m is None or m.get("status") not in open_statuses(view.variant) or not m.get("deadline"):
        return ""
    return view.variant.deadlines.when(view.state, m["deadline"])


def only_open_matter(view: GameView) -> int | None:
    """The number of the one matter open to votes, when there is exactly one: then a bare
    `[Vote]` with `FOR` cannot mean anything else. With none or several it asks again."""
    statuses = open_statuses(view.variant)
    numbers = {
        m["number"]
        for coll in view.state.values()
        if isinstance(coll, list)
        for m in coll
        if isinstance(m, dict) and "number" in m and m.get("status") in statuses
    }
    return numbers.pop() if len(numbers) == 1 else None


def closed_matter(view: GameView, number: int | None) -> str:
    """ "proposal 1 (passed)" when NUMBER names a matter no longer open to votes, else "". A
    proposal of that number decides: Sidekick's and Imperial's judgements are numbered apart, so
    a reply to proposal 1 is about the proposal even beside a Point of Order 1. A judgement still
    open is not closed either."""
    if number is None:
        return ""
    still_open = open_statuses(view.variant) | {"open"}
    for key in ("proposals", "judgements"):
        m = next(
            (
                m
                for m in view.state.get(key) or []
                if isinstance(m, dict) and m.get("number") == number
            ),
            None,
        )
        if m is not None:
            if m.get("status") in still_open:
                return ""
            named = "proposal" if key == "proposals" else label(m.get("kind") or "", "judgement")
            return f"{named} {number} ({m.get('status')})"
    return ""

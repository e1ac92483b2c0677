"""[Vote] or a reply to an announced matter: ballots in the body (SPEC §3.2)."""

from mailref.engine import Refused
from mailref.handlers import GameView, handles
from mailref.read import Envelope, read_ballots


@handles("vote")
def ballots(env: Envelope, view: GameView) -> dict:
    reading = read_ballots(env.text, env.subject.number)
    if not reading.ballots:
        where = f"proposal {env.subject.number}" if env.subject.number else "any proposal"
        raise Refused(f"I found no vote for {where} in your own words (quoted text does not count)",
                      "put FOR, AGAINST or ABSTAIN on the first line, or lines like `12 FOR`")
    words = getattr(view.variant, "vote_words", ())
    out = []
    for b in reading.ballots:
        vote = view.variant.translate_vote(b.vote) if hasattr(view.variant, "translate_vote") else b.vote
        if words and vote not in words:
            raise Refused(f"{b.word} is not a vote in this game", "vote " + ", ".join(words))
        out.append({"number": b.number, "vote": vote, "word": b.word})
    return {"type": "vote", "player": view.name, "ballots": out, "ignored": reading.ignored}

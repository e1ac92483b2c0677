"""[Away], [Back], `NAME is away`, `NAME has returned` (sidekick rule 15); [Idle], [Unidle].
`[Away] until 6 Jan`, `[Away] 24 Dec to 6 Jan` and `NAME is away until …` carry the dates,
in the subject or on a line of the body; the engine reads them (engine/dates.py)."""

from mailref.engine.dates import names_a_day, names_a_span, read_span
from mailref.engine.state import Action, OtherAction
from mailref.handlers.registry import GameView, handles
from mailref.read import Envelope
from mailref.timeutil import utcnow


@handles("away")
def away(env: Envelope, view: GameView) -> Action:
    out: OtherAction = {"type": "away", "player": view.name, "name": env.subject.name or view.name}
    if dates := absence_dates(env):
        out["dates"] = dates
    return out


def absence_dates(env: Envelope) -> str | None:
    """The words naming the absence's dates: the subject's rest, else the first line of the
    body that reads as them ("until 6 Jan", "24 Dec to 6 Jan"). A subject that sets out to name
    a date ("until 6 Jna") is taken even when unreadable, so that its answer says why; "until
    further notice" names none: a plain absence."""
    rest = env.subject.rest.strip()
    if rest and (_reads_as_span(rest) or (names_a_span(rest) and names_a_day(rest))):
        return rest
    for line in env.text.splitlines()[:10]:
        line = line.strip()
        if line and len(line) <= 80 and _reads_as_span(line):
            return line
    return None


def _reads_as_span(line: str) -> bool:
    """Whether LINE names an absence's dates: only its form counts here; the engine reads it
    against the action's own time."""
    try:
        return read_span(line, "UTC", utcnow()) is not None
    except ValueError:
        return False


@handles("back")
def back(env: Envelope, view: GameView) -> Action:
    return {"type": "back", "player": view.name, "name": env.subject.name or view.name}


@handles("idle")
def idle(env: Envelope, view: GameView) -> Action:
    return {"type": "idle", "player": view.name}


@handles("unidle")
def unidle(env: Envelope, view: GameView) -> Action:
    return {"type": "unidle", "player": view.name}

"""The Emperor's mail (imperial): [Judge] N ACCEPT|VETO|IGNORE, [Proclamation], [Directive],
[Playtest] start|end."""

import re

from mailref.engine import Refused
from mailref.engine.state import Action
from mailref.handlers.judgement import effects_of
from mailref.handlers.registry import GameView, handles, signer
from mailref.read import Envelope, RuleChangeError, read_rule_changes, strip_brace_comments
from mailref.read.effects import without_effects
from mailref.read.rulechanges import without_sign_off

# The verdict first, bold or not ("**ACCEPT**", "[b]Veto[/b]"): its closing marks are not the
# reason.
_VERDICT = re.compile(
    r"^\W*(accept|accepted|veto|vetoed|ignore|ignored)\b(?:\*\*|__|\*|_|\[/b\])?[\s:.,!-]*(.*)$",
    re.I | re.S,
)


@handles("judge")
def judge(env: Envelope, view: GameView) -> Action:
    if env.subject.number is None:
        raise Refused("judge_names_no_proposal")
    # A reply's subject is the judge mail's ("awaiting your judgement: Ignore the dragons"), never a
    # verdict.
    for text in (env.text,) if env.subject.is_reply else (env.subject.rest, env.text):
        m = _VERDICT.match(text.strip())
        if m:
            verdict = {"a": "ACCEPT", "v": "VETO", "i": "IGNORE"}[m.group(1)[0].lower()]
            return {
                "type": "judge",
                "player": view.name,
                "number": env.subject.number,
                "verdict": verdict,
                "reason": " ".join(_reason(m.group(2), signer(env, view)).split())[:500],
            }
    raise Refused("no_judgement_found")


def _reason(text: str, names: str) -> str:
    """The reason after the verdict without the Emperor's closing ("Mit freundlichen Grüßen\nAlice",
    "Cheers,\nAlice"): it is announced to every player as the reason."""
    paras = re.split(r"\n\s*\n", text.strip())
    last = [ln.strip() for ln in paras[-1].splitlines() if ln.strip()]
    own = {w.lower() for w in re.findall(r"[\w'’-]+", names)}
    if (
        last
        and len(last) <= 3
        and all(len(ln) <= 40 for ln in last)
        and {w.lower() for w in last[-1].split()} <= own
    ):  # the paragraph ends in the name alone
        paras.pop()
    return without_sign_off("\n\n".join(["-", *paras]), names)[0].removeprefix("-").strip()


@handles("proclamation")
def proclamation(env: Envelope, view: GameView) -> Action:
    text = strip_brace_comments(env.text)
    try:
        changes = read_rule_changes(without_effects(text), signer(env, view))
    except RuleChangeError as e:
        raise Refused(
            "unreadable_proclamation", faults=[(n, why) for n, _, why in e.faults]
        ) from None
    return {
        "type": "proclamation",
        "player": view.name,
        "title": env.subject.rest.strip()[:200] or "Proclamation",
        "text": text,
        "changes": [c.as_dict() for c in changes],
        "effects": effects_of(text, view),
    }


@handles("directive")
def directive(env: Envelope, view: GameView) -> Action:
    return {
        "type": "directive",
        "player": view.name,
        "title": env.subject.rest.strip()[:200] or "Directive",
        "text": env.text,
    }


_START = {"start", "begin", "on", "starts", "begins"}
_END = {"end", "stop", "off", "ends", "stops"}


@handles("playtest")
def playtest(env: Envelope, view: GameView) -> Action:
    """B rules are active "when IE deems that a new playtest of the sub-game ... should then
    begin"."""
    words = (env.subject.rest + " " + env.text).lower().split()
    word = next((w.strip(".,:;!") for w in words if w.strip(".,:;!") in _START | _END), None)
    if word is None:
        raise Refused("playtest_says_neither")
    return {
        "type": "playtest",
        "player": view.name,
        "on": word in _START,
        "reason": env.text.strip()[:500],
    }

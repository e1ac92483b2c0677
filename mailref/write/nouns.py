"""The game's own noun for a player in what the referee writes: a ruleset's `noun: Nome`
(docs/rulesets.md), or the word a BlogNomic Ascension Address gave its Wizards, said wherever
the referee's words say "player" (or BlogNomic's "Wizard"). What a mail quotes (the rules, the
matters, the players' names) keeps its own words."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from markupsafe import escape

# The word, not a part of an address, a path, a parameter's or a header's name.
_WORD = r"(?<![\w@./-])({words})(s?)(?![\w@-])"
SAID = {"blognomic": ("player", "wizard")}  # the words each engine names players by
_SENTENCE = re.compile(r"(?<=[.!?:])\s+")


def noun_of(game: Mapping[str, Any] | None) -> str:
    """What GAME calls a player where it says so, else ""."""
    if not game:
        return ""
    noun = str((game.get("ruleset") or {}).get("noun") or "")
    term = str((game.get("terms") or {}).get("player") or "")
    if not noun and term.lower() not in ("", "wizard"):
        noun = term  # renamed at an Ascension
    return noun.strip()


def reworded(text: str, game: Mapping[str, Any] | None, html: bool = False) -> str:
    """TEXT as GAME says it: its noun for "player", the quoted words of the game kept (as
    an HTML page escapes them, with HTML)."""
    noun = noun_of(game)
    if not noun or not text:
        return text
    assert game is not None
    words = SAID.get(str(game.get("variant")), ("player",))
    word = re.compile(_WORD.format(words="|".join(words)), re.I)
    if not word.search(text):
        return text
    quotable = set(_quotable(game))
    if html:
        quotable |= {str(escape(q)) for q in quotable}
    # A title that is the word alone ("Wizards") cannot be told from the referee's own word.
    quoted = sorted(
        {q for q in quotable if word.search(q) and not word.fullmatch(q)}, key=len, reverse=True
    )
    kept: list[str] = []
    for q in quoted:  # each quoted passage stands aside while the referee's words change
        if q in text:
            text = text.replace(q, f"\x00{len(kept)}\x00")
            kept.append(q)
    plural = noun if noun.lower().endswith("s") else noun + "s"
    singular = noun

    def said(m: re.Match[str]) -> str:
        out = plural if m.group(2) else singular
        found = m.group(0)
        if found.isupper() and len(found) > 1:
            return out.upper()
        return out[:1].upper() + out[1:] if found[0].isupper() else out

    text = word.sub(said, text)
    for i, q in enumerate(kept):
        text = text.replace(f"\x00{i}\x00", q)
    return text


def _quotable(game: Mapping[str, Any]) -> Iterator[str]:
    """The game's own words a mail or page may quote: its rules and matters, line by line and
    sentence by sentence (the rules page marks a rule's sentences apart), and its names."""
    yield str(game.get("name") or "")
    texts = [str(r.get(k) or "") for r in game.get("rules") or () for k in ("title", "text")]
    for m in [*(game.get("proposals") or ()), *(game.get("judgements") or ())]:
        texts += [str(m.get(k) or "") for k in ("title", "question", "text")]
    for text in texts:
        for line in text.splitlines():
            yield line.strip()
            yield from (s.strip() for s in _SENTENCE.split(line))
    for p in game.get("players") or ():
        yield str(p.get("name") or "")


__all__ = ["noun_of", "reworded"]

"""Player names that look alike are the same name: "Аlice" with a Cyrillic А, "AIice" with a
capital I, "Ａlice" in full width all fold to the key of "Alice".

The table is Unicode's confusables data as shipped by the maintained `confusable_homoglyphs`
package (pinned in pyproject.toml). It pairs each prototype character with the characters
that look like it; every member of such a group folds to one representative, so the fold
is the same whichever member a name uses."""

from __future__ import annotations

import unicodedata
from functools import cache


@cache
def _table() -> dict[str, str]:
    from confusable_homoglyphs import confusables

    data = confusables.confusables_data
    fold: dict[str, str] = {}
    for ch, glyphs in data.items():
        group = {ch, *(g["c"] for g in glyphs)}
        if len(glyphs) == 1:  # a look-alike points at its prototype: take the prototype's group
            group |= {g["c"] for g in data.get(glyphs[0]["c"], [])}
        fold[ch] = min(group)
    return fold


def _skeleton(text: str) -> str:
    table = _table()
    return "".join(table.get(ch, ch) for ch in text)


def name_keys(name: str) -> list[str]:
    """The keys a name is compared by: two names are the same when any of their keys are.
    Folded with and without case first, so both "alice"/"Alice" and "AIice"/"Alice" meet.
    Accents go too (decomposed, then their combining marks dropped): "Alíce" and "Alicé" read
    as "Alice" at a glance in a list of players, and joined beside her."""
    n = " ".join(unicodedata.normalize("NFKD", name).split())
    n = unicodedata.normalize(
        "NFC", "".join(ch for ch in n if unicodedata.category(ch) not in ("Cf", "Mn"))
    )
    keys = [_skeleton(n).casefold(), _skeleton(n.casefold()).casefold()]
    return list(dict.fromkeys(keys))

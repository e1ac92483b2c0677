"""The ways players word a switch of the voting policy: per switch, the sentence forms a rule
states it in and the word each says. A form matches within one sentence (no full stop or
semicolon between its parts); quotes around a ballot's word may be straight or curly."""

from __future__ import annotations

from mailref.engine.parameters import Switch

_Q = r"[\"“”']?"
_PASS = r"(?:pass(?:es|ed)?|is adopted|carries|is carried|is enacted|succeeds)"
_FAIL = r"(?:fail(?:s|ed)?|is rejected|is defeated|is lost)"
_TIED = r"(?:\btie[sd]?\b|\bvotes are (?:equal|even|level)\b|\bequal number)"
_ON_A_TIE = r"\b(?:on|in|with|at|by) (?:a|the case of a|the event of a) tie\b"

# Sidekick rule 12: "... or if the number of “for” votes and “against” votes is tied, the
# proposal is said to have failed."
TIE = Switch(
    (_TIED + r"[^.;]*?\b" + _PASS + r"\b", "passes"),
    (_TIED + r"[^.;]*?\b" + _FAIL + r"\b", "fails"),
    (r"\b" + _PASS + r"\b[^.;]*?" + _ON_A_TIE, "passes"),
    (r"\b" + _FAIL + r"\b[^.;]*?" + _ON_A_TIE, "fails"),
    (r"\bat least as many " + _Q + r"(?:for|yes)" + _Q + r" votes as " + _Q, "passes"),
)

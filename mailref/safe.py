"""Text from mail on an operator's terminal or in a log: control characters (ESC sequences
that clear a screen or retitle a window, bidi overrides, NUL, CR) are shown escaped,
never passed through raw."""

from __future__ import annotations

import re
from typing import Any

# C0 and C1 controls and DEL, plus the Unicode bidi and zero-width controls.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_CONTROL_NL = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def _esc(m: re.Match) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def printable(value: Any, keep_newlines: bool = False) -> str:
    """VALUE as text safe to print: every control character escaped (\\x1b, \\u202e)."""
    text = str(value)
    return (_CONTROL if keep_newlines else _CONTROL_NL).sub(_esc, text)


def one_line(value: Any) -> str:
    """VALUE for one log line: its line breaks and runs of blanks as one space (never a literal
    \\x0a), every other control character escaped."""
    return printable(" ".join(str(value).split()))

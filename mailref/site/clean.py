"""Text as a page or feed may hold it."""

from __future__ import annotations

import re

# What XML 1.0 does not allow, HTML a parse error: C0 controls but tab, LF and CR, C1 and DEL,
# surrogates, noncharacters (a pasted bell or form feed made the feed and pages invalid).
_NOT_TEXT = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")


def as_text(page: str) -> str:
    """PAGE with every character a page or feed may not hold shown as U+FFFD (a form feed, a
    page break in plain text, as a space)."""
    return _NOT_TEXT.sub("\ufffd", page.replace("\x0c", " "))

"""A mail that only asks to stop the mail ("unsubscribe", "remove me", "stop"), as people
write to a list's own address: Mailman holds such "administrivia" rather than post them. A
game answers it and does not relay it as the players talking."""

from __future__ import annotations

import re

# The whole of what was written, a request and nothing else: "unsubscribe", "Please remove
# me.", "STOP". A sentence about unsubscribing is the players talking.
_REQUEST = re.compile(
    r"(please\s+)?(unsubscribe|unsub|subscribe|remove|stop|cancel)(\s+me)?"
    r"(\s+from\s+(this|the)\s+(list|game))?(\s*,?\s*please)?\s*[.!]*",
    re.I,
)


def administrivia(subject_rest: str, text: str) -> bool:
    """Whether the subject (its tags and prefixes read off) and the sender's own words hold
    a request to stop the mail and nothing else."""
    said = [s.strip() for s in (subject_rest, text) if s and s.strip()]
    return bool(said) and all(_REQUEST.fullmatch(s) for s in said)

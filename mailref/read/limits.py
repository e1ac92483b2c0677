"""How much of a mail is read for commands. The raw mail is always kept whole in the inbox;
reading sees at most READ_MAX characters of text, lines cut at LINE_MAX, so no mail can hold
the referee longer than a fixed budget whatever it contains."""

from __future__ import annotations

READ_MAX = 100_000   # characters of a body read for commands (a long proposal is ~20,000)
LINE_MAX = 2_000     # characters of one line; longer lines are prose, not commands
HTML_MAX = 200_000   # characters of an HTML part turned into text (HTML is verbose)


def bounded(text: str) -> str:
    """TEXT cut to what reading looks at: READ_MAX characters, every line at most LINE_MAX."""
    if len(text) > READ_MAX:
        text = text[:READ_MAX]
    if len(text) <= LINE_MAX:
        return text
    lines = text.split("\n")
    if max(map(len, lines)) <= LINE_MAX:
        return text
    return "\n".join(ln[:LINE_MAX] for ln in lines)


def was_cut(text: str) -> bool:
    """Whether reading TEXT leaves something unread."""
    return len(text) > READ_MAX or any(len(ln) > LINE_MAX for ln in text.split("\n"))

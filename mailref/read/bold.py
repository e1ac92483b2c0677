"""Bold spans in any of the ways people write them: HTML (already **x** after html_to_text),
Markdown **x** and __x__, plain *x*, BBCode [b]x[/b]. A span broken across lines or holding
several sentences gives one order per sentence."""

from __future__ import annotations

import re

_SPANS = re.compile(
    r"\[b\](?P<bb>.+?)\[/b\]|\*\*(?P<md>.+?)\*\*|(?<![\w_])__(?P<us>.+?)__(?![\w_])|"
    r"(?<![\w*])\*(?P<pl>[^*\s](?:[^*]*?[^*\s])?)\*(?![\w*])",
    re.I | re.S,
)
_SENTENCE = re.compile(r"(?<=[.;!?])\s+|\n+(?=\s*[A-Z0-9])")
# A line break followed by a lower-case word is a wrapped line, not a new order.


def bold_spans(text: str) -> list[str]:
    """Each bold span's text, in order, whitespace folded."""
    out = []
    for m in _SPANS.finditer(text):
        span = next(g for g in m.groups() if g is not None)
        span = " ".join(span.split())
        if span:
            out.append(span)
    return out


def bold_orders(text: str) -> list[str]:
    """One entry per sentence of bold text: each is one order."""
    orders: list[str] = []
    for m in _SPANS.finditer(text):
        span = next(g for g in m.groups() if g is not None)
        for part in _SENTENCE.split(span):
            part = " ".join(part.split()).strip(" .;")
            if part:
                orders.append(part)
    return orders

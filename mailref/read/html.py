"""HTML bodies as text a person would read, keeping bold (as **x**), lists, line breaks
and blockquotes (as `> `), so the same quote and bold rules serve both kinds of mail."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCK = {"p", "div", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol",
          "pre", "section", "article", "header", "footer", "hr", "center", "dl", "dt", "dd"}
_SKIP = {"script", "style", "head", "title"}
_BOLD_TAGS = {"b", "strong"}
_OPEN, _CLOSE = "\x01", "\x02"  # bold markers, placed once the text around them is known
_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(bold|bolder|[6-9]00)", re.I)


class _ToText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.cur: list[str] = []
        self.quote = 0
        self.skip = 0
        self.bold_stack: list[bool] = []  # per open tag: did it open bold?
        self.bold = 0

    def _flush(self) -> None:
        line = "".join(self.cur).strip()
        prefix = "> " * self.quote
        if line or self.quote == 0:
            self.lines.append(prefix + line if line else "")
        self.cur = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skip += 1
            return
        if tag == "br":
            self._flush()
            return
        if tag in _BLOCK or tag == "li" or tag == "blockquote":
            if self.cur:
                self._flush()
        if tag == "blockquote":
            self.quote += 1
        if tag == "li":
            self.cur.append("- ")
        if tag in ("img", "hr", "input", "meta", "link"):
            return  # void elements never close
        style = dict(attrs).get("style") or ""
        opens = tag in _BOLD_TAGS or bool(_BOLD_STYLE.search(style))
        self.bold_stack.append(opens)
        if opens:
            if self.bold == 0:
                self.cur.append(_OPEN)
            self.bold += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if tag in ("br", "img", "hr", "input", "meta", "link"):
            return
        if self.bold_stack:
            opened = self.bold_stack.pop()
            if opened:
                self.bold -= 1
                if self.bold == 0:
                    self.cur.append(_CLOSE)
        if tag in _BLOCK or tag == "li" or tag == "blockquote":
            if self.cur:
                self._flush()
        if tag == "blockquote":
            self.quote = max(0, self.quote - 1)

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        self.cur.append(re.sub(r"\s+", " ", data.replace(_OPEN, "").replace(_CLOSE, "")))

    def text(self) -> str:
        if self.cur:
            self._flush()
        out = "\n".join(self.lines)
        out = re.sub(f"{_OPEN}(\\s*){_CLOSE}", r"\1", out)  # empty bold from <b> </b>
        # Markers hug the words, as a person writes **bold**, not ** bold **.
        out = re.sub(f"{_OPEN}(\\s*)", r"\1**", out)
        out = re.sub(f"(\\s*){_CLOSE}", r"**\1", out)
        out = out.replace(_OPEN, "").replace(_CLOSE, "")
        return re.sub(r"\n{3,}", "\n\n", out).strip()


def html_to_text(html: str) -> str:
    parser = _ToText()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # the parser is lenient; this is belt and braces for odd input
        return re.sub(r"<[^>]+>", "", html)
    return parser.text()

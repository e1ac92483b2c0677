"""HTML bodies as text a person would read, keeping bold (as **x**), lists, line breaks
and blockquotes (as `> `), so the same quote and bold rules serve both kinds of mail.

Mail clients mark what they quote in the HTML itself, and that is removed as HTML, before
any text exists (SPEC §2.4): once `<b>From:</b>` has become `**From:**` a quoted header block
or a quoted `1 FOR` is much harder to tell from the sender's own words. Recognised:
- Gmail: `<div class="gmail_quote">` / `<blockquote class="gmail_quote">` (and `gmail_attr`);
- Apple Mail and Thunderbird: `<blockquote type="cite">`, Thunderbird's attribution
  `<div class="moz-cite-prefix">`; Yahoo: `yahoo_quoted`;
- Outlook Web / OWA and Outlook desktop: `<div id="divRplyFwdMsg">` (and `x_divRplyFwdMsg`,
  `appendonsend`), older Outlook's `OutlookMessageHeader`, and an `<hr>` (or a top-bordered div)
  followed by a header block (From:/Date:/Sent:/To:/Subject: in any order, attribution.py):
  everything from there on is the original message. Outlook.com's `x_` class prefix is read
  through.
One pass of the stdlib parser over HTML tamed first (`_tame`); the work is linear in its size."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from mailref.read.attribution import header_block_at, is_attribution
from mailref.read.limits import HTML_MAX

_BLOCK = {
    "p",
    "div",
    "tr",
    "table",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "pre",
    "section",
    "article",
    "header",
    "footer",
    "hr",
    "center",
    "dl",
    "dt",
    "dd",
}
_SKIP = {"script", "style", "head", "title"}
_VOID = {"img", "hr", "input", "meta", "link", "br", "wbr", "col", "area", "base", "source"}
_BOLD_TAGS = {"b", "strong"}
_OPEN, _CLOSE = "\x01", "\x02"  # bold markers, placed once the text around them is known
_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(bold|bolder|[6-9]00)", re.I)
_QUOTE_CLASSES = {
    "gmail_quote",
    "gmail_attr",
    "moz-cite-prefix",
    "yahoo_quoted",
    "protonmail_quote",
}
_CUT_IDS = re.compile(r"divRplyFwdMsg|appendonsend|OLK_SRC_BODY_SECTION|OutlookMessageHeader", re.I)
_TOP_BORDER = re.compile(r"border-top\s*:\s*solid", re.I)
_MARK = "\x03"  # a line holding only this is an <hr> or a top border: a possible cut


# A paragraph without margins is a line: Outlook writes every line as <p class=MsoNormal>
# (margin 0), an empty one for a blank line. Every other <p> is a paragraph, shown set apart.
_NO_MARGIN = re.compile(r"margin(-bottom)?\s*:\s*0(px|pt|em|cm|in)?\s*(;|$)", re.I)


def _spaced(attrs: dict[str, str | None]) -> bool:
    if "msonormal" in (attrs.get("class") or "").lower().split():
        return False
    return not _NO_MARGIN.search(attrs.get("style") or "")


def _is_quote(tag: str, attrs: dict[str, str | None]) -> bool:
    # Outlook.com prefixes the classes of a mail it quotes again ("x_gmail_quote").
    classes = {c[2:] if c.startswith("x_") else c for c in (attrs.get("class") or "").split()}
    if classes & _QUOTE_CLASSES:
        return True
    return tag == "blockquote" and (attrs.get("type") or "").lower() == "cite"


class _ToText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.cited_lines: set[int] = set()  # indexes of lines inside a client's quote
        self.cur: list[str] = []
        self.quote = 0
        self.skip = 0
        self.bold_stack: list[bool] = []  # per open tag: did it open bold?
        self.bold = 0
        self.cited: list[str] = []  # tag names opened inside a client's quote; empty: not in one
        self.cut: int | None = None  # line index where the quoted original message begins
        self.pre = 0
        self.marks = self.quoted = False  # saw a rule / a client's quote: own words differ
        self.paragraphs: list[
            tuple[bool, int]
        ] = []  # per open <p>: set apart by a blank line? its first line
        # Line ranges of blockquotes no program marked (no attributes), outside any quote.
        self.bare: list[tuple[int, int]] = []
        self.in_bare = False

    def _flush(self) -> None:
        line = "".join(self.cur).strip()
        prefix = "> " * self.quote
        if line or self.quote == 0:
            if self.cited:
                self.cited_lines.add(len(self.lines))
            self.lines.append(prefix + line if line else "")
        self.cur = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skip += 1
            return
        if tag == "br":
            self._flush()
            return
        a = dict(attrs) if attrs else {}
        if tag in _BLOCK or tag == "li" or tag == "blockquote":
            self._break()
        if tag == "p":
            spaced = _spaced(a)
            if spaced:
                self._blank()
            self.paragraphs.append((spaced, len(self.lines)))
        if tag == "pre":
            self.pre += 1
        if tag == "hr" or tag == "div" and a and _TOP_BORDER.search(a.get("style") or ""):
            if self.cited:
                self.cited_lines.add(len(self.lines))
            self.lines.append(_MARK)
            self.marks = True
        if (
            a
            and self.cut is None
            and (_CUT_IDS.search(a.get("id") or "") or _CUT_IDS.search(a.get("class") or ""))
        ):
            self.cut = len(self.lines)
        if tag not in _VOID:
            if self.cited:
                self.cited.append(tag)
            elif a and _is_quote(tag, a):
                self.cited.append(tag)
                self.quoted = True
        if tag == "blockquote":
            if not a and not self.quote and not self.cited:
                self.bare.append((len(self.lines), len(self.lines)))
                self.in_bare = True
            self.quote += 1
        if tag == "li":
            self.cur.append("- ")
        if tag in _VOID:
            return  # void elements never close
        opens = tag in _BOLD_TAGS or bool(a) and bool(_BOLD_STYLE.search(a.get("style") or ""))
        self.bold_stack.append(opens)
        if opens:
            if self.bold == 0:
                self.cur.append(_OPEN)
            self.bold += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if tag in _VOID:
            return
        if self.bold_stack:
            opened = self.bold_stack.pop()
            if opened:
                self.bold -= 1
                if self.bold == 0:
                    self.cur.append(_CLOSE)
        if tag in _BLOCK or tag == "li" or tag == "blockquote":
            self._break()
        if tag == "p" and self.paragraphs:
            spaced, start = self.paragraphs.pop()
            if spaced or len(self.lines) == start:  # an empty line-paragraph is a blank line
                self._blank()
        if tag == "pre":
            self.pre = max(0, self.pre - 1)
        if tag == "blockquote":
            self.quote = max(0, self.quote - 1)
            if self.in_bare and not self.quote:
                self.bare[-1] = (self.bare[-1][0], len(self.lines))
                self.in_bare = False
        if self.cited and tag in self.cited:
            # Close up to the innermost open element of this name (browsers forgive
            # unclosed inner tags the same way); the quote ends when its own tag closes.
            while self.cited and self.cited.pop() != tag:
                pass

    def _blank(self) -> None:
        """The blank line between two paragraphs (a run of them is one blank line in the end)."""
        if self.quote == 0 and self.lines and self.lines[-1] not in ("", _MARK):
            if self.cited:
                self.cited_lines.add(len(self.lines))
            self.lines.append("")

    def _break(self) -> None:
        """A block boundary: a new line, but whitespace between blocks is no blank line."""
        if "".join(self.cur).strip(_OPEN + _CLOSE + " "):
            self._flush()
        elif self.cur and not self.bold:
            self.cur = []

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        data = data.replace(_OPEN, "").replace(_CLOSE, "").replace(_MARK, "")
        if self.pre:  # preformatted: its line breaks are the writer's (a `-- ` signature)
            first, *rest = data.split("\n")
            self.cur.append(first)
            for part in rest:
                self._flush()
                self.cur.append(part)
            return
        self.cur.append(re.sub(r"\s+", " ", data))

    def finish(self) -> None:
        if self.cur:
            self._flush()


def _bold_markers(text: str) -> str:
    text = re.sub(f"{_OPEN}(\\s*){_CLOSE}", r"\1", text)  # empty bold from <b> </b>
    # One bold line in several runs, as Word writes it (<b>Attack Donal with </b><b>10
    # Grain</b><b>.</b>
    # after a spell check, a language or font change): runs that touch are one bold span, one order.
    # Spans with a space between ("<b>Attack …</b> <b>Defend …</b>", a forum's) stay apart.
    text = text.replace(_CLOSE + _OPEN, "")
    # Markers hug the words, as a person writes **bold**, not ** bold **.
    text = re.sub(f"{_OPEN}(\\s*)", r"\1**", text)
    text = re.sub(f"(\\s*){_CLOSE}", r"**\1", text)
    return text.replace(_OPEN, "").replace(_CLOSE, "")


def _join(lines: list[str]) -> str:
    out = _bold_markers("\n".join(ln for ln in lines if ln != _MARK))
    return re.sub(r"\n{3,}", "\n\n", out).strip()


def _header_block_after(lines: list[str], i: int) -> bool:
    """Does a header block (From:/Date:/Sent:/To:/Subject:, in any order) start within the first
    lines after I? Bold runs on one line ("**From: x** **Date: y**") are fields of their own."""
    nonblank = [ln for ln in lines[i + 1 : i + 12] if ln.strip() and ln != _MARK][:6]
    pieces = [p for ln in nonblank for p in _RUNS.split(_bold_markers(ln))][:6]
    return bool(pieces) and header_block_at(pieces, 0)


_RUNS = re.compile(r"(?<=\*\*)\s+(?=\*\*)")


# A tag as the parser may read it at once: a name (or !, ?) and anything but < and > up to its >.
_TAG = re.compile(r"<(/?[A-Za-z][^<>]*|![^<>]*|\?[^<>]*)>|<")
_QUOTED = re.compile(r'"[^"]*"|\'[^\']*\'')


def _tame(html: str) -> str:
    """HTML the standard library's parser reads in linear time. It rescans to the end of the
    text for every construct left open: 100,000 "<!--" took it 200 s, 10,000 "<a b='" 60 s
    (SPEC §2.4's reading must not hold the referee). Comments are removed here (one left open
    runs to the end, as browsers read it), and a "<" that opens no complete tag, or a tag with a
    quote left open, becomes text ("&lt;"), as a browser shows it."""
    out, i = [], 0
    while (j := html.find("<!--", i)) >= 0:
        out.append(html[i:j])
        k = html.find("-->", j + 4)
        i = len(html) if k < 0 else k + 3
    out.append(html[i:])
    html = "".join(out)

    def tag(m: re.Match[str]) -> str:
        inside: str | None = m.group(1)
        if inside is None:
            return "&lt;"
        rest = _QUOTED.sub("", inside)
        whole: str = m.group(0)
        return whole if '"' not in rest and "'" not in rest else "&lt;" + inside + "&gt;"

    return _TAG.sub(tag, html)


def _parse(html: str) -> _ToText:
    parser = _ToText()
    parser.feed(_tame(html))
    parser.close()
    parser.finish()
    return parser


def html_texts(html: str) -> tuple[str, str]:
    """(the whole HTML as text, the sender's own words: every client's quote removed)."""
    html = html[:HTML_MAX]  # bounded work whatever the part holds (limits.py)
    try:
        parser = _parse(html)
    except Exception:  # the parser is lenient; this is belt and braces for odd input
        flat = re.sub(r"<[^>]+>", "", html)
        return flat, flat
    lines = _own_blockquotes(parser)
    if parser.cut is None and not parser.quoted and not parser.marks:
        full = _join(lines)  # nothing quoted as HTML: the own words are the whole text
        return full, full
    cited = parser.cited_lines
    own = [ln for i, ln in enumerate(lines[: parser.cut]) if i not in cited]
    for i, ln in enumerate(own):
        if ln == _MARK and _header_block_after(own, i):
            own = own[:i]
            break
    return _join(lines), _join(own)


def _own_blockquotes(parser: _ToText) -> list[str]:
    """The lines, a blockquote the sender set in their own words unquoted: one no program
    marked, above the attribution of the mail answered (a program quotes below its
    attribution, and marks what it quotes above one)."""
    lines = parser.lines
    for start, end in parser.bare:
        if end > start and any(is_attribution(ln.strip()) for ln in lines[end : end + 12]):
            lines = [
                *lines[:start],
                *(ln[2:] if ln.startswith("> ") else ln for ln in lines[start:end]),
                *lines[end:],
            ]
    return lines


def html_to_text(html: str) -> str:
    return html_texts(html)[0]

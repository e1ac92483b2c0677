"""Rule changes in a proposal's text, from the line-starting forms of SPEC §3.1. The result
is plain data the engine applies and the ack echoes; a line that starts like a change but
cannot be read is an error naming the line."""

from __future__ import annotations

import re

from mailref.engine.change import RuleChange
from mailref.read.limits import bounded

_Q = "\"“”„«»'‘’"
_REF = rf"(?:(?P<num>\d+(?:\.\d+)*)|[{_Q}](?P<qtitle>[^{_Q}]+)[{_Q}])"
_TITLE = rf"[{_Q}](?P<title>[^{_Q}]+)[{_Q}]"

_ENACT = re.compile(
    rf"^\s*enact\s+(?:a\s+new\s+)?rule\s*(?:(?:number\s+|#)?(?P<num>\d+(?:\.\d+)*))?\s*,?\s*"
    rf"(?:(?:titled|entitled|called|named)\s*)?(?:{_TITLE})?\s*(?:,?\s*with\s+the\s+following\s+text)?\s*[:.]?\s*(?P<after>.*)$",
    re.I,
)
_AMEND = re.compile(
    rf"^\s*amend\s+rule\s+{_REF}\s*,?\s*(?:so\s+that\s+it\s+reads|to\s+read)\s*:?\s*(?P<after>.*)$",
    re.I,
)
_REPLACE = re.compile(
    rf"^\s*in\s+rule\s+{_REF}\s*,?\s*replace\s+[{_Q}](?P<old>.+?)[{_Q}]\s+with\s+[{_Q}](?P<new>.*?)[{_Q}]\s*\.?\s*$",
    re.I,
)
_REPEAL = re.compile(rf"^\s*repeal\s+rule\s+{_REF}\s*\.?\s*$", re.I)
_RETITLE = re.compile(rf"^\s*retitle\s+rule\s+{_REF}\s+(?:to|as)\s+{_TITLE}\s*\.?\s*$", re.I)
# A rule number at most this deep (21.3.1 is three levels), each part at most this long: the
# ruleset, its pages and its diffs stay a size a reader can follow.
RULE_DEPTH_MAX = 8
RULE_PART_DIGITS = 6
_STARTS = re.compile(
    r"^\s*(enact\b|amend\s+rule\b|in\s+rule\b|repeal\s+rule\b|retitle\s+rule\b)", re.I
)


class RuleChangeError(ValueError):
    """Lines that start like rule changes but cannot be read. LINE, TEXT and WHY are the first;
    FAULTS holds every one as (line, text, why), in the order of the lines."""

    def __init__(
        self, line: int, text: str, why: str, more: list[tuple[int, str, str]] | None = None
    ):
        super().__init__(f"line {line}: {why}: {text.strip()!r}")
        self.line, self.text, self.why = line, text, why
        self.faults = [(line, text, why), *(more or [])]


def strip_brace_comments(text: str) -> str:
    """`{ comments }` are the author's asides and never enter the ruleset (imperial)."""
    out, depth = [], 0
    for piece in re.split(r"([{}])", text):
        if piece == "{":
            depth += 1
        elif piece == "}" and depth:
            depth -= 1
        elif not depth:
            out.append(piece)
    # Trailing blanks go from every line but the last, line by line: a pattern over the
    # whole text would backtrack on a long run of spaces.
    parts = "".join(out).split("\n")
    return "\n".join([ln.rstrip(" \t") for ln in parts[:-1]] + parts[-1:])


def read_rule_changes(text: str, signer: str = "") -> list[RuleChange]:
    """Every change in TEXT, in order; raises RuleChangeError naming every unreadable one.
    SIGNER: the author's names, so that a name alone closing the mail is not rule text."""
    changes: list[RuleChange] = []
    lines = bounded(text).splitlines()
    body: list[str] | None = None  # the text being collected for an enact / amend
    inline = False  # that text began on the change's own line
    faults: list[tuple[int, str, str]] = []
    for no, line in enumerate(lines, 1):
        if not _STARTS.match(line):
            if body is not None:
                body.append(line)
            continue
        if body is not None:
            changes[-1].text, changes[-1].aside = _first_paragraph(_clean_body(body), inline)
            body = None
        if m := _ENACT.match(line):
            if not m.group("title"):
                faults.append(
                    (no, line, 'a new rule needs a title in quotes, e.g. Enact rule 24 "Title":')
                )
                continue
            changes.append(
                RuleChange("enact", number=m.group("num"), title=m.group("title").strip(), line=no)
            )
            inline = bool(m.group("after").strip())
            body = [m.group("after")] if inline else []
        elif m := _AMEND.match(line):
            changes.append(
                RuleChange("amend", number=m.group("num"), ref_title=m.group("qtitle"), line=no)
            )
            inline = bool(m.group("after").strip())
            body = [m.group("after")] if inline else []
        elif m := _REPLACE.match(line):
            changes.append(
                RuleChange(
                    "replace",
                    number=m.group("num"),
                    ref_title=m.group("qtitle"),
                    old=m.group("old"),
                    new=m.group("new"),
                    line=no,
                )
            )
        elif m := _REPEAL.match(line):
            changes.append(
                RuleChange("repeal", number=m.group("num"), ref_title=m.group("qtitle"), line=no)
            )
        elif m := _RETITLE.match(line):
            changes.append(
                RuleChange(
                    "retitle",
                    number=m.group("num"),
                    ref_title=m.group("qtitle"),
                    title=m.group("title").strip(),
                    line=no,
                )
            )
        else:
            faults.append(
                (
                    no,
                    line,
                    "this line starts like a rule change but does not follow a known form "
                    '(Enact rule N "Title": / Amend rule N to read: / In rule N, replace "old" '
                    'with "new". / Repeal rule N. / Retitle rule N to "Title".)',
                )
            )
    if body is not None:
        text, changes[-1].signoff = without_sign_off(_clean_body(body), signer)
        changes[-1].text, changes[-1].aside = _first_paragraph(text, inline)
    for c in changes:
        if c.number and (why := number_fault(c.number)):
            faults.append((c.line, lines[c.line - 1][:200], why))
        elif c.kind in ("enact", "amend") and not c.text:
            faults.append((c.line, lines[c.line - 1], "no rule text follows"))
    if faults:
        faults.sort(key=lambda f: f[0])
        raise RuleChangeError(*faults[0], more=faults[1:])
    return changes


def number_fault(number: str) -> str | None:
    """Why NUMBER (24, 21.3.1) is too deep or too long to be a rule's number, or None."""
    parts = number.split(".")
    shown = number if len(number) <= 40 else number[:40] + "…"
    if len(parts) > RULE_DEPTH_MAX:
        return (
            f"rule {shown} is {len(parts)} levels deep; "
            f"a rule number has at most {RULE_DEPTH_MAX} (such as 1.2.3.4.5.6.7.8)"
        )
    if any(len(p) > RULE_PART_DIGITS for p in parts):
        return (
            f"the rule number {shown} has a part of {max(len(p) for p in parts):,} digits; "
            f"each part of a rule number has at most {RULE_PART_DIGITS} (such as 24 or 21.3)"
        )
    return None


# How mails end: "Cheers, Bob", "Thoughts welcome!", "— Bob", "Bob". Never rule text. Closings of
# other languages are mostly written without a comma ("Med vänlig hälsning\nAlice").
_WORDS = (
    r"(?:med vänlig(?:a)? hälsning(?:ar)?|vänliga hälsningar|hälsningar|mvh|mit freundlichen "
    r"grüßen|"
    r"mit freundlichen gruessen|viele grüße|liebe grüße|beste grüße|grüße|gruß|mfg|med venlig "
    r"hilsen|"
    r"venlig hilsen|med vennlig hilsen|vennlig hilsen|hilsen|met vriendelijke "
    r"groet(?:en)?|vriendelijke groet(?:en)?|"
    r"groeten|groetjes|cordiali saluti|distinti saluti|un saluto|saluti|cordialement|bien à "
    r"vous|amitiés|"
    r"bien cordialement|salutations|saludos|un "
    r"saludo|atentamente|abrazos|cumprimentos|atenciosamente|abraços|"
    r"pozdrawiam|z poważaniem|s pozdravem|с уважением|всего доброго|ystävällisin "
    r"terveisin|terveisin|"
    r"üdvözlettel|saygılarımla|"
    r"cheers|thanks|thank you|many thanks|regards|kind regards|best|best wishes|all the best|yours|"
    r"sincerely|ciao|love|hope (?:you|this)[\w ]*|let me know[\w "
    r"]*|(?:thoughts|comments|feedback)(?: are)? welcome|"
    r"what do you (?:all )?think)\b[\w ,.!?'’-]{0,30}"
)
_CLOSING = re.compile(r"^\s*(?:" + _WORDS + r"|[-–—~]+\s*[\w .'’-]{1,30})$", re.I)
# Straight under the text, only the closing word itself and perhaps one name ("Cheers, Bob"):
# "Best wishes are sent to winners." is a rule's line. Not "— Bob" either: a list's "- item".
_CLOSING_WORDS = re.compile(
    r"^\s*(?:cheers|thanks|thank you|many thanks|regards|kind regards|best|best wishes|"
    r"all the best|yours|sincerely|ciao)\s*[,.!]*\s*(?:[^\W\d_][\w'’-]*)?\s*[.!]*\s*$",
    re.I,
)
_GREETING = re.compile(r"^\s*[^\W\d_][\w'’.-]*(?:\s+[\w'’.-]+){0,2}\s*[,!]\s*$")
_NAME_ALONE = re.compile(r"^\s*[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2}\s*$")
# The lines under the name in a signature Outlook or Apple Mail adds without a "-- " line: a job
# title, a company, a phone number, an address, a web or mail address ("Senior Engineer | ACME",
# "T: +44 20 1234 5678", "www.acme.example"). Short, and no sentence.
_CONTACT = re.compile(r"^\s*(?:[^.!?]{1,60}|.*(?:@|https?://|www\.|\+?\d[\d ()./-]{6,}).*)$")
_REACH = re.compile(r"@|https?://|www\.|\+?\d[\d ()./-]{6,}|\|")  # a line only a signature has
# A company's footer: "This email ... is confidential ... If you have received it in error ...".
_DISCLAIMER = re.compile(
    r"\b(?:confidential|privileged|intended (?:solely |only )?for)\b[\s\S]*\bin error\b|"
    r"\bin error\b[\s\S]*\b(?:confidential|privileged|intended (?:solely |only )?for)\b",
    re.I,
)
_MAIL_WORD = re.compile(
    r"\b(?:e-?mail|message|transmission|communication|attachments?)\b", re.I
)  # the notice's subject


def without_sign_off(text: str, signer: str = "") -> tuple[str, str | None]:
    """TEXT without the mail's closing paragraphs (at most two, each at most three short lines
    of closing words, or the SIGNER's name alone), and what was set aside."""
    names = {w.lower() for w in re.findall(r"[\w'’-]+", signer)}

    def closing(ln: str) -> bool:
        alone = _NAME_ALONE.match(ln) and names & {w.lower() for w in ln.split()}
        return bool(_CLOSING.match(ln) or alone)

    def signed(lines: list[str]) -> bool:
        # "Sláinte,\nZoë", "Mit Grüßen,\nBob": a short greeting line ending in , or ! over the
        # sender's own name, in any language.
        last = lines[-1]
        return bool(
            len(lines) > 1
            and _NAME_ALONE.match(last)
            and names & {w.lower() for w in last.split()}
            and all(_GREETING.match(ln) for ln in lines[:-1])
        )

    def signature(lines: list[str]) -> bool:
        # "Best regards,\nBob Smith\nSenior Engineer | ACME\n+44 20 1234 5678": the closing and
        # the sender's name (or the name alone) over at most five lines of title and contacts;
        # under the name alone, one of them a phone, mail or web address ("Bob Smith\nAlice Jones"
        # may be a rule's list of names).
        head = 2 if len(lines) > 1 and _CLOSING.match(lines[0]) else 1
        name, rest = lines[head - 1], lines[head:]
        return bool(
            rest
            and len(lines) <= 7
            and _NAME_ALONE.match(name)
            and names & {w.lower() for w in name.split()}
            and all(len(ln) <= 80 and _CONTACT.match(ln) for ln in rest)
            and (head == 2 or any(_REACH.search(ln) for ln in rest))
        )

    paras = re.split(r"\n\s*\n", text)
    off: list[str] = []
    while len(paras) > 1 and len(off) < 3:
        lines = [ln for ln in paras[-1].splitlines() if ln.strip()]
        if (
            lines
            and len(paras[-1]) <= 1000
            and _DISCLAIMER.search(paras[-1])
            and _MAIL_WORD.search(paras[-1])
        ):
            off.insert(0, "(a confidentiality notice)")
            paras.pop()
            continue
        if lines and signature(lines):
            off.insert(0, " / ".join(ln.strip() for ln in lines))
            paras.pop()
            continue
        if (
            not lines
            or len(lines) > 3
            or any(len(ln) > 40 for ln in lines)
            or not (all(closing(ln) for ln in lines) or signed(lines))
        ):
            break
        off.insert(0, " / ".join(ln.strip() for ln in lines))
        paras.pop()
    # A closing written straight under the text ("…propose twice\nCheers", as a webmail's <div>
    # lines come): closing words as the last line, or over the sender's name.
    lines = paras[-1].splitlines()
    cut = 0
    if len(lines) > 1 and len(lines[-1]) <= 40 and _CLOSING_WORDS.match(lines[-1]):
        cut = 1
    elif (
        len(lines) > 2
        and len(lines[-1]) <= 40
        and len(lines[-2]) <= 40
        and _CLOSING_WORDS.match(lines[-2])
        and _NAME_ALONE.match(lines[-1])
        and names & {w.lower() for w in lines[-1].split()}
    ):
        cut = 2
    if cut:
        off.insert(0, " / ".join(ln.strip() for ln in lines[-cut:]))
        paras[-1] = "\n".join(lines[:-cut])
    return "\n\n".join(paras).strip(), (" / ".join(off) or None)


def _clean_body(body: list[str]) -> str:
    while body and not body[-1].strip():
        body.pop()
    while body and not body[0].strip():
        body.pop(0)
    return "\n".join(ln.rstrip() for ln in body).strip()


def _first_paragraph(text: str, inline: bool) -> tuple[str, str | None]:
    """A rule text written on its change's own line (`Enact rule "Tea": Tea is free.`) is that
    paragraph: the paragraphs under it are the author's explanation, set aside. A text begun
    on the next line may run to several paragraphs."""
    if not inline:
        return text, None
    first, _, rest = text.partition("\n\n")
    return first.rstrip(), (rest.strip() or None)

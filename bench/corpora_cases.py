"""Reply fixtures of public reply-parser projects as scoring cases, the expectations taken from
each project's own tests. A case is a body, what the project's test expects kept (`keep`, in
order) and what belongs to the quoted, forwarded or header part (`drop`).

- github/email_reply_parser: `test/emails/*.txt`, expectations written from
  `test/email_reply_parser_test.rb` (the visible fragment it asserts, the quoted fragment it
  asserts) in `GITHUB` below.
- mailgun/talon: its test modules are run against a recording stand-in for `talon.quotations`,
  so every `eq_(expected, extract_from_plain(body))` (and `extract_from_html`) becomes a case."""

from __future__ import annotations

import importlib.util
import inspect
import io
import os
import re
import sys
import types
import unittest.mock
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

LANGUAGES = (
    "german",
    "danish",
    "french",
    "polish",
    "swedish",
    "norwegian",
    "dutch",
    "vietnamese",
    "russian",
    "mail_ru",
    "yandex",
    "unicode",
    "spanish",
    "italian",
)


@dataclass
class Case:
    corpus: str
    name: str
    kind: str  # "plain", "plain, other languages", "html"
    body: str
    html: bool
    keep: list[str] = field(default_factory=list)
    drop: list[str] = field(default_factory=list)


# ---- github/email_reply_parser ----------------------------------------------------------------

_RIAK_Q = ["What is the best way to clear a Riak bucket of all key, values after"]
# fixture -> (lines its test expects visible, lines of the quoted or header part)
GITHUB: dict[str, tuple[list[str], list[str]]] = {
    "correct_sig": (["this is an email with a correct -- signature."], []),
    "email_1_1": (
        [
            "Hi folks",
            "What is the best way to clear a Riak bucket of all key, values after",
            "running a test?",
            "I am currently using the Java HTTP API.",
        ],
        [],
    ),
    "email_1_2": (
        [
            "Hi,",
            "You can list the keys for the bucket and call delete for each. Or if you",
            "would do it.",
            "Bucket. There is, however, an open ticket for the feature. To delete all",
        ],
        ["On Tue, 2011-03-01 at 18:02 +0530, Abhishek Kona wrote:", *_RIAK_Q],
    ),
    "email_1_3": (
        ["Oh thanks.", "Having the function would be great."],
        [
            "On 01/03/11 7:07 PM, Russell Brown wrote:",
            *_RIAK_Q,
            "You can list the keys for the bucket and call delete for each. Or if you",
        ],
    ),
    "email_1_4": (
        ["Awesome! I haven't had another problem with it."],
        [
            "On Aug 22, 2011, at 7:37 PM, defunkt<reply@reply.github.com> wrote:",
            "Loader seems to be working well.",
        ],
    ),
    "email_1_5": (
        [
            "One: Here's what I've got.",
            "- This is the second bullet point and it doesn't wrap",
            "Two:",
            "- And another one",
            "for a while.",
        ],
        [],
    ),
    "email_1_6": (
        ["I get proper rendering as well."],
        [
            "On Dec 16, 2011, at 12:47 PM, Corey Donohoe",
            "<reply@reply.github.com>",
            "wrote:",
            "Was this caching related or fixed already?  I get proper rendering here.",
        ],
    ),
    "email_1_7": (
        [":+1:"],
        [
            "On Tue, Sep 25, 2012 at 8:59 AM, Chris Wanstrath",
            "<notifications@github.com>wrote:",
            "Steps 0-2 are in prod. Gonna let them sit for a bit then start cleaning up",
        ],
    ),
    "email_1_8": (
        ["I will reply under this one", "and under this."],
        [
            "On Tue, Apr 29, 2014 at 4:22 PM, Example Dev <sugar@example.com>wrote:",
            "okay?",
            "hi there",
        ],
    ),
    "email_2_1": (
        ["Outlook with a reply"],
        [
            "*From:* Google Apps Sync Team [mailto:mail-noreply@google.com]",
            "*Subject:* Google Apps Sync was updated!",
            "Dear Google Apps Sync user,",
        ],
    ),
    "email_2_2": (
        ["Outlook with a reply directly above line"],
        [
            "From: CRM Comments [crm-comment@example.com]",
            "Sent: Friday, 23 March 2012 5:08 p.m.",
            "A new comment has been added to the Contact named 'John Greene':",
        ],
    ),
    "email_2_3": (
        ["Outlook with a reply directly above line"],
        [
            "From: CRM Comments [crm-comment@example.com]",
            "Sent: Friday, 23 March 2012 5:08 p.m.",
            "A new comment has been added to the Contact named 'John Greene':",
        ],
    ),
    "email_BlackBerry": (["Here is another email"], ["Sent from my BlackBerry"]),
    "email_iPhone": (["Here is another email"], ["Sent from my iPhone"]),
    "email_multi_word_sent_from_my_mobile_device": (
        ["Here is another email"],
        ["Sent from my Verizon Wireless BlackBerry"],
    ),
    "email_sent_from_my_not_signature": (
        ["Here is another email", "Sent from my desk, is much easier then my mobile phone."],
        [],
    ),
    "email_bullets": (
        [
            "test 2 this should list second",
            "and have spaces",
            "and retain this formatting",
            "- how about bullets",
            "- and another",
        ],
        [
            "On Fri, Feb 24, 2012 at 10:19 AM, <examples@email.goalengine.com> wrote:",
            "Give us an example of how you applied what they learned to achieve",
        ],
    ),
    "email_one_is_not_on": (
        [
            "Thank, this is really helpful.",
            "One outstanding question I had:",
            "Locally (on development), when I run...",
        ],
        [
            "On Oct 1, 2012, at 11:55 PM, Dave Tapley wrote:",
            "The good news is that I've found a much better query for lastLocation.",
        ],
    ),
    "greedy_on": (
        [
            "On your remote host you can run:",
            "telnet 127.0.0.1 52698",
            "This should connect to TextMate (on your Mac, via the tunnel). If that",
            "fails, the tunnel is not working.",
        ],
        [
            "On 9 Jan 2014, at 2:47, George Plymale wrote:",
            "I am having an odd issue wherein suddenly port forwarding stopped",
        ],
    ),
    "pathological": (
        [
            "I think you're onto something. I will try to fix the problem as soon as I",
            "get back to a computer.",
        ],
        [
            'On Dec 8, 2013 2:10 PM, "John Sullivan" <notifications@github.com> wrote:',
            "I think your code is shortening the reference sequence you return to be",
        ],
    ),
    "email_sig_delimiter_in_middle_of_line": (
        [
            "Hi there!",
            "Stuff happened.",
            "And here is a fix -- this is not a signature.",
            "kthxbai",
        ],
        [],
    ),
    "email_long_quote": (
        [
            "Hi folks",
            "What is the best way to clear a Riak bucket of all key, values after",
            "running a test?",
            "asdf",
        ],
        [],
    ),
}
# The two bodies its tests give inline.
GITHUB_INLINE = {
    "non_ascii": "Here’s a test.",
    "plain": "The Quick Brown Fox Jumps Over The Lazy Dog",
}


def github_cases(root: Path) -> list[Case]:
    corpus = "github/email_reply_parser"
    out = []
    for name, (keep, drop) in GITHUB.items():
        path = root / "test" / "emails" / f"{name}.txt"
        if path.exists():
            out.append(Case(corpus, name, "plain", path.read_text("utf-8"), False, keep, drop))
    out += [
        Case(corpus, name, "plain", body, False, [body]) for name, body in GITHUB_INLINE.items()
    ]
    return out


# ---- mailgun/talon ----------------------------------------------------------------------------


class _Chunks(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.skip += tag in ("style", "script", "title")

    def handle_endtag(self, tag: str) -> None:
        self.skip -= tag in ("style", "script", "title") and self.skip > 0

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.chunks += [ln.strip() for ln in data.splitlines() if ln.strip()]


def html_chunks(html: str) -> list[str]:
    """The text of HTML, a piece per run of text between tags and per line within one."""
    p = _Chunks()
    p.feed(html)
    p.close()
    return p.chunks


class _Recorder:
    """A stand-in for `talon.quotations`: each extraction returns a token, and `eq_` against a
    token records the expectation for the body the token stands for."""

    def __init__(self) -> None:
        self.bodies: dict[str, tuple[str, bool]] = {}
        self.found: list[tuple[str, bool, str, str]] = []  # (body, html, expected, test)
        self.test = ""

    def extract(self, html: bool):
        def extract(body: str, *args: object, **kwargs: object) -> str:
            token = f"\x00P{len(self.bodies)}\x00"
            self.bodies[token] = (body, html)
            return token

        return extract

    def extract_from(self, body: str, content_type: str = "text/plain", *a: object) -> str:
        if content_type not in ("text/plain", "text/html"):
            return body
        return self.extract(content_type == "text/html")(body)

    def eq_(self, a: object, b: object, msg: object = None) -> None:
        for x, other in ((a, b), (b, a)):
            if (
                isinstance(x, str)
                and isinstance(other, str)
                and (m := re.search("\x00P\\d+\x00", x))
            ):
                body, html = self.bodies[m.group(0)]
                self.found.append((body, html, other, self.test))
                return


def _stub_modules(rec: _Recorder) -> dict[str, types.ModuleType]:
    quotations = types.ModuleType("talon.quotations")
    quotations.extract_from_plain = rec.extract(False)
    quotations.extract_from_html = rec.extract(True)
    quotations.extract_from = rec.extract_from
    quotations.MAX_LINES_COUNT = 1000
    for name in (
        "mark_message_lines",
        "process_marked_lines",
        "preprocess",
        "split_emails",
        "html_document_fromstring",
        "postprocess",
    ):
        setattr(quotations, name, lambda *a, **k: None)
    utils = types.ModuleType("talon.utils")
    utils.html_to_text = lambda s, *a, **k: s
    talon = types.ModuleType("talon")
    talon.init = lambda: None
    talon.quotations, talon.utils = quotations, utils
    nose_tools = types.ModuleType("nose.tools")
    nose_tools.eq_ = nose_tools.assert_equal = rec.eq_
    nose_tools.ok_ = nose_tools.assert_true = lambda x, msg=None: None
    nose_tools.assert_false = lambda x, msg=None: None
    nose_tools.__all__ = ["eq_", "assert_equal", "ok_", "assert_true", "assert_false"]
    nose = types.ModuleType("nose")
    nose.tools = nose_tools
    # talon's tests are written for Python 2 and 3 through `six`; what they use of it.
    six = types.ModuleType("six")
    six.text_type, six.StringIO = str, io.StringIO
    six.moves = types.ModuleType("six.moves")
    six.moves.range = range
    return {
        "six": six,
        "six.moves": six.moves,
        "talon": talon,
        "talon.quotations": quotations,
        "talon.utils": utils,
        "nose": nose,
        "nose.tools": nose_tools,
        "mock": unittest.mock,
    }


def talon_cases(root: Path) -> list[Case]:
    rec = _Recorder()
    saved = {
        k: sys.modules.get(k)
        for k in (
            "talon",
            "talon.quotations",
            "talon.utils",
            "nose",
            "nose.tools",
            "mock",
            "six",
            "six.moves",
            "tests",
            "tests.fixtures",
        )
    }
    cwd = os.getcwd()
    sys.modules.update(_stub_modules(rec))
    try:
        os.chdir(root)
        spec = importlib.util.spec_from_file_location(
            "tests",
            root / "tests" / "__init__.py",
            submodule_search_locations=[str(root / "tests")],
        )
        package = importlib.util.module_from_spec(spec)
        sys.modules["tests"] = package
        spec.loader.exec_module(package)
        for module in ("quotations_test", "text_quotations_test", "html_quotations_test"):
            if not (root / "tests" / f"{module}.py").exists():
                continue
            mod = importlib.import_module(f"tests.{module}")
            for name, fn in list(vars(mod).items()):
                if (
                    not name.startswith("test_")
                    or not callable(fn)
                    or getattr(fn, "patchings", None)
                ):
                    continue  # a test that patches talon's internals tests talon, not reading
                rec.test = name
                try:
                    result = fn()
                    if inspect.isgenerator(result):
                        for item in result:
                            item[0](*item[1:])
                except Exception:
                    pass  # a test of an internal function: nothing to record
    finally:
        os.chdir(cwd)
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
        for k in [k for k in sys.modules if k.startswith("tests.")]:
            if saved.get(k) is None:
                sys.modules.pop(k, None)
    return [_talon_case(i, *found) for i, found in enumerate(rec.found)]


# What one project's tests keep and SPEC §2.4 does not read as the sender's words: a signature
# after "-- ", a phone's footer, a forwarded message. Such lines are neither required nor forbidden.
_NOT_REQUIRED_FROM = re.compile(r"^\s*(--\s?|-+\s*Forwarded message\s*-+)\s*$", re.I)
_FOOTER = re.compile(r"^\s*(Sent from my \w+|Sent with \w+|Get Outlook for \w+)", re.I)


def _required(keep: list[str], body_lines: list[str]) -> list[str]:
    cut = next((squash(ln) for ln in body_lines if _NOT_REQUIRED_FROM.match(ln)), None)
    if cut is not None:
        flat = [squash(k) for k in keep]
        keep = keep[: flat.index(cut)] if cut in flat else keep
    return [k for k in keep if not _FOOTER.match(k)]


def _talon_case(i: int, body: str, html: bool, expected: str, test: str) -> Case:
    if html:
        keep = (
            html_chunks(expected)
            if "<" in expected
            else [ln for ln in expected.splitlines() if ln.strip()]
        )
        source = html_chunks(body)
        kind = "html"
    else:
        keep = [ln for ln in expected.splitlines() if ln.strip()]
        source = [ln for ln in body.splitlines() if ln.strip()]
        kind = "plain, other languages" if any(w in test for w in LANGUAGES) else "plain"
    kept = squash("\n".join(keep))
    keep = _required(keep, source)
    drop = [ln for ln in source if squash(ln.lstrip("> ")) and squash(ln.lstrip("> ")) not in kept]
    return Case("mailgun/talon", f"{test}#{i}", kind, body, html, keep, drop)


def squash(s: str) -> str:
    """S without whitespace: the projects disagree on spacing and line breaks, not on words."""
    return re.sub(r"\s+", "", s)


def load(path: Path) -> list[Case]:
    """The cases of the corpus checked out at PATH, recognised by its test files."""
    if (path / "test" / "email_reply_parser_test.rb").exists():
        return github_cases(path)
    if (path / "tests" / "text_quotations_test.py").exists():
        return talon_cases(path)
    raise SystemExit(
        f"{path}: not a corpus this bench knows (github/email_reply_parser, mailgun/talon)"
    )

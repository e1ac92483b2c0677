"""One tap to act: the mailto links an announcement carries (RFC 6068), each pre-filling a
command to the game: a vote per vote word on a matter ("[Vote] 12" / "FOR"), the orders of a
turn ("[Orders] Turn 3"), a Reply of one's own to the GM. The matter rides in the subject: mail
programs drop In-Reply-To from a mailto link. Shown in the plain text as `<mailto:…>` on a line
of its own, which phones make tappable."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import quote

from mailref.write.lists import ANNOUNCING


class Outgoing(Protocol):
    """What of the engine's outgoing mail the links are made from."""

    kind: str
    to: list[str] | str
    subject: str
    vars: dict[str, Any]


# The matters voted on by "[Vote] N" (BlogNomic's CfJs and DoVs share the proposals' numbers).
_MATTER = re.compile(r"^\[(?:Proposal|CfJ|DoV) (\d+)\]")
_TURN = re.compile(r"^\[Turn (\d+)\] Orders are due")


def mailto(address: str, subject: str, body: str = "") -> str:
    """A mailto URI to ADDRESS with SUBJECT and BODY, percent-encoded as RFC 6068 asks (UTF-8,
    every character but the unreserved ones; a line break as %0D%0A)."""
    url = f"mailto:{quote(address, safe='@')}?subject={quote(subject, safe='')}"
    if body:
        url += "&body=" + quote(body.replace("\r\n", "\n").replace("\n", "\r\n"), safe="")
    return url


def link(address: str, subject: str, body: str = "") -> str:
    """The link as a plain-text mail shows it: in angle brackets, so no word runs into it."""
    return f"<{mailto(address, subject, body)}>"


def tap_lines(
    state: dict[str, Any], subject: str, shown: str, words: list[str] | None, to_gm: bool
) -> tuple[list[str], list[str]]:
    """The lines of links for an announcement of SUBJECT (its tag first, no game label; SHOWN:
    as its readers see it) in STATE's game: those to act (set above the signature) and the
    Reply to the GM (in the footer, beside the GM's address). WORDS: the vote words it offers,
    where it opens a matter to votes; TO_GM: the GM is its reader."""
    game = str(state.get("address") or "")
    if not game:
        return [], []
    act: list[str] = []
    if words and (m := _MATTER.match(subject)):
        act.append("One tap to vote (your mail program fills in the vote; send it):")
        width = max(map(len, words)) + 1
        act += [f"  {w + ':':{width}} {link(game, f'[Vote] {m.group(1)}', w)}" for w in words]
    elif m := _TURN.match(subject):
        act.append("One tap to send your orders (write them in bold, then send):")
        act.append(f"  Orders for turn {m.group(1)}: {link(game, f'[Orders] Turn {m.group(1)}')}")
    gm = str(state.get("gm") or "")
    private = [f"Reply privately to the GM: {link(gm, f'Re: {shown}')}"] if gm and not to_gm else []
    return act, private


def with_taps(body: str, taps: tuple[list[str], list[str]]) -> str:
    """BODY with the links to act set above its signature ("-- "), where a reader looks for
    what to do, and the private Reply at the end of its footer."""
    act, private = taps
    if private:
        body = body.rstrip("\n") + "\n" + "\n".join(private) + "\n"
    if not act:
        return body
    block = "\n".join(act) + "\n"
    head, sep, tail = body.rpartition("\n-- \n")
    if not sep:
        return body.rstrip("\n") + "\n\n" + block
    return head.rstrip("\n") + "\n\n" + block + sep + tail


Labelled = Callable[[dict[str, Any], str], str]  # a subject as the game's readers see it


def taps_of(state: dict[str, Any], out: Outgoing, shown: Labelled) -> tuple[list[str], list[str]]:
    """The links of OUT, where it is an announcement of STATE's game."""
    if out.kind not in ANNOUNCING:
        return [], []
    subject = out.subject
    return tap_lines(state, subject, shown(state, subject), out.vars.get("words"), out.to == "gm")


def reply_links(state: dict[str, Any], out: Outgoing, shown: Labelled) -> dict[str, str]:
    """A digest's items' own links, by their subjects: a Reply to each, in its thread."""
    if out.kind != "digest" or not state.get("address"):
        return {}
    return {
        h["subject"]: link(state["address"], "Re: " + shown(state, h["subject"]))
        for h in out.vars.get("held", ())
    }

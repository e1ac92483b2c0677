"""The notices of mailing-list software (SPEC §2.2): confirmation requests, welcome, help,
goodbye and owner texts that mlmmj, Mailman, Sympa, ezmlm, Majordomo, LISTSERV and Google
Groups send. Many carry no Auto-Submitted, Precedence or List-Id, and an answer to one does
harm: a reply to mlmmj's `+confsub` address confirms a subscription someone forged, and its
`+help` and `+owner` addresses answer every mail with another notice.

They are known by where they come from and where replies would go (From, Reply-To: the
list software's own addresses), or by their form (a subject and the software's own words,
or a sentence only such a notice has). A player's post through a list comes From the
player, so it is never one of these."""

from __future__ import annotations

import email.utils
import re

# Local parts list software sends from or asks replies to, with or without a +tag or a
# cookie: Mailman's `-request`/`-owner`/`-bounces`/`-confirm+COOKIE`/`-join`/`-leave`,
# Majordomo's `owner-LIST`, ezmlm's `-help`/`-sc.NUM.COOKIE`/`-return-...`, and the
# robots' own names.
_ROBOT_LOCAL = re.compile(
    r"^(?:listserv|majordomo|sympa|mlmmj|ezmlm|listproc|lyris|ecartis|mailman|smartlist|"
    r"owner-[^@]+|[^@]+-(?:request|owner|owners|bounces?|confirm|join|leave|subscribe|unsubscribe|help)|"
    r"[^@]+-(?:sc|uc|tc)\.\d+\.[^@]*|[^@]+-return-[^@]*|"
    r"no-?reply|do-?not-?reply)(?:\+[^@]*)?$",
    re.I,
)
# mlmmj's (and Google Groups') +tag addresses: LIST+confsub-COOKIE, LIST+help, LIST+owner ...
_ROBOT_TAG = re.compile(
    r"^[^@+]+\+(?:confsub|confunsub|subconf|unsubconf|subscribe|unsubscribe|sub|unsub|help|owner|owners|"
    r"bounces?|confirm|join|leave|request|moderate|noreply|get|index|list|faq)(?:[-+.][^@]*)?$",
    re.I,
)
# Subjects list software gives its notices.
_SUBJECT = re.compile(
    r"^\s*(?:confirm\b|confirm (?:un)?subscription|(?:un)?subscription confirm|welcome to\b|"
    r"your confirmation is (?:needed|required)|information for\b|help for\b|goodbye from\b|"
    r"command confirmation request|you are now (?:un)?subscribed|you have been (?:un)?subscribed|"
    r"you have been (?:added|removed)|you'?ve been (?:added|invited|removed)|join request for|"
    r"invitation to join|request to (?:join|leave)|results of your commands|output of your job|"
    r"(?:un)?subscribed (?:to|from)\b|(?:un)?subscription (?:request|notice|result))",
    re.I,
)
# The software naming itself in the notice's text.
_SOFTWARE = re.compile(
    rb"mlmmj|mailman|sympa|ezmlm|majordomo|listserv|l-soft|google groups|googlegroups\.com", re.I
)
# Sentences only a list's notice has, whatever its subject.
_SENTENCES = re.compile(
    rb"this is the (?:mlmmj|ezmlm) program|mailing list subscription confirmation notice|"
    rb"your confirmation is (?:needed|required) to (?:join|leave) the|"
    rb"confirm (?:your|that you want your) (?:un)?subscription|to confirm (?:that )?you want "
    rb".{0,80}(?:un)?subscribed|"
    rb"l-soft list server|listserv command confirmation",
    re.I | re.S,
)
BODY_LOOK = 8000  # the notices say who they are in their first lines


def robot_address(address: str | None) -> bool:
    """Whether ADDRESS is one of list software's own (see the module's note)."""
    if not address or "@" not in address:
        return False
    local, _, domain = address.strip().strip("<>").rpartition("@")
    if domain.lower() == "googlegroups.com" and (
        "+" in local or local.lower() in ("noreply", "no-reply")
    ):
        return True
    return bool(_ROBOT_LOCAL.match(local) or _ROBOT_TAG.match(local))


def list_notice(headers: dict[str, str], from_addr: str | None, body: bytes) -> str | None:
    """Why a mail (HEADERS lower-cased and decoded; BODY its raw first bytes) is a list's
    notice, or None."""
    if from_addr and robot_address(from_addr):
        return f"list software's address {from_addr}"
    # Not Sender: a list sets it to its own -bounces or -owner address on every post it
    # relays, a player's included.
    for _, addr in email.utils.getaddresses([headers.get("reply-to", "")]):
        if robot_address(addr):
            return f"replies asked to list software's address {addr}"
    if headers.get("x-list-administrivia", "").strip().lower() == "yes":
        return "X-List-Administrivia: yes"
    head = body[:BODY_LOOK]
    if _SENTENCES.search(head):
        return "a mailing list's notice"
    if _SUBJECT.match(headers.get("subject", "")) and _SOFTWARE.search(head):
        return "a mailing list's notice"
    return None

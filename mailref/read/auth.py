"""Who vouches for the sender (SPEC §2.7): the Authentication-Results headers (RFC 8601) that
the receiving servers the operator trusts wrote, read with the maintained `authres` parser.

Any sender can write such a header, so only one whose authserv-id is trusted counts, and
of those only the topmost (RFC 8601 §5: the receiving server adds its own at the top; a
copy a forger wrote sits below it). That header is the verdict even when it cannot be read:
the receiving server copies what the sender chose (HELO, MAIL FROM) into it, so a sender
who makes the parser refuse it must not have a forged header below decide instead. The
mail is verified when that header says
`dmarc=pass`, or `dkim=pass` with `header.d` aligned to the From domain, or `spf=pass`
with `smtp.mailfrom` aligned to it.

Alignment is relaxed DMARC alignment approximated without a public-suffix list: the two
domains are equal, or one is a subdomain of the other and the shared part has at least two
labels (`mail.example.org` and `example.org` align; `example.org` and `org` do not)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import authres
import authres.dmarc

from mailref.read.limits import AUTH_RESULTS_MAX

_FEATURES = authres.FeatureContext(authres.dmarc)
# The authserv-id before the first ";" (RFC 8601 §2.2: a token or a quoted string), after any
# leading comments: read without the full grammar, so a header authres refuses still names
# the server that wrote it.
_COMMENTS = re.compile(r"^\s*(?:\((?:[^()\\]|\\.)*\)\s*)*")
_SERVER = re.compile(r'"((?:[^"\\]|\\.)*)"|([^\s;()"]+)')


@dataclass(frozen=True)
class AuthVerdict:
    verified: bool
    why: str  # "dmarc=pass from mx.example.org", or why the mail is not verified


def _domain(value: str | None) -> str:
    value = (value or "").strip().strip("<>").rstrip(".").lower()
    return value.rpartition("@")[2]


def aligned(domain: str, from_domain: str) -> bool:
    """Relaxed alignment without a public-suffix list (see the module's note)."""
    a, b = _domain(domain), _domain(from_domain)
    if not a or not b:
        return False
    if a == b:
        return True
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return long_.endswith("." + short) and short.count(".") >= 1


def authserv_id(value: str) -> str | None:
    """The authserv-id an Authentication-Results VALUE names, lower-cased, read leniently;
    None when it names none."""
    text = " ".join(str(value).split())
    comments = _COMMENTS.match(text)  # it matches always, if only the empty string
    m = _SERVER.match(text, comments.end() if comments else 0)
    if not m:
        return None
    return (m.group(1) if m.group(1) is not None else m.group(2)).strip().lower() or None


def verify(
    results: list[str], from_addr: str | None, trusted: tuple[str, ...] | list[str]
) -> AuthVerdict:
    """RESULTS: the mail's Authentication-Results values in order, top first."""
    ids = {t.strip().lower() for t in trusted if t.strip()}
    if not ids:
        return AuthVerdict(
            False,
            "the referee trusts no authentication server ([auth] trusted_authserv_ids is empty)",
        )
    if not from_addr or "@" not in from_addr:
        return AuthVerdict(False, "the mail has no From address to verify")
    from_domain = _domain(from_addr)
    for value in results[:AUTH_RESULTS_MAX]:
        try:
            parsed = _FEATURES.parse_value(" ".join(str(value).split()))
        except Exception:
            server = authserv_id(value)
            if server is None or server in ids:
                # The trusted server's own header, or one whose writer cannot be told: either
                # way the topmost word on this mail cannot be read, and none below may replace it.
                who = server or "an unnamed server"
                return AuthVerdict(
                    False, f"the Authentication-Results header of {who} cannot be read"
                )
            continue
        server = (parsed.authserv_id or "").lower()
        if server not in ids:
            continue
        for r in parsed.results:  # the topmost trusted header decides
            if r.result != "pass":
                continue
            if r.method == "dmarc" and (
                not getattr(r, "header_from", None) or aligned(r.header_from, from_domain)
            ):
                return AuthVerdict(True, f"dmarc=pass from {server}")
            if r.method == "dkim" and aligned(getattr(r, "header_d", None) or "", from_domain):
                return AuthVerdict(True, f"dkim=pass header.d={r.header_d} from {server}")
            if r.method == "spf" and aligned(getattr(r, "smtp_mailfrom", None) or "", from_domain):
                return AuthVerdict(True, f"spf=pass smtp.mailfrom={r.smtp_mailfrom} from {server}")
        return AuthVerdict(
            False, f"{server} found no aligned dmarc, dkim or spf pass for {from_domain}"
        )
    return AuthVerdict(False, "no Authentication-Results from a trusted server")

"""Replies as real mail clients write them, byte for byte in the shapes they use: the mail
replied to is quoted the client's way, the subject gets the client's prefix, and In-Reply-To /
References name it. Each function takes the mail being answered (as the player received it)
and the player's own words, and returns the raw bytes the client would send."""

from __future__ import annotations

import base64
import email.utils
import html
import itertools
import quopri
import random
import textwrap
from email.message import Message

_ids = itertools.count(1)
DATE = "Tue, 01 Dec 2026 11:00:00 +0100"


def _body_of(msg: Message) -> str:
    part = msg.get_body(("plain",)) if hasattr(msg, "get_body") else None
    if part is None:
        return ""
    return part.get_content().replace("\r\n", "\n")


def _refs(msg: Message) -> tuple[str, str]:
    mid = msg["Message-ID"]
    refs = " ".join([*(str(msg["References"] or "").split()), mid])
    return mid, refs


def _subject(msg: Message, prefix: str = "Re: ") -> str:
    s = " ".join(str(msg["Subject"]).split())
    return s if s.lower().startswith(prefix.strip().lower()) else prefix + s


def _head(
    frm: str,
    name: str,
    to: str,
    subject: str,
    irt: str | None,
    refs: str | None,
    mid_domain: str,
    extra: str = "",
    cc: str = "",
) -> str:
    if not name.isascii():
        import email.header

        name = email.header.Header(name, "utf-8").encode()
    lines = [f"From: {name} <{frm}>", f"To: {to}"]
    if cc:
        lines.append(f"Cc: {cc}")
    lines += [
        f"Subject: {subject}",
        f"Date: {DATE}",
        f"Message-ID: <{next(_ids)}.{random.randrange(10**9)}.client@{mid_domain}>",
    ]
    if irt:
        lines += [f"In-Reply-To: {irt}", f"References: {refs}"]
    lines.append("MIME-Version: 1.0")
    if extra:
        lines.append(extra.rstrip("\n"))
    return "\r\n".join(lines) + "\r\n"


def _html_line(line: str) -> str:
    """A line of the player's words in HTML: **x** (how the tests write bold) as <b>x</b>."""
    parts = html.escape(line).split("**")
    return "".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts))


def _plain(words: str, bold: str = "") -> str:
    """The words as a client's text/plain alternative writes bold: Outlook drops it, Gmail *x*."""
    return words.replace("**", bold)


def _game(msg: Message) -> str:
    return str(msg["From"])


def _game_addr(msg: Message) -> str:
    return email.utils.parseaddr(str(msg["From"]))[1]


def _flow(text: str, width: int = 72) -> str:
    """format=flowed: long lines cut at spaces, each cut line ending in a space (RFC 3676)."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width or line.startswith(">"):
            out.append(line)
            continue
        parts = textwrap.wrap(line, width, break_long_words=False, drop_whitespace=False)
        out += [p if i == len(parts) - 1 else p.rstrip(" ") + " " for i, p in enumerate(parts)]
    return "\r\n".join(out)


def thunderbird(
    msg: Message,
    frm: str,
    name: str,
    words: str,
    *,
    reply_all: bool = False,
    top: bool = False,
    attribution: str = "On 01/12/2026 10:00, {game} wrote:",
) -> bytes:
    """Thunderbird 115: text/plain format=flowed, "On <date>, X wrote:" (or ATTRIBUTION, in the
    user's language) and the quote; the reply under it (bottom-posting) unless TOP."""
    mid, refs = _refs(msg)
    quote = "\n".join("> " + line if line else ">" for line in _body_of(msg).split("\n"))
    attrib = attribution.format(game=_game(msg))
    text = f"{words}\n\n{attrib}\n{quote}\n" if top else f"{attrib}\n{quote}\n\n{words}\n"
    head = _head(
        frm,
        name,
        _game_addr(msg),
        _subject(msg),
        mid,
        refs,
        "thunderbird.example",
        "User-Agent: Mozilla Thunderbird\r\nContent-Type: text/plain; charset=UTF-8; "
        "format=flowed\r\n"
        "Content-Transfer-Encoding: 8bit",
    )
    return (head + "\r\n" + _flow(text) + "\r\n").encode("utf-8")


def outlook(
    msg: Message,
    frm: str,
    name: str,
    words: str,
    *,
    prefix: str = "RE: ",
    lang: str = "en",
    charset: str = "windows-1252",
    tnef: bool = False,
) -> bytes:
    """Outlook desktop: multipart/alternative (text + HTML) top-posted above a header block
    "From: … Sent: … To: … Subject: …" and the original unquoted; Windows-1252; with TNEF
    a winmail.dat beside it."""
    mid, refs = _refs(msg)
    labels = {
        "en": ("From", "Sent", "To", "Subject"),
        "de": ("Von", "Gesendet", "An", "Betreff"),
        "sv": ("Från", "Skickat", "Till", "Ämne"),
        "nl": ("Van", "Verzonden", "Aan", "Onderwerp"),
        "no": ("Fra", "Sendt", "Til", "Emne"),
        "it": ("Da", "Inviato", "A", "Oggetto"),
        "fr": ("De", "Envoyé", "À", "Objet"),
        "es": ("De", "Enviado el", "Para", "Asunto"),
    }[lang]
    f, s, t, subj = labels
    original = _body_of(msg)
    block = (
        f"{f}: {_game(msg)}\n{s}: Tuesday, December 1, 2026 10:00 AM\n{t}: {name} <{frm}>\n"
        f"{subj}: {msg['Subject']}\n\n{original}"
    )
    plain = f"{_plain(words)}\n\n{block}"
    hwords = "".join(
        f"<p class=MsoNormal>{_html_line(x) or '&nbsp;'}<o:p></o:p></p>\n"
        for x in words.split("\n")
    )
    hblock = (
        f'<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">'
        f"<p class=MsoNormal><b>{f}:</b> {html.escape(_game(msg))}<br><b>{s}:</b> Tuesday, "
        "December 1, 2026 10:00 AM"
        f"<br><b>{t}:</b> {html.escape(name)} &lt;{frm}&gt;<br><b>{subj}:</b> "
        f"{html.escape(str(msg['Subject']))}</p></div>"
        + "".join(
            f"<p class=MsoNormal>{html.escape(x) or '&nbsp;'}</p>" for x in original.split("\n")
        )
    )
    hpart = (
        '<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta '
        "http-equiv=Content-Type "
        f'content="text/html; charset={charset}"></head><body lang=EN-GB><div '
        f"class=WordSection1>\n{hwords}"
        f"<p class=MsoNormal>&nbsp;</p>\n{hblock}</div></body></html>"
    )

    def qp(s: str) -> str:
        return quopri.encodestring(s.replace("\n", "\r\n").encode(charset, "replace")).decode(
            "ascii"
        )

    alt = (
        '--alt\r\nContent-Type: text/plain; charset="'
        + charset
        + '"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n'
        + qp(plain)
        + '\r\n--alt\r\nContent-Type: text/html; charset="'
        + charset
        + '"\r\n'
        "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + qp(hpart) + "\r\n--alt--\r\n"
    )
    extra = (
        "X-Mailer: Microsoft Outlook 16.0\r\nThread-Index: AdnXYZ123==\r\nContent-Language: en-gb"
    )
    if tnef:
        tn = (
            base64.encodebytes(b"\x78\x9f\x3e\x22" + bytes(200))
            .decode("ascii")
            .replace("\n", "\r\n")
        )
        body = (
            '--mix\r\nContent-Type: multipart/alternative; boundary="alt"\r\n\r\n'
            + alt
            + "\r\n--mix\r\n"
            'Content-Type: application/ms-tnef; name="winmail.dat"\r\nContent-Transfer-Encoding: '
            "base64\r\n"
            'Content-Disposition: attachment; filename="winmail.dat"\r\n\r\n'
            + tn
            + "\r\n--mix--\r\n"
        )
        ctype = 'Content-Type: multipart/mixed; boundary="mix"'
    else:
        body, ctype = alt, 'Content-Type: multipart/alternative; boundary="alt"'
    head = _head(
        frm,
        name,
        _game_addr(msg),
        _subject(msg, prefix),
        mid,
        refs,
        "outlook.example",
        extra + "\r\n" + ctype,
    )
    return (head + "\r\n" + body).encode("ascii")


def gmail(msg: Message, frm: str, name: str, words: str) -> bytes:
    """Gmail web: multipart/alternative, quoted-printable; the plain part top-posts above
    "On …, X <addr> wrote:" and a > quote, the HTML part puts it in div.gmail_quote."""
    mid, refs = _refs(msg)
    original = _body_of(msg)
    attrib = f"On Tue, 1 Dec 2026 at 10:00, {_game(msg)} wrote:"
    plain = f"{_plain(words, '*')}\n\n{attrib}\n\n" + "\n".join(
        "> " + x if x else ">" for x in original.split("\n")
    )
    hwords = "".join(f"<div>{_html_line(x) or '<br>'}</div>" for x in words.split("\n"))
    hpart = (
        f'<div dir="ltr">{hwords}</div><br><div class="gmail_quote"><div dir="ltr" '
        'class="gmail_attr">'
        f'{html.escape(attrib)}<br></div><blockquote class="gmail_quote" style="margin:0px 0px '
        '0px 0.8ex">'
        + "<br>".join(html.escape(x) for x in original.split("\n"))
        + "</blockquote></div>"
    )

    def qp(s: str) -> str:
        return quopri.encodestring(s.replace("\n", "\r\n").encode("utf-8")).decode("ascii")

    body = (
        '--0000gm\r\nContent-Type: text/plain; charset="UTF-8"\r\nContent-Transfer-Encoding: '
        "quoted-printable\r\n\r\n"
        + qp(plain)
        + '\r\n\r\n--0000gm\r\nContent-Type: text/html; charset="UTF-8"\r\n'
        "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + qp(hpart) + "\r\n\r\n--0000gm--\r\n"
    )
    head = _head(
        frm,
        name,
        _game_addr(msg),
        _subject(msg),
        mid,
        refs,
        "mail.gmail.com",
        'Content-Type: multipart/alternative; boundary="0000gm"',
    )
    return (head + "\r\n" + body).encode("ascii")


def iphone(msg: Message, frm: str, name: str, words: str) -> bytes:
    """iPhone Mail: HTML only, "Sent from my iPhone", the original in blockquote type=cite."""
    mid, refs = _refs(msg)
    original = _body_of(msg)
    hwords = "".join(f"<div>{_html_line(x) or '<br>'}</div>" for x in words.split("\n"))
    hpart = (
        f'<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
        f'<body dir="auto">{hwords}<div><br></div><div dir="ltr">Sent from my iPhone</div>'
        '<div dir="ltr"><br><blockquote type="cite">On 1 Dec 2026, at 10:00, '
        f"{html.escape(_game(msg))} wrote:<br><br></blockquote></div>"
        f'<blockquote type="cite"><div dir="ltr">'
        + "<br>".join(html.escape(x) for x in original.split("\n"))
        + "</div></blockquote></body></html>"
    )
    qp = quopri.encodestring(hpart.encode("utf-8")).decode("ascii")
    head = _head(
        frm,
        name,
        _game_addr(msg),
        _subject(msg),
        mid,
        refs,
        "icloud.com",
        "X-Mailer: iPhone Mail (21A329)\r\nContent-Type: text/html; charset=utf-8\r\n"
        "Content-Transfer-Encoding: quoted-printable",
    )
    return (head + "\r\n" + qp + "\r\n").encode("ascii")


def mutt_signed(msg: Message, frm: str, name: str, words: str) -> bytes:
    """mutt with PGP/MIME: multipart/signed, the text part inline-quoted ("* X <a> [date]:")."""
    mid, refs = _refs(msg)
    quote = "\n".join("> " + x if x else ">" for x in _body_of(msg).split("\n"))
    text = f"* {_game(msg)} [2026-12-01 10:00]:\n{quote}\n\n{words}\n\n-- \n{name}\n"
    inner = (
        "Content-Type: text/plain; charset=us-ascii\r\nContent-Disposition: inline\r\n\r\n"
        + text.replace("\n", "\r\n")
    )
    sig = (
        "-----BEGIN PGP SIGNATURE-----\r\n\r\niQEzBAEBCAAdFiEEabc\r\n=XyZ1\r\n-----END PGP "
        "SIGNATURE-----\r\n"
    )
    body = (
        "--sig\r\n"
        + inner
        + '\r\n--sig\r\nContent-Type: application/pgp-signature; name="signature.asc"\r\n'
        "Content-Description: PGP signature\r\n\r\n" + sig + "\r\n--sig--\r\n"
    )
    head = _head(
        frm,
        name,
        _game_addr(msg),
        _subject(msg),
        mid,
        refs,
        "mutt.example",
        "User-Agent: NeoMutt/20231103\r\nContent-Type: multipart/signed; micalg=pgp-sha256;\r\n"
        ' protocol="application/pgp-signature"; boundary="sig"',
    )
    return (head + "\r\n" + body).encode("utf-8")


def mobile_top(
    msg: Message,
    frm: str,
    name: str,
    words: str,
    *,
    charset: str = "utf-8",
    b64: bool = True,
    prefix: str = "Re: ",
) -> bytes:
    """An Android client: plain text base64, top-posted above a "-------- Original message --------"
    block of the whole thread, unquoted."""
    mid, refs = _refs(msg)
    text = (
        f"{words}\n\nSent from my Galaxy\n\n\n-------- Original message --------\nFrom: "
        f"{_game(msg)}\n"
        f"Date: 01/12/2026 10:00 (GMT+01:00)\nTo: {name} <{frm}>\nSubject: "
        f"{msg['Subject']}\n\n{_body_of(msg)}"
    )
    raw = text.replace("\n", "\r\n").encode(charset, "replace")
    payload = (
        base64.encodebytes(raw).decode("ascii").replace("\n", "\r\n")
        if b64
        else raw.decode(charset)
    )
    cte = "base64" if b64 else "8bit"
    head = _head(
        frm,
        name,
        _game_addr(msg),
        _subject(msg, prefix),
        mid,
        refs,
        "android.example",
        f"Content-Type: text/plain; charset={charset}\r\nContent-Transfer-Encoding: {cte}",
    )
    return head.encode("ascii") + b"\r\n" + (payload.encode("ascii") if b64 else raw) + b"\r\n"


def fresh(
    frm: str,
    name: str,
    to: str,
    subject: str,
    words: str,
    *,
    charset: str = "utf-8",
    cte: str = "8bit",
    flowed: bool = False,
    html_only: bool = False,
) -> bytes:
    """A new mail (not a reply) from any client, in CHARSET with CTE."""
    import email.header

    subj = subject if subject.isascii() else email.header.Header(subject, charset).encode()
    ctype = "text/html" if html_only else "text/plain"
    if html_only:
        words = (
            "<html><body>"
            + "".join(f"<div>{_html_line(x) or '<br>'}</div>" for x in words.split("\n"))
            + "</body></html>"
        )
    text = _flow(words) if flowed else words.replace("\n", "\r\n")
    raw = text.encode(charset)
    if cte == "base64":
        payload = base64.encodebytes(raw).replace(b"\n", b"\r\n")
    elif cte == "quoted-printable":
        payload = quopri.encodestring(raw)
    else:
        payload = raw
    head = _head(
        frm,
        name,
        to,
        subj,
        None,
        None,
        "client.example",
        f"Content-Type: {ctype}; charset={charset}{'; format=flowed' if flowed else ''}\r\n"
        f"Content-Transfer-Encoding: {cte}",
    )
    return head.encode("utf-8") + b"\r\n" + payload + b"\r\n"

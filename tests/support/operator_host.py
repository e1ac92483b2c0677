"""The daemon and the CLI as processes on a host: mail in over real SMTP, a relay that refuses."""

from __future__ import annotations

import smtplib

from support.ops import Site


def send(site: Site, frm: str, to: str, subject: str, body: str = "", mid: str = "") -> None:
    msg = (
        f"From: {frm}\r\nTo: {to}\r\nSubject: {subject}\r\n"
        + (f"Message-ID: <{mid}>\r\n" if mid else "")
        + f"\r\n{body}\r\n"
    )
    with smtplib.SMTP("127.0.0.1", site.smtp_port, timeout=30) as s:
        s.sendmail(frm, [to], msg.encode())


class PickyRelay:
    """An SMTP relay as an operator's provider runs it: a login required before MAIL (530), or
    no relaying for this host without one (554 5.7.1 at RCPT, Postfix's words)."""

    def __init__(self, wants: str):
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult

        from support.dovecot import free_port

        self.wants, self.mails = wants, []
        ok = lambda server, session, envelope, mechanism, data: AuthResult(  # noqa: E731
            success=data.login == b"mailref" and data.password == b"s3cret"
        )
        self.controller = Controller(
            self,
            hostname="127.0.0.1",
            port=free_port(),
            authenticator=ok,
            auth_required=wants == "login",
            auth_require_tls=False,
        )
        self.port = self.controller.port

    async def handle_RCPT(self, server, session, envelope, address, options):
        if self.wants == "relaying" and not session.authenticated:
            return f"554 5.7.1 <{address}>: Relay access denied"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.mails.append(envelope.content)
        return "250 OK"

"""Games whose players write through the referee's own listener."""

from __future__ import annotations

from support.helpers import Outbox, mail
from support.joining import confirm

NOMES, EMPIRE = "nomes@ref.example", "empire@ref.example"


ALICE, BOB, CAROL = "alice@x.org", "bob@x.org", "carol@x.org"


def alice_alone(referee, smtp, slug: str, variant: str, address: str, **options) -> Outbox:
    """Game SLUG (named SLUG.title()) with Alice joined; an Outbox read up to now."""
    referee.create_game(slug, variant, address, name=slug.title(), **options)
    smtp(mail(ALICE, address, "[Join]", "Name: Alice"), ALICE, address)
    confirm(referee, ALICE)
    box = Outbox(referee)
    box.new()
    return box


def error_of(box: Outbox) -> str:
    """The one reply to the sender; words the game relayed to the other players are not it."""
    (reply,) = [m for m in box.new() if m["X-Mailref-Kind"] != "discussion"]
    assert reply["X-Mailref-Kind"] == "error", (reply["X-Mailref-Kind"], Outbox.body(reply))
    return " ".join(Outbox.body(reply).split())


def with_attachment(
    frm: str, to: str, subject: str, text: str, ctype: str, name: str, in_reply_to: str = ""
) -> bytes:
    """A mail whose content is an attached file, as a mail client writes it (a Reply to the
    mail IN_REPLY_TO names, if given)."""
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = frm, to, subject
    msg["Message-ID"] = f"<{abs(hash((frm, subject, name)))}@players.example>"
    if in_reply_to:
        msg["In-Reply-To"] = msg["References"] = in_reply_to
    msg.set_content(text or "\n")
    maintype, subtype = ctype.split("/")
    msg.add_attachment(
        b"PK\x03\x04 the orders, in a file", maintype=maintype, subtype=subtype, filename=name
    )
    return msg.as_bytes()


RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE


class Greylisting:
    """A relay that greylists: each sender and recipient is told 451 the first time, taken after."""

    def __init__(self):
        self.seen: set[tuple[str, str]] = set()
        self.got: list[list[str]] = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if (envelope.mail_from, address) not in self.seen:
            self.seen.add((envelope.mail_from, address))
            return "451 4.7.1 Greylisted, please try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.got.append(list(envelope.rcpt_tos))
        return "250 OK"

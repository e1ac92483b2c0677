"""No answer to mailing-list software's notices, nor to a stranger's words (SPEC §2.2): the
confirmation requests, welcome, help and owner texts of mlmmj, Mailman, Sympa, ezmlm,
Majordomo, LISTSERV and Google Groups, written here in their shapes and mostly without any
Auto-Submitted, Precedence or List-Id, reach a game's address through a real SMTP session.
Each is kept and its verdict recorded, and nothing goes back; a player's command relayed by
a list is still answered."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from mailref.read.notices import robot_address
from mailref.store import InboxMessage
from support.helpers import Outbox, mail, make_referee
from support.joining import confirm_waiting
from support.listener import listening, submit

pytestmark = pytest.mark.spec("2.2")

G = "nomes@ref.example"
ALICE = "alice@example.org"


def notice(
    frm: str, subject: str, body: str, reply_to: str | None = None, extra: str = ""
) -> bytes:
    head = (
        f"From: {frm}\r\nTo: {G}\r\nSubject: {subject}\r\nMessage-ID: "
        f"<{abs(hash(body))}@lists.example>\r\n"
    )
    head += f"Reply-To: {reply_to}\r\n" if reply_to else ""
    return (
        head
        + extra
        + "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        + body.replace("\n", "\r\n")
    ).encode()


MLMMJ_CONFIRM = notice(
    "nomes-list+owner@lists.example",
    "Confirm subscription to nomes-list@lists.example",
    "Hi, this is the mlmmj program managing the <nomes-list@lists.example> mailing list.\n\n"
    "Somebody (and we hope it was you) has requested that your email address\n<nomes@ref.example> "
    "be added to the list. To confirm, simply reply to this message.\n",
    reply_to="nomes-list+confsub-5e3a9c1f0b7d4e21@lists.example",
)
NOTICES = {
    "mlmmj-confirm": MLMMJ_CONFIRM,
    "mlmmj-welcome-plain-from": notice(
        "Nomes list <nomes-list@lists.example>",
        "Welcome to nomes-list@lists.example",
        "Hi, this is the mlmmj program managing the <nomes-list@lists.example> mailing list.\n\n"
        "Thank you for subscribing. To post, write to nomes-list@lists.example.\n",
    ),
    "mlmmj-help": notice(
        "nomes-list+help@lists.example",
        "Information for nomes-list@lists.example",
        "Hi, this is the mlmmj program managing the <nomes-list@lists.example> mailing list.\n\n"
        "To unsubscribe send a mail to <nomes-list+unsubscribe@lists.example>.\n",
    ),
    "mailman2-confirm": notice(
        "nomes-request@lists.example",
        "confirm 4f2a9b7c61e0d83a5b2c9e7f1a0d6b4c8e2f9a13",
        "Mailing list subscription confirmation notice for mailing list Nomes\n\n"
        'We have received a request for subscription of your email address, "nomes@ref.example", '
        "to the nomes@lists.example mailing list. To confirm that you want to be added to this "
        "mailing list, simply reply to this message, keeping the Subject: header intact.\n",
    ),
    "mailman2-welcome-owner": notice(
        "Nomes list owner <nomes-owner@lists.example>",
        'Welcome to the "Nomes" mailing list',
        "Welcome to the Nomes@lists.example mailing list!\n\nTo post to this list, send your "
        "message to:\n\n  nomes@lists.example\n\nhttp://lists.example/mailman/listinfo/nomes\n",
    ),
    "mailman3-confirm": notice(
        "nomes-confirm+8c1d42e9a07b5f63@lists.example",
        "Your confirmation is needed to join the nomes@lists.example mailing list.",
        "Email Address Registration Confirmation\n\nHello, this is the GNU Mailman server at "
        "lists.example.\n\nWe have received a registration request for the email address\n\n"
        "    nomes@ref.example\n\nBefore you can start using GNU Mailman at this site, you must "
        "first confirm that this is your email address. You can do this by replying to this "
        "message.\n",
    ),
    "mailman-bounces": notice(
        "nomes-bounces@lists.example",
        "Your membership in the mailing list Nomes has been disabled",
        "Your membership in the mailing list Nomes has been disabled due to excessive bounces.\n",
    ),
    "sympa-robot": notice(
        "SYMPA <sympa@lists.example>",
        "Subscription confirmation to list nomes",
        "Someone asked for your address nomes@ref.example to be subscribed to list nomes.\n"
        "If you agree, reply to this message.\n",
    ),
    "sympa-welcome-form": notice(
        "Listmaster <listmaster@lists.example>",
        "Welcome to list nomes",
        "Welcome to list nomes@lists.example.\nYour subscription address is nomes@ref.example.\n\n"
        "This list is managed by Sympa: https://lists.example/sympa/info/nomes\n",
    ),
    "google-groups-noreply": notice(
        "Google Groups <noreply@googlegroups.com>",
        "Nomes: join request",
        "Someone asked to join the group Nomes with the address nomes@ref.example.\n",
    ),
    "google-groups-added-form": notice(
        "Nomes <groups-noreply@google.com>",
        "You've been added to Nomes",
        "Greg has added you to the Nomes group.\n\nAbout this group: play by mail.\n\n"
        "Google Groups allows you to create and participate in online forums.\n",
    ),
    "google-groups-owners": notice(
        "nomes+owners@googlegroups.com",
        "Message to the owners of Nomes",
        "A message for the managers of the group.\n",
    ),
    "listserv-confirm": notice(
        '"L-Soft list server at LISTS.EXAMPLE.EDU (17.0)" <LISTSERV@LISTS.EXAMPLE.EDU>',
        "Command confirmation request (4A7B9C1D)",
        "Your command:\n\n   SUBSCRIBE NOMES-L Nomes\n\nrequires confirmation. To confirm, "
        "reply with the word OK.\n",
    ),
    "listserv-subscribed-form": notice(
        "NOMES-L list <NOMES-L@LISTS.EXAMPLE.EDU>",
        "You are now subscribed to the NOMES-L list",
        "Thank you for joining the NOMES-L list. This list runs on LISTSERV.\n",
    ),
    "majordomo-owner": notice(
        "owner-nomes@lists.example", "Majordomo results", ">>>> subscribe nomes\nSucceeded.\n"
    ),
    "ezmlm-confirm": notice(
        "nomes-help@lists.example",
        "confirm subscribe to nomes@lists.example",
        "Hi! This is the ezmlm program. I'm managing the nomes@lists.example mailing list.\n",
        reply_to="nomes-sc.1733011200.abcdefghijkl-nomes=ref.example@lists.example",
    ),
    "mailman-administrivia": notice(
        "Nomes <nomes@lists.example>",
        "Subscription notice",
        "Your request was received.\n",
        extra="X-List-Administrivia: yes\r\n",
    ),
    "forged-reply-to-a-join-address": notice(
        "Mallory <mallory@evil.test>", "[Help]", "help me\n", reply_to="nomes-join@lists.example"
    ),
}


@pytest.fixture
def game(tmp_path, clock):
    referee = make_referee(tmp_path, clock)
    referee.create_game("nomes", "sidekick", G)
    referee.create_game("blog", "blognomic", "blog@ref.example")
    with listening(referee, 10_000_000) as port:

        def send(raw: bytes, mail_from: str = "bounce@lists.example", rcpt: str = G) -> None:
            submit(port, mail_from, [rcpt], raw, mail_options=["SMTPUTF8", "BODY=8BITMIME"])

        send(mail(ALICE, G, "[Join]", "Name: Alice"), ALICE)
        confirm_waiting(referee)
        yield referee, send


def last_mail(referee) -> InboxMessage:
    with referee.store() as s:
        row = s.scalars(select(InboxMessage).order_by(InboxMessage.id.desc()).limit(1)).one()
        s.expunge(row)
    return row


@pytest.mark.parametrize("name", list(NOTICES))
def test_a_list_softwares_notice_gets_no_reply_and_is_kept(game, name):
    referee, send = game
    outbox = Outbox(referee)
    outbox.new()
    send(NOTICES[name])
    assert outbox.new() == []
    row = last_mail(referee)
    assert row.status == "ignored" and row.verdict.startswith("machine:"), row.verdict
    assert bytes(row.raw) == NOTICES[name]


def test_the_list_addresses_are_known_and_a_players_are_not():
    for a in (
        "nomes-request@lists.example",
        "nomes+confsub-1f2e@lists.example",
        "nomes-bounces+x=y@lists.example",
        "nomes+subscribe@googlegroups.com",
        "owner-nomes@lists.example",
        "LISTSERV@LISTS.EXAMPLE.EDU",
    ):
        assert robot_address(a), a
    for a in (
        "alice@example.org",
        "alice+nomic@example.org",
        "request@example.org",
        "bob.owner@example.org",
    ):
        assert not robot_address(a), a


def test_a_players_command_relayed_by_a_list_is_answered(game):
    referee, send = game
    outbox = Outbox(referee)
    outbox.new()
    relayed = mail(
        ALICE,
        G,
        "[Status]",
        headers={
            "Sender": "nomes-bounces@lists.example",
            "List-Id": "Nomes <nomes.lists.example>",
            "Errors-To": "nomes-bounces@lists.example",
        },
    )
    send(relayed, "nomes-bounces+nomes=ref.example@lists.example")
    (reply,) = outbox.new()
    assert reply["To"] == ALICE and reply["X-Mailref-Kind"] == "status"


def test_a_strangers_mail_without_a_command_to_a_game_gets_no_reply(game):
    referee, send = game
    outbox = Outbox(referee)
    outbox.new()
    send(
        mail("stranger@else.example", G, "Hello there", "Is anyone reading this?"),
        "stranger@else.example",
    )
    assert outbox.new() == []
    row = last_mail(referee)
    assert row.status == "ignored" and "stranger" in row.verdict
    # A player's words and a stranger's [Help] are still answered, and so is mail to the referee.
    send(mail(ALICE, G, "Hello there", "Is anyone reading this?"), ALICE)
    send(mail("stranger@else.example", G, "[Help]"), "stranger@else.example")
    send(
        mail("stranger@else.example", "referee@ref.example", "Hello"),
        "stranger@else.example",
        "referee@ref.example",
    )
    assert [m["To"] for m in outbox.new()] == [
        ALICE,
        "stranger@else.example",
        "stranger@else.example",
    ]


@pytest.mark.parametrize("sender", ["\ufffdlory@evil.test", "mallory@evil\ufffd.test"])
def test_no_reply_goes_to_an_address_holding_a_replacement_character(game, sender):
    referee, send = game
    outbox = Outbox(referee)
    outbox.new()
    raw = f"From: Mallory <{sender}>\r\nTo: {G}\r\nSubject: [Status]\r\n\r\nstatus?\r\n".encode()
    send(raw, "mallory@evil.test")
    send(
        (
            f"From: Mallory <mallory@evil.test>\r\nReply-To: <{sender}>\r\n"
            f"To: {G}\r\nSubject: [Help]\r\n\r\n?\r\n"
        ).encode(),
        "mallory@evil.test",
    )
    sent = outbox.new()
    assert [m["To"] for m in sent] == ["mallory@evil.test"]  # the From, never the broken Reply-To
    with referee.store() as s:
        verdicts = s.scalars(select(InboxMessage.verdict).order_by(InboxMessage.id)).all()
    assert "replacement character" in verdicts[-2]

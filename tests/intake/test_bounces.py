"""Machine mail gets no reply (SPEC §2.2): every sample bounce shipped in flufl.bounce's
source distribution (tests/intake/bounces, see its README), sent through a real SMTP session
to the listener with a null and with a non-null envelope sender, is never answered, and is
recorded as a bounce against each player it names."""

from __future__ import annotations

import email
import email.policy
import re
import smtplib
from pathlib import Path

import pytest
from flufl.bounce import all_failures
from sqlalchemy import func, select

from mailref.mail.smtp import Listener
from mailref.store import Bounce, InboxMessage, OutboxMessage
from support.dovecot import free_port
from support.helpers import Clock, mail, make_referee, process_all
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("2.2")

G = "league@ref.example"
DATA = Path(__file__).parent / "bounces"
# A person's reply, not a bounce: flufl.bounce ships it to show a detector finds nothing there.
NOT_A_BOUNCE = {"groupwise_03.txt"}
SAMPLES = sorted(p.name for p in DATA.glob("*.txt") if p.name not in NOT_A_BOUNCE)


def as_delivered(name: str) -> bytes:
    """The sample as an MTA hands it on: without the mbox "From " line, lines ending in CRLF."""
    raw = re.sub(rb"\AFrom [^\n]*\n", b"", (DATA / name).read_bytes())
    return re.sub(rb"\r?\n", b"\r\n", raw)


def failing(name: str, for_good: bool = False) -> set[str]:
    """What flufl.bounce finds failing in sample NAME; FOR_GOOD: without its "temporary"
    failures, which are delay warnings."""
    msg = email.message_from_bytes(as_delivered(name), policy=email.policy.compat32)
    temporary, permanent = all_failures(msg)
    return {
        a.decode("utf-8", "replace").lower()
        for a in set(permanent) | (set() if for_good else set(temporary))
    }


@pytest.fixture(scope="module")
def league(tmp_path_factory):
    """One GM-adjudicated game whose players are every address any sample reports."""
    referee = make_referee(tmp_path_factory.mktemp("bounces"), Clock())
    referee.create_game(
        "league", "orders", G, gm="gm@ref.example", parameters={"joins_per_day": "1000"}
    )
    addresses = sorted(set().union(*(failing(n) for n in SAMPLES)))
    for i, a in enumerate(addresses):
        referee.accept(mail(a, G, "[Join]", f"Name: P{i}\n"), "smtp", a, [G])
        confirm_waiting(referee)
    port = free_port()
    lst = Listener(referee, "127.0.0.1", port, 1_000_000, on_stored=lambda: process_all(referee))
    lst.start()
    yield referee, port
    lst.stop()


def outbox_size(referee) -> int:
    with referee.store() as s:
        return s.scalar(select(func.count()).select_from(OutboxMessage))


def test_the_samples_are_all_there():
    assert len(SAMPLES) >= 110 and (DATA / "LICENSE").exists()
    assert {"bounce_02.txt", "simple_15.txt", "simple_43.txt"} <= set(SAMPLES)


@pytest.mark.parametrize(
    "envelope_sender", ["", "mailer-daemon@relay.example"], ids=["null", "non-null"]
)
@pytest.mark.parametrize("name", SAMPLES)
def test_a_sample_bounce_gets_no_reply(league, name, envelope_sender):
    referee, port = league
    before = outbox_size(referee)
    raw = as_delivered(name)
    with smtplib.SMTP("127.0.0.1", port) as c:
        c.sendmail(envelope_sender, [G], raw)  # "" is MAIL FROM:<>
    with referee.store() as s:
        row = s.scalars(select(InboxMessage).order_by(InboxMessage.id.desc()).limit(1)).one()
        assert row.status == "ignored", (name, row.verdict)
        assert row.verdict.startswith("machine:")
        recorded = {b.address for b in s.scalars(select(Bounce).where(Bounce.inbox_id == row.id))}
    assert outbox_size(referee) == before, f"{name} was answered"
    game = referee.state("league")
    players = {a for p in game["players"] for a in p["addresses"]}
    assert recorded == failing(name, for_good=True) & players


def test_a_person_writing_to_a_game_is_still_answered(league):
    referee, port = league
    before = outbox_size(referee)
    with smtplib.SMTP("127.0.0.1", port) as c:
        c.sendmail(
            "stranger@x.org",
            [G],
            mail("stranger@x.org", G, "[Help]", "Could not find the rules, returned to ask."),
        )
    assert outbox_size(referee) == before + 1


@pytest.mark.parametrize("name", ["qmail_01.txt", "postfix_01.txt"])
def test_a_bounce_from_a_name_in_8bit_bytes_is_still_recorded(league, name):
    """A From header of raw 8-bit bytes (a non-ASCII display name an MTA did not encode) made
    flufl.bounce's Sina detector raise, and the scan ended there: the detectors that know this
    bounce's format never ran, and the player's bounce was never recorded (scripts/fuzz)."""
    referee, port = league
    raw = re.sub(
        rb"(?m)^From: ([^\r]*?)\r\n",
        lambda m: b"From: Syst\xe8me de messagerie <"
        + re.search(rb"[\w.+-]+@[\w.-]+", m.group(1)).group(0)
        + b">\r\n",
        as_delivered(name),
        count=1,
    )
    assert b"\xe8" in raw
    # Its own Message-ID: the module's game may have had the sample itself already.
    raw = (
        b"Message-ID: <8bit-"
        + name.encode()
        + b"@test>\r\n"
        + re.sub(rb"(?mi)^message-id:[^\r]*\r\n", b"", raw)
    )
    with smtplib.SMTP("127.0.0.1", port) as c:
        c.sendmail("", [G], raw)
    with referee.store() as s:
        row = s.scalars(select(InboxMessage).order_by(InboxMessage.id.desc()).limit(1)).one()
        recorded = {b.address for b in s.scalars(select(Bounce).where(Bounce.inbox_id == row.id))}
    assert row.status == "ignored" and failing(name) and recorded == failing(name), (
        row.verdict,
        recorded,
    )

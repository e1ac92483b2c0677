"""Attacks, session 9: hostile senders and hostile mail through real SMTP sessions."""

from __future__ import annotations

import time
from contextlib import contextmanager

import pytest
from listener import listening, submit

from helpers import Outbox, mail, wait_for
from mailref.read.auth import verify

G = "nomes@ref.example"
ALICE, BOB = "alice@example.org", "bob@example.org"


@contextmanager
def smtp_to(referee):
    with listening(referee, 10_000_000) as port:
        yield lambda message, mail_from, rcpt=G: submit(port, mail_from, [rcpt], message)


@pytest.fixture
def smtp(referee):
    with smtp_to(referee) as send:
        yield send


@pytest.fixture
def game(referee, smtp):
    referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
    for name, a in (("Alice", ALICE), ("Bob", BOB)):
        smtp(mail(a, G, "[Join]", f"Name: {name}"), a)
    return referee


def mover(referee) -> tuple[str, str]:
    name = referee.state("nomes")["turn"]["player"]
    return name, {"Alice": ALICE, "Bob": BOB}[name]


def test_a_bidi_override_in_a_title_cannot_pass_it_off_as_anothers(game, smtp, outbox):
    """A title ending in U+202E (RIGHT-TO-LEFT OVERRIDE) and "ecilA yb" was announced as
    `Proposal 1: "Hats \u202eecilA yb" by Bob`, which a mail client shows as
    `Proposal 1: "Hats boB yb "by Alice`. Mail text drops bidi controls, as headers do."""
    name, addr = mover(game)
    outbox.new()
    smtp(mail(addr, G, "[Proposal] Hats \u202eecilA yb", "Enact rule 301 \"Hats\u202e\":\nHats for \u2067all."), addr)
    sent = outbox.new()
    assert sent and any("Proposal 1" in Outbox.body(m) for m in sent)
    for m in sent:
        for part in m.walk():
            if part.get_content_maintype() == "text":
                text = part.get_content()
                assert not any(c in text for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"), text
    assert any(f'"Hats ecilA yb" by {name}' in Outbox.body(m) for m in sent)


def test_a_long_subject_cut_for_the_reply_keeps_its_label_in_place(game, smtp, outbox):
    """A subject cut to 200 characters for the reply ended in a space, and the game's label
    went inside the first word: "Re: [[Nomic Sidekick Nomic] [Propsal] word ..." and, without a
    tag, "Re: B[Nomic Sidekick Nomic] UY ..."."""
    outbox.new()
    smtp(mail(BOB, G, "[Propsal] " + "word " * 50), BOB)
    smtp(mail(BOB, G, "BUY " * 60), BOB)
    subjects = [" ".join(str(m["Subject"]).split()) for m in outbox.new()]
    assert subjects[0].startswith("Re: [Nomic Sidekick Nomic] [Propsal] word word"), subjects
    assert subjects[1].startswith("Re: [Nomic Sidekick Nomic] BUY BUY"), subjects


def test_strangers_make_the_referee_mail_an_address_only_a_few_times_a_day(game, smtp, outbox):
    """Twenty-five strangers (or one forging From) name one victim as Reply-To, each with a
    spammer's subject: the victim got 21 mails that day, each echoing the subject. An address
    that is no player's gets `replies_per_stranger` (5) answers and one notice."""
    outbox.new()
    for i in range(25):
        smtp(mail(f"s{i}@evil{i}.example", G, f"[Propsal] BUY PILLS http://spam.example/{i}",
                  headers={"Reply-To": "victim@third.example"}), f"s{i}@evil{i}.example")
    sent = outbox.new()
    assert [m["To"] for m in sent] == ["victim@third.example"] * 6
    assert "5 replies" in Outbox.body(sent[-1])
    # A player is answered as before, and a newcomer past the strangers' allowance still gets
    # the answer to the [Join] that makes it a player.
    for _ in range(7):
        smtp(mail("carol@example.org", G, "[Help]"), "carol@example.org")
    smtp(mail("carol@example.org", G, "[Join]", "Name: Carol"), "carol@example.org")
    smtp(mail(BOB, G, "[Status]"), BOB)
    sent = outbox.new()
    to_carol = [m["X-Mailref-Kind"] for m in sent if m["To"] == "carol@example.org"]
    assert to_carol == ["help"] * 5 + ["error", "ack"]
    assert [m["X-Mailref-Kind"] for m in sent if m["To"] == BOB] == ["announcement", "status"]


def test_a_flood_of_forged_authentication_results_is_read_in_bounded_time():
    """A 10 MB mail holds 200,000 forged Authentication-Results headers; each took ~0.1 ms to
    parse, so with require_auth one such mail held the referee for 20 s or more (the suite's
    generous budget, as in test_bounded.py). Only the topmost 50 are read: the receiving
    server's own is on top."""
    forged = ["evil.test; dkim=pass header.d=example.org"] * 200_000
    t = time.monotonic()
    verdict = verify(forged, "alice@example.org", ("mx.ref.example",))
    assert time.monotonic() - t < 5.0
    assert not verdict.verified
    # The server's own header still decides, above any number of forged ones.
    assert verify(["mx.ref.example; dkim=pass header.d=example.org"] + forged, "alice@example.org",
                  ("mx.ref.example",)).verified


def test_alerts_to_one_address_are_bounded_a_day(referee):
    """Mail to postmaster is passed to the admin at most 20 times a day per sender, but a
    spammer writes from a new address every time: the admin got one alert per mail, each
    carrying the spam's subject and first lines. Alerts to one address (postmaster's, a
    quarantined mail's, undeliverable mail's) stop after the day's allowance, with one saying so."""
    from listener import kept, listening

    with listening(referee) as port:
        for n in range(25):
            submit(port, f"spam{n}@isp{n}.example", ["postmaster"], mail(f"spam{n}@isp{n}.example", "postmaster",
                                                                         f"Offer {n}"))
    alerts = Outbox(referee).all()
    assert len(alerts) == 21 and {m["To"] for m in alerts} == {"gm@ref.example"}
    assert "more alerts today are not mailed" in str(alerts[-1]["Subject"])
    assert "Offer 20" in Outbox.body(alerts[-1])
    assert len(kept(referee)) == 25


def test_one_joined_from_a_forged_address_is_told_how_to_stop_the_games_mail(game, smtp, outbox):
    """Anyone can send [Join] From a victim's address: the victim got "X joined ..." and then
    every announcement, with no word on how to stop them. The answer to a [Join] says how."""
    outbox.new()
    smtp(mail("victim@third.example", G, "[Join]", "Name: Buy pills"), "mallory@evil.example")
    (ack,) = [m for m in outbox.new() if m["To"] == "victim@third.example"]
    body = Outbox.body(ack)
    assert "Not you?" in body and f"subject [Quit] to {G}" in body
    smtp(mail("victim@third.example", G, "[Quit]"), "victim@third.example")
    smtp(mail(ALICE, G, "[Roll] d6"), ALICE)
    assert not [m for m in outbox.new() if m["To"] == "victim@third.example" and m["X-Mailref-Kind"] != "ack"]


def test_the_digest_lists_the_newest_fifty_rejected_mails_and_counts_the_rest(game, smtp, outbox):
    """The digest's facts read every mail of the day answered with an error, raw bytes and all,
    at every deadline of the game: a stranger's 200 MB of such mail took the digest to 260 MB
    (a few GB, the daemon), and the digest listed each one. It reads the columns it shows, of
    the newest 50, and counts the rest."""
    for i in range(60):
        smtp(mail(f"s{i}@evil.example", G, f"[Propsal] {i}", "x" * 50_000), f"s{i}@evil.example")
    outbox.new()
    game.admin("nomes", {"type": "digest"}, "gm")
    (digest,) = [m for m in outbox.new() if m["X-Mailref-Kind"] == "digest"]
    body = Outbox.body(digest)
    listed = [line for line in body.splitlines() if "@evil.example: [Propsal]" in line]
    assert len(listed) == 50 and "s59@evil.example" in listed[-1] and "s10@evil.example" in listed[0]
    assert "… and 10 earlier: `mailref mail list`" in body


def test_listing_mail_does_not_read_the_raw_mails(referee, capsys):
    """`mailref mail list` read the 50 newest rows whole: a stranger's 50 mails of 10 MB took
    the operator's command to 600 MB (one that ran out of memory could not list the mail it
    was asked about). It reads the columns it shows."""
    import argparse
    import tracemalloc

    from mailref.cli import cmd_mail_list

    for i in range(20):
        referee.accept(mail(f"s{i}@evil.example", G, "[Propsal] big", "x" * 1_000_000))
    tracemalloc.start()
    try:
        assert cmd_mail_list(referee, argparse.Namespace(limit=50, status=None, json=True), "op") == 0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(capsys.readouterr().out.split('"id"')) == 21
    assert peak < 5_000_000, peak


DELAYED = """From: MAILER-DAEMON@mx.example.org (Mail Delivery System)
To: referee@ref.example
Subject: Delayed Mail (still being retried)
Message-ID: <delay-{n}@mx.example.org>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"

--B
Content-Type: text/plain

This is a warning only. You do not need to resend your message.
<bob@example.org>: connect to mx.example.org: Connection timed out

--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org

Final-Recipient: rfc822; bob@example.org
Action: {action}
Status: {status}

--B--
"""


def test_a_delay_warning_is_no_bounce_against_the_player(game, smtp, outbox):
    """Postfix's "Delayed Mail (still being retried) ... a warning only" was recorded as a
    bounce against Bob and shown in the GM's digest beside real ones; only a failure is."""
    from sqlalchemy import select

    from mailref.store import Bounce

    outbox.new()
    for n, (action, status) in enumerate([("delayed", "4.4.1"), ("failed", "5.1.1")]):
        smtp(DELAYED.format(n=n, action=action, status=status).replace("\n", "\r\n").encode(), "", "referee@ref.example")
    with game.store() as s:
        assert [(b.address, b.inbox_id) for b in s.scalars(select(Bounce))] == [("bob@example.org", 4)]
    assert not outbox.new()


@pytest.mark.parametrize("header", ["List-Id: Chat <chat.lists.example>", "List-Unsubscribe: <mailto:leave@news.example>"])
@pytest.mark.parametrize("rcpt", [G, "referee@ref.example"])
def test_list_posts_and_newsletters_without_a_command_get_no_answer(game, smtp, outbox, header, rcpt):
    """A list that marks its posts with List-Id but no Precedence (mlmmj, many self-hosted
    ones), and newsletters with List-Unsubscribe alone: a game address subscribed to one
    answered every post with the help or "did you mean", one mail to each member who wrote.
    A command through such a list is still a command."""
    name, value = header.split(": ", 1)
    outbox.new()
    smtp(mail("member@lists.example", rcpt, "Bike lost and found", headers={name: value}), "member@lists.example")
    smtp(mail("member@lists.example", rcpt, "[GPC] Bike lost", headers={name: value}), "member@lists.example")
    assert not outbox.new()
    smtp(mail(BOB, G, "[Status]", headers={name: value}), BOB)
    assert [m["X-Mailref-Kind"] for m in outbox.new()] == ["status"]


def test_one_player_opens_at_most_ten_matters_a_day(referee, smtp, outbox, clock):
    """An Imperial Senator's proposals replace their oldest undecided one, so nothing bounded
    how many were sent: each was mailed to every player (30 proposals, 30 mails to each), and
    a CfJ flood in any Nomic did the same. The eleventh matter a player opens in a UTC day is
    refused; BlogNomic's rules call more than ten entries a day spam."""
    empire = "empire@ref.example"
    referee.create_game("empire", "imperial", empire)
    for name, a in (("Alice", ALICE), ("Bob", BOB)):
        smtp(mail(a, empire, "[Join]", f"Name: {name}"), a, empire)
    outbox.new()
    for i in range(8):
        smtp(mail(BOB, empire, f"[Proposal] Spam {i}", f"Enact rule {300 + i} \"Spam {i}\":\nSpam."), BOB, empire)
    for i in range(4):
        smtp(mail(BOB, empire, f"[Point of Order] Question {i}", "Is this spam?"), BOB, empire)
    sent = outbox.new()
    assert len([m for m in sent if m["To"] == ALICE]) == 10
    refused = [Outbox.body(m) for m in sent if m["To"] == BOB and m["X-Mailref-Kind"] == "error"]
    assert len(refused) == 2 and all("matters_per_day" in b for b in refused)
    clock.advance(days=1)
    smtp(mail(BOB, empire, "[Point of Order] Tomorrow", "Again?"), BOB, empire)
    assert [m["To"] for m in outbox.new()] == [ALICE, BOB]


def test_one_client_cannot_take_every_session_of_the_listener(referee):
    """600 idle connections from one host took all 500 sessions: everyone else's mail was
    refused "421 too many sessions" until they were timed out, and the host could open them
    again. One client (an address, an IPv6 /64) holds at most MAX_SESSIONS_PER_CLIENT."""
    import socket

    from listener import Raw

    from mailref.mail import smtp_server
    from mailref.mail.smtp_server import client_of

    def greeting(port: int, source: str) -> str:
        s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
        held.append(s)
        return s.makefile("rb").readline().decode()

    held: list = []
    with listening(referee) as port:
        mine = [Raw(port) for _ in range(smtp_server.MAX_SESSIONS_PER_CLIENT)]
        assert all(c.greeting.startswith("220") for c in mine)
        assert greeting(port, "127.0.0.1").startswith("421 4.7.0")
        assert greeting(port, "127.0.0.2").startswith("220")  # another host is served
        mine[0].close()
        # A place of its own comes free once the listener has seen the close.
        assert wait_for(lambda: greeting(port, "127.0.0.1").startswith("220"), 10)
        for c in mine[1:]:
            c.close()
        for s in held:
            s.close()
    assert client_of(("2001:db8::1", 25, 0, 0)) == client_of(("2001:db8::ffff", 25, 0, 0)) == "2001:db8::/64"
    assert client_of(("::ffff:192.0.2.1", 25, 0, 0)) == "192.0.2.1" and client_of(None) is None


@pytest.mark.parametrize("subject", ["Automatisk svar: [Nomes] [Proposal 1] Hats", "Автоматический ответ: [Proposal 1]",
                                     "自动回复: [Proposal 1] Hats", "自動応答: [Proposal 1] Hats",
                                     "Automatická odpověď: [Proposal 1]", "Otomatik yanıt: [Proposal 1]"])
def test_out_of_office_replies_in_more_languages_get_no_answer(game, smtp, outbox, subject):
    """Outlook's out-of-office prefix in the languages whose reply headers are read (quotes.py),
    sent by a server that adds no Auto-Submitted: each got "No vote found" back."""
    outbox.new()
    smtp(mail(BOB, G, subject, "I am away until Monday."), BOB)
    assert not outbox.new()


@pytest.mark.dovecot
def test_a_strangers_oversize_mail_over_imap_counts_against_the_strangers_allowance(referee, dovecot):
    """Mail over the size limit is answered from the header alone (imap.py), with a Source of
    its own: a stranger's eight oversize mails naming a victim got eight answers."""
    from test_imap import imap_cfg

    from mailref.mail.imap import Poller

    folder = "oversize9"
    c = dovecot.client()
    for f in (folder, f"{folder}-done", f"{folder}-rejected"):
        if c.folder_exists(f):
            c.delete_folder(f)
    c.create_folder(folder)
    referee.create_game("nomes", "sidekick", G)
    for i in range(8):
        c.append(folder, mail(f"s{i}@evil.example", G, "[Propsal] pills", "x" * 30_000,
                              headers={"Reply-To": "victim@third.example"}))
    poller = Poller(imap_cfg(dovecot, folder), referee, max_size=20_000)
    pc = poller.connect()
    poller.drain(pc)
    pc.logout()
    c.logout()
    assert [m["To"] for m in Outbox(referee).all()] == ["victim@third.example"] * 6



def test_matters_journaled_before_the_daily_cap_still_replay(referee, smtp):
    """A journal written before matters_per_day holds a player's 30 proposals of one day:
    replaying it refused the eleventh ("replay refused a journaled propose"), and every such
    game showed as DIFFERS after the upgrade. The cap counts only actions that say so."""
    from sqlalchemy import select

    from helpers import assert_replays
    from mailref import door
    from mailref.store import Game

    empire = "empire@ref.example"
    referee.create_game("empire", "imperial", empire)
    smtp(mail(BOB, empire, "[Join]", "Name: Bob"), BOB, empire)
    with referee.store() as s, s.begin():  # as an older mailref journaled them: no "capped"
        game = s.execute(select(Game).where(Game.slug == "empire")).scalar_one()
        for i in range(12):
            outcome = door.apply(s, game, {"type": "propose", "player": "Bob", "title": f"Old {i}", "text": "Old.",
                                           "changes": [], "source": f"mail:{100 + i}"},
                                 door.Source("mail", str(100 + i)), referee.clock(), referee.settings, referee.rng)
            assert outcome.ok
    assert_replays(referee)
    # Today's mail is counted: ten more that day, then the refusal.
    for i in range(11):
        smtp(mail(BOB, empire, f"[Proposal] New {i}", "New."), BOB, empire)
    assert len(referee.state("empire")["proposals"]) == 22
    assert_replays(referee)


def test_newcomers_are_announced_a_few_times_a_day_in_all(game, smtp, outbox):
    """Each [Join] is a new player, so the per-player cap on announcements never held: 25 joins
    from throwaway addresses were 25 mails to every player (1,000, a thousand). Newcomers are
    announced at most announcements_per_day (10) times a day in all; the rest still join."""
    outbox.new()
    for i in range(25):
        smtp(mail(f"sybil{i}@evil{i}.example", G, "[Join]", f"Name: Sybil {i}"), f"sybil{i}@evil{i}.example")
    sent = outbox.new()
    assert len([m for m in sent if m["To"] == ALICE]) == 8  # Alice's and Bob's joins were 2 of the day's 10
    assert len(game.state("nomes")["players"]) == 27
    (last,) = [m for m in sent if m["To"] == "sybil24@evil24.example"]
    assert "Not announced to the other players" in Outbox.body(last)


def test_a_name_that_differs_only_by_an_accent_cannot_join_beside_the_original(game, smtp, outbox):
    """Confusable folding kept accents: "Alíce" (í) joined beside Alice, and read as her in
    every list of players and every announcement at a glance."""
    from mailref.read.names import name_keys

    assert set(name_keys("Alíce")) & set(name_keys("Alice")) and set(name_keys("Ali\u0301ce")) & set(name_keys("Alice"))
    assert not set(name_keys("Alina")) & set(name_keys("Alice"))
    outbox.new()
    smtp(mail("mallory@evil.example", G, "[Join]", "Name: Alíce"), "mallory@evil.example")
    (reply,) = outbox.new()
    assert reply["X-Mailref-Kind"] == "error" and "looks like Alice" in Outbox.body(reply)
    assert [p["name"] for p in game.state("nomes")["players"]] == ["Alice", "Bob"]

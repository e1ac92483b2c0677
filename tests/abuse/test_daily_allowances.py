"""What a stranger or one player can make the referee do in a day is bounded: mail to one address,
alerts, newcomers announced, matters opened, oversize mail over IMAP."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.hostile_smtp import ALICE, BOB, G
from support.joining import confirm, confirm_waiting
from support.listener import listening, submit

pytestmark = pytest.mark.spec("2.2")


def test_strangers_make_the_referee_mail_an_address_only_a_few_times_a_day(
    game, smtp, outbox, clock
):
    """Twenty-five strangers (or one forging From) name one victim as Reply-To, each with a
    spammer's subject: the victim got 21 mails that day, each echoing the subject. An address
    that is no player's gets `replies_per_stranger` (5) answers and one notice."""
    outbox.new()
    for i in range(25):
        smtp(
            mail(
                f"s{i}@evil{i}.example",
                G,
                f"[Propsal] BUY PILLS http://spam.example/{i}",
                headers={"Reply-To": "victim@third.example"},
            ),
            f"s{i}@evil{i}.example",
        )
    sent = outbox.new()
    assert [m["To"] for m in sent] == ["victim@third.example"] * 6
    assert "5 replies" in Outbox.body(sent[-1])
    # A player is answered as before. A newcomer past the strangers' allowance is not asked
    # to confirm that day (a confirmation is mail to an address anyone can name); the next
    # day her [Join] is, and her Reply to it is answered as a player's.
    for _ in range(7):
        smtp(mail("carol@example.org", G, "[Help]"), "carol@example.org")
    smtp(mail("carol@example.org", G, "[Join]", "Name: Carol"), "carol@example.org")
    smtp(mail(BOB, G, "[Status]"), BOB)
    sent = outbox.new()
    to_carol = [m["X-Mailref-Kind"] for m in sent if m["To"] == "carol@example.org"]
    assert to_carol == ["help"] * 5 + ["error"]
    assert [m["X-Mailref-Kind"] for m in sent if m["To"] == BOB] == ["status"]
    clock.advance(days=1)
    smtp(mail("carol@example.org", G, "[Join]", "Name: Carol"), "carol@example.org")
    confirm(game, "carol@example.org")
    sent = outbox.new()
    to_carol = [m["X-Mailref-Kind"] for m in sent if m["To"] == "carol@example.org"]
    # The announcement of her joining reaches her too, as it reaches everybody (SPEC §2.6).
    assert to_carol == ["confirm", "announcement", "ack"]
    assert [m["X-Mailref-Kind"] for m in sent if m["To"] == BOB] == ["announcement"]


def test_alerts_to_one_address_are_bounded_a_day(referee):
    """Mail to postmaster is passed to the admin at most 20 times a day per sender, but a
    spammer writes from a new address every time: the admin got one alert per mail, each
    carrying the spam's subject and first lines. Alerts to one address (postmaster's, a
    quarantined mail's, undeliverable mail's) stop after the day's allowance, with one saying so."""
    from support.listener import kept

    with listening(referee) as port:
        for n in range(25):
            submit(
                port,
                f"spam{n}@isp{n}.example",
                ["postmaster"],
                mail(f"spam{n}@isp{n}.example", "postmaster", f"Offer {n}"),
            )
    alerts = Outbox(referee).all()
    assert len(alerts) == 21 and {m["To"] for m in alerts} == {"gm@ref.example"}
    assert "more alerts today are not mailed" in str(alerts[-1]["Subject"])
    assert "Offer 20" in Outbox.body(alerts[-1])
    assert len(kept(referee)) == 25


def test_one_player_opens_at_most_ten_matters_a_day(referee, smtp, outbox, clock):
    """An Imperial Senator's proposals replace their oldest undecided one, so nothing bounded
    how many were sent: each was mailed to every player (30 proposals, 30 mails to each), and
    a CfJ flood in any Nomic did the same. The eleventh matter a player opens in a UTC day is
    refused; BlogNomic's rules call more than ten entries a day spam."""
    empire = "empire@ref.example"
    referee.create_game("empire", "imperial", empire)
    for name, a in (("Alice", ALICE), ("Bob", BOB)):
        smtp(mail(a, empire, "[Join]", f"Name: {name}"), a, empire)
        confirm_waiting(referee)
    outbox.new()
    for i in range(8):
        smtp(
            mail(BOB, empire, f"[Proposal] Spam {i}", f'Enact rule {300 + i} "Spam {i}":\nSpam.'),
            BOB,
            empire,
        )
    for i in range(4):
        smtp(mail(BOB, empire, f"[Point of Order] Question {i}", "Is this spam?"), BOB, empire)
    sent = outbox.new()
    assert len([m for m in sent if m["To"] == ALICE]) == 10
    refused = [Outbox.body(m) for m in sent if m["To"] == BOB and m["X-Mailref-Kind"] == "error"]
    assert len(refused) == 2 and all("matters_per_day" in b for b in refused)
    clock.advance(days=1)
    smtp(mail(BOB, empire, "[Point of Order] Tomorrow", "Again?"), BOB, empire)
    # Alice's announcement, and Bob's: his ack and the same announcement (SPEC §2.6); the GM's
    # digest, due before the mail was received, went first (SPEC §2.1)
    players = [m["To"] for m in outbox.new() if m["To"] != "gm@ref.example"]
    assert sorted(players) == sorted([ALICE, BOB, BOB])


@pytest.mark.dovecot
def test_a_strangers_oversize_mail_over_imap_counts_against_the_strangers_allowance(
    referee, dovecot
):
    """Mail over the size limit is answered from the header alone (imap.py), with a Source of
    its own: a stranger's eight oversize mails naming a victim got eight answers."""
    from mailref.mail.imap import Poller
    from support.imap import imap_cfg

    folder = "oversize9"
    c = dovecot.client()
    for f in (folder, f"{folder}-done", f"{folder}-rejected"):
        if c.folder_exists(f):
            c.delete_folder(f)
    c.create_folder(folder)
    referee.create_game("nomes", "sidekick", G)
    for i in range(8):
        c.append(
            folder,
            mail(
                f"s{i}@evil.example",
                G,
                "[Propsal] pills",
                "x" * 30_000,
                headers={"Reply-To": "victim@third.example"},
            ),
        )
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

    from mailref import door
    from mailref.store import Game
    from support.helpers import assert_replays

    empire = "empire@ref.example"
    referee.create_game("empire", "imperial", empire)
    smtp(mail(BOB, empire, "[Join]", "Name: Bob"), BOB, empire)
    confirm_waiting(referee)
    with referee.store() as s, s.begin():  # as an older mailref journaled them: no "capped"
        game = s.execute(select(Game).where(Game.slug == "empire")).scalar_one()
        for i in range(12):
            outcome = door.apply(
                s,
                game,
                {
                    "type": "propose",
                    "player": "Bob",
                    "title": f"Old {i}",
                    "text": "Old.",
                    "changes": [],
                    "source": f"mail:{100 + i}",
                },
                door.Source("mail", str(100 + i)),
                referee.clock(),
                referee.settings,
                referee.rng,
            )
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
    game.admin("nomes", {"type": "set", "values": {"joins_per_day": "30"}}, "gm")
    outbox.new()
    for i in range(25):
        smtp(
            mail(f"sybil{i}@evil{i}.example", G, "[Join]", f"Name: Sybil {i}"),
            f"sybil{i}@evil{i}.example",
        )
        confirm_waiting(game)
    sent = outbox.new()
    assert (
        len([m for m in sent if m["To"] == ALICE]) == 8
    )  # Alice's and Bob's joins were 2 of the day's 10
    assert len(game.state("nomes")["players"]) == 27
    (last,) = [m for m in outbox.to("sybil24@evil24.example", sent) if m["X-Mailref-Kind"] == "ack"]
    assert "Not announced to the other players" in Outbox.body(last)


def test_a_player_of_one_game_joining_another_on_the_host_is_asked_to_confirm(game, smtp, outbox):
    """Players of one game sent [Join] to a new game on the same host: their day's answers
    in the first game had spent a stranger's allowance, so two got no answer at all and the
    third a quota notice dressed as the confirmation. A player of any game here is no stranger."""
    sidekick = "tea@ref.example"
    game.create_game("tea", "sidekick", sidekick, gm="gm@ref.example")
    for _ in range(7):
        smtp(mail(ALICE, G, "[Status]"), ALICE)
    outbox.new()
    smtp(mail(ALICE, sidekick, "[Join]", "Name: Alice"), ALICE, sidekick)
    sent = [m for m in outbox.new() if m["To"] == ALICE]
    assert [m["X-Mailref-Kind"] for m in sent] == ["confirm"]
    confirm(game, ALICE)
    assert [p["name"] for p in game.state("tea")["players"]] == ["Alice"]


def test_a_confirmation_not_sent_is_said_so(game, smtp, outbox):
    """A newcomer past the strangers' allowance is not asked to confirm that day: the notice
    saying so was subjected as the confirmation, and the mail's verdict said only "ok". The
    notice answers the [Join], and each verdict says no confirmation went."""
    from mailref.store import InboxMessage

    carol = "carol@example.org"
    for _ in range(5):
        smtp(mail(carol, G, "[Help]"), carol)
    outbox.new()
    for _ in range(2):
        smtp(mail(carol, G, "[Join]", "Name: Carol"), carol)
    sent = [m for m in outbox.new() if m["To"] == carol]
    assert [m["X-Mailref-Kind"] for m in sent] == ["error"]
    assert "[Confirm]" not in str(sent[0]["Subject"]) and "[Join]" in str(sent[0]["Subject"])
    with game.store() as s:
        rows = s.query(InboxMessage).order_by(InboxMessage.id.desc()).limit(2).all()
        assert all("no confirmation sent" in r.verdict for r in rows), [r.verdict for r in rows]

"""Limits that hold and sender authentication (SPEC §2.2, §2.7), through real SMTP
sessions: changing Reply-To does not buy more replies, [Roll] spam is not mailed to
everybody, a 4 MB proposal is refused, forged Authentication-Results count for nothing."""

from __future__ import annotations

import json
from contextlib import contextmanager

import pytest

from mailref.read.auth import aligned, verify
from mailref.store import InboxMessage
from support.helpers import Outbox, last_to, mail, make_referee
from support.joining import confirm_waiting, reply_to_confirmation
from support.listener import listening, submit
from support.snapshots import play_once

pytestmark = pytest.mark.spec("2.2", "2.7")

G = "nomes@ref.example"
ALICE, BOB = "alice@example.org", "bob@example.org"
MX = "mx.ref.example"


@contextmanager
def smtp_to(referee):
    """A function that sends a message through a real SMTP session to REFEREE's listener."""
    with listening(referee, 10_000_000) as port:
        yield lambda message, mail_from, rcpt=G: submit(port, mail_from, [rcpt], message)


@pytest.fixture
def game(request, referee, smtp):
    def opening() -> None:
        referee.create_game("nomes", "sidekick", G, gm="gm@ref.example")
        for name, a in (("Alice", ALICE), ("Bob", BOB)):
            smtp(mail(a, G, "[Join]", f"Name: {name}"), a)
            confirm_waiting(referee)

    play_once(request, referee, opening)
    return referee


# ---- amplification -----------------------------------------------------------------


def test_changing_reply_to_buys_no_more_replies(game, smtp, outbox):
    outbox.new()
    for i in range(25):
        victim = f"victim{i}@third.example"
        smtp(mail(BOB, G, "[Status]", headers={"Reply-To": victim}), BOB)
    sent = outbox.new()
    # Bob's 20 replies of the day (his join's confirmation and its ack were the first two) and
    # one notice, though every Reply-To was new; nothing more reaches the third parties.
    assert len(sent) == 19 and len({m["To"] for m in sent}) == 19
    assert sent[-1]["X-Mailref-Kind"] == "error"


def test_roll_spam_reaches_the_others_a_few_times_a_day(game, smtp, outbox, clock):
    outbox.new()
    for _ in range(25):
        smtp(mail(BOB, G, "[Roll] d6"), BOB)
    sent = outbox.new()
    to_alice = [m for m in sent if m["To"] == ALICE]
    assert len(to_alice) == 10  # announcements_per_day is 10
    acks = [m for m in sent if m["To"] == BOB and m["X-Mailref-Kind"] == "ack"]
    # His 20 replies of the day, two spent on joining (the confirmation and its answer).
    assert len(acks) == 18 and "Not announced to the other players" in Outbox.body(acks[-1])
    assert len(game.state("nomes")["rolls"]) == 25  # every roll is kept
    clock.advance(days=1)
    smtp(mail(BOB, G, "[Roll] d6"), BOB)
    assert [m for m in outbox.new() if m["To"] == ALICE]  # a new day, a new allowance


def test_a_4mb_proposal_is_refused_and_the_state_stays_small(game, smtp, outbox):
    state = game.state("nomes")
    mover = state["turn"]["player"]
    who = ALICE if mover == "Alice" else BOB
    outbox.new()
    body = (
        'Enact rule 301 "Huge":\n'
        + ("All work and no play makes Jack a dull boy. " * 20 + "\n") * 4600
    )
    assert len(body) > 4_000_000
    smtp(mail(who, G, "[Proposal] Huge", body), who)
    (reply,) = outbox.new()
    assert reply["X-Mailref-Kind"] == "error" and "longer than the referee reads" in Outbox.body(
        reply
    )
    assert game.state("nomes")["proposals"] == []
    assert len(json.dumps(game.state("nomes"))) < 100_000  # no raw mail in the state
    with game.store() as s:
        assert (
            s.query(InboxMessage).order_by(InboxMessage.id.desc()).first().size > 4_000_000
        )  # kept raw


def test_a_proposal_over_max_text_is_refused_with_the_limit(game, smtp, outbox):
    mover = game.state("nomes")["turn"]["player"]
    who = ALICE if mover == "Alice" else BOB
    outbox.new()
    body = 'Enact rule 301 "Long":\n' + ("Lorem ipsum dolor sit amet. " * 10 + "\n") * 100  # 28 KB
    smtp(mail(who, G, "[Proposal] Long", body), who)
    (reply,) = outbox.new()
    assert "this game takes at most 20,000 (max_text)" in Outbox.body(reply)
    game.admin("nomes", {"type": "set", "values": {"max_text": "40000"}}, "gm")
    smtp(mail(who, G, "[Proposal] Long", body), who)
    assert game.state("nomes")["proposals"][0]["title"] == "Long"


# ---- authentication (§2.7) ---------------------------------------------------------


@pytest.fixture
def strict(tmp_path, clock):
    referee = make_referee(tmp_path, clock, trusted_authserv_ids=(MX,))
    referee.create_game("nomes", "sidekick", G, parameters={"require_auth": "on"})
    with smtp_to(referee) as send:
        yield referee, send
    referee.store.dispose()


def ar(value: str) -> dict:
    return {"Authentication-Results": value}


def test_require_auth_acts_only_on_trusted_aligned_results(strict):
    referee, send = strict
    outbox = Outbox(referee)
    for who, name, result in (
        (ALICE, "Alice", f"{MX}; dkim=pass header.d=example.org"),
        (BOB, "Bob", f"{MX}; dmarc=pass header.from=example.org"),
    ):
        send(mail(who, G, "[Join]", f"Name: {name}", headers=ar(result)), who)
        # The Reply to the confirmation is verified too (SPEC §2.7).
        signed = "".join(f"{k}: {v}\r\n" for k, v in ar(result).items()).encode()
        send(signed + reply_to_confirmation(referee, who), who)
    assert [p["name"] for p in referee.state("nomes")["players"]] == ["Alice", "Bob"]
    outbox.new()
    forged = [
        None,  # no result at all
        "evil.test; dmarc=pass header.from=example.org",  # an untrusted server's word
        f"{MX}; dkim=pass header.d=evil.test",  # signed, but by another domain
        f"{MX}; spf=pass smtp.mailfrom=mallory@evil.test",  # SPF for another domain
        f"{MX}; dmarc=fail header.from=example.org",
    ]
    for i, value in enumerate(forged):
        headers = {"Reply-To": "mallory@evil.test", **(ar(value) if value else {})}
        send(
            mail(ALICE, G, "[Away]", headers=headers, message_id=f"<f{i}@evil.test>"),
            "mallory@evil.test",
        )
        assert referee.state("nomes")["players"][0]["status"] == "active"
        (reply,) = outbox.new()
        assert reply["To"] == ALICE  # the registered address, never the Reply-To
        assert reply["X-Mailref-Kind"] == "error" and "could not be verified" in Outbox.body(reply)
    # A forger's header with the trusted id sits below the server's own: the topmost counts.
    raw = mail(ALICE, G, "[Away]", headers=ar(f"{MX}; dkim=pass header.d=example.org"))
    raw = f"Authentication-Results: {MX}; dkim=fail header.d=example.org\r\n".encode() + raw
    send(raw, ALICE)
    assert referee.state("nomes")["players"][0]["status"] == "active"
    send(
        mail(
            ALICE, G, "[Away]", headers=ar(f"{MX}; spf=pass smtp.mailfrom=bounce@mail.example.org")
        ),
        ALICE,
    )
    assert referee.state("nomes")["players"][0]["status"] == "away"


def test_refused_unverified_mail_is_in_the_gm_digest(strict):
    referee, send = strict
    send(mail(ALICE, G, "[Join]", "Name: Alice"), ALICE)
    outbox = Outbox(referee)
    referee.admin("nomes", {"type": "digest"}, "gm")
    (digest,) = [m for m in outbox.all() if m["X-Mailref-Kind"] == "digest"]
    assert "not verified" in Outbox.body(digest)


def test_alignment_without_a_public_suffix_list():
    assert aligned("example.org", "example.org") and aligned("mail.example.org", "example.org")
    assert aligned("example.org", "lists.example.org") and not aligned("org", "example.org")
    assert not aligned("evil.test", "example.org") and not aligned("notexample.org", "example.org")
    assert verify(
        [f"{MX}; dkim=pass header.d=Example.ORG"], "alice@example.org", [MX.upper()]
    ).verified
    assert not verify([f"{MX}; dkim=pass header.d=example.org"], "alice@example.org", []).verified
    assert not verify(["garbage"], "alice@example.org", [MX]).verified


def test_auth_configuration_is_read_and_checked(tmp_path):
    from mailref.config import ConfigError, load

    (tmp_path / "a.toml").write_text('[auth]\ntrusted_authserv_ids = ["MX.example.org"]\n')
    assert load(tmp_path / "a.toml").trusted_authserv_ids == ["mx.example.org"]
    (tmp_path / "b.toml").write_text('[auth]\ntrusted_authserv_ids = "mx.example.org"\n')
    with pytest.raises(ConfigError, match=r"\[auth\] trusted_authserv_ids"):
        load(tmp_path / "b.toml")
    from mailref.config import DEFAULT_TOML

    assert "[auth]" in DEFAULT_TOML and load().trusted_authserv_ids == []


def test_big_orders_and_results_never_enter_the_state(referee, smtp, outbox):
    diplo = "diplo@ref.example"
    referee.create_game("diplo", "orders", diplo, gm="gm@ref.example")
    smtp(mail("ann@x.org", diplo, "[Join]", "Name: Ann"), "ann@x.org", diplo)
    confirm_waiting(referee)
    referee.admin("diplo", {"type": "start"}, "gm")
    outbox.new()
    smtp(
        mail("ann@x.org", diplo, "[Orders]", "**Army Paris holds.**\n" * 4_000), "ann@x.org", diplo
    )  # 88 KB
    smtp(
        mail("ann@x.org", diplo, "[Orders]", "**Army Paris holds.** " * 40_000), "ann@x.org", diplo
    )  # 880 KB
    smtp(
        mail(
            "gm@ref.example",
            diplo,
            "[Results] Spring",
            "Paris holds.\n" * 200_000,
            in_reply_to=last_to(referee, "gm@ref.example", diplo),
        ),
        "gm@ref.example",
        diplo,
    )
    replies = [Outbox.body(m) for m in outbox.new()]
    assert len(replies) == 3 and "(max_text)" in replies[0]
    assert all("longer than the referee reads" in r for r in replies[1:])
    state = referee.state("diplo")
    assert state["turn"]["number"] == 1 and len(json.dumps(state)) < 100_000

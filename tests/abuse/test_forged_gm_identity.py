"""Who the GM is, for steering by mail, is the From address and a Reply only the GM could
send (SPEC §2.2, §4.4): case, a display name, a trailing dot, a look-alike domain, a Sender or
Reply-To of the forger's, a list in front, the admin's address, being the GM of another game on
the host: none of these makes a stranger's or a player's [Set] or [Rule] the GM's."""

from __future__ import annotations

import email.policy
from email.message import EmailMessage

import pytest

from support import hostile_smtp
from support.helpers import Outbox, assert_replays, mail, make_referee
from support.hostile_smtp import ALICE, BOB, G
from support.joining import confirm
from support.listener import listening, submit

pytestmark = pytest.mark.spec("2.2", "4.4")

GM = "gm@ref.example"
FORGER = "forger@evil.example"
OTHER = "other@ref.example"
game = hostile_smtp.game  # the Sidekick game of Alice and Bob, played through SMTP


def welcome(outbox: Outbox, to: str = GM, game_address: str = G) -> str:
    """The Message-ID of the mail TO got when the game at GAME_ADDRESS was made."""
    (notice,) = [
        m
        for m in outbox.to(to)
        if "is open at" in str(m["Subject"]) and game_address in str(m["From"])
    ]
    return str(notice["Message-ID"])


def raw_from(from_header: str, subject: str, body: str, **headers: str) -> bytes:
    """A mail with From exactly as FROM_HEADER is written."""
    msg = EmailMessage(policy=email.policy.SMTPUTF8)
    msg["From"] = from_header
    msg["To"] = G
    msg["Subject"] = subject
    msg["Message-ID"] = f"<{abs(hash((from_header, subject, body)))}@evil.example>"
    for k, v in headers.items():
        msg[k.replace("_", "-")] = v
    msg.set_content(body)
    return msg.as_bytes()


def refusals(outbox: Outbox) -> list[str]:
    return [str(m["X-Mailref-Refusal"]) for m in outbox.new() if m["X-Mailref-Kind"] == "error"]


def test_case_and_display_names_make_no_forger_the_gm(game, smtp, outbox):
    before = game.state("nomes")
    outbox.new()
    for written in (
        "GM <GM@REF.EXAMPLE>",
        '"gm@ref.example" <forger@evil.example>',
        "The GM <gm@ref.example.>",
        "Gm <gm@r\u0435f.example>",  # a Cyrillic "е"
    ):
        smtp(raw_from(written, "[Set]", "fail_points=-99"), FORGER, utf8=True)
    assert game.state("nomes") == before
    said = refusals(outbox)
    # A trailing dot names no mailbox cleanly: refused without a reply (a forger chose it).
    assert said == ["gm_needs_a_reply", "only_gm_sets", "only_gm_sets"], said
    # The GM's own Reply, the address written in upper case, still steers.
    smtp(
        raw_from("GM <GM@REF.EXAMPLE>", "[Set]", "fail_points=-4", In_Reply_To=welcome(outbox)),
        GM,
    )
    assert game.state("nomes")["parameters"]["fail_points"] == -4
    assert_replays(game)


def test_a_forgers_reply_to_address_buys_no_message_id_of_the_gms(game, smtp, outbox):
    """The refusal of a forged [Set] goes to its Reply-To, the forger's: its Message-ID is of
    mail sent to the forger, never to the GM."""
    before = game.state("nomes")
    outbox.new()
    headers = {"Reply-To": FORGER, "Sender": FORGER}
    smtp(mail(GM, G, "[Set]", "fail_points=-99", headers=headers), FORGER)
    (answer,) = outbox.to(FORGER, outbox.new(), kind="error")
    assert "Reply" in Outbox.body(answer)
    smtp(
        mail(
            GM, G, "Re: [Set]", "fail_points=-99", in_reply_to=answer["Message-ID"], headers=headers
        ),
        FORGER,
    )
    assert game.state("nomes") == before
    assert refusals(outbox) == ["gm_needs_a_reply"]
    assert_replays(game)


def test_a_player_who_is_gm_of_another_game_steers_only_that_one(game, referee, smtp, outbox):
    referee.create_game("other", "sidekick", OTHER, gm=ALICE)
    before = game.state("nomes")
    outbox.new()
    smtp(mail(ALICE, G, "[Set]", "fail_points=-99"), ALICE)
    smtp(
        mail(ALICE, G, "[Set]", "fail_points=-99", in_reply_to=welcome(outbox, ALICE, OTHER)),
        ALICE,
    )
    assert game.state("nomes") == before
    assert refusals(outbox) == ["only_gm_sets", "only_gm_sets"]
    assert referee.state("other")["parameters"].get("fail_points") != -99
    assert_replays(game)


def test_a_list_in_front_of_the_gm_makes_no_forger_the_gm(game, smtp, outbox):
    """A list that rewrites From ("GM via Rules") keeps the GM's address in Reply-To or
    X-Original-From, which anyone can write: the mail is the list's, not the GM's."""
    before = game.state("nomes")
    outbox.new()
    listed = {"List-Id": "Rules <rules.lists.example>"}
    smtp(
        raw_from(
            "GM via Rules <rules@lists.example>",
            "[Rule]",
            "Repeal rule 18.\n",
            Reply_To=GM,
            X_Original_From=GM,
            **{k.replace("-", "_"): v for k, v in listed.items()},
        ),
        "rules-bounces@lists.example",
    )
    smtp(mail(GM, G, "[Rule]", "Repeal rule 18.\n", headers=listed), "rules-bounces@lists.example")
    assert game.state("nomes") == before
    assert refusals(outbox) == ["only_gm_changes_rules", "rule_needs_a_reply"]
    assert_replays(game)


def test_the_hosts_admin_address_sent_by_a_stranger_steers_nothing(tmp_path, clock):
    referee = make_referee(tmp_path, clock, admin_address="root@ref.example")
    outbox = Outbox(referee)
    with listening(referee, 10_000_000) as port:

        def smtp(raw: bytes, mail_from: str, rcpt: str = G) -> None:
            submit(port, mail_from, [rcpt], raw)

        referee.create_game("nomes", "sidekick", G, gm=GM)
        for name, a in (("Alice", ALICE), ("Bob", BOB)):
            smtp(mail(a, G, "[Join]", f"Name: {name}"), a)
            confirm(referee, a)
        before = referee.state("nomes")
        outbox.new()
        smtp(mail("root@ref.example", G, "[Set]", "fail_points=-99"), FORGER)
        smtp(mail("root@ref.example", G, "[Rule]", "Repeal rule 18.\n"), FORGER)
        smtp(mail("root@ref.example", G, "[Score] Bob +99"), FORGER)
        assert referee.state("nomes") == before
        said = refusals(outbox)
        assert said == ["gm_needs_a_reply", "rule_needs_a_reply", "score_needs_a_reply"], said
    assert_replays(referee)

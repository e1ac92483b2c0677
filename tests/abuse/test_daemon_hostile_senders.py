"""A hostile sender by real SMTP against a running daemon."""

from __future__ import annotations

import json
import smtplib

import pytest

from support.helpers import maildir_mails, wait_for
from support.ops import Site

pytestmark = pytest.mark.spec("2.2")


def send(site: Site, raw: str, frm: str, to: str = "nomes@ref.example") -> None:
    with smtplib.SMTP("127.0.0.1", site.smtp_port, timeout=30) as s:
        s.sendmail(frm, [to], raw.replace("\n", "\r\n").encode())


def test_a_message_id_reused_by_another_player_suppresses_nothing(tmp_path):
    """Bob sends a mail with the Message-ID Alice's next mail will carry (seen in a Cc, or a
    gateway that writes one Message-ID for all): Alice's proposal was kept as "duplicate:
    Message-ID already received" and never answered. Now a Message-ID is a duplicate only of
    the same author's mail, or as a list's copy; those are still kept once."""
    site = Site(tmp_path)
    site.create_game("nomes", "sidekick", "nomes@ref.example")
    for name in ("Alice", "Bob"):
        assert (
            site.cli_in_process(
                "player", "add", "nomes", name, f"{name.lower()}@players.example"
            ).returncode
            == 0
        )
    mover = json.loads(site.cli_in_process("game", "show", "nomes", "--json").stdout)["turn"][
        "player"
    ]
    other = "Bob" if mover == "Alice" else "Alice"
    m, o = mover.lower(), other.lower()
    mid = "Message-ID: <next@players.example>\n"
    with site.serve() as daemon:
        send(
            site,
            f"From: {other} <{o}@players.example>\nTo: nomes@ref.example\nSubject: "
            f"[Status]\n{mid}\nhi\n",
            f"{o}@players.example",
        )
        assert wait_for(lambda: "tag=status" in daemon.stderr(), 30), daemon.stderr()
        proposal = (
            f'To: nomes@ref.example\nSubject: [Proposal] Hats\n{mid}\nEnact rule 301 "Hats":\n'
            "Hats.\n"
        )
        send(site, f"From: {mover} <{m}@players.example>\n" + proposal, f"{m}@players.example")
        assert wait_for(lambda: "tag=proposal" in daemon.stderr(), 30), daemon.stderr()
        # The same proposal again: through a list rewriting From, and by a second MX of the author.
        send(
            site,
            f"From: {mover} via Players <players@lists.example>\nList-Id: <players.lists.example>\n"
            + proposal,
            "bounces@lists.example",
        )
        send(
            site,
            f"Received: from mx2.players.example\nFrom: {mover.upper()} "
            f"<{m.title()}@Players.example>\n" + proposal,
            f"{m}@players.example",
        )
        assert wait_for(
            lambda: daemon.stderr().count("ignored at intake") == 2, 30
        ), daemon.stderr()
        assert wait_for(
            lambda: [
                x
                for x in maildir_mails(tmp_path)
                if x["To"] == f"{m}@players.example" and x["X-Mailref-Kind"] == "ack"
            ],
            30,
        ), daemon.stderr()
    show = json.loads(site.cli_in_process("game", "show", "nomes", "--json").stdout)
    assert [p["title"] for p in show["proposals"]] == ["Hats"], show["proposals"]
    acks = [
        x
        for x in maildir_mails(tmp_path)
        if x["To"] == f"{m}@players.example" and x["X-Mailref-Kind"] == "ack"
    ]
    assert len(acks) == 1


DSN = """From: Mail Delivery System <MAILER-DAEMON@mx.players.example>
To: referee@ref.example
Subject: Undelivered Mail Returned to Sender
Message-ID: <dsn-{n}@mx.players.example>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"

--B
Content-Type: text/plain

<carol@players.example>: host mx.players.example said: 550 5.1.1 User unknown

--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.players.example

Final-Recipient: rfc822; carol@players.example
Action: failed
Status: 5.1.1

--B
Content-Type: {kind}

{original}
--B--
"""


def test_a_bounce_of_one_games_mail_is_told_to_that_games_gm_only(tmp_path):
    """Carol plays in two games; a delivery report returns one game's announcement to her (with
    the original's headers, or the whole original). The bounce was recorded in every game she
    plays, and each GM's digest listed it. Now the game whose mail came back; a bounce that
    quotes nothing of ours still goes to every game where the address plays."""
    site = Site(tmp_path)
    for slug in ("nomes", "blog"):
        variant = "sidekick" if slug == "nomes" else "blognomic"
        site.create_game(slug, variant, f"{slug}@ref.example", gm=f"gm-{slug}@example.org")
        for name in ("Alice", "Carol"):
            assert (
                site.cli_in_process(
                    "player", "add", slug, name, f"{name.lower()}@players.example"
                ).returncode
                == 0
            )
    with site.serve() as daemon:

        def to_carol():
            return [
                m
                for m in maildir_mails(tmp_path)
                if m["To"] == "carol@players.example" and m["X-Mailref-Game"] == "nomes"
            ]

        assert wait_for(to_carol, 30), daemon.stderr()
        sent = to_carol()[0]
        headers = "".join(f"{k}: {v}\n" for k, v in sent.items())
        send(
            site,
            DSN.format(n=1, kind="text/rfc822-headers", original=headers),
            "",
            "referee@ref.example",
        )
        whole = sent.as_string().replace("\r\n", "\n")
        send(
            site, DSN.format(n=2, kind="message/rfc822", original=whole), "", "referee@ref.example"
        )
        assert wait_for(
            lambda: daemon.stderr().count("bounce for carol@players.example") == 2, 30
        ), daemon.stderr()
        assert (
            daemon.stderr().count("game=nomes tag=-: ignored: machine: delivery report") == 2
        ), daemon.stderr()
        for slug in ("nomes", "blog"):
            assert site.cli("digest", slug).returncode == 0
        assert wait_for(
            lambda: len([m for m in maildir_mails(tmp_path) if m["X-Mailref-Kind"] == "digest"])
            == 2,
            30,
        )
    digests = {
        m["X-Mailref-Game"]: m.get_payload(decode=True).decode()
        if not m.is_multipart()
        else m.get_payload(0).get_payload(decode=True).decode()
        for m in maildir_mails(tmp_path)
        if m["X-Mailref-Kind"] == "digest"
    }
    assert (
        "Bounces:" in digests["nomes"]
        and "carol@players.example" in digests["nomes"].split("Bounces:")[1]
    )
    assert "Bounces:" not in digests["blog"], digests["blog"]

"""SPEC §4.3 end to end: `mailref serve` with `[web] listen` and an https `base_url` serves the
one-click unsubscribe; the link of a real announcement, POSTed as a mail program's button does,
puts its player on the daily digest, and the journal says it came from the web."""

from __future__ import annotations

import json
import smtplib
import urllib.request

import pytest

from support.dovecot import free_port
from support.helpers import maildir_mails, wait_for
from support.ops import Site

pytestmark = pytest.mark.spec("4.3")

G = "nomes@ref.example"
BASE = "https://games.example.org/"


def announcement_to(site: Site, addr: str):
    return next(
        (
            m
            for m in maildir_mails(site.root)
            if m["To"] == addr and m["X-Mailref-Kind"] == "announcement"
        ),
        None,
    )


def test_the_daemon_serves_the_link_of_its_announcements(tmp_path):
    port = free_port()
    web = f'[web]\nlisten = "127.0.0.1:{port}"\n'
    site = Site(tmp_path, extra=f'[site]\ndir = "var/site"\nbase_url = "{BASE}"\n' + web)
    site.create_game("nomes", "sidekick", G, name="Nomes")
    for name in ("Alice", "Bob", "Carol"):
        assert (
            site.cli_in_process("player", "add", "nomes", name, f"{name.lower()}@x.org").returncode
            == 0
        )
    mover = json.loads(site.cli_in_process("game", "show", "nomes", "--json").stdout)["turn"][
        "player"
    ]
    reader = next(n for n in ("Alice", "Bob", "Carol") if n != mover)
    proposal = (
        f"From: {mover} <{mover.lower()}@x.org>\r\nTo: {G}\r\nSubject: [Proposal] Tea\r\n"
        'Message-ID: <tea@x.org>\r\n\r\nEnact rule 301 "Tea":\r\nTea.\r\n'
    )
    with site.serve() as daemon:
        with smtplib.SMTP("127.0.0.1", site.smtp_port, timeout=30) as s:
            s.sendmail(f"{mover.lower()}@x.org", [G], proposal.encode())
        news = wait_for(lambda: announcement_to(site, f"{reader.lower()}@x.org"), 30)
        assert news is not None, daemon.stderr()
        link = news["List-Unsubscribe"].split(",")[0].strip().strip("<>")
        assert link.startswith(f"{BASE}unsubscribe/nomes.")
        request = urllib.request.Request(
            link.replace(BASE, f"http://127.0.0.1:{port}/"),
            data=b"List-Unsubscribe=One-Click",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        with urllib.request.urlopen(request, timeout=30) as r:
            assert r.status == 200 and b"stays in the game" in r.read()
    shown = json.loads(site.cli_in_process("game", "show", "nomes", "--json").stdout)
    me = next(p for p in shown["players"] if p["name"] == reader)
    assert me["status"] == "active" and me["settings"]["digest"] == "daily"
    entries = json.loads(site.cli("journal", "nomes", "--json").stdout)["entries"]
    web = [(e["who"], e["action"]) for e in entries if e["source"] == "web"]
    assert web == [(reader, "settings")], entries

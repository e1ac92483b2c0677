"""The GM's digest of rejected mail: the newest fifty listed and the rest counted, without reading
the raw mails."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail
from support.hostile_smtp import G

pytestmark = pytest.mark.spec("2.2")


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
    assert (
        len(listed) == 50 and "s59@evil.example" in listed[-1] and "s10@evil.example" in listed[0]
    )
    assert "… and 10 earlier: `mailref mail list`" in body


def test_listing_mail_does_not_read_the_raw_mails(referee, capsys):
    """`mailref mail list` read the 50 newest rows whole: a stranger's 50 mails of 10 MB took
    the operator's command to 600 MB (one that ran out of memory could not list the mail it
    was asked about). It reads the columns it shows."""
    import argparse
    import tracemalloc

    from mailref.cli.inbox import cmd_mail_list

    for i in range(20):
        referee.accept(mail(f"s{i}@evil.example", G, "[Propsal] big", "x" * 1_000_000))
    tracemalloc.start()
    try:
        assert (
            cmd_mail_list(referee, argparse.Namespace(limit=50, status=None, json=True), "op") == 0
        )
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(capsys.readouterr().out.split('"id"')) == 21
    assert peak < 5_000_000, peak

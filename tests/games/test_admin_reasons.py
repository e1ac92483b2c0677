"""The admin's reason for a change is told to the players."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.spec("1.4")


def test_the_admins_reason_is_told_to_the_players(tmp_path):
    """SPEC §1.4: a command that changes a game records who did it and why (`--reason`), and
    announces to the players what they would expect to be told: why the game is paused, why
    a player was set away, why an office changed hands."""
    from sqlalchemy import select

    from mailref.store import OutboxMessage, open_store
    from support.ops import Site
    from support.parsed import outgoing

    site = Site(tmp_path, smtp_in=False)
    site.create_game("nomes", "sidekick", "nomes@ref.example")
    for name in ("Alice", "Bob"):
        player = (name, f"{name.lower()}@x.org")
        assert site.cli_in_process("player", "add", "nomes", *player).returncode == 0
    for args, subject in [
        (("game", "pause", "nomes"), "The game is paused"),
        (("player", "away", "nomes", "Bob"), "Bob is away"),
        (("office", "nomes", "admin", "Alice"), "Office: admin"),
    ]:
        r = site.cli(*args, "--reason", f"because of {args[0]}")
        assert r.returncode == 0, r.stderr
        store = open_store(f"sqlite:///{site.db}", migrate=False)
        with store() as s:  # what the daemon would send
            mails = [outgoing(bytes(raw)) for raw in s.scalars(select(OutboxMessage.raw))]
        store.dispose()
        told = [m for m in mails if subject in str(m["Subject"]) and m["To"] == "alice@x.org"]
        assert told, [str(m["Subject"]) for m in mails]
        assert f"Reason: because of {args[0]}" in told[-1].get_body(("plain",)).get_content()

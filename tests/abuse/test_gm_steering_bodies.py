"""What the GM writes by mail is bounded as the host's commands are, and by what a game lives
with (SPEC §4.4): a setting the game could not live with, an undo of itself or of nothing in
this game, a vote or office for someone who does not play, a matter decided twice, a ruleset
amended past the text a game keeps. Each is refused in words and the game is unchanged."""

from __future__ import annotations

import pytest

from mailref.cli.court import journal_rows
from support import hostile_smtp
from support.helpers import Outbox, assert_replays, mail
from support.hostile_smtp import ALICE, BOB, G, mover

pytestmark = pytest.mark.spec("4.4")

GM = "gm@ref.example"
game = hostile_smtp.game  # the Sidekick game of Alice and Bob, played through SMTP


def welcome(outbox: Outbox) -> str:
    """The Message-ID of the mail the GM got when the game was made: the GM's to answer."""
    (notice,) = [
        m for m in outbox.to(GM) if "is open at" in str(m["Subject"]) and G in str(m["From"])
    ]
    return str(notice["Message-ID"])


def as_gm(smtp, outbox: Outbox, subject: str, body: str = "") -> str:
    """The GM's Reply to the game's welcome; the refusal it got, "" when none."""
    outbox.new()
    smtp(mail(GM, G, subject, body, in_reply_to=welcome(outbox)), GM)
    (answer,) = outbox.to(GM, outbox.new(), kind="error") or [None]
    return str(answer["X-Mailref-Refusal"]) if answer is not None else ""


def propose(referee, smtp) -> None:
    m, m_addr = mover(referee)
    smtp(mail(m_addr, G, "[Proposal] Tea time", 'Enact rule 24 "Tea":\nAll drink tea.\n'), m_addr)


def test_a_setting_the_game_could_not_live_with_is_refused_by_mail(game, smtp, outbox):
    """require_auth on where the host trusts no authentication server would refuse every later
    mail, the GM's own [Set] require_auth=off too; a 20,000-character name would be in every
    mail the game sends."""
    before = game.state("nomes")
    for body, refusal in (
        ("require_auth=on", "require_auth_unverifiable"),
        ("require_auth: yes", "require_auth_unverifiable"),
        ("name=" + "x" * 20_000, "set_value_too_long"),
        ("list_id=" + "l" * 5_000, "set_value_too_long"),
        ("turn_timeout=-1d", "param_not_duration"),
        ("turn_timeout=999999w", "param_span_too_long"),
        ("timezone=Mars/Olympus", "unknown_timezone"),
        ("gm=forger@evil.example", "gm_set_on_the_host"),
    ):
        assert as_gm(smtp, outbox, "[Set]", body).startswith(refusal), body[:30]
        assert game.state("nomes") == before
    assert as_gm(smtp, outbox, "[Set]", "name=Tea Nomic") == ""
    assert game.state("nomes")["name"] == "Tea Nomic"
    assert_replays(game)


def test_an_undo_names_only_this_games_entries_and_never_an_undo(game, referee, smtp, outbox):
    referee.create_game("other", "sidekick", "other@ref.example", gm=GM)
    for n in range(6):
        referee.admin("other", {"type": "set", "values": {"fail_points": str(-n - 1)}}, "admin")
    propose(game, smtp)
    entries = len(journal_rows(game, "nomes"))
    before = game.state("nomes")
    assert as_gm(smtp, outbox, f"[Undo] {entries + 2}") == "no_entry_before"  # the other game's
    assert as_gm(smtp, outbox, f"[Undo] {entries + 1}") == "no_entry_before"  # this very undo
    assert game.state("nomes") == before
    assert as_gm(smtp, outbox, f"[Undo] {entries}") == ""
    assert game.state("nomes")["proposals"] == []
    assert as_gm(smtp, outbox, f"[Undo] {entries + 1}") == "entry_is_undo"
    assert len(journal_rows(referee, "other")) == 6
    assert_replays(game)


def test_votes_and_offices_are_for_this_games_players_and_matters(game, smtp, outbox):
    propose(game, smtp)
    before = game.state("nomes")
    for subject, refusal in (
        ("[Override] 1 Mallory AGAINST", "no_player"),
        ("[Office] admin forger@evil.example", "no_player"),
        ("[Decide] 99 enact", "no_matter"),
    ):
        assert as_gm(smtp, outbox, subject) == refusal, subject
        assert game.state("nomes") == before
    assert as_gm(smtp, outbox, "[Decide] 1 enact") == ""
    decided = game.state("nomes")
    assert as_gm(smtp, outbox, "[Decide] 1 fail") != ""  # decided once; `reopen` says so
    assert game.state("nomes") == decided
    smtp(mail(BOB, G, "[Quit]", "Bye."), BOB)
    left = game.state("nomes")
    assert as_gm(smtp, outbox, "[Office] admin Bob") == "no_player"
    assert game.state("nomes") == left
    assert_replays(game)


def test_the_ruleset_is_corrected_within_the_text_a_game_keeps(game, smtp, outbox):
    before = game.state("nomes")
    amended = "Amend rule 9 to read:\n" + ("word " * 19 + "word\n") * 2_000  # 200 KB
    assert as_gm(smtp, outbox, "[Rule]", amended) != ""
    assert game.state("nomes") == before
    numbers = [r["number"] for r in before["rules"]]
    assert as_gm(smtp, outbox, "[Rule]", "\n\n".join(f"Repeal rule {n}." for n in numbers)) == ""
    assert game.state("nomes")["rules"] == []  # the GM's to decide, as `mailref rule` does
    assert ALICE in {a for p in game.state("nomes")["players"] for a in p["addresses"]}
    assert_replays(game)

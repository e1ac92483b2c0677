"""The line the log has for each mail (SPEC §7): one line of plain text, with the command as
understood."""

from __future__ import annotations

import logging

import pytest

from support.play import PLAYERS, nomes, send

pytestmark = pytest.mark.spec("7")


def mail_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("mail #")]


def test_a_mail_log_line_is_one_line_without_escaped_line_breaks(referee, caplog):
    """A proposal's ack runs over several lines, and so does an error naming two faults: each
    mail's log line holds their words on one line, no `\\x0a`."""
    caplog.set_level(logging.INFO, logger="mailref")
    mover = nomes(referee)
    send(
        referee,
        mover.lower(),
        "[Proposal] Two slips",
        'Amend rule 99 to read:\nX.\n\nEnact rule 5 "Five":\nA fifth.\n',
    )
    send(
        referee,
        mover.lower(),
        "[Proposal] Tea",
        'Enact rule 24 "Tea":\nTea at four.\n\nEnact rule 25 "Cake":\nCake too.\n',
    )
    lines = mail_lines(caplog)
    assert len(lines) == 2 * len(PLAYERS) + 2, lines  # each join and its confirmation
    for line in lines:
        assert "\\x0a" not in line and "\n" not in line, line
    assert "there is no rule 99" in lines[-2] and "rule 5 already exists" in lines[-2], lines[-2]
    assert 'Enact rule 24 "Tea"' in lines[-1] and 'Enact rule 25 "Cake"' in lines[-1], lines[-1]


def test_a_vote_sent_as_a_reply_is_logged_as_a_vote(referee, caplog):
    caplog.set_level(logging.INFO, logger="mailref")
    mover = nomes(referee)
    send(referee, mover.lower(), "[Proposal] Tea", 'Enact rule 24 "Tea":\nTea at four.\n')
    voter = next(p for p in PLAYERS if p.title() != mover)
    send(referee, voter, "Re: [Proposal 1] Tea", "FOR")
    send(referee, voter, "[Vote] 1", "AGAINST")
    *_, proposed, replied, voted = mail_lines(caplog)
    assert " tag=proposal: " in proposed, proposed
    assert " tag=vote: " in replied and "Vote recorded: proposal 1" in replied, replied
    assert " tag=vote: " in voted, voted

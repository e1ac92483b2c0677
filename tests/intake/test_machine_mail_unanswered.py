"""List posts, newsletters and out-of-office replies in many languages get no answer."""

from __future__ import annotations

import pytest

from support.helpers import mail
from support.hostile_smtp import BOB, G

pytestmark = pytest.mark.spec("2.2")


@pytest.mark.parametrize(
    "header",
    ["List-Id: Chat <chat.lists.example>", "List-Unsubscribe: <mailto:leave@news.example>"],
)
@pytest.mark.parametrize("rcpt", [G, "referee@ref.example"])
def test_list_posts_and_newsletters_without_a_command_get_no_answer(
    game, smtp, outbox, header, rcpt
):
    """A list that marks its posts with List-Id but no Precedence (mlmmj, many self-hosted
    ones), and newsletters with List-Unsubscribe alone: a game address subscribed to one
    answered every post with the help or "did you mean", one mail to each member who wrote.
    A command through such a list is still a command."""
    name, value = header.split(": ", 1)
    outbox.new()
    smtp(
        mail("member@lists.example", rcpt, "Bike lost and found", headers={name: value}),
        "member@lists.example",
    )
    smtp(
        mail("member@lists.example", rcpt, "[GPC] Bike lost", headers={name: value}),
        "member@lists.example",
    )
    assert not outbox.new()
    smtp(mail(BOB, G, "[Status]", headers={name: value}), BOB)
    assert [m["X-Mailref-Kind"] for m in outbox.new()] == ["status"]


@pytest.mark.parametrize(
    "subject",
    [
        "Automatisk svar: [Nomes] [Proposal 1] Hats",
        "Автоматический ответ: [Proposal 1]",
        "自动回复: [Proposal 1] Hats",
        "自動応答: [Proposal 1] Hats",
        "Automatická odpověď: [Proposal 1]",
        "Otomatik yanıt: [Proposal 1]",
    ],
)
def test_out_of_office_replies_in_more_languages_get_no_answer(game, smtp, outbox, subject):
    """Outlook's out-of-office prefix in the languages whose reply headers are read (quotes.py),
    sent by a server that adds no Auto-Submitted: each got "No vote found" back."""
    outbox.new()
    smtp(mail(BOB, G, subject, "I am away until Monday."), BOB)
    assert not outbox.new()

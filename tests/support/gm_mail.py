"""The GM who only uses mail, as the tests of the GM's mail commands play it: the GM's address,
the welcome mail the GM answers, what the GM (or anyone) was last told, and a BlogNomic game of
three Wizards the GM steers."""

from __future__ import annotations

from support.helpers import Outbox, mail
from support.hostile_smtp import ALICE, BOB
from support.joining import confirm

GM = "gm@ref.example"
BLOG = "blog@ref.example"
CAROL = "carol@example.org"


def said(outbox: Outbox, who: str) -> str:
    """The newest mail to WHO, its words on one line."""
    return " ".join(Outbox.body(outbox.to(who, outbox.new())[-1]).split())


def welcome(outbox: Outbox) -> str:
    """The Message-ID of the mail the GM got when the game was made: the GM's to answer."""
    (notice,) = [m for m in outbox.to(GM) if "is open at" in str(m["Subject"])]
    return str(notice["Message-ID"])


def blog_of_three(referee, smtp) -> None:
    """A BlogNomic game of Alice, Bob and Carol, its GM GM: Dormant, as five are needed."""
    referee.create_game("blog", "blognomic", BLOG, name="Blog", gm=GM)
    for name, a in (("Alice", ALICE), ("Bob", BOB), ("Carol", CAROL)):
        smtp(mail(a, BLOG, "[Join]", f"Name: {name}"), a, BLOG)
        confirm(referee, a)

"""Players writing through a real SMTP session, each address's mail counted at a relay."""

from __future__ import annotations

import re
import smtplib
from datetime import UTC, datetime

import pytest

from support.helpers import mail
from support.table import Table, table_at

NOMES, EIRE = "nomes@ref.example", "eire@ref.example"


ENCODED_WORD = re.compile(rb"=\?[^?]+\?[bBqQ]\?[^?]*\?=")


class Players(Table):
    def write(self, frm: str, to: str, subject: str, body: str = "", **kw) -> dict[str, list]:
        """FRM's mail as their client builds it (display name, HTML, In-Reply-To)."""
        before = len(self.sink.mails)
        with smtplib.SMTP("127.0.0.1", self.port) as c:
            c.sendmail(frm, [to], mail(frm, to, subject, body, **kw))
        return self.deliver(before)

    def raw_since(self, before: int) -> list[bytes]:
        return [raw for _, raw in self.sink.mails[before:]]


@pytest.fixture
def table(tmp_path, database_url):
    with table_at(tmp_path, database_url, datetime(2026, 3, 2, 9, 0, tzinfo=UTC), Players) as t:
        yield t


def nomes(table: Players, *names: str) -> None:
    table.referee.create_game("nomes", "sidekick", NOMES, name="Nomes", gm="gm@ref.example")
    for n in names:  # Bob Brown writes from bob@x.org
        table.reply(
            table.join(f"{n.split()[0].lower()}@x.org", NOMES, f"Name: {n}"),
            f"{n.split()[0].lower()}@x.org",
        )


def eire(table: Players) -> None:
    table.referee.create_game(
        "eire",
        "eire",
        EIRE,
        name="Eire Autumn",
        gm="gm@ref.example",
        parameters={"start_grain": "30"},
    )

"""Test helpers: mail as players write it, a clock the test moves, a referee on a real
SQLite file."""

from __future__ import annotations

import atexit
import email
import email.policy
import email.utils
import itertools
import mailbox
import random
import shutil
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import select

from mailref.door import Settings
from mailref.referee import BATCH, Referee, Stored
from mailref.store import OutboxMessage, open_store
from mailref.store.keep import Incoming
from support.parsed import outgoing

_ids = itertools.count(1)


class Clock:
    def __init__(self, start: datetime | None = None):
        self.now = start or datetime(2026, 12, 1, 10, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw) -> datetime:
        self.now += timedelta(**kw)
        return self.now


def mail(
    frm: str,
    to: str,
    subject: str,
    body: str = "",
    *,
    name: str | None = None,
    in_reply_to: str | None = None,
    headers: dict | None = None,
    html: str | None = None,
    message_id: str | None = None,
) -> bytes:
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = email.utils.formataddr((name or frm.split("@")[0].title(), frm))
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = email.utils.format_datetime(datetime(2026, 12, 1, tzinfo=UTC))
    msg["Message-ID"] = (
        message_id or f"<test{next(_ids)}.{random.randrange(10**9)}@players.example>"
    )
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    for k, v in (headers or {}).items():
        msg[k] = v
    msg.set_content(body or "\n")
    if html is not None:
        msg.add_alternative(html, subtype="html")
    return msg.as_bytes()


_template: list[Path] = []


def migrated_sqlite(path: Path) -> str:
    """The URL of a migrated SQLite file at PATH (kept if it exists): a copy of one file this
    process migrated once, since migrating an empty file is most of a small test's time."""
    if not path.exists():
        if not _template:
            folder = Path(tempfile.mkdtemp(prefix="mailref-sqlite-template-"))
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            open_store(f"sqlite:///{folder}/template.sqlite3").dispose()  # closed: no -wal left
            _template.append(folder / "template.sqlite3")
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_template[0], path)
    return f"sqlite:///{path}"


def deliver(
    referee: Referee,
    raw: bytes,
    source: str = "smtp",
    mail_from: str = "",
    rcpt_to: list[str] | None = None,
) -> Stored:
    """RAW as the SMTP listener hands it over, processed at once as the IMAP poller does:
    kept (Referee.keep), then processed if it is new (Referee.process); its Stored, with its
    status."""
    (stored,) = referee.keep([Incoming(raw, source, mail_from, rcpt_to)])
    if stored.new and stored.status == "new":
        stored.status = referee.process([stored.id])[stored.id]
    return stored


class MailedReferee(Referee):
    """The referee the tests mail: `accept` keeps a mail and processes it at once (deliver)."""

    def accept(
        self,
        raw: bytes,
        source: str = "smtp",
        mail_from: str = "",
        rcpt_to: list[str] | None = None,
    ) -> Stored:
        return deliver(self, raw, source, mail_from, rcpt_to)


def process_all(referee: Referee, limit: int | None = None) -> int:
    """Process the kept mail awaiting it (at most LIMIT), a batch at a time as the daemon
    does, firing a deadline that waited for older mail once that is processed; how many mails
    were processed."""
    done, skip = 0, set[int]()
    while limit is None or done < limit:
        taken = referee.process(
            limit=BATCH if limit is None else min(BATCH, limit - done), skip=skip
        )
        if not taken:
            if not skip or not referee.tick():
                break
            skip.clear()  # the deadline fired: the mail that waited for it goes now
        done += sum(i not in skip for i in taken)  # a mail left waiting counts once it goes
    return done


REFEREES: list[Referee] = []  # every referee a test made; conftest replays their games at teardown


def make_referee(
    tmp_path, clock: Clock | None = None, seed: int = 7, url: str | None = None, **settings
) -> MailedReferee:
    """A referee on URL (the `database_url` fixture), else on a SQLite file in TMP_PATH. Both
    are copies of a migrated database, so the migration check is skipped (0.1 s a referee)."""
    store = open_store(url or migrated_sqlite(Path(tmp_path) / "mailref.sqlite3"), migrate=False)
    r = MailedReferee(
        store,
        Settings(
            **{"from_address": "referee@ref.example", "admin_address": "gm@ref.example", **settings}
        ),
        clock or Clock(),
        random.Random(seed),
    )
    REFEREES.append(r)
    return r


class Outbox:
    """Reads what the referee queued, as the players would receive it."""

    def __init__(self, referee: Referee):
        self.referee = referee
        self.seen = 0

    def all(self) -> list[email.message.Message]:
        with self.referee.store() as s:
            raws = s.scalars(select(OutboxMessage.raw).order_by(OutboxMessage.id)).all()
        return [outgoing(bytes(raw)) for raw in raws]  # each mail parsed once a session

    def new(self) -> list[email.message.Message]:
        msgs = self.all()
        out, self.seen = msgs[self.seen :], len(msgs)
        return out

    @staticmethod
    def body(msg) -> str:
        part = msg.get_body(("plain",))
        return part.get_content() if part else ""

    def to(self, addr: str, msgs=None, kind: str | None = None) -> list:
        return [
            m
            for m in (msgs if msgs is not None else self.all())
            if m["To"] == addr and (kind is None or m["X-Mailref-Kind"] == kind)
        ]


def wait_for(pred, timeout: float = 30.0):
    """Poll PRED until it is truthy (a daemon in another process is doing the work)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.1)
    return pred()


def last_to(referee, who: str, game: str) -> str:
    """The Message-ID of the newest mail the game at GAME sent WHO: a Reply to it is WHO's own,
    as the GM's [Results] and [Publish] must be (SPEC §2.2)."""
    sent = [m for m in Outbox(referee).to(who) if game in str(m["From"])]
    return str(sent[-1]["Message-ID"])


def send_mail(referee, frm: str, to: str, subject: str, body: str = "", envelope=True, **kw):
    """The one way the tests send a person's mail: as the SMTP listener hands it to the referee,
    with its envelope (ENVELOPE=False: none, as a poller's mail without Delivered-To has)."""
    raw = mail(frm, to, subject, body, **kw)
    return deliver(referee, raw, "smtp", frm, [to]) if envelope else deliver(referee, raw, "smtp")


def maildir_mails(site: Path) -> list:
    """What a daemon run in SITE wrote to its outbox Maildir."""
    p = site / "var" / "outbox"
    # cur/ last: the daemon may be creating the folders right now.
    return list(mailbox.Maildir(str(p))) if (p / "cur").exists() else []


def assert_replays(referee) -> None:
    """Every game rebuilt from its journal equals its live state (what `mailref replay` checks),
    archived matters included."""
    from mailref.door import full_state
    from mailref.engine.archive import merge
    from mailref.engine.replay import differences, replay
    from mailref.store import ArchivedMatter, Game, JournalEntry
    from mailref.store.archived import archived, journal
    from mailref.store.reads import open_plain

    # `mailref replay` reads with the database's own driver alone (store/reads.py).
    plain = open_plain(referee.store.engine.url.render_as_string(hide_password=False))
    try:
        with referee.store() as s:
            for g in s.query(Game):
                entries = [
                    (e.action, e.at, e.draws)
                    for e in s.query(JournalEntry)
                    .filter_by(game_id=g.id)
                    .order_by(JournalEntry.seq)
                ]
                matters = [
                    (m.collection, m.data)
                    for m in s.query(ArchivedMatter)
                    .filter_by(game_id=g.id)
                    .order_by(ArchivedMatter.id)
                ]
                # What `mailref replay` reads (as text on SQLite) is what the typed columns give.
                assert journal(s, g.id) == entries
                assert archived(s, g.id) == matters
                if plain is not None:
                    assert plain.journal(g.id) == entries and plain.archived(g.id) == matters
                    assert plain.games(g.slug) == [(g.id, g.slug, g.initial, g.state)]
                cold: list = []
                rebuilt = replay(g.initial, entries, cold)
                assert differences(g.state, rebuilt) == []
                assert differences(full_state(s, g), merge(rebuilt, cold)) == []
    finally:
        if plain is not None:
            plain.conn.close()


# Two Eire players who may both join (Color, Tribe and Origin free), and their addresses.
EIRE_PLAYERS = {
    "Finn": "Color: Green\nTribe: Plainsmen\nOrigin: Llanc",
    "Maeve": "Color: Red\nTribe: Plainsmen\nOrigin: Donal",
}


def player_addr(name: str) -> str:
    return f"{name.lower()}@players.example"

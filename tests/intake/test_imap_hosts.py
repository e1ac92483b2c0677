"""The IMAP poller against servers as hosts run them: a message the server cannot
deliver, no MOVE or UIDPLUS, an `INBOX.` namespace with `.` for a separator, IDLE dropped
silently or with BYE. Each against a real Dovecot set up to behave that way."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from mailref.config import Imap
from mailref.mail.imap import Poller
from support.dovecot import PASSWORD, USER, Dovecot, _mail_user
from support.helpers import Outbox, mail, wait_for

G = "nomes@ref.example"
pytestmark = [pytest.mark.dovecot, pytest.mark.spec("2.1")]


@contextmanager
def server(**kw) -> Iterator[Dovecot]:
    """A Dovecot of the test's own, set up as KW says (tests/support/dovecot.py)."""
    root = Path(tempfile.mkdtemp(prefix="mailref-dovecot-"))
    d = Dovecot(root, **kw).start()
    try:
        yield d
    finally:
        d.stop()
        shutil.rmtree(root, ignore_errors=True)


def cfg(d: Dovecot, folder: str = "games", **kw) -> Imap:
    kw.setdefault("processed_folder", f"{folder}-done")
    kw.setdefault("rejected_folder", f"{folder}-rejected")
    return Imap(
        host="127.0.0.1",
        port=d.port,
        ssl=False,
        username=USER,
        password=PASSWORD,
        folder=folder,
        **kw,
    )


@contextmanager
def running(poller: Poller) -> Iterator[Poller]:
    """The poller's own loop (reconnects and all) in a thread, as the daemon runs it."""
    t = threading.Thread(target=poller.run, daemon=True)
    t.start()
    try:
        yield poller
    finally:
        poller.stop.set()
        t.join(30)


def acks(referee) -> list[str]:
    # The answer to each [Join]: its confirmation (SPEC §2.3).
    return sorted(m["To"] for m in Outbox(referee).all() if m["X-Mailref-Kind"] == "confirm")


def count(c, folder: str) -> int:
    return c.folder_status(folder, ["MESSAGES"])[b"MESSAGES"]


def broken_message(d: Dovecot, folder: str, c, how: str) -> None:
    """A message Dovecot drops the connection at: a Maildir file whose name gives a wrong size
    (a copied or restored mailbox), or one it may not read that claims 100 MB (only its
    header is asked for: over the size limit)."""
    user = _mail_user()
    name = "1700000000.M1P1.broken," + (
        "S=10,W=10:2," if how == "wrong size" else "S=100000000,W=100000000:2,"
    )
    path = d.root / "mail" / USER / f".{folder}" / "cur" / name
    path.write_bytes(
        mail("carol@x.org", G, "[Join]", "Name: Carol\n" + "x" * 3000).replace(b"\r\n", b"\n")
    )
    os.chown(path, user.pw_uid, user.pw_gid)
    if how == "unreadable":
        path.chmod(0)
    c.select_folder(folder)  # the server gives it its UID now, before the next mail's
    c.noop()


@pytest.mark.parametrize("how", ["wrong size", "unreadable"])
def test_a_message_the_server_cannot_deliver_does_not_hold_the_mail_behind_it(referee, caplog, how):
    with server() as d:
        c = d.client()
        c.create_folder("games")
        referee.create_game("nomes", "sidekick", G)
        c.append("games", mail("alice@x.org", G, "[Join]", "Name: Alice"))
        broken_message(d, "games", c, how)
        c.append("games", mail("bob@x.org", G, "[Join]", "Name: Bob"))
        with caplog.at_level("INFO", "mailref"), running(Poller(cfg(d), referee)):
            # Was: the batch's FETCH lost the connection, the next pass the same, for ever.
            assert wait_for(lambda: acks(referee) == ["alice@x.org", "bob@x.org"], 60), acks(
                referee
            )
            assert wait_for(lambda: count(c, "games-done") == 2, 10)
        said = [r.getMessage() for r in caplog.records if "could not be read" in r.getMessage()]
        assert len(said) == 1 and "UID 2" in said[0] and "left in the folder" in said[0], said
        # The fault while it lasted, and the skip: Dovecot's "Internal error ... [time]" was a
        # new line at each try.
        warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
        assert len(warnings) == 2, warnings
        c.select_folder("games")
        assert c.search(["ALL"]) == [2], c.fetch(
            "1:*", ["ENVELOPE"]
        )  # left for the operator, never answered
        c.logout()


def test_a_host_with_an_inbox_dot_namespace_files_into_the_folders_as_configured(referee):
    # Courier and cPanel hosts: every folder under "INBOX.", "." between levels. The defaults
    # (mailref/processed) could not be created; mail was answered, never filed, read again
    # each second, and the line blamed [imap] folder.
    with server(separator=".", prefix="INBOX.") as d:
        c = d.client()
        c.create_folder("INBOX.games")
        referee.create_game("nomes", "sidekick", G)
        c.append("INBOX.games", mail("alice@x.org", G, "[Join]", "Name: Alice"))
        c.append("INBOX.games", mail("mailer-daemon@x.org", G, "auto reply"))
        poller = Poller(
            cfg(
                d,
                "games",
                processed_folder="mailref/processed",
                rejected_folder="Spiele/Partie terminée",
            ),
            referee,
        )  # a space, non-ASCII
        pc = poller.connect()
        assert poller.drain(pc) == 2
        assert poller.drain(pc) == 0
        pc.logout()
        assert count(c, "INBOX.games") == 0
        assert count(c, "INBOX.mailref.processed") == 1
        assert count(c, "INBOX.Spiele.Partie terminée") == 1
        assert acks(referee) == ["alice@x.org"]
        # Subscribed: a GM's client that shows subscribed folders only (most) shows them.
        assert {f for _, _, f in c.list_sub_folders()} >= {
            "INBOX.mailref.processed",
            "INBOX.Spiele.Partie terminée",
        }
        c.logout()


def test_a_folder_the_server_refuses_is_one_line_naming_its_key_and_no_mail_is_lost(
    referee, dovecot, caplog
):
    c = dovecot.client()
    folder = f"refused{threading.get_ident() % 10**6}"
    for f in (folder, f"{folder}-done"):
        if c.folder_exists(f):
            c.delete_folder(f)
    c.create_folder(folder)
    referee.create_game("nomes", "sidekick", G)
    c.append(folder, mail("alice@x.org", G, "[Join]", "Name: Alice"))
    poller = Poller(
        cfg(dovecot, folder, rejected_folder="~rejected"), referee
    )  # Dovecot refuses a leading ~
    with caplog.at_level("INFO", "mailref"), running(poller):
        assert wait_for(
            lambda: any("[imap] rejected_folder" in r.getMessage() for r in caplog.records), 20
        )
        time.sleep(3)  # more tries: still one line
    said = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(said) == 1 and "'~rejected'" in said[0] and "Invalid mailbox name" in said[0], said
    assert "[imap] folder" not in said[0]
    assert count(c, folder) == 1 and acks(referee) == []  # not read until it can be filed
    c.logout()


NO_MOVE_NO_UIDPLUS = "IMAP4rev1 LITERAL+ SASL-IR LOGIN-REFERRALS ID ENABLE IDLE NAMESPACE"


def test_without_move_or_uidplus_a_message_a_person_marked_deleted_is_neither_read_nor_expunged(
    referee,
):
    with server(capabilities=NO_MOVE_NO_UIDPLUS) as d:
        c = d.client()
        assert b"UIDPLUS" not in c.capabilities() and b"MOVE" not in c.capabilities()
        c.create_folder("games")
        referee.create_game("nomes", "sidekick", G)
        # The GM's client marked it deleted (Thunderbird's "mark as deleted"), not expunged yet.
        c.append("games", mail("dave@x.org", G, "[Join]", "Name: Dave"), flags=[b"\\Deleted"])
        c.append("games", mail("alice@x.org", G, "[Join]", "Name: Alice"))
        c.append("games", mail("bob@x.org", G, "[Join]", "Name: Bob"))
        poller = Poller(cfg(d), referee)
        pc = poller.connect()
        assert poller.drain(pc) == 2
        assert poller.drain(pc) == 0
        pc.logout()
        assert acks(referee) == ["alice@x.org", "bob@x.org"]  # was: Dave joined too
        c.select_folder("games")
        left = c.fetch("1:*", ["FLAGS", "ENVELOPE"])  # was: gone for good, filed as processed
        assert [
            (m[b"ENVELOPE"].from_[0].mailbox, b"\\Deleted" in m[b"FLAGS"]) for m in left.values()
        ] == [(b"dave", True)]
        assert count(c, "games-done") == 2
        c.logout()


# ---- IDLE as networks and hosts end it ---------------------------------------------------


class Path_:
    """A TCP path to the server that a test can break as networks do: FREEZE its connections
    (a NAT that forgot them: nothing arrives, nothing is said), CUT them (closed without a
    word), or end them with BYE (a host's "* BYE" and a close). A new connection works.
    ENDING, when set, is a BYE sent in the same packet as the next "+ idling" (a host shutting
    down as IDLE begins), and the connection closed after it. REFUSING_IDLE, when set, is what
    the next IDLE command is answered with instead of "+ idling" (a host's BYE as it shuts
    down, or b"" for a close without a word), the command never reaching the server."""

    def __init__(self, port: int):
        import socket

        self.port_to = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.conns: list[dict] = []
        self.ending = b""
        self.refusing_idle: bytes | None = None
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import socket

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.port_to))
            conn = {"client": client, "server": server, "frozen": False, "verbs": [], "said": b""}
            self.conns.append(conn)
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(conn, a, b), daemon=True).start()

    def _pump(self, conn: dict, a, b) -> None:
        while True:
            try:
                data = a.recv(65536)
            except OSError:
                return
            if not data:
                try:
                    b.shutdown(2)
                except OSError:
                    pass
                return
            if not conn["frozen"]:
                if (
                    a is conn["client"]
                ):  # the client's commands, by their verb ("UID" for UID SEARCH)
                    verbs = [
                        line.split()[1] for line in data.split(b"\r\n") if len(line.split()) > 1
                    ]
                    conn["verbs"] += verbs
                    if self.refusing_idle is not None and verbs[-1:] == [b"IDLE"]:
                        refusal, self.refusing_idle = self.refusing_idle, None
                        self.cut(refusal)
                        return
                ending = self.ending and a is conn["server"] and data.startswith(b"+ idling")
                try:
                    b.sendall(data + self.ending if ending else data)
                except OSError:
                    return
                if a is conn["server"]:  # once the client has it: waiting() is true no sooner
                    conn["said"] = data
                if ending:
                    self.ending = b""
                    conn["frozen"] = True
                    for s in (conn["client"], conn["server"]):
                        try:
                            s.shutdown(2)
                        except OSError:
                            pass

    def live(self) -> list[dict]:
        return [c for c in self.conns if not c["frozen"] and c["client"].fileno() != -1]

    def waiting(self, idle: bool) -> bool:
        """The poller is waiting between passes: in IDLE (the server said "+ idling"), or
        polling after a pass (its last SELECT answered). Broken then, no command is under way
        (one would wait out its socket's minute)."""
        live = self.live()
        if len(live) != 1:
            return False
        verbs, said = live[0]["verbs"], live[0]["said"]
        if idle:
            return verbs[-1:] == [b"IDLE"] and said.startswith(b"+")
        return verbs[-2:] == [b"UID", b"SELECT"] and b"Select completed" in said

    def freeze(self) -> None:
        for c in self.live():
            c["frozen"] = True

    def cut(self, bye: bytes = b"") -> None:
        for c in self.live():
            c["frozen"] = True
            if bye:
                c["client"].sendall(bye)
            for s in (c["client"], c["server"]):
                try:
                    s.shutdown(2)
                except OSError:
                    pass
                s.close()

    def close(self) -> None:
        self.listener.close()
        self.cut()


@contextmanager
def idling(referee, dovecot, poll: float) -> Iterator[tuple[Path_, str, object]]:
    """A poller waiting (in IDLE where the server offers it) on a folder of its own through a
    breakable path; yields (path, folder, a client of the server's own)."""
    from datetime import timedelta

    c = dovecot.client()
    folder = f"idle{time.monotonic_ns() % 10**9}"
    c.create_folder(folder)
    referee.create_game("nomes", "sidekick", G)
    path = Path_(dovecot.port)
    poller = Poller(cfg(dovecot, folder, poll_interval=timedelta(seconds=poll)), referee)
    poller.cfg.port = path.port
    try:
        with running(poller):
            c.append(folder, mail("alice@x.org", G, "[Join]", "Name: Alice"))
            assert wait_for(lambda: acks(referee) == ["alice@x.org"], 30)
            idle = b"IDLE" in c.capabilities()
            assert wait_for(lambda: path.waiting(idle), 30)
            yield path, folder, c
    finally:
        path.close()
        c.logout()


@pytest.mark.parametrize("how", ["frozen", "closed", "bye"])
def test_mail_after_the_network_or_host_ended_idle_is_answered_with_one_line(
    referee, dovecot, caplog, how
):
    # frozen: a NAT forgot the connection: mail waited for the next IDLE renewal (9 minutes),
    # not the poll interval. closed: without a BYE, the IDLE loop spun on the dead socket at
    # full CPU until that renewal.
    poll = 3 if how == "frozen" else 3600
    with caplog.at_level("INFO", "mailref"), idling(referee, dovecot, poll) as (path, folder, c):
        before = len(caplog.records)
        if how == "frozen":
            path.freeze()
        else:
            path.cut(b"* BYE Server shutting down.\r\n" if how == "bye" else b"")
        c.append(folder, mail("bob@x.org", G, "[Join]", "Name: Bob"))
        assert wait_for(lambda: acks(referee) == ["alice@x.org", "bob@x.org"], 40), acks(referee)
    lines = [r for r in caplog.records[before:] if r.name == "mailref.imap"]
    assert [r.levelname for r in lines] == ["INFO"], [r.getMessage() for r in lines]
    said = {
        "frozen": "went silent",
        "closed": "closed the connection",
        "bye": "(BYE Server shutting down.)",
    }[how]
    assert said in lines[0].getMessage() and "connecting again" in lines[0].getMessage(), lines[
        0
    ].getMessage()


def test_a_bye_in_the_same_packet_as_idling_is_read_as_the_bye_it_is(referee, dovecot, caplog):
    # Read into imaplib's buffer with "+ idling", the BYE was taken for news, and the DONE
    # that followed on the closed connection was logged as a connection gone silent.
    with caplog.at_level("INFO", "mailref"), idling(referee, dovecot, 3600) as (path, folder, c):
        before = len(caplog.records)
        path.ending = b"* BYE Server shutting down.\r\n"
        c.append(folder, mail("bob@x.org", G, "[Join]", "Name: Bob"))
        assert wait_for(lambda: not path.ending, 30)
        c.append(folder, mail("carol@x.org", G, "[Join]", "Name: Carol"))
        assert wait_for(lambda: len(acks(referee)) == 3, 40), acks(referee)
    lines = [r.getMessage() for r in caplog.records[before:] if r.name == "mailref.imap"]
    assert len(lines) == 1 and "(BYE Server shutting down.)" in lines[0], lines


@pytest.mark.parametrize("how", ["closed", "bye"])
def test_a_host_that_ends_the_connection_as_idle_is_asked_for_is_one_line(
    referee, dovecot, caplog, how
):
    # A host shutting down as the IDLE command arrives answers it with its BYE (or closes):
    # imapclient raised "Unexpected IDLE response", logged as a fault, then "works again".
    with caplog.at_level("INFO", "mailref"), idling(referee, dovecot, 3600) as (path, folder, c):
        before = len(caplog.records)
        path.refusing_idle = b"* BYE Server shutting down.\r\n" if how == "bye" else b""
        c.append(folder, mail("bob@x.org", G, "[Join]", "Name: Bob"))
        assert wait_for(lambda: path.refusing_idle is None, 30)
        c.append(folder, mail("carol@x.org", G, "[Join]", "Name: Carol"))
        assert wait_for(lambda: len(acks(referee)) == 3, 40), acks(referee)
    lines = [r for r in caplog.records[before:] if r.name == "mailref.imap"]
    assert [r.levelname for r in lines] == ["INFO"], [r.getMessage() for r in lines]
    said = "(BYE Server shutting down.)" if how == "bye" else "the server closed the connection"
    assert said in lines[0].getMessage() and "connecting again" in lines[0].getMessage(), lines[
        0
    ].getMessage()


@pytest.mark.parametrize("how", ["frozen", "closed"])
def test_without_idle_a_connection_lost_between_polls_is_one_line(referee, caplog, how):
    # Was: the next SELECT waited a minute on a forgotten connection, then a warning and a
    # "works again"; a closed one, the same two lines.
    with (
        server(capabilities="IMAP4rev1 LITERAL+ SASL-IR ID ENABLE NAMESPACE UIDPLUS MOVE") as d,
        caplog.at_level("INFO", "mailref"),
        idling(referee, d, 2) as (path, folder, c),
    ):
        before = len(caplog.records)
        path.freeze() if how == "frozen" else path.cut()
        c.append(folder, mail("bob@x.org", G, "[Join]", "Name: Bob"))
        assert wait_for(lambda: acks(referee) == ["alice@x.org", "bob@x.org"], 40), acks(referee)
    lines = [r for r in caplog.records[before:] if r.name == "mailref.imap"]
    assert [r.levelname for r in lines] == ["INFO"], [r.getMessage() for r in lines]
    assert "waiting for the next poll; connecting again" in lines[0].getMessage()


def test_check_says_where_mail_is_filed_by_the_servers_names(tmp_path):
    from support.ops import Site

    with server(separator=".", prefix="INBOX.") as d:
        c = d.client()
        c.create_folder("INBOX.mailref.processed")
        c.logout()
        site = Site(tmp_path, smtp_in=False, extra=d.imap_toml())  # the default folders
        r = site.cli("check")
    (line,) = [x for x in r.stdout.splitlines() if "IMAP" in x]
    assert (
        line.startswith("ok")
        and "files into 'INBOX.mailref.processed' and 'INBOX.mailref.rejected' "
        "(to be created, [imap] rejected_folder)"
        in line
    ), line


def test_too_many_connections_is_not_said_to_be_a_wrong_password(tmp_path):
    from support.ops import Site

    # Shared hosts allow a few connections a mailbox; the GM's own client holds them.
    with server(conf="protocol imap {\n  mail_max_userip_connections = 1\n}\n") as d:
        gm = d.client()
        r = Site(tmp_path, smtp_in=False, extra=d.imap_toml()).cli("check")
        gm.logout()
    (line,) = [x for x in r.stdout.splitlines() if x.startswith("FAIL")]
    assert "refuses one more connection" in line and "close other mail clients" in line, line
    assert "password" not in line  # was: "check [imap] username and password"


@pytest.mark.parametrize("key", ["processed_folder", "rejected_folder"])
def test_filing_into_the_folder_read_is_refused_at_start(tmp_path, key):
    # Was: each pass moved the mail into the same folder under a new UID, read it again and
    # moved it again, for ever and at full speed.
    from mailref.config import ConfigError, load

    conf = tmp_path / "mailref.toml"
    conf.write_text(
        f'[daemon]\ndatabase = "sqlite:///x.sqlite3"\n[imap]\nfolder = "INBOX"\n{key} = "Inbox"\n'
    )
    with pytest.raises(ConfigError) as e:
        load(conf)
    assert f"[imap] {key}" in str(e.value) and "read again" in str(e.value)

"""A private PostgreSQL cluster on loopback for the tests (SPEC §6), like tests/support/dovecot.py:
`initdb` into a temp directory as the `postgres` user, its own free port, its unix socket
inside the temp directory, durability off (a throwaway cluster needs no fsync). The host's
own cluster and service are never touched. Each test gets a database as the migrated
template is: the previous test's emptied (TRUNCATE), or a copy of the template, both much
faster than migrating an empty one."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import time
from pathlib import Path

from support.dovecot import free_port

SUPERUSER = "postgres"


def postgres_bindir() -> Path | None:
    """Debian's binaries (/usr/lib/postgresql/VERSION/bin), the newest version first."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: [int(x) for x in Path(p).parent.parent.name.split(".") if x.isdigit()],
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class Postgres:
    def __init__(self, root: Path):
        self.root = root
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.bindir = postgres_bindir()
        self._names = itertools.count(1)
        self.retired: list[str] = []
        # As root, the cluster runs as `postgres` (the server refuses to run as root).
        self.user = pwd.getpwnam("postgres") if os.geteuid() == 0 else None

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _run_as(self) -> dict:
        return {"user": self.user.pw_uid, "group": self.user.pw_gid} if self.user else {}

    def start(self) -> Postgres:
        data, sockets = self.root / "data", self.root / "run"
        sockets.mkdir(parents=True, exist_ok=True)
        if self.user:
            os.chmod(self.root, 0o755)
            for p in (self.root, sockets):
                shutil.chown(p, self.user.pw_uid, self.user.pw_gid)
        subprocess.run(
            [
                str(self.bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
            cwd=self.root,
            **self._run_as(),
        )
        log = open(self.root / "postgres.log", "wb")  # noqa: SIM115 (kept open for the server's life)
        self.proc = subprocess.Popen(
            [
                str(self.bindir / "postgres"),
                "-D",
                str(data),
                "-p",
                str(self.port),
                "-k",
                str(sockets),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "fsync=off",
                "-c",
                "full_page_writes=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "max_connections=300",
                "-c",
                "shared_buffers=64MB",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=self.root,
            start_new_session=True,
            **self._run_as(),
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                self.execute("SELECT 1")
                return self
            except Exception:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(
            "postgres did not start:\n" + (self.root / "postgres.log").read_text()[-2000:]
        )

    def execute(self, sql: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(
            host="127.0.0.1",
            port=self.port,
            user=SUPERUSER,
            dbname=database,
            autocommit=True,
            connect_timeout=5,
        ) as c:
            c.execute(sql)

    def end_sessions(self, database: str) -> None:
        """End every connection to DATABASE, as a restart or an admin's pg_terminate_backend does,
        and wait until they are gone (new ones a client opens meanwhile are not waited for)."""
        import psycopg

        with psycopg.connect(
            host="127.0.0.1",
            port=self.port,
            user=SUPERUSER,
            dbname="postgres",
            autocommit=True,
            connect_timeout=5,
        ) as c:
            ours = "FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()"
            pids = [pid for (pid,) in c.execute(f"SELECT pid {ours}", (database,)).fetchall()]
            c.execute(f"SELECT pg_terminate_backend(pid) {ours}", (database,))
            deadline = time.monotonic() + 10
            while c.execute(
                "SELECT pid FROM pg_stat_activity WHERE pid = ANY(%s)", (pids,)
            ).fetchall():
                assert time.monotonic() < deadline, f"the connections to {database} did not end"
                time.sleep(0.05)

    def create_template(self, name: str = "mailref_template") -> str:
        """A database at the newest schema, to copy for each test."""
        from mailref.store import open_store

        self.execute(f'CREATE DATABASE "{name}"')
        open_store(self.url(name)).dispose()  # CREATE DATABASE … TEMPLATE needs it unused
        self.template = name
        return name

    def fresh_database(self) -> str:
        """A database as the template is: a retired one emptied (TRUNCATE, ~0.04 s), else a new
        copy of the template (CREATE DATABASE checkpoints: 0.15 s to 1 s on a busy machine)."""
        if self.retired:
            name = self.retired.pop()
            self.empty(name)
            return name
        name = f"t{os.getpid()}_{next(self._names)}"
        self.copy_template(name)
        return name

    def copy_template(self, name: str) -> None:
        import psycopg

        create = f'CREATE DATABASE "{name}" TEMPLATE "{self.template}" STRATEGY FILE_COPY'
        try:
            self.execute(create)
        except psycopg.errors.ObjectInUse:
            # A copy needs the template unused; a pooled connection left on it (a test reading
            # every store it opened) is closed first.
            self.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                f"'{self.template}'"
            )
            self.execute(create)

    def empty(self, name: str) -> None:
        """NAME back to the template's state: what a test left connected is closed (as DROP …
        WITH (FORCE) would), every table but alembic_version emptied, its ids restarted."""
        self.execute(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
        )
        self.execute(
            "DO $$ BEGIN EXECUTE (SELECT 'TRUNCATE ' || string_agg(format('%I', tablename), ', ')"
            " || ' RESTART IDENTITY CASCADE' FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'alembic_version'); END $$",
            database=name,
        )

    def retire(self, name: str) -> None:
        """NAME is emptied for the next test when it asks for a database, not now: the test's
        last teardowns (the replay of every game it played) still read it."""
        self.retired.append(name)

    def drop(self, name: str) -> None:
        self.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # "fast" shutdown; SIGTERM would wait for clients
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

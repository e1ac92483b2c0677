"""A game fixture's opening (the game created, its players joined and confirmed by mail) played
once a worker for each database and set of fixtures, then given to the later tests as the
database and the referee's memory stood after it: the same rows, ids and sequences, the same
random state, the same states held for the next batch. Each test still plays every mail of its
own, and the replay and relay checks still read the whole database after it.

The database is copied exactly: a SQLite file by the backup API (through memory), a PostgreSQL
database by COPY in binary form and its sequences by setval. MAILREF_TEST_SNAPSHOTS=0 plays every
opening afresh."""

from __future__ import annotations

import copy
import hashlib
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

ENABLED = os.environ.get("MAILREF_TEST_SNAPSHOTS", "1") != "0"


@dataclass
class Snapshot:
    data: Any  # a SQLite database in memory, or PostgreSQL's [(table, COPY bytes)]
    sequences: list[tuple[str, int | None]]
    rng: Any
    states: dict
    stuck: dict
    now: Any


_TAKEN: dict[tuple, Snapshot] = {}


def play_once(request, referee, opening: Callable[[], None]) -> None:
    """Run OPENING on REFEREE (whose database is empty), or give REFEREE what it left, when a
    test with the same fixtures, parameters, settings, clock and seed already played it."""
    key = _key(request, referee, opening)
    if key is None:
        opening()
        return
    taken = _TAKEN.get(key)
    if taken is None:
        opening()
        _TAKEN[key] = _take(request, referee)
        return
    _give(request, referee, taken)


def _key(request, referee, opening) -> tuple | None:
    if not ENABLED or not hasattr(request.node, "callspec"):
        return None
    params = dict(request.node.callspec.params)
    kind = params.pop("database_url", None)
    if kind is None:
        return None
    # Every fixture the test stands on, by the function that makes it: a module's own `referee`
    # or autouse fixture gives its tests an opening of their own.
    fixtures = request.node._fixtureinfo.name2fixturedefs
    # A test's own parameters (parametrize on the test function, asked for by no fixture) reach
    # only its body, which runs after the opening: its cases share one opening.
    asked = {a for defs in fixtures.values() for d in defs for a in d.argnames}
    params = {k: v for k, v in params.items() if k in asked or not _direct(fixtures.get(k))}
    clock = referee.clock
    return (
        f"{opening.__module__}.{opening.__qualname__}",
        tuple(
            sorted(
                f"{n}={d[-1].func.__module__}.{d[-1].func.__qualname__}"
                for n, d in fixtures.items()
            )
        ),
        repr(sorted(params.items())),
        kind,
        repr(referee.settings),
        repr(getattr(clock, "now", None)),
        hashlib.sha256(repr(referee.rng.getstate()).encode()).hexdigest() if referee.rng else "",
    )


def _direct(defs) -> bool:
    """Whether DEFS is pytest's stand-in for a parameter given to the test function itself."""
    return bool(defs) and defs[-1].func.__name__ == "get_direct_param_fixture_func"


def _kind(referee) -> str:
    return referee.store.engine.url.get_backend_name()


def _take(request, referee) -> Snapshot:
    engine = referee.store.engine
    engine.dispose()  # every write is in; nothing of it is held open
    if _kind(referee) == "sqlite":
        data, sequences = sqlite3.connect(":memory:", check_same_thread=False), []
        con = sqlite3.connect(engine.url.database)
        try:
            con.backup(data)
        finally:
            con.close()
    else:
        data, sequences = _pg_take(request.getfixturevalue("postgres"), engine.url.database)
    return Snapshot(
        data,
        sequences,
        referee.rng.getstate() if referee.rng else None,
        copy.deepcopy(referee.states),
        dict(referee.stuck),
        getattr(referee.clock, "now", None),
    )


def _give(request, referee, taken: Snapshot) -> None:
    engine = referee.store.engine
    engine.dispose()
    if _kind(referee) == "sqlite":
        target = sqlite3.connect(engine.url.database)
        try:
            taken.data.backup(target)
        finally:
            target.close()
    else:
        _pg_give(request.getfixturevalue("postgres"), engine.url.database, taken)
    if referee.rng is not None:
        referee.rng.setstate(taken.rng)
    referee.states = copy.deepcopy(taken.states)
    referee.stuck = dict(taken.stuck)
    if taken.now is not None:
        referee.clock.now = taken.now


def _pg_connect(pg, database: str):
    import psycopg

    return psycopg.connect(
        host="127.0.0.1", port=pg.port, user="postgres", dbname=database, autocommit=True
    )


def _pg_take(pg, database: str) -> tuple[list[tuple[str, bytes]], list[tuple[str, int | None]]]:
    with _pg_connect(pg, database) as c:
        tables = [
            t
            for (t,) in c.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                "AND tablename <> 'alembic_version' ORDER BY tablename"
            ).fetchall()
        ]
        data = []
        for t in tables:
            out = bytearray()
            with c.cursor().copy(f'COPY "{t}" TO STDOUT (FORMAT binary)') as cp:
                for chunk in cp:
                    out += chunk
            data.append((t, bytes(out)))
        sequences = c.execute(
            "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public' "
            "ORDER BY sequencename"
        ).fetchall()
    return data, sequences


def _pg_give(pg, database: str, taken: Snapshot) -> None:
    with _pg_connect(pg, database) as c, c.transaction():
        c.execute("SET LOCAL session_replication_role = replica")  # rows in any table order
        for t, rows in taken.data:
            with c.cursor().copy(f'COPY "{t}" FROM STDIN (FORMAT binary)') as cp:
                cp.write(rows)
        for name, last in taken.sequences:
            if last is None:
                c.execute("SELECT setval(%s, 1, false)", (name,))
            else:
                c.execute("SELECT setval(%s, %s, true)", (name, last))

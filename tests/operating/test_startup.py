"""A command's start-up loads what that command uses (SPEC §8: `mailref replay`, start-up
included, ≥ 5,000 journal entries/s): not the daemon, mail, templates, the site or Alembic
when the schema is already the newest."""

from __future__ import annotations

import pytest

from support.cli import G, modules_of, run, run_here

pytestmark = pytest.mark.spec("8")

# Loaded by `mailref replay` before this work: none is needed to rebuild a game and compare.
NOT_FOR_REPLAY = (
    "aiosmtpd",
    "apscheduler",
    "imapclient",
    "jinja2",
    "flufl",
    "html2text",
    "cairosvg",
    "alembic",
    "mailref.referee",
    "mailref.door",
    "mailref.daemon",
    "mailref.site",
    "mailref.write.compose",
    "mailref.read.envelope",
    "mailref.handlers",
    "email.parser",
)


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_replay_loads_neither_mail_nor_templates_nor_alembic(tmp_path):
    assert run(tmp_path, "init").returncode == 0
    create = ("game", "create", "nomes", "--variant", "sidekick", "--address", G)
    assert run_here(tmp_path, *create).returncode == 0
    assert run_here(tmp_path, "player", "add", "nomes", "Alice", "alice@x.org").returncode == 0
    done, modules = modules_of(tmp_path, "replay")
    assert done.returncode == 0, done.stderr
    assert "nomes: identical after" in done.stdout
    assert "mailref.engine.replay" in modules  # it did the work
    assert loaded(modules, NOT_FOR_REPLAY) == []
    # On SQLite not even the database layer: sqlite3 reads the file (mailref/store/reads.py).
    assert loaded(modules, ("sqlalchemy", "mailref.store.database", "mailref.store.models")) == []
    # A Sidekick game: neither the other variants nor the readers of mail text.
    assert (
        loaded(
            modules,
            (
                "mailref.engine.variants.blognomic",
                "mailref.engine.variants.imperial",
                "mailref.engine.variants.eire",
                "mailref.engine.variants.orders",
                "mailref.engine.orders",
                "mailref.read.rulechanges",
            ),
        )
        == []
    )


def test_every_variant_is_listed_under_its_own_name():
    """Variants load on first use (engine/variants/__init__.py) from a table of names."""
    from mailref.engine import VARIANTS, get_variant

    assert sorted(VARIANTS) == ["blognomic", "eire", "imperial", "orders", "sidekick"]
    for name, variant in VARIANTS.items():
        assert variant.name == name and get_variant(name) is variant


def test_help_loads_no_database_layer(tmp_path):
    done, modules = modules_of(tmp_path, "--help")
    assert done.returncode == 0 and "replay" in done.stdout
    assert (
        loaded(modules, NOT_FOR_REPLAY + ("sqlalchemy", "mailref.engine.variants", "mailref.store"))
        == []
    )


def test_the_newest_revision_is_alembics_head():
    """The start-up skips Alembic when the database is at newest_revision(): that must be the
    head Alembic itself would upgrade to."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from mailref.store import _MIGRATIONS, newest_revision

    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    assert ScriptDirectory.from_config(cfg).get_heads() == [newest_revision()]


def test_an_older_schema_is_still_upgraded(tmp_path):
    """A database a revision behind (an upgrade of mailref) is brought to the newest on start."""
    from sqlalchemy import text

    from mailref.store import newest_revision, open_store

    url = f"sqlite:///{tmp_path / 'm.sqlite3'}"
    store = open_store(url)
    with store.engine.begin() as conn:
        conn.execute(text("DROP TABLE dice_draws"))
        conn.execute(text("DROP TABLE dice_seeds"))
        conn.execute(text("DROP TABLE secrets"))
        conn.execute(text("DROP INDEX ix_inbox_game_slug_received_at"))
        conn.execute(text("UPDATE alembic_version SET version_num = '0005'"))
    store.dispose()
    store = open_store(url)
    with store.engine.connect() as conn:
        assert (
            conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            == newest_revision()
        )
        assert conn.execute(
            text("SELECT name FROM sqlite_master WHERE name = 'dice_seeds'")
        ).scalar()
    store.dispose()

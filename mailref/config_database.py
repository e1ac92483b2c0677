"""What a database URL in `mailref.toml` needs before SQLAlchemy is asked to open it: its
answer to a bad one is a traceback."""

from __future__ import annotations

import re

# The Python module SQLAlchemy loads for a dialect (and driver) it knows; "" is its default.
_DRIVER_MODULES = {
    ("sqlite", ""): "sqlite3",
    ("sqlite", "pysqlite"): "sqlite3",
    ("postgresql", ""): "psycopg2",
    ("postgresql", "psycopg2"): "psycopg2",
    ("postgresql", "psycopg"): "psycopg",
    ("postgresql", "pg8000"): "pg8000",
    ("mysql", ""): "MySQLdb",
    ("mysql", "mysqldb"): "MySQLdb",
    ("mysql", "pymysql"): "pymysql",
    ("mariadb", ""): "MySQLdb",
    ("mariadb", "pymysql"): "pymysql",
}


def database_problem(url: str) -> str | None:
    """Why URL cannot be opened, said before SQLAlchemy is asked (its answer is a traceback:
    "No module named 'psycopg2'", "Could not parse SQLAlchemy URL"). Any SQLAlchemy URL whose
    driver is installed passes; SQLite and PostgreSQL through psycopg 3 are what is tested."""
    import importlib.util

    m = re.match(r"([A-Za-z0-9]+)(?:\+([A-Za-z0-9_]+))?://", url)
    if not m:
        return 'is not a database URL like "sqlite:///var/mailref.sqlite3" or "postgresql+psycopg://user@host/db"'
    dialect, driver = m.group(1).lower(), (m.group(2) or "").lower()
    if dialect == "postgres":
        return 'is written "postgresql+psycopg://..." (SQLAlchemy does not know "postgres://")'
    if dialect == "sqlite" and url[m.end() :] and not url[m.end() :].startswith("/"):
        # "sqlite://var/x.sqlite3" names a host, "var": SQLAlchemy's answer is a traceback.
        return (
            f'needs three slashes before a file: "sqlite:///{url[m.end() :]}" (relative to this '
            "file's folder), or four before an absolute path"
        )
    if dialect not in ("sqlite", "postgresql", "mysql", "mariadb", "oracle", "mssql"):
        return (
            f'names the database kind {dialect!r}, unknown to SQLAlchemy: write "sqlite:///..." '
            'or "postgresql+psycopg://..."'
        )
    module = _DRIVER_MODULES.get((dialect, driver))
    if module is None or importlib.util.find_spec(module) is not None:
        return None
    hint = (
        'write "postgresql+psycopg://..." (psycopg 3 comes with mailref)'
        if dialect == "postgresql"
        else 'mailref is tested on "sqlite:///..." and "postgresql+psycopg://..."'
    )
    return f"needs the Python module {module}, which is not installed: {hint}"

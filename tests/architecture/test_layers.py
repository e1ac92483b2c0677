"""The house's rooms: the engine is pure rules, below transport and persistence."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).parent.parent.parent / "mailref" / "engine"
FORBIDDEN = ("mailref.store", "mailref.mail", "mailref.render", "mailref.door", "mailref.referee",
             "sqlalchemy", "smtplib", "imapclient")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_engine_imports_nothing_of_store_mail_or_render():
    offenders = {
        f"{p.relative_to(ENGINE.parent.parent)}: {name}"
        for p in ENGINE.rglob("*.py")
        for name in _imports(p)
        if name.startswith(FORBIDDEN)
    }
    assert not offenders, sorted(offenders)

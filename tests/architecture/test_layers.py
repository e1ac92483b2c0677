"""The house's rooms (docs/architecture.md): each module imports only from the rooms its room
may import, read from the code with `ast` (function-level imports too; what only a type
checker reads is left out), and no modules import each other in a circle."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "mailref" / "engine"
FORBIDDEN = (
    "mailref.store",
    "mailref.mail",
    "mailref.render",
    "mailref.door",
    "mailref.referee",
    "sqlalchemy",
    "smtplib",
    "imapclient",
)

# Module name prefix -> room; the longest prefix names a module's room.
ROOMS = {
    "mailref": "ground",  # the package's root: resource(), where the shipped files are
    "mailref.lazy": "ground",
    "mailref.timeutil": "ground",
    "mailref.safe": "ground",
    "mailref.testhooks": "ground",
    "mailref.stopsignal": "ground",
    "mailref.render": "render",
    "mailref.config": "config",
    "mailref.read": "read",
    "mailref.write": "write",
    "mailref.engine": "engine",
    "mailref.engine.change": "engine values",
    "mailref.store": "store",
    "mailref.handlers": "handlers",
    "mailref.site": "site",
    "mailref.door": "application",
    "mailref.court": "application",
    "mailref.outgoing": "application",
    "mailref.reply": "application",
    "mailref.referee": "application",
    "mailref.routing": "application",
    "mailref.claims": "application",
    "mailref.verification": "application",
    "mailref.mail": "transport",
    "mailref.cli": "faces",
    "mailref.daemon": "faces",
    "mailref.daemon_timers": "faces",
    "mailref.daemon_pages": "faces",
    "mailref.web": "faces",
    "mailref.check": "faces",
    "mailref.backup": "faces",
    "mailref.__main__": "faces",
}
BELOW_APPLICATION = {
    "ground",
    "render",
    "config",
    "read",
    "write",
    "engine",
    "engine values",
    "store",
    "handlers",
    "site",
}
# Room -> the rooms it may import (its own always).
MAY_IMPORT = {
    "ground": set(),
    "render": {"ground"},
    "config": {"ground", "write"},
    "engine values": set(),
    "engine": {"ground", "engine values"},
    "read": {"ground", "engine values"},
    "write": {"ground"},
    "store": {"ground", "read"},
    "handlers": {"ground", "engine", "engine values", "read"},
    "site": {"ground", "render", "config", "store", "engine", "engine values", "write"},
    "application": BELOW_APPLICATION,
    "transport": {"ground", "config", "render", "read", "write", "store"},
    "faces": BELOW_APPLICATION | {"application", "transport"},
}
# The engine may take from the ground only these: time, the lazy package names, the shipped files.
ENGINE_GROUND = {"mailref.timeutil", "mailref.lazy", "mailref"}


def _module_of(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[0] == "handlers":
        parts = ["mailref", *parts]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _sources() -> dict[str, Path]:
    files = [*(ROOT / "mailref").rglob("*.py"), *(ROOT / "handlers").rglob("*.py")]
    return {_module_of(p): p for p in files if "migrations" not in p.parts}


SOURCES = _sources()


def _type_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _nodes(tree: ast.AST):
    """Every node but those under `if TYPE_CHECKING:` (read by type checkers, never run)."""
    for child in ast.iter_child_nodes(tree):
        if _type_only(child):
            yield from (n for n in child.orelse for n in [n, *_nodes(n)])
            continue
        yield child
        yield from _nodes(child)


def _imports(module: str, path: Path) -> set[str]:
    """The modules of the house MODULE imports (`from PKG import sub` names PKG.sub)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _nodes(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            for a in node.names:
                found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in SOURCES else base)
    return {_house(name) for name in found if _house(name)}


def _house(name: str) -> str:
    """NAME as a module of the house ('' when it is not one): handlers import as
    mailref.handlers."""
    if name == "handlers" or name.startswith("handlers."):
        name = "mailref." + name
    while name and name not in SOURCES:
        name = name.rpartition(".")[0]
    return name if name.startswith("mailref") else ""


GRAPH = {m: _imports(m, p) - {m} for m, p in SOURCES.items()}


def room(module: str) -> str:
    best = max((p for p in ROOMS if module == p or module.startswith(p + ".")), key=len)
    return ROOMS[best]


def test_every_module_has_a_room():
    assert all(room(m) for m in SOURCES)


def test_every_import_is_one_its_room_may_make():
    offenders = set()
    for module, names in GRAPH.items():
        mine = room(module)
        for name in names:
            theirs = room(name)
            if theirs == mine or theirs in MAY_IMPORT[mine]:
                continue
            offenders.add(f"{module} ({mine}) imports {name} ({theirs})")
    assert not offenders, sorted(offenders)


def test_the_engine_takes_from_the_ground_only_time_lazy_names_and_shipped_files():
    taken = {
        name
        for m, names in GRAPH.items()
        if room(m) == "engine"
        for name in names
        if room(name) == "ground"
    }
    assert taken <= ENGINE_GROUND, sorted(taken - ENGINE_GROUND)


def test_transport_reaches_the_application_only_through_its_interface():
    reached = {
        f"{m} imports {n}"
        for m, names in GRAPH.items()
        if room(m) == "transport"
        for n in names
        if room(n) in ("application", "faces")
    }
    assert not reached, sorted(reached)


def test_no_modules_import_each_other_in_a_circle():
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in GRAPH.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert not circles, circles


def test_the_engine_imports_nothing_of_store_mail_or_render():
    offenders = {
        f"{p.relative_to(ROOT)}: {name}"
        for p in ENGINE.rglob("*.py")
        for node in ast.walk(ast.parse(p.read_text()))
        for name in (
            [a.name for a in node.names]
            if isinstance(node, ast.Import)
            else [node.module]
            if isinstance(node, ast.ImportFrom) and node.module
            else []
        )
        if name.startswith(FORBIDDEN)
    }
    assert not offenders, sorted(offenders)

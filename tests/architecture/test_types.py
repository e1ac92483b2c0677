"""The types are checked (scripts/test runs mypy, configured in pyproject.toml): strict for the
rooms below the engine and the faces over it, and a list of modules passed over that may only
shrink: no module is added to it, and each one named is a module of the package."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BASELINE = Path(__file__).with_name("types_baseline.txt")
STRICT = (
    "mailref.read",
    "mailref.write",
    "mailref.store",
    "mailref.config",
    "mailref.cli",
    "mailref.engine.mechanics",
)


def _mypy() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def _overrides(key: str) -> list[str]:
    return [m for o in _mypy()["overrides"] if o.get(key) for m in o["module"]]


def passed_over() -> list[str]:
    return _overrides("ignore_errors")


def baseline() -> set[str]:
    lines = BASELINE.read_text().splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def source_of(module: str) -> Path | None:
    """The file of MODULE (mailref.x.y or handlers.x, as mypy names them), if there is one."""
    parts = module.split(".")
    base = ROOT.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def test_no_module_is_added_to_those_passed_over():
    added = sorted(set(passed_over()) - baseline())
    assert not added, f"fix these instead of passing over them: {added}"


def test_each_module_passed_over_is_a_real_module_named_once():
    listed = passed_over()
    assert len(listed) == len(set(listed))
    assert [m for m in listed if source_of(m) is None] == []


def test_the_list_is_shorter_than_the_files_that_failed_when_mypy_first_ran():
    assert len(passed_over()) < 89


def test_the_strict_rooms_are_strict_and_not_passed_over():
    strict = set(_overrides("disallow_untyped_defs"))
    for room in STRICT:
        assert room in strict or f"{room}.*" in strict, room
    assert [m for m in passed_over() if m.startswith(STRICT)] == []


def test_mypy_runs_in_the_suite_script_after_ruff():
    script = (ROOT / "scripts" / "test").read_text()
    assert script.index("ruff format --check") < script.index(".venv/bin/mypy")
    assert _mypy()["files"] == ["mailref", "handlers"]

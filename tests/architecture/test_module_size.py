"""Every module of mailref/ and handlers/ has one job, and so stays under 500 lines
(docs/architecture.md)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 500


def _lengths() -> dict[str, int]:
    files = [*(ROOT / "mailref").rglob("*.py"), *(ROOT / "handlers").rglob("*.py")]
    return {
        p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
        for p in files
    }


LENGTHS = _lengths()


def test_no_module_is_over_500_lines():
    over = {p: n for p, n in LENGTHS.items() if n > LIMIT}
    assert not over, sorted(over.items())

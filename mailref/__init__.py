"""mailref: a mail referee for play-by-email games."""

from __future__ import annotations

from pathlib import Path

__version__ = "0.6.2"

_here = Path(__file__).resolve().parent
# In a checkout, handlers/, templates/ and data/ sit beside the package; in an installed
# wheel they are inside it (see pyproject's package-dir). Either way `mailref.handlers`
# imports and resource() finds the files.
if not (_here / "handlers").is_dir() and (_here.parent / "handlers").is_dir():
    __path__.append(str(_here.parent))  # noqa: F821 - module __path__


def resource(kind: str) -> Path:
    """The folder of shipped `templates` or `data`."""
    inside = _here / kind
    return inside if inside.is_dir() else _here.parent / kind

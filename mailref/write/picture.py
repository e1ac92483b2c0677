"""SVG pictures (the Eire map) as PNG, which every mail client shows (Gmail and Outlook do
not show SVG). CairoSVG renders them: a maintained library (Kozea, the WeasyPrint
authors) over Debian's libcairo2, whose font stack (fontconfig + DejaVu) comes with it, so
the land names render on a bare server too. resvg-py would need no C library but finds no
fonts on a machine without them, and is younger. scripts/setup installs libcairo2.

The engine stays pure: it only writes SVG text; this module is used by the door and the site."""

from __future__ import annotations

import hashlib
import logging
from functools import lru_cache

log = logging.getLogger("mailref.picture")


@lru_cache(maxsize=8)
def _render(digest: str, svg: str) -> bytes | None:
    try:
        import cairosvg
    except (ImportError, OSError) as e:  # OSError: libcairo2 is missing
        log.warning("maps go out as SVG only: CairoSVG is unusable here (%s); run scripts/setup", e)
        return None
    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=2.0)
    return png


def svg_to_png(svg: str) -> bytes | None:
    """PNG bytes of SVG (twice the nominal size, sharp on high-density screens), or None when
    the renderer is unavailable: the mail then carries the SVG and the words, never fails."""
    return _render(hashlib.sha256(svg.encode("utf-8")).hexdigest(), svg)

"""The island of Eire as an SVG map coloured by owner: hexes at the map's layout coordinates."""

from __future__ import annotations

import json
import math
from functools import lru_cache

from mailref import resource

FILL = {"Red": "#d33", "Gold": "#e6b422", "Green": "#3a3", "Cyan": "#2cc", "Orange": "#f80", "Silver": "#bbb",
        "Purple": "#839", "White": "#fff", "Teal": "#088", "Lavender": "#b9e"}
TYPE_MARK = {"Deep Forest": "♣", "Menhir Valley": "⌂", "Plains": ""}


@lru_cache(maxsize=1)
def _layout() -> dict[str, tuple[int, int]]:
    lands = json.loads((resource("data") / "eire_map.json").read_text())["lands"]
    return {x["name"]: (x["x"], x["y"]) for x in lands}


def _hexagon(cx: float, cy: float, r: float = 29.0) -> str:
    pts = [(cx + r * math.cos(math.radians(60 * i + 30)), cy + r * math.sin(math.radians(60 * i + 30))) for i in range(6)]
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def map_svg(state: dict, colors: dict[str, str]) -> str:
    pos = _layout()
    w = max(x for x, _ in pos.values()) + 60
    h = max(y for _, y in pos.values()) + 60
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
             'font-family="sans-serif" font-size="9">', f'<rect width="{w}" height="{h}" fill="#9cd"/>']
    for land in state["lands"]:
        x, y = pos[land["name"]]
        fill = FILL.get(colors.get(land["owner"] or "", ""), "#dcc9a0")
        stroke = "#036" if land["coast"] else "#654"
        parts.append(f'<polygon points="{_hexagon(x, y)}" fill="{fill}" stroke="{stroke}" stroke-width="1.5">'
                     f'<title>{_esc(land["name"])}: {land["type"]}, output {land["output"]}, '
                     f'{_esc(land["owner"] or "independent")}</title></polygon>')
        parts.append(f'<text x="{x}" y="{y - 3}" text-anchor="middle">{_esc(land["name"])}</text>')
        parts.append(f'<text x="{x}" y="{y + 9}" text-anchor="middle">{TYPE_MARK[land["type"]]}{land["output"]}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

"""The island of Eire as an SVG map coloured by owner: hexes at the map's layout coordinates."""

from __future__ import annotations

import json
import math
from functools import lru_cache

from mailref import resource
from mailref.engine.state import EireState

FILL = {
    "Red": "#d33",
    "Gold": "#e6b422",
    "Green": "#3a3",
    "Cyan": "#2cc",
    "Orange": "#f80",
    "Silver": "#bbb",
    "Purple": "#839",
    "White": "#fff",
    "Teal": "#088",
    "Lavender": "#b9e",
}
TYPE_MARK = {"Deep Forest": "♣", "Menhir Valley": "⌂", "Plains": ""}


@lru_cache(maxsize=1)
def _layout() -> dict[str, tuple[int, int]]:
    lands = json.loads((resource("data") / "eire_map.json").read_text())["lands"]
    return {x["name"]: (x["x"], x["y"]) for x in lands}


def _hexagon(cx: float, cy: float, r: float = 29.0) -> str:
    pts = [
        (cx + r * math.cos(math.radians(60 * i + 30)), cy + r * math.sin(math.radians(60 * i + 30)))
        for i in range(6)
    ]
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


NEUTRAL = "#dcc9a0"
HEX_WIDTH = 48  # inner width of a hexagon (r = 29): what a land's name must fit in
LEGEND_ROW = 16


def fitted_name(name: str) -> tuple[str, float]:
    """A land's name and a font size that fit its hexagon: smaller type first, then the
    name cut with a full stop ("Gleann Dá Loch" -> "Gleann D."), never overflowing."""
    per_char = 0.56  # sans-serif average advance, in ems
    size = min(9.0, HEX_WIDTH / (per_char * len(name)))
    if size >= 6.0:
        return name, round(size, 1)
    fit = int(HEX_WIDTH / (per_char * 6.0))
    return name[: fit - 1].rstrip() + ".", 6.0


def map_svg(state: EireState, colors: dict[str, str]) -> str:
    """The island coloured by owner, a legend (each player's colour and land count, and the
    independent lands), every land's name, type mark and output."""
    pos = _layout()
    w = max(x for x, _ in pos.values()) + 60
    players = [p for p in state["players"] if p.get("status") != "left"]
    owned = {p["name"]: sum(1 for x in state["lands"] if x["owner"] == p["name"]) for p in players}
    free = sum(1 for x in state["lands"] if x["owner"] is None)
    island_h = max(y for _, y in pos.values()) + 40
    h = island_h + 20 + LEGEND_ROW * (len(players) + 2)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        'font-family="DejaVu Sans, Verdana, sans-serif" font-size="9">',
        f'<rect width="{w}" height="{h}" fill="#9cd"/>',
    ]
    for land in state["lands"]:
        x, y = pos[land["name"]]
        fill = FILL.get(colors.get(land["owner"] or "", ""), NEUTRAL)
        stroke = "#036" if land["coast"] else "#654"
        parts.append(
            f'<polygon points="{_hexagon(x, y)}" fill="{fill}" stroke="{stroke}" '
            'stroke-width="1.5">'
            f'<title>{_esc(land["name"])}: {land["type"]}, output {land["output"]}, '
            f'{_esc(land["owner"] or "independent")}</title></polygon>'
        )
        label, size = fitted_name(land["name"])
        parts.append(
            f'<text x="{x}" y="{y - 3}" text-anchor="middle" '
            f'font-size="{size}">{_esc(label)}</text>'
        )
        parts.append(
            f'<text x="{x}" y="{y + 9}" '
            f'text-anchor="middle">{TYPE_MARK[land["type"]]}{land["output"]}</text>'
        )
    y = island_h + 20
    parts.append(f'<text x="12" y="{y}" font-size="11" font-weight="bold">Legend</text>')
    rows = [
        (
            FILL.get(colors.get(p["name"], ""), NEUTRAL),
            f'{p["name"]} ({colors.get(p["name"], "?")}): '
            f'{owned[p["name"]]} land{"" if owned[p["name"]] == 1 else "s"}',
        )
        for p in players
    ]
    rows.append((NEUTRAL, f'independent: {free} land{"" if free == 1 else "s"}'))
    for i, (fill, text) in enumerate(rows, 1):
        ry = y + LEGEND_ROW * i
        parts.append(
            f'<rect x="12" y="{ry - 9}" width="12" height="12" fill="{fill}" stroke="#333"/>'
        )
        parts.append(f'<text x="30" y="{ry + 1}" font-size="10">{_esc(text)}</text>')
    parts.append(
        f'<text x="{w - 12}" y="{y}" font-size="9" text-anchor="end">♣ Deep Forest · ⌂ Menhir '
        "Valley · "
        "number: output</text>"
    )
    parts.append("</svg>")
    return "".join(parts)


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

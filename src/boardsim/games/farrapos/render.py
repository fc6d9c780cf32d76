"""Farrapos drawn from ``envs/farrapos/farrapos.toml``: cities at their board x/y, tinted
by colour region, path lines (drawn through the data's ``via`` waypoints), owners,
units (full or reduced, chosen ones marked), VP, the battle in progress, whose turn.

Everything in Farrapos is public, so ``viewer`` and ``show_hands`` change nothing.
"""

from __future__ import annotations

import numpy as np

from boardsim.core.game import Game
from boardsim.core.header import CHANCE, H_ACTOR
from boardsim.games.farrapos import data as D
from boardsim.games.farrapos import layout as L
from boardsim.games.farrapos.names import SIDE_TITLES
from boardsim.render.common import FAINT, INK, Panel, panel_background
from boardsim.render.geometry import trim
from boardsim.render.scene import Circle, Point, Polyline, Rect, Scene, Text

BOARD_W = 876.0
BOARD_H = round(BOARD_W / float(D.DATA.raw["board"]["aspect"]))
PANEL_WIDTH = 300.0
MARGIN = 16.0
CITY_R = 11.0
SIDE_FILLS = ("#1e8449", "#d4ac0d")  # Republic green, Empire gold (as the text board)
REGION_TINTS = {
    "yellow": "#fcf3cf", "green": "#d5f5e3", "blue": "#d6eaf8",
    "red": "#fadbd8", "orange": "#fdebd0", "purple": "#e8daef",
}  # fmt: skip
TYPE_LETTERS = ("I", "C", "A", "M")
UNITS_PER_ROW = 4


def board_xy(x: float, y: float) -> Point:
    return MARGIN + x * (BOARD_W - 2 * MARGIN), MARGIN + y * (BOARD_H - 2 * MARGIN)


def _lat_lon_xy(lat: float, lon: float) -> Point:
    """The data's projection (``[board] frame``) of a waypoint given in degrees."""
    f = D.DATA.raw["board"]["frame"]
    x = (lon - f["west"]) / (f["east"] - f["west"])
    y = (f["north"] - lat) / (f["north"] - f["south"])
    return board_xy(x, y)


def city_xy(c: int) -> Point:
    return board_xy(float(D.CITY_XY[c, 0]), float(D.CITY_XY[c, 1]))


def path_points() -> list[tuple[int, int, tuple[Point, ...]]]:
    """Every path line: its two cities and its drawing through the ``via`` waypoints."""
    ids = list(D.CITY_IDS)
    out = []
    for p in D.DATA.raw["path"]:
        a, b = ids.index(p["a"]), ids.index(p["b"])
        via = tuple(_lat_lon_xy(lat, lon) for lat, lon in p.get("via", []))
        out.append((a, b, (city_xy(a), *via, city_xy(b))))
    return out


def _static(scene: Scene) -> None:
    out = scene.static
    for _a, _b, pts in path_points():
        out.append(Polyline(pts, "#9c8f74", 1.6))
    for c in range(D.NUM_CITIES):
        x, y = city_xy(c)
        tint = REGION_TINTS.get(D.DATA.region_colours[int(D.CITY_REGION[c])], "#ffffff")
        out.append(Circle(x, y, CITY_R, tint, "#3e362a", 1.0, {"city": str(c)}))
        out.append(Text(x, y, str(int(D.CITY_VP[c])), 9.0, INK, "middle", True))
        if D.CITY_PORT[c]:
            out.append(Text(x - CITY_R - 4, y - CITY_R, "⚓", 9.0, "#1f618d", "middle"))
        out.append(Text(x, y - CITY_R - 6, str(D.CITY_NAMES[c]), 8.0, "#4a4236", "middle"))
    out.append(panel_background(BOARD_W, BOARD_H, PANEL_WIDTH))


def _cities(out: list, s: np.ndarray) -> None:
    target = int(s[L.TARGET])
    for c in range(D.NUM_CITIES):
        owner, occ = int(s[L.OWNER + c]), int(s[L.OCC + c])
        x, y = city_xy(c)
        if owner >= 0:
            data = {"kind": "owner", "city": str(c), "side": str(owner), "occupied": str(occ)}
            out.append(Circle(x, y, CITY_R + 2.5, "none", SIDE_FILLS[owner],
                              3.5 if occ >= 0 else 1.5, data))  # fmt: skip
        if c == target:
            out.append(Circle(x, y, CITY_R + 7, "none", "#922b21", 2.0, {"kind": "target"}))


def _units(out: list, s: np.ndarray) -> None:
    by_city: dict[int, list[int]] = {}
    for u in range(L.P):
        loc = int(s[L.LOC + u])
        if loc >= 0:
            by_city.setdefault(loc, []).append(u)
    for c, units in by_city.items():
        x, y = city_xy(c)
        for j, u in enumerate(units):
            row, col = divmod(j, UNITS_PER_ROW)
            ux, uy = x - 2 * 9 + 9 * col, y + CITY_R + 3 + 9 * row
            side = int(D.PIECE_SIDE[u])
            reduced = int(s[L.STEP + u]) == 1
            fill = "#ffffff" if reduced else SIDE_FILLS[side]
            data = {"kind": "unit", "unit": str(D.PIECE_IDS[u]), "city": str(c)}
            stroke = "#922b21" if s[L.SEL + u] else SIDE_FILLS[side]
            out.append(Rect(ux, uy, 8, 8, fill, stroke, 1.6 if s[L.SEL + u] else 1.0, data))
            out.append(Text(ux + 4, uy + 4, TYPE_LETTERS[int(D.PIECE_TYPE[u])], 6.0,
                            INK if reduced else "#ffffff", "middle", True))  # fmt: skip


def _panel(out: list, s: np.ndarray) -> None:
    panel = Panel(BOARD_W + 14, 22, PANEL_WIDTH - 28, out)
    phase, side = int(s[L.PHASE]), int(s[L.SIDE])
    panel.line(f"Farrapos {D.FIRST_YEAR + phase - 1}", 15.0, True)
    panel.line(f"phase {phase}, turn {int(s[L.TURN])}", 12.0)
    w = int(s[L.WINNER])
    if w >= 0:
        words = "draw" if w == L.DRAW else f"{SIDE_TITLES[w]} wins"
        panel.line(words, 13.0, True, "#7b241c", data={"kind": "turn", "player": "-1"})
    else:
        actor = int(s[H_ACTOR])
        who = "chance (dice)" if actor == CHANCE else SIDE_TITLES[actor]
        panel.line(f"{SIDE_TITLES[side]}'s turn", 13.0, True, swatch=SIDE_FILLS[side])
        panel.line(f"to act: {who} ({L.MODE_NAMES[int(s[L.MODE])]})", 11.0,
                   data={"kind": "turn", "player": str(actor)})  # fmt: skip
    panel.gap()
    for p in range(2):
        vp = int(s[L.VP + p])
        data = {"kind": "score", "player": str(p), "vp": str(vp)}
        panel.line(f"{SIDE_TITLES[p]}  {vp} VP", 13.0, True, swatch=SIDE_FILLS[p], data=data)
    target = int(s[L.TARGET])
    if target >= 0:
        panel.gap()
        panel.line(f"battle for {D.CITY_NAMES[target]}, round {int(s[L.ROUND])}", 11.0, True)
        panel.line(f"attack {int(s[L.STR_A])}, die {int(s[L.DIE_A])}", 11.0)
        panel.line(f"defence {int(s[L.STR_D])}, die {int(s[L.DIE_D])}", 11.0)
    panel.gap()
    for p in range(2):
        mine = D.PIECE_SIDE == p
        reserve = int(np.sum(mine & (s[L.LOC_SLICE] == L.LOC_RESERVE)))
        gone = int(np.sum(mine & (s[L.LOC_SLICE] == L.LOC_ELIMINATED)))
        panel.line(f"{SIDE_TITLES[p]}: {reserve} in reserve, {gone} eliminated", 11.0)
    panel.gap()
    panel.line("I infantry, C cavalry, A artillery, M militia", 9.0, fill=FAINT)
    panel.line("white square: reduced face; red edge: chosen", 9.0, fill=FAINT)
    panel.line("ring: owner (thick while occupied)", 9.0, fill=FAINT)


def draw(game: Game, state: np.ndarray, viewer: int | None, show_hands: bool) -> Scene:
    """Farrapos as a scene (see the module docstring)."""
    scene = Scene(
        int(BOARD_W + PANEL_WIDTH), int(BOARD_H), "#f4efe1", "Farrapos", static_key="farrapos"
    )
    _static(scene)
    _cities(scene.dynamic, state)
    _units(scene.dynamic, state)
    _panel(scene.dynamic, state)
    return scene


__all__ = ["draw", "path_points", "trim"]

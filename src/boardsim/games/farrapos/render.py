"""Farrapos drawn from ``envs/farrapos/farrapos.toml``: cities at their board x/y, tinted
by colour region, path lines (drawn through the data's ``via`` waypoints), owners,
units (full or reduced, chosen ones marked), VP, the battle in progress, whose turn.

Everything in Farrapos is public, so ``viewer`` and ``show_hands`` change nothing.
"""

from __future__ import annotations

import numpy as np

from boardsim.core import header as H
from boardsim.core.game import Game
from boardsim.games.farrapos import data as D
from boardsim.games.farrapos import layout as L
from boardsim.games.farrapos.names import SIDE_TITLES, describe_chance, is_withheld
from boardsim.render.common import FAINT, INK, Panel, panel_background
from boardsim.render.geometry import trim
from boardsim.render.placement import Placer, label, leader, text_width
from boardsim.render.scene import Circle, Point, Polyline, Rect, Scene, Shape, Text

BOARD_W = 1150.0
BOARD_H = round(BOARD_W / float(D.DATA.raw["board"]["aspect"]))
PANEL_WIDTH = 320.0
MARGIN = 24.0
CITY_R = 13.0
SIDE_FILLS = ("#1e8449", "#d4ac0d")  # Republic green, Empire gold (as the text board)
SIDE_INK = ("#ffffff", "#222222")  # the letters on a full-face unit of each side
REGION_TINTS = {
    "yellow": "#fcf3cf", "green": "#d5f5e3", "blue": "#d6eaf8",
    "red": "#fadbd8", "orange": "#fdebd0", "purple": "#e8daef",
}  # fmt: skip
TYPE_LETTERS = ("I", "C", "A", "M")
CHIPS_PER_ROW = 4
CHIP_H = 18.0
CHIP_TEXT = 12.0
NAME_SIZE = 12.0
RING_R = CITY_R + 7  # the target ring, the widest thing drawn around a city


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
        out.append(Text(x, y, str(int(D.CITY_VP[c])), 12.0, INK, "middle", True))
    out.append(panel_background(BOARD_W, BOARD_H, PANEL_WIDTH))


def city_label(c: int) -> str:
    """A city's name on the board, ports marked with an anchor."""
    return ("⚓ " if D.CITY_PORT[c] else "") + str(D.CITY_NAMES[c])


def _placer() -> Placer:
    """The board's placer with every city (and the ring around it) taken."""
    placer = Placer(BOARD_W, BOARD_H)
    for c in range(D.NUM_CITIES):
        x, y = city_xy(c)
        placer.block((x - RING_R, y - RING_R, x + RING_R, y + RING_R))
        placer.add_node((x, y), CITY_R)
    for _a, _b, pts in path_points():  # no label or unit block on a path
        placer.block_line(pts)
    return placer


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


def unit_groups(s: np.ndarray, c: int) -> list[tuple[int, int, bool, bool, list[int]]]:
    """The units in city ``c`` grouped as drawn: (side, type, reduced, chosen, units)."""
    groups: dict[tuple[int, int, bool, bool], list[int]] = {}
    for u in range(L.P):
        if int(s[L.LOC + u]) == c:
            key = (int(D.PIECE_SIDE[u]), int(D.PIECE_TYPE[u]), int(s[L.STEP + u]) == 1,
                   int(s[L.SEL + u]) in (L.SEL_LAND, L.SEL_SEA))  # fmt: skip
            groups.setdefault(key, []).append(u)
    return [(*key, units) for key, units in sorted(groups.items())]


def _chip(x: float, y: float, c: int, group: tuple) -> tuple[list[Shape], float]:
    """One chip: the count and letter of a group of like units; returns (shapes, width)."""
    side, kind, reduced, chosen, units = group
    text = (str(len(units)) if len(units) > 1 else "") + TYPE_LETTERS[kind]
    w = text_width(text, CHIP_TEXT, True) + 10
    fill = "#ffffff" if reduced else SIDE_FILLS[side]
    stroke = "#922b21" if chosen else ("#3e362a" if not reduced else SIDE_FILLS[side])
    data = {
        "kind": "unit",
        "units": " ".join(str(D.PIECE_IDS[u]) for u in units),
        "city": str(c),
        "side": str(side),
        "face": "reduced" if reduced else "full",
    }
    ink = INK if reduced else SIDE_INK[side]
    return [
        Rect(x, y, w, CHIP_H, fill, stroke, 2.5 if chosen or reduced else 1.0, data),
        Text(x + w / 2, y + CHIP_H / 2, text, CHIP_TEXT, ink, "middle", True),
    ], w


def _unit_block(out: list, placer: Placer, s: np.ndarray, c: int) -> None:
    groups = unit_groups(s, c)
    if not groups:
        return
    rows = [groups[i : i + CHIPS_PER_ROW] for i in range(0, len(groups), CHIPS_PER_ROW)]
    widths = [sum(_chip(0, 0, c, g)[1] + 3 for g in row) - 3 for row in rows]
    w, h = max(widths), len(rows) * (CHIP_H + 3) - 3
    anchor = city_xy(c)
    placed = placer.place(anchor, w + 2, h + 2, RING_R - 4, leader_after=12)
    if placed.far:
        out.append(leader(anchor, CITY_R, placed.box))
    y = placed.y + 1
    for row in rows:
        x = placed.x + 1
        for g in row:
            shapes, cw = _chip(x, y, c, g)
            out.extend(shapes)
            x += cw + 3
        y += CHIP_H + 3


def _units_and_names(out: list, s: np.ndarray) -> None:
    """Unit blocks first (nearest their city), then every city's name where room is left."""
    placer = _placer()
    for c in range(D.NUM_CITIES):
        _unit_block(out, placer, s, c)
    for c in range(D.NUM_CITIES):
        out.extend(label(placer, city_xy(c), city_label(c), NAME_SIZE, "#3b3329", RING_R - 5,
                         data={"kind": "name", "city": str(c)}))  # fmt: skip


def _panel(out: list, s: np.ndarray, params: np.ndarray) -> None:
    panel = Panel(BOARD_W + 14, 22, PANEL_WIDTH - 28, out)
    phase, side = int(s[L.PHASE]), int(s[L.SIDE])
    panel.line(f"Farrapos {D.FIRST_YEAR + phase - 1}", 15.0, True)
    panel.line(f"phase {phase}, turn {int(s[L.TURN])}", 12.0)
    w = int(s[L.WINNER])
    if w >= 0:
        words = "draw" if w == L.DRAW else f"{SIDE_TITLES[w]} wins"
        panel.line(words, 13.0, True, "#7b241c", data={"kind": "turn", "player": "-1"})
    else:
        actor = int(s[H.H_ACTOR])
        who = "chance (dice)" if actor == H.CHANCE else SIDE_TITLES[actor]
        panel.line(f"{SIDE_TITLES[side]}'s turn", 13.0, True, swatch=SIDE_FILLS[side])
        panel.line(f"to act: {who} ({L.MODE_NAMES[int(s[L.MODE])]})", 12.0,
                   data={"kind": "turn", "player": str(actor)})  # fmt: skip
    panel.gap()
    for p in range(2):
        vp = int(s[L.VP + p])
        data = {"kind": "score", "player": str(p), "vp": str(vp)}
        panel.line(f"{SIDE_TITLES[p]}  {vp} VP", 13.0, True, swatch=SIDE_FILLS[p], data=data)
    target = int(s[L.TARGET])
    if target >= 0:
        panel.gap()
        panel.line(f"battle for {D.CITY_NAMES[target]}, round {int(s[L.ROUND])}", 12.0, True)
        panel.line(f"attack {int(s[L.STR_A])}, die {int(s[L.DIE_A])}", 12.0)
        panel.line(f"defence {int(s[L.STR_D])}, die {int(s[L.DIE_D])}", 12.0)
    panel.gap()
    out_of_game = np.array([is_withheld(params, u) for u in range(D.NUM_PIECES)])
    for p in range(2):
        mine = D.PIECE_SIDE == p
        reserve = int(np.sum(mine & (s[L.LOC_SLICE] == L.LOC_RESERVE) & ~out_of_game))
        gone = int(np.sum(mine & (s[L.LOC_SLICE] == L.LOC_ELIMINATED)))
        withheld = int(np.sum(mine & out_of_game))
        extra = f", {withheld} withheld" if withheld else ""
        panel.line(f"{SIDE_TITLES[p]}: {reserve} in reserve, {gone} eliminated{extra}", 12.0)
    panel.gap()
    panel.line("I infantry, C cavalry, A artillery, M militia; 3I: three infantry", 11.0,
               fill=FAINT)  # fmt: skip
    panel.line("white chip: reduced face; red edge: chosen", 11.0, fill=FAINT)
    panel.line("ring: owner (thick while occupied); ⚓ port", 11.0, fill=FAINT)


def draw(game: Game, state: np.ndarray, viewer: int | None, show_hands: bool) -> Scene:
    """Farrapos as a scene (see the module docstring)."""
    scene = Scene(
        int(BOARD_W + PANEL_WIDTH),
        int(BOARD_H),
        "#f4efe1",
        "Farrapos",
        static_key="farrapos",
        board_width=int(BOARD_W),
    )
    _static(scene)
    _cities(scene.dynamic, state)
    _units_and_names(scene.dynamic, state)
    _panel(scene.dynamic, state, game.params)
    return scene


__all__ = ["chance_text", "city_label", "draw", "path_points", "trim", "unit_groups"]


def chance_text(game: Game, state: np.ndarray, outcome: int, player: int) -> str:
    """What ``player`` may see of the chance outcome about to happen (a roll, a draw)."""
    return describe_chance(game.params, state, outcome, player)

"""Hispania drawn from ``envs/hispania/board.toml``: cities and seas at their board x/y,
links (with their bend points and segment marks), roads, revolts, garrisons, armies,
generals, fleets, the time and turn tracks, and the Roman treasury.

Everything in Hispania is public, so ``viewer`` and ``show_hands`` change nothing.
"""

from __future__ import annotations

import numpy as np

from boardsim.core.game import Game
from boardsim.core.header import CHANCE, H_ACTOR
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.names import GENERAL_NAMES, space_label
from boardsim.render.common import FAINT, INK, Panel, panel_background
from boardsim.render.geometry import segment_marks, trim
from boardsim.render.scene import Circle, Point, Polyline, Rect, Scene, Text

BOARD_W = 860.0
BOARD_H = round(BOARD_W / float(D.BOARD.raw["projection"]["aspect"]))
PANEL_WIDTH = 300.0
MARGIN = 14.0
CITY_R = 10.0
SEA_R = 17.0
GENERAL_FILLS = ("#c0392b", "#f1c40f", "#2e86c1", "#ffffff")  # red, yellow, blue, white
GENERAL_LETTERS = ("U", "C", "K", "P")
LEGIO_FILL = "#7d3c98"
PROVINCE_TINTS = (
    "#f9e79f", "#f5cba7", "#d7bde2", "#a9dfbf", "#aed6f1", "#d5dbdb", "#f1948a", "#fdebd0",
)  # I..VI, Ulterior, Citerior  # fmt: skip
ROAD = "#8e5b2a"


def board_xy(x: float, y: float) -> Point:
    """Board coordinates (0..1) to canvas pixels."""
    return MARGIN + x * (BOARD_W - 2 * MARGIN), MARGIN + y * (BOARD_H - 2 * MARGIN)


def space_xy(s: int) -> Point:
    return board_xy(float(D.BOARD.space_x[s]), float(D.BOARD.space_y[s]))


def _radius(s: int) -> float:
    return SEA_R if s >= D.FIRST_SEA else CITY_R


def link_points(li: int) -> tuple[Point, ...]:
    """The link's drawing: its two spaces and the data's bend points between them."""
    raw = D.BOARD.raw["links"][li]
    a, b = int(D.LINK_A[li]), int(D.LINK_B[li])
    via = tuple(
        board_xy(x, y) for x, y in zip(raw.get("via_x", []), raw.get("via_y", []), strict=False)
    )
    return (space_xy(a), *via, space_xy(b))


def _track_boxes() -> tuple[list[tuple[float, float, float, float]], list[tuple]]:
    def cells(box: list[float], n: int) -> list[tuple[float, float, float, float]]:
        x0, y0 = board_xy(box[0], box[1])
        x1, y1 = board_xy(box[2], box[3])
        w = (x1 - x0) / n
        return [(x0 + i * w, y0, w, y1 - y0) for i in range(n)]

    raw = D.BOARD.raw
    time = cells(raw["time_track"]["box"], len(D.TIME_TRACK_YEARS))
    turn = cells(raw["turn_track"]["box"], len(raw["turn_track"]["spaces"]))
    return time, turn


TIME_CELLS, TURN_CELLS = _track_boxes()


def _static(scene: Scene) -> None:
    out = scene.static
    for li in range(D.NUM_LINKS):
        pts = link_points(li)
        sea = bool(D.LINK_SEA[li])
        out.append(Polyline(pts, "#5dade2" if sea else "#9c8f74", 1.4, dash=sea))
        for x, y in segment_marks(pts, int(D.LINK_SEGMENTS[li])):
            out.append(Circle(x, y, 2.6, "#5d5446"))
    for p in D.BOARD.raw["provinces"]:
        x, y = board_xy(float(p["label_x"]), float(p["label_y"]))
        out.append(Text(x, y, p["name"], 12.0, "#7b6f5a", "middle", True))
    for s in range(D.NUM_SPACES):
        x, y = space_xy(s)
        if s >= D.FIRST_SEA:
            out.append(Circle(x, y, SEA_R, "#d6eaf8", "#2874a6", 1.2, {"space": str(s)}))
            out.append(Text(x, y + SEA_R + 8, str(D.SPACE_NAMES[s]), 9.0, "#1f618d", "middle"))
            continue
        prov = int(D.CITY_PROVINCE[s])
        tint = PROVINCE_TINTS[prov % len(PROVINCE_TINTS)]
        capital = bool(D.CITY_CAPITAL[s])
        out.append(
            Circle(x, y, CITY_R, tint, "#3e362a", 2.4 if capital else 1.0, {"space": str(s)})
        )
        number = int(D.CITY_NUMBER[s])
        if number:
            out.append(Text(x, y, str(number), 9.0, INK, "middle", True))
        out.append(Text(x, y + CITY_R + 7, str(D.SPACE_NAMES[s]), 8.0, "#4a4236", "middle"))
    for (x, y, w, h), year in zip(TIME_CELLS, D.TIME_TRACK_YEARS, strict=True):
        out.append(Rect(x, y, w, h, "#fdfefe", "#7b6f5a", 0.8))
        out.append(Text(x + w / 2, y + h - 6, str(int(year)), 7.0, FAINT, "middle"))
    for (x, y, w, h), label in zip(TURN_CELLS, D.BOARD.raw["turn_track"]["spaces"], strict=True):
        out.append(Rect(x, y, w, h, "#fdfefe", "#7b6f5a", 0.8))
        out.append(
            Text(x + w / 2, y + h / 2, "end" if " " in label else label, 8.0, FAINT, "middle")
        )
    out.append(panel_background(BOARD_W, BOARD_H, PANEL_WIDTH))


def _roads(out: list, s: np.ndarray) -> None:
    for li in range(D.NUM_LINKS):
        if s[L.ROADS + li]:
            pts = trim(link_points(li), CITY_R, CITY_R)
            out.append(Polyline(pts, ROAD, 4.0, data={"kind": "road", "link": str(li)}))


def _city_pieces(out: list, s: np.ndarray) -> None:
    for sp in range(D.NUM_SPACES):
        x, y = space_xy(sp)
        r = _radius(sp)
        revolts = int(s[L.REVOLTS + sp])
        if revolts:
            data = {"kind": "revolt", "space": str(sp), "count": str(revolts)}
            out.append(Circle(x + r, y - r, 7.0, "#922b21", "#000000", 0.8, data))
            out.append(Text(x + r, y - r, str(revolts), 9.0, "#ffffff", "middle", True))
        if sp < D.NUM_CITIES:
            stack = [int(c) for c in s[L.GARR + sp * L.STACK : L.GARR + (sp + 1) * L.STACK]]
            for j, colour in enumerate(c for c in stack if c > 0):
                fill = LEGIO_FILL if colour == L.LEGIO_COLOUR else GENERAL_FILLS[colour - 1]
                data = {"kind": "garrison", "space": str(sp), "colour": str(colour)}
                out.append(Rect(x - r - 9, y - 9 + 7 * j, 7, 6, fill, "#000000", 0.7, data))
        elif s[L.FLEET + sp - D.FIRST_SEA]:
            data = {"kind": "fleet", "space": str(sp)}
            out.append(Rect(x - 11, y - 5, 22, 10, "#1b2631", "#ffffff", 0.8, data))
            out.append(Text(x, y, "fleet", 7.0, "#ffffff", "middle"))


def _armies(out: list, s: np.ndarray) -> None:
    for k in range(L.NUM_ARMY_SLOTS):
        sp = int(s[L.ARMY_POS + k])
        if sp < 0:
            continue
        x, y = space_xy(sp)
        data = {"kind": "army", "slot": str(k), "space": str(sp)}
        out.append(Rect(x + 3, y + 2, 13, 11, "#17202a", "#ffffff", 0.8, data))
        out.append(Text(x + 9.5, y + 7.5, "S" if k == L.SPECIAL else "A", 8.0, "#ffffff", "middle"))


def _generals(out: list, s: np.ndarray) -> None:
    for g in range(L.NUM_GENERALS):
        sp = int(s[L.GEN_POS + g])
        if sp < 0:
            continue
        x, y = space_xy(sp)
        gx, gy = x - 8 + 8 * g, y - _radius(sp) - 8
        data = {"kind": "general", "general": str(g), "space": str(sp)}
        out.append(Circle(gx, gy, 6.5, GENERAL_FILLS[g], "#000000", 1.0, data))
        out.append(Text(gx, gy, GENERAL_LETTERS[g], 7.0, INK, "middle", True))


def _tracks(out: list, s: np.ndarray, year_index: int) -> None:
    track = int(s[L.TRACK])
    for i, (x, y, w, h) in enumerate(TIME_CELLS):
        if i == year_index:
            out.append(Rect(x + 1, y + 1, w - 2, h - 2, "#fcf3cf", "#b7950b", 1.2))
            out.append(
                Text(x + w / 2, y + h - 6, str(int(D.TIME_TRACK_YEARS[i])), 7.0, INK, "middle")
            )
        if i < track:
            out.append(Circle(x + w / 2, y + 7, 4.5, "#922b21", data={"kind": "track"}))
    turn = int(s[L.TURN])
    if 0 <= turn < len(TURN_CELLS):
        x, y, w, h = TURN_CELLS[turn]
        out.append(Circle(x + w - 6, y + 6, 4.0, GENERAL_FILLS[min(turn, 3)], "#000000", 0.8))


def _year_index(game: Game, s: np.ndarray) -> int:
    track = int(s[L.TRACK])
    scenario = int(game.params[L.P_SCENARIO])
    n = len(D.TIME_TRACK_YEARS)
    if int(D.SCEN_TRACK_LIMIT[scenario]) == n:
        return min(track, n - 1)
    return min(8 + track // 3, n - 1)  # The New Empire: 3 revolts a space on 54, 36, 18


def _panel(out: list, game: Game, s: np.ndarray, year_index: int) -> None:
    panel = Panel(BOARD_W + 14, 22, PANEL_WIDTH - 28, out)
    panel.line(f"Hispania, {int(D.TIME_TRACK_YEARS[year_index])} BC", 15.0, True)
    winner = int(s[L.WINNER])
    if winner:
        panel.line("ROMAN VICTORY" if winner == L.W_ROME else "HISPANIC VICTORY", 13.0, True,
                   "#7b241c", data={"kind": "turn", "player": "-1"})  # fmt: skip
    turn = int(s[L.TURN])
    panel.line(f"turn: {GENERAL_NAMES[turn]}", 12.0, swatch=GENERAL_FILLS[min(turn, 3)])
    actor = int(s[H_ACTOR])
    if not winner:
        who = "chance (dice)" if actor == CHANCE else (
            GENERAL_NAMES[actor] if 0 <= actor < 3 else "Hispano" if actor == L.HISPANO else "-"
        )  # fmt: skip
        panel.line(f"to act: {who}", 13.0, True, data={"kind": "turn", "player": str(actor)})
    panel.gap()
    panel.line(f"denarii {int(s[L.DENARII])}", 12.0, data={"kind": "score"})
    panel.line(f"revolts in reserve {int(s[L.RESERVE])}", 12.0)
    limit = int(D.SCEN_TRACK_LIMIT[int(game.params[L.P_SCENARIO])])
    panel.line(f"time track {int(s[L.TRACK])}/{limit}", 12.0)
    if int(s[L.HDENARII]):
        panel.line(f"Hispano denarii {int(s[L.HDENARII])}", 12.0)
    if int(s[L.PEND_KIND]):
        panel.line(f"target: {space_label(int(s[L.PEND_TARGET]))}", 11.0, fill="#7b241c")
    if int(s[L.COMBAT_KIND]) and (int(s[L.DIE_R]) or int(s[L.DIE_H])):
        panel.line(
            f"combat dice: Roman {int(s[L.DIE_R])}, Hispanic {int(s[L.DIE_H])}", 11.0, fill=INK
        )
    panel.gap()
    panel.line("garrisons in reserve", 11.0, True)
    for g in range(3):
        panel.line(f"{GENERAL_NAMES[g]}: {int(s[L.GARR_RESERVE + g])}", 11.0,
                   swatch=GENERAL_FILLS[g])  # fmt: skip
    off = [GENERAL_NAMES[g] for g in range(3) if int(s[L.GEN_POS + g]) < 0]
    if off:
        panel.line("off the board: " + ", ".join(off), 10.0, fill=FAINT)
    panel.gap()
    panel.line("U/C/K/P generals, A army, S special army", 9.0, fill=FAINT)
    panel.line("red disc: revolts; squares: garrisons", 9.0, fill=FAINT)
    panel.line("brown: roads; dots split links into segments", 9.0, fill=FAINT)


def draw(game: Game, state: np.ndarray, viewer: int | None, show_hands: bool) -> Scene:
    """Hispania as a scene (see the module docstring)."""
    scene = Scene(
        int(BOARD_W + PANEL_WIDTH), int(BOARD_H), "#f4efe1", "Hispania", static_key="hispania"
    )
    _static(scene)
    out = scene.dynamic
    year_index = _year_index(game, state)
    _roads(out, state)
    _city_pieces(out, state)
    _armies(out, state)
    _generals(out, state)
    _tracks(out, state, year_index)
    _panel(out, game, state, year_index)
    return scene

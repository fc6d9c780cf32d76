"""Hispania drawn from ``envs/hispania/board.toml``: cities and seas at their board x/y,
links (with their bend points and segment marks), roads, revolts, garrisons, armies,
generals, fleets, the time and turn tracks, and the Roman treasury.

Everything in Hispania is public, so ``viewer`` and ``show_hands`` change nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from boardsim.core.game import Game
from boardsim.core.header import CHANCE, H_ACTOR
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.names import GENERAL_NAMES, describe_chance, space_label
from boardsim.render.common import FAINT, INK, Panel, panel_background
from boardsim.render.geometry import segment_marks, trim
from boardsim.render.placement import Placer, label, leader, text_width
from boardsim.render.scene import Circle, Point, Polyline, Rect, Scene, Shape, Text

BOARD_W = 1100.0
BOARD_H = round(BOARD_W / float(D.BOARD.raw["projection"]["aspect"]))
PANEL_WIDTH = 320.0
MARGIN = 18.0
CITY_R = 12.0
SEA_R = 19.0
PIECE = 18.0  # height of a piece (revolt disc, army, general, fleet)
PIECE_TEXT = 12.0
NAME_SIZE = 12.0
ITEMS_PER_ROW = 4
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
    for sp in range(D.NUM_SPACES):
        x, y = space_xy(sp)
        if sp >= D.FIRST_SEA:
            out.append(Circle(x, y, SEA_R, "#d6eaf8", "#2874a6", 1.2, {"space": str(sp)}))
            continue
        prov = int(D.CITY_PROVINCE[sp])
        tint = PROVINCE_TINTS[prov % len(PROVINCE_TINTS)]
        capital = bool(D.CITY_CAPITAL[sp])
        out.append(
            Circle(x, y, CITY_R, tint, "#3e362a", 2.4 if capital else 1.0, {"space": str(sp)})
        )
        number = int(D.CITY_NUMBER[sp])
        if number:
            out.append(Text(x, y, str(number), 12.0, INK, "middle", True))
    for x, y, w, h in TIME_CELLS:
        out.append(Rect(x, y, w, h, "#fdfefe", "#7b6f5a", 0.8))
    for (x, y, w, h), name in zip(TURN_CELLS, D.BOARD.raw["turn_track"]["spaces"], strict=True):
        out.append(Rect(x, y, w, h, "#fdfefe", "#7b6f5a", 0.8))
        out.append(
            Text(x + w / 2, y + h / 2 + 4, "end" if " " in name else name, 10.0, FAINT, "middle")
        )
    out.append(panel_background(BOARD_W, BOARD_H, PANEL_WIDTH))


def _placer() -> Placer:
    """The board's placer with every space and both tracks taken."""
    placer = Placer(BOARD_W, BOARD_H)
    for sp in range(D.NUM_SPACES):
        x, y = space_xy(sp)
        r = _radius(sp) + 2
        placer.block((x - r, y - r, x + r, y + r))
        placer.add_node((x, y), _radius(sp))
    for li in range(D.NUM_LINKS):  # no label or piece block on a link
        placer.block_line(link_points(li))
    for x, y, w, h in (*TIME_CELLS, *TURN_CELLS):
        placer.block((x - 1, y - 1, x + w + 1, y + h + 1))
    return placer


def _roads(out: list, s: np.ndarray) -> None:
    for li in range(D.NUM_LINKS):
        if s[L.ROADS + li]:
            pts = trim(link_points(li), CITY_R, CITY_R)
            out.append(Polyline(pts, ROAD, 4.0, data={"kind": "road", "link": str(li)}))


Item = tuple[float, Callable[[float, float], list[Shape]]]  # width, draw(x, y)


def _disc(fill: str, text: str, ink: str, data: dict[str, str]) -> Item:
    r = PIECE / 2

    def draw(x: float, y: float) -> list[Shape]:
        return [
            Circle(x + r, y + r, r, fill, "#000000", 1.0, data),
            Text(x + r, y + r, text, PIECE_TEXT, ink, "middle", True),
        ]

    return PIECE, draw


def _box(w: float, fill: str, text: str, ink: str, data: dict[str, str]) -> Item:
    def draw(x: float, y: float) -> list[Shape]:
        return [
            Rect(x, y, w, PIECE, fill, "#ffffff", 1.0, data),
            Text(x + w / 2, y + PIECE / 2, text, PIECE_TEXT, ink, "middle", True),
        ]

    return w, draw


def _garrisons(colours: list[int], sp: int) -> Item:
    """A city's garrison stack: one 12 x 18 disc a colour, bottom first."""

    def draw(x: float, y: float) -> list[Shape]:
        out: list[Shape] = []
        for j, colour in enumerate(colours):
            fill = LEGIO_FILL if colour == L.LEGIO_COLOUR else GENERAL_FILLS[colour - 1]
            data = {"kind": "garrison", "space": str(sp), "colour": str(colour)}
            out.append(Rect(x + 13 * j, y, 12, PIECE, fill, "#000000", 0.8, data))
        return out

    return 13 * len(colours) - 1, draw


def space_items(s: np.ndarray, sp: int) -> list[Item]:
    """What stands on space ``sp``, left to right: revolts, garrisons, armies, generals,
    the fleet."""
    items: list[Item] = []
    revolts = int(s[L.REVOLTS + sp])
    if revolts:
        data = {"kind": "revolt", "space": str(sp), "count": str(revolts)}
        items.append(_disc("#922b21", str(revolts), "#ffffff", data))
    if sp < D.NUM_CITIES:
        stack = [int(c) for c in s[L.GARR + sp * L.STACK : L.GARR + (sp + 1) * L.STACK] if c > 0]
        if stack:
            items.append(_garrisons(stack, sp))
    for k in range(L.NUM_ARMY_SLOTS):
        if int(s[L.ARMY_POS + k]) == sp:
            data = {"kind": "army", "slot": str(k), "space": str(sp)}
            items.append(_box(18, "#17202a", "S" if k == L.SPECIAL else "A", "#ffffff", data))
    for g in range(L.NUM_GENERALS):
        if int(s[L.GEN_POS + g]) == sp:
            data = {"kind": "general", "general": str(g), "space": str(sp)}
            items.append(_disc(GENERAL_FILLS[g], GENERAL_LETTERS[g], INK, data))
    if sp >= D.FIRST_SEA and s[L.FLEET + sp - D.FIRST_SEA]:
        data = {"kind": "fleet", "space": str(sp)}
        items.append(_box(text_width("fleet", PIECE_TEXT, True) + 8, "#1b2631", "fleet",
                          "#ffffff", data))  # fmt: skip
    return items


def _block(out: list, placer: Placer, sp: int, items: list[Item]) -> None:
    rows = [items[i : i + ITEMS_PER_ROW] for i in range(0, len(items), ITEMS_PER_ROW)]
    w = max(sum(iw for iw, _ in row) + 3 * (len(row) - 1) for row in rows)
    h = len(rows) * (PIECE + 3) - 3
    anchor = space_xy(sp)
    placed = placer.place(anchor, w + 2, h + 2, _radius(sp), leader_after=12)
    if placed.far:
        out.append(leader(anchor, _radius(sp), placed.box))
    y = placed.y + 1
    for row in rows:
        x = placed.x + 1
        for iw, draw in row:
            out.extend(draw(x, y))
            x += iw + 3
        y += PIECE + 3


def _pieces_and_names(out: list, s: np.ndarray) -> None:
    """Each space's pieces as one block near it, then the names, then the provinces'."""
    placer = _placer()
    for sp in range(D.NUM_SPACES):
        items = space_items(s, sp)
        if items:
            _block(out, placer, sp, items)
    for sp in range(D.NUM_SPACES):
        sea = sp >= D.FIRST_SEA
        out.extend(label(placer, space_xy(sp), str(D.SPACE_NAMES[sp]), NAME_SIZE,
                         "#1f618d" if sea else "#3b3329", _radius(sp) - 3,
                         data={"kind": "name", "space": str(sp)}))  # fmt: skip
    for p in D.BOARD.raw["provinces"]:
        anchor = board_xy(float(p["label_x"]), float(p["label_y"]))
        # a province is an area, not a node: no leader line to its point
        out.extend(label(placer, anchor, p["name"], 13.0, "#8a7c62", -8.0, bold=True,
                         data={"kind": "province"}, own=False, leader_line=False))  # fmt: skip


def _tracks(out: list, s: np.ndarray, year_index: int) -> None:
    track = int(s[L.TRACK])
    for i, (x, y, w, h) in enumerate(TIME_CELLS):
        now = i == year_index
        if now:
            out.append(Rect(x + 1, y + 1, w - 2, h - 2, "#fcf3cf", "#b7950b", 1.2))
        year = str(int(D.TIME_TRACK_YEARS[i]))
        out.append(Text(x + w / 2, y + h - 8, year, 10.0, INK if now else FAINT, "middle", now))
        if i < track:
            out.append(Circle(x + w / 2, y + 12, 7.0, "#922b21", data={"kind": "track"}))
    turn = int(s[L.TURN])
    if 0 <= turn < len(TURN_CELLS):
        x, y, w, h = TURN_CELLS[turn]
        out.append(Circle(x + w / 2, y + 11, 7.0, GENERAL_FILLS[min(turn, 3)], "#000000", 0.8,
                          {"kind": "turn-marker"}))  # fmt: skip


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
        panel.line(f"target: {space_label(int(s[L.PEND_TARGET]))}", 12.0, fill="#7b241c")
    if int(s[L.COMBAT_KIND]) and (int(s[L.DIE_R]) or int(s[L.DIE_H])):
        panel.line(
            f"combat dice: Roman {int(s[L.DIE_R])}, Hispanic {int(s[L.DIE_H])}", 12.0, fill=INK
        )
    panel.gap()
    panel.line("garrisons in reserve", 12.0, True)
    for g in range(3):
        panel.line(f"{GENERAL_NAMES[g]}: {int(s[L.GARR_RESERVE + g])}", 12.0,
                   swatch=GENERAL_FILLS[g])  # fmt: skip
    off = [GENERAL_NAMES[g] for g in range(3) if int(s[L.GEN_POS + g]) < 0]
    if off:
        panel.line("off the board: " + ", ".join(off), 12.0, fill=FAINT)
    panel.gap()
    panel.line("generals: U praetor of Ulterior, C praetor of Citerior, K consul, "
               "P proconsul; A army, S special army", 11.0, fill=FAINT)  # fmt: skip
    panel.line("red disc: revolts; tall squares: garrisons (bottom first)", 11.0, fill=FAINT)
    panel.line("brown: roads; dots split links into segments", 11.0, fill=FAINT)


def draw(game: Game, state: np.ndarray, viewer: int | None, show_hands: bool) -> Scene:
    """Hispania as a scene (see the module docstring)."""
    scene = Scene(
        int(BOARD_W + PANEL_WIDTH),
        int(BOARD_H),
        "#f4efe1",
        "Hispania",
        static_key="hispania",
        board_width=int(BOARD_W),
    )
    _static(scene)
    out = scene.dynamic
    year_index = _year_index(game, state)
    _roads(out, state)
    _tracks(out, state, year_index)
    _pieces_and_names(out, state)
    _panel(out, game, state, year_index)
    return scene


def chance_text(game: Game, state: np.ndarray, outcome: int, player: int) -> str:
    """What ``player`` may see of the chance outcome about to happen (a roll, a draw)."""
    return describe_chance(game.params, state, outcome, player)

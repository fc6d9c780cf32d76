"""Pictures a player can read: no label or number overlaps another, covers a piece or a
space, or runs off the picture; pieces and their numbers are at least 12 pixels.

Every text is measured with Pillow's metrics of the font the picture is drawn with
(DejaVu Sans), at the size it is drawn at, here independently of the drawers' own
placement code; every board is checked at its start and after random play.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest
from PIL import ImageFont

import boardsim
from boardsim import render
from boardsim.render.scene import Circle, Polyline, Rect, Scene, Text

Box = tuple[float, float, float, float]
ANCHORS = {"start": "lm", "middle": "mm", "end": "rm"}
# what is a piece (drawn for the position) as opposed to the board's own marks
PIECES = {"unit", "pawn", "owned", "card", "revolt", "garrison", "army", "general", "fleet"}
CASES = {
    "liberation": ({"num_players": 6}, (0, 60, 250, 700)),
    "farrapos": ({}, (0, 40, 200, 500, 1200)),
    "hispania": ({"auto_setup": True}, (0, 5, 12, 30)),
    "hispania-setup": ({}, (0, 3, 9)),
    "hispania-variants": (
        {"auto_setup": True, "proconsvl": True, "legio_hispana": True, "terror": True},
        (0, 10, 25),
    ),
}
SEEDS = (1, 2, 3)
# how far a label joined to its node by a leader keeps from every other node (rim to box):
# "Calagurris" once sat 5 px above another city at the end of its leader (issue 38)
LEADER_APART = 20.0


@cache
def _font(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size)


def measured(t: Text, scale: float = 1.0) -> Box:
    """The box Pillow draws ``t`` into at ``scale``, in canvas pixels of scale 1."""
    x0, y0, x1, y1 = _font(max(round(t.size * scale), 6), t.bold).getbbox(
        t.text, anchor=ANCHORS[t.anchor]
    )
    return t.x + x0 / scale, t.y + y0 / scale, t.x + x1 / scale, t.y + y1 / scale


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(a: Box, b: Box) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def meets(box: Box, s: Circle | Rect) -> bool:
    """Whether the text box shares area with the shape (a circle as the disc it is)."""
    if isinstance(s, Rect):
        return overlap(box, outline(s))
    nx, ny = min(max(s.x, box[0]), box[2]), min(max(s.y, box[1]), box[3])
    return (nx - s.x) ** 2 + (ny - s.y) ** 2 < s.r**2


def within(box: Box, s: Circle | Rect) -> bool:
    """Whether the text box lies wholly on the shape (the number on a piece)."""
    if isinstance(s, Rect):
        return inside(box, outline(s))
    corners = itertools.product((box[0], box[2]), (box[1], box[3]))
    return all((x - s.x) ** 2 + (y - s.y) ** 2 <= (s.r + 1) ** 2 for x, y in corners)


def outline(s: Circle | Rect) -> Box:
    if isinstance(s, Circle):
        return s.x - s.r, s.y - s.r, s.x + s.r, s.y + s.r
    return s.x, s.y, s.x + s.w, s.y + s.h


def marked(scene: Scene) -> list[Circle | Rect]:
    """The spaces and pieces: every circle or box that names what it is."""
    return [s for s in (*scene.static, *scene.dynamic) if isinstance(s, Circle | Rect) and s.data]


def problems(scene: Scene, scale: float = 1.0) -> list[str]:
    texts = [s for s in (*scene.static, *scene.dynamic) if isinstance(s, Text) and s.text]
    boxes = [measured(t, scale) for t in texts]
    found = []
    for (a, ta), (b, tb) in itertools.combinations(zip(boxes, texts, strict=True), 2):
        if overlap(a, b):
            found.append(f"{ta.text!r} overlaps {tb.text!r}")
    for box, t in zip(boxes, texts, strict=True):
        if box[0] < 0 or box[1] < 0 or box[2] > scene.width or box[3] > scene.height:
            found.append(f"{t.text!r} is cut at the picture's edge: {box}")
        for shape in marked(scene):
            if meets(box, shape) and not within(box, shape):
                what = shape.data.get("kind") or f"space {shape.data}"
                found.append(f"{t.text!r} covers a {what}")
    return found


def positions(case: str) -> list[tuple[boardsim.Game, boardsim.State]]:
    options, moves = CASES[case]
    game = boardsim.make_game(case.split("-")[0], **options)
    out = []
    for seed in SEEDS:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed)
        for n in range(max(moves) + 1):
            if n in moves:
                out.append((game, state.clone()))
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))
    return out


@pytest.mark.parametrize("case", list(CASES))
def test_no_label_overlaps_another_or_a_piece_or_the_edge(case: str) -> None:
    for game, state in positions(case):
        for viewer, hands in ((None, False), (0, False), (None, True)):
            pic = render.scene(game, state, viewer=viewer, show_hands=hands)
            found = problems(pic)
            assert not found, f"{case}, decision {state.decisions()}: " + "; ".join(found[:8])


@pytest.mark.parametrize("case", ["liberation", "farrapos", "hispania"])
def test_labels_stay_apart_at_twice_the_size(case: str) -> None:
    for game, state in positions(case)[:3]:
        found = problems(render.scene(game, state), scale=2.0)
        assert not found, f"{case} at scale 2: " + "; ".join(found[:8])


@pytest.mark.parametrize("case", ["liberation", "farrapos", "hispania", "hispania-variants"])
def test_pieces_and_their_numbers_are_at_least_12_pixels(case: str) -> None:
    for game, state in positions(case):
        pic = render.scene(game, state, show_hands=True)
        pieces = [s for s in marked(pic) if s.data.get("kind") in PIECES]
        assert pieces or state.decisions() == 0
        for s in pieces:
            w, h = (2 * s.r, 2 * s.r) if isinstance(s, Circle) else (s.w, s.h)
            assert min(w, h) >= 12, f"{case}: a {s.data['kind']} of {w} x {h} px"
        for t in (s for s in pic.dynamic if isinstance(s, Text)):
            box = measured(t)
            if any(within(box, p) for p in pieces):
                assert t.size >= 12, f"{case}: {t.text!r} on a piece at {t.size} px"


def test_the_race_spells_colombia_as_the_country_does() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    state = game.new_initial_state(0)
    svg = render.to_svg(game, state)
    assert "Colombia" in svg and "Columbia" not in svg
    assert "Colombia" in str(state)


def _map(name: str) -> tuple[dict[int, tuple[float, float, float]], list[tuple[Box, str]]]:
    """A map's nodes (id -> x, y, radius) and its links' segments (with the link's ends
    named), from the drawer's own geometry."""
    if name == "hispania":
        from boardsim.games.hispania import data as HD
        from boardsim.games.hispania import render as HR

        nodes = {s: (*HR.space_xy(s), HR._radius(s)) for s in range(HD.NUM_SPACES)}
        lines = [
            (HR.link_points(li), f"{HD.SPACE_NAMES[HD.LINK_A[li]]}-{HD.SPACE_NAMES[HD.LINK_B[li]]}")
            for li in range(HD.NUM_LINKS)
        ]
    else:
        from boardsim.games.farrapos import data as FD
        from boardsim.games.farrapos import render as FR

        nodes = {c: (*FR.city_xy(c), FR.CITY_R) for c in range(FD.NUM_CITIES)}
        lines = [(pts, f"{FD.CITY_NAMES[a]}-{FD.CITY_NAMES[b]}") for a, b, pts in FR.path_points()]
    segs = [((*p, *q), what) for pts, what in lines for p, q in itertools.pairwise(pts)]
    return nodes, segs


def _segment_crosses(seg: Box, box: Box) -> bool:
    """Whether any point of the segment lies inside the box (sampled finely)."""
    x0, y0, x1, y1 = seg
    n = max(2, int(np.hypot(x1 - x0, y1 - y0)))
    t = np.linspace(0.0, 1.0, n + 1)
    xs, ys = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
    inside_ = (xs > box[0]) & (xs < box[2]) & (ys > box[1]) & (ys < box[3])
    return bool(inside_.any())


def _point_box(seg: Box, centre: tuple[float, float]) -> Box:
    """The point of the segment nearest ``centre``, as a box of no size."""
    x0, y0, x1, y1 = seg
    vx, vy = x1 - x0, y1 - y0
    t = ((centre[0] - x0) * vx + (centre[1] - y0) * vy) / max(vx * vx + vy * vy, 1e-9)
    t = min(max(t, 0.0), 1.0)
    return x0 + t * vx, y0 + t * vy, x0 + t * vx, y0 + t * vy


def _rim_distance(box: Box, node: tuple[float, float, float]) -> float:
    x, y, r = node
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return float(np.hypot(dx, dy)) - r


def label_problems(name: str, scene: Scene) -> list[str]:
    """Each city label: no link crosses it, it covers no other node, and its own node is
    clearly the nearest (rim to box: every other node at least 4 pixels further), or, where
    the map leaves no such room, a leader line runs from its own node to it, passing over
    no other node, and the label keeps ``LEADER_APART`` from every other node."""
    nodes, segs = _map(name)
    key = "space" if name == "hispania" else "city"
    leaders = [s for s in (*scene.static, *scene.dynamic) if isinstance(s, Polyline) and not s.data]
    found = []
    for t in (*scene.static, *scene.dynamic):
        if not (isinstance(t, Text) and t.data.get("kind") == "name"):
            continue
        box = measured(t)
        me = int(t.data[key])
        for seg, what in segs:
            if _segment_crosses(seg, box):
                found.append(f"the link {what} crosses the label {t.text!r}")
        dist = {n: _rim_distance(box, xyr) for n, xyr in nodes.items()}
        for n, d in dist.items():
            if n != me and d < 0:
                found.append(f"the label {t.text!r} covers another node ({n})")
        others = min(d for n, d in dist.items() if n != me)
        x, y, r = nodes[me]
        led = [
            ln
            for ln in leaders
            if len(ln.points) == 2
            and np.hypot(ln.points[0][0] - x, ln.points[0][1] - y) <= r + 6.0
            and _rim_distance(box, (*ln.points[1], 0.0)) < 2.0
        ]
        for ln in led:  # a leader passes no other node
            seg = (*ln.points[0], *ln.points[1])
            for n, (nx, ny, nr) in nodes.items():
                if n != me and _rim_distance(_point_box(seg, (nx, ny)), (nx, ny, nr)) < 0:
                    found.append(f"the leader of {t.text!r} passes over node {n}")
        if led and others < LEADER_APART:  # a led label sits beside no other node
            near = min((n for n in dist if n != me), key=dist.get)
            found.append(
                f"the label {t.text!r}, led from its node, sits {others:.0f} px from node "
                f"{near}: it reads as that node's"
            )
        if not led and not others >= dist[me] + 4.0:
            near = min((n for n in dist if n != me), key=dist.get)
            found.append(
                f"the label {t.text!r} is {dist[me]:.0f} px from its node but "
                f"{others:.0f} px from node {near}: whose it is is unclear"
            )
    return found


@pytest.mark.parametrize("case", ["hispania", "hispania-setup", "hispania-variants", "farrapos"])
def test_each_label_is_beside_its_own_node_and_no_link_crosses_it(case: str) -> None:
    """Issue 38: "Toletum", "Baecula" sat on links or between two cities, "Porto Alegre"
    between Triunfo and another; every map, every position of the label tests."""
    name = case.split("-")[0]
    for game, state in positions(case):
        found = label_problems(name, render.scene(game, state))
        assert not found, f"{case}, decision {state.decisions()}: " + "; ".join(found[:8])

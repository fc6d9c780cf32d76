"""Where labels and piece blocks go: measured boxes, placed so that none overlaps another.

A board drawer first blocks what is fixed (the spaces, the tracks, the side panel),
then places each piece block and each label near its space with :meth:`Placer.place`:
the first candidate position around the anchor that stays inside the canvas and meets
no box already taken. Candidates are tried nearest first, in a fixed order of
directions, so the same position always gets the same picture and a label keeps its
place from one position to the next unless a piece takes it. A block put further out
than ``leader_after`` gets a thin leader line back to its space.

Text is measured with the very font the rasterizer draws with (:func:`text_box`, Pillow's
metrics of DejaVu Sans), so what is checked is what is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from boardsim.render.scene import Circle, Point, Polyline, Rect, Shape, Text, pil_font

Box = tuple[float, float, float, float]  # x0, y0, x1, y1

_PIL_ANCHOR = {"start": "lm", "middle": "mm", "end": "rm"}

# directions tried around an anchor, in order: below, above, right, left, then diagonals
DIRECTIONS: tuple[Point, ...] = (
    (0.0, 1.0),
    (0.0, -1.0),
    (1.0, 0.0),
    (-1.0, 0.0),
    (1.0, 1.0),
    (-1.0, 1.0),
    (1.0, -1.0),
    (-1.0, -1.0),
)
# how much nearer its own space a label is than any other (rim to box, pixels)
OWN_MARGIN = 4.0
# how far a label joined to its space by a leader keeps from every other space (rim to
# box, pixels), so that it does not read as that space's label
LEADER_APART = 20.0
# the directions between those, tried for a label that must stay beside its own space
BETWEEN: tuple[Point, ...] = (
    (0.5, 1.0),
    (-0.5, 1.0),
    (0.5, -1.0),
    (-0.5, -1.0),
    (1.0, 0.5),
    (-1.0, 0.5),
    (1.0, -0.5),
    (-1.0, -0.5),
)
RINGS: tuple[float, ...] = (0, 4, 9, 15, 22, 30, 40, 52, 66, 82, 100, 122, 148, 178, 212)


@lru_cache(maxsize=8192)
def _text_extent(text: str, size: float, bold: bool, anchor: str) -> Box:
    font = pil_font(size, bold)
    return tuple(float(v) for v in font.getbbox(text, anchor=_PIL_ANCHOR[anchor]))  # type: ignore[attr-defined,return-value]


def text_box(shape: Text, scale: float = 1.0) -> Box:
    """The box ``shape`` covers when rasterized at ``scale`` (Pillow's font metrics), in
    canvas pixels of scale 1."""
    x0, y0, x1, y1 = _text_extent(shape.text, round(shape.size * scale), shape.bold, shape.anchor)
    k = 1.0 / scale
    return shape.x + x0 * k, shape.y + y0 * k, shape.x + x1 * k, shape.y + y1 * k


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` drawn at ``size`` pixels."""
    x0, _, x1, _ = _text_extent(text, size, bold, "start")
    return x1 - x0


def shape_box(shape: Shape) -> Box:
    """The bounding box of any shape."""
    if isinstance(shape, Circle):
        r = shape.r + (shape.width / 2 if shape.stroke else 0)
        return shape.x - r, shape.y - r, shape.x + r, shape.y + r
    if isinstance(shape, Rect):
        pad = shape.width / 2 if shape.stroke else 0
        return shape.x - pad, shape.y - pad, shape.x + shape.w + pad, shape.y + shape.h + pad
    if isinstance(shape, Polyline):
        xs = [p[0] for p in shape.points]
        ys = [p[1] for p in shape.points]
        return min(xs), min(ys), max(xs), max(ys)
    return text_box(shape)


@dataclass(frozen=True)
class Placed:
    """Where a block went: its box (top left ``x``, ``y``) and whether it needs a leader."""

    x: float
    y: float
    box: Box
    far: bool


class Placer:
    """The boxes taken on one canvas, and a search for free room near an anchor."""

    def __init__(self, width: float, height: float, pad: float = 1.5, edge: float = 2.0) -> None:
        self.width, self.height, self.pad, self.edge = width, height, pad, edge
        self._boxes = np.zeros((0, 4), np.float64)
        self._segments = np.zeros((0, 4), np.float64)  # x0, y0, x1, y1: lines not to cross
        self._nodes = np.zeros((0, 3), np.float64)  # x, y, radius: the board's spaces

    def block(self, box: Box) -> None:
        """Mark ``box`` as taken."""
        self._boxes = np.vstack([self._boxes, np.asarray(box, np.float64)[None, :]])

    def block_line(self, points: Sequence[Point]) -> None:
        """Mark a drawn line (a link between two spaces) as one no box may cross."""
        pts = np.asarray(points, np.float64)
        segs = np.hstack([pts[:-1], pts[1:]])
        self._segments = np.vstack([self._segments, segs])

    def add_node(self, anchor: Point, radius: float) -> None:
        """Declare a space of the board (a label must lie nearer its own space than any)."""
        self._nodes = np.vstack([self._nodes, [[anchor[0], anchor[1], radius]]])

    def free(self, box: Box, lines: bool = True) -> bool:
        """Whether ``box`` lies inside the canvas and meets no box taken nor (``lines``)
        line blocked."""
        x0, y0, x1, y1 = box
        e = self.edge
        if x0 < e or y0 < e or x1 > self.width - e or y1 > self.height - e:
            return False
        b = self._boxes
        p = self.pad
        if len(b):
            hit = (b[:, 0] < x1 + p) & (x0 - p < b[:, 2]) & (b[:, 1] < y1 + p) & (y0 - p < b[:, 3])
            if hit.any():
                return False
        if not lines:
            return True
        return not bool(segments_cross_box(self._segments, (x0 - p, y0 - p, x1 + p, y1 + p)).any())

    def leader_clear(self, anchor: Point, box: Box) -> bool:
        """Whether a leader from ``anchor`` to ``box`` passes (within 3 px of) no other
        declared space."""
        if not len(self._nodes):
            return True
        ax, ay = anchor
        bx, by = min(max(ax, box[0]), box[2]), min(max(ay, box[1]), box[3])
        x, y, r = self._nodes[:, 0], self._nodes[:, 1], self._nodes[:, 2]
        own = np.hypot(x - ax, y - ay) < 0.5
        vx, vy = bx - ax, by - ay
        t = np.clip(((x - ax) * vx + (y - ay) * vy) / max(vx * vx + vy * vy, 1e-9), 0.0, 1.0)
        d = np.hypot(ax + t * vx - x, ay + t * vy - y)
        return not bool(((d < r + 3.0) & ~own).any())

    def _rim_distances(self, box: Box, anchor: Point) -> tuple[np.ndarray, np.ndarray]:
        """The distances (rim to box) from ``box`` to the anchor's own space (none if it
        is not declared) and to every other declared space."""
        d = box_distance(box, self._nodes[:, 0], self._nodes[:, 1]) - self._nodes[:, 2]
        own = np.hypot(self._nodes[:, 0] - anchor[0], self._nodes[:, 1] - anchor[1]) < 0.5
        return d[own], d[~own]

    def owned_by(self, box: Box, anchor: Point) -> bool:
        """Whether ``anchor`` is the space nearest ``box`` (rim to box), clearly: every
        other space at least ``OWN_MARGIN`` pixels further. No spaces declared: True."""
        mine, others = self._rim_distances(box, anchor)
        if not len(mine) or not len(others):
            return True
        return bool((others >= float(mine.min()) + OWN_MARGIN).all())

    def apart(self, box: Box, anchor: Point, margin: float = LEADER_APART) -> bool:
        """Whether ``box`` keeps ``margin`` pixels (rim to box) from every declared space
        but the anchor's: a label led from its space sits beside no other."""
        _, others = self._rim_distances(box, anchor)
        return bool((others >= margin).all())

    def place(
        self,
        anchor: Point,
        w: float,
        h: float,
        radius: float = 0.0,
        gap: float = 2.0,
        leader_after: float = 30.0,
        directions: Sequence[Point] = DIRECTIONS,
        own: bool = False,
        lines: bool = False,
    ) -> Placed:
        """Put a ``w`` x ``h`` block as near ``anchor`` as the taken boxes allow.

        The block keeps ``radius + gap`` from the anchor (a space's circle); the first free
        candidate wins and is taken. ``own``: a free candidate nearer the anchor's space
        than any other declared space (:meth:`owned_by`) wins over a nearer one that is
        not (when there is none, the block gets a leader to its space, passing no other
        space, and put :data:`LEADER_APART` from every other where it can); ``lines``: the
        block crosses no line blocked (:meth:`block_line`). If nothing near is free, the
        search goes on over the whole canvas; as a last resort the block goes where it
        least overlaps.
        """
        ax, ay = anchor
        if own:  # beside its own space first: nearer it than any other space
            for ring in RINGS:
                for dx, dy in (*directions, *BETWEEN):
                    box = _candidate(ax, ay, w, h, radius + gap + ring, dx, dy)
                    if self.free(box, lines) and self.owned_by(box, anchor):
                        return self._take(box, ring > leader_after)
        if own:  # none: a leader says whose it is, passing no other space; away from them
            for keep_apart in (True, False):
                for ring in RINGS:
                    for dx, dy in (*directions, *BETWEEN):
                        box = _candidate(ax, ay, w, h, radius + gap + ring, dx, dy)
                        if (
                            self.free(box, lines)
                            and self.leader_clear(anchor, box)
                            and (not keep_apart or self.apart(box, anchor))
                        ):
                            return self._take(box, True)
        for ring in RINGS:
            for dx, dy in directions:
                box = _candidate(ax, ay, w, h, radius + gap + ring, dx, dy)
                if self.free(box, lines):
                    return self._take(box, own or ring > leader_after)
        for box in self._sweep(ax, ay, w, h):
            if self.free(box, lines):
                return self._take(box, True)
        box = _candidate(ax, ay, w, h, radius + gap, 0.0, 1.0)
        return self._take(self._clamp(box), True)

    def _sweep(self, ax: float, ay: float, w: float, h: float) -> list[Box]:
        step = max(4.0, min(w, h) / 2)
        xs = np.arange(self.edge, self.width - self.edge - w, step)
        ys = np.arange(self.edge, self.height - self.edge - h, step)
        cands = [(float(x), float(y), float(x) + w, float(y) + h) for x in xs for y in ys]
        cands.sort(key=lambda b: math.hypot(b[0] + w / 2 - ax, b[1] + h / 2 - ay))
        return cands

    def _clamp(self, box: Box) -> Box:
        x0, y0, x1, y1 = box
        e = self.edge
        dx = max(e - x0, 0.0) - max(x1 - (self.width - e), 0.0)
        dy = max(e - y0, 0.0) - max(y1 - (self.height - e), 0.0)
        return x0 + dx, y0 + dy, x1 + dx, y1 + dy

    def _take(self, box: Box, far: bool) -> Placed:
        self.block(box)
        return Placed(box[0], box[1], box, far)


def box_distance(box: Box, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The distance from each point (``x``, ``y``) to ``box`` (0 inside it)."""
    dx = np.maximum(np.maximum(box[0] - x, 0.0), x - box[2])
    dy = np.maximum(np.maximum(box[1] - y, 0.0), y - box[3])
    return np.hypot(dx, dy)


def segments_cross_box(segs: np.ndarray, box: Box) -> np.ndarray:
    """For each segment (rows x0, y0, x1, y1) whether any part of it lies inside ``box``
    (Liang-Barsky clipping)."""
    if not len(segs):
        return np.zeros(0, bool)
    x0, y0, x1, y1 = segs[:, 0], segs[:, 1], segs[:, 2], segs[:, 3]
    dx, dy = x1 - x0, y1 - y0
    lo = np.zeros(len(segs))
    hi = np.ones(len(segs))
    ok = np.ones(len(segs), bool)
    for p, q in (
        (-dx, x0 - box[0]),
        (dx, box[2] - x0),
        (-dy, y0 - box[1]),
        (dy, box[3] - y0),
    ):
        parallel = p == 0
        ok &= ~(parallel & (q < 0))
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(parallel, 0.0, q / np.where(parallel, 1.0, p))
        lo = np.where(~parallel & (p < 0), np.maximum(lo, t), lo)
        hi = np.where(~parallel & (p > 0), np.minimum(hi, t), hi)
    return ok & (lo <= hi)


def _candidate(ax: float, ay: float, w: float, h: float, d: float, dx: float, dy: float) -> Box:
    """A ``w`` x ``h`` box whose near side is ``d`` from the anchor in direction (dx, dy)."""
    along = d / math.sqrt(2) if dx and dy else d  # a diagonal: d from the anchor in all
    cx = ax + dx * (along + w / 2)
    cy = ay + dy * (along + h / 2)
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2


def leader(anchor: Point, radius: float, box: Box, colour: str = "#6b6354") -> Polyline:
    """A thin line from the rim of the anchor's circle to the nearest point of ``box``."""
    ax, ay = anchor
    nx = min(max(ax, box[0]), box[2])
    ny = min(max(ay, box[1]), box[3])
    d = math.hypot(nx - ax, ny - ay) or 1.0
    start = (ax + (nx - ax) * radius / d, ay + (ny - ay) * radius / d)
    return Polyline((start, (nx, ny)), colour, 0.8)


def label(
    placer: Placer,
    anchor: Point,
    text: str,
    size: float,
    fill: str,
    radius: float = 0.0,
    bold: bool = False,
    data: dict[str, str] | None = None,
    directions: Sequence[Point] = DIRECTIONS,
    own: bool = True,
    leader_line: bool = True,
) -> list[Shape]:
    """A text label placed near ``anchor`` (a leader line when it had to go far, unless
    not ``leader_line``: an area's name; the placer then blocks the leader, so that no
    later label crosses it), beside its own space rather than nearer another (``own``,
    :meth:`Placer.place`), crossing no line the placer blocks."""
    x0, y0, x1, y1 = _text_extent(text, round(size), bold, "start")
    placed = placer.place(
        anchor, x1 - x0, y1 - y0, radius, directions=directions, own=own, lines=True
    )
    # a "start" text is drawn from (x, y) with its measured box at (x + x0, y + y0)
    out: list[Shape] = [
        Text(placed.x - x0, placed.y - y0, text, size, fill, "start", bold, data or {})
    ]
    if placed.far and leader_line:
        line = leader(anchor, radius, placed.box)
        placer.block_line(line.points)  # no later label crosses it
        out.insert(0, line)
    return out

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

from boardsim.render.scene import Circle, Point, Polyline, Rect, Shape, Text

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
RINGS: tuple[float, ...] = (0, 4, 9, 15, 22, 30, 40, 52, 66, 82, 100, 122, 148, 178, 212)


@lru_cache(maxsize=8192)
def _text_extent(text: str, size: float, bold: bool, anchor: str) -> Box:
    from boardsim.render.scene import _font

    font = _font(size, bold)
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

    def block(self, box: Box) -> None:
        """Mark ``box`` as taken."""
        self._boxes = np.vstack([self._boxes, np.asarray(box, np.float64)[None, :]])

    def free(self, box: Box) -> bool:
        """Whether ``box`` lies inside the canvas and meets no box taken."""
        x0, y0, x1, y1 = box
        e = self.edge
        if x0 < e or y0 < e or x1 > self.width - e or y1 > self.height - e:
            return False
        b = self._boxes
        if not len(b):
            return True
        p = self.pad
        hit = (b[:, 0] < x1 + p) & (x0 - p < b[:, 2]) & (b[:, 1] < y1 + p) & (y0 - p < b[:, 3])
        return not bool(hit.any())

    def place(
        self,
        anchor: Point,
        w: float,
        h: float,
        radius: float = 0.0,
        gap: float = 2.0,
        leader_after: float = 30.0,
        directions: Sequence[Point] = DIRECTIONS,
    ) -> Placed:
        """Put a ``w`` x ``h`` block as near ``anchor`` as the taken boxes allow.

        The block keeps ``radius + gap`` from the anchor (a space's circle); the first free
        candidate wins and is taken. If nothing near is free, the search goes on over
        the whole canvas; as a last resort the block goes where it least overlaps.
        """
        ax, ay = anchor
        for ring in RINGS:
            for dx, dy in directions:
                box = _candidate(ax, ay, w, h, radius + gap + ring, dx, dy)
                if self.free(box):
                    return self._take(box, ring > leader_after)
        for box in self._sweep(ax, ay, w, h):
            if self.free(box):
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
) -> list[Shape]:
    """A text label placed near ``anchor`` (a leader line when it had to go far)."""
    x0, y0, x1, y1 = _text_extent(text, round(size), bold, "start")
    placed = placer.place(anchor, x1 - x0, y1 - y0, radius, directions=directions)
    # a "start" text is drawn from (x, y) with its measured box at (x + x0, y + y0)
    out: list[Shape] = [
        Text(placed.x - x0, placed.y - y0, text, size, fill, "start", bold, data or {})
    ]
    if placed.far:
        out.insert(0, leader(anchor, radius, placed.box))
    return out

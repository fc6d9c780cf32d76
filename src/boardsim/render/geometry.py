"""Small geometry helpers for drawing links: trimming ends, points along a polyline."""

from __future__ import annotations

import itertools
import math

from boardsim.render.scene import Point


def polyline_length(points: tuple[Point, ...]) -> float:
    """The length of the polyline through ``points``."""
    return sum(math.dist(a, b) for a, b in itertools.pairwise(points))


def point_along(points: tuple[Point, ...], fraction: float) -> Point:
    """The point ``fraction`` (0..1) of the way along the polyline."""
    target = polyline_length(points) * fraction
    for a, b in itertools.pairwise(points):
        d = math.dist(a, b)
        if target <= d and d > 0:
            t = target / d
            return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        target -= d
    return points[-1]


def trim(points: tuple[Point, ...], start: float, end: float) -> tuple[Point, ...]:
    """The polyline without its first ``start`` and last ``end`` pixels (space circles)."""
    total = polyline_length(points)
    if total <= start + end:
        return points
    first = point_along(points, start / total)
    last = point_along(points, 1 - end / total)
    return (first, *points[1:-1], last)


def segment_marks(points: tuple[Point, ...], segments: int) -> list[Point]:
    """Where the divisions of a link of ``segments`` segments fall (none for 1 segment)."""
    return [point_along(points, k / segments) for k in range(1, segments)]

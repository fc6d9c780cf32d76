"""A small scene description drawn two ways: as SVG text and as a Pillow image.

Every game's drawer builds one :class:`Scene` of shapes in canvas pixels; the
SVG writer and the rasterizer both walk the same list, so a picture in a
notebook (SVG) and a frame of an ``rgb_array`` env agree shape for shape.
Shapes are split into a ``static`` layer (the board: spaces, links, labels, the
same for every position of a game) and a ``dynamic`` layer (pieces, discs,
scores, whose turn), which lets the replay viewer ship the board once and only
the pieces per step. Shapes may carry ``data`` attributes (``data-space="12"``)
that the SVG keeps for tools and tests and the image ignores.
"""

from __future__ import annotations

import html
import itertools
from dataclasses import dataclass, field

import numpy as np

Point = tuple[float, float]


@dataclass(frozen=True)
class Circle:
    """A circle at ``(x, y)`` of radius ``r``, filled and optionally stroked."""

    x: float
    y: float
    r: float
    fill: str
    stroke: str | None = None
    width: float = 1.0
    data: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Rect:
    """A rectangle with its top left at ``(x, y)``, ``w`` wide and ``h`` high."""

    x: float
    y: float
    w: float
    h: float
    fill: str
    stroke: str | None = None
    width: float = 1.0
    data: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Polyline:
    """A line through ``points`` (dashed when ``dash``)."""

    points: tuple[Point, ...]
    stroke: str
    width: float = 1.0
    dash: bool = False
    data: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Text:
    """A line of text at ``(x, y)``: anchored horizontally by ``anchor``, centred
    vertically on ``y``, in DejaVu Sans of ``size`` pixels.
    """

    x: float
    y: float
    text: str
    size: float = 12.0
    fill: str = "#000000"
    anchor: str = "start"  # start | middle | end (horizontal); vertically centred on y
    bold: bool = False
    data: dict[str, str] = field(default_factory=dict)


Shape = Circle | Rect | Polyline | Text


@dataclass
class Scene:
    """A picture: canvas size, background, the board layer and the pieces layer."""

    width: int
    height: int
    background: str = "#f4efe1"
    title: str = ""
    static: list[Shape] = field(default_factory=list)
    dynamic: list[Shape] = field(default_factory=list)
    # scenes with the same key have the same static layer: its raster is drawn once and reused
    static_key: str | None = None
    # the width of the board; the side panel (text: scores, whose turn) fills the rest.
    # None: no panel. The replay viewer scales the board to the window, not the panel.
    board_width: int | None = None


# ------------------------------------------------------------------ SVG
def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _data_attrs(data: dict[str, str]) -> str:
    return "".join(f' data-{k}="{html.escape(str(v), quote=True)}"' for k, v in data.items())


def _stroke_attrs(stroke: str | None, width: float) -> str:
    if stroke is None:
        return ""
    return f' stroke="{stroke}" stroke-width="{_num(width)}"'


_ANCHOR_SVG = {"start": "start", "middle": "middle", "end": "end"}


def shape_to_svg(shape: Shape) -> str:
    """One shape as an SVG element."""
    if isinstance(shape, Circle):
        return (
            f'<circle cx="{_num(shape.x)}" cy="{_num(shape.y)}" r="{_num(shape.r)}" '
            f'fill="{shape.fill}"{_stroke_attrs(shape.stroke, shape.width)}'
            f"{_data_attrs(shape.data)}/>"
        )
    if isinstance(shape, Rect):
        return (
            f'<rect x="{_num(shape.x)}" y="{_num(shape.y)}" width="{_num(shape.w)}" '
            f'height="{_num(shape.h)}" fill="{shape.fill}"'
            f"{_stroke_attrs(shape.stroke, shape.width)}{_data_attrs(shape.data)}/>"
        )
    if isinstance(shape, Polyline):
        pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in shape.points)
        dash = ' stroke-dasharray="5,4"' if shape.dash else ""
        return (
            f'<polyline points="{pts}" fill="none"{_stroke_attrs(shape.stroke, shape.width)}'
            f'{dash} stroke-linecap="round"{_data_attrs(shape.data)}/>'
        )
    weight = ' font-weight="bold"' if shape.bold else ""
    return (
        f'<text x="{_num(shape.x)}" y="{_num(shape.y)}" font-size="{_num(shape.size)}" '
        f'fill="{shape.fill}" text-anchor="{_ANCHOR_SVG[shape.anchor]}" '
        f'dominant-baseline="central" font-family="DejaVu Sans, Arial, sans-serif"{weight}'
        ' xml:space="preserve"'
        f"{_data_attrs(shape.data)}>{html.escape(shape.text)}</text>"
    )


def layer_to_svg(shapes: list[Shape]) -> str:
    """The SVG elements of a layer, one a line."""
    return "\n".join(shape_to_svg(s) for s in shapes)


def scene_to_svg(scene: Scene, dynamic_id: str = "pieces") -> str:
    """A complete standalone ``<svg>`` document of the scene."""
    title = f"<title>{html.escape(scene.title)}</title>\n" if scene.title else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" '
        f'height="{scene.height}" viewBox="0 0 {scene.width} {scene.height}">\n{title}'
        f'<rect x="0" y="0" width="{scene.width}" height="{scene.height}" '
        f'fill="{scene.background}"/>\n'
        f'<g id="board">\n{layer_to_svg(scene.static)}\n</g>\n'
        f'<g id="{dynamic_id}">\n{layer_to_svg(scene.dynamic)}\n</g>\n</svg>\n'
    )


# ------------------------------------------------------------------ raster
_FONTS: dict[tuple[int, bool], object] = {}
_BOARDS: dict[tuple[object, ...], object] = {}  # static layers already rasterized


def pil_font(size: float, bold: bool) -> object:
    """Pillow's DejaVu font of ``size`` pixels (6 at least), bold or not, loaded once."""
    from PIL import ImageFont

    key = (max(round(size), 6), bold)
    if key not in _FONTS:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
        try:
            _FONTS[key] = ImageFont.truetype(name, key[0])
        except OSError:
            _FONTS[key] = ImageFont.load_default(size=key[0])
    return _FONTS[key]


_ANCHOR_PIL = {"start": "lm", "middle": "mm", "end": "rm"}


def _fill(colour: str) -> str | None:
    return None if colour == "none" else colour


def _draw_shape(draw: object, shape: Shape, k: float) -> None:
    if isinstance(shape, Circle):
        x, y, r = shape.x * k, shape.y * k, shape.r * k
        draw.ellipse(  # type: ignore[attr-defined]
            (x - r, y - r, x + r, y + r),
            fill=_fill(shape.fill),
            outline=shape.stroke,
            width=max(round(shape.width * k), 1) if shape.stroke else 0,
        )
    elif isinstance(shape, Rect):
        draw.rectangle(  # type: ignore[attr-defined]
            (shape.x * k, shape.y * k, (shape.x + shape.w) * k, (shape.y + shape.h) * k),
            fill=_fill(shape.fill),
            outline=shape.stroke,
            width=max(round(shape.width * k), 1) if shape.stroke else 0,
        )
    elif isinstance(shape, Polyline):
        pts = [(x * k, y * k) for x, y in shape.points]
        width = max(round(shape.width * k), 1)
        if shape.dash:
            for (x0, y0), (x1, y1) in itertools.pairwise(pts):
                _dashed(draw, x0, y0, x1, y1, shape.stroke, width, 5 * k, 4 * k)
        else:
            draw.line(pts, fill=shape.stroke, width=width, joint="curve")  # type: ignore[attr-defined]
    else:
        draw.text(  # type: ignore[attr-defined]
            (shape.x * k, shape.y * k),
            shape.text,
            fill=shape.fill,
            font=pil_font(shape.size * k, shape.bold),
            anchor=_ANCHOR_PIL[shape.anchor],
        )


def _dashed(
    draw: object,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    fill: str,
    w: int,
    on: float,
    off: float,
) -> None:
    length = float(np.hypot(x1 - x0, y1 - y0))
    if length == 0:
        return
    dx, dy = (x1 - x0) / length, (y1 - y0) / length
    t = 0.0
    while t < length:
        e = min(t + on, length)
        draw.line(  # type: ignore[attr-defined]
            [(x0 + dx * t, y0 + dy * t), (x0 + dx * e, y0 + dy * e)], fill=fill, width=w
        )
        t = e + off


def scene_to_image(scene: Scene, scale: float = 1.0) -> object:
    """The scene as a Pillow RGB image (``scale`` multiplies the canvas size)."""
    from PIL import Image, ImageDraw

    w, h = max(round(scene.width * scale), 1), max(round(scene.height * scale), 1)
    key = (scene.static_key, w, h, scene.background)
    base = _BOARDS.get(key) if scene.static_key is not None else None
    if base is None:
        base = Image.new("RGB", (w, h), scene.background)
        draw = ImageDraw.Draw(base)
        for shape in scene.static:
            _draw_shape(draw, shape, scale)
        if scene.static_key is not None:
            if len(_BOARDS) >= 32:
                _BOARDS.clear()
            _BOARDS[key] = base
    img = base.copy()
    draw = ImageDraw.Draw(img)
    for shape in scene.dynamic:
        _draw_shape(draw, shape, scale)
    return img


def scene_to_array(scene: Scene, scale: float = 1.0) -> np.ndarray:
    """The scene as a ``uint8`` array of shape ``(height, width, 3)``."""
    return np.asarray(scene_to_image(scene, scale), dtype=np.uint8).copy()

"""Shared pieces of the game drawers: colours, the side panel, a text-only fallback."""

from __future__ import annotations

from boardsim.core.game import Game
from boardsim.render.placement import text_width
from boardsim.render.scene import Rect, Scene, Shape, Text

PLAYER_COLOURS = ("#c0392b", "#2471a3", "#d4ac0d", "#229954", "#7d3c98", "#ca6f1e")
INK = "#222222"
FAINT = "#8a8275"
PANEL_FILL = "#fbf8ef"
PANEL_LINE = 18.0  # pixels between two lines of panel text


def player_colour(p: int) -> str:
    """The colour of player ``p`` (red, blue, gold, green, purple, orange)."""
    return PLAYER_COLOURS[p % len(PLAYER_COLOURS)]


class Panel:
    """A column of text lines (and colour swatches) at the right of a board.

    A line longer than the column is wrapped at spaces (measured with the font the
    picture is drawn with), so nothing runs off the picture.
    """

    def __init__(self, x: float, y: float, width: float, out: list[Shape]) -> None:
        self.x, self.y, self.width, self.out = x, y, width, out

    def line(
        self,
        text: str,
        size: float = 12.0,
        bold: bool = False,
        fill: str = INK,
        swatch: str | None = None,
        data: dict[str, str] | None = None,
    ) -> None:
        """One line of text (wrapped to the column), with a colour swatch before it."""
        x = self.x
        if swatch is not None:
            self.out.append(Rect(x, self.y - 6, 12, 12, swatch, "#000000", 0.8))
            x += 18
        for i, part in enumerate(wrap(text, size, bold, self.x + self.width - x)):
            self.out.append(Text(x, self.y, part, size, fill, "start", bold,
                                 (data or {}) if i == 0 else {}))  # fmt: skip
            self.y += PANEL_LINE * size / 12.0

    def gap(self, pixels: float = 8.0) -> None:
        """Leave ``pixels`` of space before the next line."""
        self.y += pixels


def wrap(text: str, size: float, bold: bool, width: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` pixels."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}" if current else word
        if current and text_width(trial, size, bold) > width:
            lines.append(current)
            current = "  " + word
        else:
            current = trial
    lines.append(current)
    return lines


def panel_background(x: float, height: float, width: float) -> Rect:
    """The side panel's paper, from ``x`` to the right edge."""
    return Rect(x, 0, width, height, PANEL_FILL, "#cfc6b0", 1.0)


def text_scene(game: Game, text: str) -> Scene:
    """Any game without a drawer of its own: its text board, line by line."""
    lines = text.splitlines() or [""]
    width = max(400, 8 * max(len(s) for s in lines) + 20)
    scene = Scene(width, 20 * len(lines) + 20, "#ffffff", f"{game.name} position")
    for i, s in enumerate(lines):
        scene.dynamic.append(Text(10, 20 + 20 * i, s, 13.0, INK))
    return scene

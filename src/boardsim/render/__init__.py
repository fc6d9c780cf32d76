"""Pictures of positions: SVG for notebooks and documents, ``rgb_array`` frames, text.

``to_svg(game, state)`` and ``to_rgb_array(game, state)`` draw the board from the
positions in the game's data files (spaces, links with their segments, pieces,
discs, cards, scores, whose turn). Both come from one :class:`Scene`, so they
agree. What is hidden stays hidden: a player's hand is drawn only when
``viewer`` is that player, or with ``show_hands=True`` (a replay viewer's
omniscient view, labelled as such on the picture).

A game is drawn by the module its definition names (``GameDefinition.drawer``:
``draw(game, state, viewer, show_hands) -> Scene`` and optionally
``private_text(game, state, player)`` and ``chance_text(game, state, outcome, player)``);
a game without one is drawn as its text board, so every game renders.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import numpy as np

from boardsim.core.game import Game, State
from boardsim.render.common import text_scene
from boardsim.render.scene import Scene, scene_to_array, scene_to_image, scene_to_svg

__all__ = [
    "Scene",
    "SvgDocument",
    "chance_text",
    "private_text",
    "scene",
    "to_image",
    "to_rgb_array",
    "to_svg",
    "to_text",
]


def _array(game: Game, state: State | np.ndarray) -> np.ndarray:
    """The words of ``state``; a bare array is checked (a copy, as ``State`` would check it)."""
    if isinstance(state, State):
        return state.array
    arr = np.asarray(state)
    if arr.shape != (game.state_size,):
        raise ValueError(
            f"{game.name}: a state has {game.state_size} words, got an array of shape {arr.shape}"
        )
    words = arr.astype(np.int32)
    if not np.array_equal(words, arr):
        raise ValueError(f"{game.name}: a state's words are int32, got {arr.dtype} values")
    return game.check_array(words)


def _drawer(game: Game) -> ModuleType | None:
    name = game.definition.drawer
    return importlib.import_module(name) if name else None


def _check_viewer(game: Game, viewer: int | None) -> None:
    if viewer is not None and not 0 <= int(viewer) < game.num_players:
        raise ValueError(f"viewer {viewer} out of range [0, {game.num_players}) or None")


def scene(
    game: Game, state: State | np.ndarray, viewer: int | None = None, show_hands: bool = False
) -> Scene:
    """The position as a :class:`Scene` (board layer and pieces layer).

    ``viewer``: the player whose private cards are shown (``None``: nobody's);
    ``show_hands``: show everyone's (labelled on the picture).
    """
    arr = _array(game, state)
    _check_viewer(game, viewer)
    module = _drawer(game)
    if module is None:
        return text_scene(game, to_text(game, arr))
    return module.draw(game, arr, None if viewer is None else int(viewer), bool(show_hands))


class SvgDocument(str):
    """An SVG document: a plain ``str`` that Jupyter displays as the picture."""

    def _repr_svg_(self) -> str:
        return str(self)


def to_svg(
    game: Game, state: State | np.ndarray, viewer: int | None = None, show_hands: bool = False
) -> SvgDocument:
    """A standalone SVG document of the position (see :func:`scene` for the arguments).

    It is a ``str``; in a notebook, the last expression ``to_svg(game, state)`` shows the
    board.
    """
    return SvgDocument(scene_to_svg(scene(game, state, viewer, show_hands)))


def to_image(
    game: Game,
    state: State | np.ndarray,
    viewer: int | None = None,
    show_hands: bool = False,
    scale: float = 1.0,
) -> object:
    """The position as a Pillow RGB image."""
    return scene_to_image(scene(game, state, viewer, show_hands), scale)


def to_rgb_array(
    game: Game,
    state: State | np.ndarray,
    viewer: int | None = None,
    show_hands: bool = False,
    scale: float = 1.0,
) -> np.ndarray:
    """The position as a ``uint8`` array ``(height, width, 3)``, Gymnasium's ``rgb_array``."""
    return scene_to_array(scene(game, state, viewer, show_hands), scale)


def to_text(game: Game, state: State | np.ndarray) -> str:
    """The game's own text board (the ``ansi`` render mode); public information only."""
    return game.definition.render_text(game.params, _array(game, state))


def private_text(game: Game, state: State | np.ndarray, player: int) -> str:
    """What only ``player`` may see that the text board leaves out (a hand); may be empty."""
    arr = _array(game, state)
    _check_viewer(game, player)
    module = _drawer(game)
    if module is None or not hasattr(module, "private_text"):
        return ""
    return str(module.private_text(game, arr, int(player)))


def chance_text(game: Game, state: State | np.ndarray, outcome: int, player: int) -> str:
    """What ``player`` may see of chance outcome ``outcome`` at the chance node ``state``:
    "you rolled 4", "you drew Leader 5", "player 2 drew a card"; empty when the game says
    nothing of its chance."""
    arr = _array(game, state)
    _check_viewer(game, player)
    module = _drawer(game)
    if module is None or not hasattr(module, "chance_text"):
        return ""
    return str(module.chance_text(game, arr, int(outcome), int(player)))

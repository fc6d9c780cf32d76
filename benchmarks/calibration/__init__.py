"""The calibration: connect four on the engine (the plugin game of ``benchmarks/connect_four``)
against a plain numba connect four (``plain_connect_four``), on identical work."""

from __future__ import annotations

import sys
from pathlib import Path

from boardsim.core.game import Game

PLUGIN = Path(__file__).resolve().parents[1] / "connect_four"


def connect_four() -> Game:
    """The plugin connect four as a :class:`~boardsim.Game`, installed or not (its folder
    is put on the path when the package is not importable)."""
    try:
        import boardsim_connect_four
    except ImportError:
        sys.path.insert(0, str(PLUGIN))
        import boardsim_connect_four
    return Game(boardsim_connect_four.DEFINITION)

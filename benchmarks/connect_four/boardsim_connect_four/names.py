"""Words for actions and positions."""

from __future__ import annotations

import numpy as np

from boardsim.core.header import H_ACTOR
from boardsim_connect_four.data import COLS, ROWS
from boardsim_connect_four.layout import BOARD, WINNER

PIECES = ".XO"


def describe_action(params: np.ndarray, state: np.ndarray, action: int) -> str:
    """``action`` in words: the column a piece drops into."""
    if not 0 <= action < COLS:
        return f"no such column ({action})"
    return f"drop a piece into column {action + 1}"


def render_text(params: np.ndarray, state: np.ndarray) -> str:
    """The board, top row first (X: player 0, O: player 1), and whose turn or who won."""
    lines = []
    for r in range(ROWS - 1, -1, -1):
        lines.append(" ".join(PIECES[int(state[BOARD + r * COLS + c]) + 1] for c in range(COLS)))
    lines.append(" ".join(str(c + 1) for c in range(COLS)))
    winner = int(state[WINNER])
    actor = int(state[H_ACTOR])
    if winner >= 0:
        lines.append(f"player {winner} ({PIECES[winner + 1]}) won")
    elif actor >= 0:
        lines.append(f"player {actor} ({PIECES[actor + 1]}) to move")
    else:
        lines.append("a draw")
    return "\n".join(lines)

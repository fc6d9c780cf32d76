"""Connect four's state validator (the engine's ``validate`` kernel, ``boardsim.core.kernels``).

``validate(state, params, where)`` returns 0 for a position the kernels handle safely,
else the code of the first check that fails, with the index and the value at fault in
``where``: cells empty or a player's, each column filled from the bottom and its height
counted, the move count and whose turn it is agreeing with the pieces, and the winner
(or a full board) exactly when the game is over. ``STATE_ERRORS`` has the words.
"""

from __future__ import annotations

from boardsim.core.checks import refuse
from boardsim.core.header import FLAG_TERMINAL, FLAG_TRUNCATED, H_ACTOR, H_FLAGS
from boardsim.core.jit import jit
from boardsim_connect_four.data import COLS, CONNECT, ROWS
from boardsim_connect_four.layout import BOARD, HEIGHT, MOVES, WINNER
from boardsim_connect_four.rules import line_through

E_CELL = 1
E_HEIGHT = 2
E_FLOATING = 3
E_MOVES = 4
E_TURN = 5
E_WINNER = 6
E_OVER = 7

STATE_ERRORS = {
    E_CELL: "cell {index} = {value}: not -1 (empty), 0 or 1",
    E_HEIGHT: f"HEIGHT[{{index}}] = {{value}}: not 0..{ROWS}, or not the column's pieces",
    E_FLOATING: "column {index}: a piece above an empty cell (row {value})",
    E_MOVES: "MOVES = {value}: not the number of pieces on the board",
    E_TURN: "player {value} to move, but the pieces say the other one",
    E_WINNER: "WINNER = {value}: not -1, or a player without a line of four",
    E_OVER: "the game is over exactly when someone has a line or the board is full "
    "(winner {value})",
}


@jit
def check_board(state, where):
    """Cells empty or a player's, columns filled from the bottom, heights and moves counted."""
    total = 0
    for c in range(COLS):
        h = state[HEIGHT + c]
        if not 0 <= h <= ROWS:
            return refuse(where, E_HEIGHT, c, h)
        for r in range(ROWS):
            v = state[BOARD + r * COLS + c]
            if not -1 <= v <= 1:
                return refuse(where, E_CELL, r * COLS + c, v)
            if (v >= 0) != (r < h):
                return refuse(where, E_FLOATING if v >= 0 else E_HEIGHT, c, r)
        total += h
    if state[MOVES] != total:
        return refuse(where, E_MOVES, MOVES, state[MOVES])
    return 0


@jit
def has_line(state, player):
    for r in range(ROWS):
        for c in range(COLS):
            if (
                state[BOARD + r * COLS + c] == player
                and line_through(state, r, c, player) >= CONNECT
            ):
                return True
    return False


@jit
def check_turn(state, where):
    """Player 0 moved first; the winner has a line; over exactly at a line or a full board."""
    ones = 0
    for i in range(ROWS * COLS):
        ones += state[BOARD + i] == 1
    zeros = state[MOVES] - ones
    if not 0 <= zeros - ones <= 1:
        return refuse(where, E_TURN, -1, zeros - ones)
    w = state[WINNER]
    if not -1 <= w <= 1 or (w >= 0 and not has_line(state, w)):
        return refuse(where, E_WINNER, WINNER, w)
    flags = state[H_FLAGS]
    over = (flags & FLAG_TERMINAL) != 0 and (flags & FLAG_TRUNCATED) == 0
    ended = w >= 0 or state[MOVES] == ROWS * COLS
    if over != ended or (not over and (has_line(state, 0) or has_line(state, 1))):
        return refuse(where, E_OVER, WINNER, w)
    actor = state[H_ACTOR]
    if (flags & FLAG_TERMINAL) == 0 and actor != (0 if zeros == ones else 1):
        return refuse(where, E_TURN, H_ACTOR, actor)
    return 0


@jit
def validate(state, params, where):
    """0 if ``state`` is a connect-four position, else the failed check's code."""
    code = check_board(state, where)
    if code == 0:
        code = check_turn(state, where)
    return code

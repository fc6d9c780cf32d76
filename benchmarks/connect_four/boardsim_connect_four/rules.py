"""Connect four's rules, compiled: pure functions over the state array.

Player 0 moves first; a piece drops to the lowest empty row of its column; a line of
``CONNECT`` pieces of one player (across, up, or on a diagonal) wins, +1 to the winner
and -1 to the other; a full board without one is a draw (0 each).
"""

from __future__ import annotations

from boardsim.core.header import FLAG_TERMINAL, H_ACTOR, H_FLAGS, TERMINAL
from boardsim.core.jit import jit
from boardsim_connect_four.data import COLS, CONNECT, ROWS
from boardsim_connect_four.layout import BOARD, HEIGHT, MOVES, WINNER


@jit
def init(state, params, seed):
    """An empty board; player 0 to move."""
    for i in range(ROWS * COLS):
        state[BOARD + i] = -1
    state[WINNER] = -1
    state[H_ACTOR] = 0


@jit
def legal_mask(state, params, mask):
    """A column is legal while it is not full."""
    n = 0
    for c in range(COLS):
        mask[c] = 1 if state[HEIGHT + c] < ROWS else 0
        n += mask[c]
    return n


@jit
def line_through(state, r, c, player):
    """The longest line of ``player``'s pieces through row ``r``, column ``c``, counting a
    piece of his there."""
    best = 0
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        n = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < ROWS and 0 <= cc < COLS and state[BOARD + rr * COLS + cc] == player:
                n += 1
                rr += sign * dr
                cc += sign * dc
        best = max(best, n)
    return best


@jit
def wins_if_dropped(state, c, player):
    """A piece of ``player`` dropped into column ``c`` now would win."""
    r = state[HEIGHT + c]
    return r < ROWS and line_through(state, r, c, player) >= CONNECT


@jit
def end_game(state, winner):
    state[WINNER] = winner
    state[H_FLAGS] |= FLAG_TERMINAL
    state[H_ACTOR] = TERMINAL


@jit
def apply_action(state, params, action):
    """Drop the mover's piece into column ``action``; a line wins, a full board draws."""
    player = state[H_ACTOR]
    r = state[HEIGHT + action]
    won = line_through(state, r, action, player) >= CONNECT
    state[BOARD + r * COLS + action] = player
    state[HEIGHT + action] = r + 1
    state[MOVES] += 1
    if won:
        end_game(state, player)
    elif state[MOVES] == ROWS * COLS:
        end_game(state, -1)
    else:
        state[H_ACTOR] = 1 - player


@jit
def chance_weights(state, params, outcomes, weights):
    """Connect four has no chance node."""
    return 0


@jit
def apply_chance(state, params, outcome):
    """Connect four has no chance node."""
    return


@jit
def observe(state, params, player, out):
    """Two planes: ``player``'s pieces, then the opponent's (nothing is hidden)."""
    for i in range(ROWS * COLS):
        v = state[BOARD + i]
        out[i] = 1.0 if v == player else 0.0
        out[ROWS * COLS + i] = 1.0 if v >= 0 and v != player else 0.0


@jit
def returns(state, params, out):
    """+1 to the winner and -1 to the other; 0 each while playing and for a draw."""
    out[:] = 0.0
    w = state[WINNER]
    if w >= 0:
        out[w] = 1.0
        out[1 - w] = -1.0

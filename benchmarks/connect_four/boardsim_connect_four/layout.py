"""The state layout (named words of one int32 array after the engine's header) and the
action encoding: action ``c`` drops a piece into column ``c``."""

from __future__ import annotations

from boardsim.core.header import HEADER_SIZE, PARAMS_HEADER
from boardsim_connect_four.data import COLS, ROWS

BOARD = HEADER_SIZE  # ROWS * COLS cells, row 0 at the bottom: -1 empty, else the player
HEIGHT = BOARD + ROWS * COLS  # pieces in each column
MOVES = HEIGHT + COLS  # pieces on the board
WINNER = MOVES + 1  # the winner, -1 while there is none (and after a full-board draw)
STATE_SIZE = WINNER + 1

NUM_ACTIONS = COLS
OBS_SIZE = 2 * ROWS * COLS  # the player's own pieces, then the opponent's
MAX_PLAYERS = 2
MAX_CHANCE_OUTCOMES = 1  # no chance in connect four
PARAMS_SIZE = PARAMS_HEADER

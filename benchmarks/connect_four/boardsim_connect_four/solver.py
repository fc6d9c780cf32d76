"""A perfect solver of connect four (four in a line) on a board of any size up to 63 bits,
the calibration game's test oracle.

The method is the one Pascal Pons's public tutorial describes, written here from its
description: a bitboard of ``width`` columns of ``height + 1`` bits (the extra bit of each
column stays empty), a negamax search with alpha-beta over the moves that do not hand the
opponent an immediate win, ordered by how many winning cells a move makes (centre first
on ties), a transposition table of upper bounds, and a null-window search on the score.

The score of a position, for the player to move, is 0 for a draw, ``(cells + 1 - n) // 2``
for a win whose last stone is the player's stone number ``n // 2 + 1`` (the sooner the win,
the higher), and the negation for a loss: positive wins, negative loses.
:meth:`Solver.outcome` answers only win, draw or loss (a window of -1..1, much faster).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

WIN, DRAW, LOSS = 1, 0, -1
TABLE_SIZE = 8388617  # a prime near 2**23: about 75 MB of keys and bounds


@njit(cache=True)
def _winning_cells(position: int, mask: int, height: int, board: int) -> int:
    """The empty cells that would complete four in a line of ``position``'s stones."""
    r = (position << 1) & (position << 2) & (position << 3)  # vertical
    for shift in (height + 1, height, height + 2):  # horizontal, both diagonals
        p = (position << shift) & (position << (2 * shift))
        r |= p & (position << (3 * shift))
        r |= p & (position >> shift)
        p = (position >> shift) & (position >> (2 * shift))
        r |= p & (position << shift)
        r |= p & (position >> (3 * shift))
    return r & (board ^ mask)


@njit(cache=True)
def _popcount(x: int) -> int:
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def _non_losing(current: int, mask: int, height: int, bottom: int, board: int) -> int:
    """The cells of moves that do not let the opponent win at once (0: every move loses)."""
    possible = (mask + bottom) & board
    threats = _winning_cells(current ^ mask, mask, height, board)
    forced = possible & threats
    if forced:
        if forced & (forced - 1):
            return 0  # two threats to parry
        possible = forced
    return possible & ~(threats >> 1)


@njit(cache=True)
def _negamax(
    current: int,
    mask: int,
    moves: int,
    alpha: int,
    beta: int,
    width: int,
    height: int,
    bottom: int,
    board: int,
    order: np.ndarray,
    keys: np.ndarray,
    bounds: np.ndarray,
) -> int:
    """The score of a position in which the player to move cannot win at once, within
    ``alpha``..``beta`` (fail-soft bounds outside it)."""
    cells = width * height
    nxt = _non_losing(current, mask, height, bottom, board)
    if nxt == 0:
        return -((cells - moves) // 2)
    if moves >= cells - 2:
        return 0
    low = -((cells - 2 - moves) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (cells - 1 - moves) // 2
    key = current + mask
    slot = key % keys.size
    if keys[slot] == key:
        high = bounds[slot]
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    # order the moves by the winning cells they make, centre first on ties
    cand = np.empty(width, np.int64)
    rank = np.empty(width, np.int64)
    n = 0
    for i in range(width):
        col = order[i]
        column = ((1 << height) - 1) << (col * (height + 1))
        move = nxt & column
        if move:
            value = _popcount(_winning_cells(current | move, mask, height, board))
            j = n
            while j > 0 and rank[j - 1] < value:
                cand[j] = cand[j - 1]
                rank[j] = rank[j - 1]
                j -= 1
            cand[j] = move
            rank[j] = value
            n += 1
    for i in range(n):
        move = cand[i]
        opp = current ^ mask
        score = -_negamax(
            opp,
            mask | move,
            moves + 1,
            -beta,
            -alpha,
            width,
            height,
            bottom,
            board,
            order,
            keys,
            bounds,
        )
        if score >= beta:
            return score
        if score > alpha:
            alpha = score
    keys[slot] = key
    bounds[slot] = alpha
    return alpha


class Solver:
    """Solves positions of connect four on a ``width`` x ``height`` board (default 7x6).

    Positions are column sequences (``[3, 3, 2]``: the first player in column 3, the second
    on top of it, the first in column 2). Results are cached; the transposition table lives
    as long as the solver, so one solver for many related positions is fastest.
    """

    def __init__(self, width: int = 7, height: int = 6, table_size: int = TABLE_SIZE) -> None:
        if not (isinstance(width, int) and isinstance(height, int)):
            raise ValueError(f"board size must be two ints, got {width!r} x {height!r}")
        if width < 1 or height < 1 or width * (height + 1) > 62:
            raise ValueError(
                f"board {width}x{height}: needs 1..62 bits as width * (height + 1), "
                f"got {width * (height + 1)}"
            )
        self.width = width
        self.height = height
        self.cells = width * height
        self.bottom = sum(1 << (c * (height + 1)) for c in range(width))
        self.board = self.bottom * ((1 << height) - 1)
        centre = (width - 1) / 2
        self.order = np.array(sorted(range(width), key=lambda c: abs(c - centre)), np.int64)
        self.keys = np.zeros(table_size, np.int64)
        self.bounds = np.zeros(table_size, np.int8)
        self._scores: dict[tuple[int, int], int] = {}
        self._outcomes: dict[tuple[int, int], int] = {}

    # --- positions -------------------------------------------------------------------
    def position(self, moves: Sequence[int]) -> tuple[int, int, int]:
        """``(current, mask, n)``: the stones of the player to move, all stones, and their
        number after ``moves``. ``ValueError`` on a full column, a column off the board, or a
        move after the game was won."""
        current, mask = 0, 0
        for i, col in enumerate(moves):
            if not (isinstance(col, (int, np.integer)) and 0 <= col < self.width):
                raise ValueError(f"move {i}: column {col!r} is not in 0..{self.width - 1}")
            col = int(col)
            top = 1 << (col * (self.height + 1) + self.height - 1)
            if mask & top:
                raise ValueError(f"move {i}: column {col} is full")
            move = self._drop(mask, col)
            if self._wins(current, mask, move) and i != len(moves) - 1:
                raise ValueError(f"move {i}: the game is already won")
            current ^= mask
            mask |= move
        return current, mask, len(moves)

    def _column(self, col: int) -> int:
        return ((1 << self.height) - 1) << (col * (self.height + 1))

    def _drop(self, mask: int, col: int) -> int:
        """The cell a stone dropped in ``col`` takes (0 when the column is full)."""
        return (mask + (1 << (col * (self.height + 1)))) & self._column(col)

    def _wins(self, current: int, mask: int, move: int) -> bool:
        return bool(_winning_cells(current, mask, self.height, self.board) & move)

    def winning_columns(self, stones: int, mask: int) -> list[int]:
        """The columns where a stone would make four for the player owning ``stones`` (the
        player to move's, or with ``current ^ mask`` the opponent's threats)."""
        cells = _winning_cells(stones, mask, self.height, self.board)
        out = []
        for col in range(self.width):
            move = self._drop(mask, col)
            if move & cells:
                out.append(col)
        return out

    def children(self, current: int, mask: int) -> dict[int, tuple[int, int, bool]]:
        """Each legal column -> ``(current, mask, wins)`` after it (``wins``: it makes four)."""
        out = {}
        for col in range(self.width):
            if mask & (1 << (col * (self.height + 1) + self.height - 1)):
                continue
            move = self._drop(mask, col)
            out[col] = (current ^ mask, mask | move, self._wins(current, mask, move))
        return out

    # --- solving ---------------------------------------------------------------------
    def _search(self, current: int, mask: int, n: int, alpha: int, beta: int) -> int:
        return int(
            _negamax(
                current,
                mask,
                n,
                alpha,
                beta,
                self.width,
                self.height,
                self.bottom,
                self.board,
                self.order,
                self.keys,
                self.bounds,
            )
        )

    def _win_now(self, current: int, mask: int) -> bool:
        possible = (mask + self.bottom) & self.board
        return bool(_winning_cells(current, mask, self.height, self.board) & possible)

    def score_of(self, current: int, mask: int, n: int) -> int:
        """The exact score of a live position (see the module's docstring)."""
        key = (current, mask)
        if key in self._scores:
            return self._scores[key]
        if n >= self.cells:
            score = 0
        elif self._win_now(current, mask):
            score = (self.cells + 1 - n) // 2
        else:
            low, high = -((self.cells - n) // 2), (self.cells + 1 - n) // 2
            while low < high:
                med = low + (high - low) // 2
                if med <= 0 and int(low / 2) < med:
                    med = int(low / 2)
                elif med >= 0 and int(high / 2) > med:
                    med = int(high / 2)
                r = self._search(current, mask, n, med, med + 1)
                if r <= med:
                    high = r
                else:
                    low = r
            score = low
        self._scores[key] = score
        self._outcomes[key] = (score > 0) - (score < 0)
        return score

    def outcome_of(self, current: int, mask: int, n: int) -> int:
        """``WIN`` (1), ``DRAW`` (0) or ``LOSS`` (-1) for the player to move."""
        key = (current, mask)
        if key in self._outcomes:
            return self._outcomes[key]
        if n >= self.cells:
            result = DRAW
        elif self._win_now(current, mask):
            result = WIN
        else:
            r = self._search(current, mask, n, -1, 1)
            result = (r > 0) - (r < 0)
        self._outcomes[key] = result
        return result

    def score(self, moves: Sequence[int]) -> int:
        """The exact score for the player to move after ``moves`` (``ValueError`` if the
        game is over)."""
        current, mask, n = self._live(moves)
        return self.score_of(current, mask, n)

    def outcome(self, moves: Sequence[int]) -> int:
        """Win (1), draw (0) or loss (-1) for the player to move after ``moves``."""
        current, mask, n = self._live(moves)
        return self.outcome_of(current, mask, n)

    def move_outcomes(self, moves: Sequence[int]) -> dict[int, int]:
        """Each legal column -> the outcome for the player to move if they play it."""
        current, mask, n = self._live(moves)
        out = {}
        for col, (c, m, wins) in self.children(current, mask).items():
            out[col] = WIN if wins else -self.outcome_of(c, m, n + 1)
        return out

    def _live(self, moves: Sequence[int]) -> tuple[int, int, int]:
        current, mask, n = self.position(moves)
        if n:
            last = current ^ mask  # the stones of the player who just moved
            if self._four(last):
                raise ValueError("the game is over: the last move made four in a line")
        if n >= self.cells:
            raise ValueError("the game is over: the board is full")
        return current, mask, n

    def _four(self, stones: int) -> bool:
        h = self.height
        for shift in (1, h + 1, h, h + 2):
            m = stones & (stones >> shift)
            if m & (m >> (2 * shift)):
                return True
        return False

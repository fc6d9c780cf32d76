"""A sweep to a precision: rounds of games until each cell's win rates are that precise.

A cell's precision is the widest half-width of the 95% Wilson intervals of its seats' win
rates (:func:`half_width`): every seat's, which covers a side's rate, the agent under
test's and a cooperative side's alike. A sweep asked for a precision ``h`` plays each cell
in rounds: a first round of ``first`` games, then, while the cell is wider than ``h`` and
holds fewer than the most games allowed, as many more as the normal approximation says
``h`` needs (:func:`games_wanted`), at least one more first round's and at most four times
what the cell holds (an early estimate is noisy), rounded up to whole first rounds.

The rounds depend only on the games already played, never on the time or the machine: the
games of a cell are games 0, 1, 2, ... of the run's seed, the same common random numbers
as a sweep of a fixed size, so a sweep stopped (by a time budget, or killed) and run again
continues to the very files an uninterrupted run writes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from boardsim.research.stats import Z95, Row, seat_win_rates

GROWTH = 4  # a round takes a cell to at most this many times the games it holds


def half_width(rows: Sequence[Row]) -> float:
    """The widest 95% half-width of the seats' win rates over ``rows`` (one cell's games);
    infinite for no game."""
    if not rows:
        return math.inf
    return max((r.high - r.low) / 2 for r in seat_win_rates(rows))


def _needed(rows: Sequence[Row], precision: float) -> float:
    """The games the normal approximation says the seats' rates need for ``precision``
    (at least what a rate of 0 or 1 needs for its Wilson interval to be that narrow)."""
    spread = max(r.rate * (1 - r.rate) for r in seat_win_rates(rows))
    return max(Z95**2 * spread / precision**2, Z95**2 / (2 * precision))


def games_wanted(rows: Sequence[Row], precision: float, first: int, most: int | None) -> int:
    """The games a cell holding ``rows`` should hold after its next round: ``len(rows)``
    when it is precise enough or holds ``most`` games already."""
    held = len(rows)
    if held == 0:
        return first if most is None else min(first, most)
    if half_width(rows) <= precision or (most is not None and held >= most):
        return held
    rounds = math.ceil(min(_needed(rows, precision), GROWTH * held) / first)
    wanted = max(held + first, rounds * first)
    return wanted if most is None else min(wanted, most)


def check_precision(precision: float, first: int, most: int | None) -> None:
    """:class:`ValueError` saying what is wrong with a sweep's precision settings."""
    if not 0 < precision < 0.5:
        raise ValueError(f"precision is a half-width of a win rate in (0, 0.5), got {precision}")
    if most is not None and most < first:
        raise ValueError(f"at most {most} games a cell is fewer than the first round's {first}")

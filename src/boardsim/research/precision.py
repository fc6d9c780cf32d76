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

The search rungs get their budget by cost: a sweep may ask a looser half-width of its
search cells (:func:`is_search_cell`: any seat searches each move) than of its scripted
and network cells (:func:`cell_precision`), by default :data:`SEARCH_FACTOR` times it
(one point for the networks, three for the searches: a search's game costs hundreds of a
network's).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from boardsim.research.stats import Z95, Row, seat_win_rates

GROWTH = 4  # a round takes a cell to at most this many times the games it holds
CLUSTERS = (8, 32, 128)  # the Ray clusters a plan or a report prices (cores)


def duration_words(seconds: float) -> str:
    """Seconds as a reader plans them: seconds, minutes or hours."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def cluster_time(total: float, dearest: float, cores: int) -> float:
    """The seconds a Ray cluster of ``cores`` takes for ``total`` seconds of one core's
    work: shared evenly, but no less than the ``dearest`` cell's (a cell's rounds follow
    one another, one task each)."""
    return max(total / cores, dearest)


def cluster_wall_seconds(cell_seconds: Sequence[float], cores: int) -> float:
    """:func:`cluster_time` of cells costing ``cell_seconds`` of one core each."""
    return cluster_time(sum(cell_seconds), max(cell_seconds, default=0.0), cores)


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


def check_precision(
    precision: float, first: int, most: int | None, search_precision: float | None = None
) -> None:
    """:class:`ValueError` saying what is wrong with a sweep's precision settings."""
    if not 0 < precision < 0.5:
        raise ValueError(f"precision is a half-width of a win rate in (0, 0.5), got {precision}")
    if search_precision is not None and not precision <= search_precision < 0.5:
        raise ValueError(
            f"search precision {search_precision} is a half-width in [precision, 0.5): "
            "search cells are played to the precision or a looser one"
        )
    if most is not None and most < first:
        raise ValueError(f"at most {most} games a cell is fewer than the first round's {first}")


SEARCH_FACTOR = 3  # a search cell's default half-width: this many times the precision
SEARCH_HEADS = ("mcts", "alphazero-mcts")  # the compiled policies that search each move


def is_search_cell(policies: Sequence[str]) -> bool:
    """Whether a cell played by ``policies`` (one a seat) is a search cell: any seat
    searches each move (``mcts:N``, ``alphazero-mcts:N``), hundreds of times dearer a game
    than a scripted or network seat."""
    return any(str(p).split(":")[0] in SEARCH_HEADS for p in policies)


def default_search_precision(precision: float | None) -> float | None:
    """The half-width asked of search cells when none is given: :data:`SEARCH_FACTOR`
    times ``precision`` (at most just under 0.5)."""
    if precision is None:
        return None
    return min(SEARCH_FACTOR * precision, 0.49)


def cell_precision(
    policies: Sequence[str], precision: float, search_precision: float | None
) -> float:
    """The half-width a cell played by ``policies`` is played to: ``search_precision`` for
    a search cell (when given), else ``precision``."""
    if search_precision is not None and is_search_cell(policies):
        return search_precision
    return precision

"""Statistics a balance study can trust: win rates with Wilson intervals and what follows.

Everything here works on the sweep's tidy rows (:func:`boardsim.research.sweep.load_results`:
one dict a game) or on plain counts, with no dependency beyond the standard library and
numpy. Intervals are 95% by default (``z = 1.96``):

- :func:`wilson_interval`: the Wilson score interval of a binomial proportion (good at
  small ``n`` and near 0 or 1, where the textbook Wald interval fails);
- :func:`newcombe_interval`: the interval of a difference of two independent
  proportions (Newcombe's hybrid score method, his method 10), used for effects;
- :func:`win_rates`, :func:`seat_win_rates`, :func:`first_seat_advantage`,
  :func:`score_margins`, :func:`length_summary`: per group of rows;
- :func:`parameter_effects`, :func:`variant_effects`: Hispania's five difficulty
  parameters and its variants against the Roman win rate, and whether the rulebook's
  orderings hold.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

# re-exported: the intervals live a layer down, where the agents may use them too
from boardsim.intervals import Z95 as Z95
from boardsim.intervals import wilson_interval as wilson_interval

Row = dict[str, Any]


@dataclass(frozen=True)
class Rate:
    """``wins`` out of ``games`` with its Wilson interval ``[low, high]``."""

    wins: float
    games: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else float("nan")

    def as_dict(self) -> dict[str, float]:
        """The rate as plain data: wins, games, rate and its interval."""
        return {
            "wins": self.wins,
            "games": self.games,
            "rate": self.rate,
            "low": self.low,
            "high": self.high,
        }


def rate(successes: float, n: int, z: float = Z95) -> Rate:
    """A :class:`Rate` of ``successes`` out of ``n``."""
    low, high = wilson_interval(successes, n, z)
    return Rate(float(successes), int(n), low, high)


def newcombe_interval(
    k1: float, n1: int, k2: float, n2: int, z: float = Z95
) -> tuple[float, float, float]:
    """``(p1 - p2, low, high)``: the difference of two proportions and its hybrid score interval.

    Newcombe (1998), method 10: the Wilson intervals of each proportion combined;
    for 56/70 against 48/80 it gives 0.2 in about ``[0.0524, 0.3339]``.
    """
    if n1 == 0 or n2 == 0:
        return (float("nan"), float("nan"), float("nan"))
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson_interval(k1, n1, z)
    l2, u2 = wilson_interval(k2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return (d, max(-1.0, low), min(1.0, high))


# ------------------------------------------------------------------ rows
def seat_won(row: Row, seat: int) -> bool:
    """Whether ``seat`` is among the game's winners (a shared win counts for every winner)."""
    return seat in winners_of(row)


def winners_of(row: Row) -> tuple[int, ...]:
    """The winning seats of a row (``"0|2"`` -> (0, 2); empty: nobody won)."""
    w = row.get("winners", "")
    if isinstance(w, (tuple, list)):
        return tuple(int(x) for x in w)
    return tuple(int(x) for x in str(w).split("|") if x != "")


def group_rows(rows: Iterable[Row], by: Sequence[str]) -> dict[tuple, list[Row]]:
    """Rows grouped by the values of the columns ``by``, in first-seen order."""
    out: dict[tuple, list[Row]] = {}
    for r in rows:
        out.setdefault(tuple(r.get(k) for k in by), []).append(r)
    return out


def win_rates(
    rows: Iterable[Row], by: Sequence[str], won: Callable[[Row], bool], z: float = Z95
) -> list[dict[str, Any]]:
    """One line per group of ``by``: its key values and the rate of games where ``won`` holds."""
    out = []
    for key, group in group_rows(rows, by).items():
        wins = sum(1 for r in group if won(r))
        out.append({**dict(zip(by, key, strict=True)), **rate(wins, len(group), z).as_dict()})
    return out


def test_agent_won(row: Row) -> bool:
    """Whether the agent under test (the row's ``test_seat``) won."""
    seat = row.get("test_seat")
    if seat is None or seat == "" or int(seat) < 0:
        raise ValueError("this row has no agent under test (no seat/side key in the sweep)")
    return seat_won(row, int(seat))


def seat_win_rates(rows: Sequence[Row], z: float = Z95) -> list[Rate]:
    """The win rate of each seat over ``rows`` (all with the same number of players)."""
    n = {int(r["num_players"]) for r in rows}
    if len(n) != 1:
        raise ValueError(f"seat win rates need one player count, got {sorted(n)}")
    players = n.pop()
    return [rate(sum(seat_won(r, s) for r in rows), len(rows), z) for s in range(players)]


def first_seat_advantage(rows: Sequence[Row], z: float = Z95) -> dict[str, Any]:
    """The first seat's win rate against its fair share ``1 / num_players``.

    Meant for rows where every seat plays the same agent (otherwise the seats differ
    by more than their order). ``advantage`` is the win rate minus the fair share,
    ``low``/``high`` its 95% interval (the Wilson interval, shifted: the fair share is
    a constant); ``ratio`` the win rate over the fair share.
    """
    seats = seat_win_rates(rows, z)
    fair = 1.0 / len(seats)
    first = seats[0]
    return {
        "num_players": len(seats),
        "games": first.games,
        "first_seat_rate": first.rate,
        "fair_share": fair,
        "advantage": first.rate - fair,
        "low": first.low - fair,
        "high": first.high - fair,
        "ratio": first.rate / fair,
        "seat_rates": [s.rate for s in seats],
    }


def quantiles(values: Sequence[float], qs: Sequence[float] = (0.05, 0.25, 0.5, 0.75, 0.95)) -> dict:
    """``{"q05": ..., "q50": ...}`` of ``values`` (linear interpolation); empty -> nan."""
    arr = np.asarray(values, dtype=float)
    return {
        f"q{round(q * 100):02d}": (float(np.quantile(arr, q)) if arr.size else float("nan"))
        for q in qs
    }


def score_margins(rows: Sequence[Row]) -> dict[str, Any]:
    """The winner's margin over the best loser, over the games somebody won.

    With win/loss rewards every margin is 2 (or 1 for a tied win); sweep with a
    scoring reward option (the race's ``reward=vt``) for margins in points.
    """
    margins = [float(r["margin"]) for r in rows if winners_of(r)]
    return {
        "decided": len(margins),
        "games": len(rows),
        "mean": float(np.mean(margins)) if margins else float("nan"),
        **quantiles(margins),
    }


def length_summary(rows: Sequence[Row]) -> dict[str, Any]:
    """Game length in decisions: mean, quantiles and the share of truncated games."""
    lengths = [float(r["decisions"]) for r in rows]
    truncated = sum(1 for r in rows if truthy(r.get("truncated")))
    return {
        "games": len(rows),
        "mean": float(np.mean(lengths)) if lengths else float("nan"),
        **quantiles(lengths),
        "truncated": truncated / len(rows) if rows else float("nan"),
    }


def truthy(v: Any) -> bool:
    """Whether a table cell reads as true (``1``, ``"1"``, ``True``, ``"true"``)."""
    return v in (True, 1, "1", "True", "true")


# ------------------------------------------------------------------ difficulty, variants
def ordering_verdict(diffs: Sequence[tuple[float, float, float]], overall: tuple) -> str:
    """Whether "harder to the right" holds, from the step differences (easier minus harder).

    ``diffs``: (difference, low, high) of the win rate one step easier minus one step
    harder, each step; ``overall``: the same from the easiest to the hardest value.
    "violated": some step is significantly easier to the right; "holds": the overall
    drop is significant and no step is violated; otherwise "not resolved" (the
    sample cannot tell).
    """
    if any(high < 0 for _, _, high in diffs):
        return "violated"
    if overall[1] > 0:
        return "holds"
    return "not resolved"


def parameter_effects(
    rows: Sequence[Row],
    won: Callable[[Row], bool],
    parameters: Sequence[str],
    level_table: Sequence[Sequence[int]],
    level_of: Callable[[Row], Sequence[int]],
    z: float = Z95,
) -> list[dict[str, Any]]:
    """Each difficulty parameter's marginal effect on the win rate.

    ``parameters`` names them; ``level_table[i]`` lists parameter ``i``'s values from
    easiest to hardest (Hispania's Low, Medium, High); ``level_of(row)`` is the row's
    value of each (``Difficulty.split`` of its level). For every parameter: the win rate
    at each of its values over every row with that value (averaging over the other parameters as
    sampled), the drop from easiest to hardest with its Newcombe interval, and the
    :func:`ordering_verdict` of the rulebook's "increasing difficulty to the right".
    The list is sorted with the largest drop first ("which parameter matters most").
    """
    out = []
    for i, name in enumerate(parameters):
        values = [int(v) for v in level_table[i]]
        counts = {v: [0, 0] for v in values}
        for r in rows:
            v = int(level_of(r)[i])
            counts[v][0] += int(won(r))
            counts[v][1] += 1
        rates = [rate(counts[v][0], counts[v][1], z) for v in values]
        steps = [
            newcombe_interval(counts[a][0], counts[a][1], counts[b][0], counts[b][1], z)
            for a, b in itertools.pairwise(values)
        ]
        first, last = values[0], values[-1]
        overall = newcombe_interval(
            counts[first][0], counts[first][1], counts[last][0], counts[last][1], z
        )
        out.append(
            {
                "parameter": name,
                "values": values,
                "rates": [x.as_dict() for x in rates],
                "drop": overall[0],
                "drop_low": overall[1],
                "drop_high": overall[2],
                "ordering": ordering_verdict(steps, overall),
            }
        )
    out.sort(key=lambda e: -abs(e["drop"]) if not math.isnan(e["drop"]) else 0.0)
    return out


def kendall_tau(a: Sequence[float], b: Sequence[float]) -> float:
    """Kendall's tau-a between two equally long sequences (nan when shorter than 2)."""
    n = len(a)
    if n != len(b):
        raise ValueError("kendall_tau needs equally long sequences")
    if n < 2:
        return float("nan")
    s = 0
    for i in range(n):
        for j in range(i + 1, n):
            s += int(np.sign(a[j] - a[i]) * np.sign(b[j] - b[i]))
    return s / (n * (n - 1) / 2)


def variant_effects(
    rows: Sequence[Row],
    won: Callable[[Row], bool],
    rulebook_order: Sequence[str],
    variant_of: Callable[[Row], str] = lambda r: r["variant"],
    baseline: str = "none",
    z: float = Z95,
) -> dict[str, Any]:
    """Each variant's effect on the win rate against the ``baseline`` rows.

    ``effect`` is the variant's win rate minus the baseline's, with its Newcombe
    interval and a word: "easier", "harder" (the interval excludes 0) or "no clear
    effect". The rulebook says its variants go from easier to harder in its order:
    ``tau`` is Kendall's tau between that order and the effects (-1: the order holds
    perfectly, the later the harder).
    """
    groups: dict[str, list[Row]] = {}
    for r in rows:
        groups.setdefault(str(variant_of(r)), []).append(r)
    if baseline not in groups:
        raise ValueError(f"no baseline rows (variant {baseline!r}) to compare the variants with")
    base = groups[baseline]
    kb, nb = sum(won(r) for r in base), len(base)
    effects = []
    for name in [v for v in rulebook_order if v in groups]:
        g = groups[name]
        k = sum(won(r) for r in g)
        d, lo, hi = newcombe_interval(k, len(g), kb, nb, z)
        word = "easier" if lo > 0 else "harder" if hi < 0 else "no clear effect"
        effects.append(
            {
                "variant": name,
                **rate(k, len(g), z).as_dict(),
                "effect": d,
                "effect_low": lo,
                "effect_high": hi,
                "reading": word,
            }
        )
    tau = kendall_tau(list(range(len(effects))), [e["effect"] for e in effects])
    return {"baseline": rate(kb, nb, z).as_dict(), "effects": effects, "tau": tau}

"""The game-evaluation metrics of the field, per sweep cell, each with its interval.

Every metric is defined once, with its formula and source, in
``docs/guides/balance-metrics.md``; :data:`METRICS` lists them in that order. They come
in three families:

- **outcomes** (from each game's final returns and truncation flag): balance,
  first-player advantage, side advantage, draws, losses to the game, truncations,
  completion (Ludii's outcome metrics: ``Balance``, ``AdvantageP1``,
  ``Drawishness``, ``Timeouts``, ``Completion``);
- **shape** (from the per-decision trace): length (mean and spread), branching factor,
  share of decisions with a real choice (Ludii's ``DurationTurns``,
  ``DurationTurnsStdDev``, ``BranchingFactorAvg``, ``DecisionMoves``);
- **tension** (from a value estimate of every position, each player's standing in
  ``[-1, 1]``: the shipped self-play network's value head where it plays the cell,
  else the game's progress measure ``evaluate_position``): lead change, drama,
  the share of positions where the eventual winner was behind, decisiveness (Ludii's
  ``LeadChange``, ``Drama``, ``DecisivenessMoves``, after Browne 2008).

A per-game metric is computed on each game (:func:`lead_change`, :func:`drama`, ...),
then averaged over the cell's games (each game weighs the same, as in Ludii), with a
95% normal interval of the mean. A proportion has its Wilson interval; balance, a
function of every seat's rate at once, a bootstrap interval over the games.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardsim.research.stats import Z95, wilson_interval
from boardsim.research.traces import Traces

BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 0
SHARE = (0.0, 1.0)  # the range of a metric that is a share of positions or of a game


@dataclass(frozen=True)
class Metric:
    """One metric: its key, family, words and source (the docs page defines it at length)."""

    key: str
    family: str  # outcomes, shape, tension
    title: str
    source: str


METRICS: tuple[Metric, ...] = (
    Metric("balance", "outcomes", "Balance", "Ludii Balance"),
    Metric("first_player", "outcomes", "First-player win rate", "Ludii AdvantageP1"),
    Metric("first_player_advantage", "outcomes", "First-player advantage", "Browne 2008"),
    Metric("side_gap", "outcomes", "Side advantage", "Jaffe et al. 2012"),
    Metric("draws", "outcomes", "Draws", "Ludii Drawishness"),
    Metric("lost_to_game", "outcomes", "Losses to the game", "boardsim"),
    Metric("truncations", "outcomes", "Truncations", "Ludii Timeouts"),
    Metric("completion", "outcomes", "Completion", "Ludii Completion"),
    Metric("length", "shape", "Length", "Ludii DurationTurns"),
    Metric("length_spread", "shape", "Length spread", "Ludii DurationTurnsStdDev"),
    Metric("branching", "shape", "Branching factor", "Ludii BranchingFactorAvg"),
    Metric("real_choice", "shape", "Decisions with a real choice", "Ludii DecisionMoves"),
    Metric("lead_change", "tension", "Lead change", "Ludii LeadChange; Browne 2008"),
    Metric("drama", "tension", "Drama", "Ludii Drama; Browne 2008"),
    Metric("winner_behind", "tension", "Winner behind", "Browne 2008"),
    Metric("decisiveness", "tension", "Decisiveness", "Ludii DecisivenessMoves; Browne 2008"),
    Metric("outcome_uniformity", "outcomes", "Outcome uniformity", "Ludii OutcomeUniformity"),
    Metric("branching_median", "series", "Branching factor median", "Ludii BranchingFactorMedian"),
    Metric("branching_max", "series", "Branching factor maximum", "Ludii BranchingFactorMax"),
    Metric(
        "branching_variance", "series", "Branching factor variance", "Ludii BranchingFactorVariance"
    ),
    Metric(
        "branching_change",
        "series",
        "Branching factor change",
        "Ludii BranchingFactorChangeAverage",
    ),
    Metric(
        "branching_change_sign",
        "series",
        "Branching factor change sign",
        "Ludii BranchingFactorChangeSign",
    ),
    Metric(
        "branching_change_times",
        "series",
        "Branching factor direction changes",
        "Ludii BranchingFactorChangeNumTimes",
    ),
    Metric(
        "branching_max_increase",
        "series",
        "Branching factor largest rise",
        "Ludii BranchingFactorMaxIncrease",
    ),
    Metric(
        "branching_max_decrease",
        "series",
        "Branching factor largest fall",
        "Ludii BranchingFactorMaxDecrease",
    ),
    Metric("decision_factor", "series", "Decision factor", "Ludii DecisionFactorAvg"),
    Metric("decision_factor_max", "series", "Decision factor maximum", "Ludii DecisionFactorMax"),
    Metric(
        "evaluation_difference",
        "series",
        "State evaluation difference",
        "Ludii StateEvaluationDifferenceAvg",
    ),
    Metric(
        "evaluation_difference_max",
        "series",
        "State evaluation difference maximum",
        "Ludii StateEvaluationDifferenceMax",
    ),
    Metric("stability", "series", "Stability", "Ludii Stability"),
    Metric(
        "decisiveness_threshold",
        "series",
        "Decisiveness threshold",
        "Ludii DecisivenessThreshold",
    ),
)
METRIC_KEYS = tuple(m.key for m in METRICS)


@dataclass(frozen=True)
class Estimate:
    """A metric's value over a cell's games with its 95% interval ``[low, high]``.

    ``n`` counts the games it was measured on (fewer than the cell's for the tension
    metrics, which need a winner).
    """

    value: float
    low: float
    high: float
    n: int

    def as_dict(self) -> dict[str, float]:
        """The estimate as plain data."""
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


NAN = float("nan")


def proportion(successes: float, n: int, z: float = Z95) -> Estimate:
    """``successes / n`` with its Wilson interval."""
    low, high = wilson_interval(successes, n, z)
    return Estimate(successes / n if n else NAN, low, high, n)


def mean_estimate(
    values: Sequence[float], z: float = Z95, bounds: tuple[float, float] | None = None
) -> Estimate:
    """The mean of per-game values with its normal interval ``mean +- z s / sqrt(n)``,
    clipped to ``bounds`` (a share's ``(0, 1)``).

    NaN values (a game the metric does not apply to) are left out; a single value has
    no interval (``low == high == value``)."""
    arr = np.asarray(values, dtype=float)
    arr = arr[~np.isnan(arr)]
    n = int(arr.size)
    if n == 0:
        return Estimate(NAN, NAN, NAN, 0)
    m = float(arr.mean())
    half = z * float(arr.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
    low, high = m - half, m + half
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return Estimate(m, low, high, n)


# ------------------------------------------------------------------ outcomes of one game
def winners(returns: np.ndarray) -> tuple[int, ...]:
    """The seats with the best return; nobody when all are equal and not positive.

    A shared loss (Hispania's Romans all at -1) or a full draw is nobody's win; a
    shared win (the Romans all at +1, tied winners) counts for every winner.
    """
    best, worst = float(np.max(returns)), float(np.min(returns))
    if best == worst and best <= 0:
        return ()
    return tuple(int(s) for s in np.flatnonzero(returns == best))


def outcome(returns: np.ndarray, truncated: bool) -> str:
    """How one game ended: ``truncated``, ``won`` (somebody won), ``lost`` (every player
    lost to the game, as Rome to Hispania's system) or ``draw``."""
    if truncated:
        return "truncated"
    if winners(returns):
        return "won"
    if float(np.max(returns)) < 0:
        return "lost"
    return "draw"


def win_matrix(returns: np.ndarray, truncated: np.ndarray) -> np.ndarray:
    """``[games, players]``: 1 where the player is among a finished game's winners."""
    n, p = returns.shape
    won = np.zeros((n, p))
    for k in range(n):
        if not truncated[k]:
            for s in winners(returns[k]):
                won[k, s] = 1.0
    return won


def balance_of(won: np.ndarray) -> float:
    """``1 - max_{a,b} |rate_a - rate_b|`` over the seats' win rates (Ludii's Balance)."""
    rates = won.mean(axis=0)
    return float(1.0 - (rates.max() - rates.min()))


def bootstrap(
    won: np.ndarray,
    statistic: Callable[[np.ndarray], float],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> Estimate:
    """``statistic(won)`` with the 2.5%-97.5% percentile interval over resampled games."""
    n = won.shape[0]
    if n == 0:
        return Estimate(NAN, NAN, NAN, 0)
    rng = np.random.default_rng(seed)
    draws = np.array([statistic(won[rng.integers(0, n, n)]) for _ in range(resamples)])
    low, high = np.quantile(draws, [0.025, 0.975])
    return Estimate(statistic(won), float(low), float(high), n)


def side_rates(won: np.ndarray, teams: Sequence[int]) -> dict[int, Estimate]:
    """Each side's win rate (a side wins a game when any of its players does)."""
    out = {}
    for side in dict.fromkeys(teams):
        cols = [p for p, t in enumerate(teams) if t == side]
        out[int(side)] = proportion(float(won[:, cols].max(axis=1).sum()), won.shape[0])
    return out


def outcome_metrics(
    returns: np.ndarray, truncated: np.ndarray, teams: Sequence[int] | None = None
) -> dict[str, Any]:
    """The outcome metrics of a cell's games (see :data:`METRICS`), with the seats' and
    the sides' win rates they are built on."""
    returns = np.asarray(returns, dtype=float)
    truncated = np.asarray(truncated, dtype=bool)
    n, p = returns.shape
    teams = list(range(p)) if teams is None else list(teams)
    won = win_matrix(returns, truncated)
    kinds = [outcome(returns[k], bool(truncated[k])) for k in range(n)]
    seats = [proportion(float(won[:, s].sum()), n) for s in range(p)]
    sides = side_rates(won, teams)
    fair = 1.0 / p
    first = seats[0]
    out: dict[str, Any] = {
        "games": n,
        "seats": [s.as_dict() for s in seats],
        "sides": {str(k): v.as_dict() for k, v in sides.items()},
        "balance": bootstrap(won, balance_of).as_dict() if p > 1 else None,
        "first_player": first.as_dict(),
        "first_player_advantage": Estimate(
            first.value - fair, first.low - fair, first.high - fair, n
        ).as_dict(),
        "side_gap": _side_gap(won, teams).as_dict() if len(sides) > 1 else None,
        "draws": proportion(kinds.count("draw"), n).as_dict(),
        "lost_to_game": proportion(kinds.count("lost"), n).as_dict(),
        "truncations": proportion(kinds.count("truncated"), n).as_dict(),
        "completion": proportion(kinds.count("won") + kinds.count("lost"), n).as_dict(),
        "outcome_uniformity": bootstrap(returns, outcome_uniformity).as_dict(),
    }
    return out


def outcome_uniformity(returns: np.ndarray) -> float:
    """Ludii's OutcomeUniformity: one minus the players' mean variance of their outcomes
    over the games, ``1 - mean_p Var_g(u_g,p)`` (population variance), the outcomes the
    games' returns (each in ``[-1, 1]``)."""
    r = np.asarray(returns, dtype=float)
    return float(1.0 - np.mean(np.var(r, axis=0))) if len(r) else NAN


def _side_gap(won: np.ndarray, teams: Sequence[int]) -> Estimate:
    """The largest gap between two sides' win rates, bootstrapped."""
    sides = list(dict.fromkeys(teams))
    cols = [[p for p, t in enumerate(teams) if t == s] for s in sides]

    def gap(w: np.ndarray) -> float:
        rates = [w[:, c].max(axis=1).mean() for c in cols]
        return float(max(rates) - min(rates))

    return bootstrap(won, gap)


# ------------------------------------------------------------------ shape of one game
def branching(legal: np.ndarray) -> float:
    """Mean legal actions over one game's decisions (nan for a game without decisions)."""
    return float(np.mean(legal)) if len(legal) else NAN


def real_choice(legal: np.ndarray) -> float:
    """Share of one game's decisions with more than one legal action."""
    return float(np.mean(np.asarray(legal) > 1)) if len(legal) else NAN


# ------------------------------------------------------------------ tension of one game
def leaders(values: np.ndarray) -> np.ndarray:
    """``[T, players]``: True for the players with the highest value at each position
    (ties: all of them)."""
    v = np.asarray(values, dtype=float)
    return v == v.max(axis=1, keepdims=True)


def lead_change(values: np.ndarray) -> float:
    """Share of consecutive positions between which the leader (set) changes:
    ``#{t >= 1 : L_t != L_(t-1)} / (T - 1)``; nan with fewer than 2 positions."""
    if len(values) < 2:
        return NAN
    lead = leaders(values)
    return float(np.mean(np.any(lead[1:] != lead[:-1], axis=1)))


def drama(values: np.ndarray, won: Sequence[int]) -> float:
    """Mean over positions of how far the eventual winners trail the leader:
    ``mean_t (max_p v_t,p - mean_(w in W) v_t,w)`` (0 where a winner leads); nan without
    a winner or a position."""
    if not len(won) or not len(values):
        return NAN
    v = np.asarray(values, dtype=float)
    return float(np.mean(v.max(axis=1) - v[:, list(won)].mean(axis=1)))


def winner_behind(values: np.ndarray, won: Sequence[int]) -> float:
    """Share of positions at which no eventual winner was among the leaders."""
    if not len(won) or not len(values):
        return NAN
    return float(np.mean(~leaders(values)[:, list(won)].any(axis=1)))


def decisiveness(values: np.ndarray, won: Sequence[int]) -> float:
    """How far into the game the winner's lead became decisive: ``t* / T``.

    The threshold is the best value any eventual loser ever reached; ``t*`` is the first
    position where an eventual winner's value exceeds it (``T`` when none does). Near 0:
    decided at once; 1: open to the end. nan without a winner, a loser or a position.
    """
    v = np.asarray(values, dtype=float)
    if not len(won) or not len(v):
        return NAN
    losers = [p for p in range(v.shape[1]) if p not in won]
    if not losers:
        return NAN
    threshold = v[:, losers].max()
    above = np.flatnonzero(v[:, list(won)].max(axis=1) > threshold)
    first = int(above[0]) if above.size else len(v)
    return first / len(v)


# ------------------------------------------------------------------ Ludii's series of one game
# Ludii's multi-metrics read one value a position (the legal actions, the players' values)
# and sum the series up: its median (the middle of the sorted series), maximum, variance,
# the average change ((last - first) / (T - 1)), the mean sign of the changes, how often
# the direction changes, and the largest rise and fall from one position to the next.
def series_median(x: np.ndarray) -> float:
    """The value at the middle of the sorted series (Ludii's ``valueList[n / 2]``)."""
    return float(np.sort(x)[len(x) // 2]) if len(x) else NAN


def series_change(x: np.ndarray) -> float:
    """``(last - first) / (T - 1)``; nan with fewer than 2 values."""
    return float((x[-1] - x[0]) / (len(x) - 1)) if len(x) > 1 else NAN


def series_change_sign(x: np.ndarray) -> float:
    """The mean sign of the changes between consecutive values."""
    return float(np.mean(np.sign(np.diff(x)))) if len(x) > 1 else NAN


def series_change_times(x: np.ndarray) -> float:
    """How often the direction of change (up or down) differs from the step before's,
    over ``T - 1`` (a step without change resets the direction, as in Ludii)."""
    if len(x) < 2:
        return NAN
    direction, times = 0.0, 0
    for step in np.sign(np.diff(x)):
        if step != 0 and step != direction:
            times += 1
        direction = step
    return times / (len(x) - 1)


def series_max_increase(x: np.ndarray) -> float:
    """The largest rise from one value to the next (0 when it never rises)."""
    return float(max(0.0, np.diff(x).max())) if len(x) > 1 else 0.0


def series_max_decrease(x: np.ndarray) -> float:
    """The largest fall from one value to the next, as a value below 0 (0: never falls)."""
    return float(min(0.0, np.diff(x).min())) if len(x) > 1 else 0.0


def branching_series(legal: np.ndarray) -> dict[str, float]:
    """Ludii's BranchingFactor* and DecisionFactor* of one game's legal-action counts."""
    x = np.asarray(legal, dtype=float)
    choices = x[x > 1]
    if not len(x):
        return {k: NAN for k in BRANCHING_SERIES}
    return {
        "branching_median": series_median(x),
        "branching_max": float(x.max()),
        "branching_variance": float(np.var(x)),
        "branching_change": series_change(x),
        "branching_change_sign": series_change_sign(x),
        "branching_change_times": series_change_times(x),
        "branching_max_increase": series_max_increase(x),
        "branching_max_decrease": series_max_decrease(x),
        # Ludii sums the counts above 1 and divides by every decision
        "decision_factor": float(choices.sum() / len(x)),
        "decision_factor_max": float(choices.max()) if len(choices) else 0.0,
    }


def evaluation_series(values: np.ndarray, won: Sequence[int]) -> dict[str, float]:
    """Ludii's StateEvaluationDifference (average, maximum), Stability and
    DecisivenessThreshold of one game's position values ``[T, players]``."""
    v = np.asarray(values, dtype=float)
    if not len(v):
        return {k: NAN for k in EVALUATION_SERIES}
    gap = v.max(axis=1) - v.min(axis=1)  # the largest difference between two players
    losers = [p for p in range(v.shape[1]) if p not in won]
    return {
        "evaluation_difference": float(gap.mean()),
        "evaluation_difference_max": float(gap.max()),
        "stability": float(np.var(v, axis=0).sum()),
        "decisiveness_threshold": float(v[:, losers].max()) if won and losers else NAN,
    }


BRANCHING_SERIES = (
    "branching_median",
    "branching_max",
    "branching_variance",
    "branching_change",
    "branching_change_sign",
    "branching_change_times",
    "branching_max_increase",
    "branching_max_decrease",
    "decision_factor",
    "decision_factor_max",
)
EVALUATION_SERIES = (
    "evaluation_difference",
    "evaluation_difference_max",
    "stability",
    "decisiveness_threshold",
)
SERIES = BRANCHING_SERIES + EVALUATION_SERIES
PER_GAME = (
    "branching",
    "real_choice",
    "lead_change",
    "drama",
    "winner_behind",
    "decisiveness",
    *SERIES,
)


def per_game_metrics(traces: Traces) -> dict[str, np.ndarray]:
    """Each game's shape and tension metrics (:data:`PER_GAME`), one array each.

    A tension metric is nan for a game truncated by ``max_decisions`` or longer than its
    trace (its end is not known) and where it does not apply (no winner).
    """
    n = traces.games
    out = {k: np.full(n, NAN) for k in PER_GAME}
    whole = traces.recorded == traces.decisions
    for k in range(n):
        g = traces.game(k)
        out["branching"][k] = branching(g["legal"])
        out["real_choice"][k] = real_choice(g["legal"])
        for key, value in branching_series(g["legal"]).items():
            out[key][k] = value
        if traces.truncated[k] or not whole[k]:
            continue
        won = winners(g["returns"])
        for key, value in evaluation_series(g["values"], won).items():
            out[key][k] = value
        out["lead_change"][k] = lead_change(g["values"])
        out["drama"][k] = drama(g["values"], won)
        out["winner_behind"][k] = winner_behind(g["values"], won)
        out["decisiveness"][k] = decisiveness(g["values"], won)
    return out


# ------------------------------------------------------------------ a cell
def shape_metrics(decisions: np.ndarray, per_game: dict[str, np.ndarray]) -> dict[str, Any]:
    """Length, its spread, branching factor and real choices over a cell's games."""
    lengths = np.asarray(decisions, dtype=float)
    spread = float(np.std(lengths, ddof=1)) if len(lengths) > 1 else NAN
    return {
        "length": mean_estimate(lengths).as_dict(),
        "length_spread": Estimate(spread, NAN, NAN, len(lengths)).as_dict(),
        "branching": mean_estimate(per_game["branching"]).as_dict(),
        "real_choice": mean_estimate(per_game["real_choice"], bounds=SHARE).as_dict(),
    }


def tension_metrics(per_game: dict[str, np.ndarray]) -> dict[str, Any]:
    """Lead change, drama, winner behind and decisiveness over the games they apply to
    (``n`` of each says how many)."""
    return {
        k: mean_estimate(per_game[k], bounds=None if k == "drama" else SHARE).as_dict()
        for k in ("lead_change", "drama", "winner_behind", "decisiveness")
    }


def series_metrics(per_game: dict[str, np.ndarray]) -> dict[str, Any]:
    """Ludii's series metrics over a cell's games, those the games recorded (a sweep
    folder written before them has none)."""
    return {k: mean_estimate(per_game[k]).as_dict() for k in SERIES if k in per_game}


def summarize_cell(
    returns: np.ndarray,
    truncated: np.ndarray,
    decisions: np.ndarray,
    per_game: dict[str, np.ndarray] | None,
    teams: Sequence[int] | None = None,
) -> dict[str, Any]:
    """Every metric of :data:`METRICS` over one cell's games (the shape and tension ones
    only with ``per_game``, from traces), as plain data."""
    out = outcome_metrics(returns, truncated, teams)
    if per_game is None:
        lengths = np.asarray(decisions, dtype=float)
        out["length"] = mean_estimate(lengths).as_dict()
        return out
    return {
        **out,
        **shape_metrics(decisions, per_game),
        **tension_metrics(per_game),
        **series_metrics(per_game),
    }


def cell_metrics(traces: Traces, teams: Sequence[int] | None = None) -> dict[str, Any]:
    """Every metric of :data:`METRICS` over the games of ``traces``, as plain data."""
    return summarize_cell(
        traces.returns, traces.truncated, traces.decisions, per_game_metrics(traces), teams
    )

"""Meta-game analysis of a population of agents: who carries weight, is there a dominant one.

A population sweep (``--grid skill=population:random+heuristic+mcts:25 --grid seat=all``)
plays every ordered pair of agents ``A/B`` (``A`` in the tested seat, ``B`` everywhere
else; ``A/A`` too) in every seat. From its rows, :func:`meta_matrices` builds:

- the **symmetric** matrix ``S[i, j]``: agent ``i``'s score in one seat against a table of
  ``j`` (1 a win, 1/2 a two-player draw), over every seat, with its Wilson interval;
  against the fair share ``1 / players``;
- for two-player games, the **two-sided** matrix ``R[i, j]``: the first seat's score with
  agent ``i`` in it against agent ``j`` in the second (Farrapos: a Republic agent against
  an Empire agent), each game counted once from each side's view.

Then:

- :func:`zero_sum_nash`: the maximin mixed strategies of a two-player zero-sum game by
  linear programming (scipy's ``linprog``, HiGHS): for ``R`` (the two sides' equilibrium)
  and for the antisymmetric ``S - S^T`` (Nash averaging, Balduzzi et al. 2018);
- :func:`alpharank`: α-Rank (Omidshafiei et al. 2019, *α-Rank: Multi-Agent Evaluation by
  Evolution*, Scientific Reports 9): the stationary distribution of the Markov chain of
  monomorphic populations under rare mutations, for one population (``S``) or one a
  side (``R``); implemented from the paper, the few lines it takes, with no library
  dependency beyond numpy;
- :func:`dominant`: an agent whose score against every other agent's is significantly
  above theirs against it (its interval above the fair share).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardsim.core.errors import OptionError
from boardsim.research import stats

ALPHA = 50.0  # α-Rank's selection intensity (large: the paper's infinite-α limit ranking)
POPULATION = 50  # α-Rank's population size m

Row = dict[str, Any]


def population_pairs(agents: Sequence[str]) -> list[str]:
    """Every ordered pair ``A/B`` of the population (``A/A`` included): the ``skill`` values
    of a population sweep."""
    if len(agents) < 2 or len(set(agents)) != len(agents):
        raise OptionError("a population needs at least two different agents")
    return [f"{a}/{b}" for a, b in itertools.product(agents, repeat=2)]


@dataclass
class Matrix:
    """``score[i, j]`` out of ``games[i, j]`` with Wilson intervals ``low``/``high``."""

    agents: list[str]
    score: np.ndarray
    games: np.ndarray
    low: np.ndarray
    high: np.ndarray

    @property
    def rate(self) -> np.ndarray:
        """``score / games`` (nan where no game was played)."""
        return np.where(self.games > 0, self.score / np.maximum(self.games, 1), np.nan)

    def as_dict(self) -> dict[str, Any]:
        """The matrix as plain data (rows are the first agent)."""
        return {
            "agents": self.agents,
            "rate": self.rate.tolist(),
            "low": self.low.tolist(),
            "high": self.high.tolist(),
            "games": self.games.tolist(),
        }


def _matrix(agents: list[str], score: np.ndarray, games: np.ndarray) -> Matrix:
    low = np.full(score.shape, np.nan)
    high = np.full(score.shape, np.nan)
    for i, j in np.ndindex(score.shape):
        if games[i, j] > 0:
            low[i, j], high[i, j] = stats.wilson_interval(score[i, j], int(games[i, j]))
    return Matrix(agents, score, games, low, high)


def test_score(row: Row) -> float:
    """The agent under test's score in one game: 1 a win (shared or not), 1/2 a draw of a
    two-player game, 0 otherwise."""
    seat = int(row["test_seat"])
    won = stats.winners_of(row)
    if seat in won:
        return 1.0
    if not won and int(row["num_players"]) == 2 and not stats.truthy(row.get("truncated")):
        returns = [float(row[f"return_{s}"]) for s in range(2)]
        return 0.5 if max(returns) >= 0 else 0.0
    return 0.0


def population_agents(rows: Sequence[Row]) -> list[str] | None:
    """The population of a sweep whose ``skill`` values are every ordered pair of its agents,
    else ``None``."""
    pairs = {str(r.get("skill", "")) for r in rows}
    if not pairs or not all("/" in p for p in pairs):
        return None
    agents = list(dict.fromkeys(a for p in sorted(pairs) for a in p.split("/")))
    if len(agents) < 2 or pairs != set(population_pairs(agents)):
        return None
    first = str(rows[0]["skill"]).split("/")[0]
    return [first, *[a for a in agents if a != first]]


def meta_matrices(rows: Sequence[Row], agents: Sequence[str]) -> dict[str, Matrix]:
    """``{"symmetric": S}`` and, for two players, ``"two_sided": R`` (see the module)."""
    agents = list(agents)
    pos = {a: i for i, a in enumerate(agents)}
    k = len(agents)
    s_score, s_games = np.zeros((k, k)), np.zeros((k, k))
    r_score, r_games = np.zeros((k, k)), np.zeros((k, k))
    two = all(int(r["num_players"]) == 2 for r in rows)
    for r in rows:
        test, field = str(r["skill"]).split("/")
        i, j = pos[test], pos[field]
        x = test_score(r)
        s_score[i, j] += x
        s_games[i, j] += 1
        if two:  # the first seat's view: its agent, the second seat's agent, its score
            if int(r["test_seat"]) == 0:
                a, b, y = i, j, x
            else:
                a, b, y = j, i, 1.0 - x
            r_score[a, b] += y
            r_games[a, b] += 1
    out = {"symmetric": _matrix(agents, s_score, s_games)}
    if two:
        out["two_sided"] = _matrix(agents, r_score, r_games)
    return out


# ------------------------------------------------------------------ equilibria
def zero_sum_nash(payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """``(x, y, v)``: the row player's and column player's maximin mixed strategies of the
    zero-sum game where the row player gets ``payoff[i, j]``, and its value ``v``.

    Two linear programs (scipy's ``linprog``): ``max v`` subject to ``x^T A >= v`` for
    every column, ``x`` a distribution; the column player's likewise on ``-A^T``.
    """
    a = np.asarray(payoff, dtype=float)
    if np.isnan(a).any():
        raise ValueError("the payoff matrix has missing entries (pairs that did not play)")
    x, v = _maximin(a)
    y, _ = _maximin(-a.T)
    return x, y, v


def _maximin(a: np.ndarray) -> tuple[np.ndarray, float]:
    from scipy.optimize import linprog

    m, n = a.shape
    # variables: x_1..x_m, v; minimise -v; for every column j: v - sum_i x_i a_ij <= 0
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * m + [(None, None)]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0], bounds=bounds)
    if not res.success:  # pragma: no cover - a finite matrix game always has a solution
        raise RuntimeError(f"linprog failed: {res.message}")
    x = np.clip(res.x[:m], 0.0, None)
    return x / x.sum(), float(res.x[-1])


# ------------------------------------------------------------------ alpha-rank
def fixation(delta: float, alpha: float = ALPHA, m: int = POPULATION) -> float:
    """The probability that one mutant whose payoff exceeds the resident's by ``delta``
    takes over a population of ``m`` (Omidshafiei et al. 2019, eq. 2):
    ``(1 - e^(-α δ)) / (1 - e^(-m α δ))``, ``1/m`` when ``δ = 0``."""
    if abs(delta) < 1e-12:
        return 1.0 / m
    x = -alpha * delta
    if -m * x > 700:  # exp(-m α δ) underflows: the ratio is 1 - e^(-α δ)
        return -math.expm1(x)
    if m * x > 700:  # both exponentials huge: the ratio tends to e^((m-1) α δ) -> 0
        return math.exp(-(m - 1) * x) if (m - 1) * x < 700 else 0.0
    return math.expm1(x) / math.expm1(m * x)


def alpharank(
    payoffs: Sequence[np.ndarray], alpha: float = ALPHA, m: int = POPULATION
) -> np.ndarray:
    """α-Rank's stationary distribution over strategy profiles.

    ``payoffs``: one array a population; ``payoffs[k][s]`` is population ``k``'s payoff
    at the profile ``s`` (a tuple of one strategy a population).

    - One population of a symmetric game, ``payoffs = [S]``, ``S[i, j]`` the payoff of
      ``i`` against ``j``: the states are the monomorphic populations; a mutant ``j``
      takes over the population of ``i`` with the fixation probability of
      ``S[j, i] - S[i, j]`` (the paper's single-population case).
    - Several populations (one a side): the states are the profiles; a mutation changes
      one population's strategy, with the fixation probability of that population's
      payoff at the new profile minus at the old (the multi-population case).

    A mutation picks uniformly among the ``sum_k (|S_k| - 1)`` other strategies.
    Returns the stationary distribution, shaped like the profiles (``[k]`` for one
    population).
    """
    arrays = [np.asarray(p, dtype=float) for p in payoffs]
    if len(arrays) == 1 and arrays[0].ndim == 2:  # single population
        s = arrays[0]
        k = s.shape[0]
        c = np.zeros((k, k))
        eta = 1.0 / (k - 1)
        for i, j in itertools.permutations(range(k), 2):
            c[i, j] = eta * fixation(s[j, i] - s[i, j], alpha, m)
        np.fill_diagonal(c, 1.0 - c.sum(axis=1))
        return _stationary(c)
    shape = arrays[0].shape
    profiles = list(np.ndindex(shape))
    index = {p: n for n, p in enumerate(profiles)}
    eta = 1.0 / sum(d - 1 for d in shape)
    c = np.zeros((len(profiles), len(profiles)))
    for p in profiles:
        for k, size in enumerate(shape):
            for t in range(size):
                if t == p[k]:
                    continue
                q = (*p[:k], t, *p[k + 1 :])
                c[index[p], index[q]] = eta * fixation(arrays[k][q] - arrays[k][p], alpha, m)
    np.fill_diagonal(c, 1.0 - c.sum(axis=1))
    return _stationary(c).reshape(shape)


def _stationary(c: np.ndarray) -> np.ndarray:
    """The stationary distribution ``pi = pi C`` of a row-stochastic matrix."""
    n = c.shape[0]
    a = np.vstack([c.T - np.eye(n), np.ones((1, n))])
    b = np.zeros(n + 1)
    b[-1] = 1.0
    pi, *_ = np.linalg.lstsq(a, b, rcond=None)
    pi = np.clip(pi, 0.0, None)
    return pi / pi.sum()


# ------------------------------------------------------------------ the analysis
def dominant(matrix: Matrix, fair: float) -> list[str]:
    """The agents whose score against every other agent has its interval above ``fair``."""
    out = []
    for i, a in enumerate(matrix.agents):
        others = [j for j in range(len(matrix.agents)) if j != i]
        if others and all(matrix.low[i, j] > fair for j in others):
            out.append(a)
    return out


def analyse(rows: Sequence[Row], agents: Sequence[str]) -> dict[str, Any]:
    """The meta-game of a population sweep, as plain data: the matrices, the Nash weights,
    α-Rank and the dominant agents."""
    mats = meta_matrices(rows, agents)
    s = mats["symmetric"]
    players = int(rows[0]["num_players"])
    fair = 1.0 / players
    rate = s.rate
    # the symmetric evaluation game: i's excess over the fair share against j, minus j's
    antisym = np.nan_to_num(rate - rate.T)
    x, _, _ = zero_sum_nash(antisym)
    out: dict[str, Any] = {
        "agents": list(agents),
        "players": players,
        "fair_share": fair,
        "symmetric": s.as_dict(),
        "nash_averaging": x.tolist(),
        "alpharank": alpharank([np.nan_to_num(rate, nan=fair)]).tolist(),
        "dominant": dominant(s, fair),
    }
    if "two_sided" in mats:
        r = mats["two_sided"]
        xr, yr, v = zero_sum_nash(np.nan_to_num(r.rate, nan=0.5))
        pr = np.nan_to_num(r.rate, nan=0.5)
        ranks = alpharank([pr, 1.0 - pr])
        out["two_sided"] = {
            **r.as_dict(),
            "nash_first": xr.tolist(),
            "nash_second": yr.tolist(),
            "value": v,
            "alpharank_first": ranks.sum(axis=1).tolist(),
            "alpharank_second": ranks.sum(axis=0).tolist(),
        }
    return out

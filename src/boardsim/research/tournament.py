"""Round-robin tournaments between agents: win rates with 95% Wilson intervals and Elo ratings.

Competitive games (every player its own side): every pair of agents (A, B)
plays ``games`` games; in game ``g`` agent A takes seat ``g mod players`` and B
every other seat, so each agent plays every seat equally often, and every pair
plays the same deals (game ``g`` is seeded ``seed + g``), which lowers the
variance of the comparisons. A game scores 1 for A if A's seat alone has the
best return, ``1/w`` if it shares the best with ``w - 1`` others (a draw), 0
otherwise; B scores the rest. With more than two players the win rates must be
read against the fair share ``1/players`` (one A against a table of Bs); both
arrangements are played for every pair, so the Elo ratings still compare them.

Cooperative games (every player on one side, Hispania's Romans): each agent
plays every seat of the side, ``games`` games at each difficulty level, and the
result is the side's win rate (a positive return) per agent and level.

Elo: the Bradley-Terry maximum likelihood ratings of the pairwise scores
(Hunter's MM iteration), draws as half a win, with one virtual draw a pair as a
prior so an unbeaten agent still gets a finite rating; 400 points of Elo are a
factor of ten in the odds; the mean rating is 1000. Each rating has a 95% interval
from the likelihood's curvature (:func:`bradley_terry_intervals`).

Games are played through the research floor's door to play
(:mod:`boardsim.research.players`): between agents that play in compiled code (``random``,
``heuristic``, ``mcts:SIMS`` with the game's default search settings, ``ppo:PATH``, the
networks ``alphazero[:PATH]`` and ``alphazero-mcts:SIMS[:PATH]``: every seat with its own
settings) entirely compiled, a search's games in chunks so a long run reports its
progress; an agent that decides for a batch of observations (``act_batch``) against a
compiled policy in the batched engine; any other pairing through the
:class:`boardsim.State` API, many games in lockstep.

Reuse: every pair (cell) is recorded with the settings its result depends on
(:mod:`boardsim.research.reuse`, ``pair_records`` in the JSON); given an earlier file's
:class:`~boardsim.research.reuse.PriorResults` (``reuse=``), a pair recorded there with
exactly the same settings is read back instead of played, and the result is the same as
a full replay's (the Elo ratings are fitted on the recorded exact scores).
"""

from __future__ import annotations

import csv
import io
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.api import make_game
from boardsim.core.batch import COMPILED_POLICIES
from boardsim.core.errors import OptionError
from boardsim.core.game import Game
from boardsim.files import atomic_write_text
from boardsim.research.players import (
    AgentMaker,
    batchable,
    compiled_together,
    make_agent,
    play_batched,
    play_compiled,
    play_lockstep,
)
from boardsim.research.reuse import PriorResults, agent_fingerprint, carried, pair_settings
from boardsim.research.stats import wilson_interval

ELO_MEAN = 1000.0
ELO_SCALE = 400.0 / math.log(10.0)


# ------------------------------------------------------------------ statistics
def bradley_terry_elo(
    scores: np.ndarray,
    games: np.ndarray,
    prior_draws: float = 1.0,
    iterations: int = 10_000,
    tolerance: float = 1e-10,
) -> np.ndarray:
    """Elo ratings from pairwise results: ``scores[i, j]`` points of i against j in
    ``games[i, j]`` games (symmetric; ``scores[i, j] + scores[j, i] = games[i, j]``).

    Bradley-Terry maximum likelihood by Hunter's MM iteration, with ``prior_draws``
    virtual draws for every pair that met; the ratings have mean ``ELO_MEAN``.
    """
    scores = np.asarray(scores, np.float64)
    games = np.asarray(games, np.float64)
    n = len(scores)
    if scores.shape != (n, n) or games.shape != (n, n):
        raise ValueError("scores and games must be square matrices of the same size")
    if not np.allclose(games, games.T) or not np.allclose(scores + scores.T, games):
        raise ValueError("pairwise results must add up: scores[i,j] + scores[j,i] = games[i,j]")
    met = games > 0
    played = games + prior_draws * met
    won = (scores + 0.5 * prior_draws * met).sum(axis=1)
    strength = np.ones(n)
    for _ in range(iterations):
        denom = (played / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = np.where(denom > 0, won / np.where(denom > 0, denom, 1.0), strength)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(new - strength)) < tolerance:
            strength = new
            break
        strength = new
    ratings = ELO_SCALE * np.log(strength)
    return ratings - ratings.mean() + ELO_MEAN


def bradley_terry_intervals(
    scores: np.ndarray,
    games: np.ndarray,
    ratings: np.ndarray,
    prior_draws: float = 1.0,
    z: float = 1.959964,
) -> tuple[np.ndarray, np.ndarray]:
    """95% (``z``) intervals of :func:`bradley_terry_elo`'s ``ratings``: ``(low, high)``.

    Each rating's standard error is read from the observed Fisher information of the
    same likelihood (the pairs' games plus the ``prior_draws``): with ``p`` the fitted
    chance that i beats j and ``n`` their games, the information has ``-n p (1 - p)``
    off the diagonal and the row's negated sum on it. Ratings are fixed only up to a
    common shift (their mean is ``ELO_MEAN``), so the covariance is the information's
    pseudo-inverse, that of the centred ratings. Two agents that met ``n`` times with
    a fitted ``p`` get each ``±z * 0.5 / sqrt(n p (1 - p))`` in log-odds.
    """
    games = np.asarray(games, np.float64)
    theta = (np.asarray(ratings, np.float64) - ELO_MEAN) / ELO_SCALE
    played = games + prior_draws * (games > 0)
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    info = -played * p * (1.0 - p)
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    variance = np.diag(np.linalg.pinv(info))
    half = z * ELO_SCALE * np.sqrt(np.maximum(variance, 0.0))
    connected = (games > 0).any(axis=1)
    half = np.where(connected, half, np.inf)
    return ratings - half, ratings + half


def seat_scores(returns: np.ndarray) -> np.ndarray:
    """Each seat's share of the win: 1 alone on the best return, 1/w shared by w seats."""
    best = returns.max()
    winners = np.isclose(returns, best)
    return winners / winners.sum()


# ------------------------------------------------------------------ playing
def _compiled_games(
    game: Game,
    policies: Sequence[str],
    num_games: int,
    seed: int,
    first_game: int,
    agent_maker: AgentMaker,
    progress: Callable[[str], None] | None,
    label: str,
    ahead: GamesAhead | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Games played entirely compiled (:func:`boardsim.research.players.play_compiled`),
    ``progress`` told after each chunk of a search's games (``"LABEL: 40/1000 games"``);
    read from ``ahead`` when they were played before the walk (:class:`GamesAhead`)."""
    if ahead is not None:
        found = ahead.games(Share.of(game, policies, first_game, num_games))
        if found is not None:
            return found
    done = 0

    def told(size: int) -> None:
        nonlocal done
        done += size
        if progress:
            progress(f"{label}: {done}/{num_games} games")

    out = play_compiled(
        game, policies, num_games, seed, first_game, on_chunk=told, agent_maker=agent_maker
    )
    return out["returns"], out["truncated"]


# ------------------------------------------------------------------ games played ahead
@dataclass(frozen=True)
class Share:
    """Games ``first`` to ``first + games - 1`` of the compiled seats ``policies`` (one spec
    a player) at the game's resolved ``options`` (as JSON): one seat's share of a pair, or
    a cooperative cell, as the tournament's walk asks for it."""

    options: str
    policies: tuple[str, ...]
    first: int
    games: int

    @classmethod
    def of(cls, game: Game, policies: Sequence[str], first: int, games: int) -> Share:
        """The share of ``game`` (its resolved options) the walk asks for."""
        return cls(json.dumps(game.options, sort_keys=True), tuple(policies), first, games)


class GamesAhead:
    """The compiled games of a tournament played before its walk (on a cluster: a walk
    plays its pairs one after another, the cluster plays them all at once).

    First the walk runs with ``asking`` set: every compiled share it would play is listed
    in :attr:`asked` (and answered with empty games; that walk's result is thrown away).
    Whoever plays them (:func:`boardsim.research.ray_backend.play_ahead_on_ray`) fills
    :meth:`keep`; the real walk then reads each share back (:meth:`games`) and plays the
    rest itself. Since game ``k`` depends only on the seed and ``k``, the result is the
    walk's own."""

    def __init__(self) -> None:
        self.asking = True
        self.asked: list[Share] = []
        self._played: dict[Share, tuple[np.ndarray, np.ndarray]] = {}
        self._spent: dict[Share, float] = {}
        self.seconds = 0.0  # the seconds the workers spent on the shares read back

    def keep(
        self, share: Share, returns: np.ndarray, truncated: np.ndarray, seconds: float
    ) -> None:
        """The games of ``share``, played (in ``seconds`` of a worker's time)."""
        self._played[share] = (returns, truncated)
        self._spent[share] = seconds

    def games(self, share: Share) -> tuple[np.ndarray, np.ndarray] | None:
        """``share``'s games (returns, truncated): empty ones while asking, None when not
        played ahead."""
        if self.asking:
            self.asked.append(share)
            return np.zeros((share.games, len(share.policies))), np.zeros(share.games, bool)
        found = self._played.get(share)
        if found is not None:
            self.seconds += self._spent[share]
        return found


# ------------------------------------------------------------------ results
@dataclass
class PairResult:
    """Agent ``agent`` against ``opponent``: its wins, draws and losses and win rate."""

    agent: str
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    win_rate: float
    ci_low: float
    ci_high: float
    truncated: int
    # the agent's games in each seat it took (seats rotated: game g in seat g mod players),
    # {"seat", "name" (the game's agent name), "games", "score", "win_rate", "ci_low",
    # "ci_high"}: in an asymmetric game each side's share; empty in a file written before
    by_seat: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class SoloResult:
    """A cooperative game's side played by ``agent`` at one ``level``."""

    agent: str
    level: str
    games: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    truncated: int


@dataclass
class TournamentResult:
    """Everything a tournament found; ``to_json`` / ``to_csv`` / ``table`` present it."""

    game: str
    options: dict[str, Any]
    agents: list[str]
    games_per_pair: int
    seed: int
    mode: str  # "round_robin" or "cooperative"
    pairs: list[PairResult] = field(default_factory=list)
    solo: list[SoloResult] = field(default_factory=list)
    elo: dict[str, float] = field(default_factory=dict)
    elo_low: dict[str, float] = field(default_factory=dict)  # the 95% interval's ends
    elo_high: dict[str, float] = field(default_factory=dict)
    # the time playing every pair took (pairs read back from an earlier file: at the time
    # they took then)
    seconds: float = 0.0
    command: str = ""  # the command line that played it, when a command did
    version: int = 0  # the game's rules version (GameDefinition.version) it was played at
    # per pair (cell): the settings it was played with (boardsim.research.reuse), its exact
    # scores both ways (round robin) or its level (cooperative), the seconds it took
    pair_records: list[dict[str, Any]] = field(default_factory=list)

    def win_rate_matrix(self) -> np.ndarray:
        """``[i, j]``: agent i's win rate (draws 1/2) against agent j; NaN on the diagonal."""
        k = len(self.agents)
        out = np.full((k, k), np.nan)
        pos = {a: i for i, a in enumerate(self.agents)}
        for r in self.pairs:
            out[pos[r.agent], pos[r.opponent]] = r.win_rate
        return out

    def to_json(self) -> str:
        """The result as JSON (with the win-rate matrix for a round robin)."""
        data = asdict(self)
        if self.mode == "round_robin":
            data["win_rate_matrix"] = [
                [None if math.isnan(x) else round(x, 6) for x in row]
                for row in self.win_rate_matrix()
            ]
        return json.dumps(data, indent=2) + "\n"

    def to_csv(self) -> str:
        """The result as CSV: one row a pair (with Elo ratings) or a solo matchup."""
        rows = self.pairs if self.mode == "round_robin" else self.solo
        out = io.StringIO()
        names = [n for n in asdict(rows[0]) if n != "by_seat"] if rows else []
        if self.mode == "round_robin":
            names += ["elo", "elo_low", "elo_high"]
        writer = csv.DictWriter(out, fieldnames=names, lineterminator="\n")
        writer.writeheader()
        for r in rows:
            row = asdict(r)
            row.pop("by_seat", None)
            if self.mode == "round_robin":
                row["elo"] = round(self.elo[r.agent], 1)
                row["elo_low"] = self.elo_low.get(r.agent, "")
                row["elo_high"] = self.elo_high.get(r.agent, "")
            writer.writerow(row)
        return out.getvalue()

    def table(self) -> str:
        """The results as a text table (win rate [95% interval], then Elo)."""
        if self.mode == "cooperative":
            return _solo_table(self)
        return _matrix_table(self)

    def write(self, out_prefix: str | Path) -> tuple[Path, Path]:
        """Write ``PREFIX.json`` and ``PREFIX.csv`` atomically; returns both paths."""
        prefix = Path(out_prefix)
        json_path = prefix.with_name(prefix.name + ".json")
        csv_path = prefix.with_name(prefix.name + ".csv")
        atomic_write_text(json_path, self.to_json())
        atomic_write_text(csv_path, self.to_csv())
        return json_path, csv_path


def _cell(rate: float, low: float, high: float) -> str:
    return f"{rate:.3f} [{low:.3f},{high:.3f}]"


def _matrix_table(result: TournamentResult) -> str:
    names = result.agents
    width = max(21, *(len(a) for a in names))
    lookup = {(r.agent, r.opponent): r for r in result.pairs}
    lines = [
        f"{result.game}: win rate of the row agent against the column agent "
        f"({result.games_per_pair} games a pair, seats rotated, 95% Wilson intervals)",
        f"{'':<{width}} " + " ".join(f"{a:>{width}}" for a in names) + f" {'Elo [95%]':>17}",
    ]
    for a in names:
        cells = []
        for b in names:
            r = lookup.get((a, b))
            cells.append(
                f"{'-':>{width}}"
                if r is None
                else f"{_cell(r.win_rate, r.ci_low, r.ci_high):>{width}}"
            )
        lines.append(f"{a:<{width}} " + " ".join(cells) + f" {_elo_cell(result, a):>17}")
    if result.options.get("num_players", 2) > 2:
        lines.append(
            "(one row agent against a table of column agents: "
            f"fair share 1/{result.options['num_players']})"
        )
    return "\n".join(lines + _sides_lines(result))


def _sides_lines(result: TournamentResult) -> list[str]:
    """Each pair's row agent side by side, where the seats are sides with names of their
    own (Farrapos's republic and empire; not the race's player_0, player_1, ...)."""
    rows = [
        r
        for r in result.pairs
        if r.by_seat
        and result.agents.index(r.agent) < result.agents.index(r.opponent)
        and not all(s["name"].startswith(("player_", "seat ")) for s in r.by_seat)
    ]
    if not rows:
        return []
    lines = ["each side: the row agent's win rate in each seat it took, 95% Wilson intervals"]
    for r in rows:
        sides = ", ".join(
            f"{s['name']} {_cell(s['win_rate'], s['ci_low'], s['ci_high'])} ({s['games']})"
            for s in r.by_seat
        )
        lines.append(f"  {r.agent} against {r.opponent}: {sides}")
    return lines


def _elo_cell(result: TournamentResult, agent: str) -> str:
    """``1012 [968, 1056]``: the rating and its interval (the rating alone without one)."""
    elo = f"{result.elo[agent]:.0f}"
    low, high = result.elo_low.get(agent), result.elo_high.get(agent)
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return elo
    return f"{elo} [{low:.0f}, {high:.0f}]"


def _solo_table(result: TournamentResult) -> str:
    levels = sorted(
        {r.level for r in result.solo}, key=lambda x: [r.level for r in result.solo].index(x)
    )
    width = 21
    lines = [
        f"{result.game}: win rate of the side played by each agent "
        f"({result.games_per_pair} games a level, 95% Wilson intervals)",
        f"{'agent':<16} " + " ".join(f"{lv:>{width}}" for lv in levels),
    ]
    lookup = {(r.agent, r.level): r for r in result.solo}
    for a in result.agents:
        cells = [
            f"{_cell(r.win_rate, r.ci_low, r.ci_high):>{width}}"
            for r in (lookup[(a, lv)] for lv in levels)
        ]
        lines.append(f"{a:<16} " + " ".join(cells))
    return "\n".join(lines)


# ------------------------------------------------------------------ tournaments
def _pair_games(
    game: Game,
    a_spec: str,
    b_spec: str,
    games: int,
    seed: int,
    agent_maker: AgentMaker,
    progress: Callable[[str], None] | None = None,
    ahead: GamesAhead | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """A's score in each of ``games`` games against B (A in seat ``g mod players``); the
    compiled pairs' games read from ``ahead`` when played there, the others (agents that
    decide in Python) played here, never while ``ahead`` is asking."""
    k = game.num_players
    scores = np.zeros(games)
    truncated = np.zeros(games, bool)
    for seat in range(k):
        g_idx = np.arange(seat, games, k)
        if g_idx.size == 0:
            continue
        if compiled_together([a_spec, b_spec]):
            policies = [b_spec] * k
            policies[seat] = a_spec
            # the compiled run's games seat * games + 0, 1, ...: the same deals for every pair
            rets, trunc = _compiled_games(
                game,
                policies,
                g_idx.size,
                seed,
                seat * games,
                agent_maker,
                progress,
                f"{a_spec} in seat {seat}",
                ahead,
            )
        elif ahead is not None and ahead.asking:
            continue  # only the compiled games are played ahead
        else:
            a = agent_maker(a_spec, game, seed + 7 * seat + 1)
            b = agent_maker(b_spec, game, seed + 7 * seat + 2)
            if b_spec in COMPILED_POLICIES and batchable(a):
                rets, trunc = play_batched(game, a, seat, b_spec, g_idx.size, seed + seat * games)
            elif a_spec in COMPILED_POLICIES and batchable(b) and k == 2:
                rets, trunc = play_batched(
                    game, b, 1 - seat, a_spec, g_idx.size, seed + seat * games
                )
            else:
                seat_agents = [b] * k
                seat_agents[seat] = a
                rets, trunc = play_lockstep(game, seat_agents, [seed + int(g) for g in g_idx])
        for j, g in enumerate(g_idx):
            scores[g] = seat_scores(rets[j])[seat]
            truncated[g] = trunc[j]
    return scores, truncated


def seat_split(scores: np.ndarray, seats: np.ndarray, names: Sequence[str]) -> list[dict[str, Any]]:
    """An agent's score in each seat it played (``seats[g]``: its seat in game ``g``), with
    95% Wilson intervals: an asymmetric game's sides told apart."""
    out = []
    for seat in range(len(names)):
        mine = scores[seats == seat]
        if mine.size == 0:
            continue
        total = float(mine.sum())
        low, high = wilson_interval(total, mine.size)
        out.append(
            {
                "seat": seat,
                "name": names[seat],
                "games": int(mine.size),
                "score": round(total, 6),
                "win_rate": total / mine.size,
                "ci_low": low,
                "ci_high": high,
            }
        )
    return out


def _pair_result(
    agent: str,
    opponent: str,
    scores: np.ndarray,
    truncated: np.ndarray,
    seats: np.ndarray | None = None,
    names: Sequence[str] = (),
) -> PairResult:
    n = len(scores)
    wins = int(np.sum(scores >= 1 - 1e-9))
    losses = int(np.sum(scores <= 1e-9))
    total = float(scores.sum())
    low, high = wilson_interval(total, n)
    return PairResult(
        agent=agent,
        opponent=opponent,
        games=n,
        wins=wins,
        draws=n - wins - losses,
        losses=losses,
        score=round(total, 6),
        win_rate=total / n if n else float("nan"),
        ci_low=low,
        ci_high=high,
        truncated=int(truncated.sum()),
        by_seat=seat_split(scores, seats, names) if seats is not None else [],
    )


def round_robin(
    game_name: str,
    agents: Sequence[str],
    games: int,
    seed: int = 0,
    agent_maker: AgentMaker = make_agent,
    progress: Callable[[str], None] | None = None,
    reuse: PriorResults | None = None,
    ahead: GamesAhead | None = None,
    **options: Any,
) -> TournamentResult:
    """Every pair of ``agents`` plays ``games`` games of ``game_name`` with seats rotated.

    ``reuse``: an earlier result whose pairs played with exactly the same settings are
    read back instead of played (it counts what it gave: :class:`PriorResults`).
    ``ahead``: the compiled games played before (on a cluster: :class:`GamesAhead`).
    """
    _check_agents(agents, games)
    game = make_game(game_name, **options)
    if game.is_cooperative():
        raise OptionError(f"{game_name} with these options is cooperative: use cooperative()")
    start = time.perf_counter()
    result = TournamentResult(game_name, game.options, list(agents), games, seed, "round_robin")
    result.version = game.definition.version
    plays = {a: agent_fingerprint(agent_maker(a, game, seed)) for a in agents}
    k = len(agents)
    points = np.zeros((k, k))
    played = np.zeros((k, k))
    earlier = 0.0  # seconds the pairs read back took when they were played
    for i in range(k):
        for j in range(i + 1, k):
            a, b = agents[i], agents[j]
            settings = pair_settings(game, [a, b], [plays[a], plays[b]], games, seed)
            found = reuse.take(settings, game.definition.options) if reuse else None
            if found is not None:
                if progress:
                    progress(f"{a} against {b}: read back from {found.source}")
                rows = {(r["agent"], r["opponent"]): PairResult(**r) for r in found.results}
                exact = {
                    (s["agent"], s["opponent"]): float(s["score"]) for s in found.record["scores"]
                }
                pair_ab, pair_ba = rows[(a, b)], rows[(b, a)]
                sum_ab, sum_ba = exact[(a, b)], exact[(b, a)]
                seconds = float(found.record["seconds"])
                earlier += seconds
            else:
                if progress:
                    progress(f"{a} against {b}")
                clock, spent = time.perf_counter(), ahead.seconds if ahead else 0.0
                pair_ab, pair_ba, sum_ab, sum_ba = _play_pair(
                    game, a, b, games, seed, agent_maker, progress, ahead
                )
                spent = (ahead.seconds if ahead else 0.0) - spent  # the workers' time
                seconds = round(time.perf_counter() - clock + spent, 3)
            result.pairs += [pair_ab, pair_ba]
            # A as one seat against a table of B, and (more than two players) B against As
            more = game.num_players > 2
            points[i, j] += sum_ab + (games - sum_ba if more else 0)
            points[j, i] += sum_ba + (games - sum_ab if more else 0)
            played[i, j] = played[j, i] = games * (2 if more else 1)
            scores = [
                {"agent": a, "opponent": b, "score": sum_ab},
                {"agent": b, "opponent": a, "score": sum_ba},
            ]
            record = {"settings": settings, "scores": scores, "seconds": seconds}
            result.pair_records.append(carried(found, record))
    ratings = bradley_terry_elo(points, played)
    low, high = bradley_terry_intervals(points, played, ratings)
    result.elo = {a: round(float(r), 1) for a, r in zip(agents, ratings, strict=True)}
    result.elo_low = {a: round(float(r), 1) for a, r in zip(agents, low, strict=True)}
    result.elo_high = {a: round(float(r), 1) for a, r in zip(agents, high, strict=True)}
    result.seconds = round(time.perf_counter() - start + earlier, 3)
    return result


def _play_pair(
    game: Game,
    a: str,
    b: str,
    games: int,
    seed: int,
    agent_maker: AgentMaker,
    progress: Callable[[str], None] | None,
    ahead: GamesAhead | None = None,
) -> tuple[PairResult, PairResult, float, float]:
    """Play the pair ``(a, b)``: both ways' results and exact scores (a as one seat
    against a table of b, then, with more than two players, b against a table of a).

    A pair's games depend on the seed, the seats and the game numbers, never on the
    pair's index in the round robin (``boardsim.research.reuse.DEALS``)."""
    s_ab, t_ab = _pair_games(game, a, b, games, seed, agent_maker, progress, ahead)
    k = game.num_players
    seat_a = np.arange(games) % k  # the first agent's seat in each game
    if k == 2:
        s_ba, t_ba, seat_b = 1.0 - s_ab, t_ab, 1 - seat_a
    else:
        s_ba, t_ba = _pair_games(game, b, a, games, seed, agent_maker, progress, ahead)
        seat_b = seat_a
    names = game.agent_names()
    if len(names) != k:  # players mapped onto fewer agents: name the seats by number
        names = [f"seat {i}" for i in range(k)]
    return (
        _pair_result(a, b, s_ab, t_ab, seat_a, names),
        _pair_result(b, a, s_ba, t_ba, seat_b, names),
        float(s_ab.sum()),
        float(s_ba.sum()),
    )


def cooperative(
    game_name: str,
    agents: Sequence[str],
    games: int,
    levels: Sequence[str] | None = None,
    seed: int = 0,
    agent_maker: AgentMaker = make_agent,
    progress: Callable[[str], None] | None = None,
    reuse: PriorResults | None = None,
    ahead: GamesAhead | None = None,
    **options: Any,
) -> TournamentResult:
    """Each agent plays every seat of a cooperative game, ``games`` games at each level.

    ``levels``: values of the game's ``level`` option (Hispania's difficulty); None
    plays the options as given. ``reuse``: an earlier result whose cells (an agent at a
    level) played with exactly the same settings are read back instead of played.
    """
    _check_agents(agents, games, need_two=False)
    start = time.perf_counter()
    level_list: list[str | None] = list(levels) if levels else [None]
    base = make_game(game_name, **options)
    if not base.is_cooperative():
        raise OptionError(f"{game_name} with these options has opposing sides: use round_robin()")
    if levels and "level" not in base.options:
        raise OptionError(f"{game_name} has no 'level' option; drop --levels")
    result = TournamentResult(game_name, base.options, list(agents), games, seed, "cooperative")
    result.version = base.definition.version
    earlier = 0.0  # seconds the cells read back took when they were played
    for level in level_list:
        game = base if level is None else make_game(game_name, **{**options, "level": level})
        shown = str(game.options.get("level", "-"))
        for spec in agents:
            plays = agent_fingerprint(agent_maker(spec, game, seed))
            settings = pair_settings(game, [spec], [plays], games, seed)
            found = reuse.take(settings, game.definition.options) if reuse else None
            if found is not None:
                if progress:
                    progress(f"{spec} at level {shown}: read back from {found.source}")
                solo = SoloResult(**found.results[0])
                seconds = float(found.record["seconds"])
                earlier += seconds
            else:
                if progress:
                    progress(f"{spec} at level {shown}")
                clock, spent = time.perf_counter(), ahead.seconds if ahead else 0.0
                solo = _play_cell(game, spec, shown, games, seed, agent_maker, progress, ahead)
                spent = (ahead.seconds if ahead else 0.0) - spent  # the workers' time
                seconds = round(time.perf_counter() - clock + spent, 3)
            result.solo.append(solo)
            record = {"settings": settings, "level": shown, "seconds": seconds}
            result.pair_records.append(carried(found, record))
    result.seconds = round(time.perf_counter() - start + earlier, 3)
    return result


def _play_cell(
    game: Game,
    spec: str,
    shown: str,
    games: int,
    seed: int,
    agent_maker: AgentMaker,
    progress: Callable[[str], None] | None,
    ahead: GamesAhead | None = None,
) -> SoloResult:
    """``spec`` in every seat of a cooperative ``game`` (its level ``shown``): ``games``
    games, seeded by the seed and the game's number alone."""
    if compiled_together([spec]):
        seats = [spec] * game.num_players
        label = f"{spec} at level {shown}"
        rets, trunc = _compiled_games(
            game, seats, games, seed, 0, agent_maker, progress, label, ahead
        )
    elif ahead is not None and ahead.asking:
        rets, trunc = np.zeros((games, game.num_players)), np.zeros(games, bool)
    else:
        agent = agent_maker(spec, game, seed + 1)
        if batchable(agent):
            rets, trunc = play_batched(game, agent, 0, "random", games, seed)
        else:
            rets, trunc = play_lockstep(
                game, [agent] * game.num_players, [seed + g for g in range(games)]
            )
    wins = int(np.sum(rets[:, 0] > 0))
    low, high = wilson_interval(wins, games)
    return SoloResult(spec, shown, games, wins, wins / games, low, high, int(trunc.sum()))


def _check_agents(agents: Sequence[str], games: int, need_two: bool = True) -> None:
    if games < 1:
        raise OptionError(f"play at least one game a pair, got {games}")
    if len(agents) < (2 if need_two else 1):
        raise OptionError(f"a round robin needs at least two agents, got {list(agents)}")
    if len(set(agents)) != len(agents):
        raise OptionError(f"each agent once, got {list(agents)}")

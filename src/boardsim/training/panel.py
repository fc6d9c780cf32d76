"""The fixed panel a self-play run measures its network against.

Every ``panel_every`` iterations the network ALONE (no search, its most likely move)
plays each opponent of the panel (``random``, ``heuristic``, ``mcts:SIMS`` with the
game's own search settings; ``random,heuristic,mcts:200`` by default) ``panel_games``
games, seats rotated, on the same deals every time (the panel's own seed, never a
self-play game's). A game whose package ships a perfect solver (a ``mistakes`` module
with ``random_positions``, as the connect-four plugin does) also gets the solver's
**mistake rate**: the share of
``panel_positions`` fixed random positions (10-16 random plies, the panel's seed) where
its move lowers the position's game-theoretic class. The positions are solved once and
kept in the run folder (:data:`PANEL_FILE`), so a resumed run meets the same ones.
Every figure comes with its 95% Wilson interval (a draw counts half a win).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from boardsim.core.batch import play_games
from boardsim.core.errors import OptionError
from boardsim.core.seats import Seat, game_uct_seat
from boardsim.files import atomic_write_text
from boardsim.intervals import wilson_interval

PANEL_FILE = "panel.json"
SOLVER_MODULE = "mistakes"  # a game package's module of solved positions (random_positions)
MIN_PLIES, MAX_PLIES = 10, 16


@dataclass
class Panel:
    """The opponents (spec and seat), the games against each, the deals' seed, and the
    solved positions of the mistake rate (empty where the game has no solver)."""

    opponents: list[tuple[str, Seat]]
    games: int
    seed: int
    states: np.ndarray  # [positions, state_size] the mistake rate's positions
    outcomes: np.ndarray  # [positions, actions] each legal move's class, -2 where illegal


def opponent_seat(game: Any, spec: str, seed: int) -> Seat:
    """The compiled seat of the panel's opponent ``spec``: ``random``, ``heuristic`` or
    ``mcts:SIMS`` (UCT with the game's own settings); :class:`OptionError` otherwise."""
    if spec in ("random", "heuristic"):
        return Seat.named(spec)
    family, _, sims = spec.partition(":")
    if family == "mcts" and sims.isdigit() and int(sims) >= 1:
        return game_uct_seat(game, int(sims), label=spec)
    raise OptionError(
        f"panel: {spec!r} is not a panel opponent; give random, heuristic or mcts:SIMS "
        "(a whole number of simulations), comma-separated"
    )


def solver_of(game: Any) -> ModuleType | None:
    """The module of perfect-solver positions the game's package ships, if any."""
    name = f"{game.kernels.package}.{SOLVER_MODULE}"
    try:
        found = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if found is None:
        return None
    module = importlib.import_module(name)
    return module if hasattr(module, "random_positions") else None


def make_panel(
    game: Any, specs: Sequence[str], games: int, positions: int, seed: int, run_dir: Path
) -> Panel:
    """The run's panel: ``specs`` as seats, and on connect four ``positions`` solved
    positions of ``seed`` (read from ``run_dir/panel.json`` when the run has them)."""
    seats = [(spec, opponent_seat(game, spec, seed)) for spec in specs]
    states = np.zeros((0, game.state_size), np.int32)
    outcomes = np.zeros((0, game.num_actions), np.int8)
    solver = solver_of(game) if positions > 0 else None
    if solver is not None:
        moves, classes = solved_positions(solver, run_dir / PANEL_FILE, positions, seed)
        states, outcomes = position_arrays(game, moves, classes)
    return Panel(seats, games, seed, states, outcomes)


def solved_positions(
    solver: ModuleType, path: Path, count: int, seed: int
) -> tuple[list[list[int]], list[dict[int, int]]]:
    """``count`` positions of ``seed`` from ``solver`` (:func:`solver_of`) and each legal
    move's class, from ``path`` if it holds them, else solved (seconds to minutes) and
    written there."""
    if path.exists():
        saved = json.loads(path.read_text())
        if saved["seed"] == seed and len(saved["moves"]) == count:
            classes = [{int(k): v for k, v in c.items()} for c in saved["outcomes"]]
            return saved["moves"], classes
    found = solver.random_positions(count, seed, MIN_PLIES, MAX_PLIES)
    moves = [list(p.moves) for p in found]
    classes = [dict(p.outcomes) for p in found]
    record = {"seed": seed, "plies": [MIN_PLIES, MAX_PLIES], "moves": moves, "outcomes": classes}
    atomic_write_text(path, json.dumps(record) + "\n")
    return moves, classes


def position_arrays(
    game: Any, moves: list[list[int]], classes: list[dict[int, int]]
) -> tuple[np.ndarray, np.ndarray]:
    """The game's states after each move list, and each move's class (-2: illegal)."""
    states = np.zeros((len(moves), game.state_size), np.int32)
    outcomes = np.full((len(moves), game.num_actions), -2, np.int8)
    for i, (line, by_move) in enumerate(zip(moves, classes, strict=True)):
        state = game.new_initial_state(0)
        for col in line:
            state.apply_action(col)
        states[i] = state.array
        for col, value in by_move.items():
            outcomes[i, col] = value
    return states, outcomes


def seat_scores(returns: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """Each game's share of the win of the players ``seats`` (a bool per player): 1 when
    they alone hold the best return, ``k / w`` when ``k`` of the ``w`` best are theirs."""
    best = returns.max(axis=1, keepdims=True)
    winners = np.isclose(returns, best)
    return (winners & seats[None, :]).sum(axis=1) / winners.sum(axis=1)


def side_scores(game: Any, returns: np.ndarray, mine: np.ndarray) -> np.ndarray:
    """The score of the players ``mine`` in each game: their share of the win
    (:func:`seat_scores`), or, in a cooperative game (every player one side, the game
    the opponent), 1 for a win and 0 for a loss."""
    if game.is_cooperative():
        return (returns[:, 0] > 0).astype(np.float64)
    return seat_scores(returns, mine)


def rotated_scores(
    game: Any, a: Seat, b: Seat, games: int, seed: int, threads: int | None
) -> np.ndarray:
    """``a``'s score in each of ``games`` games against ``b``: competitive games with ``a``
    in each side's seats in turn (``b`` elsewhere; side ``k``'s games are games ``k *
    games ...`` of the run ``seed``); in a cooperative game, ``a`` and ``b`` each play the
    side on the same deals, and game ``i`` scores ``(1 + win_a[i] - win_b[i]) / 2``."""
    if game.is_cooperative():
        everyone = np.ones(game.num_players, bool)
        wins = []
        for seat in (a, b):
            played = play_games(game, games, [seat] * game.num_players, seed, 0, threads)
            wins.append(side_scores(game, played["returns"], everyone))
        return 0.5 * (1.0 + wins[0] - wins[1])
    sides = sorted(set(game.teams))
    out = []
    for k, side in enumerate(sides):
        n = games // len(sides) + (1 if k < games % len(sides) else 0)
        if n == 0:
            continue
        mine = np.array([t == side for t in game.teams])
        players = [a if mine[p] else b for p in range(game.num_players)]
        played = play_games(game, n, players, seed, k * games, threads)
        out.append(seat_scores(played["returns"], mine))
    return np.concatenate(out) if out else np.zeros(0)


def mistakes(outcomes: np.ndarray, moves: np.ndarray) -> int:
    """How many ``moves`` (one a position) lower their position's class."""
    best = outcomes.max(axis=1)
    chosen = outcomes[np.arange(len(moves)), moves]
    if (chosen == -2).any():
        raise ValueError("a move of the panel's positions is illegal")
    return int((chosen < best).sum())


def rate(successes: float, n: int) -> dict[str, float]:
    """A share with its 95% Wilson interval."""
    low, high = wilson_interval(successes, n)
    return {"mean": successes / n, "low": low, "high": high}


def panel_row(
    game: Any,
    panel: Panel,
    alone: Seat,
    choose: Callable[[np.ndarray], np.ndarray],
    threads: int | None,
) -> dict[str, Any]:
    """The network alone (``alone``; ``choose``: its moves at an array of states) against
    the panel: per opponent its mean score (``score/SPEC``), and on connect four the
    mistake rate (``mistake_rate``), each a mean with its 95% interval."""
    row: dict[str, Any] = {}
    for spec, seat in panel.opponents:
        scores = rotated_scores(game, alone, seat, panel.games, panel.seed, threads)
        row[f"score/{spec}"] = rate(float(scores.sum()), len(scores))
    if len(panel.states):
        wrong = mistakes(panel.outcomes, choose(panel.states))
        row["mistake_rate"] = rate(wrong, len(panel.states))
    return row


def panel_line(row: dict[str, Any]) -> str:
    """The panel's figures of an iteration, in words: each mean and its interval."""
    parts = []
    for key, value in row.items():
        if not isinstance(value, dict):
            continue
        label = "mistakes" if key == "mistake_rate" else f"vs {key.removeprefix('score/')}"
        parts.append(f"{label} {value['mean']:.3f} [{value['low']:.3f}, {value['high']:.3f}]")
    return ", ".join(parts)

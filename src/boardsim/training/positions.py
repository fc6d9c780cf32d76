"""The positions a refinement relabels, searched or read afresh: each position searched
by its player's seat (:func:`search_positions`) and the heuristic's move there
(:func:`heuristic_moves`), in the compiled kernels, on the run's threads."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from boardsim.core.batch import threads_used
from boardsim.core.seats import SeatTable


def search_positions(
    game: Any, table: SeatTable, states: np.ndarray, seed: int, threads: int | None
) -> dict[str, np.ndarray]:
    """Each of ``states`` searched afresh by its player's seat of ``table``
    (:func:`boardsim.core.search.relabel.search_positions`): the move, the target, the root's values
    (one a player), each root action's mean value for the player to move and its visits."""
    g = game
    n = len(states)
    out = {
        "targets": np.zeros((n, g.num_actions), np.float32),
        "values": np.zeros((n, g.max_players), np.float64),
        "q": np.zeros((n, g.num_actions), np.float64),
        "visits": np.zeros((n, g.num_actions), np.int64),
        "actions": np.zeros(n, np.int64),
    }
    with threads_used(threads), numba.parallel_chunksize(1):
        g.mcts.search_positions(
            g.params, table, np.ascontiguousarray(states), int(seed), out["targets"],
            out["values"], out["q"], out["visits"], out["actions"],
        )  # fmt: skip
    return out


def heuristic_moves(game: Any, states: np.ndarray, threads: int | None) -> np.ndarray:
    """The heuristic's move at each of ``states`` (the hint a hinted network reads)."""
    g = game
    obs = np.zeros((len(states), g.observation_size + g.num_actions), np.float32)
    masks = np.zeros((len(states), g.num_actions), np.uint8)
    with threads_used(threads):
        g.mcts.batch_positions(np.ascontiguousarray(states), g.params, True, obs, masks)
    return obs[:, g.observation_size :].argmax(axis=1)

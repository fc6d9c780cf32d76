"""Connect four, as a game plugged into boardsim from outside its package.

boardsim finds it through the entry point ``boardsim.games`` of this package's
``pyproject.toml``; ``docs/adding-a-game.md`` of boardsim walks through how it is made.
The benchmarks use it as their calibration game: the generic engine drives it as it
drives boardsim's own games, so its speed against a plain numba loop, pgx and OpenSpiel
on identical work measures the engine's overhead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardsim.core.game import GameDefinition, Matchup, Payoffs
from boardsim_connect_four import engine, names
from boardsim_connect_four.data import COLS, ROWS


def mirror(options: dict[str, Any]) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The board in a mirror, the game's one symmetry: column ``c`` becomes ``COLS - 1 - c``
    in both planes of the observation and in the moves (a move is its column)."""
    cells = np.arange(2 * ROWS * COLS).reshape(2, ROWS, COLS)
    return ((cells[:, :, ::-1].ravel(), np.arange(COLS)[::-1].copy()),)


DEFINITION = GameDefinition(
    name="connect_four",
    version=1,
    title="Connect four",
    kernels=engine.KERNELS,
    options=(),
    game_params=lambda options: [],
    num_players=lambda options: 2,
    agent_names=lambda options: ["player_0", "player_1"],
    describe_action=names.describe_action,
    render_text=names.render_text,
    # two planes of 0/1 (rules.observe): make_vec_env(..., obs_dtype="uint8") is offered
    binary_observation=True,
    # ... the player's pieces, then the opponent's, each ROWS x COLS from the bottom row
    board_planes=(2, ROWS, COLS),
    symmetries=mirror,
    mcts_defaults={"c_uct": 1.0, "rollout": "random", "rollout_depth": -1, "prior": 0.0},
    strength_matchups=(
        Matchup({}, ("heuristic", "random"), 0, "heuristic first vs random"),
        Matchup({}, ("random", "heuristic"), 1, "heuristic second vs random"),
    ),
    # a full board ends the game: it never truncates at its 42nd move, and OpenSpiel (which
    # needs the longest game) reads its length from here
    decision_limit=42,
    # no dice, nothing hidden; +1 / -1, 0 for a draw
    chance=False,
    perfect_information=True,
    payoffs=lambda options: Payoffs(-1.0, 1.0, "zero_sum"),
    # the mechanics for restricted play: a move is a column, named by its distance from
    # the centre (a column's action id is its number, 0-6)
    action_families={"centre": (3,), "beside_centre": (2, 4), "outer": (0, 1, 5, 6)},
)

__all__ = ["DEFINITION"]

"""The calibration connect four of ``benchmarks/`` (the engine's yardstick, not a library
game) plays connect four: it finds fours, fills the board, and its rule-based player
takes a win and blocks one. Timing is never tested here (``benchmarks/run.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.calibration import connect_four as c4  # noqa: E402
from benchmarks.calibration import plain_connect_four as plain  # noqa: E402
from benchmarks.calibration import policy  # noqa: E402
from benchmarks.calibration.engine import KERNELS  # noqa: E402
from boardsim.core import engine  # noqa: E402
from boardsim.core.header import FLAG_TERMINAL, H_ACTOR, H_FLAGS  # noqa: E402


def fresh() -> np.ndarray:
    state = np.zeros(c4.STATE_SIZE, np.int32)
    outcomes = np.zeros(1, np.int32)
    weights = np.zeros(1, np.int64)
    engine.new_game(KERNELS, state, c4.PARAMS, 1, outcomes, weights)
    return state


def play(state: np.ndarray, columns: list[int]) -> None:
    for col in columns:
        c4.apply_action(state, c4.PARAMS, col)


def test_four_in_a_row_wins_and_ends_the_game() -> None:
    state = fresh()
    play(state, [0, 1, 0, 1, 0, 1, 0])  # player 0 stacks four in column 0
    assert state[H_FLAGS] & FLAG_TERMINAL
    out = np.zeros(2)
    c4.returns(state, c4.PARAMS, out)
    assert list(out) == [1.0, -1.0]


def test_a_full_column_is_not_legal() -> None:
    state = fresh()
    play(state, [3] * 6)
    mask = np.zeros(c4.NUM_ACTIONS, np.uint8)
    assert c4.legal_mask(state, c4.PARAMS, mask) == 6 and mask[3] == 0


def test_the_rule_based_player_wins_then_blocks() -> None:
    mask = np.zeros(c4.NUM_ACTIONS, np.uint8)
    prng = np.array([7, 9], np.int32)
    state = fresh()
    play(state, [0, 1, 0, 1, 0])  # player 1 to move; player 0 threatens column 0
    assert state[H_ACTOR] == 1
    assert policy.heuristic_action(state, c4.PARAMS, mask, prng) == 0  # block
    play(state, [6])  # player 0 to move: column 0 wins
    assert policy.heuristic_action(state, c4.PARAMS, mask, prng) == 0


def test_engine_and_plain_rollouts_play_whole_games() -> None:
    states = np.zeros((8, c4.STATE_SIZE), np.int32)
    decisions = np.zeros(8, np.int64)
    games = np.zeros(8, np.int64)
    engine.rollout_random(KERNELS, states, c4.PARAMS, 400, 3, decisions, games)
    assert decisions.sum() == 8 * 400
    assert 8 * (400 // 42) <= games.sum() <= 8 * 400 / 7  # every game lasts 7..42 moves
    pstates = plain.new_states(8)
    pgames = np.zeros(8, np.int64)
    plain.plain_rollout(pstates, 400, 3, pgames)
    assert 8 * (400 // 42) <= pgames.sum() <= 8 * 400 / 7


def test_the_report_checks_each_target_against_its_bound() -> None:
    from benchmarks.run import check_targets

    result = {
        "games": {
            "liberation": {
                "rollout_n4096_t2": {"decisions_per_second": 5.2e6},
                "ratios": {"threads_2_vs_1": 1.6},
            }
        },
        "calibration_connect_four": {"plain_over_engine_t2": 1.4},
    }
    rows = {row["target"]: row for row in check_targets(result)}
    assert rows["liberation: rollout, 4096 envs, 2 threads"]["met"] is True
    assert rows["liberation: 2 threads / 1 thread"]["met"] is False
    assert rows["calibration: plain / engine"]["met"] is True
    assert rows["hispania: Gymnasium loop"]["met"] is None  # not measured

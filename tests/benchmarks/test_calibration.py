"""The calibration connect four of ``benchmarks/`` (the engine's yardstick, not a library
game) plays connect four: it finds fours, fills the board, and its rule-based player
takes a win and blocks one. Timing is never tested here (``benchmarks/run.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import boardsim

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.calibration import connect_four  # noqa: E402
from benchmarks.calibration import plain_connect_four as plain  # noqa: E402

C4 = connect_four()


def play(columns: list[int]) -> boardsim.State:
    state = C4.new_initial_state(1)
    for col in columns:
        state.apply_action(col)
    return state


def heuristic(state: boardsim.State) -> int:
    mask = np.zeros(C4.num_actions, np.uint8)
    prng = np.array([7, 9], np.int32)
    return int(C4.kernels.heuristic_action(state.array.copy(), C4.params, mask, prng))


def test_four_in_a_row_wins_and_ends_the_game() -> None:
    state = play([0, 1, 0, 1, 0, 1, 0])  # player 0 stacks four in column 0
    assert state.is_terminal()
    assert list(state.returns()) == [1.0, -1.0]


def test_a_full_column_is_not_legal() -> None:
    state = play([3] * 6)
    assert state.legal_actions() == [0, 1, 2, 4, 5, 6]


def test_the_rule_based_player_wins_then_blocks() -> None:
    state = play([0, 1, 0, 1, 0])  # player 1 to move; player 0 threatens column 0
    assert state.current_player() == 1
    assert heuristic(state) == 0  # block
    state.apply_action(6)  # player 0 to move: column 0 wins
    assert heuristic(state) == 0


def test_engine_and_plain_rollouts_play_whole_games() -> None:
    states = np.zeros((8, C4.state_size), np.int32)
    decisions = np.zeros(8, np.int64)
    games = np.zeros(8, np.int64)
    C4.engine.rollout_random(states, C4.params, 400, 3, decisions, games)
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

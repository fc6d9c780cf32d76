"""The mistake rate: positions are live and solved, and a player who never errs scores 0."""

from __future__ import annotations

import pytest
from boardsim_connect_four.mistakes import Position, mistake_rate, random_positions
from boardsim_connect_four.solver import Solver


def test_positions_are_live_seeded_and_solved() -> None:
    solver = Solver()
    positions = random_positions(5, seed=7, min_plies=12, max_plies=14, solver=solver)
    assert [p.moves for p in positions] == [
        p.moves for p in random_positions(5, seed=7, min_plies=12, max_plies=14, solver=solver)
    ]
    for p in positions:
        assert 12 <= len(p.moves) <= 14
        assert p.value == solver.outcome(list(p.moves))  # the best move keeps the class
        assert set(p.outcomes) == set(range(7)) - {
            c for c in range(7) if list(p.moves).count(c) == 6
        }


def test_a_player_who_always_wins_at_once_makes_no_mistake() -> None:
    # the first player to move with three stacked in column 3: only column 3 wins at once
    moves = (3, 4, 3, 4, 3, 5)
    solver = Solver()
    position = Position(moves, solver.move_outcomes(list(moves)))
    assert position.value == 1 and position.outcomes[3] == 1
    result = mistake_rate("heuristic", [position])
    assert result.mistakes == 0 and result.low == 0.0


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="count"):
        random_positions(0, seed=1)
    with pytest.raises(ValueError, match="plies"):
        random_positions(1, seed=1, min_plies=5, max_plies=3)
    with pytest.raises(ValueError, match="no positions"):
        mistake_rate("random", [])

"""The mistake rate: positions are live and solved, and a player who never errs scores 0."""

from __future__ import annotations

import pytest
from boardsim_connect_four.mistakes import (
    BLOCK,
    QUIET,
    WIN_AT_ONCE,
    Position,
    main,
    mistake_rate,
    position_kind,
    random_positions,
)
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
    # made without a kind, the position counts in the total and in no kind
    assert position.kind is None and all(n == 0 for _m, n in result.by_kind.values())


def test_a_position_is_kinded_by_what_it_asks_at_once() -> None:
    solver = Solver()
    # the first player to move with three stacked in column 3 (and the second with two in 4)
    assert position_kind(solver, [3, 4, 3, 4, 3, 5]) == WIN_AT_ONCE
    # the second player to move, the first's three in column 3 to block
    assert position_kind(solver, [3, 4, 3, 4, 3]) == BLOCK
    # the first to move with 0-1-2 on the bottom row: column 3 makes four
    assert position_kind(solver, [0, 6, 1, 6, 2, 5]) == WIN_AT_ONCE
    # the second to move, the first's 1-2-3 open at both ends: two threats (lost)
    assert position_kind(solver, [1, 6, 2, 6, 3]) == BLOCK
    assert position_kind(solver, [3, 3]) == QUIET
    assert position_kind(solver, []) == QUIET


def test_winning_columns_are_the_cells_that_make_four() -> None:
    solver = Solver()
    current, mask, _n = solver.position([1, 6, 2, 6, 3])  # the first's row 1-2-3, open
    assert solver.winning_columns(current, mask) == []  # the second's two in column 6
    assert solver.winning_columns(current ^ mask, mask) == [0, 4]
    current, mask, _n = solver.position([1, 6, 2, 6, 3, 6])  # the second's three now
    assert solver.winning_columns(current, mask) == [0, 4]
    assert solver.winning_columns(current ^ mask, mask) == [6]


def test_mistakes_are_split_by_kind() -> None:
    solver = Solver()
    positions = [
        Position(m, solver.move_outcomes(m), position_kind(solver, m))
        for m in ([3, 4, 3, 4, 3, 5], [3, 4, 3, 4, 3, 5, 0], [3, 3, 2, 4, 4, 2, 5, 1, 1, 5])
    ]
    assert [p.kind for p in positions] == [WIN_AT_ONCE, BLOCK, QUIET]
    # the heuristic wins at once and blocks
    result = mistake_rate("heuristic", positions)
    assert result.by_kind[WIN_AT_ONCE] == (0, 1) and result.by_kind[BLOCK] == (0, 1)
    assert sum(n for _m, n in result.by_kind.values()) == 3
    assert sum(m for m, _n in result.by_kind.values()) == result.mistakes


def test_the_command_prints_the_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--positions", "6", "--seed", "3", "--by-kind", "heuristic"]) == 0
    out = capsys.readouterr().out
    assert "kinds (what the position asks of the player to move):" in out
    assert "win at once" in out and "block" in out and "quiet" in out
    row = next(line for line in out.splitlines() if line.startswith("heuristic"))
    cells = [c for c in row.split() if "/" in c]
    assert sum(int(c.split("/")[1]) for c in cells) == 6


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="count"):
        random_positions(0, seed=1)
    with pytest.raises(ValueError, match="plies"):
        random_positions(1, seed=1, min_plies=5, max_plies=3)
    with pytest.raises(ValueError, match="no positions"):
        mistake_rate("random", [])

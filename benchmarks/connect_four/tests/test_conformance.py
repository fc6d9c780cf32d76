"""The plugin passes boardsim's shared conformance checks, found from outside boardsim."""

from __future__ import annotations

import boardsim
from boardsim.testing import check_game


def test_boardsim_finds_the_plugin() -> None:
    assert "connect_four" in boardsim.list_games()
    assert boardsim.make_game("connect_four").num_actions == 7


def test_conformance() -> None:
    assert check_game("connect_four") == list(boardsim.testing.CHECKS)


def test_a_line_of_four_wins() -> None:
    state = boardsim.make_game("connect_four").new_initial_state(0)
    for column in (0, 1, 0, 1, 0, 1, 0):  # player 0 stacks four in the first column
        state.apply_action(column)
    assert state.is_terminal() and list(state.returns()) == [1.0, -1.0]

"""The ``boardsim`` command: demo runs and reports; bad arguments are refused."""

from __future__ import annotations

import pytest

from boardsim.cli import main, play_demo_game


def test_demo_prints_a_table_for_the_chosen_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--games", "2", "--game", "farrapos"]) == 0
    out = capsys.readouterr().out
    assert "farrapos" in out and "decisions/s" in out


def test_demo_counts_a_shared_loss_as_nobodys_win() -> None:
    result = play_demo_game("hispania", 3, seed=0)
    assert result["random_win_rate"] == 0.0
    assert result["greedy_win_rate_by_seat"] == [0.0, 0.0, 0.0]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--game", "chess"])
    assert main(["demo", "--games", "0"]) == 2

"""The plan before a page's run: the games each cell needs for its precision, priced from
pilot games on this machine, and what a Ray cluster would take."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardsim.cli import main
from boardsim.core.game import BalanceQuestion
from boardsim.research.page_plan import (
    RungPlan,
    cluster_seconds,
    games_for,
    plan_question,
    plan_summary,
)
from boardsim.research.pages import PageRun

SEATS = "Seat advantage by the number of players"


def test_a_cell_needs_the_games_its_smoothed_rates_ask_in_whole_first_rounds() -> None:
    # 3 wins of 8 for seat 0: smoothed 4/10, spread 0.24; 1.96^2 * 0.24 / 0.01^2 = 9220
    assert games_for([3, 5], 8, 0.01, 1000, None) == 10000
    assert games_for([3, 5], 8, 0.01, 1000, 4000) == 4000  # the most games a cell
    assert games_for([3, 5], 8, 0.03, 1000, None) == 2000  # 1025 games: two first rounds
    assert games_for([8, 0], 8, 0.2, 100, None) == 100  # precise at once: one first round


def test_a_cluster_shares_the_work_but_waits_for_the_dearest_cell() -> None:
    cheap = RungPlan("q", "heuristic", False, 100, 0.01, 1000, 0.001, longest_cell=1.0)
    dear = RungPlan("q", "mcts:40", True, 2, 0.03, 1000, 0.2, longest_cell=200.0)
    assert cheap.games == 100_000 and cheap.seconds == pytest.approx(100.0)
    assert cluster_seconds([cheap, dear], 2) == pytest.approx(250.0)
    assert cluster_seconds([cheap, dear], 128) == pytest.approx(200.0)  # one cell's rounds
    assert plan_summary([cheap])["clusters"][8] == pytest.approx(12.5)


def test_a_question_is_planned_from_pilot_games_per_rung() -> None:
    question = BalanceQuestion(
        "Seats", "Each seat's win rate.", ("num_players=2,3,4,5,6", "skill=heuristic,mcts:2")
    )
    run = PageRun(20, precision=0.05, search_precision=0.15)
    plans = plan_question("liberation", question, run, games=2)
    assert [p.rung for p in plans] == ["heuristic", "mcts:2"]
    heuristic, search = plans
    assert heuristic.cells == 5 and heuristic.precision == 0.05 and not heuristic.search
    assert heuristic.games_per_cell % 20 == 0 and 20 <= heuristic.games_per_cell <= 400
    assert heuristic.seconds_per_game > 0
    assert search.search and search.precision == 0.15
    assert search.games_per_cell <= heuristic.games_per_cell  # a looser half-width


def test_the_command_prints_the_plan_and_writes_no_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["balance", "docs", "liberation", "--precision", "0.05", "--plan"]
    argv += ["--question", SEATS, "--no-progress", "--out", str(tmp_path)]
    assert main([*argv, "--pilot-games", "2"]) == 0
    text = capsys.readouterr().out
    assert f"{SEATS}: " in text
    assert "heuristic (scripted/network, ±5 pts): 5 cells x " in text
    assert "a Ray cluster of 128 cores: " in text
    assert not (tmp_path / "liberation.md").exists()
    assert main([*argv, "--pilot-games", "0"]) == 2
    assert main([*argv, "--question", "no such question"]) == 2
    assert "no balance question 'no such question'" in capsys.readouterr().err

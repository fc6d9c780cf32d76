"""Sweeps to a precision: rounds until each cell's win rates are that precise, the same
games as a sweep of a fixed size, a time budget that leaves cells short and says so, and a
run again that continues to the files an uninterrupted run writes."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from boardsim import OptionError
from boardsim.cli import main
from boardsim.research import cells, sweep
from boardsim.research.precision import cell_precision, games_wanted, half_width, is_search_cell
from boardsim.research.report import summarize, write_report

GRID = ["num_players=2,3"]


def rows(wins_of_seat_0: int, games: int) -> list[dict[str, Any]]:
    """Two-player games: seat 0 wins the first ``wins_of_seat_0``, seat 1 the rest."""
    return [{"num_players": 2, "winners": "0" if k < wins_of_seat_0 else "1"} for k in range(games)]


def race(out: Path, games: int = 20, **kw: Any) -> sweep.SweepResult:
    grid = sweep.parse_grid("liberation", GRID)
    return sweep.run_sweep("liberation", grid, ["random"], games, out, seed=5, **kw)


def cell_files(out: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted((out / "cells").glob("*.csv"))}


def test_a_round_asks_what_the_rate_needs_within_four_times_the_games_held() -> None:
    even = rows(50, 100)  # 50% of 100 games: a half-width of about 9.6 points
    assert 0.09 < half_width(even) < 0.1
    assert half_width([]) == math.inf
    assert games_wanted([], 0.05, 100, None) == 100  # the first round
    # 1.96^2 * 0.25 / 0.05^2 = 384 games: four first rounds
    assert games_wanted(even, 0.05, 100, None) == 400
    assert games_wanted(even, 0.01, 100, None) == 400  # 9604 needed, at most four times held
    assert games_wanted(even, 0.01, 100, 250) == 250  # the most games a cell
    assert games_wanted(even, 0.1, 100, None) == 100  # precise enough: nothing more
    assert games_wanted(rows(0, 100), 0.05, 100, None) == 100  # 0 wins of 100: within 2 points


def test_each_cell_is_played_to_the_precision_and_its_games_are_a_fixed_sweeps(
    tmp_path: Path,
) -> None:
    result = race(tmp_path / "p", precision=0.12)
    assert not result.short
    assert len(cell_files(tmp_path / "p")) == 2
    for cell_rows in cells_by_id(sweep.load_results(tmp_path / "p")).values():
        assert half_width(cell_rows) <= 0.12
        assert [r["game_index"] for r in cell_rows] == list(range(len(cell_rows)))
        assert len(cell_rows) % 20 == 0 and len(cell_rows) > 20  # rounds of 20
    # game k of a cell is game k of the run's seed: a fixed sweep of as many games
    # writes the very same file
    for name, text in cell_files(tmp_path / "p").items():
        games = text.count("\n") - 1
        fixed = tmp_path / f"fixed-{games}"
        race(fixed, games)
        assert cell_files(fixed)[name] == text


def cells_by_id(table: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for r in table:
        out.setdefault(r["cell"], []).append(r)
    return out


def test_a_budget_leaves_cells_short_and_a_run_again_continues_to_the_same_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    race(tmp_path / "whole", precision=0.12)
    cut = tmp_path / "cut"
    real = cells.play_cell
    calls = {"n": 0}

    def play_then_crash(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt("the power went off")
        return real(*args, **kwargs)

    monkeypatch.setattr(cells, "play_cell", play_then_crash)
    with pytest.raises(KeyboardInterrupt):
        race(cut, precision=0.12)
    monkeypatch.setattr(cells, "play_cell", real)
    nothing = race(cut, precision=0.12, seconds=0)  # out of time before any round
    assert nothing.games == 0 and nothing.short
    assert set(nothing.short) <= {name[: -len(".csv")] for name in cell_files(cut)}
    report = write_report(cut).read_text()
    assert "cells fell short of the precision asked" in report and "the time budget" in report
    race(cut, precision=0.12)
    assert cell_files(cut) == cell_files(tmp_path / "whole")
    summary = summarize(cut)
    assert summary["precision"] == 0.12 and all(c["half_width"] <= 0.12 for c in summary["cells"])
    assert "Every cell reached the precision asked" in write_report(cut).read_text()


def test_the_most_games_a_cell_stops_it_and_the_report_says_so(tmp_path: Path) -> None:
    result = race(tmp_path / "m", precision=0.02, max_games_per_cell=60)
    assert set(result.short) and all(w > 0.02 for w in result.short.values())
    assert {len(r) for r in cells_by_id(sweep.load_results(tmp_path / "m")).values()} == {60}
    assert "the most games a cell" in write_report(tmp_path / "m").read_text()


def test_precision_settings_are_checked(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="half-width"):
        race(tmp_path / "a", precision=0.7)
    with pytest.raises(OptionError, match="fewer than the first round"):
        race(tmp_path / "b", precision=0.1, max_games_per_cell=10)
    with pytest.raises(OptionError, match="go with a precision"):
        race(tmp_path / "c", seconds=10)
    race(tmp_path / "d", precision=0.2)
    with pytest.raises(OptionError, match="precision"):  # another sweep in the same folder
        race(tmp_path / "d", precision=0.1)


def test_the_command_sweeps_to_a_precision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["balance", "liberation", "--grid", "num_players=2", "--agents", "random"]
    argv += ["--games-per-cell", "20", "--out", str(tmp_path / "s"), "--no-progress"]
    assert main([*argv, "--precision", "0.2", "--report"]) == 0
    assert "half-width" in (tmp_path / "s" / "report.md").read_text()
    assert main([*argv, "--time-budget", "5"]) == 2
    assert "go with a precision" in capsys.readouterr().err


def test_a_search_cell_is_played_to_its_looser_half_width_and_the_report_says_per_rung(
    tmp_path: Path,
) -> None:
    assert is_search_cell(("mcts:10", "heuristic")) and is_search_cell(("alphazero-mcts:4",))
    assert not is_search_cell(("alphazero", "heuristic", "random"))
    assert cell_precision(("mcts:10",), 0.01, 0.03) == 0.03
    assert cell_precision(("heuristic",), 0.01, 0.03) == 0.01
    assert cell_precision(("mcts:10",), 0.01, None) == 0.01
    grid = sweep.parse_grid("liberation", ["num_players=2", "skill=random,mcts:2"])
    out = tmp_path / "s"
    result = sweep.run_sweep(
        "liberation", grid, ["random"], 20, out, seed=5, precision=0.1, search_precision=0.2
    )
    assert not result.short
    held = cells_by_id(sweep.load_results(out))
    by_skill = {rows_[0]["skill"]: rows_ for rows_ in held.values()}
    assert half_width(by_skill["random"]) <= 0.1
    assert 0.1 < half_width(by_skill["mcts:2"]) <= 0.2  # not played past its own precision
    assert len(by_skill["mcts:2"]) < len(by_skill["random"])
    summary = summarize(out)
    assert summary["search_precision"] == 0.2
    text = write_report(out).read_text()
    assert "each to a half-width of 10.0 points (20.0 for search cells)" in text
    assert (
        "| rung | kind | asked | cells | games | widest reached | stopped by | core-s a game |"
        in text
    )
    assert "| mcts:2 | search | 20.0 | 1 |" in text
    assert "| random | scripted or network | 10.0 | 1 |" in text
    with pytest.raises(OptionError, match="search precision"):
        sweep.run_sweep(
            "liberation",
            grid,
            ["random"],
            20,
            tmp_path / "x",
            precision=0.1,
            search_precision=0.05,
        )
    with pytest.raises(OptionError, match="go with a precision"):
        sweep.run_sweep("liberation", grid, ["random"], 20, tmp_path / "y", search_precision=0.2)
    # a sweep without a search cell keeps no search precision: a looser one changes nothing
    race(tmp_path / "r", precision=0.2, search_precision=0.3)
    race(tmp_path / "r", precision=0.2)


def test_the_command_asks_search_cells_three_times_the_precision_by_default(
    tmp_path: Path,
) -> None:
    argv = ["balance", "liberation", "--grid", "num_players=2", "--grid", "skill=random,mcts:2"]
    argv += ["--games-per-cell", "20", "--out", str(tmp_path / "s"), "--no-progress"]
    assert main([*argv, "--precision", "0.06", "--max-games-per-cell", "40"]) == 0
    assert sweep.load_manifest(tmp_path / "s")["search_precision"] == pytest.approx(0.18)


def test_with_a_time_budget_the_cheap_cells_play_before_the_search_cells() -> None:
    from types import SimpleNamespace

    from boardsim.research.sweep_play import cheapest_first

    def due(*policies: tuple[str, ...]) -> list[Any]:
        return [SimpleNamespace(cell=SimpleNamespace(policies=p)) for p in policies]

    mixed = due(("mcts:10",), ("heuristic",), ("alphazero-mcts:4", "random"), ("alphazero",))
    assert [r.cell.policies for r in cheapest_first(mixed)] == [("heuristic",), ("alphazero",)]
    searches = due(("mcts:10",), ("mcts:40", "heuristic"))
    assert cheapest_first(searches) == searches  # only searches left: they play


def test_with_a_time_budget_the_cells_farthest_from_their_precision_play_first() -> None:
    """Hispania's variants at MCTS@200: six cells at 5.4 points and one at 9.5, a budget
    that cannot finish them all goes to the 9.5 first (3 points asked)."""
    from types import SimpleNamespace

    from boardsim.research.sweep_play import widest_first

    rounds = [
        SimpleNamespace(cell=SimpleNamespace(cell_id=c)) for c in ("none", "terror", "pirates")
    ]
    gaps = {"none": 0.054 / 0.03, "terror": 0.095 / 0.03, "pirates": 0.054 / 0.03}
    assert [r.cell.cell_id for r in widest_first(rounds, gaps)] == ["terror", "none", "pirates"]
    unplayed = {**gaps, "none": float("inf")}  # a cell with no game yet is the farthest
    assert widest_first(rounds, unplayed)[0].cell.cell_id == "none"


def test_each_rounds_cost_is_timed_and_a_short_cell_says_what_its_precision_would_take(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 36: where the budget stops a cell, the report gives the games still wanted
    (a half-width shrinks as one over the root of the games) and their cost, measured
    from the rounds played here, on one core and on a Ray cluster."""
    import json

    from boardsim.research.precision import cluster_wall_seconds
    from boardsim.research.report import games_still_wanted, rung_precision
    from boardsim.research.sweep_folder import TIMINGS, load_timings

    out = tmp_path / "s"
    race(out, games=20, precision=0.05, max_games_per_cell=40, threads=1)
    timed = load_timings(out)
    held = cells_by_id(sweep.load_results(out))
    assert set(timed) == set(held)  # every cell's rounds were timed
    for cid, t in timed.items():
        assert t["games"] == len(held[cid]) == 40 and t["core_seconds"] > 0
    summary = summarize(out)
    assert all(c["core_seconds_a_game"] > 0 for c in summary["cells"])
    cell = summary["cells"][0]
    # 40 games at a half-width twice the one asked want four times the games: 120 more
    assert games_still_wanted(summary, {**cell, "half_width": 0.1}) == pytest.approx(120)
    assert games_still_wanted(summary, {**cell, "half_width": 0.04}) == 0
    rung = rung_precision(summary)[0]
    assert rung["stopped"] == "the most games a cell"
    assert rung["wanted"] == pytest.approx(
        sum(games_still_wanted(summary, c) for c in summary["cells"])
    )
    text = write_report(out).read_text()
    assert "| core-s a game |" in text and "What the cells short of their precision" in text
    assert "more games to reach 5.0 points, at the " in text
    assert "of one core; a Ray cluster of N cores: " in text and " on 128." in text
    # the dearest cell bounds a cluster's time: its rounds follow one another
    seconds = rung["wanted_seconds"]
    assert len(seconds) == len(summary["cells"]) and cluster_wall_seconds(seconds, 128) == max(
        seconds
    )
    assert cluster_wall_seconds([10.0, 10.0, 10.0], 2) == 15.0
    # a damaged timings file is started again, never a stopped sweep; none: not timed
    (out / TIMINGS).write_text("{not json")
    with caplog.at_level("WARNING"):
        assert load_timings(out) == {}
    assert "unreadable" in caplog.text
    (out / TIMINGS).unlink()
    text = write_report(out).read_text()
    assert "| not timed |" in text and "its games were not timed here" in text
    assert json.loads((out / "sweep.json").read_text())["precision"] == 0.05

"""Balance sweeps: cells, seats, the tidy table, resume after an interruption, the command."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardsim import OptionError, make_game
from boardsim.cli import main
from boardsim.core.batch import play_games
from boardsim.files import usual_file_mode
from boardsim.research import cells, sweep
from boardsim.research.report import summarize, write_report

RACE_GRID = ["num_players=2,3", "seat=all"]


def race_sweep(out: Path, games: int = 6, **kw) -> sweep.SweepResult:
    grid = sweep.parse_grid("liberation", RACE_GRID)
    return sweep.run_sweep("liberation", grid, ["heuristic", "random"], games, out, seed=3, **kw)


def test_race_sweep_places_the_agent_under_test_in_each_seat(tmp_path: Path) -> None:
    result = race_sweep(tmp_path / "s")
    assert (result.cells, result.played, result.games) == (5, 5, 30)
    rows = sweep.load_results(tmp_path / "s")
    assert len(rows) == 30
    cells = {(r["num_players"], r["seat"]) for r in rows}
    assert cells == {(2, 0), (2, 1), (3, 0), (3, 1), (3, 2)}
    for r in rows:
        seats = [r[f"agent_{s}"] for s in range(r["num_players"])]
        assert seats[r["seat"]] == "heuristic" and seats.count("heuristic") == 1
        assert r["test_seat"] == r["seat"]
        won = [int(x) for x in r["winners"].split("|") if x]
        rets = [r[f"return_{s}"] for s in range(r["num_players"])]
        assert all(rets[w] == max(rets) for w in won)


def test_rows_are_the_games_play_games_plays(tmp_path: Path) -> None:
    race_sweep(tmp_path / "s")
    rows = [
        r for r in sweep.load_results(tmp_path / "s") if r["num_players"] == 3 and r["seat"] == 1
    ]
    direct = play_games(
        make_game("liberation", num_players=3), 6, ["random", "heuristic", "random"], seed=3
    )
    assert [r["decisions"] for r in rows] == direct["decisions"].tolist()
    got = np.array([[r[f"return_{s}"] for s in range(3)] for r in rows])
    np.testing.assert_array_equal(got, direct["returns"])


def test_interrupted_sweep_keeps_finished_cells_and_the_rerun_gives_the_same_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    race_sweep(tmp_path / "whole")
    real = cells.play_cell
    calls = {"n": 0}

    def play_then_crash(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt("the power went off")
        return real(*args, **kwargs)

    monkeypatch.setattr(cells, "play_cell", play_then_crash)
    with pytest.raises(KeyboardInterrupt):
        race_sweep(tmp_path / "cut")
    cut = tmp_path / "cut"
    assert len(list((cut / "cells").glob("*.csv"))) == 2
    assert not [p for p in (cut / "cells").iterdir() if p.name.startswith(".")]  # no half file
    monkeypatch.setattr(cells, "play_cell", real)
    result = race_sweep(cut)
    assert (result.played, result.skipped) == (3, 2)
    assert (cut / "results.csv").read_text() == (tmp_path / "whole" / "results.csv").read_text()


def test_rerun_of_a_finished_sweep_plays_nothing(tmp_path: Path) -> None:
    race_sweep(tmp_path / "s")
    stamps = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "s" / "cells").iterdir()}
    again = race_sweep(tmp_path / "s")
    assert (again.played, again.skipped, again.games) == (0, 5, 0)
    assert stamps == {p.name: p.stat().st_mtime_ns for p in (tmp_path / "s" / "cells").iterdir()}
    mode = (tmp_path / "s" / "results.csv").stat().st_mode & 0o777
    assert mode == usual_file_mode()  # not mkstemp's private 0600


def test_a_folder_holding_another_sweep_is_refused(tmp_path: Path) -> None:
    race_sweep(tmp_path / "s")
    with pytest.raises(OptionError, match="different sweep"):
        race_sweep(tmp_path / "s", games=7)


def test_grid_words_are_typed_from_the_options() -> None:
    grid = sweep.parse_grid("farrapos", ["siege=true,false", "victory_vp=20,24"])
    assert grid == {"siege": [True, False], "victory_vp": [20, 24]}
    assert len(sweep.parse_grid("hispania", ["level=all"])["level"]) == 243
    assert sweep.parse_grid("hispania", ["level=all"])["level"][0] == "7-5-4-5-1"  # easiest
    variants = sweep.parse_grid("hispania", ["variant=all"])["variant"]
    assert variants == [
        "none",
        "ingenivm",
        "imperivm",
        "proconsvl",
        "legio_hispana",
        "pirates",
        "terror",
        "hispano",
    ]


@pytest.mark.parametrize(
    ("game", "grid", "agents", "match"),
    [
        ("liberation", ["colour=red"], ["random"], "no grid key 'colour'"),
        ("liberation", ["num_players=9"], ["random"], "out of range"),
        ("hispania", ["level=8-4-3-4-2"], ["random"], "not allowed"),
        ("liberation", ["num_players=3"], ["random", "random"], "2 agents for 3 players"),
        ("liberation", ["seat=0"], ["heuristic"], "two agents"),
        ("liberation", ["num_players=2"], ["greedy"], "compiled policies"),
        ("farrapos", ["side=rebels"], ["heuristic", "random"], "not a seat"),
        ("farrapos", ["variant=reward"], ["random"], "not an on/off option"),
        ("liberation", ["num_players"], ["random"], "KEY=V1,V2"),
        ("liberation", ["num_players=2"], ["mcts:lots"], "whole number"),
    ],
)
def test_bad_sweeps_are_refused_with_a_clear_error(game, grid, agents, match) -> None:
    with pytest.raises(OptionError, match=match):
        sweep.plan_cells(game, sweep.parse_grid(game, grid), agents)


def test_seat_names_sides_and_variants_make_the_right_cells() -> None:
    grid = sweep.parse_grid("farrapos", ["side=empire", "variant=siege+port_transport"])
    (cell,), _ = sweep.plan_cells("farrapos", grid, ["heuristic", "random"])
    assert cell.policies == ("random", "heuristic")
    assert cell.options == {"siege": True, "port_transport": True}
    # Hispania's Hispano player: the agent under test plays the Hispanic side alone
    grid = sweep.parse_grid("hispania", ["variant=hispano", "seat=hispano"])
    (cell,), _ = sweep.plan_cells("hispania", grid, ["heuristic", "random"])
    assert cell.policies == ("random", "random", "random", "heuristic")


def test_scenarios_the_level_cannot_carry_are_refused_or_skipped() -> None:
    grid = sweep.parse_grid("hispania", ["scenario=all"])
    with pytest.raises(OptionError, match="new_empire needs roads exactly 5"):
        sweep.plan_cells("hispania", grid, ["heuristic"])
    cells, skipped = sweep.plan_cells("hispania", grid, ["heuristic"], skip_invalid=True)
    assert len(cells) == 5 and [s["point"]["scenario"] for s in skipped] == ["new_empire"]


def _fake_play_cell(
    game_name, cell, games, seed, threads=None, chunk=0, on_chunk=None, metrics=False, first=0
):
    """Hispania without compiling it: Rome wins more with more denarii and no terror."""
    d = int(cell.options.get("level", "6").split("-")[0])
    p = 0.15 * (d - 4) - (0.2 if cell.options.get("terror") else 0.0)
    wins = np.arange(games) < round(p * games)
    returns = np.where(wins[:, None], 1.0, -1.0) * np.ones((1, cell.num_players))
    if on_chunk:
        on_chunk(games)
    return {
        "returns": returns,
        "decisions": np.full(games, 40 + d, np.int64),
        "truncated": np.zeros(games, bool),
    }


@pytest.mark.slow
def test_hispania_report_has_the_parameter_effects_and_the_plots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cells, "play_cell", _fake_play_cell)
    grid = sweep.parse_grid("hispania", ["level=all"])
    sweep.run_sweep("hispania", grid, ["heuristic"], 20, tmp_path / "h")
    summary = summarize(tmp_path / "h")
    assert summary["subject"] == "Rome" and summary["games"] == 243 * 20
    denarii = next(e for e in summary["parameters"] if e["parameter"] == "denarii")
    assert summary["parameters"][0]["parameter"] == "denarii"
    assert denarii["ordering"] == "holds"
    assert [r["rate"] for r in denarii["rates"]] == pytest.approx([0.45, 0.3, 0.15])
    report = write_report(tmp_path / "h").read_text()
    assert "The difficulty parameters of `level`" in report and "| denarii | 7/6/5 |" in report
    for name in ("win_rates", "heatmap", "lengths", "parameters"):
        assert (tmp_path / "h" / "plots" / f"{name}.png").stat().st_size > 1000
        assert f"plots/{name}.png" in report


def test_hispania_variant_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cells, "play_cell", _fake_play_cell)
    grid = sweep.parse_grid("hispania", ["variant=none,ingenivm,terror"])
    sweep.run_sweep("hispania", grid, ["heuristic"], 100, tmp_path / "v")
    report = write_report(tmp_path / "v").read_text()
    assert "| terror |" in report and "harder" in report
    assert (tmp_path / "v" / "plots" / "variants.png").exists()


def test_balance_command_sweeps_resumes_and_reports(tmp_path: Path, capsys) -> None:
    out = str(tmp_path / "cmd")
    args = [
        "balance",
        "liberation",
        "--grid",
        "num_players=2,3",
        "--agents",
        "random",
        "--games-per-cell",
        "8",
        "--out",
        out,
        "--no-progress",
    ]
    assert main(args) == 0
    assert "2 cells: 2 played (16 games" in capsys.readouterr().out
    assert main([*args, "--report"]) == 0
    assert "0 played" in capsys.readouterr().out
    assert main(["balance", "report", out]) == 0
    report = (tmp_path / "cmd" / "report.md").read_text()
    assert "First-seat advantage" in report and "plots/seats.png" in report
    assert (tmp_path / "cmd" / "plots" / "seats.png").exists()


def test_balance_command_rejects_bad_arguments(tmp_path: Path, capsys) -> None:
    assert (
        main(
            [
                "balance",
                "liberation",
                "--grid",
                "seat=0",
                "--agents",
                "heuristic",
                "--out",
                str(tmp_path / "x"),
            ]
        )
        == 2
    )
    assert "two agents" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:  # argparse: report's DIR is required
        main(["balance", "report"])
    assert exit_info.value.code == 2
    assert main(["balance", "report", str(tmp_path / "nothing")]) == 2
    assert "not a sweep folder" in capsys.readouterr().err
    assert main(["balance", "liberation", "--games-per-cell", "0", "--out", str(tmp_path)]) == 2


def test_mcts_seats_play_the_compiled_search(tmp_path: Path) -> None:
    from boardsim.agents import mcts

    grid = sweep.parse_grid("liberation", ["num_players=2", "seat=1"])
    sweep.run_sweep("liberation", grid, ["mcts:4", "random"], 3, tmp_path / "m", seed=2)
    rows = sweep.load_results(tmp_path / "m")
    assert [r["agent_1"] for r in rows] == ["mcts:4"] * 3
    direct = mcts.play_games(
        make_game("liberation", num_players=2), 3, ["random", "mcts"], seed=2, simulations=4
    )
    assert [r["decisions"] for r in rows] == direct["decisions"].tolist()


def _fake_skilled_cell(
    game_name, cell, games, seed, threads=None, chunk=0, on_chunk=None, metrics=False, first=0
):
    """Denarii matter to the heuristic only: the random Romans lose at every level."""
    played = _fake_play_cell(game_name, cell, games, seed, threads, chunk, on_chunk)
    if cell.point.get("skill") == "random":
        played["returns"] = -np.ones_like(played["returns"])
    return played


@pytest.mark.slow
def test_the_difficulty_parameters_are_read_at_each_skill_not_pooled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cells, "play_cell", _fake_skilled_cell)
    grid = sweep.parse_grid("hispania", ["level=all", "skill=heuristic,random"])
    sweep.run_sweep("hispania", grid, ["heuristic"], 20, tmp_path / "h")
    summary = summarize(tmp_path / "h")
    assert "parameters" not in summary  # pooled over the two skills: no single table
    by_skill = summary["parameters_by_skill"]
    denarii = {k: next(e for e in v if e["parameter"] == "denarii") for k, v in by_skill.items()}
    assert [r["rate"] for r in denarii["heuristic"]["rates"]] == pytest.approx([0.45, 0.3, 0.15])
    assert [r["rate"] for r in denarii["random"]["rates"]] == [0.0, 0.0, 0.0]
    report = write_report(tmp_path / "h").read_text()
    assert "At `skill=heuristic`:" in report and "At `skill=random`:" in report

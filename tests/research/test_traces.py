"""The compiled recorder plays the sweeps' very games, and its traces read as the game went."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from boardsim import make_game
from boardsim.agents import mcts
from boardsim.cli import main
from boardsim.core.batch import play_games
from boardsim.core.network import Network
from boardsim.core.rng import derive_seed
from boardsim.research import metrics, sweep
from boardsim.research.report import summarize, write_report
from boardsim.research.traces import play_traces

ROOT = Path(__file__).resolve().parents[2]


def test_recorded_games_are_the_games_play_games_plays() -> None:
    game = make_game("liberation", num_players=3)
    seats = ["heuristic", "random", "heuristic"]
    traces = play_traces(game, 5, seats, seed=4, first_game=2)
    direct = play_games(game, 5, seats, seed=4, first_game=2)
    np.testing.assert_array_equal(traces.decisions, direct["decisions"])
    np.testing.assert_array_equal(traces.returns, direct["returns"])


def test_recorded_mcts_games_are_the_games_mcts_plays() -> None:
    game = make_game("farrapos")
    traces = play_traces(game, 2, ["mcts:8", "heuristic"], seed=1)
    direct = mcts.play_games(game, 2, ["mcts", "heuristic"], seed=1, simulations=8)
    np.testing.assert_array_equal(traces.decisions, direct["decisions"])
    np.testing.assert_array_equal(traces.returns, direct["returns"])


def test_a_trace_starts_with_the_first_positions_player_legal_count_and_value() -> None:
    game = make_game("farrapos")
    traces = play_traces(game, 1, ["random", "random"], seed=7)
    state = game.new_initial_state(int(derive_seed(7, 0)))  # game 0 of the run seed 7
    value = np.zeros(game.max_players)
    game.kernels.evaluate_position(state.array, game.params, value)
    assert traces.actors[0, 0] == state.current_player()
    assert traces.legal[0, 0] == int(state.legal_actions_mask().sum())
    np.testing.assert_allclose(traces.values[0, 0], value[:2], rtol=1e-6)
    n = traces.recorded[0]
    assert n == traces.decisions[0] > 0
    assert set(traces.actors[0, :n].tolist()) == {0, 1} and (traces.legal[0, :n] >= 1).all()
    assert (np.abs(traces.values[0, :n]) <= 1).all()


def test_a_network_values_the_positions_of_a_trace_from_the_player_to_move() -> None:
    game = make_game("farrapos")
    network = Network.load(ROOT / "agents" / "farrapos" / "ppo.npz")  # value_size 1, no hint
    traces = play_traces(game, 2, ["random", "random"], seed=7, values=network)
    plain = play_traces(game, 2, ["random", "random"], seed=7)
    np.testing.assert_array_equal(traces.decisions, plain.decisions)  # the same games
    state = game.new_initial_state(int(derive_seed(7, 0)))
    actor = state.current_player()
    _, v = network.evaluate(state.observation(actor))
    expected = [float(v[0]) if p == actor else -float(v[0]) for p in range(2)]
    np.testing.assert_allclose(traces.values[0, 0], expected, atol=1e-5)
    assert not np.allclose(traces.values[0, :5], plain.values[0, :5])
    race = make_game("liberation", num_players=3)  # two values, one a player: not for 3
    race_net = Network.load(ROOT / "agents" / "liberation" / "alphazero.npz")
    with pytest.raises(ValueError, match="3 players"):
        play_traces(race, 1, ["random"] * 3, values=race_net)


def test_a_longer_game_than_the_buffer_is_played_whole_and_its_trace_cut() -> None:
    game = make_game("farrapos")
    whole = play_traces(game, 2, ["random", "random"], seed=3)
    cut = play_traces(game, 2, ["random", "random"], seed=3, max_len=10)
    np.testing.assert_array_equal(cut.decisions, whole.decisions)
    assert (cut.recorded == 10).all()
    np.testing.assert_array_equal(cut.legal, whole.legal[:, :10])
    per_game = metrics.per_game_metrics(cut)
    assert np.isnan(per_game["drama"]).all() and not np.isnan(per_game["branching"]).any()


def test_unknown_seats_are_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="choose mcts"):
        play_traces(make_game("farrapos"), 1, ["greedy", "random"])


def test_a_sweep_with_metrics_keeps_its_games_and_adds_each_games_metrics(tmp_path: Path) -> None:
    grid = sweep.parse_grid("farrapos", ["side=republic,empire"])
    plain = tmp_path / "plain"
    traced = tmp_path / "traced"
    sweep.run_sweep("farrapos", grid, ["heuristic", "random"], 6, plain, seed=2)
    sweep.run_sweep("farrapos", grid, ["heuristic", "random"], 6, traced, seed=2, metrics=True)
    a, b = sweep.load_results(plain), sweep.load_results(traced)
    assert [r["decisions"] for r in a] == [r["decisions"] for r in b]
    assert [r["winners"] for r in a] == [r["winners"] for r in b]
    assert all(1.0 <= r["branching"] and 0.0 <= r["real_choice"] <= 1.0 for r in b)
    cell = summarize(traced)["cells"][0]["metrics"]
    assert cell["branching"]["n"] == 6 and 0.0 <= cell["decisiveness"]["value"] <= 1.0
    # Farrapos ships a self-play network: its value head values the positions
    manifest = sweep.load_manifest(traced)
    assert manifest["values"]["source"] == "network" and len(manifest["valued_cells"]) == 2
    page = write_report(traced).read_text()
    assert "| side=republic | network |" in page
    assert "## Metrics of the field" in page and "| branching |" in page.replace(
        " branching ", " branching "
    )


def test_a_sweep_folder_refuses_to_resume_with_metrics_switched(tmp_path: Path) -> None:
    grid = sweep.parse_grid("farrapos", ["side=republic"])
    sweep.run_sweep("farrapos", grid, ["heuristic", "random"], 2, tmp_path / "s", seed=2)
    with pytest.raises(ValueError, match="metrics"):
        sweep.run_sweep(
            "farrapos", grid, ["heuristic", "random"], 2, tmp_path / "s", seed=2, metrics=True
        )


def test_a_sweep_with_metrics_valued_by_the_progress_measure_is_not_resumed_with_a_network(
    tmp_path: Path,
) -> None:
    grid = sweep.parse_grid("farrapos", ["side=republic"])
    out = tmp_path / "s"
    sweep.run_sweep("farrapos", grid, ["heuristic", "random"], 2, out, seed=2, metrics=True)
    manifest = json.loads((out / sweep.MANIFEST).read_text())
    del manifest["values"]  # a folder written before the values were recorded
    (out / sweep.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="values"):
        sweep.run_sweep("farrapos", grid, ["heuristic", "random"], 2, out, seed=2, metrics=True)


def test_a_sweep_with_metrics_grows_by_cells_and_keeps_which_the_network_valued(
    tmp_path: Path,
) -> None:
    out = tmp_path / "s"
    for sides in (["side=republic"], ["side=republic,empire"]):
        grid = sweep.parse_grid("farrapos", sides)
        sweep.run_sweep("farrapos", grid, ["heuristic", "random"], 2, out, seed=2, metrics=True)
    manifest = sweep.load_manifest(out)
    assert len(manifest["cells"]) == 2 and len(manifest["valued_cells"]) == 2


def test_the_command_records_metrics_and_the_report_reads_for_rome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "h"
    args = ["balance", "hispania", "--grid", "level=7-5-4-5-1,5-3-2-3-3"]
    args += ["--games-per-cell", "4", "--out", str(out), "--metrics", "--no-progress"]
    assert main([*args, "--report"]) == 0
    page = (out / "report.md").read_text()
    assert "a win for **Rome**" in page and "of the Rome" not in page
    assert "lost to the game" in page
    assert "| network |" in page  # the values of Hispania's shipped network

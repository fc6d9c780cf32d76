"""The fixed panel of a self-play run, the run without a gate, the gate's openings, and
the playout cap."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import boardsim
from boardsim.agents.network import NetworkSearchAgent
from boardsim.core.seats import Seat, seat_table
from boardsim.training.alphazero import (
    AlphaZeroConfig,
    saved_config,
    selfplay_games,
    train_alphazero,
    train_command,
)
from boardsim.training.panel import make_panel, mistakes, panel_line, panel_row, rotated_scores
from boardsim.training.positions import search_positions
from tests.agents.test_networks import random_network
from tests.training.test_alphazero import TINY

PLUGIN = Path(__file__).resolve().parents[2] / "benchmarks" / "connect_four"
QUIET = {"log": lambda *_: None}


def _config(run_dir: Path, iterations: int, **kw) -> AlphaZeroConfig:
    return AlphaZeroConfig(
        game="liberation",
        run_dir=str(run_dir),
        options={"num_players": 2, "max_decisions": 2000},
        iterations=iterations,
        **{**TINY, **kw},
    )


def test_rotated_scores_give_one_score_a_game_each_side_in_turn() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    scores = rotated_scores(game, Seat.named("heuristic"), Seat.named("random"), 7, 3, 1)
    assert scores.shape == (7,) and set(np.unique(scores)) <= {0.0, 0.5, 1.0}
    again = rotated_scores(game, Seat.named("heuristic"), Seat.named("random"), 7, 3, 1)
    np.testing.assert_array_equal(scores, again)  # the same deals every time


def test_a_move_is_a_mistake_when_it_lowers_the_class() -> None:
    # two positions: a win (column 1 wins, 0 draws, 2 illegal); a draw (0 draws, 1 loses)
    outcomes = np.array([[0, 1, -2], [0, -1, -1]], np.int8)
    assert mistakes(outcomes, np.array([1, 0])) == 0
    assert mistakes(outcomes, np.array([0, 1])) == 2
    with pytest.raises(ValueError, match="illegal"):
        mistakes(outcomes, np.array([2, 0]))


def test_the_panel_is_measured_every_k_iterations_written_and_resumed(tmp_path) -> None:
    """Every second iteration the network alone meets the same opponents on the same
    deals; the CSV and the printed lines carry it; a resume continues the same panel."""
    kw = {"panel": ["random", "mcts:8"], "panel_games": 4, "panel_every": 2}
    lines: list[str] = []
    straight = train_alphazero(_config(tmp_path / "a", 4, **kw), log=lines.append)
    train_alphazero(_config(tmp_path / "b", 2, **kw), **QUIET)
    resumed = train_alphazero(_config(tmp_path / "b", 4, **kw), resume=True, **QUIET)
    panels = [r["panel"] for r in straight.curve]
    assert panels[0] is None and panels[2] is None
    for panel in (panels[1], panels[3]):
        assert set(panel) == {"score/random", "score/mcts:8"}
        for key in ("score/random", "score/mcts:8"):
            assert panel[key]["low"] <= panel[key]["mean"] <= panel[key]["high"]
    strip = [
        {k: v for k, v in (r["panel"] or {}).items() if k != "seconds"} for r in straight.curve
    ]
    again = [{k: v for k, v in (r["panel"] or {}).items() if k != "seconds"} for r in resumed.curve]
    assert strip == again
    rows = list(csv.DictReader((tmp_path / "b" / "curve.csv").open()))
    assert [int(r["iteration"]) for r in rows] == [1, 2, 3, 4]
    assert float(rows[3]["panel/score/random/mean"]) == panels[3]["score/random"]["mean"]
    assert rows[0]["panel/score/random/mean"] == ""  # not measured there
    assert sum("; panel (" in line and "vs random" in line for line in lines) == 2
    assert sum(line.startswith("iteration ") for line in lines) == 4
    assert "vs mcts:8" in panel_line(panels[1])


def test_without_a_gate_the_latest_network_generates_the_data(tmp_path) -> None:
    result = train_alphazero(_config(tmp_path / "r", 2, gate="none"), **QUIET)
    for row in result.curve:
        assert row["gate_score"] is None and row["accepted"]
        assert row["best_iteration"] == row["iteration"]
    assert "--gate none" in train_command(_config(tmp_path / "r", 2, gate="none"))
    with pytest.raises(boardsim.OptionError, match="gate must be one of"):
        _config(tmp_path / "x", 1, gate="best").validate()


def test_gate_games_sample_their_openings_and_old_runs_keep_theirs() -> None:
    puct = AlphaZeroConfig(game="liberation", run_dir="x", search="puct", gate_openings=4)
    assert puct.search_options(training=False, openings=4)["sample_moves"] == 4
    assert puct.search_options(training=False)["sample_moves"] == 0
    gumbel = AlphaZeroConfig(game="liberation", run_dir="x")
    assert gumbel.search_options(training=False, openings=4)["gumbel_scale"] == 1.0
    assert gumbel.search_options(training=False)["gumbel_scale"] == 0.0
    # a run recorded before the gate sampled openings resumes (and is described) as it ran
    assert saved_config({"game": "liberation", "run_dir": "x"}).gate_openings == 0


@pytest.fixture
def connect_four():
    if str(PLUGIN) not in sys.path:
        sys.path.insert(0, str(PLUGIN))
    from boardsim_connect_four import DEFINITION

    from boardsim.core.game import Game

    return Game(DEFINITION)


@pytest.mark.slow
def test_connect_four_panel_has_the_solver_mistake_rate(tmp_path, connect_four) -> None:
    """The positions are solved once, kept in the run folder, and the perfect player (the
    solver's best move) makes no mistake on them."""
    game = connect_four
    panel = make_panel(game, ["random"], 2, 6, 11, tmp_path)
    saved = json.loads((tmp_path / "panel.json").read_text())
    assert saved["seed"] == 11 and len(saved["moves"]) == 6
    again = make_panel(game, ["random"], 2, 6, 11, tmp_path)  # read back, not solved again
    np.testing.assert_array_equal(panel.states, again.states)
    perfect = panel_row(game, panel, Seat.named("random"), lambda s: panel.outcomes.argmax(1), 1)
    assert perfect["mistake_rate"]["mean"] == 0.0
    worst = panel_row(game, panel, Seat.named("random"), lambda s: _worst(panel.outcomes), 1)
    can_err = int(
        (panel.outcomes.max(1) > np.where(panel.outcomes == -2, 9, panel.outcomes).min(1)).sum()
    )
    assert worst["mistake_rate"]["mean"] == can_err / 6


def _worst(outcomes: np.ndarray) -> np.ndarray:
    return np.where(outcomes == -2, 9, outcomes).argmin(axis=1)


def test_the_playout_cap_trains_the_policy_on_the_full_searches_only() -> None:
    """A share of the searched decisions gets the full budget and a policy target; the
    rest a cheap search, no policy target (a zero row), and their values; with every
    decision full, the games and targets are those without the cap."""
    game = boardsim.make_game("liberation", num_players=2, max_decisions=600)
    network = random_network(game)
    full = NetworkSearchAgent(game, network, 8, search="gumbel", gumbel_scale=1.0)
    cheap = NetworkSearchAgent(game, network, 2, search="gumbel", gumbel_scale=1.0)
    table, small = seat_table(game, [full, full]), seat_table(game, [cheap, cheap])
    record = np.ones(game.max_players, np.uint8)
    out = selfplay_games(game, table, record, 5, 0, 4, 600, 1, small, 0.25)
    mass = out["policies"].astype(np.float32).sum(axis=1)
    with_target = mass > 0.5
    assert 0.1 < with_target.mean() < 0.45  # about a quarter searched fully
    np.testing.assert_allclose(mass[with_target], 1.0, atol=1e-2)
    assert np.all(mass[~with_target] == 0)  # the cheap ones: no policy target
    assert np.all(np.isfinite(out["values"]))  # every searched position keeps its values
    plain = selfplay_games(game, table, record, 5, 0, 4, 600, 1)
    capped_off = selfplay_games(game, table, record, 5, 0, 4, 600, 1, small, 1.0)
    for key in ("states", "policies", "values", "returns"):
        np.testing.assert_array_equal(plain[key], capped_off[key])


def test_a_run_with_the_playout_cap_reports_its_policy_positions(tmp_path) -> None:
    result = train_alphazero(_config(tmp_path / "r", 1, playout_cap="6:2:0.5"), **QUIET)
    play = result.curve[0]["selfplay"]
    assert 0 < play["policy_positions"] < play["positions"]
    assert "--playout-cap 6:2:0.5" in train_command(_config(tmp_path, 1, playout_cap="6:2:0.5"))
    for bad in ("6:8:0.5", "6:2", "6:2:0", "a:b:c"):
        with pytest.raises(boardsim.OptionError, match="playout_cap"):
            _config(tmp_path, 1, playout_cap=bad).validate()


@pytest.mark.slow
def test_gumbel_at_16_simulations_puts_its_target_on_the_move_that_wins(connect_four) -> None:
    """Connect four, three stacked in column 3 for the player to move: an untrained
    network's 16-simulation Gumbel search (sequential halving over the 7 columns, the
    completed-Q target) plays the win; at core/seats.py's c_scale 1.0 the target is
    nearly all on it, at 0.1 (the trainer's default) much less."""
    game = connect_four
    state = game.new_initial_state(0)
    for col in (3, 4, 3, 4, 3, 5):
        state.apply_action(col)
    states = np.ascontiguousarray(state.array[None, :])
    network = random_network(game)
    weight = {}
    for c_scale in (1.0, 0.1):
        agent = NetworkSearchAgent(game, network, 16, search="gumbel", c_scale=c_scale)
        out = search_positions(game, seat_table(game, [agent, agent]), states, 3, 1)
        assert out["actions"][0] == 3
        assert out["visits"][0].sum() == 15 and (out["visits"][0] > 0).sum() == 7
        weight[c_scale] = float(out["targets"][0, 3])
    assert weight[1.0] > 0.95 and weight[0.1] < weight[1.0]

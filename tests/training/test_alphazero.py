"""Self-play training: a tiny run goes through every step, resumes exactly, and its
networks play as agents."""

from __future__ import annotations

import json

import numpy as np
import pytest

import boardsim
from boardsim.agents import load
from boardsim.core.errors import OptionError
from boardsim.core.network import Network
from boardsim.training.alphazero import (
    AlphaZeroConfig,
    AlphaZeroTrainer,
    best_network,
    curve_markdown,
    rotated_score,
    train_alphazero,
)
from boardsim.training.checkpoint import read_entry, read_metadata, read_resume_arrays
from boardsim.training.panel import seat_scores, side_scores
from boardsim.training.replay import ReplayBuffer
from boardsim.training.targets import improvement_targets, value_targets

TINY = {
    "games_per_iteration": 4,
    "simulations": 6,
    "gumbel_m": 4,
    "hidden": [16],
    "value_hidden": 8,
    "batch_size": 16,
    "max_steps": 4,
    "buffer_size": 3000,
    "gate_games": 2,
    "eval_games": 4,
    "panel": ["random", "heuristic"],
    "panel_games": 2,
    "threads": 1,
    "torch_threads": 1,
    "progress": False,
}


def _config(run_dir, iterations: int, **kw) -> AlphaZeroConfig:
    return AlphaZeroConfig(
        game="liberation",
        run_dir=str(run_dir),
        options={"num_players": 2, "max_decisions": 2000},
        iterations=iterations,
        **{**TINY, **kw},
    )


def _networks(path) -> tuple[Network, Network]:
    return (
        Network.from_bytes(read_entry(path, "network.npz")),
        Network.from_bytes(read_entry(path, "best.npz")),
    )


def test_a_run_resumed_after_an_interruption_continues_exactly(tmp_path) -> None:
    """Three iterations straight, or two then a resume to three: the same networks, the
    same buffer, the same curve; with Gumbel's c_scale at 1.0 and a buffer that has
    wrapped round by the resume (its rows must come back where they were)."""
    quiet = {"log": lambda *_: None}
    small = {"warmup_iterations": 1, "buffer_size": 500, "c_scale": 1.0}
    straight = train_alphazero(_config(tmp_path / "a", 3, **small), **quiet)
    train_alphazero(_config(tmp_path / "b", 2, **small), **quiet)
    resumed = train_alphazero(
        _config(tmp_path / "b", 3, buffer_size=500, c_scale=1.0), resume=True, **quiet
    )
    assert straight.iterations == resumed.iterations == 3
    assert straight.positions == resumed.positions > 2 * 500
    for x, y in zip(_networks(straight.checkpoint), _networks(resumed.checkpoint), strict=True):
        np.testing.assert_array_equal(x.weights, y.weights)
    a, b = read_resume_arrays(straight.checkpoint), read_resume_arrays(resumed.checkpoint)
    for key in ("replay_states", "replay_policies", "replay_values", "rng_state"):
        np.testing.assert_array_equal(a[key], b[key])
    drop = ("seconds", "wall_seconds")
    strip = [{k: v for k, v in r.items() if k not in drop} for r in straight.curve]
    for r in strip:
        r["selfplay"].pop("seconds")
    again = [{k: v for k, v in r.items() if k not in drop} for r in resumed.curve]
    for r in again:
        r["selfplay"].pop("seconds")
    assert strip == again
    meta = read_metadata(tmp_path / "b")
    assert meta["algorithm"] == "alphazero" and meta["iteration"] == 3
    assert meta["config"]["warmup_iterations"] == 1  # the saved configuration, not the given
    config = json.loads((tmp_path / "b" / "config.json").read_text())
    assert config["simulations"] == 6 and config["hidden"] == [16]
    with pytest.raises(boardsim.OptionError, match="already holds a run"):
        train_alphazero(_config(tmp_path / "b", 4), **quiet)


def test_refinement_relabels_the_networks_own_positions_and_resumes_exactly(tmp_path) -> None:
    """After a warm-up iteration, two of DAgger: the buffer holds only the positions the
    network reached playing the heuristic, their targets one-hot, and a resume in the
    middle of the refinement continues exactly."""
    quiet = {"log": lambda *_: None}
    kw = {
        "warmup_iterations": 1,
        "refine_iterations": 2,
        "refine_simulations": 8,
        "refine_games": 4,
        "refine_learning_rate": 1e-4,
        "gate_games": 2,
    }
    straight = train_alphazero(_config(tmp_path / "a", 3, **kw), **quiet)
    train_alphazero(_config(tmp_path / "b", 2, **kw), **quiet)
    resumed = train_alphazero(_config(tmp_path / "b", 3), resume=True, **quiet)
    for x, y in zip(_networks(straight.checkpoint), _networks(resumed.checkpoint), strict=True):
        np.testing.assert_array_equal(x.weights, y.weights)
    a, b = read_resume_arrays(straight.checkpoint), read_resume_arrays(resumed.checkpoint)
    for key in ("replay_states", "replay_policies", "replay_values", "replay_search_values"):
        np.testing.assert_array_equal(a[key], b[key])
    warm, first, second = straight.curve
    assert warm["selfplay"]["expert"] == "heuristic"
    for row in (first, second):
        assert row["selfplay"]["expert"] == "network, relabelled by mcts:8"
        assert row["gate_score"] is None and row["accepted"]  # not gated
        assert 0 <= row["selfplay"]["off_heuristic"] <= 1
        assert 0 <= row["selfplay"]["network_score"] <= 1
    # the warm-up's positions were dropped when the refinement started
    refined = first["selfplay"]["positions"] + second["selfplay"]["positions"]
    assert len(a["replay_states"]) == refined
    policies = a["replay_policies"].astype(np.float32)
    assert np.all(policies.max(axis=1) == 1) and np.all(policies.sum(axis=1) == 1)
    assert not np.isnan(a["replay_search_values"]).any()  # every position searched
    game = boardsim.make_game("liberation", num_players=2)
    for st in a["replay_states"][:20]:
        mask = np.zeros(game.num_actions, np.uint8)
        assert game.kernels.legal_mask(st, game.params, mask) > 1  # a choice
    record = read_metadata(tmp_path / "b")["config"]
    assert record["refine_iterations"] == 2 and record["refine_simulations"] == 8


def _refining(run_dir, **kw) -> AlphaZeroTrainer:
    """A trainer about to play one refinement iteration on the network's own move."""
    config = _config(
        run_dir,
        1,
        refine_iterations=1,
        refine_simulations=8,
        refine_games=4,
        refine_baseline="network",
        **kw,
    )
    return AlphaZeroTrainer(config)


def test_refining_on_the_networks_own_move_keeps_it_where_the_search_finds_nothing_better(
    tmp_path,
) -> None:
    """``refine_baseline="network"``: an untrained network's targets are its own moves
    wherever the search does not clearly beat them, not its teacher's: few targets leave
    its move, many leave the heuristic's (which it does not play)."""
    trainer = _refining(tmp_path / "own")
    play = trainer.selfplay()
    assert play["expert"] == "network, relabelled by mcts:8, else its own move"
    states = trainer.buffer.states[: trainer.buffer.added]
    targets = trainer.buffer.policies[: trainer.buffer.added].astype(np.float32).argmax(axis=1)
    own = trainer.greedy_moves(states)
    np.testing.assert_array_equal(trainer.refine_baseline_moves(states), own)
    kept = float((targets == own).mean())
    assert play["off_baseline"] == pytest.approx(1 - kept)
    assert kept > 0.5 and play["off_heuristic"] > play["off_baseline"]
    with pytest.raises(boardsim.OptionError, match="refine_baseline"):
        AlphaZeroConfig(game="liberation", run_dir="x", refine_baseline="teacher").validate()


def test_the_networks_own_search_can_relabel_its_positions(tmp_path) -> None:
    """``refine_expert="network"``: the best network's search (no noise) relabels the
    positions; its values are searched ones and every target is one-hot, as with UCT."""
    trainer = _refining(tmp_path / "self", refine_expert="network")
    assert trainer.relabeller(8).network is trainer.best
    play = trainer.selfplay()
    assert play["expert"] == "network, relabelled by alphazero-mcts:8, else its own move"
    n = trainer.buffer.added
    assert n > 0 and not np.isnan(trainer.buffer.search_values[:n]).any()
    policies = trainer.buffer.policies[:n].astype(np.float32)
    assert np.all(policies.max(axis=1) == 1) and np.all(policies.sum(axis=1) == 1)
    with pytest.raises(boardsim.OptionError, match="refine_expert"):
        AlphaZeroConfig(game="liberation", run_dir="x", refine_expert="oracle").validate()


def test_a_cooperative_sides_refinement_score_is_its_win_rate() -> None:
    """Hispania's generals share one return: every general is "best" in a lost game too,
    so the side's score is whether it won, not its share of the best return."""
    hispania = boardsim.make_game("hispania")
    returns = np.array([[1.0, 1.0, 1.0], [-1.0, -1.0, -1.0]])
    mine = np.ones(3, bool)
    assert list(side_scores(hispania, returns, mine)) == [1.0, 0.0]
    race = boardsim.make_game("liberation", num_players=2)
    assert list(side_scores(race, np.array([[1.0, -1.0]]), np.array([True, False]))) == [1.0]


def test_the_improvement_target_leaves_the_heuristic_only_for_a_clearly_better_move() -> None:
    baseline = np.array([0, 0, 0, 2])
    q = np.array(
        [
            [0.10, 0.30, 0.00],  # move 1 better by 0.2: taken
            [0.10, 0.12, 0.00],  # better by 0.02 only: the heuristic's
            [0.10, 0.90, 0.00],  # much better, but visited too rarely: the heuristic's
            [0.50, 0.00, 0.20],  # the heuristic's move 2 is worse than move 0: move 0
        ]
    )
    visits = np.array([[50, 50, 0], [50, 50, 0], [95, 5, 0], [40, 20, 40]])
    got = improvement_targets(baseline, q, visits, margin=0.05, min_share=0.1)
    assert list(got.argmax(axis=1)) == [1, 0, 0, 0]
    assert np.all(got.sum(axis=1) == 1)
    for bad, name in (
        ({"refine_margin": -0.1}, "refine_margin"),
        ({"refine_min_share": 1.5}, "refine_min_share"),
        ({"refine_games": 0}, "refine_games"),
        ({"refine_simulations": 0}, "refine_simulations"),
        ({"refine_learning_rate": 0.0}, "refine_learning_rate"),
        ({"refine_iterations": -1}, "refine_iterations"),
        ({"noise": 1.5}, "noise"),
        ({"sample_moves": -1}, "sample_moves"),
    ):
        with pytest.raises(boardsim.OptionError, match=name):
            AlphaZeroConfig(game="liberation", run_dir="x", **bad).validate()
    unvisited = improvement_targets(
        np.array([2]), np.array([[0.5, 0.0, 0.0]]), np.array([[10, 0, 0]]), 0.05, 0.1
    )
    assert unvisited.argmax() == 2  # no value to compare the heuristic's move with


def test_every_step_of_an_iteration_is_reported(tmp_path) -> None:
    result = train_alphazero(
        _config(tmp_path / "r", 2, tensorboard=True, search="puct"), log=lambda *_: None
    )
    first, second = result.curve
    assert first["games"] == 4 and second["games"] == 8
    assert first["selfplay"]["positions"] > 0 and first["losses"]["steps"] >= 1
    best = 0
    for row in result.curve:
        assert 0 <= row["gate_score"] <= 1 and isinstance(row["accepted"], bool)
        assert row["accepted"] == (row["gate_score"] >= 0.55)  # the default threshold
        best = row["iteration"] if row["accepted"] else best
        assert row["best_iteration"] == best  # a rejected candidate leaves the best as it was
        assert 0 <= row["candidate_vs_heuristic"] <= 1
    assert result.best_iteration == best
    assert any((tmp_path / "r" / "tb").iterdir())
    net = best_network(tmp_path / "r")
    assert net.meta["source"] == "alphazero" and net.meta["search"]["search"] == "puct"
    game = boardsim.make_game("liberation", num_players=2)
    alone = load(f"alphazero:{tmp_path / 'r'}", game)
    searching = load(f"alphazero-mcts:8:{tmp_path / 'r'}", game)
    st = game.new_initial_state(0)
    assert st.legal_actions_mask()[alone.act_state(st)]
    assert st.legal_actions_mask()[searching.act_state(st)]


def test_no_step_is_taken_until_the_buffer_holds_min_buffer_positions(tmp_path) -> None:
    """--min-buffer: the iterations before it play and store their games with the network
    they started from (its weights unchanged, no loss); the first training then takes in
    every position stored, and a buffer that can never fill is refused."""
    result = train_alphazero(
        _config(tmp_path / "m", 3, gate="none", min_buffer=1), log=lambda *_: None
    )
    assert all(row["losses"]["steps"] >= 1 for row in result.curve)
    big = {"buffer_size": 100_000, "max_steps": 2000, "sample_reuse": 1.0}
    trainer = AlphaZeroTrainer(_config(tmp_path / "w", 3, gate="none", **big))
    start = trainer.export(0).weights.copy()
    trainer.selfplay()
    trainer.config.min_buffer = trainer.buffer.size + 1
    waiting = trainer.train_network()
    assert waiting["steps"] == 0 and np.isnan(waiting["policy"])
    np.testing.assert_array_equal(trainer.export(1).weights, start)
    trainer.selfplay()
    assert trainer.buffer.size >= trainer.config.min_buffer
    trained = trainer.train_network()
    expected = -(-trainer.buffer.added // 16)  # every position stored, seen once, batch 16
    assert trained["steps"] == expected and np.isfinite(trained["policy"])
    assert not np.array_equal(trainer.export(2).weights, start)
    with pytest.raises(OptionError, match="min_buffer"):
        _config(tmp_path / "x", 1, min_buffer=3001).validate()


def test_a_cooperative_game_trains_its_one_side(tmp_path) -> None:
    """Hispania's generals: every Roman seat plays the one network; the gate compares the
    side's wins on the same deals."""
    config = AlphaZeroConfig(
        game="hispania",
        run_dir=str(tmp_path / "h"),
        options={"level": "7-5-4-5-1", "max_decisions": 1500},
        iterations=1,
        warmup_iterations=0,
        **{**TINY, "games_per_iteration": 2},
    )
    result = train_alphazero(config, log=lambda *_: None)
    row = result.curve[0]
    assert row["heuristic_reference"] is not None and 0 <= row["gate_score"] <= 1


def test_scores_count_shared_wins_and_the_buffer_rotates_returns() -> None:
    returns = np.array([[1.0, -1.0], [0.0, 0.0], [-1.0, 1.0]])
    np.testing.assert_allclose(seat_scores(returns, np.array([True, False])), [1, 0.5, 0])
    buf = ReplayBuffer(4, 8, 3, 2)
    states = np.zeros((5, 8), np.int32)
    states[:, 2] = [0, 1, 0, 1, 1]  # the player to move (H_ACTOR)
    rets = np.tile(np.array([[1.0, -1.0]]), (5, 1))
    buf.add(states, np.ones((5, 3)) / 3, rets)
    assert buf.size == 4 and buf.added == 5
    saved = buf.arrays()
    np.testing.assert_array_equal(saved["replay_values"][:, 0], [-1, 1, -1, -1])  # own first
    again = ReplayBuffer(4, 8, 3, 2)
    again.restore(saved)
    np.testing.assert_array_equal(again.arrays()["replay_values"], saved["replay_values"])


def test_a_full_buffer_restored_draws_the_same_minibatches() -> None:
    """A buffer that has wrapped round, saved and restored: its rows are where they were,
    so the same generator draws the same positions (a resumed run trains as the run
    would; before, the rows went back oldest first and the minibatches changed)."""
    buf = ReplayBuffer(5, 8, 3, 2)
    states = np.zeros((7, 8), np.int32)
    states[:, 0] = np.arange(7)  # each position named by its first word
    buf.add(states, np.ones((7, 3)) / 3, np.zeros((7, 2)))
    again = ReplayBuffer(5, 8, 3, 2)
    again.restore(buf.arrays())
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    for _ in range(4):
        np.testing.assert_array_equal(
            buf.states[buf.sample(a, 6)], again.states[again.sample(b, 6)]
        )
    more = np.full((2, 8), 9, np.int32)
    for x in (buf, again):  # and the next positions overwrite the same oldest ones
        x.add(more, np.ones((2, 3)) / 3, np.zeros((2, 2)))
    np.testing.assert_array_equal(buf.states, again.states)
    assert list(buf.arrays()["replay_states"][:, 0]) == [4, 5, 6, 9, 9]


def test_the_value_target_mixes_the_searchs_value_where_a_search_chose() -> None:
    """A position the search chose keeps its root value beside the game's result (both
    rotated to the player to move); the target mixes them by ``search_value_weight``; a
    position of the expert's (no search, NaN) keeps the result."""
    buf = ReplayBuffer(8, 8, 3, 2)
    states = np.zeros((3, 8), np.int32)
    states[:, 2] = [0, 1, 0]
    rets = np.tile(np.array([[1.0, -1.0]]), (3, 1))
    searched = np.array([[0.2, -0.2], [0.4, -0.4], [np.nan, np.nan]])
    buf.add(states, np.ones((3, 3)) / 3, rets, searched)
    idx = np.arange(3)
    np.testing.assert_allclose(value_targets(buf, idx, 0.0), [[1, -1], [-1, 1], [1, -1]])
    np.testing.assert_allclose(
        value_targets(buf, idx, 0.5), [[0.6, -0.6], [-0.7, 0.7], [1, -1]], rtol=1e-6
    )
    saved = buf.arrays()
    old = {k: v for k, v in saved.items() if k != "replay_search_values"}
    again = ReplayBuffer(8, 8, 3, 2)
    again.restore(old)  # a checkpoint from before the search's values were kept
    np.testing.assert_allclose(value_targets(again, idx, 0.5), [[1, -1], [-1, 1], [1, -1]])
    with pytest.raises(boardsim.OptionError, match="search_value_weight"):
        AlphaZeroConfig(game="liberation", run_dir="x", search_value_weight=1.5).validate()


def test_a_hinted_run_starts_from_the_heuristic_and_saves_a_hinted_network(tmp_path) -> None:
    result = train_alphazero(
        _config(tmp_path / "h", 1, hint=True, search_value_weight=0.5, tensorboard=False),
        log=lambda *a: None,
    )
    net = best_network(result.checkpoint)
    game = boardsim.make_game("liberation", num_players=2)
    assert net.hint and net.input_size == game.observation_size + game.num_actions
    assert read_metadata(result.checkpoint)["config"]["hint"] is True
    agent = load(f"alphazero:{result.checkpoint}", game)
    assert agent.needs_state


def test_rotated_score_is_one_half_between_equals() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    from boardsim.core.seats import Seat

    score = rotated_score(game, Seat.named("random"), Seat.named("random"), 40, 3, 1)
    assert 0.25 < score < 0.75
    assert rotated_score(game, Seat.named("heuristic"), Seat.named("random"), 20, 3, 1) > 0.9


def test_train_alphazero_shows_progress_resumes_and_exports(tmp_path, capsys) -> None:
    from boardsim.cli import main

    run, net = tmp_path / "az", tmp_path / "best.npz"
    tiny = [
        "--games-per-iteration", "2", "--simulations", "4", "--gumbel-m", "2",
        "--hidden", "8", "--value-hidden", "4", "--batch-size", "8", "--max-steps", "2",
        "--gate-games", "2", "--eval-games", "2", "--threads", "1", "--no-tensorboard",
        "-o", "num_players=2", "-o", "max_decisions=400",
    ]  # fmt: skip
    args = ["train", "liberation", "--algo", "alphazero", "--run-dir", str(run), *tiny]
    assert main([*args, "--iterations", "1", "--export", str(net)]) == 0
    captured = capsys.readouterr()
    assert "AlphaZero liberation" in captured.err  # the progress bar
    assert "trained 1 iterations" in captured.out and net.is_file()
    exported = Network.load(net).meta
    assert exported["source"] == "alphazero"
    record = exported["training"]  # what the network's card is written from
    assert record["command"].startswith("boardsim train liberation --algo alphazero")
    assert "--games-per-iteration 2" in record["command"] and len(record["curve"]) == 1
    assert "| 1 | 2 |" in curve_markdown(record)
    config = json.loads((run / "config.json").read_text())
    assert config["games_per_iteration"] == 2 and config["hidden"] == [8]
    assert main([*args, "--iterations", "2", "--resume", "--no-progress"]) == 0
    assert "resuming" in capsys.readouterr().out
    assert read_metadata(run)["iteration"] == 2
    # each checkpoint's record gives the command that makes it: as many iterations
    from boardsim.training.alphazero import training_record

    for it in (1, 2):
        words = training_record(run / "checkpoints" / f"iter_{it:06d}.zip")["command"].split()
        assert words[words.index("--iterations") + 1] == str(it)
    # a resume without --iterations trains to the run's own count: here it only exports,
    # the search's leaf value mixed with rollouts by --export-mix
    mixed = tmp_path / "mixed.npz"
    assert (
        main([*args, "--resume", "--no-progress", "--export", str(mixed), "--export-mix", "0.5"])
        == 0
    )
    assert read_metadata(run)["iteration"] == 2
    assert json.loads((run / "config.json").read_text())["iterations"] == 2
    meta = Network.load(mixed).meta
    assert meta["search"]["mix"] == 0.5 and meta["training"]["export"] == {"mix": 0.5}
    assert main([*args, "--resume", "--export-mix", "0.5"]) == 2  # without --export
    assert "--export-mix" in capsys.readouterr().err
    ppo = ["train", "liberation", "--run-dir", str(tmp_path / "p"), "--export-mix", "0.5"]
    assert main(ppo) == 2 and "an alphazero flag" in capsys.readouterr().err
    curve = curve_markdown(run).splitlines()
    assert len(curve) == 2 + 2 and curve[2].startswith("| 1 | 2 |") and "search" in curve[3]
    fresh = ["train", "liberation", "--algo", "alphazero", "--run-dir", str(tmp_path / "x")]
    code = main([*fresh, *tiny, "--iterations", "0"])
    assert code == 2 and "iterations" in capsys.readouterr().err


def test_the_recorded_command_trains_the_same_settings(tmp_path) -> None:
    """An exported network's card gives the command that made it: parsed again, that
    command asks for the very settings the run trained with."""
    import shlex

    from boardsim.cli import build_parser
    from boardsim.commands.train import ALPHAZERO_SETTINGS, given_settings
    from boardsim.core.options import option_words
    from boardsim.training.alphazero import train_command

    config = _config(
        tmp_path / "c",
        3,
        hint=True,
        search="puct",
        search_value_weight=0.75,
        sample_moves=8,
        noise=0.1,
        hidden=[32, 16],
        refine_iterations=2,
        refine_games=6,
        refine_simulations=400,
        refine_margin=0.1,
        refine_min_share=0.2,
        refine_learning_rate=3e-4,
        lr_drops="2:5e-4,3:2e-4",
        min_buffer=40,
    )
    words = shlex.split(train_command(config))
    assert words[:5] == ["boardsim", "train", "liberation", "--algo", "alphazero"]
    args = build_parser().parse_args([*words[1:], "--run-dir", str(tmp_path / "c")])
    values, _ = given_settings(args, ALPHAZERO_SETTINGS)
    again = AlphaZeroConfig(
        game=args.game,
        run_dir=str(tmp_path / "c"),
        options=option_words(args.option),
        threads=config.threads,
        torch_threads=config.torch_threads,
        progress=config.progress,
        **values,
    )
    assert again == config


def test_the_first_iteration_says_it_is_compiling(tmp_path, monkeypatch) -> None:
    """Issue 38: ``train --algo alphazero``'s first iteration was silent for tens of
    seconds while numba compiled; now it says so, once, when something compiles."""
    import numba

    from boardsim.training import alphazero

    def compiles_then_runs(*args, **kwargs):
        numba.njit(lambda x: x + 1)(1)  # a function never compiled: a first run's work
        return run(*args, **kwargs)

    run = alphazero.run_iteration
    monkeypatch.setattr(alphazero, "run_iteration", compiles_then_runs)
    said: list[str] = []
    train_alphazero(_config(tmp_path / "a", 1), log=lambda text: said.append(str(text)))
    notices = [s for s in said if "(first run only)" in s]
    assert notices == ["compiling the self-play search for liberation (first run only) ..."]

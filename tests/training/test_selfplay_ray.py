"""Self-play on Ray (issue 37): the workers play the local run's games, whole, with the
network published for them; a run on Ray equals the local one bit for bit and resumes
from either; a killed worker's games are played again and kept once (a local 2-CPU
Ray, started here)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import boardsim
from boardsim.core.seats import seat_table
from boardsim.training import selfplay
from boardsim.training.alphazero import AlphaZeroConfig, AlphaZeroTrainer, train_alphazero
from boardsim.training.checkpoint import read_resume_arrays

from .test_alphazero import _config as tiny_config
from .test_alphazero import _networks

pytestmark = pytest.mark.subprocess

ray = pytest.importorskip("ray")

QUIET = {"log": lambda *_: None}


def _config(run_dir: Path, iterations: int, **kw) -> AlphaZeroConfig:
    """test_alphazero's tiny run, with 8 games an iteration (several pieces a worker, and a
    buffer that wraps round) after a warm-up iteration."""
    return tiny_config(
        run_dir, iterations, **{"games_per_iteration": 8, "warmup_iterations": 1, **kw}
    )


def _curve(result) -> list[dict]:
    rows = [
        {k: v for k, v in r.items() if k not in ("seconds", "wall_seconds")} for r in result.curve
    ]
    for r in rows:
        r["selfplay"] = {k: v for k, v in r["selfplay"].items() if k != "seconds"}
    return rows


def _deal(network_seed: int, seed: int) -> selfplay.Deal:
    """The race's self-play with a search whose network's weights are drawn from
    ``network_seed``, every player recorded, 300 positions a game at most."""
    trainer = AlphaZeroTrainer(_config(Path("unused"), 1, seed=network_seed))
    g = trainer.game
    table = seat_table(g, [trainer.search(trainer.best, True)] * g.num_players)
    return selfplay.Deal(table, None, 1.0, np.ones(g.max_players, np.uint8), seed, 300)


def test_a_run_on_ray_equals_the_local_run_and_resumes_from_either(
    tmp_path: Path, local_ray
) -> None:
    """Three iterations here (a warm-up, then two of self-play with the search), against
    two on Ray resumed on Ray to three, and two here resumed on Ray: the same networks,
    buffer, generators and curve."""
    here = train_alphazero(_config(tmp_path / "here", 3), **QUIET)
    train_alphazero(_config(tmp_path / "ray", 2, backend="ray", workers=2), **QUIET)
    on_ray = train_alphazero(
        _config(tmp_path / "ray", 3, backend="ray", workers=2), resume=True, **QUIET
    )
    train_alphazero(_config(tmp_path / "mixed", 2), **QUIET)
    mixed = train_alphazero(_config(tmp_path / "mixed", 3, backend="ray"), resume=True, **QUIET)
    for other in (on_ray, mixed):
        assert other.iterations == 3 and other.positions == here.positions > 0
        for x, y in zip(_networks(here.checkpoint), _networks(other.checkpoint), strict=True):
            np.testing.assert_array_equal(x.weights, y.weights)
        a, b = read_resume_arrays(here.checkpoint), read_resume_arrays(other.checkpoint)
        for key in ("replay_states", "replay_policies", "replay_values", "rng_state"):
            np.testing.assert_array_equal(a[key], b[key])
        assert _curve(other) == _curve(here)
    assert local_ray.is_initialized()  # the test's Ray is left to the test


def test_each_piece_is_whole_games_of_the_network_published_for_it(local_ray) -> None:
    """Two iterations' games with two networks: each piece comes back tagged with the
    network it was sent, each game is in exactly one piece, and the games are the local
    ones."""
    g = boardsim.make_game("liberation", num_players=2, max_decisions=2000)
    workers = selfplay.RaySelfPlay("liberation", g.options, workers=2)
    try:
        for iteration, network_seed in enumerate((3, 4)):
            deal = _deal(network_seed, 7)
            args = (deal, 10 * iteration, 10)
            before = len(workers.pieces_played)
            on_ray = list(workers.play(*args))
            here = list(selfplay.local_selfplay(g, *args, 1))
            for key in here[0]:
                np.testing.assert_array_equal(
                    np.concatenate([o[key] for o in on_ray]), np.concatenate([o[key] for o in here])
                )
            mine = workers.pieces_played[before:]
            assert {network for _, _, network in mine} == {selfplay.table_digest(deal.table)}
            games = [first + k for first, n, _ in mine for k in range(n)]
            assert games == list(range(10 * iteration, 10 * iteration + 10))
            assert len(mine) >= 2 * 2  # pieces for both workers, several each
    finally:
        workers.close()
    assert local_ray.is_initialized()


def test_a_killed_worker_is_restarted_and_its_games_kept_once(local_ray) -> None:
    """A worker's process killed while the pieces are out: Ray restarts it and plays its
    piece again from its seeds; the games equal the local ones, each once."""
    g = boardsim.make_game("liberation", num_players=2, max_decisions=2000)
    args = (_deal(5, 11), 0, 8)
    workers = selfplay.RaySelfPlay("liberation", g.options, workers=2)
    try:
        victim = workers.pids()[0]
        played = workers.play(*args)
        first = next(played)  # the pieces are out; one came back
        os.kill(victim, signal.SIGKILL)
        on_ray = [first, *played]
        assert victim not in workers.pids()  # restarted
    finally:
        workers.close()
    here = list(selfplay.local_selfplay(g, *args, 1))
    for key in here[0]:
        np.testing.assert_array_equal(
            np.concatenate([o[key] for o in on_ray]), np.concatenate([o[key] for o in here])
        )


def test_the_train_command_runs_on_ray_and_says_what_goes_with_it(
    tmp_path: Path, local_ray
) -> None:
    address = local_ray.get_runtime_context().gcs_address
    base = [sys.executable, "-m", "boardsim", "train", "liberation", "--algo", "alphazero"]
    small = ["-o", "num_players=2", "--iterations", "1", "--games-per-iteration", "4"]
    small += ["--simulations", "4", "--gumbel-m", "4", "--hidden", "16", "--value-hidden", "8"]
    small += ["--gate-games", "2", "--eval-games", "2", "--panel", "random", "--panel-games"]
    small += ["2", "--no-progress", "--no-tensorboard", "--threads", "1"]

    def train(*words: str) -> subprocess.CompletedProcess:
        return subprocess.run([*base, *words], capture_output=True, text=True, timeout=900)

    done = train(*small, "--run-dir", str(tmp_path / "r"), "--backend", "ray", "--address", address)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "trained 1 iterations (4 games" in done.stdout
    saved = (tmp_path / "r" / "config.json").read_text()
    assert '"backend": "ray"' in saved
    for words, said in (
        (["--workers", "2"], "--workers and --address go with --backend ray"),
        (["--backend", "sb3"], "--backend sb3 is ppo's"),
    ):
        done = train(*small, "--run-dir", str(tmp_path / "x"), *words)
        assert done.returncode == 2 and said in done.stderr, done.stderr[-2000:]
        assert "Traceback" not in done.stderr
    ppo = subprocess.run(
        [sys.executable, "-m", "boardsim", "train", "liberation", "--backend", "ray"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ppo.returncode == 2 and "--backend rllib" in ppo.stderr


def test_where_a_run_plays_is_checked_up_front(local_ray) -> None:
    """A backend, workers or an address that cannot work are refused before anything
    runs: more workers than the cluster's CPUs would wait for ever."""
    for bad, said in (
        ({"backend": "cluster"}, "choose one of local, ray"),
        ({"workers": 2}, "go with --backend ray"),
        ({"backend": "ray", "workers": 0}, "positive integer"),
    ):
        with pytest.raises(boardsim.OptionError, match=said):
            _config(Path("x"), 1, **bad).validate()
    with pytest.raises(boardsim.OptionError, match="the Ray cluster has 2 CPUs"):
        selfplay.RaySelfPlay("liberation", {"num_players": 2}, workers=3)
    assert local_ray.is_initialized()

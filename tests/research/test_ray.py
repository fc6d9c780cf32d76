"""The Ray backend gives the local backend's table for the same seeds (a local 2-CPU Ray)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from boardsim.research import sweep

pytestmark = pytest.mark.subprocess

ray = pytest.importorskip("ray")


def test_ray_sweep_equals_the_local_sweep(tmp_path: Path, local_ray) -> None:
    grid = sweep.parse_grid("liberation", ["num_players=2,3", "seat=all"])
    args = ("liberation", grid, ["heuristic", "random"], 10)
    local = sweep.run_sweep(*args, tmp_path / "local", seed=11)
    on_ray = sweep.run_sweep(*args, tmp_path / "ray", seed=11, backend="ray", chunk=4)
    assert (local.played, on_ray.played) == (5, 5)
    assert (tmp_path / "ray" / "results.csv").read_text() == (
        tmp_path / "local" / "results.csv"
    ).read_text()
    assert local_ray.is_initialized()  # the test's Ray is left to the test


def test_ray_sweep_resumes_like_the_local_one(tmp_path: Path, local_ray) -> None:
    grid = sweep.parse_grid("liberation", ["num_players=2"])
    sweep.run_sweep("liberation", grid, ["random"], 5, tmp_path / "s", backend="ray")
    grid = sweep.parse_grid("liberation", ["num_players=2,4"])
    again = sweep.run_sweep("liberation", grid, ["random"], 5, tmp_path / "s", backend="ray")
    assert (again.played, again.skipped) == (1, 1)
    assert len(sweep.load_results(tmp_path / "s")) == 10


def test_balance_command_runs_on_an_existing_cluster(tmp_path: Path, local_ray) -> None:
    """``--backend ray --address`` from another process: the cells run on the test's Ray."""
    address = local_ray.get_runtime_context().gcs_address
    args = [
        "balance",
        "liberation",
        "--grid",
        "num_players=2,3",
        "--agents",
        "random",
        "--games-per-cell",
        "4",
        "--no-progress",
        "--seed",
        "5",
    ]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "boardsim",
            *args,
            "--out",
            str(tmp_path / "ray"),
            "--backend",
            "ray",
            "--address",
            address,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "2 cells: 2 played (8 games" in done.stdout
    local = sweep.run_sweep(
        "liberation",
        sweep.parse_grid("liberation", ["num_players=2,3"]),
        ["random"],
        4,
        tmp_path / "local",
        seed=5,
    )
    assert local.played == 2
    assert (tmp_path / "ray" / "results.csv").read_text() == (
        tmp_path / "local" / "results.csv"
    ).read_text()


def test_ray_sweep_with_metrics_equals_the_local_one(tmp_path: Path, local_ray) -> None:
    grid = sweep.parse_grid("farrapos", ["side=republic,empire"])
    args = ("farrapos", grid, ["heuristic", "random"], 4)
    sweep.run_sweep(*args, tmp_path / "local", seed=2, metrics=True)
    sweep.run_sweep(*args, tmp_path / "ray", seed=2, metrics=True, backend="ray")
    assert (tmp_path / "ray" / "results.csv").read_text() == (
        tmp_path / "local" / "results.csv"
    ).read_text()


def test_a_search_on_ray_finds_the_local_searchs_trials(tmp_path: Path, local_ray) -> None:
    from boardsim.research import tune

    targets = [tune.parse_target("farrapos", "republic=0.5@heuristic")]
    keys = [tune.parse_search("farrapos", "victory_vp=12:40")]
    args = ("farrapos", targets, keys, 3, 4)
    tune.run_tune(*args, tmp_path / "local", seed=4, confirm=False)
    tune.run_tune(*args, tmp_path / "ray", seed=4, confirm=False, backend="ray")
    assert (tmp_path / "ray" / "trials.csv").read_text() == (
        tmp_path / "local" / "trials.csv"
    ).read_text()


def test_a_balance_page_on_ray_is_the_local_page(tmp_path: Path, local_ray) -> None:
    """``balance docs --backend ray``: a question's sweep and the page's tuning played as
    Ray tasks give the local page, figure for figure."""
    from boardsim.research.pages import PageRun, write_page

    only = ("The advanced rules", "Tuning the sides even")
    pages = {}
    for where in ("local", "ray"):
        run = PageRun(2, backend=where)
        page = write_page(
            "farrapos", run, out_dir=tmp_path / where, work=tmp_path / f"{where}-work", only=only
        )
        pages[where] = [line for line in page.read_text().splitlines() if line.startswith("|")]
    assert pages["ray"] == pages["local"] and len(pages["local"]) > 10


def _eval_csv(request, **where) -> str:
    from boardsim.research.evaluation import run_eval

    return run_eval(request, **where).to_csv()


def test_a_tournament_on_ray_equals_the_local_one(local_ray) -> None:
    """Every pair's games (searches included) as Ray tasks in pieces: the same win rates,
    draws and Elo as the local walk, a cooperative game's levels too; the command is the
    same, since where the games are played is not a setting."""
    from boardsim.research import ray_backend
    from boardsim.research.evaluation import EvalRequest, run_eval

    # greedy decides in Python: its pairs are played on the driver, the others on Ray
    duel = EvalRequest("liberation", ("random", "heuristic", "mcts:4", "greedy"), games=7, seed=3)
    side = EvalRequest(
        "hispania", ("random", "heuristic"), games=5, seed=1, levels="6-4-3-4-2,7-5-4-5-1"
    )
    # (request, games on Ray, pieces): the race's 4 players, so 3 compiled pairs x 7 games
    # both ways, a seat's share of 1-2 games; Hispania's 2 agents x 2 levels x 5 games
    for request, games, count in ((duel, 42, 24), (side, 20, 12)):
        local = run_eval(request)
        before = ray_backend.PIECE
        ray_backend.PIECE = 2  # several pieces a share
        told: list[str] = []
        try:
            on_ray = run_eval(request, told.append, backend="ray")
        finally:
            ray_backend.PIECE = before
        pieces = [line for line in told if line.startswith("on Ray")]
        assert len(pieces) == count and pieces[-1] == f"on Ray: {games}/{games} games"
        assert on_ray.to_csv() == local.to_csv()
        assert on_ray.command == local.command == request.command()
        assert [r["settings"] for r in on_ray.pair_records] == [
            r["settings"] for r in local.pair_records
        ]
    assert local_ray.is_initialized()  # the test's Ray is left to the test


def test_a_tournament_on_ray_survives_a_killed_worker(local_ray) -> None:
    """A worker killed in the middle of its games: Ray runs its task again, the games are
    played again from their seeds and counted once, so the result is the local one."""
    import os
    import signal
    import threading
    import time

    import psutil

    from boardsim.research import ray_backend
    from boardsim.research.evaluation import EvalRequest

    request = EvalRequest("farrapos", ("heuristic", "mcts:8"), games=6, seed=9)
    killed: list[int] = []
    told: list[str] = []

    def kill_one_worker() -> None:
        stop = time.monotonic() + 300
        while not killed and time.monotonic() < stop:
            for proc in psutil.process_iter(["pid", "cmdline"]):
                if "play_piece_task" in " ".join(proc.info["cmdline"] or []):
                    os.kill(proc.info["pid"], signal.SIGKILL)
                    killed.append(proc.info["pid"])
                    return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one_worker, daemon=True)
    killer.start()
    before = ray_backend.PIECE
    ray_backend.PIECE = 1
    try:
        on_ray = _eval_csv(request, progress=told.append, backend="ray")
    finally:
        ray_backend.PIECE = before
        killer.join(timeout=1)
    assert killed, "no worker was seen playing"
    pieces = [line for line in told if line.startswith("on Ray")]
    # one piece a game, each kept once, the killed one included (Ray ran it again)
    assert pieces == [f"on Ray: {k}/6 games" for k in range(1, 7)]
    assert on_ray == _eval_csv(request)


def test_eval_takes_the_ray_backend_from_the_command_line(tmp_path: Path, local_ray) -> None:
    address = local_ray.get_runtime_context().gcs_address
    words = ["eval", "liberation", "--agents", "random,heuristic", "--games", "4", "--seed", "2"]
    runs = {}
    for name, where in (("ray", ["--backend", "ray", "--address", address]), ("local", [])):
        done = subprocess.run(
            [sys.executable, "-m", "boardsim", *words, "--out", str(tmp_path / name), *where],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        runs[name] = (tmp_path / f"{name}.csv").read_text()
    assert runs["ray"] == runs["local"]

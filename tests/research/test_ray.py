"""The Ray backend gives the local backend's table for the same seeds (a local 2-CPU Ray)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from boardsim.research import sweep

pytestmark = pytest.mark.subprocess

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


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

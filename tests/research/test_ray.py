"""The Ray backend gives the local backend's table for the same seeds (a local 2-CPU Ray)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardsim.research import sweep

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

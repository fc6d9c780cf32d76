"""A game from outside boardsim plugs in: connect four (``benchmarks/connect_four``),
installed by pip into a folder of its own, is found through the ``boardsim.games`` entry
point and passes the shared conformance checks, plays in sweeps and in ``boardsim play``,
without a line of boardsim naming it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "benchmarks" / "connect_four"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a Python that has the plugin installed (and boardsim)."""
    target = tmp_path_factory.mktemp("site")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    subprocess.run(
        [*pip, "--target", str(target), str(PLUGIN)],
        check=True,
        capture_output=True,
    )
    path = os.pathsep.join([str(target), os.environ.get("PYTHONPATH", "")])
    return dict(os.environ, PYTHONPATH=path, NUMBA_NUM_THREADS="2")


def run(env: dict[str, str], *args: str, stdin: str = "", cwd: Path | None = None) -> str:
    done = subprocess.run(
        [sys.executable, *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def test_the_plugin_passes_the_conformance_checks_from_outside(
    installed: dict[str, str], tmp_path: Path
) -> None:
    out = run(
        installed,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--rootdir",
        str(tmp_path),
        str(PLUGIN / "tests"),
        cwd=tmp_path,
    )
    assert "3 passed" in out
    where = run(installed, "-c", "import boardsim_connect_four as m; print(m.__file__)")
    assert not Path(where.strip()).is_relative_to(ROOT)  # the installed copy, not the source


def test_the_plugin_plays_in_sweeps_and_in_the_terminal(
    installed: dict[str, str], tmp_path: Path
) -> None:
    listed = run(installed, "-c", "import boardsim; print(boardsim.list_games())")
    assert "connect_four" in listed
    sweep = tmp_path / "sweep"
    run(
        installed,
        "-m",
        "boardsim",
        "balance",
        "connect_four",
        "--grid",
        "seat=all",
        "--agents",
        "heuristic,random",
        "--games-per-cell",
        "50",
        "--out",
        str(sweep),
        "--no-progress",
        "--report",
    )
    assert (sweep / "results.csv").exists() and (sweep / "report.md").exists()
    played = run(
        installed,
        "-m",
        "boardsim",
        "play",
        "connect_four",
        "--seed",
        "1",
        "--replay-dir",
        str(tmp_path),
        stdin="4\nboard\nquit\n",
    )
    assert "drop a piece into column 4" in played

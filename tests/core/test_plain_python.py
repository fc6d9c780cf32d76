"""With numba switched off (``NUMBA_DISABLE_JIT=1``) the engine is plain Python a reader
and a tool can follow: tracebacks name the engine's and the game's own files and lines,
and coverage counts the lines of both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

PLAIN = dict(os.environ, NUMBA_DISABLE_JIT="1")

FAILING_STEP = """
import numpy as np, boardsim
game = boardsim.make_game("liberation", num_players=2)
state = game.new_initial_state(3)
game.engine.step(state.array, game.params, 10**6, np.zeros(game.max_players, np.float32))
"""


def test_a_traceback_through_the_engine_names_its_files_and_lines() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FAILING_STEP], env=PLAIN, capture_output=True, text=True
    )
    assert done.returncode != 0
    trace = done.stderr
    for frame in ("in step_into", "in advance_decision", "in apply_action"):
        assert frame in trace, trace[-2000:]
    assert f"boardsim{os.sep}core{os.sep}engine.py" in trace
    assert f"boardsim{os.sep}games{os.sep}liberation{os.sep}rules.py" in trace
    engine_line = next(line for line in trace.splitlines() if "core/engine.py" in line)
    number = int(engine_line.split("line ")[1].split(",")[0])
    source = Path(engine_line.split('"')[1]).read_text().splitlines()
    assert "def " in "\n".join(source[: number + 1])  # a real line of that file


PLAY = """
import boardsim
from boardsim.core.batch import play_games
play_games(boardsim.make_game("liberation", num_players=2), 2, "heuristic", seed=1)
"""


def test_coverage_counts_the_engines_and_the_games_rule_lines(tmp_path: Path) -> None:
    data = tmp_path / ".coverage"
    program = tmp_path / "play.py"
    program.write_text(PLAY)
    env = dict(PLAIN, COVERAGE_FILE=str(data))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "coverage",
            "run",
            "--source=boardsim",
            str(program),
        ],
        env=env,
        check=True,
        capture_output=True,
    )
    report = tmp_path / "coverage.json"
    subprocess.run(
        [sys.executable, "-m", "coverage", "json", "-o", str(report)],
        env=env,
        check=True,
        capture_output=True,
    )
    files = json.loads(report.read_text())["files"]

    def covered(suffix: str) -> int:
        return sum(f["summary"]["covered_lines"] for k, f in files.items() if k.endswith(suffix))

    assert covered("core/engine.py") > 40
    assert covered("games/liberation/rules.py") > 150
    assert covered("games/liberation/policy.py") > 50

"""The build step (``boardsim compile``, :mod:`boardsim.build`): every game's entry points
compiled once into numba's cache, after which a process only loads them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import boardsim
from boardsim.build import PARTS, compile_game, compile_games
from boardsim.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.subprocess
def test_a_second_build_finds_every_entry_point_in_the_cache() -> None:
    """After one build of the race (its rules, envs, loops and searches), a new process
    building it again compiles nothing: every entry point it calls was cached, none is
    compiled anew at each start."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, "-m", "boardsim", "compile", "liberation"]
    subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    again = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    assert "liberation" in again and "all from the cache" in again, again
    assert "1 game(s)" in again


def test_a_part_reports_its_time_and_what_it_compiled() -> None:
    report = compile_game("farrapos", ["rules"])
    assert [p.part for p in report.parts] == ["rules"]
    part = report.parts[0]
    assert part.game == "farrapos" and part.seconds >= 0 and part.compiled >= 0
    assert report.seconds == part.seconds and not report.error


def test_parts_run_rules_first_whatever_the_order_asked() -> None:
    report = compile_game("farrapos", ["envs", "rules"])
    assert [p.part for p in report.parts] == ["rules", "envs"]
    assert PARTS[0] == "rules"


def test_bad_games_parts_and_workers_are_refused_by_name(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        compile_game("chess")
    with pytest.raises(ValueError, match=r"unknown parts \['tests'\]"):
        compile_game("farrapos", ["tests"])
    with pytest.raises(ValueError, match="unknown games"):
        compile_games(["chess"])
    with pytest.raises(ValueError, match="workers must be at least 1"):
        compile_games(["farrapos"], workers=0)
    assert main(["compile", "chess"]) == 2
    err = capsys.readouterr().err
    assert "unknown game chess" in err and ", ".join(boardsim.list_games()) in err
    assert main(["compile", "--workers", "0"]) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err


def test_the_command_prints_a_line_a_game(capsys: pytest.CaptureFixture) -> None:
    assert main(["compile", "farrapos", "--part", "rules", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("farrapos") and "rules" in out and "1 game(s) in" in out


KILLED_PARENT = """
import time
from boardsim.build import compile_pool

pool = compile_pool(1)
pool.submit(time.sleep, 600)  # a worker busy for minutes, as one compiling a game is
while not pool._processes:
    time.sleep(0.05)
print(*pool._processes, flush=True)
time.sleep(600)
"""


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs: gone, or ended and not yet reaped (a zombie, where
    no init process reaps orphans, as in some containers), it does not."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True  # no /proc (not Linux): os.kill said it exists


@pytest.mark.subprocess
def test_a_compile_worker_ends_when_its_parent_is_killed() -> None:
    """``boardsim compile`` or the demo killed by a signal (no clean-up runs) leaves no
    orphan: its workers, busy compiling, end on their own within seconds."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    parent = subprocess.Popen(
        [sys.executable, "-c", KILLED_PARENT], env=env, stdout=subprocess.PIPE, text=True
    )
    worker = int(parent.stdout.readline())  # type: ignore[union-attr]
    assert _running(worker)  # alive while its parent is
    parent.kill()
    parent.wait()
    for _ in range(100):
        if not _running(worker):
            return
        time.sleep(0.1)
    os.kill(worker, 9)
    pytest.fail(f"worker {worker} outlived its killed parent by 10 s")

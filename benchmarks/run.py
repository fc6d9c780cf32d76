"""The benchmark suite: every game's throughput, the engine's calibration, cost and peers.

    .venv/bin/python benchmarks/run.py [--seconds 2] [--game liberation] [--no-peers]

Prints a table per game (``boardsim bench``), then:
- the calibration connect four on the engine against a plain numba connect four
  (the ceiling) on identical work;
- JIT compile time, cold (empty numba cache) and warm (cache on disk), of import
  plus the first rollout, per game, each in a fresh process;
- bytes of state per env and the peak memory of a 4096-env rollout;
- OpenSpiel, pgx (jax CPU) and PettingZoo classic on random connect four and
  backgammon, when the optional ``bench`` extra is installed.
Writes everything to ``benchmarks/results/latest.json`` (temporary file, then
rename). Targets: ``benchmarks/README.md``. Never run inside the unit tests.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from boardsim.bench import print_table, run, write_json_atomic  # noqa: E402
from boardsim.core.batch import threads_used  # noqa: E402

FIRST_STEP = """
import time, sys
t = time.perf_counter()
import boardsim
r = boardsim.rollout({game!r}, 2, 10)
print(time.perf_counter() - t)
"""

PEAK_MEMORY = """
import resource, sys, tracemalloc
import boardsim
boardsim.rollout({game!r}, 2, 10)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
boardsim.rollout({game!r}, 4096, 200)
traced = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(before / 1024, after / 1024, traced / 2**20)
"""


def _python(code: str, env: dict[str, str] | None = None) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    return out.stdout.strip()


def compile_times(game: str) -> dict[str, float]:
    """Import + first rollout with an empty numba cache, then again with it warm."""
    with tempfile.TemporaryDirectory() as cache:
        # Python's bytecode cache on, as a user has it (the warm start is about caches)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["NUMBA_CACHE_DIR"] = cache
        cold = float(_python(FIRST_STEP.format(game=game), env))
        warm = float(_python(FIRST_STEP.format(game=game), env))
    return {"cold_seconds": cold, "warm_seconds": warm}


def memory(game: str) -> dict[str, float]:
    import boardsim

    before, after, traced = (float(x) for x in _python(PEAK_MEMORY.format(game=game)).split())
    size = boardsim.make_game(game).state_size * 4
    return {
        "state_bytes_per_env": size,
        "states_4096_mib": size * 4096 / 2**20,
        "process_peak_mib_before": before,
        "process_peak_mib_after_4096_envs": after,
        # the peak of what the 4096-env rollout allocated (numpy arrays, traced), and how
        # much it raised the whole process's peak (0: import and compile peaked higher)
        "peak_mib_4096_envs": traced,
        "peak_increase_mib_4096_envs": after - before,
    }


def calibration(seconds: float) -> dict[str, float]:
    """Random connect four, 4096 envs: on the engine, and the plain numba ceiling."""
    from benchmarks.calibration import connect_four
    from benchmarks.calibration import plain_connect_four as plain

    c4 = connect_four()

    out: dict[str, float] = {}
    for threads in (1, 2):
        with threads_used(min(threads, os.cpu_count() or 1)):
            st = np.zeros((4096, c4.state_size), np.int32)
            d = np.zeros(4096, np.int64)
            g = np.zeros(4096, np.int64)
            c4.engine.rollout_random(st[:2], c4.params, 10, 0, d[:2], g[:2])
            done, t0 = 0, time.perf_counter()
            while time.perf_counter() - t0 < seconds:
                c4.engine.rollout_random(st, c4.params, 500, done, d, g)
                done += int(d.sum())
            out[f"engine_t{threads}"] = done / (time.perf_counter() - t0)
            ps = plain.new_states(4096)
            gg = np.zeros(4096, np.int64)
            plain.plain_rollout(ps[:2], 10, 0, gg[:2])
            done, t0 = 0, time.perf_counter()
            while time.perf_counter() - t0 < seconds:
                plain.plain_rollout(ps, 500, done, gg)
                done += 4096 * 500
            out[f"plain_t{threads}"] = done / (time.perf_counter() - t0)
    out["plain_over_engine_t2"] = out["plain_t2"] / out["engine_t2"]
    return out


def peers(seconds: float) -> dict[str, Any]:
    """Peer libraries on random play, where installed (the ``bench`` extra)."""
    from benchmarks import peers as peer_module

    return peer_module.run_all(seconds)


# issue 5's targets: (what, where in the results, at least or at most, the bound)
ROLLOUT_TARGETS = {"liberation": 5e6, "hispania": 2e6, "farrapos": 2e6}
TARGETS: list[tuple[str, tuple[str, ...], str, float]] = [
    ("calibration: plain / engine", ("calibration_connect_four", "plain_over_engine_t2"), "<=", 2),
    ("calibration: engine / pgx-CPU", ("ratios", "engine_connect_four_over_pgx"), ">=", 5),
]
for _game, _rate in ROLLOUT_TARGETS.items():
    _g = ("games", _game)
    TARGETS += [
        (f"{_game}: rollout, 4096 envs, 2 threads", (*_g, "rollout_n4096_t2"), ">=", _rate),
        (f"{_game}: 2 threads / 1 thread", (*_g, "ratios", "threads_2_vs_1"), ">=", 1.8),
        (f"{_game}: PettingZoo AEC loop", (*_g, "pettingzoo_aec"), ">=", 5e4),
        (f"{_game}: Gymnasium loop", (*_g, "gymnasium"), ">=", 1e5),
        (f"{_game}: core / reference", (*_g, "ratios", "rollout_4096_vs_reference"), ">=", 100),
        (f"{_game}: warm import + first step (s)", ("compile", _game, "warm_seconds"), "<=", 2),
        (f"{_game}: state bytes per env", ("memory", _game, "state_bytes_per_env"), "<=", 2048),
        (
            f"{_game}: 4096-env rollout peak (MiB)",
            ("memory", _game, "peak_mib_4096_envs"),
            "<=",
            100,
        ),
    ]


def _lookup(result: dict[str, Any], path: tuple[str, ...]) -> float | None:
    node: Any = result
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    if isinstance(node, dict):
        node = node.get("decisions_per_second")
    return float(node) if isinstance(node, int | float) else None


def check_targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target with its measured value and whether it is met (None: not measured)."""
    rows = []
    for name, path, sense, bound in TARGETS:
        value = _lookup(result, path)
        met = None if value is None else (value >= bound if sense == ">=" else value <= bound)
        rows.append({"target": name, "value": value, "bound": f"{sense} {bound:g}", "met": met})
    return rows


def peer_ratios(result: dict[str, Any]) -> dict[str, float]:
    """The engine's connect four against pgx-CPU's (batch 4096), when pgx ran."""
    pgx = result.get("peers", {}).get("pgx connect_four batch 4096")
    engine = result.get("calibration_connect_four", {}).get("engine_t2")
    if isinstance(pgx, dict) and engine:
        return {"engine_connect_four_over_pgx": engine / pgx["steps_per_second"]}
    return {}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--game", dest="games", action="append")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "latest.json"))
    args = parser.parse_args()
    import boardsim

    games = args.games or boardsim.list_games()
    result = run(games, args.seconds)
    print_table(result)
    result["calibration_connect_four"] = calibration(args.seconds)
    print("\ncalibration connect four, 4096 envs (steps/s)")
    for key, val in result["calibration_connect_four"].items():
        print(f"  {key:<24} {val:>14,.1f}")
    result["compile"] = {g: compile_times(g) for g in games}
    result["memory"] = {g: memory(g) for g in games}
    print("\ncompile (import + first rollout, s) and memory")
    for g in games:
        c, m = result["compile"][g], result["memory"][g]
        print(
            f"  {g:<11} cold {c['cold_seconds']:6.1f}  warm {c['warm_seconds']:5.2f}  "
            f"state {m['state_bytes_per_env']:5d} B/env  "
            f"4096-env rollout peak {m['peak_mib_4096_envs']:.1f} MiB "
            f"(process {m['process_peak_mib_after_4096_envs']:.0f} MiB)"
        )
    if not args.no_peers:
        result["peers"] = peers(args.seconds)
        print("\npeers (random play)")
        for key, val in result["peers"].items():
            print(f"  {key:<40} {val}")
    result["ratios"] = peer_ratios(result)
    result["targets"] = check_targets(result)
    print("\ntargets (issue 5)")
    for row in result["targets"]:
        mark = {True: "met", False: "MISSED", None: "not measured"}[row["met"]]
        value = "-" if row["value"] is None else f"{row['value']:,.2f}"
        print(f"  {row['target']:<42} {value:>16} {row['bound']:>10}  {mark}")
    write_json_atomic(result, args.out)
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

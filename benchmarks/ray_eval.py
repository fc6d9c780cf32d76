"""A tournament with search seats on Ray: one worker against two (issue 37's ladder target).

    .venv/bin/python benchmarks/ray_eval.py [--game farrapos] [--agents heuristic,mcts:50]
        [--games 40] [--seed 123]

Plays the same ``boardsim eval`` request (``boardsim.research.evaluation.run_eval``) three
ways, each in a fresh local Ray so nothing is warm but numba's on-disk cache: on the
driver alone (``--backend local``, one thread), on a Ray of one worker and on a Ray of two
(``num_cpus``). Reports each run's wall seconds and games a second, the ratio of two workers
to one (the target: at least 1.8x on the 2-core machine) and that the three results are
the same table. Writes ``benchmarks/results/ray-eval.md`` (temporary file, then rename).
Timing lives here, never in the unit tests; run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import ray

from boardsim.files import atomic_write_text
from boardsim.research.evaluation import EvalRequest, run_eval

RESULTS = Path(__file__).resolve().parent / "results"


def timed(request: EvalRequest, workers: int | None) -> tuple[float, str]:
    """Wall seconds and the result's table: on the driver (None) or a Ray of ``workers``."""
    if workers is None:
        clock = time.perf_counter()
        result = run_eval(request)
        return time.perf_counter() - clock, result.to_csv()
    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        run_eval(EvalRequest(request.game, request.agents, games=2, seed=1), backend="ray")
        clock = time.perf_counter()  # the workers started and warm (their first game loaded)
        result = run_eval(request, backend="ray")
        return time.perf_counter() - clock, result.to_csv()
    finally:
        ray.shutdown()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="farrapos")
    p.add_argument("--agents", default="heuristic,mcts:50")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=123)
    args = p.parse_args(argv)
    request = EvalRequest(args.game, tuple(args.agents.split(",")), args.games, args.seed)
    pairs = len(request.agents) * (len(request.agents) - 1) // 2
    games = pairs * args.games
    rows, tables = [], []
    for label, workers in (("driver, 1 thread", None), ("Ray, 1 worker", 1), ("Ray, 2 workers", 2)):
        seconds, table = timed(request, workers)
        tables.append(table)
        rows.append((label, seconds, games / seconds))
        print(f"{label}: {seconds:.1f} s, {games / seconds:.2f} games/s", flush=True)
    ratio = rows[1][1] / rows[2][1]
    same = all(t == tables[0] for t in tables)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    lines = [
        "<!-- written by python benchmarks/ray_eval.py: do not edit, run it again -->",
        "",
        f"Written by `python benchmarks/ray_eval.py --game {args.game} --agents {args.agents} "
        f"--games {args.games} --seed {args.seed}` at commit {commit}, {os.cpu_count()} CPUs "
        f"({platform.processor() or platform.machine()}), load average "
        f"{os.getloadavg()[0]:.2f} when it ended. The request: `{request.command()}` "
        f"({games} games in {pairs} pair(s)).",
        "",
        "| where | seconds | games/s |",
        "|---|---|---|",
        *(f"| {label} | {s:.1f} | {g:.2f} |" for label, s, g in rows),
        "",
        f"Two Ray workers over one: **{ratio:.2f}x** (target: at least 1.8x). "
        f"The three results are {'the same table' if same else 'NOT the same table'}.",
        "",
    ]
    RESULTS.mkdir(exist_ok=True)
    atomic_write_text(RESULTS / "ray-eval.md", "\n".join(lines))
    print("\n".join(lines))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

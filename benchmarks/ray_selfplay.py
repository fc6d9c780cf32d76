"""Self-play training on Ray: one worker against two, the learner included (issue 37).

    .venv/bin/python benchmarks/ray_selfplay.py [--game liberation] [--games 32]
        [--simulations 16] [--iterations 3] [--seed 5]

Trains the same small AlphaZero run (``boardsim.training.alphazero.train_alphazero``)
three ways, each in a fresh process state so nothing is warm but numba's on-disk cache:
here on one thread (``--backend local``), on a local Ray of one worker and on a Ray of two
(``--backend ray --workers N``, a Ray of N CPUs). The first iteration starts the workers
and is not timed; the rest are, whole: self-play, the learner's training, the gate and the
evaluation. Reports the self-play games a second of each, the ratio of two workers to one
(the target: at least 1.7x on the 2-core machine), whether the three runs trained the same
networks bit for bit, the cost of one self-play game on one core, and from it the expected
time of the shipped networks' training runs (their records in ``agents/*/alphazero.npz``)
on Ray clusters of 16 and 64 cores. Writes ``benchmarks/results/ray-selfplay.md``
(temporary file, then rename). Timing lives here, never in the unit tests; run it on a
quiet machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np
import ray

from boardsim.core.network import Network
from boardsim.files import atomic_write_text
from boardsim.training.alphazero import AlphaZeroConfig, train_alphazero
from boardsim.training.checkpoint import read_entry

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
CLUSTERS = (16, 64)


def config(args: argparse.Namespace, run_dir: Path, **where: Any) -> AlphaZeroConfig:
    """The benchmark's run: the search's self-play dominates, as in a real run."""
    options = {"num_players": 2} if args.game == "liberation" else {}
    return AlphaZeroConfig(
        game=args.game,
        run_dir=str(run_dir),
        options=options,
        iterations=args.iterations,
        games_per_iteration=args.games,
        simulations=args.simulations,
        gumbel_m=min(16, args.simulations),
        hidden=[128, 128],
        max_steps=50,
        gate_games=8,
        eval_games=20,
        panel=["heuristic"],
        panel_games=4,
        panel_every=1000,  # not measured in these iterations
        seed=args.seed,
        threads=1,
        torch_threads=1,
        progress=False,
        tensorboard=False,
        **where,
    )


def timed_run(args: argparse.Namespace, workers: int | None) -> dict[str, Any]:
    """One run: here (None) or on a fresh Ray of ``workers`` CPUs."""
    with tempfile.TemporaryDirectory() as tmp:
        if workers is None:
            result = train_alphazero(config(args, Path(tmp)), log=lambda *_: None)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            try:
                run = config(args, Path(tmp), backend="ray", workers=workers)
                result = train_alphazero(run, log=lambda *_: None)
            finally:
                ray.shutdown()
        best = Network.from_bytes(read_entry(result.checkpoint, "best.npz"))
        rows = result.curve[1:]  # the first iteration starts the workers: not timed
        seconds = sum(r["seconds"] for r in rows)
        selfplay = sum(r["selfplay"]["seconds"] for r in rows)
        games = sum(r["selfplay"]["games"] for r in rows)
        return {
            "seconds": seconds,
            "selfplay_seconds": selfplay,
            "games": games,
            "games_per_second": games / seconds,
            "curve": [
                {k: v for k, v in r.items() if k not in ("seconds", "wall_seconds", "selfplay")}
                for r in result.curve
            ],
            "best": best.weights,
        }


def shipped_estimates(game_seconds: float, efficiency: float) -> list[str]:
    """The shipped networks' training runs, as recorded, and their expected hours on Ray
    clusters: each iteration's self-play shared by the workers (a core kept for the
    learner, each worker at the measured efficiency), the rest as recorded."""
    lines = [
        "| network | iterations | games | recorded hours (threads) | "
        + " | ".join(f"{c} cores (h)" for c in CLUSTERS)
        + " |",
        "|---|---|---|---|" + "---|" * len(CLUSTERS),
    ]
    for path in sorted((ROOT / "agents").glob("*/alphazero.npz")):
        training = Network.load(path).meta.get("training") or {}
        curve = training.get("curve") or []
        if not curve:
            continue
        threads = training["config"].get("threads") or os.cpu_count() or 1
        hours = []
        for cores in CLUSTERS:
            total = 0.0
            for row in curve:
                play = row["selfplay"]["seconds"]
                rest = row["seconds"] - play
                relabelled = "relabelled" in str(row["selfplay"].get("expert", ""))
                if relabelled:  # the refinement runs on the learner (training guide)
                    total += row["seconds"]
                else:
                    total += play * threads / ((cores - 1) * efficiency) + rest
            hours.append(total / 3600)
        recorded = training["wall_seconds"] / 3600
        lines.append(
            f"| {path.parent.name} | {training['iterations']} | {training['games']} | "
            f"{recorded:.2f} ({threads}) | " + " | ".join(f"{h:.2f}" for h in hours) + " |"
        )
    lines += [
        "",
        f"One self-play game of this benchmark costs {game_seconds:.2f} s on one core.",
    ]
    return lines


def same_runs(runs: list[dict[str, Any]]) -> bool:
    """Whether the runs trained the same networks and curves (times left out)."""
    first = runs[0]
    for other in runs[1:]:
        if other["curve"] != first["curve"]:
            return False
        if not np.array_equal(first["best"], other["best"]):
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="liberation")
    p.add_argument("--games", type=int, default=32, help="self-play games an iteration")
    p.add_argument("--simulations", type=int, default=16)
    p.add_argument("--iterations", type=int, default=3, help="the first is not timed")
    p.add_argument("--seed", type=int, default=5)
    args = p.parse_args(argv)
    if args.iterations < 2:
        p.error("--iterations must be at least 2 (the first is not timed)")
    runs, rows = [], []
    for label, workers in (("here, 1 thread", None), ("Ray, 1 worker", 1), ("Ray, 2 workers", 2)):
        run = timed_run(args, workers)
        runs.append(run)
        rows.append((label, run))
        print(
            f"{label}: {run['games']} games in {run['seconds']:.1f} s "
            f"(self-play {run['selfplay_seconds']:.1f} s), {run['games_per_second']:.2f} games/s",
            flush=True,
        )
    one, two = runs[1], runs[2]
    ratio = two["games_per_second"] / one["games_per_second"]
    same = same_runs(runs)
    verdict = "the same networks bit for bit" if same else "DIFFERENT networks"
    game_seconds = one["selfplay_seconds"] / one["games"]
    efficiency = min(1.0, (one["selfplay_seconds"] / two["selfplay_seconds"]) / 2)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    command = (
        f"python benchmarks/ray_selfplay.py --game {args.game} --games {args.games} "
        f"--simulations {args.simulations} --iterations {args.iterations} --seed {args.seed}"
    )
    lines = [
        "<!-- written by python benchmarks/ray_selfplay.py: do not edit, run it again -->",
        "",
        f"Written by `{command}` at commit {commit}, {os.cpu_count()} CPUs "
        f"({platform.processor() or platform.machine()}), load average "
        f"{os.getloadavg()[0]:.2f} when it ended. The run: {args.game}, Gumbel self-play at "
        f"{args.simulations} simulations, {args.games} games an iteration, "
        f"{args.iterations} iterations (the first, which starts the workers, not timed); each "
        "timed iteration whole: self-play, the learner's training, the gate and the evaluation.",
        "",
        "| where | games | seconds | of which self-play | games/s |",
        "|---|---|---|---|---|",
        *(
            f"| {label} | {r['games']} | {r['seconds']:.1f} | {r['selfplay_seconds']:.1f} | "
            f"{r['games_per_second']:.2f} |"
            for label, r in rows
        ),
        "",
        f"Two Ray workers over one, the learner included: **{ratio:.2f}x** (target: at least "
        f"1.7x); the self-play alone {one['selfplay_seconds'] / two['selfplay_seconds']:.2f}x. "
        f"The three runs trained {verdict}.",
        "",
        "## The shipped networks' training on a cluster (expected)",
        "",
        "Each recorded iteration's self-play shared by a cluster's cores less one (the "
        f"learner's), at the two-worker efficiency measured above ({efficiency:.2f}); the rest "
        "of the iteration (training, gate, evaluation) and the refinement's iterations, which "
        "relabel on the learner, as recorded. An extrapolation from two cores, not a "
        "measurement on a cluster.",
        "",
        *shipped_estimates(game_seconds, efficiency),
        "",
    ]
    RESULTS.mkdir(exist_ok=True)
    atomic_write_text(RESULTS / "ray-selfplay.md", "\n".join(lines))
    print("\n".join(lines))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

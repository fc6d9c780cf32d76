"""A self-play ablation on connect four: named configurations, a fixed budget each, one table.

Each configuration is a ``boardsim train connect_four --algo alphazero`` command (its
flags below, :data:`CONFIGS`) run for the same wall-time budget (``--max-seconds``: the
run stops after the iteration that passes it) in its own run folder, one after the
other on one thread. The table gives, per configuration, its command, the iterations
and games it managed, and its fixed-panel curve (``boardsim.training.panel``): the
network alone's mistake rate against the perfect solver (on the panel's positions, a
seed no training game uses) and its score against the heuristic, first, last and best
iteration, each with its 95% interval.

    source scripts/env.sh; export NUMBA_NUM_THREADS=1
    python benchmarks/selfplay_ablation.py --budget 240 --out runs/ablation \\
        gumbel16-gate gumbel16 puct64 gumbel16-value

Needs the connect-four plugin (``pip install -e benchmarks/connect_four``). A run folder
that already holds a finished run of the configuration is read back, not trained again.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# the configurations: name -> the flags of boardsim train beside the game, the run folder
# and the budget
CONFIGS: dict[str, list[str]] = {
    "gumbel16-gate": ["--search", "gumbel", "--simulations", "16"],
    "gumbel16": ["--search", "gumbel", "--simulations", "16", "--gate", "none"],
    "puct16": ["--search", "puct", "--simulations", "16", "--gate", "none"],
    "puct64": ["--search", "puct", "--simulations", "64", "--gate", "none"],
    "gumbel16-value": [
        "--search", "gumbel", "--simulations", "16", "--gate", "none",
        "--search-value-weight", "0.5",
    ],
    "gumbel16-reuse": [
        "--search", "gumbel", "--simulations", "16", "--gate", "none",
        "--buffer-size", "20000", "--sample-reuse", "8",
    ],
    "gumbel16-cap": [
        "--search", "gumbel", "--simulations", "16", "--gate", "none",
        "--playout-cap", "64:16:0.25",
    ],
    "gumbel16-cscale1": [
        "--search", "gumbel", "--simulations", "16", "--gate", "none", "--c-scale", "1",
    ],
    # the structured network: two 3x3 convolutions of 32 channels over the board, the
    # heads from 1x1 convolutions (about 4x the MLP's time a decision)
    "puct64-conv": [
        "--search", "puct", "--simulations", "64", "--gate", "none",
        "--conv", "32,32", "--hidden", "none",
    ],
    # ... with twice the gradient steps a position (its games cost 6x the MLP's)
    "puct64-conv-reuse8": [
        "--search", "puct", "--simulations", "64", "--gate", "none",
        "--conv", "32,32", "--hidden", "none", "--sample-reuse", "8",
    ],
    # ... each position also learnt in its mirror image (connect four's one symmetry)
    "puct64-conv-reuse8-sym": [
        "--search", "puct", "--simulations", "64", "--gate", "none",
        "--conv", "32,32", "--hidden", "none", "--sample-reuse", "8", "--symmetries",
    ],
    # ... each game begun with 0-16 uniformly random moves (the positions the mistake
    # rate samples, 10-16 random plies, are far from self-play's own)
    "puct64-conv-reuse8-sym-open16": [
        "--search", "puct", "--simulations", "64", "--gate", "none",
        "--conv", "32,32", "--hidden", "none", "--sample-reuse", "8", "--symmetries",
        "--random-opening", "16",
    ],
    # ... with a third convolution (a 7x7 view of the board; He's initialisation)
    "puct64-conv3-reuse8-sym-open16": [
        "--search", "puct", "--simulations", "64", "--gate", "none",
        "--conv", "32,32,32", "--hidden", "none", "--sample-reuse", "8", "--symmetries",
        "--random-opening", "16",
    ],
    # ... with half the games from the empty board (the others begun by 0-16 random moves)
    "puct64-conv3-reuse8-sym-open16-half": [
        "--search", "puct", "--simulations", "64", "--gate", "none",
        "--conv", "32,32,32", "--hidden", "none", "--sample-reuse", "8", "--symmetries",
        "--random-opening", "16", "--random-opening-share", "0.5",
    ],
    # ... with moves sampled for the first 8 decisions only, the rest the most visited
    # (the results the value head learns from are those of the search's own best play)
    "puct64-conv3-reuse8-sym-open16-half-sample8": [
        "--search", "puct", "--simulations", "64", "--gate", "none",
        "--conv", "32,32,32", "--hidden", "none", "--sample-reuse", "8", "--symmetries",
        "--random-opening", "16", "--random-opening-share", "0.5", "--sample-moves", "8",
    ],
    # ... with three games in four from a random opening (the positions of the mistake
    # rate's kind), not one in two
    "puct64-conv3-reuse8-sym-open16-3q-sample8": [
        "--search", "puct", "--simulations", "64", "--gate", "none",
        "--conv", "32,32,32", "--hidden", "none", "--sample-reuse", "8", "--symmetries",
        "--random-opening", "16", "--random-opening-share", "0.75", "--sample-moves", "8",
    ],
    # ... with a wider, deeper trunk (four convolutions of 64, not three of 32): each
    # decision costs more, so fewer games in the same time
    "puct64-conv4x64-reuse8-sym-open16-half-sample8": [
        "--search", "puct", "--simulations", "64", "--gate", "none",
        "--conv", "64,64,64,64", "--hidden", "none", "--sample-reuse", "8", "--symmetries",
        "--random-opening", "16", "--random-opening-share", "0.5", "--sample-moves", "8",
    ],
    # ... the shipped recipe (three convolutions of 32) with half the search's root value
    # in the value target, half the game's result (the value head, the search's floor on
    # quiet positions, learns from less noisy targets)
    "puct64-conv3-reuse8-sym-open16-half-sample8-value": [
        "--search", "puct", "--simulations", "64", "--gate", "none",
        "--conv", "32,32,32", "--hidden", "none", "--sample-reuse", "8", "--symmetries",
        "--random-opening", "16", "--random-opening-share", "0.5", "--sample-moves", "8",
        "--search-value-weight", "0.5",
    ],
    # the MLP with fewer sampled moves and half the search's value in the target
    "puct64-sample8-value": [
        "--search", "puct", "--simulations", "64", "--gate", "none",
        "--sample-moves", "8", "--search-value-weight", "0.5",
    ],
}  # fmt: skip
GAME = "connect_four"


def command(name: str, run_dir: Path, budget: float, seed: int, extra: Sequence[str]) -> list[str]:
    """The ``boardsim train`` command of configuration ``name``."""
    return [
        sys.executable, "-m", "boardsim", "train", GAME, "--algo", "alphazero",
        *CONFIGS[name], *extra, "--seed", str(seed), "--iterations", "100000",
        "--max-seconds", f"{budget:g}", "--run-dir", str(run_dir), "--no-progress",
        "--threads", "1",
    ]  # fmt: skip


def figure(row: dict[str, Any], key: str) -> dict[str, float] | None:
    """The panel's figure ``key`` of a curve row (None where the panel was not measured)."""
    panel = row.get("panel") or {}
    return panel.get(key)


def interval(value: dict[str, float] | None) -> str:
    if value is None:
        return "-"
    return f"{value['mean']:.3f} [{value['low']:.3f}, {value['high']:.3f}]"


def summary(curve: list[dict[str, Any]], key: str, lower_is_better: bool) -> list[str]:
    """First, last and best iteration's figure ``key`` of the panel, in words."""
    measured = [(r["iteration"], figure(r, key)) for r in curve if figure(r, key) is not None]
    if not measured:
        return ["-", "-", "-"]
    pick = min if lower_is_better else max
    best_it, best = pick(measured, key=lambda x: x[1]["mean"])
    return [interval(measured[0][1]), interval(measured[-1][1]), f"{interval(best)} (it {best_it})"]


def run_config(name: str, out: Path, budget: float, seed: int, extra: Sequence[str]) -> dict:
    """Train configuration ``name`` (unless its folder holds its run) and read its curve."""
    from boardsim.training.alphazero import saved_config, train_command
    from boardsim.training.checkpoint import latest_checkpoint, read_metadata
    from boardsim.training.panel import PANEL_FILE

    run_dir = out / name
    words = command(name, run_dir, budget, seed, extra)
    start = time.perf_counter()
    shared = out / PANEL_FILE  # the panel's positions, solved by the first run, shared
    if latest_checkpoint(run_dir) is None:
        run_dir.mkdir(parents=True, exist_ok=True)
        if shared.exists():
            shutil.copyfile(shared, run_dir / PANEL_FILE)
        with open(out / f"{name}.log", "w") as log:
            subprocess.run(words, check=True, stdout=log, stderr=subprocess.STDOUT)
    if not shared.exists() and (run_dir / PANEL_FILE).exists():
        shutil.copyfile(run_dir / PANEL_FILE, shared)
    meta = read_metadata(run_dir)
    return {
        "name": name,
        # the command the run recorded (a run read back may have had another budget, or
        # been resumed with one)
        "command": train_command(saved_config(meta["config"])),
        "iterations": meta["iteration"],
        "games": meta["games"],
        "wall": meta["wall_seconds"],
        "curve": meta["curve"],
        "seconds": time.perf_counter() - start,
    }


def at_second(curve: list[dict[str, Any]], key: str, seconds: float) -> str:
    """The panel's figure ``key`` measured last by ``seconds`` of the run's wall time, and
    its iteration ("-" when none was, or the run stopped before it)."""
    measured = [
        (r["iteration"], figure(r, key))
        for r in curve
        if figure(r, key) is not None and r["wall_seconds"] <= seconds
    ]
    if not measured or curve[-1]["wall_seconds"] < seconds:
        return "-"
    iteration, value = measured[-1]
    return f"{interval(value)} (it {iteration})"


def table(results: list[dict[str, Any]], at: Sequence[float] = ()) -> str:
    """The ablation's Markdown table; with ``at``, the mistake rate and the score against
    the heuristic at those wall seconds of each run (runs of different budgets, compared
    at equal time)."""
    head = (
        "| config | iterations | games | wall (s) | mistakes first | mistakes last "
        "| mistakes best | vs heuristic first | vs heuristic last | vs heuristic best |"
    )
    for t in at:
        head += f" mistakes at {t:g} s | vs heuristic at {t:g} s |"
    lines = [head, "|" + "---|" * (10 + 2 * len(at))]
    for r in results:
        mistakes = summary(r["curve"], "mistake_rate", lower_is_better=True)
        heuristic = summary(r["curve"], "score/heuristic", lower_is_better=False)
        timed = [
            at_second(r["curve"], key, t) for t in at for key in ("mistake_rate", "score/heuristic")
        ]
        lines.append(
            f"| {r['name']} | {r['iterations']} | {r['games']:,} | {r['wall']:.0f} "
            f"| {' | '.join(mistakes)} | {' | '.join(heuristic)} |"
            + "".join(f" {cell} |" for cell in timed)
        )
    lines.append("")
    lines += [f"- `{r['name']}`: `{r['command']}`" for r in results]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("configs", nargs="*", default=list(CONFIGS), help=", ".join(CONFIGS))
    parser.add_argument("--budget", type=float, default=300.0, help="seconds a configuration")
    parser.add_argument("--out", default="runs/ablation", help="the run folders and the table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--extra", default="", help="flags added to every command, e.g. '--panel-games 40'"
    )
    parser.add_argument(
        "--at",
        default="",
        help="wall seconds at which to compare the runs too, e.g. 1000,2000 (each run's last "
        "panel by then)",
    )
    args = parser.parse_args(argv)
    unknown = [c for c in args.configs if c not in CONFIGS]
    if unknown:
        parser.error(f"unknown configurations {unknown}; known: {', '.join(CONFIGS)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    results = []
    for name in args.configs:
        results.append(run_config(name, out, args.budget, args.seed, args.extra.split()))
        print(f"{name}: {results[-1]['iterations']} iterations", flush=True)
    text = table(results, [float(t) for t in args.at.split(",") if t])
    (out / "ablation.md").write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

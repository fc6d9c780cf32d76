"""What an AlphaZero-family run writes as it goes (:mod:`boardsim.training.alphazero`):
each iteration's row made JSON-safe, its TensorBoard scalars, the line ``boardsim train``
prints, the curve as CSV, the progress bar, and the command that trains the run (its
record's ``command``)."""

from __future__ import annotations

import csv
import io
import math
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from boardsim.files import atomic_write_text
from boardsim.training.panel import panel_line


def finite_row(row: dict[str, Any]) -> dict[str, Any]:
    """The row with NaN as None (JSON)."""
    out: dict[str, Any] = {}
    for k, v in row.items():
        if isinstance(v, dict):
            out[k] = finite_row(v)
        elif isinstance(v, float) and not math.isfinite(v):
            out[k] = None
        else:
            out[k] = v
    return out


def after_earlier_event_files(folder: str | Path) -> None:
    """Wait (a second at most) until the clock has passed the second of every TensorBoard
    event file in ``folder``.

    TensorBoard reads a folder's event files in name order, and a name is the second it was
    made followed by a process-wide counter written without padding, so a file made in the
    same second as an earlier one can sort before it ("...4242.10" before "...4242.9"). A
    resumed run's file must come after the interrupted one's, or its purge hides nothing."""
    stamps = []
    for path in Path(folder).glob("events.out.tfevents.*"):
        second = path.name.split(".")[3]
        if second.isdigit():
            stamps.append(int(second))
    while stamps and time.time() < max(stamps) + 1:
        time.sleep(0.02)


def tensorboard_writer(trainer: Any) -> Any:
    """The run's TensorBoard writer (``RUN_DIR/tb``), from the trainer's iteration on."""
    from torch.utils.tensorboard import SummaryWriter  # deferred on purpose: torch, heavy

    after_earlier_event_files(trainer.run_dir / "tb")
    # purge_step: a resumed run rewrites what came after its checkpoint
    return SummaryWriter(str(trainer.run_dir / "tb"), purge_step=trainer.iteration + 1)


def log_row(writer: Any, row: dict[str, Any], panel_seconds: float = 0.0) -> None:
    """An iteration's row as TensorBoard scalars (nothing without a writer)."""
    if writer is None:
        return
    step = row["iteration"]
    flat = {
        "strength/network_vs_heuristic": row["candidate_vs_heuristic"],
        "strength/best_vs_heuristic": row["best_vs_heuristic"],
        "gate/score": row["gate_score"],
        "gate/accepted": float(row["accepted"]),
        "gate/best_iteration": row["best_iteration"],
        "loss/policy": row["losses"]["policy"],
        "loss/value": row["losses"]["value"],
        "loss/target_entropy": row["losses"]["entropy_target"],
        "loss/learning_rate": row["losses"].get("learning_rate"),
        "selfplay/games": row["games"],
        "selfplay/positions": row["positions"],
        "selfplay/decisions_mean": row["selfplay"]["decisions_mean"],
        "selfplay/first_side_wins": row["selfplay"]["first_side_wins"],
        "time/selfplay_seconds": row["selfplay"]["seconds"],
        "time/iteration_seconds": row["seconds"],
        "time/panel_seconds": panel_seconds if row.get("panel") else None,
        "time/wall_seconds": row["wall_seconds"],
    }
    for key, value in (row.get("panel") or {}).items():
        if isinstance(value, dict):
            flat[f"panel/{key}"] = value["mean"]
    for key, value in flat.items():
        if value is not None and math.isfinite(float(value)):
            writer.add_scalar(key, float(value), step)
    writer.flush()


def iteration_line(row: dict[str, Any], panel_seconds: float = 0.0) -> str:
    """What ``boardsim train`` prints after an iteration: the gate, the network alone
    against the heuristic and, when it was measured, the fixed panel (:mod:`.panel`) and
    its share of the iteration's time."""
    gate = row["gate_score"]
    verdict = "no gate" if gate is None or not math.isfinite(gate) else f"gate {gate:.3f}"
    if row["accepted"]:
        verdict += ", taken"
    words = (
        f"iteration {row['iteration']}: {verdict}; network alone vs heuristic "
        f"{row['candidate_vs_heuristic']:.3f}; {row['seconds']:.1f} s"
    )
    if row["losses"].get("steps") == 0:
        words += "; no training: the buffer holds fewer positions than --min-buffer"
    if row.get("panel"):
        words += f"; panel ({panel_seconds:.1f} s) {panel_line(row['panel'])}"
    return words


def curve_columns(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """A curve row flattened to CSV columns (``panel/score/heuristic/low``...)."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        if isinstance(value, Mapping):
            out |= curve_columns(value, f"{prefix}{key}/")
        else:
            out[f"{prefix}{key}"] = value
    return out


def write_curve_csv(path: Path, curve: list[dict[str, Any]]) -> None:
    """The run's curve as a CSV (one row an iteration, rewritten whole, so a resumed run's
    file is the curve it continues)."""
    rows = [curve_columns(r) for r in curve]
    columns: list[str] = []
    for r in rows:
        columns += [k for k in r if k not in columns]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    atomic_write_text(path, out.getvalue())


def progress_bar(trainer: Any) -> Any:
    """The run's progress bar, an iteration a step, from where the trainer is."""
    from tqdm.auto import tqdm  # deferred: only a run with a progress bar needs it

    c = trainer.config
    return tqdm(
        total=c.iterations,
        initial=trainer.iteration,
        unit="iter",
        dynamic_ncols=True,
        desc=f"AlphaZero {trainer.game.name}",
    )


def export_flags(record: Mapping[str, Any]) -> str:
    """The flags of ``boardsim train`` that exported a network with this training record,
    besides ``--export`` (``''`` when none)."""
    mix = record.get("export", {}).get("mix")
    return "" if mix is None else f" --export-mix {mix:g}"


# the command's flags of the settings a run records (what boardsim train --algo alphazero
# takes; how often and how it runs are left out: they do not change what is learned)
_FLAGS = {
    "games_per_iteration": "--games-per-iteration",
    "simulations": "--simulations",
    "search": "--search",
    "gumbel_m": "--gumbel-m",
    "c_scale": "--c-scale",
    "c_puct": "--c-puct",
    "sample_moves": "--sample-moves",
    "noise": "--noise",
    "mix": "--mix",
    "rollout": "--rollout",
    "rollout_depth": "--rollout-depth",
    "conv": "--conv",
    "hidden": "--hidden",
    "value_hidden": "--value-hidden",
    "hint": "--hint",
    "hint_weight": "--hint-weight",
    "init": "--init",
    "learning_rate": "--lr",
    "lr_drops": "--lr-drops",
    "weight_decay": "--weight-decay",
    "search_value_weight": "--search-value-weight",
    "batch_size": "--batch-size",
    "sample_reuse": "--sample-reuse",
    "max_steps": "--max-steps",
    "buffer_size": "--buffer-size",
    "min_buffer": "--min-buffer",
    "symmetries": "--symmetries",
    "playout_cap": "--playout-cap",
    "random_opening": "--random-opening",
    "random_opening_share": "--random-opening-share",
    "warmup_iterations": "--warmup-iterations",
    "warmup_expert": "--warmup-expert",
    "warmup_simulations": "--warmup-simulations",
    "refine_iterations": "--refine-iterations",
    "refine_games": "--refine-games",
    "refine_simulations": "--refine-simulations",
    "refine_margin": "--refine-margin",
    "refine_min_share": "--refine-min-share",
    "refine_learning_rate": "--refine-lr",
    "refine_baseline": "--refine-baseline",
    "refine_expert": "--refine-expert",
    "gate": "--gate",
    "gate_games": "--gate-games",
    "gate_threshold": "--gate-threshold",
    "gate_simulations": "--gate-simulations",
    "gate_openings": "--gate-openings",
    "panel": "--panel",
    "panel_games": "--panel-games",
    "panel_every": "--panel-every",
    "panel_positions": "--panel-positions",
    "panel_seed": "--panel-seed",
    "eval_games": "--eval-games",
    "seed": "--seed",
    "iterations": "--iterations",
    "max_seconds": "--max-seconds",
}


def train_command(config: Any) -> str:
    """The ``boardsim train`` command that trains ``config`` (an ``AlphaZeroConfig``: its
    settings that differ from the defaults; the run folder, threads and progress left to
    the user)."""
    default = type(config)(game=config.game, run_dir=config.run_dir)
    words = ["boardsim", "train", config.game, "--algo", "alphazero"]
    for key, value in sorted(config.options.items()):
        if key not in ("explicit_chance",) and value is not None:
            words += ["-o", f"{key}={value}"]
    for name, flag in _FLAGS.items():
        value = getattr(config, name)
        if value == getattr(default, name):
            continue
        if isinstance(value, bool):
            words.append(flag)
        elif isinstance(value, list):
            words += [flag, ",".join(str(v) for v in value) or "none"]
        else:
            words += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    return " ".join(words)

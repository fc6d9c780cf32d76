"""What an AlphaZero-family run writes as it goes (:mod:`boardsim.training.alphazero`):
each iteration's row made JSON-safe, its TensorBoard scalars, the line ``boardsim train``
prints, the curve as CSV, and the progress bar."""

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

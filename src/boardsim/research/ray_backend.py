"""Run a sweep's cells as Ray tasks, on an existing Ray cluster or a local one.

Each cell is one task (``num_cpus=1``) that plays its games on one thread with
:func:`boardsim.core.batch.play_games`; since game ``k`` of a run depends only on the
seed and ``k``, the rows equal the local backend's. The driver writes each cell's
rows as soon as its task finishes (so an interrupted cluster run keeps every finished
cell), and advances the progress bar per finished cell.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from boardsim.core.cluster import _require_ray, init_ray
from boardsim.research.cells import play_cell


def play_cell_task(
    game_name: str, cell: Any, games: int, seed: int, chunk: int, metrics: bool = False
) -> dict[str, np.ndarray]:
    """The body of a Ray task: one cell's games on one thread."""
    return play_cell(game_name, cell, games, seed, threads=1, chunk=chunk, metrics=metrics)


def run_cells_on_ray(
    game_name: str,
    cells: Sequence[Any],
    games: int,
    seed: int,
    finish: Callable[[Any, Mapping[str, np.ndarray]], None],
    advance: Callable[[int], None],
    address: str | None = None,
    chunk: int = 2048,
    metrics: bool = False,
) -> None:
    """Play ``cells`` as Ray tasks; ``finish(cell, played)`` as each completes.

    Connects to ``address`` (``"auto"``, ``"ray://host:10001"``, ``"host:6379"``) or,
    when Ray is not running yet and no address is given, starts a local Ray that is
    shut down at the end (:func:`init_ray`). An already initialised Ray (a test's, a
    notebook's) is used as it is and left running.
    """
    ray = _require_ray()
    started_here = init_ray(address)
    try:
        task = ray.remote(num_cpus=1)(play_cell_task)
        pending = {task.remote(game_name, c, games, seed, chunk, metrics): c for c in cells}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                cell = pending.pop(ref)
                finish(cell, ray.get(ref))
                advance(games)
    finally:
        if started_here:
            ray.shutdown()

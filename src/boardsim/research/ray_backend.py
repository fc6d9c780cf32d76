"""Run a sweep's cells as Ray tasks, on an existing Ray cluster or a local one.

Each round of a cell (the whole cell, or one round of a sweep to a precision) is one task
(``num_cpus=1``) that plays its games on one thread with
:func:`boardsim.core.batch.play_games`; since game ``k`` of a run depends only on the
seed and ``k``, the rows equal the local backend's. The driver writes each cell's
rows as soon as its task finishes (so an interrupted cluster run keeps every finished
cell), and advances the progress bar per finished cell.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from boardsim.core.cluster import _require_ray, init_ray
from boardsim.research.cells import Round, play_cell


def play_round_task(
    game_name: str, played: Round, seed: int, chunk: int, metrics: bool = False
) -> dict[str, np.ndarray]:
    """The body of a Ray task: one round of a cell's games on one thread."""
    return play_cell(
        game_name, played.cell, played.games, seed, 1, chunk, None, metrics, played.first
    )


def run_cells_on_ray(
    game_name: str,
    rounds: Sequence[Round],
    seed: int,
    finish: Callable[[Round, Mapping[str, np.ndarray]], None],
    advance: Callable[[int], None],
    address: str | None = None,
    chunk: int = 2048,
    metrics: bool = False,
) -> None:
    """Play ``rounds`` as Ray tasks; ``finish(round, played)`` as each completes.

    Connects to ``address`` (``"auto"``, ``"ray://host:10001"``, ``"host:6379"``) or,
    when Ray is not running yet and no address is given, starts a local Ray that is
    shut down at the end (:func:`init_ray`). An already initialised Ray (a test's, a
    notebook's) is used as it is and left running.
    """
    ray = _require_ray()
    started_here = init_ray(address)
    try:
        task = ray.remote(num_cpus=1)(play_round_task)
        pending = {task.remote(game_name, r, seed, chunk, metrics): r for r in rounds}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                done = pending.pop(ref)
                finish(done, ray.get(ref))
                advance(done.games)
    finally:
        if started_here:
            ray.shutdown()

"""Balance sweeps: every cell of an option grid, played with compiled policies, into a tidy table.

A sweep is a game, base options, a grid (``{"num_players": [2, 3], "seat": [0, 1]}``),
the agents (compiled policy names), a number of games per cell and a seed. Each cell
is one combination of grid values; it is played by
:func:`boardsim.core.batch.play_games` (game ``k`` of every cell uses the run seed
``seed`` and game index ``k``: common random numbers across cells, and the same games
whatever the backend, batch or thread split).

Grid keys are game options (typed from the option's declaration; ``all`` lists every
allowed value, Hispania's ``level=all`` the 243 levels) and three sweep keys:

- ``seat`` (alias ``side``): where the agent under test sits, a seat number or a seat
  name (``empire``, ``hispano``); it plays every player of that seat's side, the
  second agent plays everyone else. ``--agents TEST,FIELD``.
- ``variant``: ``none`` or boolean options joined by ``+`` switched on
  (``ingenivm``, ``siege+port_transport``).

Without a seat key, ``agents`` is one policy for every seat or one per seat.

On disk (``out``): ``sweep.json`` (what is swept; a re-run must match it),
``cells/<cell id>.csv`` (one row a game, written atomically when the cell is
finished) and, at the end, ``results.csv`` (every cell, one table). A re-run skips
the cells already written, so an interrupted sweep loses nothing it finished; a cell
file found damaged (cut short, its rows not the sweep's games) is named and played again.

The stages, in the order a sweep meets them: :mod:`boardsim.research.cells` reads the
grid and makes its cells; :func:`run_sweep` (here) writes the manifest
(:mod:`boardsim.research.sweep_folder`); :mod:`boardsim.research.sweep_play` prepares the
folder and plays what the cells still need, here (``cells.play_cells``) or as Ray tasks
(:mod:`boardsim.research.ray_backend`), each cell through the research floor's door to
compiled play (:mod:`boardsim.research.players`), the folder taking each round's rows
as it finishes. Reports, metrics and pages read the folder downstream.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardsim.core.errors import OptionError
from boardsim.research.cells import (
    DEFAULT_CHUNK,
    Cell,
    grid_option,
    parse_grid,
    plan_cells,
    play_cell,
    typed_word,
    variants,
)
from boardsim.research.sweep_folder import (
    MANIFEST,
    METRIC_COLUMNS,
    holds_sweep,
    load_manifest,
    load_results,
    sweep_manifest,
    write_results_table,
)
from boardsim.research.sweep_play import Player, Progress, check_rounds, play_rounds

# the sweep's stages, for its callers: the grid and its cells (cells), the folder
# (sweep_folder), the run (here)
__all__ = [
    "MANIFEST",
    "METRIC_COLUMNS",
    "Cell",
    "Progress",
    "SweepResult",
    "describe_cells",
    "finished_sweep",
    "grid_option",
    "load_manifest",
    "load_results",
    "parse_grid",
    "plan_cells",
    "play_cell",
    "run_sweep",
    "typed_word",
    "variants",
    "write_results_table",
]

LOG = logging.getLogger(__name__)


def finished_sweep(
    game_name: str,
    grid: Mapping[str, Sequence[Any]],
    agents: Sequence[str],
    games_per_cell: int,
    out: str | os.PathLike,
    seed: int = 0,
    base_options: Mapping[str, Any] = {},
    precision: float | None = None,
    max_games_per_cell: int | None = None,
    search_precision: float | None = None,
) -> bool:
    """Whether ``out`` holds this very sweep with every cell played: its results can be
    read back without playing (a folder of other settings, or with a cell missing: no; a
    sweep to a precision whose cells are all there is finished as far as a run took it,
    and its report names the cells short of the precision)."""
    cells, _ = plan_cells(game_name, grid, agents, base_options, False)
    manifest = sweep_manifest(
        game_name,
        cells,
        agents,
        games_per_cell,
        seed,
        base_options,
        grid,
        precision=precision,
        max_games=max_games_per_cell,
        search_precision=search_precision,
    )
    return holds_sweep(Path(out), manifest, cells)


@dataclass
class SweepResult:
    """What a sweep run did."""

    out: Path
    cells: int  # cells in the sweep
    played: int  # cells played by this run
    skipped: int  # cells already finished, not replayed
    games: int  # games played by this run
    seconds: float
    invalid: list[dict[str, Any]] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)  # cell files found damaged, played again
    # a sweep to a precision: the cells short of it (their half-widths), stopped by the
    # time budget or by the most games a cell
    short: dict[str, float] = field(default_factory=dict)


def run_sweep(
    game_name: str,
    grid: Mapping[str, Sequence[Any]],
    agents: Sequence[str],
    games_per_cell: int,
    out: str | os.PathLike,
    seed: int = 0,
    base_options: Mapping[str, Any] = {},
    backend: str = "local",
    address: str | None = None,
    threads: int | None = None,
    skip_invalid: bool = False,
    progress: bool = False,
    chunk: int = DEFAULT_CHUNK,
    metrics: bool = False,
    precision: float | None = None,
    max_games_per_cell: int | None = None,
    seconds: float | None = None,
    search_precision: float | None = None,
) -> SweepResult:
    """Play every unfinished cell of the grid and write its rows; then write ``results.csv``.

    ``backend="local"`` plays the cells one after another on the batched engine on
    ``threads`` cores (all by default); ``backend="ray"`` runs each cell as a Ray
    task on the cluster at ``address`` (or a local Ray). Both give the same rows.
    With ``metrics`` every row also has its game's shape and tension metrics
    (:data:`METRIC_COLUMNS`, played by the compiled recorder: the same games).

    With a ``precision`` (the widest 95% half-width of a cell's win rates, e.g. 0.01)
    ``games_per_cell`` is the first round, and each cell gets more rounds until it is
    that precise or holds ``max_games_per_cell`` games (:mod:`boardsim.research.precision`);
    ``seconds`` is a time budget, looked at before each cell's round (a round started is
    finished): where it runs out, the cells keep what they hold, and
    :attr:`SweepResult.short` names those short of the precision. A run again continues.
    ``search_precision`` (None: the precision) is the half-width asked of the search
    cells, any seat searching (:func:`boardsim.research.precision.cell_precision`).
    """
    check_rounds(games_per_cell, backend, precision, max_games_per_cell, seconds, search_precision)
    start = time.perf_counter()
    out = Path(out)
    cells, invalid = plan_cells(game_name, grid, agents, base_options, skip_invalid)
    if not cells:
        raise OptionError("the grid has no valid cell")
    manifest = sweep_manifest(
        game_name,
        cells,
        agents,
        games_per_cell,
        seed,
        base_options,
        grid,
        metrics,
        precision,
        max_games_per_cell,
        search_precision,
    )
    manifest["skipped_invalid"] = invalid
    player = Player(game_name, out, seed, backend, address, threads, chunk, metrics, progress)
    deadline = None if seconds is None else start + seconds
    played, short, damaged = play_rounds(player, manifest, cells, deadline)
    return SweepResult(
        out,
        len(cells),
        len({r.cell.cell_id for r in played}),
        len(cells) - len({r.cell.cell_id for r in played}),
        sum(r.games for r in played),
        time.perf_counter() - start,
        invalid,
        sorted(damaged.values()),
        short,
    )


def describe_cells(cells: Iterable[Cell]) -> str:
    """One line a cell: its id, grid values and policies (for ``--dry-run``)."""
    return "\n".join(
        f"{c.cell_id}: {c.point} players={c.num_players} policies={','.join(c.policies)}"
        for c in cells
    )

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
grid and makes its cells; :mod:`boardsim.research.sweep_folder` prepares the folder;
:func:`run_sweep` (here) plays the unfinished cells, here (``cells.play_cells``) or as Ray
tasks (:mod:`boardsim.research.ray_backend`), each cell through the research floor's door
to compiled play (:mod:`boardsim.research.players`), and the folder takes each cell's
rows as it finishes. Reports, metrics and pages read the folder downstream.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.core.errors import OptionError
from boardsim.research.cells import (
    DEFAULT_CHUNK,
    Cell,
    Round,
    grid_option,
    parse_grid,
    plan_cells,
    play_cell,
    play_cells,
    typed_word,
    variants,
)
from boardsim.research.precision import check_precision, games_wanted, half_width
from boardsim.research.ray_backend import run_cells_on_ray
from boardsim.research.sweep_folder import (
    MANIFEST,
    METRIC_COLUMNS,
    cell_rows_held,
    cells_to_play,
    holds_sweep,
    load_manifest,
    load_results,
    prepare_folder,
    sweep_manifest,
    write_cell,
    write_results_table,
)

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


class Progress:
    """A tqdm bar over games (games/s and time left), or nothing."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.bar = None
        if enabled:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, unit="game", desc="balance", smoothing=0.1)

    def update(self, n: int) -> None:
        """Advance the bar by ``n`` games."""
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        """Close the bar."""
        if self.bar is not None:
            self.bar.close()


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
    """
    if games_per_cell < 1:
        raise OptionError("games per cell must be at least 1")
    if backend not in ("local", "ray"):
        raise OptionError(f"backend {backend!r}: choose local or ray")
    if precision is None and (max_games_per_cell is not None or seconds is not None):
        raise OptionError("a most of games a cell and a time budget go with a precision")
    if precision is not None:
        try:
            check_precision(precision, games_per_cell, max_games_per_cell)
        except ValueError as exc:
            raise OptionError(str(exc)) from None
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
    )
    manifest["skipped_invalid"] = invalid
    damaged = prepare_folder(out, manifest, cells)
    todo = cells_to_play(out, cells, damaged)
    play = _Player(game_name, out, seed, backend, address, threads, chunk, metrics)
    if precision is None:
        played = play.rounds([Round(c, 0, games_per_cell) for c in todo], progress)
        short: dict[str, float] = {}
    else:
        for path in damaged.values():  # a damaged cell is played again from its first game
            Path(path).unlink()
        deadline = None if seconds is None else start + seconds
        played, short = _play_to_precision(
            play, cells, precision, games_per_cell, max_games_per_cell, deadline, progress
        )
    write_results_table(out)
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


class _Player:
    """Rounds of cells played here or on Ray, each written to its cell's file as it ends."""

    def __init__(
        self,
        game_name: str,
        out: Path,
        seed: int,
        backend: str,
        address: str | None,
        threads: int | None,
        chunk: int,
        metrics: bool,
    ) -> None:
        self.game_name, self.out, self.seed = game_name, out, seed
        self.backend, self.address, self.threads = backend, address, threads
        self.chunk, self.metrics = chunk, metrics

    def finish(self, done: Round, played: Mapping[str, np.ndarray]) -> None:
        write_cell(self.out, self.game_name, done.cell, played, self.seed, done.first)

    def rounds(self, rounds: Sequence[Round], progress: bool) -> list[Round]:
        """Play ``rounds``; the rounds played."""
        bar = Progress(sum(r.games for r in rounds), progress)
        args = (self.game_name, rounds, self.seed, self.finish, bar.update)
        try:
            if self.backend == "local":
                play_cells(*args, self.threads, self.chunk, self.metrics)
            else:
                run_cells_on_ray(*args, self.address, self.chunk, self.metrics)
        finally:
            bar.close()
        return list(rounds)


def _play_to_precision(
    play: _Player,
    cells: Sequence[Cell],
    precision: float,
    first: int,
    most: int | None,
    deadline: float | None,
    progress: bool,
) -> tuple[list[Round], dict[str, float]]:
    """Rounds of every cell until each is ``precision`` wide or holds ``most`` games, or
    the ``deadline`` passes; the rounds played, and the cells short of the precision with
    their half-widths."""
    played: list[Round] = []
    while True:
        due = []
        for cell in cells:
            held = cell_rows_held(play.out, cell)
            wanted = games_wanted(held, precision, first, most)
            if wanted > len(held):
                due.append(Round(cell, len(held), wanted - len(held)))
        if not due:
            break
        if deadline is None or play.backend == "ray":
            if deadline is not None and time.perf_counter() >= deadline:
                break
            played += play.rounds(due, progress)  # a whole round of the cells at once
            continue
        for r in due:  # a budget is looked at before each cell's round
            if time.perf_counter() >= deadline:
                break
            played += play.rounds([r], progress)
        else:
            continue
        break
    widths = {c.cell_id: half_width(cell_rows_held(play.out, c)) for c in cells}
    return played, {cid: w for cid, w in widths.items() if w > precision}


def describe_cells(cells: Iterable[Cell]) -> str:
    """One line a cell: its id, grid values and policies (for ``--dry-run``)."""
    return "\n".join(
        f"{c.cell_id}: {c.point} players={c.num_players} policies={','.join(c.policies)}"
        for c in cells
    )

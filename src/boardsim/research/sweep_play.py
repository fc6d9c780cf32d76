"""Playing a sweep's cells into its folder: whole cells, or rounds to a precision.

:func:`play_rounds` prepares the folder (:mod:`boardsim.research.sweep_folder`), plays the
cells it does not hold yet (a sweep of a fixed size) or round after round until each cell
is precise enough (:mod:`boardsim.research.precision`), here (``cells.play_cells``) or as
Ray tasks (:mod:`boardsim.research.ray_backend`), each round written to its cell's file as
it ends, and writes the results table.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numba
import numpy as np

from boardsim.core.errors import OptionError
from boardsim.research.cells import Cell, Round, play_cells
from boardsim.research.precision import (
    cell_precision,
    check_precision,
    games_wanted,
    half_width,
    is_search_cell,
)
from boardsim.research.ray_backend import run_cells_on_ray
from boardsim.research.sweep_folder import (
    cell_rows_held,
    cells_to_play,
    prepare_folder,
    record_timing,
    write_cell,
    write_results_table,
)


def check_rounds(
    games: int,
    backend: str,
    precision: float | None,
    most: int | None,
    seconds: float | None,
    search_precision: float | None = None,
) -> None:
    """:class:`OptionError` saying what is wrong with how a sweep is to be played."""
    if games < 1:
        raise OptionError("games per cell must be at least 1")
    if backend not in ("local", "ray"):
        raise OptionError(f"backend {backend!r}: choose local or ray")
    if precision is None and (
        most is not None or seconds is not None or search_precision is not None
    ):
        raise OptionError(
            "a most of games a cell, a time budget and a search precision go with a precision"
        )
    if precision is not None:
        try:
            check_precision(precision, games, most, search_precision)
        except ValueError as exc:
            raise OptionError(str(exc)) from None


class Progress:
    """A tqdm bar over games (games/s and time left), or nothing."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.bar = None
        if enabled:
            from tqdm.auto import tqdm  # deferred on purpose: only a run with a bar needs it

            self.bar = tqdm(total=total, unit="game", desc="balance", smoothing=0.1)

    def update(self, n: int) -> None:
        """Advance the bar by ``n`` games."""
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        """Close the bar."""
        if self.bar is not None:
            self.bar.close()


def play_rounds(
    player: Player, manifest: dict[str, Any], cells: Sequence[Cell], deadline: float | None
) -> tuple[list[Round], dict[str, float], dict[str, str]]:
    """Prepare the folder for ``manifest``, play what ``cells`` still need, write the
    results table; the rounds played, the cells short of the precision (their
    half-widths) and the damaged cell files played again."""
    damaged = prepare_folder(player.out, manifest, cells)
    precision, first = manifest["precision"], manifest["games_per_cell"]
    if precision is None:
        todo = cells_to_play(player.out, cells, damaged)
        played = player.rounds([Round(c, 0, first) for c in todo])
        short: dict[str, float] = {}
    else:
        for path in damaged.values():  # a damaged cell is played again from its first game
            Path(path).unlink()
        most = manifest["max_games_per_cell"]
        search = manifest.get("search_precision")
        played, short = _play_to_precision(
            player, cells, (precision, search), first, most, deadline
        )
    write_results_table(player.out)
    return played, short, damaged


class Player:
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
        progress: bool = False,
    ) -> None:
        self.game_name, self.out, self.seed = game_name, out, seed
        self.backend, self.address, self.threads = backend, address, threads
        self.chunk, self.metrics, self.progress = chunk, metrics, progress
        self.began = time.perf_counter()  # the start of the round being played

    def finish(self, done: Round, played: Mapping[str, np.ndarray]) -> None:
        write_cell(self.out, self.game_name, done.cell, played, self.seed, done.first)
        if self.backend == "local":  # here the rounds play one after another: time each
            now = time.perf_counter()
            cores = self.threads or numba.config.NUMBA_NUM_THREADS
            record_timing(self.out, done.cell.cell_id, done.games, (now - self.began) * cores)
            self.began = now

    def rounds(self, rounds: Sequence[Round]) -> list[Round]:
        """Play ``rounds``; the rounds played."""
        self.began = time.perf_counter()
        bar = Progress(sum(r.games for r in rounds), self.progress)
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
    play: Player,
    cells: Sequence[Cell],
    precisions: tuple[float, float | None],
    first: int,
    most: int | None,
    deadline: float | None,
) -> tuple[list[Round], dict[str, float]]:
    """Rounds of every cell until each is as precise as asked (``precisions``: the
    scripted and network cells', the search cells' or None for the same,
    :func:`boardsim.research.precision.cell_precision`) or holds ``most`` games, or the
    ``deadline`` passes; the rounds played, and the cells short of their precision with
    their half-widths.

    With a deadline the budget goes by cost: while a scripted or network cell still needs
    games, only those cells play (they are hundreds of times cheaper a game than a
    search), and the search cells take what is left; in each pass over the cells, the
    farthest from its precision plays first. The order never changes what a cell holds
    after a round, only which cells the deadline leaves short."""
    wanted_width = {c.cell_id: cell_precision(c.policies, *precisions) for c in cells}
    played: list[Round] = []
    while True:
        due, gaps = [], {}
        for cell in cells:
            held = cell_rows_held(play.out, cell)
            wanted = games_wanted(held, wanted_width[cell.cell_id], first, most)
            if wanted > len(held):
                due.append(Round(cell, len(held), wanted - len(held)))
                if deadline is not None:
                    gaps[cell.cell_id] = half_width(held) / wanted_width[cell.cell_id]
        if not due:
            break
        if deadline is not None:
            due = widest_first(cheapest_first(due), gaps)
        if deadline is None or play.backend == "ray":
            if deadline is not None and time.perf_counter() >= deadline:
                break
            played += play.rounds(due)  # a whole round of the cells at once
            continue
        for r in due:  # a budget is looked at before each cell's round
            if time.perf_counter() >= deadline:
                break
            played += play.rounds([r])
        else:
            continue
        break
    widths = {c.cell_id: half_width(cell_rows_held(play.out, c)) for c in cells}
    return played, {cid: w for cid, w in widths.items() if w > wanted_width[cid]}


def widest_first(due: list[Round], gaps: Mapping[str, float]) -> list[Round]:
    """``due`` ordered by how far each cell is from its precision (``gaps``: its half-width
    over the one asked, by cell id), the farthest first, ties in their order: a budget
    that cannot finish every cell narrows the widest ones first, so the widest interval
    a page reports falls fastest."""
    return sorted(due, key=lambda r: -gaps[r.cell.cell_id])


def cheapest_first(due: list[Round]) -> list[Round]:
    """The rounds of the scripted and network cells among ``due`` when there are any, else
    ``due`` (the search cells' rounds)."""
    cheap = [r for r in due if not is_search_cell(r.cell.policies)]
    return cheap or due

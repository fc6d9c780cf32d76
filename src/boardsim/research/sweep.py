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
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import logging
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.agents.network import shipped_network_for
from boardsim.api import make_game
from boardsim.core.errors import DataError, OptionError
from boardsim.core.game import Game
from boardsim.files import atomic_write_text
from boardsim.research.cells import (
    DEFAULT_CHUNK,
    SEAT_KEYS,
    SKILL_KEY,
    VARIANT_KEY,
    Cell,
    canonical,
    plan_cells,
    play_cell,
    variants,
)
from boardsim.research.metrics import PER_GAME, winners
from boardsim.research.players import check_compiled
from boardsim.research.ray_backend import run_cells_on_ray
from boardsim.research.reuse import network_sha256
from boardsim.research.skill import expand_skill_words, ladder, rung_agents

LOG = logging.getLogger(__name__)
FORMAT = 1
MANIFEST = "sweep.json"
CELLS_DIR = "cells"
RESULTS = "results.csv"
# the per-game metric columns of a sweep with metrics
METRIC_COLUMNS = PER_GAME

# columns every row has, in order; then the grid keys, then per-seat columns
BASE_COLUMNS = ("game", "cell", "game_index", "seed")
TAIL_COLUMNS = ("winners", "winner", "margin", "decisions", "truncated", "options")
TEXT_COLUMNS = ("game", "cell", "winners", "options")
NUMERIC_COLUMNS = (
    "game_index",
    "seed",
    "num_players",
    "test_seat",
    "winner",
    "margin",
    "decisions",
)


# ------------------------------------------------------------------ grid values
def grid_option(game: Game, key: str) -> Any:
    """The option a grid key names, or :class:`OptionError` listing the keys there are."""
    for o in game.definition.options:
        if o.name == key:
            return o
    known = ", ".join(
        [o.name for o in game.definition.options] + [*SEAT_KEYS, VARIANT_KEY, SKILL_KEY]
    )
    raise OptionError(f"{game.name}: no grid key {key!r}; known keys: {known}")


def typed_word(option: Any, text: str, game: str) -> Any:
    """The value of ``option`` a grid word stands for (``none``, ``true``, ``3``, ``6-4-3-4-2``)."""
    if option.choices is not None:
        for c in option.choices:
            if str(c).lower() == text.strip().lower():
                return c
        allowed = ", ".join(str(c).lower() for c in option.choices)
        raise OptionError(f"{game}: {option.name}={text!r} is not allowed; choose one of {allowed}")
    if option.low is not None or option.high is not None:
        try:
            return int(text)
        except ValueError:
            raise OptionError(f"{game}: {option.name} takes an int, got {text!r}") from None
    return text.strip()


def _all_values(game: Game, key: str) -> list[Any]:
    if key in SEAT_KEYS:
        return ["all"]  # every seat of each cell's player count (expanded in plan_cells)
    if key == VARIANT_KEY:
        return ["none", *variants(game)]
    if key == SKILL_KEY:
        return ladder(game.name)
    option = grid_option(game, key)
    difficulty = game.definition.difficulty
    if difficulty is not None and key == difficulty.option:
        return difficulty.levels()
    if option.choices is not None:
        return list(option.choices)
    # ``all`` of an int option lists its range only when it is short
    if option.low is not None and option.high is not None and option.high - option.low < 64:
        return list(range(option.low, option.high + 1))
    raise OptionError(f"{game.name}: {key}=all is not defined; list the values")


def parse_grid(game_name: str, specs: Sequence[str], base_options: Mapping[str, Any] = {}) -> dict:
    """``["num_players=2,3", "seat=all"]`` -> ``{"num_players": [2, 3], "seat": [0, 1, 2]}``.

    Values are typed from the game's option declarations; the sweep keys ``seat``
    (``side``) and ``variant`` stay as words or numbers and are checked per cell.
    """
    game = make_game(game_name, **base_options)
    grid: dict[str, list[Any]] = {}
    for spec in specs:
        key, sep, values = spec.partition("=")
        key = key.strip()
        if not sep or not key or not values.strip():
            raise OptionError(f"grid entry {spec!r} is not KEY=V1,V2,...")
        if key in grid:
            raise OptionError(f"grid key {key!r} given twice")
        words = [w.strip() for w in values.split(",") if w.strip()]
        if words == ["all"]:
            grid[key] = _all_values(game, key)
        elif key in SEAT_KEYS:
            grid[key] = [int(w) if w.lstrip("-").isdigit() else w for w in words]
        elif key == VARIANT_KEY:
            grid[key] = words
        elif key == SKILL_KEY:
            grid[key] = words  # expanded below, once the options of every cell are known
        else:
            grid[key] = [typed_word(grid_option(game, key), w, game_name) for w in words]
    if sum(k in grid for k in SEAT_KEYS) > 1:
        raise OptionError("give either seat or side, not both")
    if SKILL_KEY in grid:
        grid[SKILL_KEY] = _skill_values(
            grid[SKILL_KEY], game_name, _cell_options(grid, base_options)
        )
    return grid


def _cell_options(grid: Mapping[str, Sequence[Any]], base: Mapping[str, Any]) -> list[dict]:
    """The game options of each combination of the grid's option keys over ``base`` (the
    sweep keys ``seat``, ``side``, ``variant`` and ``skill`` left out)."""
    keys = [k for k in grid if k not in (*SEAT_KEYS, VARIANT_KEY, SKILL_KEY)]
    return [
        {**base, **dict(zip(keys, combo, strict=True))}
        for combo in itertools.product(*(grid[k] for k in keys))
    ]


def _skill_values(
    words: Sequence[str], game_name: str, cells: Sequence[Mapping[str, Any]] = ({},)
) -> list[str]:
    """The ``skill`` values, ``ladder``/``depth`` expanded (the ladder's learned rungs
    those that play every one of ``cells``), each rung's agents checked."""
    values = expand_skill_words(words, game_name, cells)
    for v in values:
        check_compiled(rung_agents(v))
    return values


def tension_values(game_name: str, cells: Sequence[Cell]) -> tuple[dict[str, Any], list[str]]:
    """What values the positions of a sweep with metrics: the manifest's ``values`` (the
    self-play network shipped for the game, which values a cell whose options it plays,
    and its SHA-256; or the progress measure: a folder of other values is another sweep)
    and ``valued_cells``, the ids of the cells it values."""
    valued, sha = [], None
    for c in cells:
        network = shipped_network_for(make_game(game_name, **c.options))
        if network is not None:
            valued.append(c.cell_id)
            sha = network_sha256(network)
    if not valued:
        return {"source": "progress"}, []
    return {"source": "network", "network": "alphazero", "network_sha256": sha}, valued


# network families: a sweep plays them at every cell's options (a Hispania network at
# every level), not only at the options they were trained with
def cell_rows(game_name: str, cell: Cell, played: Mapping[str, np.ndarray], seed: int) -> list:
    """The tidy rows (one dict a game) of a played cell."""
    rows = []
    options = canonical(cell.options)
    for k in range(len(played["decisions"])):
        ret = np.asarray(played["returns"][k], dtype=float)
        won = winners(ret)
        others = [float(ret[s]) for s in range(len(ret)) if s not in won]
        margin = float(ret.max()) - max(others) if won and others else 0.0
        row: dict[str, Any] = {
            "game": game_name,
            "cell": cell.cell_id,
            "game_index": k,
            "seed": seed,
        }
        row.update({key: _word(v) for key, v in cell.point.items()})
        row["num_players"] = cell.num_players
        row["test_seat"] = cell.test_seat
        for s, p in enumerate(cell.policies):
            row[f"agent_{s}"] = p
        for s in range(len(ret)):
            row[f"return_{s}"] = _number(ret[s])
        row.update(
            {
                "winners": "|".join(str(s) for s in won),
                "winner": won[0] if len(won) == 1 else -1,
                "margin": _number(margin),
                "decisions": int(played["decisions"][k]),
                "truncated": int(bool(played["truncated"][k])),
                "options": options,
            }
        )
        for key in METRIC_COLUMNS:
            if key in played:
                row[key] = _metric_number(float(played[key][k]))
        rows.append(row)
    return rows


def _word(v: Any) -> Any:
    return str(v).lower() if v is None or isinstance(v, bool) else v


def _metric_number(x: float) -> float | str:
    """A per-game metric for the table: rounded, empty where it does not apply (nan)."""
    return "" if x != x else round(x, 6)


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(float(x), 6)


# ------------------------------------------------------------------ files
def rows_to_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as CSV text, columns in first-seen order (missing values empty)."""
    columns: list[str] = []
    for r in rows:
        columns += [c for c in r if c not in columns]
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, restval="", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def _parse_value(column: str, text: str) -> Any:
    if column in TEXT_COLUMNS:
        return text
    if column in METRIC_COLUMNS:
        return float(text) if text else float("nan")
    if text == "":
        return None if column.startswith(("return_", "agent_")) else text
    if column in NUMERIC_COLUMNS or column.startswith("return_") or column == "truncated":
        x = float(text)
        return int(x) if x.is_integer() and column != "margin" else x
    if text.lstrip("-").isdigit():
        return int(text)
    return text


def read_csv_rows(path: Path) -> list[dict[str, Any]]:
    """A results CSV back as rows, numbers as numbers.

    A damaged file (cut short: its last line unfinished; a row with more or fewer values
    than the header's columns; a value that is not its column's) raises
    :class:`~boardsim.DataError` naming the file and the line.
    """
    with open(path, newline="") as f:
        text = f.read()
    if text and not text.endswith("\n"):
        line = text.count("\n") + 1
        reason = "the file ends in the middle of a row (cut short)"
        raise DataError(str(path), f"line {line}", reason)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    rows = []
    try:
        for r in reader:
            rows.append(_parsed_row(path, reader, r))
    except csv.Error as exc:
        raise DataError(str(path), f"line {reader.line_num}", f"unreadable: {exc}") from None
    return rows


def _parsed_row(path: Path, reader: csv.DictReader, row: dict[Any, Any]) -> dict[str, Any]:
    """One CSV row, its values typed; :class:`DataError` when it does not fit the header."""
    where = f"line {reader.line_num}"
    if None in row or None in row.values():  # values past the header's, or too few
        given = [v for k, v in row.items() if k is not None and v is not None]
        given += row.get(None) or []
        columns = len(reader.fieldnames or [])
        reason = f"a row of {len(given)} values under {columns} columns (the file is damaged)"
        raise DataError(str(path), where, reason)
    try:
        return {k: _parse_value(k, v) for k, v in row.items()}
    except ValueError as exc:
        raise DataError(str(path), where, f"unreadable value: {exc}") from None


def load_manifest(out: str | os.PathLike) -> dict[str, Any]:
    """The ``sweep.json`` of a sweep folder."""
    path = Path(out) / MANIFEST
    if not path.exists():
        raise FileNotFoundError(f"{out} is not a sweep folder (no {MANIFEST})")
    return json.loads(path.read_text())


def _cell_files(out: Path, manifest: Mapping[str, Any]) -> list[Path]:
    """The cell files of a sweep folder, in the manifest's cell order."""
    order = {cid: i for i, cid in enumerate(manifest.get("cells", []))}
    return sorted((out / CELLS_DIR).glob("*.csv"), key=lambda p: (order.get(p.stem, 1e9), p.stem))


def read_cell_rows(path: Path, games: int | None = None) -> list[dict[str, Any]]:
    """One cell file's rows; :class:`~boardsim.DataError` naming the file when it is
    damaged (:func:`read_csv_rows`), or, given the sweep's ``games`` per cell, when it
    does not hold exactly those games (``game_index`` 0 to ``games - 1``)."""
    rows = read_csv_rows(path)
    if games is not None and [r.get("game_index") for r in rows] != list(range(games)):
        raise DataError(
            str(path),
            "rows",
            f"{len(rows)} rows, not the sweep's {games} games 0-{games - 1} (the file is damaged)",
        )
    return rows


def load_results(out: str | os.PathLike) -> list[dict[str, Any]]:
    """Every finished cell's rows (the tidy table), in the manifest's cell order.

    A damaged cell file raises :class:`~boardsim.DataError` naming it; running the
    sweep again plays that cell again.
    """
    out = Path(out)
    manifest = load_manifest(out)
    games = manifest.get("games_per_cell")
    rows: list[dict[str, Any]] = []
    for f in _cell_files(out, manifest):
        try:
            rows += read_cell_rows(f, games)
        except DataError as exc:
            raise DataError(
                exc.file, exc.entry, f"{exc.reason}; run the sweep again to play that cell again"
            ) from None
    return rows


def finished_cells(out: Path) -> set[str]:
    """The ids of the cells already written (whole or not: see :func:`damaged_cells`)."""
    return {p.stem for p in (out / CELLS_DIR).glob("*.csv")}


def damaged_cells(out: Path, games: int) -> dict[str, DataError]:
    """The cells of a sweep folder whose files are damaged (:func:`read_cell_rows`),
    each with what is wrong."""
    found = {}
    for f in (out / CELLS_DIR).glob("*.csv"):
        try:
            read_cell_rows(f, games)
        except DataError as exc:
            found[f.stem] = exc
    return found


def _manifest(
    game_name: str,
    cells: Sequence[Cell],
    agents: Sequence[str],
    games: int,
    seed: int,
    base_options: Mapping[str, Any],
    grid: Mapping | None,
    metrics: bool = False,
) -> dict:
    values, valued = tension_values(game_name, cells) if metrics else (None, [])
    return {
        "metrics": metrics,
        "values": values,
        "valued_cells": valued,
        "format": FORMAT,
        "game": game_name,
        "game_version": make_game(game_name, **base_options).definition.version,
        "agents": list(agents),
        "games_per_cell": games,
        "seed": seed,
        "base_options": {k: _word(v) for k, v in base_options.items()},
        "grid": {k: [_word(v) for v in vs] for k, vs in (grid or {}).items()},
        "cells": [c.cell_id for c in cells],
        "points": {c.cell_id: {k: _word(v) for k, v in c.point.items()} for c in cells},
    }


SAME_SWEEP_KEYS = (
    "metrics",
    "values",
    "format",
    "game",
    "game_version",
    "agents",
    "games_per_cell",
    "seed",
    "base_options",
)


MANIFEST_DEFAULTS = {"metrics": False}  # keys a sweep folder written before them lacks


def _old_default(old: Mapping[str, Any], key: str) -> Any:
    """The value of ``key`` in a folder written before it: a sweep with metrics then
    valued its positions by the game's progress measure."""
    if key == "values":
        return {"source": "progress"} if old.get("metrics") else None
    return MANIFEST_DEFAULTS.get(key)


def _differing_keys(old: Mapping[str, Any], manifest: Mapping[str, Any]) -> list[str]:
    """The settings that make ``old`` (a folder's manifest) another sweep than ``manifest``."""
    return [k for k in SAME_SWEEP_KEYS if old.get(k, _old_default(old, k)) != manifest[k]]


def finished_sweep(
    game_name: str,
    grid: Mapping[str, Sequence[Any]],
    agents: Sequence[str],
    games_per_cell: int,
    out: str | os.PathLike,
    seed: int = 0,
    base_options: Mapping[str, Any] = {},
) -> bool:
    """Whether ``out`` holds this very sweep with every cell played: its results can be
    read back without playing (a folder of other settings, or with a cell missing: no)."""
    out = Path(out)
    path = out / MANIFEST
    if not path.exists():
        return False
    cells, _ = plan_cells(game_name, grid, agents, base_options, False)
    manifest = _manifest(game_name, cells, agents, games_per_cell, seed, base_options, grid)
    if _differing_keys(json.loads(path.read_text()), manifest):
        return False
    return {c.cell_id for c in cells} <= finished_cells(out)


def _prepare_out(out: Path, manifest: dict[str, Any]) -> None:
    """Create ``out`` or check it holds the same sweep (then merge the cell lists)."""
    path = out / MANIFEST
    if path.exists():
        old = json.loads(path.read_text())
        diff = _differing_keys(old, manifest)
        if diff:
            raise OptionError(
                f"{out} holds a different sweep ({', '.join(diff)} differ); "
                "use another --out or delete it"
            )
        cells = list(old.get("cells", []))
        cells += [c for c in manifest["cells"] if c not in cells]
        valued = list(old.get("valued_cells", []))
        valued += [c for c in manifest["valued_cells"] if c not in valued]
        manifest = {
            **manifest,
            "cells": cells,
            "valued_cells": valued,
            "points": {**old.get("points", {}), **manifest["points"]},
        }
    (out / CELLS_DIR).mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(manifest, indent=1) + "\n")


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
) -> SweepResult:
    """Play every unfinished cell of the grid and write its rows; then write ``results.csv``.

    ``backend="local"`` plays the cells one after another on the batched engine on
    ``threads`` cores (all by default); ``backend="ray"`` runs each cell as a Ray
    task on the cluster at ``address`` (or a local Ray). Both give the same rows.
    With ``metrics`` every row also has its game's shape and tension metrics
    (:data:`METRIC_COLUMNS`, played by the compiled recorder: the same games).
    """
    if games_per_cell < 1:
        raise OptionError("games per cell must be at least 1")
    if backend not in ("local", "ray"):
        raise OptionError(f"backend {backend!r}: choose local or ray")
    start = time.perf_counter()
    out = Path(out)
    cells, invalid = plan_cells(game_name, grid, agents, base_options, skip_invalid)
    if not cells:
        raise OptionError("the grid has no valid cell")
    manifest = _manifest(
        game_name, cells, agents, games_per_cell, seed, base_options, grid, metrics
    )
    manifest["skipped_invalid"] = invalid
    _prepare_out(out, manifest)
    damaged = _damaged_to_replay(out, cells, games_per_cell)
    done = finished_cells(out) - set(damaged)
    todo = [c for c in cells if c.cell_id not in done]
    bar = Progress(len(todo) * games_per_cell, progress)

    def finish(cell: Cell, played: Mapping[str, np.ndarray]) -> None:
        rows = cell_rows(game_name, cell, played, seed)
        atomic_write_text(out / CELLS_DIR / f"{cell.cell_id}.csv", rows_to_csv(rows))

    try:
        if backend == "local":
            for cell in todo:
                played = play_cell(
                    game_name,
                    cell,
                    games_per_cell,
                    seed,
                    threads,
                    chunk,
                    bar.update,
                    metrics=metrics,
                )
                finish(cell, played)
        else:
            run_cells_on_ray(
                game_name, todo, games_per_cell, seed, finish, bar.update, address, chunk, metrics
            )
    finally:
        bar.close()
    write_results_table(out)
    return SweepResult(
        out,
        len(cells),
        len(todo),
        len(cells) - len(todo),
        len(todo) * games_per_cell,
        time.perf_counter() - start,
        invalid,
        sorted(damaged.values()),
    )


def _damaged_to_replay(out: Path, cells: Sequence[Cell], games: int) -> dict[str, str]:
    """The damaged cell files of this sweep (cell id -> file), each named in a warning, to
    be played again and rewritten whole; a damaged cell outside this grid (left by a
    run of another grid) is refused, since this run cannot replay it."""
    ours = {c.cell_id for c in cells}
    damaged = damaged_cells(out, games)
    others = sorted(cid for cid in damaged if cid not in ours)
    if others:
        exc = damaged[others[0]]
        point = load_manifest(out).get("points", {}).get(others[0], {})
        raise DataError(
            exc.file,
            exc.entry,
            f"{exc.reason}; the cell {point} is not in this grid: run the sweep with it to "
            "play it again, or delete the file",
        )
    for _, exc in sorted(damaged.items()):
        LOG.warning("%s; playing the cell again", exc)
    return {cid: exc.file for cid, exc in damaged.items()}


def write_results_table(out: str | os.PathLike) -> Path:
    """Write ``results.csv``: every finished cell's rows, one table (atomically)."""
    out = Path(out)
    path = out / RESULTS
    atomic_write_text(path, rows_to_csv(load_results(out)))
    return path


def describe_cells(cells: Iterable[Cell]) -> str:
    """One line a cell: its id, grid values and policies (for ``--dry-run``)."""
    return "\n".join(
        f"{c.cell_id}: {c.point} players={c.num_players} policies={','.join(c.policies)}"
        for c in cells
    )

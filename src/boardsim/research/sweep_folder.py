"""A sweep's folder: its manifest, one file a finished cell, and the results table.

On disk (``out``): ``sweep.json`` (what is swept; a re-run must match it),
``cells/<cell id>.csv`` (one row a game, written atomically when the cell is finished)
and, at the end, ``results.csv`` (every cell, one table). A re-run skips the cells
already written, so an interrupted sweep loses nothing it finished; a cell file found
damaged (cut short, its rows not the sweep's games) is named and played again.

``timings.json`` holds what each cell's games cost where they were played here (the
rounds' wall seconds times the threads they had: core-seconds), so that a report can say
what a cell short of its precision would take; it is a measurement beside the games, not
part of them (a sweep's rows never depend on it), and one found damaged is started again.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.agents.network import shipped_network_for
from boardsim.api import make_game
from boardsim.core.errors import DataError, OptionError
from boardsim.files import atomic_write_text
from boardsim.research.cells import Cell, canonical
from boardsim.research.metrics import PER_GAME, winners
from boardsim.research.players import NETWORK_FAMILIES, seat_family
from boardsim.research.precision import is_search_cell
from boardsim.research.reuse import network_sha256, networks_played

LOG = logging.getLogger(__name__)
FORMAT = 1
MANIFEST = "sweep.json"
CELLS_DIR = "cells"
RESULTS = "results.csv"
TIMINGS = "timings.json"
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
def cell_rows(
    game_name: str, cell: Cell, played: Mapping[str, np.ndarray], seed: int, first: int = 0
) -> list:
    """The tidy rows (one dict a game) of a cell's games ``first``, ``first + 1``, ..."""
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
            "game_index": first + k,
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
    damaged (:func:`read_csv_rows`), when its games are not ``game_index`` 0, 1, 2, ...
    in order, or, given the sweep's ``games`` per cell, when it does not hold exactly
    those games (a sweep to a precision gives None: each cell has its own count)."""
    rows = read_csv_rows(path)
    indices = [r.get("game_index") for r in rows]
    if games is not None and indices != list(range(games)):
        raise DataError(
            str(path),
            "rows",
            f"{len(rows)} rows, not the sweep's {games} games 0-{games - 1} (the file is damaged)",
        )
    if not rows or indices != list(range(len(rows))):
        raise DataError(
            str(path), "rows", "its games are not 0, 1, 2, ... in order (the file is damaged)"
        )
    return rows


def games_per_cell(manifest: Mapping[str, Any]) -> int | None:
    """The games every cell of a sweep holds, or None for a sweep to a precision (each
    cell holds its own count of games 0, 1, 2, ...)."""
    return None if manifest.get("precision") else manifest.get("games_per_cell")


def load_results(out: str | os.PathLike) -> list[dict[str, Any]]:
    """Every finished cell's rows (the tidy table), in the manifest's cell order.

    A damaged cell file raises :class:`~boardsim.DataError` naming it; running the
    sweep again plays that cell again.
    """
    out = Path(out)
    manifest = load_manifest(out)
    games = games_per_cell(manifest)
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


def damaged_cells(out: Path, games: int | None) -> dict[str, DataError]:
    """The cells of a sweep folder whose files are damaged (:func:`read_cell_rows`),
    each with what is wrong."""
    found = {}
    for f in (out / CELLS_DIR).glob("*.csv"):
        try:
            read_cell_rows(f, games)
        except DataError as exc:
            found[f.stem] = exc
    return found


def sweep_manifest(
    game_name: str,
    cells: Sequence[Cell],
    agents: Sequence[str],
    games: int,
    seed: int,
    base_options: Mapping[str, Any],
    grid: Mapping | None,
    metrics: bool = False,
    precision: float | None = None,
    max_games: int | None = None,
    search_precision: float | None = None,
) -> dict:
    """The manifest of a sweep: every setting its results depend on. ``games`` is the
    games a cell, or with a ``precision`` the first round's (more rounds follow, up to
    ``max_games``, until each cell's win rates are that precise; a search cell's
    ``search_precision`` when given, kept only when the sweep has a search cell)."""
    values, valued = tension_values(game_name, cells) if metrics else (None, [])
    if precision is None or not any(is_search_cell(c.policies) for c in cells):
        search_precision = None  # no search cell: the setting changes no game
    plays = cells_networks(game_name, cells)
    return {
        # the networks its agents play ({} for none): another network is another sweep
        "plays": plays,
        "precision": precision,
        "max_games_per_cell": max_games,
        "search_precision": search_precision,
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


def cells_networks(game_name: str, cells: Sequence[Cell]) -> dict[str, list[str]]:
    """The networks the cells' seats play, each at its cell's options
    (:func:`~boardsim.research.reuse.networks_played`)."""
    return networks_played(game_name, [(p, c.options) for c in cells for p in c.policies])


def retire_network_cells(
    out: Path, cells: Sequence[Cell], plays: Mapping[str, list[str]]
) -> Path | None:
    """When the sweep in ``out`` was played by other networks than ``plays`` (the shipped
    network replaced since, or a folder written before the networks were recorded): move
    the files of its cells with a network seat (those of ``cells``, and any the manifest's
    points name a network skill in) to ``<out>.other-network/cells`` (``-2``, ... when
    taken; returned), so they are played again with today's network while the other
    cells' games, which no network played, are still read back; then record ``plays``.
    None when the folder holds no sweep or the same networks."""
    path = out / MANIFEST
    if not path.is_file():
        return None
    manifest = json.loads(path.read_text())
    if _same_plays(manifest.get("plays", "unknown"), dict(plays)):
        return None
    networked = {c.cell_id for c in cells if any(_is_network(p) for p in c.policies)}
    for cid, point in manifest.get("points", {}).items():
        if any(isinstance(v, str) and _is_network(v) for v in point.values()):
            networked.add(cid)
    aside = other_network_path(out)
    moved = [f for f in (out / CELLS_DIR).glob("*.csv") if f.stem in networked]
    if moved:
        (aside / CELLS_DIR).mkdir(parents=True)
        atomic_write_text(aside / MANIFEST, path.read_text())  # what they were played as
        for f in moved:
            f.rename(aside / CELLS_DIR / f.name)
    kept = manifest.get("plays")
    kept = {s: v for s, v in kept.items() if s not in plays} if isinstance(kept, dict) else {}
    atomic_write_text(path, json.dumps({**manifest, "plays": {**kept, **plays}}, indent=1) + "\n")
    LOG.warning(
        "%s was played by other networks (%s, now %s): its %d cells with a network seat "
        "moved to %s, to be played again",
        out,
        manifest.get("plays", "not recorded"),
        dict(plays),
        len(moved),
        aside,
    )
    return aside if moved else None


def other_network_path(out: Path) -> Path:
    """Where a folder's games of a replaced network are kept: ``<out>.other-network``, or
    ``-2``, ``-3``, ... when taken."""
    aside, n = out.with_name(out.name + ".other-network"), 1
    while aside.exists():
        n += 1
        aside = out.with_name(f"{out.name}.other-network-{n}")
    return aside


def _is_network(spec: str) -> bool:
    return seat_family(spec) in NETWORK_FAMILIES


SAME_SWEEP_KEYS = (
    "plays",
    "precision",
    "max_games_per_cell",
    "search_precision",
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


# keys a sweep folder written before them lacks
MANIFEST_DEFAULTS = {
    "metrics": False,
    "precision": None,
    "max_games_per_cell": None,
    "search_precision": None,
}


def _old_default(old: Mapping[str, Any], key: str) -> Any:
    """The value of ``key`` in a folder written before it: a sweep with metrics then
    valued its positions by the game's progress measure; the networks its agents played
    were not written down (``"unknown"``: a sweep with a network agent is not read back as
    this network's, one without any is the same sweep)."""
    if key == "values":
        return {"source": "progress"} if old.get("metrics") else None
    if key == "plays":
        return "unknown"
    return MANIFEST_DEFAULTS.get(key)


def _same_plays(old: Any, new: Mapping[str, list[str]]) -> bool:
    """Whether a folder that recorded ``old`` networks holds games of the ``new`` ones: no
    agent of both played another network (a grid may add agents; a folder written before
    networks were recorded holds none of a sweep with no network)."""
    if old == "unknown":
        return not new
    return all(
        set(new[s]) <= set(old[s]) or set(old[s]) <= set(new[s]) for s in set(old) & set(new)
    )


def _merged_plays(old: Any, new: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """The networks a folder holds games of once ``new``'s are added (today's replacing an
    agent's earlier ones)."""
    kept = old if isinstance(old, dict) else {}
    return {**kept, **{s: sorted(set(v) | set(kept.get(s, []))) for s, v in new.items()}}


def _differing_keys(old: Mapping[str, Any], manifest: Mapping[str, Any]) -> list[str]:
    """The settings that make ``old`` (a folder's manifest) another sweep than ``manifest``."""
    return [
        k
        for k in SAME_SWEEP_KEYS
        if not (
            _same_plays(old.get(k, "unknown"), manifest[k])
            if k == "plays"
            else old.get(k, _old_default(old, k)) == manifest[k]
        )
    ]


def _write_manifest(out: Path, manifest: dict[str, Any]) -> None:
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
            "plays": _merged_plays(old.get("plays", "unknown"), manifest["plays"]),
            "cells": cells,
            "valued_cells": valued,
            "points": {**old.get("points", {}), **manifest["points"]},
        }
    (out / CELLS_DIR).mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(manifest, indent=1) + "\n")


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


def prepare_folder(out: Path, manifest: dict[str, Any], cells: Sequence[Cell]) -> dict[str, str]:
    """Create ``out`` for the sweep of ``manifest``, or check it holds the same sweep (then
    merge the cell lists); the damaged cell files of this sweep, to be played again (cell
    id -> file, each named in a warning)."""
    _write_manifest(out, manifest)
    return _damaged_to_replay(out, cells, games_per_cell(manifest))


def cells_to_play(out: Path, cells: Sequence[Cell], damaged: Mapping[str, str]) -> list[Cell]:
    """The cells of ``cells`` that ``out`` holds no finished file of (or a damaged one)."""
    done = finished_cells(out) - set(damaged)
    return [c for c in cells if c.cell_id not in done]


def write_cell(
    out: Path,
    game_name: str,
    cell: Cell,
    played: Mapping[str, np.ndarray],
    seed: int,
    first: int = 0,
) -> None:
    """Write a cell's games ``first``, ``first + 1``, ... to its file, after the ``first``
    games it holds (the whole file written again, atomically: a cut never leaves half)."""
    path = out / CELLS_DIR / f"{cell.cell_id}.csv"
    text = rows_to_csv(cell_rows(game_name, cell, played, seed, first))
    if first:
        held = read_cell_rows(path)
        if len(held) != first:
            raise DataError(str(path), "rows", f"{len(held)} games, not the {first} expected")
        text = path.read_text() + text.partition("\n")[2]  # the same columns: no header again
    atomic_write_text(path, text)


def cell_rows_held(out: Path, cell: Cell) -> list[dict[str, Any]]:
    """The games a cell's file holds (none before its first round)."""
    path = out / CELLS_DIR / f"{cell.cell_id}.csv"
    return read_cell_rows(path) if path.exists() else []


def holds_sweep(out: Path, manifest: Mapping[str, Any], cells: Sequence[Cell]) -> bool:
    """Whether ``out`` holds the sweep of ``manifest`` with every one of ``cells`` played."""
    path = out / MANIFEST
    if not path.exists() or _differing_keys(json.loads(path.read_text()), manifest):
        return False
    return {c.cell_id for c in cells} <= finished_cells(out)


def load_timings(out: str | os.PathLike) -> dict[str, dict[str, float]]:
    """Per cell id, the ``games`` timed here and the ``core_seconds`` they took (none for a
    folder without ``timings.json``, or with a damaged one, which is logged)."""
    path = Path(out) / TIMINGS
    if not path.exists():
        return {}
    try:
        cells = json.loads(path.read_text())["cells"]
        return {
            str(cid): {"games": int(t["games"]), "core_seconds": float(t["core_seconds"])}
            for cid, t in cells.items()
            if int(t["games"]) > 0 and float(t["core_seconds"]) >= 0
        }
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        LOG.warning("%s: unreadable (%s); its cost estimates start again", path, exc)
        return {}


def record_timing(out: Path, cell_id: str, games: int, core_seconds: float) -> None:
    """Add a round of ``games`` that took ``core_seconds`` to the cell's timings."""
    cells = load_timings(out)
    held = cells.setdefault(cell_id, {"games": 0, "core_seconds": 0.0})
    held["games"] += int(games)
    held["core_seconds"] += float(core_seconds)
    atomic_write_text(out / TIMINGS, json.dumps({"cells": cells}, indent=1) + "\n")

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
import hashlib
import io
import itertools
import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.api import list_games, make_game
from boardsim.core.batch import COMPILED_POLICIES, play_games
from boardsim.core.errors import DataError, OptionError
from boardsim.core.game import Game
from boardsim.files import atomic_write_text
from boardsim.research.metrics import PER_GAME

LOG = logging.getLogger(__name__)
FORMAT = 1
SEAT_KEYS = ("seat", "side")
VARIANT_KEY = "variant"
SKILL_KEY = "skill"  # boardsim.research.skill: the agents of each cell
MANIFEST = "sweep.json"
CELLS_DIR = "cells"
RESULTS = "results.csv"
DEFAULT_CHUNK = 2048  # games per play_games call (progress granularity; results do not depend)
TRACE_CHUNK = 256  # games per traced call (their per-decision records are held in memory)
DEFAULT_TRACE_LEN = 4096  # decisions recorded a game (boardsim.research.traces)
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
def _option(game: Game, key: str) -> Any:
    for o in game.definition.options:
        if o.name == key:
            return o
    known = ", ".join(
        [o.name for o in game.definition.options] + [*SEAT_KEYS, VARIANT_KEY, SKILL_KEY]
    )
    raise OptionError(f"{game.name}: no grid key {key!r}; known keys: {known}")


def _typed(option: Any, text: str, game: str) -> Any:
    """The option value a grid word stands for (``none``, ``true``, ``3``, ``6-4-3-4-2``)."""
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
        from boardsim.research.skill import ladder

        return ladder(game.name)
    option = _option(game, key)
    difficulty = game.definition.difficulty
    if difficulty is not None and key == difficulty.option:
        return difficulty.levels()
    if option.choices is not None:
        return list(option.choices)
    # ``all`` of an int option lists its range only when it is short
    if option.low is not None and option.high is not None and option.high - option.low < 64:
        return list(range(option.low, option.high + 1))
    raise OptionError(f"{game.name}: {key}=all is not defined; list the values")


def variants(game: Game) -> list[str]:
    """``variant=all``: the game's declared variants in its rulebook's order
    (``GameDefinition.variants``), else every boolean option that is off by default."""
    return list(game.definition.variants) or _boolean_options(game)


def _boolean_options(game: Game) -> list[str]:
    return [
        o.name
        for o in game.definition.options
        if o.choices is not None and set(o.choices) == {False, True} and o.default is False
    ]


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
            grid[key] = [_typed(_option(game, key), w, game_name) for w in words]
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
    from boardsim.research.skill import expand_skill_words, rung_agents

    values = expand_skill_words(words, game_name, cells)
    for v in values:
        check_agents(rung_agents(v))
    return values


def grid_points(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every combination of the grid's values, the last key varying fastest."""
    keys = list(grid)
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*grid.values())]


# ------------------------------------------------------------------ cells
@dataclass(frozen=True)
class Cell:
    """One combination of grid values, ready to play."""

    point: dict[str, Any]  # the grid values (the cell's columns in the table)
    options: dict[str, Any]  # every option given to make_game
    policies: tuple[str, ...]  # one compiled policy per seat
    test_seat: int  # the agent under test's seat, -1 when the sweep has no seat key
    cell_id: str
    num_players: int = field(default=0)


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, default=str, separators=(",", ":"))


def cell_id(point: Mapping[str, Any]) -> str:
    """A short readable id of a grid point, unique in practice (a hash of its values)."""
    words = "_".join(f"{k}-{v}" for k, v in point.items()) or "base"
    words = "".join(c if c.isalnum() or c in "-_" else "-" for c in words)[:60]
    digest = hashlib.sha256(_canonical(point).encode()).hexdigest()[:10]
    return f"{words}__{digest}"


def _skill_agents(value: str, test_seat: int) -> tuple[str, ...]:
    """A skill rung's agents for ``_policies``: one for every seat, or TEST and FIELD."""
    from boardsim.research.skill import rung_agents

    agents = rung_agents(value)
    if len(agents) == 2 and test_seat < 0:
        raise OptionError(
            f"skill={value}: a TEST/FIELD pair needs a seat key (--grid seat=all) to place TEST"
        )
    if len(agents) == 1 and test_seat >= 0:
        return (agents[0], agents[0])
    return agents


def _seat_number(game: Game, value: Any) -> int:
    names = game.agent_names()
    if isinstance(value, str) and not value.lstrip("-").isdigit():
        if len(names) == game.num_players and value in names:
            return names.index(value)
        raise OptionError(
            f"{game.name}: seat {value!r} is not a seat of this cell; seats: "
            + ", ".join(f"{i} ({n})" for i, n in enumerate(names))
        )
    seat = int(value)
    if not 0 <= seat < game.num_players:
        raise OptionError(f"{game.name}: seat {seat} is out of range 0-{game.num_players - 1}")
    return seat


def _variant_options(game: Game, value: str) -> dict[str, bool]:
    if value == "none":
        return {}
    allowed = _boolean_options(game)
    out = {}
    for name in value.split("+"):
        if name not in allowed:
            raise OptionError(
                f"{game.name}: variant {name!r} is not an on/off option; choose from none, "
                + ", ".join(allowed)
            )
        out[name] = True
    return out


def check_agents(agents: Sequence[str]) -> tuple[str, ...]:
    """The agents as specs that play in compiled code (``random``, ``heuristic``,
    ``mcts[:SIMS]``, ``ppo[:PATH]``, ``alphazero[:PATH]``, ``alphazero-mcts:SIMS[:PATH]``,
    ``net:PATH``), or a clear error. Each searching seat keeps its own settings."""
    from boardsim.research.tournament import COMPILED_FAMILIES

    if not agents:
        raise OptionError("give at least one agent")
    for a in agents:
        if is_mcts(a):
            mcts_simulations(a)  # checked
        elif a.partition(":")[0] not in COMPILED_FAMILIES:
            raise OptionError(
                f"sweeps play compiled policies ({', '.join(COMPILED_POLICIES)}, mcts:SIMS, "
                f"ppo:PATH, alphazero[:PATH], alphazero-mcts:SIMS); {a!r} is not one (Python "
                "agents such as greedy are for `boardsim eval`/tournaments)"
            )
    return tuple(agents)


def is_mcts(agent: str) -> bool:
    """Whether ``agent`` is the compiled MCTS player (``mcts`` or ``mcts:SIMS``)."""
    return agent == "mcts" or agent.startswith("mcts:")


def mcts_simulations(agent: str) -> int | None:
    """The simulations of ``mcts:SIMS`` (checked), ``None`` for the default of bare ``mcts``."""
    from boardsim.agents.mcts import parse_simulations

    _, _, arg = agent.partition(":")
    return parse_simulations(arg) if arg else None


def _policies(game: Game, agents: tuple[str, ...], test_seat: int) -> tuple[str, ...]:
    n = game.num_players
    if test_seat >= 0:
        if len(agents) != 2:
            raise OptionError(
                "with a seat/side key give two agents: the one under test and the field "
                f"(--agents heuristic,random), not {len(agents)}"
            )
        side = game.teams[test_seat]
        return tuple(agents[0] if game.teams[p] == side else agents[1] for p in range(n))
    if len(agents) == 1:
        return agents * n
    if len(agents) != n:
        raise OptionError(
            f"{game.name}: {len(agents)} agents for {n} players; give one agent for every "
            "seat, one per seat, or a seat/side grid key with TEST,FIELD"
        )
    return agents


def plan_cells(
    game_name: str,
    grid: Mapping[str, Sequence[Any]],
    agents: Sequence[str],
    base_options: Mapping[str, Any] = {},
    skip_invalid: bool = False,
) -> tuple[list[Cell], list[dict[str, Any]]]:
    """The sweep's cells, every one checked; returns ``(cells, skipped)``.

    A grid point whose options the game refuses (a Hispania scenario needs more
    armies than the level has) raises :class:`OptionError`, or with
    ``skip_invalid`` is listed in ``skipped`` with the reason.
    """
    if game_name not in list_games():
        raise OptionError(f"no game {game_name!r}; games: {', '.join(list_games())}")
    agents_t = tuple(agents) if SKILL_KEY in grid else check_agents(agents)
    cells, skipped = [], []
    for point in grid_points(grid):
        try:
            cells += [
                make_cell(game_name, p, agents_t, base_options)
                for p in _expand_seats(game_name, point, base_options)
            ]
        except OptionError as exc:
            if not skip_invalid:
                raise
            skipped.append({"point": point, "reason": str(exc)})
    ids = [c.cell_id for c in cells]
    if len(set(ids)) != len(ids):
        raise OptionError("two grid points have the same values; list each value once")
    return cells, skipped


def _expand_seats(
    game_name: str, point: dict[str, Any], base_options: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """``point`` itself, or one point per seat when its seat key is ``all``."""
    key = next((k for k in SEAT_KEYS if point.get(k) == "all"), None)
    if key is None:
        return [point]
    rest = {k: v for k, v in point.items() if k not in (key, SKILL_KEY)}
    players = make_cell(game_name, rest, ("random",), base_options).num_players
    return [{**point, key: seat} for seat in range(players)]


def make_cell(
    game_name: str,
    point: Mapping[str, Any],
    agents: tuple[str, ...],
    base_options: Mapping[str, Any] = {},
) -> Cell:
    """The :class:`Cell` of one grid point (options resolved, seats and policies checked)."""
    options = dict(base_options)
    seat_value = None
    for key, value in point.items():
        if key in SEAT_KEYS:
            seat_value = value
        elif key not in (VARIANT_KEY, SKILL_KEY):
            options[key] = value
    if VARIANT_KEY in point:
        probe = make_game(game_name, **options)
        options.update(_variant_options(probe, str(point[VARIANT_KEY])))
    game = make_game(game_name, **options)
    test_seat = -1 if seat_value is None else _seat_number(game, seat_value)
    if SKILL_KEY in point:
        agents = _skill_agents(str(point[SKILL_KEY]), test_seat)
    return Cell(
        point=dict(point),
        options=options,
        policies=_policies(game, agents, test_seat),
        test_seat=test_seat,
        cell_id=cell_id(point),
        num_players=game.num_players,
    )


# ------------------------------------------------------------------ playing
def play_cell(
    game_name: str,
    cell: Cell,
    games: int,
    seed: int,
    threads: int | None = None,
    chunk: int = DEFAULT_CHUNK,
    on_chunk: Callable[[int], None] | None = None,
    metrics: bool = False,
) -> dict[str, np.ndarray]:
    """Play ``games`` games of ``cell`` (in chunks; the games do not depend on the chunking).

    With ``metrics`` the games are played with the compiled recorder (the same games)
    and each one's shape and tension metrics come back too (:data:`METRIC_COLUMNS`).
    """
    game = make_game(game_name, **cell.options)
    if metrics:
        play = _traced_player(cell.policies)
        chunk = min(chunk, TRACE_CHUNK)
    else:
        play = _player(cell.policies)
    parts = []
    for first in range(0, games, chunk):
        n = min(chunk, games - first)
        parts.append(play(game, n, seed, first, threads))
        if on_chunk is not None:
            on_chunk(n)
    if not parts:
        return {
            "returns": np.zeros((0, game.num_players)),
            "decisions": np.zeros(0, np.int64),
            "truncated": np.zeros(0, bool),
        }
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _traced_player(policies: tuple[str, ...]) -> Callable[..., dict[str, np.ndarray]]:
    """``play(game, n, seed, first, threads)`` with the compiled recorder: the games of
    :func:`_player`, with each game's metrics (``metrics.per_game_metrics``)."""
    from boardsim.agents.network import shipped_network_for
    from boardsim.research.metrics import per_game_metrics
    from boardsim.research.traces import play_traces

    judges: dict[int, Any] = {}

    def play(game: Game, n: int, seed: int, first: int, threads: int | None) -> dict:
        if id(game) not in judges:  # the network valuing the cell's positions, or None
            judges[id(game)] = shipped_network_for(game)
        values = judges[id(game)]
        traces = play_traces(game, n, policies, seed, first, threads, DEFAULT_TRACE_LEN, values)
        out = {
            "returns": traces.returns,
            "decisions": traces.decisions,
            "truncated": traces.truncated,
        }
        return {**out, **per_game_metrics(traces)}

    return play


def tension_values(game_name: str, cells: Sequence[Cell]) -> tuple[dict[str, Any], list[str]]:
    """What values the positions of a sweep with metrics: the manifest's ``values`` (the
    self-play network shipped for the game, which values a cell whose options it plays,
    and its SHA-256; or the progress measure: a folder of other values is another sweep)
    and ``valued_cells``, the ids of the cells it values."""
    from boardsim.agents.network import shipped_network_for
    from boardsim.research.reuse import network_sha256

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
NETWORK_FAMILIES = ("ppo", "alphazero", "alphazero-mcts", "net")


def cell_seats(game: Game, policies: Sequence[str]) -> list[Any]:
    """The compiled seats of a cell's specs (networks loaded; each search its own)."""
    from boardsim.agents import load

    seats = []
    for spec in policies:
        extra = {"strict_options": False} if spec.partition(":")[0] in NETWORK_FAMILIES else {}
        agent = load(spec, game, 0, **extra)
        if not hasattr(agent, "compiled_seat"):
            raise OptionError(
                f"{spec!r} plays in Python only; compiled games need compiled seats: choose "
                "mcts[:SIMS], random, heuristic, ppo:PATH, alphazero[:PATH], "
                "alphazero-mcts:SIMS[:PATH] or net:PATH"
            )
        seats.append(agent.compiled_seat())
    return seats


def _player(policies: tuple[str, ...]) -> Callable[..., dict[str, np.ndarray]]:
    """``play(game, n, seed, first, threads)`` for these seats: the batched engine's
    ``play_games``, or the compiled search's when a seat searches (same games)."""
    from boardsim.core.header import POLICY_MCTS

    made: dict[int, list[Any]] = {}

    def play(game: Game, n: int, seed: int, first: int, threads: int | None) -> dict:
        seats = made.setdefault(id(game), cell_seats(game, policies))
        if any(s.code == POLICY_MCTS for s in seats):
            from boardsim.agents import mcts

            return mcts.play_games(game, n, seats, seed, first, threads)
        return play_games(game, n, seats, seed, first, threads)

    return play


def winners(returns: np.ndarray) -> tuple[int, ...]:
    """The seats with the best return; nobody when all are equal and not positive.

    A shared loss (Hispania's Romans all at -1) or a full draw is nobody's win; a
    shared win (the Romans all at +1, tied winners) counts for every winner.
    """
    best, worst = float(returns.max()), float(returns.min())
    if best == worst and best <= 0:
        return ()
    return tuple(int(s) for s in np.flatnonzero(returns == best))


def cell_rows(game_name: str, cell: Cell, played: Mapping[str, np.ndarray], seed: int) -> list:
    """The tidy rows (one dict a game) of a played cell."""
    rows = []
    options = _canonical(cell.options)
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
            from boardsim.research.ray_backend import run_cells_on_ray

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

"""A sweep's cells: the grid's points made into cells ready to play, and a cell's games played.

A cell is one combination of grid values (:class:`Cell`): the options given to
``make_game``, one compiled agent a seat and, with a seat key, the seat under test.
:func:`plan_cells` makes and checks every cell of a grid (``boardsim.research.sweep``
parses the grid); :func:`play_cell` plays a cell's games through the research floor's
door to compiled play (:mod:`boardsim.research.players`), game ``k`` of every cell with
the run's seed and game index ``k`` (common random numbers across cells, the same games
whatever the backend, batch, chunk or thread split), and with ``metrics`` through the
compiled recorder (:mod:`boardsim.research.traces`: the same games), each game's shape
and tension metrics too.

The sweep keys of a grid: ``seat`` (alias ``side``: where the agent under test sits, a
seat number or name), ``variant`` (``none`` or boolean options joined by ``+``) and
``skill`` (the agents of each cell, :mod:`boardsim.research.skill`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardsim.agents.network import shipped_network_for
from boardsim.api import list_games, make_game
from boardsim.core.errors import OptionError
from boardsim.core.game import Game
from boardsim.research.metrics import per_game_metrics
from boardsim.research.players import (
    any_options_maker,
    check_compiled,
    compiled_seats,
    joined,
    play_compiled,
)
from boardsim.research.skill import expand_skill_words, rung_agents, skill_rungs
from boardsim.research.traces import play_traces

SEAT_KEYS = ("seat", "side")
VARIANT_KEY = "variant"
SKILL_KEY = "skill"  # boardsim.research.skill: the agents of each cell
DEFAULT_CHUNK = 2048  # games per compiled call (progress granularity; results do not depend)
TRACE_CHUNK = 256  # games per traced call (their per-decision records are held in memory)
DEFAULT_TRACE_LEN = 4096  # decisions recorded a game (boardsim.research.traces)


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
        return skill_rungs(game.name)
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
    """The ``skill`` values, ``rungs``/``depth`` expanded (the learned rungs
    those that play every one of ``cells``), each rung's agents checked."""
    values = expand_skill_words(words, game_name, cells)
    for v in values:
        check_compiled(rung_agents(v))
    return values


# ------------------------------------------------------------------ variants
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


# ------------------------------------------------------------------ cells
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


def canonical(obj: Any) -> str:
    """``obj`` as compact JSON with sorted keys: equal values, equal text."""
    return json.dumps(obj, sort_keys=True, default=str, separators=(",", ":"))


def cell_id(point: Mapping[str, Any]) -> str:
    """A short readable id of a grid point, unique in practice (a hash of its values)."""
    words = "_".join(f"{k}-{v}" for k, v in point.items()) or "base"
    words = "".join(c if c.isalnum() or c in "-_" else "-" for c in words)[:60]
    digest = hashlib.sha256(canonical(point).encode()).hexdigest()[:10]
    return f"{words}__{digest}"


def _skill_agents(value: str, test_seat: int) -> tuple[str, ...]:
    """A skill rung's agents for ``_policies``: one for every seat, or TEST and FIELD."""
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
    agents_t = tuple(agents) if SKILL_KEY in grid else check_compiled(agents)
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
Player = Callable[[Game, int, int, int, "int | None"], dict[str, np.ndarray]]


@dataclass(frozen=True)
class Round:
    """Games ``first`` to ``first + games - 1`` of a cell: a whole cell of a sweep of a fixed
    size, or one round of a sweep to a precision."""

    cell: Cell
    first: int
    games: int


def play_cells(
    game_name: str,
    rounds: Sequence[Round],
    seed: int,
    finish: Callable[[Round, Mapping[str, np.ndarray]], None],
    advance: Callable[[int], None],
    threads: int | None = None,
    chunk: int = DEFAULT_CHUNK,
    metrics: bool = False,
) -> None:
    """Play ``rounds`` one after another on this machine (``threads`` cores, all by default);
    ``finish(round, played)`` as each is done, ``advance(games)`` after each chunk. The
    local twin of ``boardsim.research.ray_backend.run_cells_on_ray``: the same games."""
    for r in rounds:
        played = play_cell(
            game_name, r.cell, r.games, seed, threads, chunk, advance, metrics, r.first
        )
        finish(r, played)


def play_cell(
    game_name: str,
    cell: Cell,
    games: int,
    seed: int,
    threads: int | None = None,
    chunk: int = DEFAULT_CHUNK,
    on_chunk: Callable[[int], None] | None = None,
    metrics: bool = False,
    first_game: int = 0,
) -> dict[str, np.ndarray]:
    """Play games ``first_game`` to ``first_game + games - 1`` of ``cell`` (in chunks; the
    games do not depend on the chunking, nor on where a round of them starts).

    With ``metrics`` the games are played with the compiled recorder (the same games)
    and each one's shape and tension metrics come back too
    (``boardsim.research.metrics.PER_GAME``).
    """
    game = make_game(game_name, **cell.options)
    seats = compiled_seats(game, cell.policies, any_options_maker)
    play = _traced_player(seats) if metrics else _compiled_player(seats)
    if metrics:
        chunk = min(chunk, TRACE_CHUNK)
    parts = []
    end = first_game + games
    for first in range(first_game, end, chunk):
        n = min(chunk, end - first)
        parts.append(play(game, n, seed, first, threads))
        if on_chunk is not None:
            on_chunk(n)
    return joined(game, parts)


def _compiled_player(seats: Sequence[Any]) -> Player:
    """``play(game, n, seed, first, threads)`` for these seats, entirely compiled."""

    def play(game: Game, n: int, seed: int, first: int, threads: int | None) -> dict:
        return play_compiled(game, seats, n, seed, first, threads, chunk=max(n, 1))

    return play


def _traced_player(seats: Sequence[Any]) -> Player:
    """``play(game, n, seed, first, threads)`` with the compiled recorder: the games of
    :func:`_compiled_player`, with each game's metrics (``metrics.per_game_metrics``),
    the positions valued by the network shipped for the game (or its progress measure)."""

    judges: dict[int, Any] = {}  # the network valuing each game's positions, or None

    def play(game: Game, n: int, seed: int, first: int, threads: int | None) -> dict:
        if id(game) not in judges:
            judges[id(game)] = shipped_network_for(game)
        values = judges[id(game)]
        traces = play_traces(game, n, seats, seed, first, threads, DEFAULT_TRACE_LEN, values)
        out = {
            "returns": traces.returns,
            "decisions": traces.decisions,
            "truncated": traces.truncated,
        }
        return {**out, **per_game_metrics(traces)}

    return play

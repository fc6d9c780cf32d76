"""Farrapos data: board, counters and battle table, from ``envs/farrapos/farrapos.toml``.

The file is the research reconstruction (every entry tagged source / derived /
reconstructed, see ``docs/rules/farrapos.md``). It is validated on load and turned
into UPPER_CASE numpy constants that the compiled rules freeze in.

Sides: ``REPUBLIC = 0`` (moves first), ``EMPIRE = 1``; ``NEUTRAL = -1``.
Pieces: the 48 military units (MU) in file order, then the 8 militia counters.
Phases are 1-based (1835 = phase 1); cities, regions and pieces are 0-based.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.core.data import data_path, load_toml, require
from boardsim.core.errors import DataError

FILE = "farrapos.toml"
SIDES = ("republic", "empire")
REPUBLIC, EMPIRE, NEUTRAL = 0, 1, -1
UNIT_TYPES = ("infantry", "cavalry", "artillery", "militia")
T_INFANTRY, T_CAVALRY, T_ARTILLERY, T_MILITIA = 0, 1, 2, 3
PROVENANCES = ("source", "derived", "reconstructed")
FULL, REDUCED = 0, 1


@dataclass(frozen=True)
class FarraposData:
    """The validated contents of the data file."""

    raw: dict[str, Any]
    city_ids: tuple[str, ...]
    city_names: tuple[str, ...]
    city_vp: np.ndarray  # int32 [C]
    city_region: np.ndarray  # int32 [C]
    city_port: np.ndarray  # int32 [C], 1 for a port
    city_start: np.ndarray  # int32 [C], side holding it at start or NEUTRAL
    city_xy: np.ndarray  # float64 [C, 2], board position in [0, 1]
    adjacency: np.ndarray  # int32 [C, C], 1 when a path line joins the two cities
    region_ids: tuple[str, ...]
    region_names: tuple[str, ...]
    region_colours: tuple[str, ...]
    region_bonus: np.ndarray  # int32 [R]
    ports_bonus: int
    piece_ids: tuple[str, ...]
    piece_side: np.ndarray  # int32 [P]
    piece_type: np.ndarray  # int32 [P]
    piece_mf: np.ndarray  # int32 [P, 2] (full, reduced)
    piece_af: np.ndarray
    piece_df: np.ndarray
    piece_setup: np.ndarray  # int32 [P], set-up city or -1
    piece_arrival: np.ndarray  # int32 [P], phase of arrival (1 for set-up units, 0 militia)
    piece_printed: np.ndarray  # bool [P], the rulebook prints where or when the unit enters
    table: np.ndarray  # int32 [6, 14]
    column_low: np.ndarray  # int32 [14]
    columns: tuple[str, ...]
    row_provenance: tuple[str, ...]
    start_vp: np.ndarray  # int32 [2] (republic, empire)
    victory_vp: int
    phases: int
    turns_per_phase: int
    first_year: int
    turn_side: np.ndarray  # int32 [turns], side moving on turn t (0-based)
    militia_per_side: int


def _prov(entry: dict[str, Any], file: str, where: str) -> None:
    p = entry.get("provenance")
    if p not in PROVENANCES:
        raise DataError(file, where, f"provenance {p!r} is not one of {', '.join(PROVENANCES)}")
    if not str(entry.get("reason", "")).strip():
        raise DataError(file, where, "missing reason")
    if "prov" in entry:
        tags = entry["prov"]
        if not isinstance(tags, dict) or any(v not in PROVENANCES for v in tags.values()):
            raise DataError(file, where, "prov fields must be source/derived/reconstructed")
        weakest = max(tags.values(), key=PROVENANCES.index)
        if weakest != p:
            raise DataError(
                file, where, f"provenance {p!r} is not the weakest field tag {weakest!r}"
            )


def _faces(entry: dict[str, Any], face: str, file: str, where: str) -> tuple[int, int, int]:
    f = require(entry, face, dict, file, where)
    vals = tuple(require(f, k, int, file, f"{where} {face}") for k in ("mf", "af", "df"))
    if any(v < 0 for v in vals):
        raise DataError(file, where, f"{face} factors must be >= 0, got {vals}")
    return vals  # type: ignore[return-value]


@dataclass(frozen=True)
class _Game:
    """``[game]``: the calendar, the VP and the militia count."""

    phases: int
    turns: int
    first_year: int
    order: list[str]
    start_vp: np.ndarray
    victory_vp: int
    militia_per_side: int


@dataclass
class _Table:
    """Columns of one kind of entry, in file order (filled entry by entry)."""

    ids: list[str] = field(default_factory=list)
    columns: dict[str, list[Any]] = field(default_factory=dict)

    def add(self, key: str, **values: Any) -> None:
        self.ids.append(key)
        for k, v in values.items():
            self.columns.setdefault(k, []).append(v)

    def col(self, name: str) -> list[Any]:
        return self.columns.get(name, [])


def _entries(
    raw: dict[str, Any], kind: str, table: _Table, file: str
) -> Iterator[tuple[dict[str, Any], str, str]]:
    """The ``[[kind]]`` entries in file order, each with its id, checked unique in ``table``
    (as it fills), and the words that place it in a message; each with its provenance."""
    for i, entry in enumerate(require(raw, kind, list, file, f"[[{kind}]]")):
        eid = require(entry, "id", str, file, f"[[{kind}]] #{i + 1}")
        where = f"{kind} {eid}"
        if eid in table.ids:
            raise DataError(file, where, f"duplicate {kind} id")
        _prov(entry, file, where)
        yield entry, eid, where


def parse(raw: dict[str, Any], file: str = FILE) -> FarraposData:
    """Validate a parsed data file; raise :class:`DataError` (file, entry, reason) on a fault.

    One check a table, in file order: ``[game]``, ``[[region]]``, ``[ports_bonus]``,
    ``[[city]]``, ``[[path]]``, ``[[unit]]`` and ``[[militia]]``, ``[battle_table]``.
    """
    game = _game(raw, file)
    regions = _regions(raw, file)
    pb = require(raw, "ports_bonus", dict, file, "[ports_bonus]")
    _prov(pb, file, "[ports_bonus]")
    ports_bonus = require(pb, "bonus_vp", int, file, "[ports_bonus]")
    cities = _cities(raw, regions.ids, file)
    adjacency = _paths(raw, cities.ids, file)
    pieces = _units(raw, cities, game, file)
    _militia(raw, pieces, file)
    _piece_counts(pieces, cities, game, file)
    bt = _battle_table(raw, file)
    data = FarraposData(
        raw=raw,
        city_ids=tuple(cities.ids),
        city_names=tuple(cities.col("name")),
        city_vp=np.array(cities.col("vp"), np.int32),
        city_region=np.array(cities.col("region"), np.int32),
        city_port=np.array(cities.col("port"), np.int32),
        city_start=np.array(cities.col("start"), np.int32),
        city_xy=np.array(cities.col("xy"), np.float64),
        adjacency=adjacency,
        region_ids=tuple(regions.ids),
        region_names=tuple(regions.col("name")),
        region_colours=tuple(regions.col("colour")),
        region_bonus=np.array(regions.col("bonus"), np.int32),
        ports_bonus=ports_bonus,
        piece_ids=tuple(pieces.ids),
        piece_side=np.array(pieces.col("side"), np.int32),
        piece_type=np.array(pieces.col("type"), np.int32),
        piece_mf=np.array(pieces.col("mf"), np.int32),
        piece_af=np.array(pieces.col("af"), np.int32),
        piece_df=np.array(pieces.col("df"), np.int32),
        piece_setup=np.array(pieces.col("setup"), np.int32),
        piece_arrival=np.array(pieces.col("arrival"), np.int32),
        piece_printed=np.array(pieces.col("printed"), bool),
        table=np.array(bt["rows"], np.int32),
        column_low=np.array(bt["column_low"], np.int32),
        columns=tuple(str(c) for c in bt["columns"]),
        row_provenance=tuple(bt["row_provenance"]),
        start_vp=game.start_vp.astype(np.int32),
        victory_vp=game.victory_vp,
        phases=game.phases,
        turns_per_phase=game.turns,
        first_year=game.first_year,
        turn_side=np.array([SIDES.index(s) for s in game.order], np.int32),
        militia_per_side=game.militia_per_side,
    )
    held = [vp_of_holding(data, data.city_start, s) for s in range(2)]
    if held != [int(v) for v in game.start_vp]:
        raise DataError(
            file, "[game] start_vp", f"start cities score {held}, not {list(game.start_vp)}"
        )
    return data


def _game(raw: dict[str, Any], file: str) -> _Game:
    """``[game]``: phases, turns (their sides, Republic first), VP to start and to win."""
    game = require(raw, "game", dict, file, "[game]")
    _prov(game, file, "[game]")
    phases = require(game, "phases", int, file, "[game]")
    turns = require(game, "turns_per_phase", int, file, "[game]")
    first_year = require(game, "first_year", int, file, "[game]")
    order = require(game, "turn_order", list, file, "[game]")
    if len(order) != turns or any(s not in SIDES for s in order) or order[0] != "republic":
        raise DataError(file, "[game] turn_order", f"need {turns} sides, Republic first: {order}")
    start_vp_t = require(game, "start_vp", dict, file, "[game]")
    start_vp = np.array([require(start_vp_t, s, int, file, "[game] start_vp") for s in SIDES])
    victory_vp = require(game, "victory_vp", int, file, "[game]")
    militia_per_side = require(game, "militia_per_side", int, file, "[game]")
    if phases < 1 or turns < 2 or victory_vp < 1:
        raise DataError(file, "[game]", "phases, turns_per_phase and victory_vp must be positive")
    return _Game(phases, turns, first_year, order, start_vp, victory_vp, militia_per_side)


def _regions(raw: dict[str, Any], file: str) -> _Table:
    """``[[region]]``: unique ids, a name, a colour and a bonus of at least 0 VP."""
    out = _Table()
    for r, rid, where in _entries(raw, "region", out, file):
        bonus = require(r, "bonus_vp", int, file, where)
        if bonus < 0:
            raise DataError(file, where, f"bonus_vp must be >= 0, got {bonus}")
        name = require(r, "name", str, file, where)
        colour = require(r, "colour", str, file, where)
        out.add(rid, name=name, colour=colour, bonus=bonus)
    return out


def _cities(raw: dict[str, Any], region_ids: list[str], file: str) -> _Table:
    """``[[city]]``: unique ids and names, 1-4 VP, a known region, port flag, start side,
    a position on the board; every region has a city."""
    out = _Table()
    for c, cid, where in _entries(raw, "city", out, file):
        name = require(c, "name", str, file, where)
        if name in out.col("name"):
            raise DataError(file, where, f"duplicate city name {name!r}")
        vp = require(c, "vp", int, file, where)
        if not 1 <= vp <= 4:
            raise DataError(file, where, f"vp {vp} is not in 1..4")
        region = require(c, "region", str, file, where)
        if region not in region_ids:
            raise DataError(file, where, f"unknown region {region!r}")
        port = require(c, "port", bool, file, where)
        start = require(c, "start", str, file, where)
        if start not in (*SIDES, "neutral"):
            raise DataError(file, where, f"start {start!r} is not republic/empire/neutral")
        x = require(c, "x", float | int, file, where)
        y = require(c, "y", float | int, file, where)
        if not (0 <= x <= 1 and 0 <= y <= 1):
            raise DataError(file, where, f"position ({x}, {y}) is off the board [0, 1]")
        out.add(
            cid,
            name=name,
            vp=vp,
            region=region_ids.index(region),
            port=int(port),
            start=SIDES.index(start) if start in SIDES else NEUTRAL,
            xy=(float(x), float(y)),
        )
    for k, rid in enumerate(region_ids):
        if k not in out.col("region"):
            raise DataError(file, f"region {rid}", "no city belongs to it")
    return out


def _paths(raw: dict[str, Any], city_ids: list[str], file: str) -> np.ndarray:
    """``[[path]]``: lines between two different cities, once each, joining the whole
    board; the 0/1 adjacency."""
    n = len(city_ids)
    adjacency = np.zeros((n, n), np.int32)
    for i, p in enumerate(require(raw, "path", list, file, "[[path]]")):
        a = require(p, "a", str, file, f"[[path]] #{i + 1}")
        b = require(p, "b", str, file, f"[[path]] #{i + 1}")
        where = f"path {a}-{b}"
        _prov(p, file, where)
        if a not in city_ids or b not in city_ids:
            raise DataError(file, where, "an end is not a city")
        ia, ib = city_ids.index(a), city_ids.index(b)
        if ia == ib or adjacency[ia, ib]:
            raise DataError(file, where, "loop or duplicate path line")
        adjacency[ia, ib] = adjacency[ib, ia] = 1
    seen, todo = {0}, [0]
    while todo:
        k = todo.pop()
        for j in np.flatnonzero(adjacency[k]):
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    if len(seen) != n:
        lost = sorted(city_ids[k] for k in set(range(n)) - seen)
        raise DataError(file, "[[path]]", f"board is not connected: {', '.join(lost)} unreachable")
    return adjacency


def _units(raw: dict[str, Any], cities: _Table, game: _Game, file: str) -> _Table:
    """``[[unit]]``: the military units, each with a side, a type, a full and a weaker
    reduced face, and either a set-up city its side holds or an arrival phase."""
    out = _Table()
    for u, uid, where in _entries(raw, "unit", out, file):
        s = require(u, "side", str, file, where)
        t = require(u, "type", str, file, where)
        if s not in SIDES or t not in UNIT_TYPES[:3]:
            raise DataError(file, where, f"bad side/type {s!r}/{t!r}")
        full = _faces(u, "full", file, where)
        red = _faces(u, "reduced", file, where)
        if min(full) < 1 or any(r > f for r, f in zip(red, full, strict=True)):
            raise DataError(file, where, "full face needs factors >= 1 and a weaker reduced face")
        if red[1] < 1:
            raise DataError(file, where, "reduced attack factor must be >= 1")
        setup, arrival = _unit_entry(u, s, cities, game, file, where)
        out.add(
            uid,
            side=SIDES.index(s),
            type=UNIT_TYPES.index(t),
            mf=(full[0], red[0]),
            af=(full[1], red[1]),
            df=(full[2], red[2]),
            setup=setup,
            arrival=arrival,
            printed=_prov_field(u, "placement") == "source",
        )
    return out


def _prov_field(entry: dict[str, Any], name: str) -> str:
    """The provenance of one field of an entry (its ``prov`` table's), else the entry's."""
    tags = entry.get("prov")
    if isinstance(tags, dict) and name in tags:
        return str(tags[name])
    return str(entry["provenance"])


def _unit_entry(
    u: dict[str, Any], s: str, cities: _Table, game: _Game, file: str, where: str
) -> tuple[int, int]:
    """A unit's set-up city (held by its side at start; phase 1) or its arrival (-1, the
    phase of its year): (set-up city or -1, arrival phase)."""
    has_setup, has_arrival = "setup" in u, "arrival" in u
    if has_setup == has_arrival:
        raise DataError(file, where, "needs exactly one of setup or arrival")
    if has_setup:
        city = require(u, "setup", str, file, where)
        if city not in cities.ids:
            raise DataError(file, where, f"unknown set-up city {city!r}")
        if cities.col("start")[cities.ids.index(city)] != SIDES.index(s):
            raise DataError(file, where, f"set-up city {city} is not held by {s} at start")
        return cities.ids.index(city), 1
    year = require(u, "arrival", int, file, where)
    phase = require(u, "phase", int, file, where)
    if phase != year - game.first_year + 1 or not 2 <= phase <= game.phases:
        raise DataError(file, where, f"arrival {year} / phase {phase} inconsistent")
    return -1, phase


def _militia(raw: dict[str, Any], pieces: _Table, file: str) -> None:
    """``[[militia]]``: after the units, ids apart from theirs, a side, one face with no
    movement and a defence of at least 1."""
    for i, m in enumerate(require(raw, "militia", list, file, "[[militia]]")):
        mid = require(m, "id", str, file, f"[[militia]] #{i + 1}")
        where = f"militia {mid}"
        if mid in pieces.ids:
            raise DataError(file, where, "duplicate id")
        _prov(m, file, where)
        s = require(m, "side", str, file, where)
        if s not in SIDES:
            raise DataError(file, where, f"bad side {s!r}")
        full = _faces(m, "full", file, where)
        if full[0] != 0 or full[2] < 1:
            raise DataError(file, where, "militia have no movement and a defence factor >= 1")
        pieces.add(
            mid,
            side=SIDES.index(s),
            type=T_MILITIA,
            mf=(full[0], full[0]),
            af=(full[1], full[1]),
            df=(full[2], full[2]),
            setup=-1,
            arrival=0,
            printed=False,
        )


def _piece_counts(pieces: _Table, cities: _Table, game: _Game, file: str) -> None:
    """``militia_per_side`` militia a side, and a set-up unit in every city held at start."""
    side, ptype, setup = pieces.col("side"), pieces.col("type"), pieces.col("setup")
    for s in range(2):
        n_mil = sum(1 for k in range(len(side)) if side[k] == s and ptype[k] == T_MILITIA)
        if n_mil != game.militia_per_side:
            raise DataError(
                file,
                "[[militia]]",
                f"{SIDES[s]} has {n_mil} militia, not {game.militia_per_side}",
            )
    starts = cities.col("start")
    for c in range(len(cities.ids)):
        if starts[c] != NEUTRAL and c not in setup:
            raise DataError(file, f"city {cities.ids[c]}", "a start city with no set-up unit")


def _battle_table(raw: dict[str, Any], file: str) -> dict[str, Any]:
    """``[battle_table]``: rising column bounds from 1, 6 die rows of counts (0 = '-') and
    a provenance tag a row."""
    bt = require(raw, "battle_table", dict, file, "[battle_table]")
    _prov(bt, file, "[battle_table]")
    columns = require(bt, "columns", list, file, "[battle_table]")
    low = require(bt, "column_low", list, file, "[battle_table]")
    rows = require(bt, "rows", list, file, "[battle_table]")
    rp = require(bt, "row_provenance", list, file, "[battle_table]")
    if len(low) != len(columns) or any(not isinstance(v, int) for v in low):
        raise DataError(file, "[battle_table] column_low", "one int bound per column")
    if any(low[i] >= low[i + 1] for i in range(len(low) - 1)) or low[0] != 1:
        raise DataError(file, "[battle_table] column_low", "bounds must rise from 1")
    if len(rows) != 6 or any(len(r) != len(columns) for r in rows):
        raise DataError(file, "[battle_table] rows", "need 6 die rows of one value per column")
    if any(not isinstance(v, int) or v < 0 for r in rows for v in r):
        raise DataError(file, "[battle_table] rows", "values must be ints >= 0 (0 = '-')")
    if len(rp) != 6 or any(p not in PROVENANCES for p in rp):
        raise DataError(file, "[battle_table] row_provenance", "one tag per row")
    return {"columns": columns, "column_low": low, "rows": rows, "row_provenance": rp}


def vp_of_holding(data: FarraposData, owner: np.ndarray, side: int) -> int:
    """VP of ``side`` when city ``c`` is held by ``owner[c]``: cities, regions, all ports."""
    total = int(data.city_vp[owner == side].sum())
    for r in range(len(data.region_ids)):
        if np.all(owner[data.city_region == r] == side):
            total += int(data.region_bonus[r])
    if np.all(owner[data.city_port == 1] == side):
        total += data.ports_bonus
    return total


def load(path: Path | str | None = None) -> FarraposData:
    """Load and validate the data file (default: ``envs/farrapos/farrapos.toml``)."""
    p = Path(path) if path is not None else data_path("farrapos", FILE)
    return parse(load_toml(p), str(p))


DATA = load()
# the data files the kernels freeze into numba's cache (GameKernels.from_package)
DATA_FILES = (data_path("farrapos", FILE),)

NUM_CITIES = len(DATA.city_ids)
NUM_REGIONS = len(DATA.region_ids)
NUM_PIECES = len(DATA.piece_ids)
NUM_UNITS = int(np.sum(DATA.piece_type != T_MILITIA))  # military units (MU)
NUM_MILITIA = NUM_PIECES - NUM_UNITS
MAX_DEGREE = int(DATA.adjacency.sum(axis=1).max())

CITY_IDS = DATA.city_ids
CITY_NAMES = DATA.city_names
CITY_VP = DATA.city_vp
CITY_REGION = DATA.city_region
CITY_PORT = DATA.city_port
CITY_START = DATA.city_start
CITY_XY = DATA.city_xy
ADJACENCY = DATA.adjacency
NEIGHBORS = np.full((NUM_CITIES, MAX_DEGREE), -1, np.int32)
DEGREE = DATA.adjacency.sum(axis=1).astype(np.int32)
for _c in range(NUM_CITIES):
    _nb = np.flatnonzero(DATA.adjacency[_c])
    NEIGHBORS[_c, : len(_nb)] = _nb
REGION_IDS = DATA.region_ids
REGION_NAMES = DATA.region_names
REGION_BONUS = DATA.region_bonus
PORTS_BONUS = DATA.ports_bonus
PIECE_IDS = DATA.piece_ids
PIECE_SIDE = DATA.piece_side
PIECE_TYPE = DATA.piece_type
PIECE_MF = DATA.piece_mf
PIECE_AF = DATA.piece_af
PIECE_DF = DATA.piece_df
PIECE_SETUP = DATA.piece_setup
PIECE_ARRIVAL = DATA.piece_arrival


def entry_order(
    side: np.ndarray, setup: np.ndarray, arrival: np.ndarray, num_units: int
) -> np.ndarray:
    """Each MU's rank among its side's MU in order of entry (the set-up units, then the
    others by arrival phase, then file order): the options ``republic_mu`` / ``empire_mu``
    keep a side's first ``n`` and withhold the rest, its latest arrivals. Militia rank -1."""
    rank = np.full(len(side), -1, np.int32)
    for s in range(2):
        units = [u for u in range(num_units) if side[u] == s]
        order = sorted(units, key=lambda u: (bool(setup[u] < 0), int(arrival[u]), u))
        for k, u in enumerate(order):
            rank[u] = k
    return rank


PIECE_ENTRY_RANK = entry_order(DATA.piece_side, DATA.piece_setup, DATA.piece_arrival, NUM_UNITS)
# a side's MU in the data file, and those on the map at the start (the fewest it may field)
SIDE_UNITS = tuple(int(((PIECE_ENTRY_RANK >= 0) & (PIECE_SIDE == s)).sum()) for s in range(2))
SIDE_SET_UP_UNITS = tuple(
    int(((PIECE_ENTRY_RANK >= 0) & (PIECE_SIDE == s) & (PIECE_SETUP >= 0)).sum()) for s in range(2)
)


# the fewest MU a side may field: its set-up units and every unit up to its last arrival
# the rulebook prints (the Republic's 4 MU of 1836, l.79), since the latest enter last
def fewest_units(side: int) -> int:
    """The fewest MU ``side`` may field (``republic_mu`` / ``empire_mu``'s floor): its set-up
    units, and every unit up to the last whose arrival the rulebook prints."""
    printed = [
        int(PIECE_ENTRY_RANK[u]) + 1
        for u in range(NUM_UNITS)
        if PIECE_SIDE[u] == side and DATA.piece_printed[u]
    ]
    return max([SIDE_SET_UP_UNITS[side], *printed])


SIDE_FEWEST_UNITS = (fewest_units(0), fewest_units(1))
BATTLE_TABLE = DATA.table
COLUMN_LOW = DATA.column_low
START_VP = DATA.start_vp
VICTORY_VP = DATA.victory_vp
PHASES = DATA.phases
TURNS_PER_PHASE = DATA.turns_per_phase
FIRST_YEAR = DATA.first_year
TURN_SIDE = DATA.turn_side
MILITIA_PER_SIDE = DATA.militia_per_side
for _a in (
    CITY_VP, CITY_REGION, CITY_PORT, CITY_START, CITY_XY, ADJACENCY, NEIGHBORS, DEGREE,
    REGION_BONUS, PIECE_SIDE, PIECE_TYPE, PIECE_MF, PIECE_AF, PIECE_DF, PIECE_SETUP,
    PIECE_ARRIVAL, PIECE_ENTRY_RANK, BATTLE_TABLE, COLUMN_LOW, START_VP, TURN_SIDE,
):  # fmt: skip
    _a.setflags(write=False)

"""Farrapos data: board, counters and battle table, from ``envs/farrapos/farrapos.toml``.

The file is the research reconstruction (every entry tagged source / derived /
reconstructed, see ``docs/rules/farrapos.md``). It is validated on load and turned
into UPPER_CASE numpy constants that the compiled rules freeze in.

Sides: ``REPUBLIC = 0`` (moves first), ``EMPIRE = 1``; ``NEUTRAL = -1``.
Pieces: the 48 military units (MU) in file order, then the 8 militia counters.
Phases are 1-based (1835 = phase 1); cities, regions and pieces are 0-based.
"""

from __future__ import annotations

from dataclasses import dataclass
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


def parse(raw: dict[str, Any], file: str = FILE) -> FarraposData:
    """Validate a parsed data file; raise :class:`DataError` (file, entry, reason) on a fault."""
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

    # ------------------------------------------------------------ regions
    regions = require(raw, "region", list, file, "[[region]]")
    region_ids: list[str] = []
    region_names, region_colours, region_bonus = [], [], []
    for i, r in enumerate(regions):
        rid = require(r, "id", str, file, f"[[region]] #{i + 1}")
        where = f"region {rid}"
        if rid in region_ids:
            raise DataError(file, where, "duplicate region id")
        _prov(r, file, where)
        bonus = require(r, "bonus_vp", int, file, where)
        if bonus < 0:
            raise DataError(file, where, f"bonus_vp must be >= 0, got {bonus}")
        region_ids.append(rid)
        region_names.append(require(r, "name", str, file, where))
        region_colours.append(require(r, "colour", str, file, where))
        region_bonus.append(bonus)
    pb = require(raw, "ports_bonus", dict, file, "[ports_bonus]")
    _prov(pb, file, "[ports_bonus]")
    ports_bonus = require(pb, "bonus_vp", int, file, "[ports_bonus]")

    # ------------------------------------------------------------ cities
    cities = require(raw, "city", list, file, "[[city]]")
    city_ids: list[str] = []
    names, vps, regs, ports, starts, xy = [], [], [], [], [], []
    for i, c in enumerate(cities):
        cid = require(c, "id", str, file, f"[[city]] #{i + 1}")
        where = f"city {cid}"
        if cid in city_ids:
            raise DataError(file, where, "duplicate city id")
        _prov(c, file, where)
        name = require(c, "name", str, file, where)
        if name in names:
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
        city_ids.append(cid)
        names.append(name)
        vps.append(vp)
        regs.append(region_ids.index(region))
        ports.append(int(port))
        starts.append(SIDES.index(start) if start in SIDES else NEUTRAL)
        xy.append((float(x), float(y)))
    n = len(city_ids)
    for k, rid in enumerate(region_ids):
        if k not in regs:
            raise DataError(file, f"region {rid}", "no city belongs to it")

    # ------------------------------------------------------------ path lines
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

    # ------------------------------------------------------------ pieces
    piece_ids: list[str] = []
    side, ptype, mf, af, df, setup, arrival = [], [], [], [], [], [], []
    for i, u in enumerate(require(raw, "unit", list, file, "[[unit]]")):
        uid = require(u, "id", str, file, f"[[unit]] #{i + 1}")
        where = f"unit {uid}"
        if uid in piece_ids:
            raise DataError(file, where, "duplicate unit id")
        _prov(u, file, where)
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
        has_setup, has_arrival = "setup" in u, "arrival" in u
        if has_setup == has_arrival:
            raise DataError(file, where, "needs exactly one of setup or arrival")
        if has_setup:
            city = require(u, "setup", str, file, where)
            if city not in city_ids:
                raise DataError(file, where, f"unknown set-up city {city!r}")
            if starts[city_ids.index(city)] != SIDES.index(s):
                raise DataError(file, where, f"set-up city {city} is not held by {s} at start")
            setup.append(city_ids.index(city))
            arrival.append(1)
        else:
            year = require(u, "arrival", int, file, where)
            phase = require(u, "phase", int, file, where)
            if phase != year - first_year + 1 or not 2 <= phase <= phases:
                raise DataError(file, where, f"arrival {year} / phase {phase} inconsistent")
            setup.append(-1)
            arrival.append(phase)
        piece_ids.append(uid)
        side.append(SIDES.index(s))
        ptype.append(UNIT_TYPES.index(t))
        mf.append((full[0], red[0]))
        af.append((full[1], red[1]))
        df.append((full[2], red[2]))
    for i, m in enumerate(require(raw, "militia", list, file, "[[militia]]")):
        mid = require(m, "id", str, file, f"[[militia]] #{i + 1}")
        where = f"militia {mid}"
        if mid in piece_ids:
            raise DataError(file, where, "duplicate id")
        _prov(m, file, where)
        s = require(m, "side", str, file, where)
        if s not in SIDES:
            raise DataError(file, where, f"bad side {s!r}")
        full = _faces(m, "full", file, where)
        if full[0] != 0 or full[2] < 1:
            raise DataError(file, where, "militia have no movement and a defence factor >= 1")
        piece_ids.append(mid)
        side.append(SIDES.index(s))
        ptype.append(T_MILITIA)
        mf.append((full[0], full[0]))
        af.append((full[1], full[1]))
        df.append((full[2], full[2]))
        setup.append(-1)
        arrival.append(0)
    for s in range(2):
        n_mil = sum(1 for k in range(len(side)) if side[k] == s and ptype[k] == T_MILITIA)
        if n_mil != militia_per_side:
            raise DataError(
                file, "[[militia]]", f"{SIDES[s]} has {n_mil} militia, not {militia_per_side}"
            )
    for c in range(n):
        if starts[c] != NEUTRAL and c not in setup:
            raise DataError(file, f"city {city_ids[c]}", "a start city with no set-up unit")

    # ------------------------------------------------------------ battle table
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

    data = FarraposData(
        raw=raw,
        city_ids=tuple(city_ids),
        city_names=tuple(names),
        city_vp=np.array(vps, np.int32),
        city_region=np.array(regs, np.int32),
        city_port=np.array(ports, np.int32),
        city_start=np.array(starts, np.int32),
        city_xy=np.array(xy, np.float64),
        adjacency=adjacency,
        region_ids=tuple(region_ids),
        region_names=tuple(region_names),
        region_colours=tuple(region_colours),
        region_bonus=np.array(region_bonus, np.int32),
        ports_bonus=ports_bonus,
        piece_ids=tuple(piece_ids),
        piece_side=np.array(side, np.int32),
        piece_type=np.array(ptype, np.int32),
        piece_mf=np.array(mf, np.int32),
        piece_af=np.array(af, np.int32),
        piece_df=np.array(df, np.int32),
        piece_setup=np.array(setup, np.int32),
        piece_arrival=np.array(arrival, np.int32),
        table=np.array(rows, np.int32),
        column_low=np.array(low, np.int32),
        columns=tuple(str(c) for c in columns),
        row_provenance=tuple(rp),
        start_vp=start_vp.astype(np.int32),
        victory_vp=victory_vp,
        phases=phases,
        turns_per_phase=turns,
        first_year=first_year,
        turn_side=np.array([SIDES.index(s) for s in order], np.int32),
        militia_per_side=militia_per_side,
    )
    held = [vp_of_holding(data, data.city_start, s) for s in range(2)]
    if held != [int(v) for v in start_vp]:
        raise DataError(file, "[game] start_vp", f"start cities score {held}, not {list(start_vp)}")
    return data


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
# the data files the kernels freeze into numba's cache (see GameKernels in games/*/engine.py)
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
    PIECE_ARRIVAL, BATTLE_TABLE, COLUMN_LOW, START_VP, TURN_SIDE,
):  # fmt: skip
    _a.setflags(write=False)

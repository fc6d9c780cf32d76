"""Hispania's data: the board, the rule tables and the scenarios, from ``envs/hispania``.

Everything is validated on load and turned into UPPER_CASE numpy constants that the
compiled rules freeze in. Malformed data raises :class:`DataError` (file, entry, reason).

Space indices (0-based), fixed by this loader whatever the file order:

- Hispanic city ``p-n`` (province ``p`` = 0..5 for I..VI, number ``n`` = 1..6) is
  ``p * 6 + n - 1`` (0..35), so the revolt roll maps straight to a space;
- the Roman provinces' cities follow, Ulterior 36..39 then Citerior 40..43, each by
  ascending shield value;
- sea number ``k`` (1..5) is ``43 + k`` (44..48).

Province indices: 0..5 = I..VI, 6 = Ulterior, 7 = Citerior (this is also the order in
which the Hispanic armies move). General indices: 0 praetor of Ulterior (turn I, red),
1 praetor of Citerior (turn II, yellow), 2 consul (turn III, blue), 3 proconsul.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardsim.core.data import data_path, load_toml, require
from boardsim.core.errors import DataError

BOARD_FILE = "board.toml"
RULES_FILE = "rules.toml"
SCENARIOS_FILE = "scenarios.toml"

HISPANIC_IDS = ("I", "II", "III", "IV", "V", "VI")
ROMAN_IDS = ("Ulterior", "Citerior")
PROVINCE_IDS = HISPANIC_IDS + ROMAN_IDS
TAGS = ("source", "derived", "reconstructed")
GENERAL_IDS = ("praetor_ulterior", "praetor_citerior", "consul", "proconsul")

NUM_HISPANIC = 6
NUM_PROVINCES = 8
NUM_CITIES = 44
NUM_SEAS = 5
NUM_SPACES = 49
FIRST_SEA = 44
MAX_DEGREE = 8


@dataclass(frozen=True)
class BoardData:
    """The validated board, in the loader's fixed space order."""

    space_names: tuple[str, ...]
    province_names: tuple[str, ...]
    city_province: np.ndarray  # [44]
    city_number: np.ndarray  # [44], 0 for Roman cities
    city_shield: np.ndarray  # [44]
    city_capital: np.ndarray  # [44] 0/1
    link_a: np.ndarray  # [L] space index
    link_b: np.ndarray
    link_segments: np.ndarray
    link_sea: np.ndarray  # 1 for a sea link (at least one end a sea)
    link_names: tuple[str, ...]
    link_src: tuple[str, ...]
    adj_link: np.ndarray  # [49, 49] link index or -1
    neighbours: np.ndarray  # [49, MAX_DEGREE] space index, -1 padded
    degree: np.ndarray  # [49]
    initial_roads: np.ndarray  # [L] 0/1
    plus_one_city: np.ndarray  # [2] the "+1" disc city of Ulterior, Citerior
    time_track_years: np.ndarray  # [11]
    space_x: np.ndarray  # [49] board drawing position, 0..1
    space_y: np.ndarray
    lethe_north: np.ndarray  # [44] 0/1
    lethe_crossings: np.ndarray  # [L] 0/1
    raw: dict[str, Any]


@dataclass(frozen=True)
class RuleTables:
    denarii: tuple[int, int, int]
    garrisons: tuple[int, int, int]
    fleets: tuple[int, int, int]
    roads: tuple[int, int, int]
    armies: tuple[int, int, int]
    revolts: int
    setup_revolts_by_die: tuple[int, ...]


def _fail(file: str, entry: str, reason: str) -> DataError:
    return DataError(file, entry, reason)


def _tag(table: dict[str, Any], key: str, file: str, entry: str) -> str:
    tag = table.get(key)
    if tag not in TAGS:
        raise _fail(file, entry, f"provenance {key}={tag!r} is not one of {', '.join(TAGS)}")
    return tag


@dataclass
class _Spaces:
    """The spaces as the board's tables name and number them (filled table by table)."""

    index: dict[str, int] = field(default_factory=dict)
    names: list[str] = field(default_factory=lambda: [""] * NUM_SPACES)
    by_name: dict[str, dict[str, Any]] = field(default_factory=dict)  # city name: its table
    province: np.ndarray = field(default_factory=lambda: np.full(NUM_CITIES, -1, np.int32))
    number: np.ndarray = field(default_factory=lambda: np.zeros(NUM_CITIES, np.int32))
    shield: np.ndarray = field(default_factory=lambda: np.zeros(NUM_CITIES, np.int32))
    capital: np.ndarray = field(default_factory=lambda: np.zeros(NUM_CITIES, np.int32))
    xs: np.ndarray = field(default_factory=lambda: np.zeros(NUM_SPACES, np.float64))
    ys: np.ndarray = field(default_factory=lambda: np.zeros(NUM_SPACES, np.float64))

    def add(self, name: str, i: int) -> None:
        self.index[name] = i
        self.names[i] = name


@dataclass
class _Links:
    """The links in file order (the link index) and the space-by-space link table."""

    a: list[int] = field(default_factory=list)
    b: list[int] = field(default_factory=list)
    segments: list[int] = field(default_factory=list)
    sea: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    src: list[str] = field(default_factory=list)
    adj: np.ndarray = field(default_factory=lambda: np.full((NUM_SPACES, NUM_SPACES), -1, np.int32))


def parse_board(raw: dict[str, Any], file: str = BOARD_FILE) -> BoardData:
    """Validate a parsed board TOML and build the constant arrays (one check a table)."""
    prov_by_id = _provinces(raw, file)
    cities = require(raw, "cities", list, file, "[[cities]]")
    seas = require(raw, "seas", list, file, "[[seas]]")
    if len(cities) != NUM_CITIES:
        raise _fail(file, "[[cities]]", f"{len(cities)} cities, expected {NUM_CITIES}")
    if len(seas) != NUM_SEAS:
        raise _fail(file, "[[seas]]", f"{len(seas)} seas, expected {NUM_SEAS}")
    spaces = _Spaces()
    _cities(cities, spaces, file)
    _capitals(prov_by_id, spaces, file)
    _seas(seas, spaces, file)
    links = _links(require(raw, "links", list, file, "[[links]]"), spaces, file)
    nbrs, deg = _neighbours(links.adj, spaces.names, file)
    _connected(links.adj, file)
    roads = _roads(require(raw, "roads", list, file, "[[roads]]"), spaces, links, file)
    plus = _plus_one(require(raw, "plus_one", dict, file, "[plus_one]"), spaces, file)
    years = _time_track(require(raw, "time_track", dict, file, "[time_track]"), file)
    north, cross = _lethe(require(raw, "lethe", dict, file, "[lethe]"), spaces, links, file)
    return BoardData(
        space_names=tuple(spaces.names),
        province_names=tuple(prov_by_id[p]["name"] for p in PROVINCE_IDS),
        city_province=spaces.province,
        city_number=spaces.number,
        city_shield=spaces.shield,
        city_capital=spaces.capital,
        link_a=np.asarray(links.a, np.int32),
        link_b=np.asarray(links.b, np.int32),
        link_segments=np.asarray(links.segments, np.int32),
        link_sea=np.asarray(links.sea, np.int32),
        link_names=tuple(links.names),
        link_src=tuple(links.src),
        adj_link=links.adj,
        neighbours=nbrs,
        degree=deg,
        initial_roads=roads,
        plus_one_city=plus,
        time_track_years=np.asarray(years, np.int32),
        space_x=spaces.xs,
        space_y=spaces.ys,
        lethe_north=north,
        lethe_crossings=cross,
        raw=raw,
    )


def _provinces(raw: dict[str, Any], file: str) -> dict[str, dict[str, Any]]:
    """``[[provinces]]``: the 8 provinces, each once, with a provenance tag; by id."""
    provinces = require(raw, "provinces", list, file, "[[provinces]]")
    ids = [require(p, "id", str, file, "[[provinces]]") for p in provinces]
    if sorted(ids) != sorted(PROVINCE_IDS):
        raise _fail(file, "[[provinces]]", f"ids {ids} are not {list(PROVINCE_IDS)}")
    prov_by_id = {p["id"]: p for p in provinces}
    for p in provinces:
        _tag(p, "name_src", file, f"province {p['id']}")
    return prov_by_id


def _cities(cities: list[Any], spaces: _Spaces, file: str) -> None:
    """``[[cities]]``: each city valid, numbered (Hispanic ``p-n``; Roman by province and
    shield), every Hispanic ``p-n`` present; then the city arrays."""
    roman_rank: dict[str, list[tuple[int, str]]] = {r: [] for r in ROMAN_IDS}
    for k, c in enumerate(cities):
        name = require(c, "name", str, file, f"[[cities]] #{k + 1}")
        where = f"city {name}"
        if name in spaces.by_name:
            raise _fail(file, where, "duplicate city name")
        spaces.by_name[name] = c
        prov, num, sh, cap = _city_fields(c, file, where)
        if prov in HISPANIC_IDS:
            _hispanic_city(name, prov, num, sh, cap, spaces, file)
        else:
            if num != 0 or cap:
                raise _fail(file, where, "a Roman city has number 0 and is not a capital")
            if not 1 <= sh <= 6:
                raise _fail(file, where, f"shield {sh} outside 1..6")
            roman_rank[prov].append((sh, name))
    for r, prov in enumerate(ROMAN_IDS):
        ranked = sorted(roman_rank[prov])
        if len(ranked) != 4 or len({s for s, _ in ranked}) != 4:
            raise _fail(file, f"province {prov}", "needs 4 cities with distinct shields")
        for j, (_, name) in enumerate(ranked):
            spaces.add(name, 36 + 4 * r + j)
    missing = [
        f"{p}-{n}"
        for p in HISPANIC_IDS
        for n in range(1, 7)
        if not spaces.names[HISPANIC_IDS.index(p) * 6 + n - 1]
    ]
    if missing:
        raise _fail(file, "[[cities]]", f"no city for {', '.join(missing)}")
    for name, c in spaces.by_name.items():
        i = spaces.index[name]
        spaces.province[i] = PROVINCE_IDS.index(c["province"])
        spaces.number[i] = c["number"]
        spaces.shield[i] = c["shield"]
        spaces.capital[i] = 1 if c["capital"] else 0
        spaces.xs[i], spaces.ys[i] = c["x"], c["y"]


def _city_fields(c: dict[str, Any], file: str, where: str) -> tuple[str, int, int, bool]:
    """One city's province, number, shield and capital flag, its provenance tags (with a
    reason unless ``source``) and its drawing position in [0, 1]."""
    prov = require(c, "province", str, file, where)
    if prov not in PROVINCE_IDS:
        raise _fail(file, where, f"unknown province {prov!r}")
    num = require(c, "number", int, file, where)
    sh = require(c, "shield", int, file, where)
    cap = require(c, "capital", bool, file, where)
    for g in ("province", "number", "shield", "geo", "coast", "board"):
        tag = _tag(c, g + "_src", file, where)
        if tag != "source" and not c.get(g + "_why"):
            raise _fail(file, where, f"{g}_src={tag} needs a {g}_why reason")
    for key in ("x", "y"):
        v = require(c, key, (int, float), file, where)
        if not 0.0 <= v <= 1.0:
            raise _fail(file, where, f"{key}={v} outside [0, 1]")
    return prov, num, sh, cap


def _hispanic_city(
    name: str, prov: str, num: int, sh: int, cap: bool, spaces: _Spaces, file: str
) -> None:
    """A Hispanic city ``p-n``: number 1..6 and its shield, the capital city 6; space
    ``p * 6 + n - 1``."""
    where = f"city {name}"
    p = HISPANIC_IDS.index(prov)
    if not 1 <= num <= 6:
        raise _fail(file, where, f"number {num} outside 1..6")
    if sh != num:
        raise _fail(file, where, f"shield {sh} differs from number {num}")
    if cap != (num == 6):
        raise _fail(file, where, "capital flag must mark city 6 of a Hispanic province")
    i = p * 6 + num - 1
    if spaces.names[i]:
        raise _fail(file, where, f"{prov}-{num} is also {spaces.names[i]}")
    spaces.add(name, i)


def _capitals(prov_by_id: dict[str, dict[str, Any]], spaces: _Spaces, file: str) -> None:
    """Each Hispanic province names its city 6 as its capital."""
    for p in HISPANIC_IDS:
        cap_name = prov_by_id[p].get("capital")
        if cap_name != spaces.names[HISPANIC_IDS.index(p) * 6 + 5]:
            raise _fail(file, f"province {p}", f"capital {cap_name!r} is not its city 6")


def _seas(seas: list[Any], spaces: _Spaces, file: str) -> None:
    """``[[seas]]``: numbers 1..5, each once, names apart from the cities', tagged."""
    sea_seen = set()
    for k, s in enumerate(seas):
        name = require(s, "name", str, file, f"[[seas]] #{k + 1}")
        num = require(s, "number", int, file, f"sea {name}")
        if not 1 <= num <= NUM_SEAS or num in sea_seen:
            raise _fail(file, f"sea {name}", f"number {num} not a fresh 1..5")
        if name in spaces.index:
            raise _fail(file, f"sea {name}", "name clashes with a city")
        for g in ("number_src", "name_src", "position_src"):
            _tag(s, g, file, f"sea {name}")
        sea_seen.add(num)
        i = FIRST_SEA + num - 1
        spaces.add(name, i)
        spaces.xs[i], spaces.ys[i] = require(s, "x", (int, float), file, f"sea {name}"), s["y"]


def _links(links: list[Any], spaces: _Spaces, file: str) -> _Links:
    """``[[links]]``: between two known spaces, once; land links of 1-3 segments, sea
    links (a sea at one end at least) of 1; tagged, with a reason."""
    out = _Links()
    index = spaces.index
    for k, ln in enumerate(links):
        a = require(ln, "a", str, file, f"[[links]] #{k + 1}")
        b = require(ln, "b", str, file, f"[[links]] #{k + 1}")
        where = f"link {a}-{b}"
        if a not in index or b not in index:
            raise _fail(file, where, "joins an unknown space")
        ia, ib = index[a], index[b]
        if ia == ib:
            raise _fail(file, where, "joins a space to itself")
        if out.adj[ia, ib] >= 0:
            raise _fail(file, where, "duplicate link")
        kind = require(ln, "kind", str, file, where)
        seg = require(ln, "segments", int, file, where)
        is_sea = ia >= FIRST_SEA or ib >= FIRST_SEA
        if kind not in ("land", "sea") or (kind == "sea") != is_sea:
            raise _fail(file, where, f"kind {kind!r} does not match its ends")
        if seg not in (1, 2, 3) or (is_sea and seg != 1):
            raise _fail(file, where, f"segments {seg} (land 1-3, sea 1)")
        _tag(ln, "src", file, where)
        _tag(ln, "segments_src", file, where)
        if not ln.get("why"):
            raise _fail(file, where, "missing why")
        out.adj[ia, ib] = out.adj[ib, ia] = len(out.a)
        out.a.append(ia)
        out.b.append(ib)
        out.segments.append(seg)
        out.sea.append(1 if is_sea else 0)
        out.names.append(f"{a}-{b}")
        out.src.append(ln["src"])
    return out


def _neighbours(adj: np.ndarray, names: list[str], file: str) -> tuple[np.ndarray, np.ndarray]:
    """Each space's neighbours (at least one, at most ``MAX_DEGREE``) and their count."""
    nbrs = np.full((NUM_SPACES, MAX_DEGREE), -1, np.int32)
    deg = np.zeros(NUM_SPACES, np.int32)
    for s in range(NUM_SPACES):
        row = [t for t in range(NUM_SPACES) if adj[s, t] >= 0]
        if not row:
            raise _fail(file, f"space {names[s]}", "has no link")
        if len(row) > MAX_DEGREE:
            raise _fail(file, f"space {names[s]}", f"{len(row)} links exceed {MAX_DEGREE}")
        nbrs[s, : len(row)] = row
        deg[s] = len(row)
    return nbrs, deg


def _connected(adj: np.ndarray, file: str) -> None:
    """Every space can be reached from every other by the links."""
    seen = {0}
    todo = [0]
    while todo:
        u = todo.pop()
        for t in range(NUM_SPACES):
            if adj[u, t] >= 0 and t not in seen:
                seen.add(t)
                todo.append(t)
    if len(seen) != NUM_SPACES:
        raise _fail(file, "[[links]]", "the board is not connected")


def _roads(roads_table: list[Any], spaces: _Spaces, links: _Links, file: str) -> np.ndarray:
    """``[[roads]]``: the pre-drawn roads, on land links inside one Roman province, 3 in
    each; 0/1 by link."""
    index, adj = spaces.index, links.adj
    roads = np.zeros(len(links.a), np.int32)
    for r in roads_table:
        a, b = r.get("a"), r.get("b")
        where = f"road {a}-{b}"
        if a not in index or b not in index or adj[index[a], index[b]] < 0:
            raise _fail(file, where, "not on a link")
        li = adj[index[a], index[b]]
        if links.sea[li]:
            raise _fail(file, where, "a road must be on a land link")
        if r.get("province") not in ROMAN_IDS or any(
            spaces.by_name[x]["province"] != r["province"] for x in (a, b)
        ):
            raise _fail(file, where, "a pre-drawn road lies inside one Roman province")
        _tag(r, "src", file, where)
        roads[li] = 1
    for r, prov in enumerate(ROMAN_IDS):
        n = sum(
            1 for li in range(len(links.a)) if roads[li] and spaces.province[links.a[li]] == 6 + r
        )
        if n != 3:
            raise _fail(file, "[[roads]]", f"{prov} has {n} pre-drawn roads, expected 3")
    return roads


def _plus_one(po: dict[str, Any], spaces: _Spaces, file: str) -> np.ndarray:
    """``[plus_one]``: each Roman province's "+1" disc city, one of its own; tagged."""
    index = spaces.index
    plus = np.zeros(2, np.int32)
    for r, prov in enumerate(ROMAN_IDS):
        c = po.get(prov)
        if c not in index or index[c] >= FIRST_SEA or spaces.province[index[c]] != 6 + r:
            raise _fail(file, "[plus_one]", f"{prov}'s +1 disc city {c!r} is not in {prov}")
        plus[r] = index[c]
    _tag(po, "src", file, "[plus_one]")
    return plus


def _time_track(tt: dict[str, Any], file: str) -> list[int]:
    """``[time_track]``: the 11 years, 198 BC to 18 BC by 18."""
    years = require(tt, "years_bc", list, file, "[time_track]")
    if years != list(range(198, 0, -18)):
        raise _fail(file, "[time_track]", f"years {years} are not 198, 180, ..., 18")
    return years


def _lethe(
    le: dict[str, Any], spaces: _Spaces, links: _Links, file: str
) -> tuple[np.ndarray, np.ndarray]:
    """``[lethe]``: the cities north of the Durius (0/1 by city) and the links crossing
    it (0/1 by link)."""
    index = spaces.index
    north = np.zeros(NUM_CITIES, np.int32)
    for c in le.get("north", []):
        if c not in index or index[c] >= FIRST_SEA:
            raise _fail(file, "[lethe]", f"unknown city {c!r}")
        north[index[c]] = 1
    cross = np.zeros(len(links.a), np.int32)
    for pair in le.get("crossing_links", []):
        if len(pair) != 2 or any(x not in index for x in pair):
            raise _fail(file, "[lethe]", f"bad crossing {pair!r}")
        li = links.adj[index[pair[0]], index[pair[1]]]
        if li < 0:
            raise _fail(file, "[lethe]", f"crossing {pair!r} is not a link")
        cross[li] = 1
    return north, cross


def _triple(table: dict[str, Any], key: str, file: str) -> tuple[int, int, int]:
    v = require(table, key, list, file, "[difficulty]")
    if len(v) != 3 or not all(isinstance(x, int) and x >= 0 for x in v):
        raise _fail(file, f"[difficulty] {key}", f"{v!r} is not three counts")
    return (v[0], v[1], v[2])


def parse_rules(raw: dict[str, Any], file: str = RULES_FILE) -> RuleTables:
    """Validate the rule tables."""
    d = require(raw, "difficulty", dict, file, "[difficulty]")
    comp = require(raw, "components", dict, file, "[components]")
    sr = require(
        require(raw, "setup_revolts", dict, file, "[setup_revolts]"),
        "by_die",
        list,
        file,
        "[setup_revolts]",
    )
    if len(sr) != 6 or not all(isinstance(x, int) and 1 <= x <= 3 for x in sr):
        raise _fail(file, "[setup_revolts] by_die", f"{sr!r} is not six counts 1..3")
    t = RuleTables(
        denarii=_triple(d, "denarii", file),
        garrisons=_triple(d, "garrisons", file),
        fleets=_triple(d, "fleets", file),
        roads=_triple(d, "roads", file),
        armies=_triple(d, "armies", file),
        revolts=require(comp, "revolts", int, file, "[components]"),
        setup_revolts_by_die=tuple(sr),
    )
    if max(t.fleets) > NUM_SEAS or max(t.armies) > require(comp, "armies", int, file, "x"):
        raise _fail(file, "[difficulty]", "more fleets or armies than the components")
    if max(t.garrisons) > require(comp, "garrisons_per_colour", int, file, "[components]"):
        raise _fail(file, "[difficulty] garrisons", "more garrisons than the components")
    return t


def parse_scenarios(raw: dict[str, Any], board: BoardData, file: str = SCENARIOS_FILE) -> dict:
    """Validate the scenarios' pieces against the board; returns them by id."""
    out: dict[str, dict[str, Any]] = {}
    index = {n: i for i, n in enumerate(board.space_names)}
    for k, sc in enumerate(require(raw, "scenario", list, file, "[[scenario]]")):
        sid = require(sc, "id", str, file, f"[[scenario]] #{k + 1}")
        where = f"scenario {sid}"
        armies_by_prov: dict[int, int] = {}
        for pc in require(sc, "pieces", list, file, where):
            c = pc.get("city")
            if c not in index or index[c] >= FIRST_SEA:
                raise _fail(file, where, f"unknown city {c!r}")
            i = index[c]
            rv = pc.get("revolts", 0)
            gs = pc.get("garrisons", [])
            if rv + len(gs) > 3:
                raise _fail(file, where, f"{c}: more than 3 discs")
            if rv and (gs or pc.get("general")):
                raise _fail(file, where, f"{c}: a Roman piece on a revolt")
            if pc.get("army"):
                if not rv:
                    raise _fail(file, where, f"{c}: an army without a revolt")
                p = int(board.city_province[i])
                armies_by_prov[p] = armies_by_prov.get(p, 0) + 1
                if armies_by_prov[p] > 1:
                    raise _fail(file, where, f"two armies in province of {c}")
            for g in gs + ([pc["general"]] if pc.get("general") else []):
                if g not in GENERAL_IDS:
                    raise _fail(file, where, f"{c}: unknown general {g!r}")
        out[sid] = sc
    return out


SCENARIO_IDS = ("first_repression", "numantia", "terror", "river_of_oblivion", "new_empire")
# the rulebook's variants, in its order ("from easier to harder"): the one home of that order
VARIANT_IDS = ("ingenivm", "imperivm", "proconsvl", "legio_hispana", "pirates", "terror", "hispano")


def scenario_arrays(scen: dict[str, dict[str, Any]], board: BoardData) -> dict[str, np.ndarray]:
    """The scenarios as arrays indexed by scenario (1-based in params; row 0 is unused)."""
    n = len(SCENARIO_IDS) + 1
    index = {name: i for i, name in enumerate(board.space_names)}
    out = {
        "revolts": np.zeros((n, NUM_CITIES), np.int32),
        "garrisons": np.zeros((n, NUM_CITIES, 3), np.int32),
        "generals": np.full((n, 4), -1, np.int32),
        "armies": np.full((n, 4), -1, np.int32),
        "track": np.zeros(n, np.int32),
        "track_limit": np.full(n, 11, np.int32),
        "turn": np.zeros(n, np.int32),
        "start_hispanic": np.zeros(n, np.int32),
        "random": np.ones((n, NUM_HISPANIC), np.int32),
        "faces": np.ones((n, NUM_HISPANIC, 6), np.int32),
        "no_army": np.zeros((n, NUM_HISPANIC), np.int32),
        "fleet_seas": np.zeros((n, NUM_SEAS), np.int32),
        "army_die": np.zeros(n, np.int32),
        "display": np.zeros(n, np.int32),
        "lethe": np.zeros(n, np.int32),
        "guerrilla": np.zeros(n, np.int32),
        "first_year": np.full(n, 198, np.int32),
    }
    file = SCENARIOS_FILE
    for row, sid in enumerate(SCENARIO_IDS, start=1):
        if sid not in scen:
            raise _fail(file, f"scenario {sid}", "missing")
        sc = scen[sid]
        where = f"scenario {sid}"
        ordinary = 0
        for pc in sc["pieces"]:
            c = index[pc["city"]]
            out["revolts"][row, c] = pc.get("revolts", 0)
            for i, gname in enumerate(pc.get("garrisons", [])):
                out["garrisons"][row, c, i] = GENERAL_IDS.index(gname) + 1
            if pc.get("general"):
                out["generals"][row, GENERAL_IDS.index(pc["general"])] = c
            kind = pc.get("army")
            if kind == "special":
                out["armies"][row, 3] = c
            elif kind == "army":
                out["armies"][row, ordinary] = c
                ordinary += 1
            elif kind:
                raise _fail(file, where, f"unknown army kind {kind!r}")
        out["track"][row] = require(sc, "track", int, file, where)
        out["track_limit"][row] = sc.get("track_limit", 11)
        out["turn"][row] = require(sc, "turn", int, file, where)
        start = require(sc, "start_phase", str, file, where)
        if start not in ("roman", "hispanic"):
            raise _fail(file, where, f"start_phase {start!r}")
        out["start_hispanic"][row] = start == "hispanic"
        out["random"][row] = 0
        for p in require(sc, "random_revolts", list, file, where):
            out["random"][row, HISPANIC_IDS.index(p)] = 1
        if "carpetania_cities" in sc:
            out["faces"][row, 2] = 0
            for f in sc["carpetania_cities"]:
                out["faces"][row, 2, f - 1] = 1
        for p in sc.get("no_army", []):
            out["no_army"][row, HISPANIC_IDS.index(p)] = 1
        for k in sc.get("fleet_seas", []):
            out["fleet_seas"][row, k - 1] = 1
        out["army_die"][row] = 1 if sc.get("army_die") else 0
        special = sc.get("special", "")
        out["display"][row] = special == "display_of_power"
        out["lethe"][row] = special == "lethe"
        out["guerrilla"][row] = special == "guerrilla"
        out["first_year"][row] = sc.get("first_year", 198)
        for v in sc.get("variants", []) + sc.get("forbidden_variants", []):
            if v not in VARIANT_IDS:
                raise _fail(file, where, f"unknown variant {v!r}")
    return out


def _load() -> tuple[BoardData, RuleTables, dict]:
    board = parse_board(load_toml(data_path("hispania", BOARD_FILE)))
    tables = parse_rules(load_toml(data_path("hispania", RULES_FILE)))
    scen = parse_scenarios(load_toml(data_path("hispania", SCENARIOS_FILE)), board)
    return board, tables, scen


BOARD, TABLES, SCENARIOS = _load()
# the data files the kernels freeze into numba's cache (GameKernels.from_package)
DATA_FILES = tuple(data_path("hispania", f) for f in (BOARD_FILE, RULES_FILE, SCENARIOS_FILE))

SPACE_NAMES = BOARD.space_names
NUM_LINKS = len(BOARD.link_a)
CITY_PROVINCE = BOARD.city_province
CITY_NUMBER = BOARD.city_number
CITY_SHIELD = BOARD.city_shield
CITY_CAPITAL = BOARD.city_capital
LINK_A = BOARD.link_a
LINK_B = BOARD.link_b
LINK_SEGMENTS = BOARD.link_segments
LINK_SEA = BOARD.link_sea
ADJ_LINK = BOARD.adj_link
NEIGHBOURS = BOARD.neighbours
DEGREE = BOARD.degree
INITIAL_ROADS = BOARD.initial_roads
PLUS_ONE_CITY = BOARD.plus_one_city
TIME_TRACK_YEARS = BOARD.time_track_years
TRACK_SPACES = len(TIME_TRACK_YEARS)
CAPITALS = np.asarray([p * 6 + 5 for p in range(NUM_HISPANIC)], np.int32)
TOTAL_REVOLTS = TABLES.revolts
SETUP_REVOLTS_BY_DIE = np.asarray(TABLES.setup_revolts_by_die, np.int32)
LEVEL_VALUES = np.asarray(
    [TABLES.denarii, TABLES.garrisons, TABLES.fleets, TABLES.roads, TABLES.armies], np.int32
)
SCEN = scenario_arrays(SCENARIOS, BOARD)
SCEN_REVOLTS = SCEN["revolts"]
SCEN_GARRISONS = SCEN["garrisons"]
SCEN_GENERALS = SCEN["generals"]
SCEN_ARMIES = SCEN["armies"]
SCEN_TRACK = SCEN["track"]
SCEN_TRACK_LIMIT = SCEN["track_limit"]
SCEN_TURN = SCEN["turn"]
SCEN_START_HISPANIC = SCEN["start_hispanic"]
SCEN_RANDOM = SCEN["random"]
SCEN_FACES = SCEN["faces"]
SCEN_NO_ARMY = SCEN["no_army"]
SCEN_FLEET_SEAS = SCEN["fleet_seas"]
SCEN_ARMY_DIE = SCEN["army_die"]
SCEN_DISPLAY = SCEN["display"]
SCEN_LETHE = SCEN["lethe"]
SCEN_GUERRILLA = SCEN["guerrilla"]
LETHE_NORTH = BOARD.lethe_north
LETHE_CROSSINGS = BOARD.lethe_crossings
# Roman provinces' cities: [2, 4]
ROMAN_CITIES = np.asarray([[36, 37, 38, 39], [40, 41, 42, 43]], np.int32)

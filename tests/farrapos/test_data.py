"""The research checker (farrapos_data_check.py), re-run on the data the library loads.

Rulebook facts are written here independently of the data file; checks of our own
reconstruction choices skip themselves once the data they test is tagged ``source``
(transcribed from the printed components), as in the research checker.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from boardsim.core.data import data_path
from boardsim.core.errors import DataError
from boardsim.games.farrapos import data as D

RAW = D.DATA.raw
CITIES = {c["id"]: c for c in RAW["city"]}
BY_NAME = {c["name"]: c for c in RAW["city"]}
PRINTED_BOARD = RAW["board"]["provenance"] == "source"
EMPIRE_START = {"Porto Alegre": 3, "Rio Grande": 5, "Lages": 8}
REPUBLIC_START = {"Triunfo": 4, "Pelotas": 4, "Bagé": 4}
COLUMNS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11-15", "16-20", "21-25", "+25"]
PRINTED_ROW_1 = "- - - 1 1 2 2 2 3 3 4 5 6 7"


def recon(printed: bool) -> None:
    if printed:
        pytest.skip("(reconstruction) the data is tagged source")


def idx(name: str) -> int:
    return D.CITY_NAMES.index(name)


# ---------------------------------------------------------------- provenance
def test_every_entry_tagged_with_a_reason() -> None:
    rank = {p: i for i, p in enumerate(D.PROVENANCES)}
    entries = [RAW[k] for k in ("meta", "game", "board", "ports_bonus", "arrivals",
                                "battle_table", "battle_example", "vp_example")]  # fmt: skip
    entries += RAW["region"] + RAW["city"] + RAW["path"] + RAW["unit"] + RAW["militia"]
    entries += list(RAW["unit_profile"].values()) + RAW["battle_table"]["known_cell"]
    for e in entries:
        assert e["provenance"] in rank and str(e["reason"]).strip()
        if "prov" in e:
            assert e["provenance"] == max(e["prov"].values(), key=rank.__getitem__)


def test_no_machine_paths_in_the_data_file() -> None:
    text = data_path("farrapos", D.FILE).read_text(encoding="utf-8")
    assert not re.findall(r"(?:^|[\s\"'(\[=])(/[\w.-]+/[\w./-]*)", text)


# ---------------------------------------------------------------- game constants
def test_game_constants() -> None:
    assert (D.PHASES, D.TURNS_PER_PHASE, D.FIRST_YEAR, D.VICTORY_VP) == (11, 4, 1835, 24)
    assert list(D.TURN_SIDE) == [D.REPUBLIC, D.EMPIRE, D.REPUBLIC, D.EMPIRE]
    assert list(D.START_VP) == [5, 7]
    assert D.MILITIA_PER_SIDE == 4
    assert len(RAW["game"]["markers"]) == 4 and RAW["game"]["turn_marker_start"] == 0


# ---------------------------------------------------------------- cities, regions, VP
def test_cities_and_regions() -> None:
    recon(PRINTED_BOARD)
    assert 18 <= D.NUM_CITIES <= 26 and 4 <= D.NUM_REGIONS <= 6
    for town in (
        "Caçapava",
        "Alegrete",
        "São Gabriel",
        "Jaguarão",
        "Viamão",
        "Cruz Alta",
        "Laguna",
    ):
        assert town in D.CITY_NAMES


def test_rulebook_cities_and_start_sides() -> None:
    assert np.all((D.CITY_VP >= 1) & (D.CITY_VP <= 4))
    for name in [*EMPIRE_START, *REPUBLIC_START, "Piratini", "Rio Pardo"]:
        assert name in D.CITY_NAMES
    assert D.CITY_VP[idx("Porto Alegre")] == 4
    for c, name in enumerate(D.CITY_NAMES):
        want = 1 if name in EMPIRE_START else 0 if name in REPUBLIC_START else D.NEUTRAL
        assert D.CITY_START[c] == want
    assert D.CITY_VP[idx("Rio Grande")] + D.CITY_VP[idx("Lages")] == 3
    assert sum(D.CITY_VP[idx(n)] for n in REPUBLIC_START) == 5


def test_vp_model_start_and_example() -> None:
    start = D.CITY_START.copy()
    assert [D.vp_of_holding(D.DATA, start, s) for s in (0, 1)] == [5, 7]
    start[idx("Porto Alegre")] = D.REPUBLIC
    assert [D.vp_of_holding(D.DATA, start, s) for s in (0, 1)] == [9, 3]
    ve = RAW["vp_example"]
    assert (ve["republic_before"], ve["republic_after"]) == (5, 9)
    assert (ve["empire_before"], ve["empire_after"]) == (7, 3)


# ---------------------------------------------------------------- path lines
def _connected(members: set[int]) -> bool:
    start = next(iter(members))
    seen, todo = {start}, [start]
    while todo:
        k = todo.pop()
        for j in np.flatnonzero(D.ADJACENCY[k]):
            if int(j) in members and int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return seen == members


def test_paths_connect_the_board() -> None:
    assert np.array_equal(D.ADJACENCY, D.ADJACENCY.T) and not np.any(np.diag(D.ADJACENCY))
    assert int(D.ADJACENCY.sum()) == 2 * len(RAW["path"])
    assert _connected(set(range(D.NUM_CITIES)))


def test_paths_degree_and_regions_reconstruction() -> None:
    recon(PRINTED_BOARD)
    assert np.all((D.DEGREE >= 2) & (D.DEGREE <= 5))
    for r in range(D.NUM_REGIONS):
        assert _connected(set(np.flatnonzero(r == D.CITY_REGION).tolist()))
    chain = [idx(n) for n in ("Porto Alegre", "Triunfo", "Rio Pardo", "Cachoeira")]
    assert all(D.ADJACENCY[chain[i], chain[i + 1]] for i in range(3))


def test_rulebook_attack_and_invade_examples() -> None:
    rep = {idx(n) for n in REPUBLIC_START}
    for name in ("Porto Alegre", "Rio Grande"):
        c = idx(name)
        assert D.CITY_START[c] == D.EMPIRE and any(D.ADJACENCY[c, r] for r in rep)
    for name in ("Piratini", "Rio Pardo"):
        c = idx(name)
        assert D.CITY_START[c] == D.NEUTRAL and any(D.ADJACENCY[c, r] for r in rep)


def test_regions_ports_and_bonuses() -> None:
    assert np.all(D.REGION_BONUS >= 1)
    assert int(D.CITY_PORT.sum()) >= 2 and D.PORTS_BONUS >= 1  # transport needs 2 ports


def test_geography_and_board_positions() -> None:
    recon(PRINTED_BOARD)
    fr = RAW["board"]["frame"]
    for c in CITIES.values():
        assert -33.8 <= c["lat"] <= -27.0 and -57.7 <= c["lon"] <= -48.3
        px = (c["lon"] - fr["west"]) / (fr["east"] - fr["west"])
        py = (fr["north"] - c["lat"]) / (fr["north"] - fr["south"])
        d = math.hypot(px - c["x"], py - c["y"])
        assert d <= 0.002 or ("board_nudge" in c and d <= 0.04)
    assert BY_NAME["Lages"]["lat"] > -29.4 and BY_NAME["Laguna"]["lat"] > -29.4
    xy, asp = D.CITY_XY, RAW["board"]["aspect"]
    for a in range(D.NUM_CITIES):
        for b in range(a + 1, D.NUM_CITIES):
            dx, dy = (xy[a, 0] - xy[b, 0]) * asp, xy[a, 1] - xy[b, 1]
            assert math.hypot(dx, dy) >= RAW["board"]["min_spacing"]


LAGOON_CORE = [(-30.67, -51.30), (-30.91, -51.40), (-31.36, -51.88), (-31.70, -52.05),
               (-31.70, -51.85), (-31.36, -51.25), (-30.91, -51.08), (-30.67, -50.90)]  # fmt: skip


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    cos = math.sin(p1) * math.sin(p2) + math.cos(p1) * math.cos(p2) * math.cos(
        math.radians(b[1] - a[1])
    )
    return 6371.0 * math.acos(max(-1.0, min(1.0, cos)))


def _crosses(p1, p2, p3, p4) -> bool:
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return (
        orient(p1, p2, p3) * orient(p1, p2, p4) < 0 and orient(p3, p4, p1) * orient(p3, p4, p2) < 0
    )


def test_path_lines_drawable_round_the_lagoon_reconstruction() -> None:
    """No line crosses another or the open Lagoa dos Patos; none longer than 320 km."""
    recon(PRINTED_BOARD)
    k30 = math.cos(math.radians(30.2))

    def proj(q: tuple[float, float]) -> tuple[float, float]:
        return (q[1] * k30, q[0])

    segs = []
    for p in RAW["path"]:
        a, b = CITIES[p["a"]], CITIES[p["b"]]
        pts = [(a["lat"], a["lon"]), *[tuple(v) for v in p.get("via", [])], (b["lat"], b["lon"])]
        assert sum(_km(pts[i], pts[i + 1]) for i in range(len(pts) - 1)) <= 320
        segs += [({p["a"], p["b"]}, proj(pts[i]), proj(pts[i + 1])) for i in range(len(pts) - 1)]
    core = [proj(q) for q in LAGOON_CORE]
    for ends, x, y in segs:
        for j in range(len(core)):
            assert not _crosses(x, y, core[j], core[(j + 1) % len(core)]), ends
    for i, (e1, x1, y1) in enumerate(segs):
        for e2, x2, y2 in segs[i + 1 :]:
            if not e1 & e2:
                assert not _crosses(x1, y1, x2, y2), (e1, e2)


# ---------------------------------------------------------------- units
def test_unit_mix_and_militia() -> None:
    types = Counter(D.UNIT_TYPES[t] for t in D.PIECE_TYPE[: D.NUM_UNITS])
    assert D.NUM_UNITS == 48 and types == {"infantry": 32, "cavalry": 8, "artillery": 8}
    mil = np.flatnonzero(D.PIECE_TYPE == D.T_MILITIA)
    assert len(mil) == 8 and Counter(D.PIECE_SIDE[mil].tolist()) == {0: 4, 1: 4}
    assert np.all(D.PIECE_MF[mil] == 0) and np.all(D.PIECE_DF[mil] == 1)
    assert np.all(D.PIECE_AF[mil] == 0)


def test_unit_faces_and_cavalry_fastest() -> None:
    mu = slice(0, D.NUM_UNITS)
    full, red = D.FULL, D.REDUCED
    assert np.all(D.PIECE_MF[mu, full] >= 1) and np.all(D.PIECE_AF[mu, full] >= 1)
    assert np.all(D.PIECE_DF[mu, full] >= 1)
    for f in (D.PIECE_MF, D.PIECE_AF, D.PIECE_DF):
        assert np.all(f[mu, red] <= f[mu, full])
    weaker = (D.PIECE_AF[mu, red] < D.PIECE_AF[mu, full]) | (
        D.PIECE_DF[mu, red] < D.PIECE_DF[mu, full]
    )
    assert np.all(weaker)
    for side in (0, 1):
        mine = D.PIECE_SIDE[mu] == side
        cav = D.PIECE_MF[mu, full][mine & (D.PIECE_TYPE[mu] == D.T_CAVALRY)]
        other = D.PIECE_MF[mu, full][mine & (D.PIECE_TYPE[mu] != D.T_CAVALRY)]
        assert cav.min() > other.max()


def test_setup_and_arrivals() -> None:
    setup = Counter(
        (int(D.PIECE_SIDE[u]), D.CITY_NAMES[D.PIECE_SETUP[u]])
        for u in range(D.NUM_UNITS)
        if D.PIECE_SETUP[u] >= 0
    )
    want = {(1, k): v for k, v in EMPIRE_START.items()} | {
        (0, k): v for k, v in REPUBLIC_START.items()
    }
    assert dict(setup) == want
    arriving = [u for u in range(D.NUM_UNITS) if D.PIECE_SETUP[u] < 0]
    assert len(arriving) == 20 and all(2 <= D.PIECE_ARRIVAL[u] <= 11 for u in arriving)
    rep_1836 = [u for u in arriving if D.PIECE_ARRIVAL[u] == 2 and D.PIECE_SIDE[u] == 0]
    emp_1836 = [u for u in arriving if D.PIECE_ARRIVAL[u] == 2 and D.PIECE_SIDE[u] == 1]
    assert len(rep_1836) == 4 and not emp_1836
    for side, name in ((0, "republic"), (1, "empire")):
        track = Counter(str(D.FIRST_YEAR + D.PIECE_ARRIVAL[u] - 1) for u in arriving
                        if D.PIECE_SIDE[u] == side)  # fmt: skip
        assert dict(track) == RAW["arrivals"][name]


def test_strength_curve_reconstruction() -> None:
    recon(RAW["arrivals"]["provenance"] == "source")

    def attack(side: int, phase: int) -> int:
        mine = (side == D.PIECE_SIDE) & (D.PIECE_TYPE != D.T_MILITIA)
        return int(D.PIECE_AF[mine & (phase >= D.PIECE_ARRIVAL), D.FULL].sum())

    assert all(attack(0, p) >= attack(1, p) for p in range(1, 6))  # 1835-1839
    assert all(attack(1, p) > attack(0, p) for p in range(7, 12))  # 1841-1845


# ---------------------------------------------------------------- battle table
def test_battle_table_shape_and_printed_row() -> None:
    assert list(D.DATA.columns) == COLUMNS
    assert list(D.COLUMN_LOW) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 21, 26]
    assert D.BATTLE_TABLE.shape == (6, 14) and np.all(D.BATTLE_TABLE >= 0)
    row = " ".join("-" if v == 0 else str(v) for v in D.BATTLE_TABLE[0])
    assert row == PRINTED_ROW_1 == RAW["battle_table"]["printed_row_1"]


def test_battle_table_rule_reconstruction() -> None:
    recon(all(p == "source" for p in D.DATA.row_provenance[1:]))
    t = D.BATTLE_TABLE
    assert all(t[d, c] == t[0, c] + d for d in range(6) for c in range(14))
    assert np.all(np.diff(t, axis=1) >= 0) and np.all(np.diff(t, axis=0) >= 0)


def test_battle_example_cells_and_counters() -> None:
    from boardsim.games.farrapos.rules import read_battle_table

    assert read_battle_table(13, 3) == 6 and read_battle_table(10, 5) == 7
    known = {(k["strength"], k["die"], k["value"]) for k in RAW["battle_table"]["known_cell"]}
    assert known == {(13, 3, 6), (10, 5, 7)}
    ex = RAW["battle_example"]
    att = [D.PIECE_IDS.index(i) for i in ex["attackers"]]
    dfd = [D.PIECE_IDS.index(i) for i in ex["defenders"]]
    assert [int(D.PIECE_AF[u, 0]) for u in att] == [2, 2, 5, 4]
    assert [int(D.PIECE_DF[u, 0]) for u in dfd] == [3, 3]
    pa = idx("Porto Alegre")
    assert all(D.PIECE_SETUP[u] == pa for u in dfd) and all(D.PIECE_SIDE[u] == 0 for u in att)
    assert sum(D.PIECE_AF[u, 0] for u in att) == 13
    assert sum(D.PIECE_DF[u, 0] for u in dfd) + D.CITY_VP[pa] == 10


# ---------------------------------------------------------------- malformed files
def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = data_path("farrapos", D.FILE).read_text(encoding="utf-8")
    assert old in text
    p = tmp_path / "farrapos.toml"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return p


@pytest.mark.parametrize(
    ("old", "new", "entry"),
    [
        ('region = "capital"', 'region = "nowhere"', "city porto_alegre"),
        ('b = "triunfo"', 'b = "atlantis"', "path porto_alegre-atlantis"),
        ("vp = 4", "vp = 9", "city porto_alegre"),
        ('setup = "porto_alegre"', 'setup = "triunfo"', "unit E01"),
        ("[0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6, 7]", "[0, 0, 1]", "[battle_table] rows"),
        ("empire = 7, republic = 5", "empire = 8, republic = 5", "[game] start_vp"),
    ],
)
def test_malformed_file_raises_data_error(tmp_path: Path, old: str, new: str, entry: str) -> None:
    with pytest.raises(DataError) as err:
        D.load(_broken(tmp_path, old, new))
    assert err.value.entry == entry and err.value.file.endswith("farrapos.toml")


def test_missing_and_unparsable_file(tmp_path: Path) -> None:
    with pytest.raises(DataError):
        D.load(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[game\n", encoding="utf-8")
    with pytest.raises(DataError):
        D.load(bad)

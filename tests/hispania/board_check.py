#!/usr/bin/env python3
"""Port of the research checker (research/checks/hispania_board_check.py), unchanged in
substance; tests/hispania/test_board_check.py runs it on the data the library loads.

Check the reconstructed HISPANIA board against the rulebook and geography.

Reads hispania-board.toml (by default from the folder above this one, or
the path given as the first argument) and checks every
constraint that the rulebook, its setup example and its five scenarios imply,
plus the geographic rules the file states for itself. Prints one line per
constraint with OK or FAIL and exits 1 if any fails.

Plain Python 3.11: tomllib and the standard library only.
"""

# ruff: noqa: E501, RUF005, B905, UP
from __future__ import annotations

import itertools
import math
import sys
import tomllib
from collections import Counter, defaultdict, deque
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[2] / "envs" / "hispania" / "board.toml"

# The 38 town names the rulebook uses (Segeda is named only as "near Bilbilis").
RULEBOOK_TOWNS = {
    "Ilerda",
    "Dertosa",
    "Valentia",
    "Salduba",
    "Tarraco",
    "Segobriga",
    "Regina",
    "Conimbriga",
    "Asturica",
    "Flaviobriga",
    "Emerita",
    "Capara",
    "Basti",
    "Carthago Nova",
    "Gades",
    "Gerunda",
    "Corduba",
    "Baecula",
    "Toletum",
    "Puciala",
    "Castulo",
    "Osca",
    "Calagurris",
    "Numantia",
    "Abula",
    "Olisipo",
    "Salmantica",
    "Talabriga",
    "Pallantia",
    "Lucus",
    "Lancia",
    "Noega",
    "Aracillum",
    "Bracara",
    "Pompaelo",
    "Deobriga",
    "Cauca",
    "Bilbilis",
}
HISPANIC = ["I", "II", "III", "IV", "V", "VI"]
ROMAN = ["Ulterior", "Citerior"]
TAGS = {"source", "derived", "reconstructed"}
MEEPLES = {"praetor_ulterior", "praetor_citerior", "consul", "army", "special_army"}
DISCS = {"revolt", "garrison"}

results: list[tuple[str, bool, str]] = []


def check(name: str, ok: bool, detail: str = "") -> bool:
    results.append((name, bool(ok), detail))
    return bool(ok)


# ---------------------------------------------------------------- geometry
def orient(a, b, c) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def proper_cross(p1, p2, q1, q2) -> bool:
    """Segments cross at one interior point (shared endpoints do not count)."""
    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    if 0 in (d1, d2, d3, d4):
        return False
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def crossings(p, q, poly) -> int:
    return sum(proper_cross(p, q, poly[i], poly[i + 1]) for i in range(len(poly) - 1))


def point_seg_dist(p, a, b) -> float:
    ax, ay = b[0] - a[0], b[1] - a[1]
    t = ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / (ax * ax + ay * ay)
    t = max(0.0, min(1.0, t))
    return math.dist(p, (a[0] + t * ax, a[1] + t * ay))


def lat_on(poly, lon):
    """Latitude of a west-running polyline at a longitude (None outside its span)."""
    for (x1, y1), (x2, y2) in itertools.pairwise(poly):
        lo, hi = min(x1, x2), max(x1, x2)
        if lo <= lon <= hi and x1 != x2:
            return y1 + (lon - x1) / (x2 - x1) * (y2 - y1)
    return None


# ---------------------------------------------------------------- board model
class Board:
    def __init__(self, data: dict):
        self.d = data
        self.cities = {c["name"]: c for c in data["cities"]}
        self.seas = {s["name"]: s for s in data["seas"]}
        self.sea_by_num = {s["number"]: s["name"] for s in data["seas"]}
        self.provinces = {p["id"]: p for p in data["provinces"]}
        self.links = data["links"]
        self.adj: dict[str, set[str]] = defaultdict(set)
        self.land_adj: dict[str, set[str]] = defaultdict(set)
        for ln in self.links:
            self.adj[ln["a"]].add(ln["b"])
            self.adj[ln["b"]].add(ln["a"])
            if ln["kind"] == "land":
                self.land_adj[ln["a"]].add(ln["b"])
                self.land_adj[ln["b"]].add(ln["a"])
        self.link_by_pair = {frozenset((ln["a"], ln["b"])): ln for ln in self.links}

    def prov(self, city: str) -> str:
        return self.cities[city]["province"]

    def code(self, prov: str, number: int) -> str | None:
        for c in self.cities.values():
            if c["province"] == prov and c["number"] == number:
                return c["name"]
        return None

    def xy(self, space: str):
        s = self.cities.get(space) or self.seas[space]
        return (s["x"], s["y"])

    def ll(self, city: str):
        c = self.cities[city]
        return (c["lon"], c["lat"])

    def capitals(self) -> set[str]:
        return {n for n, c in self.cities.items() if c["capital"]}


def reachable(adj, start, blocked=frozenset(), closed_edges=frozenset()):
    seen = {start}
    todo = deque([start])
    while todo:
        u = todo.popleft()
        for v in adj[u]:
            if v in seen or v in blocked or frozenset((u, v)) in closed_edges:
                continue
            seen.add(v)
            todo.append(v)
    return seen


# ---------------------------------------------------------------- checks
def check_structure(b: Board) -> None:
    d = b.d
    prov_ids = [p["id"] for p in d["provinces"]]
    check(
        "8 provinces: Ulterior, Citerior, I-VI",
        sorted(prov_ids) == sorted(ROMAN + HISPANIC),
        str(prov_ids),
    )
    names = [c["name"] for c in d["cities"]]
    check(
        "44 cities with unique names",
        len(names) == 44 and len(set(names)) == 44,
        f"{len(names)} cities",
    )
    sizes = Counter(c["province"] for c in d["cities"])
    want = {p: 4 for p in ROMAN} | {p: 6 for p in HISPANIC}
    check(
        "Roman provinces hold 4 cities, Hispanic provinces 6", dict(sizes) == want, str(dict(sizes))
    )
    nums = sorted(s["number"] for s in d["seas"])
    check(
        "5 seas numbered 1-5 (49 spaces)", nums == [1, 2, 3, 4, 5] and len(names) + len(nums) == 49
    )
    fixed = {1: "Mare Balearicum", 2: "Mare Ibericum", 4: "Mare Atlanticum", 5: "Mare Cantabricum"}
    check(
        "sea names 1 Balearicum, 2 Ibericum, 4 Atlanticum, 5 Cantabricum",
        all(b.sea_by_num.get(k) == v for k, v in fixed.items()),
    )
    s3 = next(s for s in d["seas"] if s["number"] == 3)
    check(
        "sea 3 has a Latin name, tagged reconstructed",
        s3["name"] not in fixed.values()
        and s3["name_src"] == "reconstructed"
        and bool(s3["name_why"]),
        s3["name"],
    )
    numerals = {p["id"]: p["numeral"] for p in d["provinces"]}
    check(
        "Hispanic provinces carry numerals I-VI = 1-6",
        all(numerals[p] == i + 1 for i, p in enumerate(HISPANIC))
        and all(numerals[p] == 0 for p in ROMAN),
    )
    bad = []
    for p in HISPANIC:
        ns = sorted(c["number"] for c in d["cities"] if c["province"] == p)
        if ns != [1, 2, 3, 4, 5, 6]:
            bad.append(f"{p}:{ns}")
    check("each Hispanic province numbers its cities 1-6 once", not bad, ", ".join(bad))
    bad = [
        c["name"]
        for c in d["cities"]
        if c["capital"] != (c["province"] in HISPANIC and c["number"] == 6)
    ]
    bad += [p for p in HISPANIC if b.provinces[p].get("capital") != b.code(p, 6)]
    check(
        "capital flag = city 6 of a Hispanic province (6 capitals)",
        not bad and len(b.capitals()) == 6,
        str(bad),
    )
    bad = [
        c["name"] for c in d["cities"] if c["province"] in HISPANIC and c["shield"] != c["number"]
    ]
    check("Hispanic shield value = city number", not bad, str(bad))
    bad = []
    for p in ROMAN:
        cs = [c for c in d["cities"] if c["province"] == p]
        if sorted(c["shield"] for c in cs) != [1, 2, 3, 4] or any(c["number"] != 0 for c in cs):
            bad.append(p)
    check(
        "Roman cities: number 0, shields 1-4 distinct per province ([roman_shields] rule)",
        not bad and bool(d.get("roman_shields", {}).get("rule")),
        str(bad),
    )
    present = set(names)
    missing = RULEBOOK_TOWNS - present
    extra = present - RULEBOOK_TOWNS
    flags = [n for n in names if b.cities[n]["in_rulebook"] != (n in RULEBOOK_TOWNS)]
    check(
        "all 38 rulebook towns present, in_rulebook flags right",
        len(RULEBOOK_TOWNS) == 38 and not missing and not flags,
        f"missing {sorted(missing)} flags {flags}" if missing or flags else "",
    )
    added_bad = [
        n
        for n in extra
        if b.cities[n]["province_src"] != "reconstructed" or b.prov(n) not in HISPANIC
    ]
    check(
        "exactly 6 added towns, each reconstructed, in a Hispanic province",
        len(extra) == 6 and not added_bad,
        ", ".join(sorted(extra)),
    )


def check_provenance(b: Board) -> None:
    bad = []
    for c in b.d["cities"]:
        for g in ("province", "number", "shield", "geo", "coast", "board"):
            tag, why = c.get(g + "_src"), c.get(g + "_why", "")
            if tag not in TAGS or (tag != "source" and not why):
                bad.append(f"{c['name']}.{g}")
    for s in b.d["seas"]:
        for g in ("number", "name"):
            if s.get(g + "_src") not in TAGS:
                bad.append(f"{s['name']}.{g}")
        if s.get("position_src") not in TAGS:
            bad.append(f"{s['name']}.position")
    for ln in b.links:
        if ln.get("src") not in TAGS or not ln.get("why") or ln.get("segments_src") not in TAGS:
            bad.append(f"link {ln['a']}-{ln['b']}")
    for r in b.d["roads"]:
        if r.get("src") not in TAGS or not r.get("why"):
            bad.append(f"road {r['a']}-{r['b']}")
    for p in b.d["provinces"]:
        if p.get("name_src") not in TAGS:
            bad.append(f"province {p['id']}")
    for sec in ("plus_one", "time_track", "turn_track", "lethe", "roman_shields", "geography"):
        if b.d[sec].get("src") not in TAGS or not b.d[sec].get("why"):
            bad.append(sec)
    check(
        "provenance tag (source/derived/reconstructed) on every field group, with reasons",
        not bad,
        str(bad[:8]),
    )


def check_positions(b: Board) -> None:
    pj = b.d["projection"]
    bad, far = [], []
    for n, c in b.cities.items():
        if not (35.9 <= c["lat"] <= 43.9 and -9.6 <= c["lon"] <= 3.4):
            bad.append(n)
        px = (c["lon"] - pj["lon_west"]) / (pj["lon_east"] - pj["lon_west"])
        py = (pj["lat_north"] - c["lat"]) / (pj["lat_north"] - pj["lat_south"])
        if (
            math.dist((px, py), (c["x"], c["y"])) > 0.03
            and "nudge" not in c.get("board_why", "")
            and c.get("board_src") != "source"
        ):
            far.append(n)
    check("city lat/lon inside Hispania", not bad, str(bad))
    spaces = list(b.cities) + list(b.seas)
    out = [s for s in spaces if not all(0.0 <= v <= 1.0 for v in b.xy(s))]
    check("board x/y in [0,1]", not out, str(out))
    check("board x/y follow the stated projection of lat/lon (or say why not)", not far, str(far))
    close = [
        (a, c, round(math.dist(b.xy(a), b.xy(c)), 3))
        for a, c in itertools.combinations(spaces, 2)
        if math.dist(b.xy(a), b.xy(c)) < 0.025
    ]
    check("spaces at least 0.025 apart on the board", not close, str(close))
    inside = []
    for sec in ("time_track", "turn_track"):
        x0, y0, x1, y1 = b.d[sec]["box"]
        for sname in spaces:
            x, y = b.xy(sname)
            if x0 - 0.02 <= x <= x1 + 0.02 and y0 - 0.02 <= y <= y1 + 0.02:
                inside.append(f"{sec}:{sname}")
        for ln in b.links:
            pts = link_polyline(b, ln)
            for (px, py), (qx, qy) in itertools.pairwise(pts):
                if any(
                    x0 <= px + (qx - px) * t / 50 <= x1 and y0 <= py + (qy - py) * t / 50 <= y1
                    for t in range(51)
                ):
                    inside.append(f"{sec}:{ln['a']}-{ln['b']}")
        if not (x0 >= 0.5 and y0 >= 0.5 and x1 <= 1 and y1 <= 1):
            inside.append(f"{sec} not at the bottom right")
    check(
        "turn and time tracks drawn at the bottom right, clear of spaces and links",
        not inside,
        str(inside),
    )


def link_polyline(b: Board, ln):
    pts = [b.xy(ln["a"])]
    pts += list(zip(ln.get("via_x", []), ln.get("via_y", [])))
    pts.append(b.xy(ln["b"]))
    return pts


def check_links(b: Board) -> None:
    spaces = set(b.cities) | set(b.seas)
    bad = []
    pairs = set()
    for ln in b.links:
        a, c = ln["a"], ln["b"]
        if a not in spaces or c not in spaces or a == c:
            bad.append(f"{a}-{c}: unknown space")
            continue
        key = frozenset((a, c))
        if key in pairs:
            bad.append(f"{a}-{c}: duplicate")
        pairs.add(key)
        both_cities = a in b.cities and c in b.cities
        if ln["kind"] not in ("land", "sea") or (ln["kind"] == "land") != both_cities:
            bad.append(f"{a}-{c}: kind")
        if ln["segments"] not in (1, 2, 3) or (ln["kind"] == "sea" and ln["segments"] != 1):
            bad.append(f"{a}-{c}: segments")
    check(
        "links join known spaces, no duplicates, kind land/sea, segments 1-3 (sea 1)",
        not bad,
        str(bad),
    )
    check(
        "Dertosa's links are exactly Valentia, Salduba, Tarraco, Mare Balearicum (rulebook)",
        b.adj["Dertosa"] == {"Valentia", "Salduba", "Tarraco", "Mare Balearicum"},
        str(sorted(b.adj["Dertosa"])),
    )
    deg = {n: len(b.adj[n]) for n in b.cities}
    bad = {n: k for n, k in deg.items() if not 2 <= k <= 5}
    check("every city has 2-5 links", not bad, str(bad))
    bad = []
    for n, c in b.cities.items():
        seas = {x for x in b.adj[n] if x in b.seas}
        if c["coastal"] != bool(seas) or (
            seas and {b.seas[s]["number"] for s in seas} != {c["sea"]}
        ):
            bad.append(n)
    check("coastal flag = linked to its sea", not bad, str(bad))
    ss = sorted(
        tuple(sorted((b.seas[ln["a"]]["number"], b.seas[ln["b"]]["number"])))
        for ln in b.links
        if ln["a"] in b.seas and ln["b"] in b.seas
    )
    check(
        "sea-sea links join neighbouring seas 1-2, 2-3, 3-4, 4-5",
        ss == [(1, 2), (2, 3), (3, 4), (4, 5)],
        str(ss),
    )
    check(
        "every sea touches a coastal city",
        all(any(x in b.cities for x in b.adj[s]) for s in b.seas),
    )
    # planar drawing
    segs = []
    for i, ln in enumerate(b.links):
        pts = link_polyline(b, ln)
        for p, q in itertools.pairwise(pts):
            segs.append((i, p, q))
    cross = set()
    for (i, p1, p2), (j, q1, q2) in itertools.combinations(segs, 2):
        if i != j and proper_cross(p1, p2, q1, q2):
            cross.add(
                (f"{b.links[i]['a']}-{b.links[i]['b']}", f"{b.links[j]['a']}-{b.links[j]['b']}")
            )
    check("planar drawing: no two links cross on the board", not cross, str(sorted(cross)[:5]))
    near = []
    for ln in b.links:
        pts = link_polyline(b, ln)
        for n in list(b.cities) + list(b.seas):
            if n in (ln["a"], ln["b"]):
                continue
            if min(point_seg_dist(b.xy(n), p, q) for p, q in itertools.pairwise(pts)) < 0.012:
                near.append(f"{ln['a']}-{ln['b']} by {n}")
    check("no link is drawn through a third space", not near, str(near[:5]))


def check_geography(b: Board) -> None:
    g = b.d["geography"]
    rivers = {k: [tuple(p) for p in v] for k, v in g["rivers"].items()}
    ranges = {k: [tuple(p) for p in v] for k, v in g["ranges"].items()}
    check(
        "geography gives the five rivers and the mountain crests",
        set(rivers) == {"Iberus", "Durius", "Tagus", "Anas", "Baetis"}
        and {"Pyrenaei Montes", "Sistema Central"} <= set(ranges),
    )
    bad = []
    count = Counter()
    for ln in b.links:
        if ln["kind"] != "land" or ln.get("segments_src") == "source":
            continue  # a segment count read off the printed board overrides the rule
        p, q = b.ll(ln["a"]), b.ll(ln["b"])
        mts = [k for k, pl in ranges.items() if crossings(p, q, pl)]
        rvs = [k for k, pl in rivers.items() if crossings(p, q, pl) % 2]
        want = 3 if mts else 2 if rvs else 1
        label = ln["terrain"]
        kind, _, feat = label.partition(":")
        ok = ln["segments"] == want
        if want == 3:
            ok &= kind == "mountain" and feat in mts
        elif want == 2:
            ok &= kind == "river" and feat in rvs
        else:
            ok &= label == "open"
        if not ok:
            bad.append(
                f"{ln['a']}-{ln['b']} has {ln['segments']} {label}, geography says {want} {mts or rvs}"
            )
        count[ln["segments"]] += 1
    check(
        "link segments follow the stated rule (crest 3, river 2, else 1)",
        not bad,
        "; ".join(bad[:4]),
    )
    iberus = [ln for ln in b.links if ln.get("terrain") == "river:Iberus"]
    pyr = [ln for ln in b.links if ln.get("terrain") == "mountain:Pyrenaei Montes"]
    check(
        "rulebook's examples exist: 2-segment Iberus links and 3-segment Pyrenees links",
        bool(iberus)
        and bool(pyr)
        and all(ln["segments"] == 2 for ln in iberus)
        and all(ln["segments"] == 3 for ln in pyr),
        f"{len(iberus)} Iberus, {len(pyr)} Pyrenees; segments {dict(count)}",
    )
    dur = rivers["Durius"]
    north_geo = [
        n
        for n in [c for c in b.cities if b.prov(c) == "V"] + ["Pallantia", "Aracillum"]
        if (lat := lat_on(dur, b.ll(n)[0])) is None or b.ll(n)[1] <= lat
    ]
    check(
        "Gallaecia, Pallantia and Aracillum lie north of the Durius",
        not north_geo,
        f"not north: {north_geo}" if north_geo else "",
    )


def check_connectivity(b: Board) -> None:
    start = next(iter(b.cities))
    allspaces = set(b.cities) | set(b.seas)
    check("the board graph is connected", reachable(b.adj, start) == allspaces)
    bad = []
    for p in ROMAN + HISPANIC:
        cs = {n for n in b.cities if b.prov(n) == p}
        sub = {n: b.land_adj[n] & cs for n in cs}
        if reachable(sub, next(iter(cs))) != cs:
            bad.append(p)
    check("each province's cities are connected by land links inside it", not bad, str(bad))
    caps = b.capitals()
    starts = ["Gades", "Valentia"] + list(b.seas)
    bad = [(s, cap) for s in starts for cap in caps if cap not in reachable(b.adj, s)]
    land_bad = [
        (s, cap)
        for s in ("Gades", "Valentia")
        for cap in caps
        if cap not in reachable(b.land_adj, s)
    ]
    check(
        "every Hispanic capital is reachable (from both praetors' cities and every sea; by land too)",
        not bad and not land_bad,
        str(bad + land_bad),
    )


def network_of(b: Board, roads):
    net = set()
    for a, c in roads:
        net |= {a, c}
    return net


def legal_road(b: Board, roads: set, a: str, c: str, revolts: set) -> str:
    key = frozenset((a, c))
    ln = b.link_by_pair.get(key)
    if ln is None or ln["kind"] != "land":
        return "no land link"
    if key in roads:
        return "already a road"
    net = network_of(b, roads)
    if a not in net and c not in net:
        return "does not start from a city with a road"
    for x in (a, c):
        if x in revolts:
            return f"{x} is in revolt"
        if b.cities[x]["capital"]:
            return f"{x} is a capital"
    return ""


def check_roads(b: Board) -> set:
    roads = set()
    bad = []
    per = Counter()
    for r in b.d["roads"]:
        key = frozenset((r["a"], r["b"]))
        ln = b.link_by_pair.get(key)
        if ln is None or ln["kind"] != "land":
            bad.append(f"{r['a']}-{r['b']}: no land link")
        if b.prov(r["a"]) != r["province"] or b.prov(r["b"]) != r["province"]:
            bad.append(f"{r['a']}-{r['b']}: not inside {r['province']}")
        per[r["province"]] += 1
        roads.add(key)
    ok = not bad and per == Counter({p: 3 for p in ROMAN})
    check(
        "3 pre-drawn roads in each Roman province, on its land links",
        ok,
        "" if ok else f"{dict(per)} {bad}",
    )
    po = b.d["plus_one"]
    check(
        "each Roman province's +1 disc city lies in that province",
        all(b.prov(po[p]) == p for p in ROMAN),
        f"Ulterior {po['Ulterior']}, Citerior {po['Citerior']}",
    )
    return roads


def revolts_for(roll: int) -> int:
    return 3 if roll <= 2 else 2 if roll <= 4 else 1


def check_setup_example(b: Board, roads0: set) -> None:
    rolls = [4, 5, 2, 4, 3, 6]
    named = ["Salduba", "Segobriga", "Regina", "Conimbriga", "Asturica", "Flaviobriga"]
    counts = [2, 1, 3, 2, 2, 1]
    got = [b.code(p, r) for p, r in zip(HISPANIC, rolls)]
    check(
        "setup example: rolls 4-5-2-4-3-6 pick Salduba, Segobriga, Regina, Conimbriga, Asturica, Flaviobriga",
        got == named,
        str(got),
    )
    check(
        "setup example: revolt counts 2-1-3-2-2-1 (11) match the die table",
        [revolts_for(r) for r in rolls] == counts and sum(counts) == 11,
    )
    check("Ilerda is I-5", b.code("I", 5) == "Ilerda")
    check(
        "Flaviobriga is VI-6, a capital",
        b.code("VI", 6) == "Flaviobriga" and b.cities["Flaviobriga"]["capital"],
    )
    revolt_city = dict(zip(HISPANIC, named))
    armies = {p: revolt_city[p] for p in ("II", "V")}
    check(
        "setup example: armies rolled II and V stand in Segobriga and Asturica",
        armies == {"II": "Segobriga", "V": "Asturica"},
    )
    # fleets in seas 1-2-3; consul on the Mare Ibericum fleet
    fleets = {b.sea_by_num[i] for i in (1, 2, 3)}
    check(
        "setup example: 3 fleets in seas 1-2-3 include Mare Ibericum (consul's fleet)",
        "Mare Ibericum" in fleets,
    )
    gp, vp = b.prov("Gades"), b.prov("Valentia")
    check(
        "setup example: praetors in Gades and Valentia, one in each Roman province (Gades Ulterior)",
        {gp, vp} == set(ROMAN) and gp == "Ulterior" and not {"Gades", "Valentia"} & set(named),
    )
    revolts = set(named)
    roads = set(roads0)
    steps = [("Emerita", None), ("Capara", "Emerita"), ("Ilerda", None), ("Basti", "Carthago Nova")]
    # before any road: Capara must not be reachable in one road (the network must reach Emerita first)
    net = network_of(b, roads)
    capara_first = [n for n in b.land_adj["Capara"] if n in net]
    check(
        "setup example: Capara is not next to the pre-drawn network (Emerita must come first)",
        not capara_first and "Emerita" in b.land_adj["Capara"],
        str(capara_first),
    )
    log, ok = [], True
    for target, frm in steps:
        net = network_of(b, roads)
        if frm is None:
            cands = sorted(n for n in b.land_adj[target] if n in net)
            if not cands:
                ok = False
                log.append(f"no network city next to {target}")
                continue
            frm = cands[0]
        why = legal_road(b, roads, frm, target, revolts)
        if why:
            ok = False
            log.append(f"{frm}-{target}: {why}")
        roads.add(frozenset((frm, target)))
        log.append(f"{frm}-{target}")
    check(
        "setup example: 4 roads towards Emerita, Capara, Ilerda and Basti-Carthago Nova, each legal in turn",
        ok,
        ", ".join(log),
    )


# ---------------------------------------------------------------- scenarios
# Pieces per city, from the rulebook's scenario SETUP lines.
SCENARIOS = {
    "first_repression": {
        "Corduba": ["praetor_ulterior"],
        "Valentia": ["praetor_citerior"],
        "Baecula": ["garrison", "consul"],
        "Gerunda": ["revolt"] * 3,
        "Segobriga": ["revolt"],
        "Toletum": ["revolt"],
        "Puciala": ["revolt"] * 2 + ["army"],
        "Castulo": ["revolt"] * 2 + ["army"],
    },
    "numantia": {
        "Regina": ["garrison", "praetor_ulterior"],
        "Osca": ["garrison"],
        "Salduba": ["praetor_citerior"],
        "Segobriga": ["garrison"],
        "Toletum": ["consul"],
        "Calagurris": ["revolt"],
        "Numantia": ["revolt"] * 3 + ["army"],
    },
    "terror": {
        "Corduba": ["praetor_ulterior"],
        "Osca": ["garrison"],
        "Salduba": ["praetor_citerior"],
        "Segobriga": ["garrison"],
        "Baecula": ["consul"],
        "Calagurris": ["revolt"],
        "Numantia": ["revolt"] * 2,
        "Abula": ["revolt"] * 3 + ["special_army"],
    },
    "river_of_oblivion": {
        "Olisipo": ["garrison"],
        "Conimbriga": ["garrison", "praetor_ulterior"],
        "Osca": ["garrison"],
        "Salduba": ["praetor_citerior"],
        "Segobriga": ["garrison"],
        "Abula": ["consul"],
        "Calagurris": ["revolt"],
        "Numantia": ["revolt"] * 2,
        "Salmantica": ["revolt"],
        "Talabriga": ["revolt"],
        "Asturica": ["revolt"],
        "Pallantia": ["revolt"] * 2,
        "Lucus": ["revolt", "army"],
    },
    "new_empire": {
        "Asturica": ["revolt"],
        "Lancia": ["revolt"],
        "Noega": ["revolt"],
        "Pallantia": ["revolt"],
        "Aracillum": ["revolt"],
        "Flaviobriga": ["revolt"],
        "Olisipo": ["garrison"],
        "Bracara": ["garrison"],
        "Talabriga": ["praetor_ulterior"],
        "Osca": ["garrison"],
        "Pompaelo": ["garrison"],
        "Deobriga": ["praetor_citerior"],
        "Toletum": ["garrison"],
        "Numantia": ["garrison"],
        "Cauca": ["consul"],
    },
}
# Hispanic provinces whose initial revolt the scenario itself places ("do not place other ...").
SCENARIO_REVOLT_PROVINCES = {
    "first_repression": {"I", "II", "III"},
    "numantia": {"I", "II"},
    "terror": {"I", "II", "III"},
    "river_of_oblivion": set(HISPANIC),
    "new_empire": {"V", "VI"},
}
# Hispanic provinces that still get a random initial revolt (none where the text says
# "do not place other (initial) revolts"); Numantia limits Carpetania to cities 1-3-5.
RANDOM_REVOLT_PROVINCES = {
    "first_repression": {"IV", "V", "VI"},
    "numantia": {"III", "IV", "V", "VI"},
    "terror": {"IV", "V", "VI"},
    "river_of_oblivion": set(),
    "new_empire": set(),
}
NO_ARMY = {"numantia": {"I"}, "terror": {"I"}, "river_of_oblivion": {"I", "III", "IV"}}


def capacity_problems(b: Board, placement: dict) -> list[str]:
    bad = []
    armies = Counter()
    for city, pieces in placement.items():
        if city not in b.cities:
            bad.append(f"{city} not on the board")
            continue
        m = [x for x in pieces if x in MEEPLES]
        dsc = [x for x in pieces if x in DISCS]
        if len(m) > 1 or len(dsc) > 3:
            bad.append(f"{city}: {len(m)} meeples, {len(dsc)} discs")
        if "revolt" in pieces and (
            {"garrison"} & set(pieces)
            or {"praetor_ulterior", "praetor_citerior", "consul"} & set(pieces)
        ):
            bad.append(f"{city}: Roman piece on a revolt")
        if {"army", "special_army"} & set(pieces):
            if "revolt" not in pieces:
                bad.append(f"{city}: army without revolt")
            armies[b.prov(city)] += 1
    bad += [f"{p}: {k} armies" for p, k in armies.items() if k > 1]
    return bad


def check_scenarios(b: Board, roads0: set) -> None:
    lethe_north = set(b.d["lethe"]["north"])
    for name, placement in SCENARIOS.items():
        problems = capacity_problems(b, placement)
        revolt_cities = [c for c, p in placement.items() if "revolt" in p and c in b.cities]
        hisp = {b.prov(c) for c in revolt_cities} & set(HISPANIC)
        want = SCENARIO_REVOLT_PROVINCES[name]
        if hisp != want:
            problems.append(
                f"scenario revolts fall in provinces {sorted(hisp)}, the text implies {sorted(want)}"
            )
        # provinces left to the random revolt roll must not hold scenario pieces
        if RANDOM_REVOLT_PROVINCES[name] & want:
            problems.append("a province both placed by the scenario and left to the die")
        for p in RANDOM_REVOLT_PROVINCES[name]:
            held = [c for c in placement if c in b.cities and b.prov(c) == p]
            if name == "numantia" and p == "III":
                held = [c for c in held if b.cities[c]["number"] in (1, 3, 5)]
            if held:
                problems.append(f"random-revolt province {p} holds scenario pieces in {held}")
        # provinces barred to initial armies must hold a revolt city without an army
        army_prov = {b.prov(c) for c, p in placement.items() if {"army", "special_army"} & set(p)}
        for p in NO_ARMY.get(name, ()):
            if p in army_prov:
                problems.append(f"army already in barred province {p}")
            if p in want and not any(b.prov(c) == p for c in revolt_cities):
                problems.append(f"barred province {p} has no revolt, the bar would be idle")
        # further armies (level up to 3) must have somewhere to go
        room = [
            p
            for p in HISPANIC
            if p not in army_prov
            and p not in NO_ARMY.get(name, ())
            and (p in RANDOM_REVOLT_PROVINCES[name] or any(b.prov(c) == p for c in revolt_cities))
        ]
        if name != "new_empire" and len(army_prov) + len(room) < 3:
            problems.append(f"no room for 3 initial armies: {sorted(room)}")
        # roads: up to 5 (4 in River of Oblivion, exactly 5 in New Empire) placed by the basic rule
        need = 4 if name == "river_of_oblivion" else 5
        revolts = set(revolt_cities)
        roads = set(roads0)
        placed = 0
        while placed < need:
            net = network_of(b, roads)
            opts = sorted(
                (a, c)
                for a in sorted(net)
                for c in sorted(b.land_adj[a])
                if not legal_road(b, roads, a, c, revolts)
            )
            if not opts:
                break
            roads.add(frozenset(opts[0]))
            placed += 1
        if placed < need:
            problems.append(f"only {placed} legal roads of {need}")
        # scenario specifics
        if name == "first_repression" and b.prov("Puciala") == b.prov("Castulo"):
            problems.append("Puciala and Castulo share a province (two armies)")
        if name == "numantia":
            free = [b.code("III", k) for k in (1, 3, 5)]
            if any(x in placement for x in free):
                problems.append(f"Carpetania 1-3-5 not free: {free}")
            held = [c for c in placement if c in b.cities and b.prov(c) == "III"]
            if any(b.cities[c]["number"] not in (2, 4, 6) for c in held):
                problems.append(f"Carpetanian pieces outside cities 2-4-6: {held}")
        if name == "river_of_oblivion":
            roman_inside = [
                c for c, p in placement.items() if c in lethe_north and set(p) - {"revolt", "army"}
            ]
            if roman_inside:
                problems.append(f"Roman pieces north of the Durius: {roman_inside}")
        if name == "new_empire":
            v = [c for c in revolt_cities if b.prov(c) == "V"]
            vi = [c for c in revolt_cities if b.prov(c) == "VI"]
            if not v or not vi:
                problems.append("no Gallaecia or Cantabria revolt for the armies")
            for cv, cvi in itertools.product(v, vi):
                pl = {k: list(x) for k, x in placement.items()}
                pl[cv].append("army")
                pl[cvi].append("special_army")
                problems += capacity_problems(b, pl)
            if not {"Mare Atlanticum", "Mare Cantabricum"} <= set(b.seas):
                problems.append("fleet seas missing")
        check(
            f"scenario {name}: placeable (capacity, armies, province notes, roads)",
            not problems,
            "; ".join(problems[:4]),
        )


def check_lethe(b: Board) -> None:
    le = b.d["lethe"]
    north = set(le["north"])
    want = {n for n in b.cities if b.prov(n) == "V"} | {"Pallantia", "Aracillum"}
    check(
        "Lethe: the closed region is Gallaecia, Pallantia and Aracillum",
        north == want,
        str(sorted(north ^ want)),
    )
    dur = [tuple(p) for p in b.d["geography"]["rivers"]["Durius"]]
    geo_cross = {
        frozenset((ln["a"], ln["b"]))
        for ln in b.links
        if ln["kind"] == "land" and crossings(b.ll(ln["a"]), b.ll(ln["b"]), dur) % 2
    }
    any_cross = {
        frozenset((ln["a"], ln["b"]))
        for ln in b.links
        if ln["kind"] == "land" and crossings(b.ll(ln["a"]), b.ll(ln["b"]), dur)
    }
    listed = {frozenset(x) for x in le["crossing_links"]}
    check(
        "Lethe: crossing_links are exactly the links across the Durius",
        listed == geo_cross == any_cross and bool(listed),
        ", ".join(sorted("-".join(sorted(x)) for x in listed)),
    )
    bad = [
        tuple(x)
        for x in listed
        if len(x & north) != 1
        or b.link_by_pair[x]["segments"] < 2
        or b.link_by_pair[x]["terrain"] != "river:Durius"
    ]
    check(
        "Lethe: each crossing joins the north to the south and is a 2-segment Durius link",
        not bad,
        str(bad),
    )
    entries = {
        frozenset((ln["a"], ln["b"])) for ln in b.links if len({ln["a"], ln["b"]} & north) == 1
    }
    others = {frozenset(x) for x in le["other_entries"]}
    check(
        "Lethe: other_entries list the remaining links into the region",
        entries == listed | others and not listed & others,
        ", ".join(sorted("-".join(sorted(x)) for x in others)),
    )
    # removal matters: with the road, no Roman start reaches the region; after Brutus crosses, it does
    starts = {"Gades", "Valentia", "Olisipo", "Conimbriga"} | set(b.seas)
    closed = set()
    for s in starts:
        closed |= reachable(b.adj, s, blocked=frozenset(north))
    opened = []
    for x in listed:
        a, c = tuple(x)
        inside, outside = (a, c) if a in north else (c, a)
        r = reachable(b.adj, outside, closed_edges=frozenset(entries - {x}))
        opened.append(inside in r)
    check(
        "Lethe: the road seals the region; removing it at any crossing opens it",
        not (closed & north) and all(opened),
    )
    flav = [n for n in ("Flaviobriga", "Deobriga") if n not in north]
    check(
        "Lethe: Cantabria's other cities stay outside (reachable without crossing the Durius)",
        all(n in reachable(b.adj, "Gades", blocked=frozenset(north)) for n in flav),
    )


def check_time_track(b: Board) -> None:
    tt = b.d["time_track"]["years_bc"]
    check(
        "time track 198, 180, ..., 18 BC (11 spaces)",
        tt == list(range(198, 0, -18)) and len(tt) == 11,
        str(tt),
    )


def main(argv: list[str]) -> int:
    path = Path(argv[1]) if len(argv) > 1 else DEFAULT
    with open(path, "rb") as f:
        data = tomllib.load(f)
    b = Board(data)
    check_structure(b)
    check_provenance(b)
    check_positions(b)
    check_links(b)
    check_geography(b)
    check_connectivity(b)
    roads0 = check_roads(b)
    check_setup_example(b, roads0)
    check_scenarios(b, roads0)
    check_lethe(b)
    check_time_track(b)
    width = max(len(n) for n, _, _ in results)
    for name, ok, detail in results:
        line = f"{'OK  ' if ok else 'FAIL'} {name.ljust(width)}"
        if detail.strip("[]{}() ,") and (not ok or len(detail) < 90):
            line += f"  [{detail}]"
        print(line.rstrip())
    nfail = sum(not ok for _, ok, _ in results)
    print(
        f"\n{len(results) - nfail}/{len(results)} constraints OK"
        + (f", {nfail} FAIL" if nfail else "")
    )
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

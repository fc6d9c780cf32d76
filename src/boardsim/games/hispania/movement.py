"""Movement: where the generals may go and at what cost, the fleets, the armies' steps.

A general's move costs the segments of each link, a continuous chain of roads 1 in all;
he passes through cities without revolt and seas with a fleet, and may not stop where
another general stands. Fleets move along sea links through seas without revolt. An army
steps to a city of its province (or, its province all in revolt, of a province without
army), a revolt-free one first; between alternatives the Hispanic die picks by shield.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from boardsim.core.jit import jit
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.board import province_army, province_revolt_cities

INF = 1 << 20

assert D.NUM_SPACES <= 63, "space sets are 64-bit masks"

# the neighbours of each space by a link of 1, 2 or 3 segments, as bit sets (index 0 unused)
SEGMENT_NEIGHBOURS = np.zeros((D.NUM_SPACES, int(D.LINK_SEGMENTS.max()) + 1), np.int64)
for _u in range(D.NUM_SPACES):
    for _j in range(D.DEGREE[_u]):
        _v = D.NEIGHBOURS[_u, _j]
        SEGMENT_NEIGHBOURS[_u, D.LINK_SEGMENTS[D.ADJ_LINK[_u, _v]]] |= 1 << int(_v)
if SEGMENT_NEIGHBOURS.shape[1] != 4:
    raise ValueError("search_moves keeps 3 cost levels ahead: every link must have 1-3 segments")

# Lethe River: the cities north of the Durius, and the north cities each space links to
# by a link that does not cross the river (closed while the Lethe road lies)
LETHE_NORTH_SET = sum(1 << c for c in range(D.NUM_CITIES) if D.LETHE_NORTH[c] != 0)
LETHE_CLOSED = np.array(
    [
        sum(
            1 << int(v)
            for v in D.NEIGHBOURS[u, : D.DEGREE[u]]
            if v < D.NUM_CITIES
            and D.LETHE_NORTH[v] != 0
            and D.LETHE_CROSSINGS[D.ADJ_LINK[u, v]] == 0
        )
        for u in range(D.NUM_SPACES)
    ],
    np.int64,
)
SEGMENT_NEIGHBOURS_LETHE = SEGMENT_NEIGHBOURS & ~LETHE_CLOSED[:, None]


@jit
def general_can_enter(state: np.ndarray, s: int, g: int) -> bool:
    """A general may pass through ``s``: a city without revolt, or a sea with a fleet.

    Lethe River: while the road lies, north of the Durius is closed to all but the praetor
    of Ulterior (Brutus), who may enter it across the river only (see ``search_moves``).
    """
    if s >= D.FIRST_SEA:
        return state[L.FLEET + s - D.FIRST_SEA] != 0
    if state[L.LETHE] != 0 and D.LETHE_NORTH[s] != 0 and g != 0:
        return False
    return state[L.REVOLTS + s] == 0


@jit
def move_costs(state: np.ndarray, g: int, costs: np.ndarray) -> None:
    """Cheapest cost from general ``g``'s space to every space (INF: unreachable).

    A link costs its segments; a continuous chain of roads costs 1 in all. Spaces with
    another general or fleet may be crossed but not stopped on (the caller checks).
    """
    move_costs_within(state, g, state[L.GEN_POS + g], INF - 1, costs)


@jit
def move_costs_within(state: np.ndarray, g: int, start: int, limit: int, costs: np.ndarray) -> None:
    """As ``move_costs``, from space ``start``, for the spaces within ``limit`` denarii
    (INF beyond)."""
    search_moves(state, g, start, limit, -1, costs)


@jit
def move_reach(state: np.ndarray, g: int, start: int, limit: int) -> int:
    """The spaces general ``g`` can reach from ``start`` for 1..``limit`` denarii, as a bit
    set (the caller checks where he may stop)."""
    reach, _ = search_moves(state, g, start, limit, -1, None)
    return reach


@jit
def move_cost_within(state: np.ndarray, g: int, start: int, limit: int, target: int) -> int:
    """Denarii from ``start`` to ``target`` for general ``g`` if at most ``limit``, else INF."""
    _, cost = search_moves(state, g, start, limit, target, None)
    return cost


@jit
def search_moves(
    state: np.ndarray, g: int, start: int, limit: int, target: int, costs: np.ndarray | None
) -> tuple[int, int]:
    """The one search behind every move query: (the spaces general ``g`` reaches from
    ``start`` for 1..``limit`` denarii, as a bit set; the cost of ``target``, INF beyond
    ``limit``), stopping once ``target`` (if >= 0) is settled. ``costs`` (an array, or
    None; with ``target`` -1) receives every space's cost, INF beyond ``limit``.

    Dijkstra over (space, on a road chain) pairs, found a cost level at a time on bit
    sets: every pair first reached at cost ``c`` is settled together, a road chain
    spreads at no cost within its level, and links of 1-3 segments feed the next three
    levels. Under the Lethe River event the links closed to Brutus drop out of the
    neighbour sets and the cities north of the Durius, where he stops, expand no further.
    """
    if costs is not None:
        for x in range(D.NUM_SPACES):
            costs[x] = INF
    if limit < 0 or start < 0:
        return 0, INF
    if target == start:
        return 0, 0
    lethe = state[L.LETHE] != 0
    enterable = 0  # general_can_enter for every space
    for x in range(D.FIRST_SEA):
        if state[L.REVOLTS + x] == 0:
            enterable |= 1 << x
    for x in range(D.FIRST_SEA, D.NUM_SPACES):
        if state[L.FLEET + x - D.FIRST_SEA] != 0:
            enterable |= 1 << x
    roads = np.zeros(D.NUM_SPACES, np.int64)  # road_neighbours of every space
    for li in range(D.NUM_LINKS):
        if state[L.ROADS + li] != 0:
            roads[D.LINK_A[li]] |= 1 << D.LINK_B[li]
            roads[D.LINK_B[li]] |= 1 << D.LINK_A[li]
    segments = SEGMENT_NEIGHBOURS
    stop = 0  # spaces reached that lead no further
    if lethe:
        if g != 0:
            enterable &= ~LETHE_NORTH_SET
        segments = SEGMENT_NEIGHBOURS_LETHE
        stop = LETHE_NORTH_SET & ~(1 << start)  # Brutus stops once across the river
        for x in range(D.NUM_SPACES):
            roads[x] = 0 if (stop >> x) & 1 else roads[x] & ~LETHE_CLOSED[x]
    level0 = 1 << start  # pairs off a road chain reached at this cost
    ahead1 = 0  # ... at this cost + 1, + 2, + 3
    ahead2 = 0
    ahead3 = 0
    chain0 = 0  # pairs on a road chain reached at this cost
    chain1 = 0  # ... at this cost + 1
    settled0 = 0
    settled1 = 0
    reach = 0
    not_start = ~(1 << start)
    for c in range(limit + 1):
        off = level0 & ~settled0
        on = chain0 & ~settled1
        # along the road chains: no cost within this level
        frontier = on
        while frontier != 0:
            grown = 0
            while frontier != 0:
                u = trailing_zeros(frontier)
                frontier &= frontier - 1
                grown |= roads[u]
            grown &= enterable & ~settled1 & ~on
            on |= grown
            frontier = grown
        settled0 |= off
        settled1 |= on
        here = off | on
        if costs is not None:
            first = here & ~reach  # reached for the first time: at this cost
            while first != 0:
                costs[trailing_zeros(first)] = c
                first &= first - 1
        reach |= here
        if target >= 0 and (here >> target) & 1:
            return reach & not_start, c
        both = here & ~stop
        while both != 0:
            u = trailing_zeros(both)
            both &= both - 1
            by_road = roads[u]
            if (off >> u) & 1:
                chain1 |= by_road  # onto a road: 1 for the whole chain
            ahead1 |= segments[u, 1] & ~by_road
            ahead2 |= segments[u, 2] & ~by_road
            ahead3 |= segments[u, 3] & ~by_road
        level0 = ahead1 & enterable
        ahead1 = ahead2
        ahead2 = ahead3
        ahead3 = 0
        chain0 = chain1 & enterable
        chain1 = 0
        if level0 == 0 and chain0 == 0 and ahead1 == 0 and ahead2 == 0:
            break
    return reach & not_start, INF


# the seas joined to each sea by a sea link, as bit sets over the sea numbers
SEA_NEIGHBOURS = np.array(
    [
        sum(1 << y for y in range(D.NUM_SEAS) if D.ADJ_LINK[D.FIRST_SEA + x, D.FIRST_SEA + y] >= 0)
        for x in range(D.NUM_SEAS)
    ],
    np.int64,
)


@jit
def calm_seas(state: np.ndarray) -> int:
    """The seas without revolt, as a bit set over the sea numbers."""
    calm = 0
    for x in range(D.NUM_SEAS):
        if state[L.REVOLTS + D.FIRST_SEA + x] == 0:
            calm |= 1 << x
    return calm


@jit
def fleet_search(calm: int, a: int, limit: int, target: int) -> tuple[int, int]:
    """The one search behind the fleet moves: (the seas a fleet sails to from sea ``a``
    within ``limit`` sea links through the ``calm`` seas, ``a`` included, as a bit set;
    the links to sea ``target``, INF beyond ``limit``), stopping once ``target`` (if >= 0)
    is reached. Breadth first, a link at a time."""
    seen = 1 << a
    if target == a:
        return seen, 0
    frontier = seen
    for c in range(1, limit + 1):
        grown = 0
        while frontier != 0:
            x = trailing_zeros(frontier)
            frontier &= frontier - 1
            grown |= SEA_NEIGHBOURS[x]
        frontier = grown & calm & ~seen
        if frontier == 0:
            break
        seen |= frontier
        if target >= 0 and (frontier >> target) & 1:
            return seen, c
    return seen, INF


@jit
def fleet_move_cost(state: np.ndarray, a: int, b: int) -> int:
    """Denarii to move the fleet of sea ``a`` to sea ``b`` (0-based sea numbers)."""
    if a == b or state[L.FLEET + a] == 0 or state[L.FLEET + b] != 0:
        return INF
    if state[L.REVOLTS + D.FIRST_SEA + b] != 0:
        return INF
    _, cost = fleet_search(calm_seas(state), a, D.NUM_SEAS, b)
    return cost


@jit
def move_armies_candidates(state: np.ndarray, k: int, cands: np.ndarray) -> int:
    """The cities army ``k`` may try to move to; returns how many (no-revolt priority applied)."""
    a = state[L.ARMY_POS + k]
    p = D.CITY_PROVINCE[a]
    nrev, ntot = province_revolt_cities(state, p)
    full = nrev == ntot
    n = 0
    for j in range(D.DEGREE[a]):
        v = D.NEIGHBOURS[a, j]
        if v >= D.FIRST_SEA:
            continue
        if D.CITY_PROVINCE[v] == p or (full and province_army(state, D.CITY_PROVINCE[v]) < 0):
            cands[n] = v
            n += 1
    free = 0
    for i in range(n):
        if state[L.REVOLTS + cands[i]] == 0:
            free += 1
    if free > 0 and free < n:
        m = 0
        for i in range(n):
            if state[L.REVOLTS + cands[i]] == 0:
                cands[m] = cands[i]
                m += 1
        n = m
    return n


@jit
def choose_by_shield(cands: np.ndarray, n: int, die: int) -> int:
    """The alternative whose shield is closest to ``die``; -1 on equidistance."""
    best = INF
    pick = -1
    tie = False
    for i in range(n):
        d = abs(D.CITY_SHIELD[cands[i]] - die)
        if d < best:
            best = d
            pick = cands[i]
            tie = False
        elif d == best:
            tie = True
    return -1 if tie else pick

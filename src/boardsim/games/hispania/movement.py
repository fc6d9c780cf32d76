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
from boardsim.games.hispania.board import general_at, province_army, province_revolt_cities
from boardsim.games.hispania.data import (
    ADJ_LINK,
    CITY_PROVINCE,
    CITY_SHIELD,
    DEGREE,
    FIRST_SEA,
    LETHE_CROSSINGS,
    LETHE_NORTH,
    LINK_A,
    LINK_B,
    LINK_SEGMENTS,
    NEIGHBOURS,
    NUM_CITIES,
    NUM_LINKS,
    NUM_SEAS,
    NUM_SPACES,
)
from boardsim.games.hispania.layout import ARMY_POS, FLEET, GEN_POS, LETHE, REVOLTS, ROADS

INF = 1 << 20


@jit
def general_can_enter(state: np.ndarray, s: int, g: int) -> bool:
    """A general may pass through ``s``: a city without revolt, or a sea with a fleet.

    Lethe River: while the road lies, north of the Durius is closed to all but the praetor
    of Ulterior (Brutus), who may enter it across the river only (see ``move_costs``).
    """
    if s >= FIRST_SEA:
        return state[FLEET + s - FIRST_SEA] != 0
    if state[LETHE] != 0 and LETHE_NORTH[s] != 0 and g != 0:
        return False
    return state[REVOLTS + s] == 0


@jit
def move_costs(state: np.ndarray, g: int, costs: np.ndarray) -> None:
    """Cheapest cost from general ``g``'s space to every space (INF: unreachable).

    A link costs its segments; a continuous chain of roads costs 1 in all. Spaces with
    another general or fleet may be crossed but not stopped on (the caller checks).
    """
    move_costs_from(state, g, state[GEN_POS + g], costs)


assert NUM_SPACES <= 63, "space sets are 64-bit masks"


@jit
def move_costs_from(state: np.ndarray, g: int, start: int, costs: np.ndarray) -> None:
    """As ``move_costs``, from space ``start``."""
    move_costs_within(state, g, start, INF - 1, costs)


@jit
def move_costs_within(state: np.ndarray, g: int, start: int, limit: int, costs: np.ndarray) -> None:
    """As ``move_costs_from``, for the spaces within ``limit`` denarii (INF beyond).

    Dijkstra over (space, on a road chain) pairs; the open list holds only the pairs
    reached and not yet settled, and the search stops past ``limit``.
    """
    best = np.full((NUM_SPACES, 2), INF, np.int64)
    done = np.zeros((NUM_SPACES, 2), np.uint8)
    open_pairs = np.empty(2 * NUM_SPACES, np.int64)  # s * 2 + q
    n_open = 1
    best[start, 0] = 0
    open_pairs[0] = start * 2
    lethe = state[LETHE] != 0
    while n_open > 0:
        k = 0
        bu = INF
        for i in range(n_open):
            pair = open_pairs[i]
            if best[pair >> 1, pair & 1] < bu:
                bu = best[pair >> 1, pair & 1]
                k = i
        if bu > limit:
            break
        pair = open_pairs[k]
        n_open -= 1
        open_pairs[k] = open_pairs[n_open]
        u = pair >> 1
        r = pair & 1
        done[u, r] = 1
        if lethe and u != start and u < NUM_CITIES and LETHE_NORTH[u] != 0:
            continue  # Brutus stops once across the river
        for j in range(DEGREE[u]):
            v = NEIGHBOURS[u, j]
            if not general_can_enter(state, v, g):
                continue
            li = ADJ_LINK[u, v]
            if lethe and v < NUM_CITIES and LETHE_NORTH[v] != 0 and LETHE_CROSSINGS[li] == 0:
                continue  # only across the Durius
            if state[ROADS + li] != 0:
                c = bu + (0 if r == 1 else 1)
                q2 = 1
            else:
                c = bu + LINK_SEGMENTS[li]
                q2 = 0
            if c < best[v, q2] and done[v, q2] == 0:
                if best[v, q2] >= INF:
                    open_pairs[n_open] = v * 2 + q2
                    n_open += 1
                best[v, q2] = c
    for x in range(NUM_SPACES):
        c = min(best[x, 0], best[x, 1])
        costs[x] = c if c <= limit else INF


MAX_DEGREE = int(DEGREE.max())


@jit
def move_reach(state: np.ndarray, g: int, start: int, limit: int) -> int:
    """The spaces general ``g`` can reach from ``start`` for 1..``limit`` denarii, as a bit
    set (the costs of ``move_costs_within``; the caller checks where he may stop)."""
    reach, _ = search_moves(state, g, start, limit, -1)
    return reach


@jit
def move_cost_within(state: np.ndarray, g: int, start: int, limit: int, target: int) -> int:
    """Denarii from ``start`` to ``target`` for general ``g`` if at most ``limit``, else INF."""
    _, cost = search_moves(state, g, start, limit, target)
    return cost


# the seas joined to each sea by a sea link, as bit sets over the sea numbers
SEA_NEIGHBOURS = np.array(
    [
        sum(1 << y for y in range(NUM_SEAS) if ADJ_LINK[FIRST_SEA + x, FIRST_SEA + y] >= 0)
        for x in range(NUM_SEAS)
    ],
    np.int64,
)


# the neighbours of each space by a link of 1, 2 or 3 segments, as bit sets (index 0 unused)
SEGMENT_NEIGHBOURS = np.zeros((NUM_SPACES, int(LINK_SEGMENTS.max()) + 1), np.int64)


for _u in range(NUM_SPACES):
    for _j in range(DEGREE[_u]):
        _v = NEIGHBOURS[_u, _j]
        SEGMENT_NEIGHBOURS[_u, LINK_SEGMENTS[ADJ_LINK[_u, _v]]] |= 1 << int(_v)


if SEGMENT_NEIGHBOURS.shape[1] != 4:
    raise ValueError("search_moves keeps 3 cost levels ahead: every link must have 1-3 segments")


@jit
def search_moves(state: np.ndarray, g: int, start: int, limit: int, target: int):
    """The search behind ``move_reach`` and ``move_cost_within``: (reach bit set, cost of
    ``target``), stopping once ``target`` (if >= 0) is settled.

    The same costs as ``move_costs_within`` (Dijkstra over (space, on a road chain)
    pairs), found a cost level at a time on bit sets: every pair first reached at
    cost ``c`` is settled together, a road chain spreads at no cost within its
    level, and links of 1-3 segments feed the next three levels. It runs for every
    Roman decision. Under the Lethe River event (Brutus alone crosses the Durius
    and stops there) the pair-by-pair search ``search_moves_lethe`` is used.
    """
    if limit < 0 or start < 0:
        return 0, INF
    if target == start:
        return 0, 0
    if state[LETHE] != 0:
        return search_moves_lethe(state, g, start, limit, target)
    enterable = 0  # general_can_enter for every space, the Lethe River aside
    for x in range(FIRST_SEA):
        if state[REVOLTS + x] == 0:
            enterable |= 1 << x
    for x in range(FIRST_SEA, NUM_SPACES):
        if state[FLEET + x - FIRST_SEA] != 0:
            enterable |= 1 << x
    roads = np.zeros(NUM_SPACES, np.int64)  # road_neighbours of every space
    for li in range(NUM_LINKS):
        if state[ROADS + li] != 0:
            roads[LINK_A[li]] |= 1 << LINK_B[li]
            roads[LINK_B[li]] |= 1 << LINK_A[li]
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
        reach |= here
        if target >= 0 and (here >> target) & 1:
            return reach & not_start, c
        both = here
        while both != 0:
            u = trailing_zeros(both)
            both &= both - 1
            by_road = roads[u]
            if (off >> u) & 1:
                chain1 |= by_road  # onto a road: 1 for the whole chain
            ahead1 |= SEGMENT_NEIGHBOURS[u, 1] & ~by_road
            ahead2 |= SEGMENT_NEIGHBOURS[u, 2] & ~by_road
            ahead3 |= SEGMENT_NEIGHBOURS[u, 3] & ~by_road
        level0 = ahead1 & enterable
        ahead1 = ahead2
        ahead2 = ahead3
        ahead3 = 0
        chain0 = chain1 & enterable
        chain1 = 0
        if level0 == 0 and chain0 == 0 and ahead1 == 0 and ahead2 == 0:
            break
    return reach & not_start, INF


@jit
def search_moves_lethe(state: np.ndarray, g: int, start: int, limit: int, target: int):
    """``search_moves`` under the Lethe River event, pair by pair.

    The same search as ``move_costs_within``: costs are small integers, so the open
    pairs wait in one bucket a cost (Dial's algorithm), and nothing dearer than
    ``limit`` is ever queued.
    """
    pairs = 2 * NUM_SPACES
    pushes = pairs * MAX_DEGREE + 1
    # one work array: best cost of pair s*2+q | bucket heads | pushed pair | next push
    work = np.empty(pairs + (limit + 1) + 2 * pushes, np.int64)
    HEAD = pairs
    ITEM = HEAD + limit + 1
    NEXT = ITEM + pushes
    for i in range(pairs):
        work[i] = INF
    for c in range(limit + 1):
        work[HEAD + c] = -1
    work[start * 2] = 0
    work[ITEM] = start * 2
    work[NEXT] = -1
    work[HEAD] = 0
    n_push = 1
    settled0 = 0  # spaces settled off a road chain
    settled1 = 0  # spaces settled on a road chain
    reach = 0
    lethe = state[LETHE] != 0
    enterable = 0  # general_can_enter, for every space at once
    for x in range(NUM_SPACES):
        if general_can_enter(state, x, g):
            enterable |= 1 << x
    for bu in range(limit + 1):
        while work[HEAD + bu] >= 0:
            i = work[HEAD + bu]
            work[HEAD + bu] = work[NEXT + i]
            pair = work[ITEM + i]
            u = pair >> 1
            r = pair & 1
            if work[pair] != bu or ((settled1 if r else settled0) >> u) & 1:
                continue  # a stale entry: settled already, or cheaper since
            if r == 0:
                settled0 |= 1 << u
            else:
                settled1 |= 1 << u
            if u != start:
                reach |= 1 << u
            if u == target:
                return reach, bu
            if lethe and u != start and u < NUM_CITIES and LETHE_NORTH[u] != 0:
                continue  # Brutus stops once across the river
            for j in range(DEGREE[u]):
                v = NEIGHBOURS[u, j]
                if (enterable >> v) & 1 == 0:
                    continue
                li = ADJ_LINK[u, v]
                if lethe and v < NUM_CITIES and LETHE_NORTH[v] != 0 and LETHE_CROSSINGS[li] == 0:
                    continue  # only across the Durius
                if state[ROADS + li] != 0:
                    c = bu + (0 if r == 1 else 1)
                    v2 = v * 2 + 1
                else:
                    c = bu + LINK_SEGMENTS[li]
                    v2 = v * 2
                if c <= limit and c < work[v2]:
                    work[v2] = c
                    work[ITEM + n_push] = v2
                    work[NEXT + n_push] = work[HEAD + c]
                    work[HEAD + c] = n_push
                    n_push += 1
    return reach, INF


@jit
def move_general_cost(state: np.ndarray, g: int, s: int) -> int:
    """Denarii to move general ``g`` to space ``s`` (INF if he may not stop there)."""
    if state[GEN_POS + g] == s or general_at(state, s) >= 0:
        return INF
    if not general_can_enter(state, s, g):
        return INF
    costs = np.zeros(NUM_SPACES, np.int64)
    move_costs(state, g, costs)
    return costs[s]


@jit
def fleet_distances(state: np.ndarray, a: int, dist: np.ndarray) -> None:
    """Sea links from sea ``a`` to every sea, never through a sea in revolt (INF: none)."""
    for x in range(NUM_SEAS):
        dist[x] = INF
    dist[a] = 0
    changed = True
    while changed:
        changed = False
        for x in range(NUM_SEAS):
            if dist[x] >= INF:
                continue
            for y in range(NUM_SEAS):
                if (
                    ADJ_LINK[FIRST_SEA + x, FIRST_SEA + y] >= 0
                    and dist[x] + 1 < dist[y]
                    and state[REVOLTS + FIRST_SEA + y] == 0
                ):
                    dist[y] = dist[x] + 1
                    changed = True


@jit
def fleet_move_cost(state: np.ndarray, a: int, b: int) -> int:
    """Denarii to move the fleet of sea ``a`` to sea ``b`` (0-based sea numbers)."""
    if a == b or state[FLEET + a] == 0 or state[FLEET + b] != 0:
        return INF
    if state[REVOLTS + FIRST_SEA + b] != 0:
        return INF
    dist = np.empty(NUM_SEAS, np.int64)
    fleet_distances(state, a, dist)
    return dist[b]


@jit
def move_armies_candidates(state: np.ndarray, k: int, cands: np.ndarray) -> int:
    """The cities army ``k`` may try to move to; returns how many (no-revolt priority applied)."""
    a = state[ARMY_POS + k]
    p = CITY_PROVINCE[a]
    nrev, ntot = province_revolt_cities(state, p)
    full = nrev == ntot
    n = 0
    for j in range(DEGREE[a]):
        v = NEIGHBOURS[a, j]
        if v >= FIRST_SEA:
            continue
        if CITY_PROVINCE[v] == p or (full and province_army(state, CITY_PROVINCE[v]) < 0):
            cands[n] = v
            n += 1
    free = 0
    for i in range(n):
        if state[REVOLTS + cands[i]] == 0:
            free += 1
    if free > 0 and free < n:
        m = 0
        for i in range(n):
            if state[REVOLTS + cands[i]] == 0:
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
        d = abs(CITY_SHIELD[cands[i]] - die)
        if d < best:
            best = d
            pick = cands[i]
            tie = False
        elif d == best:
            tie = True
    return -1 if tie else pick

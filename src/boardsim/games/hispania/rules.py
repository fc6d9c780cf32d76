"""Hispania's compiled rules: small kernels named after the rulebook's rules.

numpy and numba only. The state layout is in ``layout.py``; every die roll is a
chance node (``chance_weights`` / ``apply_chance``); options are params ints.
Decisions where the rulebook is silent are documented in ``docs/rules/hispania.md``.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from boardsim.core.header import (
    CHANCE,
    FLAG_TERMINAL,
    H_ACTOR,
    H_CHANCE_KIND,
    H_FLAGS,
    P_NUM_PLAYERS,
    TERMINAL,
)
from boardsim.core.jit import jit
from boardsim.games.hispania.data import (
    ADJ_LINK,
    CITY_CAPITAL,
    CITY_PROVINCE,
    CITY_SHIELD,
    DEGREE,
    FIRST_SEA,
    INITIAL_ROADS,
    LETHE_CROSSINGS,
    LETHE_NORTH,
    LINK_A,
    LINK_B,
    LINK_SEA,
    LINK_SEGMENTS,
    NEIGHBOURS,
    NUM_CITIES,
    NUM_HISPANIC,
    NUM_LINKS,
    NUM_SEAS,
    NUM_SPACES,
    PLUS_ONE_CITY,
    SCEN_ARMIES,
    SCEN_ARMY_DIE,
    SCEN_DISPLAY,
    SCEN_FACES,
    SCEN_FLEET_SEAS,
    SCEN_GARRISONS,
    SCEN_GENERALS,
    SCEN_GUERRILLA,
    SCEN_LETHE,
    SCEN_NO_ARMY,
    SCEN_RANDOM,
    SCEN_REVOLTS,
    SCEN_START_HISPANIC,
    SCEN_TRACK,
    SCEN_TRACK_LIMIT,
    SCEN_TURN,
    SETUP_REVOLTS_BY_DIE,
    TOTAL_REVOLTS,
)
from boardsim.games.hispania.layout import (
    A_ASSASSINATE,
    A_ATTACK,
    A_BESIEGE,
    A_CANCEL,
    A_FLEET,
    A_GARRISON,
    A_H_ACCEPT,
    A_H_ARMY,
    A_H_CITY,
    A_H_FACE,
    A_H_REROLL_H,
    A_H_REROLL_R,
    A_H_SPEND,
    A_LEGIO,
    A_PASS,
    A_PROCONSUL,
    A_ROAD,
    A_SELECT,
    A_SPACE,
    A_SPEND,
    A_UNGARRISON,
    A_UNLEGIO,
    ARMY_ORDER,
    ARMY_POS,
    CB_ARMY_GARRISON,
    CB_ARMY_GENERAL,
    CB_ASSASSINATE,
    CB_ATTACK,
    CB_SIEGE,
    CK_HISP_DIE,
    CK_MOVE_DIE,
    CK_REVOLT_CITY,
    CK_REVOLT_PROV,
    CK_ROMAN_DIE,
    CK_SETUP_ARMY,
    CK_SETUP_REVOLT,
    CK_TERROR,
    COMBAT_ARMY,
    COMBAT_GEN,
    COMBAT_KIND,
    COMBAT_SPENT,
    COMBAT_TARGET,
    COUNTER,
    CUR,
    DENARII,
    DIE_H,
    DIE_R,
    DISPLAY,
    FLEET,
    GARR,
    GARR_RESERVE,
    GEN_POS,
    GONE,
    H_ACCEPTED,
    H_ATTACK,
    HDENARII,
    HELD_ROADS,
    HISP_BONUS,
    HISPANO,
    LEGIO_COLOUR,
    LEGIO_OWNER,
    LETHE,
    MAX_CHANCE_OUTCOMES,
    MAX_PLAYERS,
    MOVER,
    NUM_ACTIONS,
    NUM_ARMY_SLOTS,
    NUM_GENERALS,
    NUM_PHASES,
    OBS_CONTEXT,
    OBS_EXTRA,
    OBS_PER_SPACE,
    OBS_PHASE,
    OBS_PLAYER,
    OBS_ROADS,
    OBS_SCALARS,
    OBS_SIZE,
    OBS_TURN,
    P_ARMIES,
    P_AUTO_SETUP,
    P_DENARII,
    P_FLEETS,
    P_GARRISONS,
    P_HISPANO,
    P_IMPERIVM,
    P_INGENIVM,
    P_LEGIO,
    P_PIRATES,
    P_PROCONSVL,
    P_REWARD,
    P_ROADS,
    P_SCENARIO,
    P_TERROR,
    P_TRAITORS,
    PEND_KIND,
    PEND_TARGET,
    PH_ARMY_COMBAT,
    PH_ARMY_MOVE,
    PH_FREE_MOVE,
    PH_H_ATTACK,
    PH_H_ATTACK_SPEND,
    PH_H_ATTACK_TARGET,
    PH_H_COMBAT,
    PH_H_MOVE,
    PH_H_REINFORCE,
    PH_H_REROLL_CITY,
    PH_H_REROLL_PROV,
    PH_H_REVOLT,
    PH_MOVE_DIE,
    PH_MOVE_START,
    PH_OVER,
    PH_REENTER,
    PH_REVOLT_CITY,
    PH_REVOLT_PROV,
    PH_ROMAN,
    PH_ROMAN_COMBAT,
    PH_SETUP_ARMY,
    PH_SETUP_PLACE,
    PH_SETUP_REVOLT,
    PH_SETUP_ROAD,
    PH_TERROR,
    PH_TURN_END,
    PH_TURN_NEXT,
    PH_TURN_START,
    PHASE,
    PK_ASSASSINATE,
    PK_ATTACK,
    PK_BESIEGE,
    PLACE_CITY,
    PROCONSUL,
    PROGRESS_TIME,
    PROGRESS_WEIGHT,
    RESERVE,
    RESUME_PHASE,
    REVOLT_NUM,
    REVOLT_PROV,
    REVOLT_RESUME,
    REVOLTS,
    ROADS,
    SETUP_CITY,
    SPECIAL,
    STACK,
    STANDING_CAPITALS,
    STANDING_CLEAR,
    STANDING_RESERVE,
    STATE_SIZE,
    TRACK,
    TRAITORS_USED,
    TURN,
    W_HISPANIA,
    W_NONE,
    W_ROME,
    WINNER,
)

__all__ = ["MAX_CHANCE_OUTCOMES", "MAX_PLAYERS", "NUM_ACTIONS", "OBS_SIZE", "STATE_SIZE"]

INF = 1 << 20
NUM_BASE_ARMIES = 3  # the special army (slot 3) only enters under the Terror variant
NUM_ROMAN_GENERALS = 3  # the proconsul (slot 3) only enters under the Proconsvl variant


# ---------------------------------------------------------------- board queries
@jit
def general_at(state: np.ndarray, s: int) -> int:
    """The general on space ``s``, or -1."""
    for g in range(NUM_GENERALS):
        if state[GEN_POS + g] == s:
            return g
    return -1


@jit
def army_at(state: np.ndarray, c: int) -> int:
    """The army slot on city ``c``, or -1."""
    for k in range(NUM_ARMY_SLOTS):
        if state[ARMY_POS + k] == c:
            return k
    return -1


@jit
def garrison_count(state: np.ndarray, c: int) -> int:
    n = 0
    for i in range(STACK):
        if state[GARR + c * STACK + i] != 0:
            n += 1
    return n


@jit
def province_army(state: np.ndarray, p: int) -> int:
    """The army slot standing in province ``p``, or -1."""
    for k in range(NUM_ARMY_SLOTS):
        c = state[ARMY_POS + k]
        if c >= 0 and CITY_PROVINCE[c] == p:
            return k
    return -1


@jit
def province_revolt_cities(state: np.ndarray, p: int) -> tuple[int, int]:
    """How many cities of province ``p`` hold a revolt, and how many cities it has."""
    n = 0
    total = 0
    for c in range(NUM_CITIES):
        if CITY_PROVINCE[c] == p:
            total += 1
            if state[REVOLTS + c] > 0:
                n += 1
    return n, total


@jit
def is_adjacent(a: int, b: int) -> bool:
    return ADJ_LINK[a, b] >= 0


@jit
def on_network(state: np.ndarray, c: int) -> bool:
    """City ``c`` already has a road."""
    for j in range(DEGREE[c]):
        n = NEIGHBOURS[c, j]
        if state[ROADS + ADJ_LINK[c, n]] != 0:
            return True
    return False


@jit
def place_revolt(state: np.ndarray, s: int) -> bool:
    """Take a revolt from the reserve onto ``s``; none left is a Hispanic victory."""
    if state[RESERVE] <= 0:
        state[WINNER] = W_HISPANIA
        return False
    state[RESERVE] -= 1
    state[REVOLTS + s] += 1
    return True


@jit
def roman_victory(state: np.ndarray) -> bool:
    """Garrisons in the 6 Hispanic capitals and no revolt in the Roman provinces."""
    for p in range(NUM_HISPANIC):
        if state[GARR + (p * 6 + 5) * STACK] == 0:
            return False
    for c in range(NUM_CITIES):
        if CITY_PROVINCE[c] >= NUM_HISPANIC and state[REVOLTS + c] > 0:
            return False
    return True


# ---------------------------------------------------------------- movement
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


# ---------------------------------------------------------------- combat values
@jit
def garrison_support(state: np.ndarray, g: int) -> int:
    """His garrisons in groups connected to general ``g``, plus a praetor's "+1" disc."""
    s = state[GEN_POS + g]
    comp = np.full(NUM_CITIES, -1, np.int32)
    stack = np.zeros(NUM_CITIES, np.int32)
    total = 0
    reach = np.zeros(NUM_SPACES, np.uint8)
    if s >= 0:
        reach[s] = 1
    for c0 in range(NUM_CITIES):
        if comp[c0] >= 0 or _support_discs(state, c0, g) == 0:
            continue
        # flood one group of cities holding his garrisons
        comp[c0] = c0
        top = 0
        stack[top] = c0
        top += 1
        members = 0
        discs = 0
        connected = False
        first = c0
        while top > 0:
            top -= 1
            c = stack[top]
            members += 1
            discs += _support_discs(state, c, g)
            if s >= 0 and (c == s or is_adjacent(c, s)):
                connected = True
            for j in range(DEGREE[c]):
                v = NEIGHBOURS[c, j]
                if v < NUM_CITIES and comp[v] < 0 and _support_discs(state, v, g) > 0:
                    comp[v] = first
                    stack[top] = v
                    top += 1
        if connected:
            total += discs
            for c in range(NUM_CITIES):
                if comp[c] == first:
                    reach[c] = 1
    if g < 2 and s >= 0:
        prov = 6 + g
        plus = False
        for x in range(NUM_SPACES):
            if reach[x] == 0:
                continue
            if x < NUM_CITIES and CITY_PROVINCE[x] == prov:
                plus = True
            for j in range(DEGREE[x]):
                v = NEIGHBOURS[x, j]
                if v < NUM_CITIES and CITY_PROVINCE[v] == prov:
                    plus = True
        if plus:
            total += 1
    return total


@jit
def _support_discs(state: np.ndarray, c: int, g: int) -> int:
    """Discs of city ``c`` that count as general ``g``'s: his colour, and (for the three
    generals) the Legio Hispana disc, which every general considers his."""
    n = 0
    for i in range(STACK):
        col = state[GARR + c * STACK + i]
        if col == g + 1 or (col == LEGIO_COLOUR and g < NUM_ROMAN_GENERALS):
            n += 1
    return n


@jit
def _own_discs(state: np.ndarray, c: int, colour: int) -> int:
    n = 0
    for i in range(STACK):
        if state[GARR + c * STACK + i] == colour:
            n += 1
    return n


@jit
def revolt_group(state: np.ndarray, s: int) -> int:
    """Revolt discs in the connected group of revolt spaces containing ``s``."""
    seen = np.zeros(NUM_SPACES, np.uint8)
    stack = np.zeros(NUM_SPACES, np.int32)
    if state[REVOLTS + s] == 0:
        return 0
    seen[s] = 1
    stack[0] = s
    top = 1
    total = 0
    while top > 0:
        top -= 1
        u = stack[top]
        total += state[REVOLTS + u]
        for j in range(DEGREE[u]):
            v = NEIGHBOURS[u, j]
            if seen[v] == 0 and state[REVOLTS + v] > 0:
                seen[v] = 1
                stack[top] = v
                top += 1
    return total


@jit
def generals_connected(state: np.ndarray, t: int, exclude: int) -> int:
    """Generals on the board linked to space ``t`` (other than ``exclude``)."""
    n = 0
    for g in range(NUM_GENERALS):
        s = state[GEN_POS + g]
        if g != exclude and s >= 0 and is_adjacent(s, t):
            n += 1
    return n


@jit
def armies_connected(state: np.ndarray, t: int, exclude: int) -> int:
    """Armies on the board linked to space ``t`` (other than slot ``exclude``)."""
    n = 0
    for k in range(NUM_ARMY_SLOTS):
        c = state[ARMY_POS + k]
        if k != exclude and c >= 0 and is_adjacent(c, t):
            n += 1
    return n


@jit
def attack_support(state: np.ndarray, g: int, t: int) -> int:
    """His support, except towards the north of the Durius while the Lethe road lies."""
    if state[LETHE] != 0 and t < NUM_CITIES and LETHE_NORTH[t] != 0:
        return 0
    return garrison_support(state, g)


@jit
def resolve_siege(state: np.ndarray, g: int, t: int, spent: int, die: int) -> bool:
    """A general's siege: remove one revolt if the Roman value beats the shield value."""
    roman = (die + spent + attack_support(state, g, t)) << generals_connected(state, t, g)
    shield = CITY_SHIELD[t] if t < NUM_CITIES else t - FIRST_SEA + 1
    shield += state[HISP_BONUS]  # Hispano's denarii add to the shield
    shield = shield << armies_connected(state, state[GEN_POS + g], -1)
    if roman > shield:
        state[REVOLTS + t] -= 1
        state[RESERVE] += 1
        return True
    return False


@jit
def remove_general(state: np.ndarray, g: int) -> None:
    """A defeated general leaves the board (he blocks 1 denarius until he returns); the
    proconsul dies and leaves the game."""
    state[GEN_POS + g] = GONE if g == PROCONSUL else -1


@jit
def resolve_attack(state: np.ndarray, g: int, t: int, spent: int, die_r: int, die_h: int) -> bool:
    """A general attacks the army on ``t``: the loser's meeple leaves the board."""
    k = army_at(state, t)
    roman = (die_r + spent + attack_support(state, g, t)) << generals_connected(state, t, g)
    own = die_h + state[HISP_BONUS] + revolt_group(state, t)
    hisp = own << armies_connected(state, state[GEN_POS + g], k)
    if k == SPECIAL:
        hisp *= 2  # Terror: the special army doubles its own value
    if state[DISPLAY] != 0:
        hisp = die_h  # Display of Power: the bare die
    if roman > hisp:
        state[ARMY_POS + k] = -1
        return True
    remove_general(state, g)
    return False


@jit
def resolve_army_attack(
    state: np.ndarray, kind: int, k: int, t: int, die_h: int, die_r: int
) -> None:
    """An army blocked by a garrison or a general attacks it; the victor does not advance."""
    a = state[ARMY_POS + k]
    hisp = (die_h + state[HISP_BONUS] + revolt_group(state, a)) << armies_connected(state, t, k)
    if k == SPECIAL:
        hisp *= 2
    if state[DISPLAY] != 0:
        hisp = die_h
    if kind == CB_ARMY_GARRISON:
        roman = CITY_SHIELD[t] << generals_connected(state, a, -1)
        if hisp > roman:
            # the garrison on top goes back to its general's reserve
            for i in range(STACK - 1, -1, -1):
                col = state[GARR + t * STACK + i]
                if col != 0:
                    state[GARR + t * STACK + i] = 0
                    if col == LEGIO_COLOUR:
                        state[LEGIO_OWNER] = 2  # back to the consul's reserve
                    else:
                        state[GARR_RESERVE + col - 1] += 1
                    break
        return
    g = general_at(state, t)
    roman = (die_r + garrison_support(state, g)) << generals_connected(state, a, g)
    if hisp > roman:
        remove_general(state, g)
    else:
        state[ARMY_POS + k] = -1


# ---------------------------------------------------------------- set-up
# the links a road may ever be built on: land links between two non-capital cities
ROAD_CANDIDATES = np.array(
    [
        li
        for li in range(NUM_LINKS)
        if LINK_SEA[li] == 0 and CITY_CAPITAL[LINK_A[li]] == 0 and CITY_CAPITAL[LINK_B[li]] == 0
    ],
    np.int64,
)


@jit
def road_legal(state: np.ndarray, li: int) -> bool:
    """A road may extend the network on a land link, never reaching a revolt or capital."""
    if LINK_SEA[li] != 0 or state[ROADS + li] != 0:
        return False
    a = LINK_A[li]
    b = LINK_B[li]
    if state[REVOLTS + a] > 0 or state[REVOLTS + b] > 0:
        return False
    if CITY_CAPITAL[a] != 0 or CITY_CAPITAL[b] != 0:
        return False
    return on_network(state, a) or on_network(state, b)


@jit
def any_road_legal(state: np.ndarray) -> bool:
    for li in range(NUM_LINKS):
        if road_legal(state, li):
            return True
    return False


@jit
def place_legal(state: np.ndarray, g: int, s: int) -> bool:
    """Set-up or re-entry: a praetor on a revolt-free city of his province; the consul on a
    fleet."""
    if general_at(state, s) >= 0:
        return False
    if g < 2:
        return s < NUM_CITIES and CITY_PROVINCE[s] == 6 + g and state[REVOLTS + s] == 0
    return s >= FIRST_SEA and state[FLEET + s - FIRST_SEA] != 0


@jit
def any_place_legal(state: np.ndarray, g: int) -> bool:
    for s in range(NUM_SPACES):
        if place_legal(state, g, s):
            return True
    return False


@jit
def reentry_legal(state: np.ndarray, params: np.ndarray, g: int, s: int) -> bool:
    """A returning general: a praetor on any revolt-free city of his province, the consul on
    any fleet. If another general is there he must leave it with his first action, so the
    space is offered only if his turn's denarii can take him somewhere."""
    if g < 2:
        if s >= NUM_CITIES or CITY_PROVINCE[s] != 6 + g or state[REVOLTS + s] != 0:
            return False
    elif s < FIRST_SEA or state[FLEET + s - FIRST_SEA] == 0:
        return False
    if general_at(state, s) < 0:
        return True
    budget = params[P_DENARII] - (absent_generals(state) - 1)
    costs = np.zeros(NUM_SPACES, np.int64)
    move_costs_within(state, g, s, max(budget, 0), costs)
    for t in range(NUM_SPACES):
        if 0 < costs[t] <= budget and general_at(state, t) < 0 and general_can_enter(state, t, g):
            return True
    return False


@jit
def any_reentry_legal(state: np.ndarray, params: np.ndarray, g: int) -> bool:
    for s in range(NUM_SPACES):
        if reentry_legal(state, params, g, s):
            return True
    return False


@jit
def sharing(state: np.ndarray, g: int) -> bool:
    """Another general stands on general ``g``'s space (he has just re-entered there)."""
    s = state[GEN_POS + g]
    if s < 0:
        return False
    for x in range(NUM_GENERALS):
        if x != g and state[GEN_POS + x] == s:
            return True
    return False


@jit
def auto_place(state: np.ndarray, g: int) -> int:
    """``auto_setup``: a praetor on his "+1" disc city (else the first legal), the consul on
    the lowest-numbered free fleet."""
    if g < 2 and place_legal(state, g, PLUS_ONE_CITY[g]):
        return PLUS_ONE_CITY[g]
    for s in range(NUM_SPACES):
        if place_legal(state, g, s):
            return s
    return -1


@jit
def init(state: np.ndarray, params: np.ndarray, seed: int) -> None:
    """Lay out the basic set-up; the first chance node is the revolt of province I."""
    for i in range(NUM_ARMY_SLOTS):
        state[ARMY_POS + i] = -1
        state[ARMY_ORDER + i] = -1
    # Terror: the special army replaces the third army, which goes back to the box
    state[ARMY_POS + SPECIAL] = -1 if params[P_TERROR] != 0 else GONE
    if params[P_TERROR] != 0:
        state[ARMY_POS + 2] = GONE
    state[MOVER] = -1
    state[LEGIO_OWNER] = 2 if params[P_LEGIO] != 0 else GONE
    for g in range(NUM_GENERALS):
        state[GEN_POS + g] = -1 if g < NUM_ROMAN_GENERALS or params[P_PROCONSVL] != 0 else GONE
        state[GARR_RESERVE + g] = params[P_GARRISONS] if g < NUM_ROMAN_GENERALS else 0
    state[RESERVE] = TOTAL_REVOLTS
    sc = params[P_SCENARIO]
    # fleets: a scenario's named seas first, then consecutive seas from 1
    left = params[P_FLEETS]
    for i in range(NUM_SEAS):
        if SCEN_FLEET_SEAS[sc, i] != 0 and left > 0:
            state[FLEET + i] = 1
            left -= 1
    for i in range(NUM_SEAS):
        if state[FLEET + i] == 0 and left > 0:
            state[FLEET + i] = 1
            left -= 1
    for i in range(NUM_SEAS):
        if params[P_PIRATES] != 0 and state[FLEET + i] == 0:
            # Pirates: a revolt on every sea left without a fleet
            place_revolt(state, FIRST_SEA + i)
    for li in range(NUM_LINKS):
        state[ROADS + li] = INITIAL_ROADS[li]
    if sc != 0:
        scenario_setup(state, params, sc)
    state[PHASE] = PH_SETUP_REVOLT
    state[COUNTER] = 0
    advance(state, params)


@jit
def scenario_setup(state: np.ndarray, params: np.ndarray, sc: int) -> None:
    """A scenario's time track and pieces (rulebook, Scenarios)."""
    state[TRACK] = SCEN_TRACK[sc]
    state[RESERVE] -= SCEN_TRACK[sc]
    for p in range(NUM_HISPANIC):
        state[SETUP_CITY + p] = -1
    for c in range(NUM_CITIES):
        for _ in range(SCEN_REVOLTS[sc, c]):
            place_revolt(state, c)
        for i in range(STACK):
            col = SCEN_GARRISONS[sc, c, i]
            if col != 0:
                state[GARR + c * STACK + i] = col
                state[GARR_RESERVE + col - 1] -= 1
        p = CITY_PROVINCE[c]
        if SCEN_REVOLTS[sc, c] > 0 and p < NUM_HISPANIC and state[SETUP_CITY + p] < 0:
            state[SETUP_CITY + p] = c
    for g in range(NUM_ROMAN_GENERALS):
        state[GEN_POS + g] = SCEN_GENERALS[sc, g]
    for k in range(NUM_ARMY_SLOTS):
        if SCEN_ARMIES[sc, k] >= 0:
            state[ARMY_POS + k] = SCEN_ARMIES[sc, k]
    state[DISPLAY] = SCEN_DISPLAY[sc]
    state[LETHE] = SCEN_LETHE[sc]


@jit
def armies_on_board(state: np.ndarray) -> int:
    n = 0
    for k in range(NUM_ARMY_SLOTS):
        if state[ARMY_POS + k] >= 0:
            n += 1
    return n


@jit
def army_province_ok(state: np.ndarray, params: np.ndarray, p: int) -> bool:
    """An initial army may be rolled for province ``p`` (its revolt city, none there yet)."""
    sc = params[P_SCENARIO]
    return state[SETUP_CITY + p] >= 0 and province_army(state, p) < 0 and SCEN_NO_ARMY[sc, p] == 0


@jit
def army_die_faces(state: np.ndarray, params: np.ndarray, faces: np.ndarray) -> int:
    """The outcomes of the next initial-army roll; returns how many (New Empire: city
    numbers of the revolts of Gallaecia, then of Cantabria; otherwise provinces I-VI)."""
    sc = params[P_SCENARIO]
    n = 0
    if SCEN_ARMY_DIE[sc] != 0:
        p = 4 + state[COUNTER]
        for f in range(6):
            if state[REVOLTS + p * 6 + f] > 0 and army_at(state, p * 6 + f) < 0:
                faces[n] = f + 1
                n += 1
        return n
    for p in range(NUM_HISPANIC):
        if army_province_ok(state, params, p):
            faces[n] = p + 1
            n += 1
    return n


# ---------------------------------------------------------------- game flow
@jit
def absent_generals(state: np.ndarray) -> int:
    """Generals off the board (each blocks 1 denarius); a dead proconsul blocks none."""
    n = 0
    for g in range(NUM_ROMAN_GENERALS):
        if state[GEN_POS + g] < 0:
            n += 1
    return n


@jit
def set_chance(state: np.ndarray, kind: int) -> None:
    state[H_ACTOR] = CHANCE
    state[H_CHANCE_KIND] = kind


@jit
def set_actor(state: np.ndarray, p: int) -> None:
    state[H_ACTOR] = p
    state[H_CHANCE_KIND] = 0


@jit
def order_armies(state: np.ndarray) -> None:
    """The armies move by increasing province, I-VI, then Ulterior and Citerior."""
    n = 0
    for p in range(8):
        k = province_army(state, p)
        if k >= 0:
            state[ARMY_ORDER + n] = k
            n += 1
    for i in range(n, NUM_ARMY_SLOTS):
        state[ARMY_ORDER + i] = -1


@jit
def army_try_move(state: np.ndarray, k: int, t: int) -> None:
    """Army ``k`` tries to enter ``t``: a garrison or general blocking it is attacked."""
    if general_at(state, t) >= 0:
        state[COMBAT_KIND] = CB_ARMY_GENERAL
    elif garrison_count(state, t) > 0:
        state[COMBAT_KIND] = CB_ARMY_GARRISON
    else:
        # the revolt the army needs comes first: none left is a Hispanic victory
        if state[REVOLTS + t] == 0 and not place_revolt(state, t):
            return
        state[ARMY_POS + k] = t
        state[CUR] += 1
        return
    state[COMBAT_TARGET] = t
    state[COMBAT_ARMY] = k
    state[DIE_H] = 0
    state[DIE_R] = 0
    state[HISP_BONUS] = 0
    state[H_ACCEPTED] = 0
    state[PHASE] = PH_ARMY_COMBAT


@jit
def ordinary_armies_left(state: np.ndarray) -> tuple[int, int]:
    """Ordinary armies in the reserve, and the first of them (-1 none)."""
    n = 0
    first = -1
    for k in range(NUM_BASE_ARMIES):
        if state[ARMY_POS + k] == -1:
            n += 1
            if first < 0:
                first = k
    return n, first


@jit
def place_army(state: np.ndarray, c: int, resume: int) -> None:
    """An army from the reserve onto city ``c``, then phase ``resume``.

    Terror: the special army if it is the only one left; with others left a Hispanic die
    decides (a chance node), 4-6 with one other left, 5-6 with two.
    """
    n, first = ordinary_armies_left(state)
    special = state[ARMY_POS + SPECIAL] == -1
    state[PHASE] = resume
    if special and n > 0:
        state[PLACE_CITY] = c
        state[RESUME_PHASE] = resume
        state[PHASE] = PH_TERROR
    elif special:
        state[ARMY_POS + SPECIAL] = c
    elif first >= 0:
        state[ARMY_POS + first] = c


@jit
def army_in_reserve(state: np.ndarray) -> bool:
    for k in range(NUM_ARMY_SLOTS):
        if state[ARMY_POS + k] == -1:
            return True
    return False


@jit
def end_of_round(state: np.ndarray, params: np.ndarray) -> None:
    """A revolt from the reserve covers the next space of the time track."""
    if state[RESERVE] <= 0:
        state[WINNER] = W_HISPANIA
        return
    state[RESERVE] -= 1
    state[TRACK] += 1
    if state[TRACK] >= SCEN_TRACK_LIMIT[params[P_SCENARIO]]:
        state[WINNER] = W_HISPANIA
        return
    state[TURN] = 0
    state[PHASE] = PH_TURN_START


@jit
def free_move_legal(state: np.ndarray, s: int) -> bool:
    """Imperivm: the praetor of Ulterior may end his turn one link away, for free."""
    g0 = state[GEN_POS]
    if g0 < 0 or not is_adjacent(g0, s) or general_at(state, s) >= 0:
        return False
    north = state[LETHE] != 0 and s < NUM_CITIES and LETHE_NORTH[s] != 0
    if north and LETHE_CROSSINGS[ADJ_LINK[g0, s]] == 0:
        return False
    return general_can_enter(state, s, 0)


@jit
def any_free_move(state: np.ndarray) -> bool:
    for s in range(NUM_SPACES):
        if free_move_legal(state, s):
            return True
    return False


@jit
def advance(state: np.ndarray, params: np.ndarray) -> None:
    """Run the automated steps until a decision, a chance node or the end."""
    cands = np.zeros(8, np.int32)
    while True:
        if state[WINNER] == W_NONE and state[PHASE] >= PH_TURN_START and roman_victory(state):
            state[WINNER] = W_ROME
        if state[WINNER] != W_NONE:
            state[PHASE] = PH_OVER
            state[H_ACTOR] = TERMINAL
            state[H_CHANCE_KIND] = 0
            state[H_FLAGS] |= FLAG_TERMINAL
            return
        ph = state[PHASE]
        if ph == PH_SETUP_REVOLT:
            sc = params[P_SCENARIO]
            while state[COUNTER] < NUM_HISPANIC and SCEN_RANDOM[sc, state[COUNTER]] == 0:
                state[COUNTER] += 1  # a scenario province: no random revolt
            if state[COUNTER] < NUM_HISPANIC:
                if params[P_HISPANO] != 0:
                    set_actor(state, HISPANO)  # Hispano chooses the initial revolts
                else:
                    set_chance(state, CK_SETUP_REVOLT)
                return
            state[PHASE] = PH_SETUP_ARMY
            state[COUNTER] = armies_on_board(state)  # a scenario's armies count
        elif ph == PH_SETUP_ARMY:
            if state[COUNTER] < params[P_ARMIES] and army_die_faces(state, params, cands) > 0:
                if params[P_HISPANO] != 0:
                    set_actor(state, HISPANO)  # ... and the initial armies' provinces
                else:
                    set_chance(state, CK_SETUP_ARMY)
                return
            state[PHASE] = PH_SETUP_ROAD
            state[COUNTER] = 0
        elif ph == PH_SETUP_ROAD:
            if state[COUNTER] < params[P_ROADS] and any_road_legal(state):
                if params[P_AUTO_SETUP] != 0:
                    for li in range(NUM_LINKS):
                        if road_legal(state, li):
                            state[ROADS + li] = 1
                            break
                    state[COUNTER] += 1
                    continue
                set_actor(state, state[COUNTER] % NUM_ROMAN_GENERALS)
                return
            if params[P_INGENIVM] != 0 and state[COUNTER] < params[P_ROADS]:
                # Ingenivm: roads that cannot be placed now wait beside the board
                state[HELD_ROADS] += params[P_ROADS] - state[COUNTER]
            state[PHASE] = PH_SETUP_PLACE
            state[COUNTER] = 0
        elif ph == PH_SETUP_PLACE and params[P_SCENARIO] != 0:
            sc = params[P_SCENARIO]
            state[TURN] = SCEN_TURN[sc]
            if SCEN_START_HISPANIC[sc] != 0:
                state[HDENARII] = 2 if params[P_HISPANO] != 0 else 0
                state[PHASE] = PH_REVOLT_PROV
            else:
                state[PHASE] = PH_TURN_START
        elif ph == PH_SETUP_PLACE:
            g = state[COUNTER]
            if g < NUM_ROMAN_GENERALS:
                if not any_place_legal(state, g):
                    state[COUNTER] += 1
                    continue
                if params[P_AUTO_SETUP] != 0:
                    state[GEN_POS + g] = auto_place(state, g)
                    state[COUNTER] += 1
                    continue
                set_actor(state, g)
                return
            state[TURN] = 0
            state[PHASE] = PH_TURN_START
        elif ph == PH_TURN_START:
            g = state[TURN]
            state[HDENARII] = 2 if params[P_HISPANO] != 0 else 0
            if state[GEN_POS + g] < 0:
                if any_reentry_legal(state, params, g):
                    state[PHASE] = PH_REENTER
                    set_actor(state, g)
                    return
                state[PHASE] = PH_REVOLT_PROV
                continue
            state[DENARII] = params[P_DENARII] - absent_generals(state)
            state[PEND_KIND] = 0
            state[PEND_TARGET] = 0
            state[MOVER] = -1
            state[PHASE] = PH_ROMAN
        elif ph == PH_ROMAN:
            if state[DENARII] <= 0 or state[GEN_POS + state[TURN]] < 0:
                state[PEND_KIND] = 0
                state[MOVER] = -1
                state[PHASE] = PH_REVOLT_PROV
                continue
            set_actor(state, state[TURN])
            return
        elif ph == PH_ROMAN_COMBAT:
            first_hisp = state[COMBAT_KIND] == CB_ASSASSINATE
            set_chance(state, CK_ROMAN_DIE if state[DIE_R] == 0 and not first_hisp else CK_HISP_DIE)
            return
        elif ph in (PH_REVOLT_PROV, PH_H_REROLL_PROV):
            set_chance(state, CK_REVOLT_PROV)
            return
        elif ph in (PH_REVOLT_CITY, PH_H_REROLL_CITY):
            set_chance(state, CK_REVOLT_CITY)
            return
        elif ph >= PH_H_REVOLT and ph != PH_H_ATTACK:
            set_actor(state, HISPANO)
            return
        elif ph == PH_H_ATTACK:
            if state[HDENARII] > 0 and any_hispano_attack(state):
                set_actor(state, HISPANO)
                return
            state[PHASE] = PH_TURN_END
        elif ph == PH_TERROR:
            set_chance(state, CK_TERROR)
            return
        elif ph == PH_MOVE_DIE:
            set_chance(state, CK_MOVE_DIE)
            return
        elif ph == PH_MOVE_START:
            order_armies(state)
            state[CUR] = 0
            state[PHASE] = PH_ARMY_MOVE
        elif ph == PH_ARMY_MOVE:
            i = state[CUR]
            if i >= NUM_ARMY_SLOTS or state[ARMY_ORDER + i] < 0:
                state[PHASE] = PH_H_ATTACK if params[P_HISPANO] != 0 else PH_TURN_END
                continue
            k = state[ARMY_ORDER + i]
            if state[ARMY_POS + k] < 0:
                state[CUR] += 1
                continue
            n = move_armies_candidates(state, k, cands)
            if n == 0:
                state[CUR] += 1
            elif n == 1:
                army_try_move(state, k, cands[0])
            elif params[P_HISPANO] != 0 and state[HDENARII] > 0:
                state[PHASE] = PH_H_MOVE  # Hispano may choose instead of rolling
            else:
                state[PHASE] = PH_MOVE_DIE
                set_chance(state, CK_MOVE_DIE)
                return
        elif ph == PH_ARMY_COMBAT:
            set_chance(state, CK_HISP_DIE if state[DIE_H] == 0 else CK_ROMAN_DIE)
            return
        elif ph == PH_TURN_END:
            state[PHASE] = PH_TURN_NEXT
            if state[TURN] == 2:
                state[DISPLAY] = 0  # Display of Power lasts the consul's first turn
            if params[P_IMPERIVM] != 0 and state[TURN] == 0 and any_free_move(state):
                state[PHASE] = PH_FREE_MOVE
                set_actor(state, 0)
                return
        elif ph == PH_TURN_NEXT:
            if state[TURN] < NUM_ROMAN_GENERALS - 1:
                state[TURN] += 1
                state[PHASE] = PH_TURN_START
            else:
                end_of_round(state, params)
        else:
            return


# ---------------------------------------------------------------- decisions
@jit
def acting_general(state: np.ndarray) -> int:
    """The general the next Roman action is for: the selected one, else the turn's."""
    m = state[MOVER]
    return m if m >= 0 else state[TURN]


@jit
def mark_moves(state: np.ndarray, g: int, den: int, mask: np.ndarray) -> int:
    """Mark every space general ``g`` may move to with ``den`` denarii; return the count."""
    n = 0
    # the search only ever enters spaces he may enter (general_can_enter); he may not
    # stop where another general stands
    reach = move_reach(state, g, state[GEN_POS + g], den) & ~generals_spaces(state)
    while reach != 0:
        s = trailing_zeros(reach)
        reach &= reach - 1
        mask[A_SPACE + s] = 1
        n += 1
    return n


@jit
def generals_spaces(state: np.ndarray) -> int:
    """The spaces a general stands on, as a bit set."""
    occupied = 0
    for x in range(NUM_GENERALS):
        if state[GEN_POS + x] >= 0:
            occupied |= 1 << state[GEN_POS + x]
    return occupied


@jit
def mark_targets(state: np.ndarray, g: int, mask: np.ndarray) -> int:
    """Besiege (a revolt without army) or attack (an army) from general ``g``'s space."""
    n = 0
    s = state[GEN_POS + g]
    for j in range(DEGREE[s]):
        t = NEIGHBOURS[s, j]
        if state[REVOLTS + t] > 0:
            if t < NUM_CITIES and army_at(state, t) >= 0:
                mask[A_ATTACK + t] = 1
            else:
                mask[A_BESIEGE + t] = 1
            n += 1
    return n


@jit
def select_legal(state: np.ndarray, params: np.ndarray, t: int, g: int) -> bool:
    """Imperivm: the consul may move the praetors; Proconsvl: anyone may use the proconsul."""
    if state[GEN_POS + g] < 0 or g == t:
        return False
    if g == PROCONSUL:
        return params[P_PROCONSVL] != 0
    return params[P_IMPERIVM] != 0 and t == 2 and g < 2


@jit
def assassination_legal(state: np.ndarray, params: np.ndarray, g: int) -> bool:
    """Rome does not pay traitors: once a game, a general linked to the special army."""
    c = state[ARMY_POS + SPECIAL]
    if params[P_TRAITORS] == 0 or state[TRAITORS_USED] != 0 or c < 0:
        return False
    return is_adjacent(state[GEN_POS + g], c)


@jit
def hispano_target(state: np.ndarray, k: int, t: int) -> bool:
    """Hispano: army ``k`` may attack a garrison or general in city ``t`` linked to it."""
    a = state[ARMY_POS + k]
    if a < 0 or t >= NUM_CITIES or not is_adjacent(a, t):
        return False
    return general_at(state, t) >= 0 or garrison_count(state, t) > 0


@jit
def hispano_army_can_attack(state: np.ndarray, k: int) -> bool:
    a = state[ARMY_POS + k]
    if a < 0:
        return False
    for j in range(DEGREE[a]):
        if hispano_target(state, k, NEIGHBOURS[a, j]):
            return True
    return False


@jit
def any_hispano_attack(state: np.ndarray) -> bool:
    for k in range(NUM_ARMY_SLOTS):
        if hispano_army_can_attack(state, k):
            return True
    return False


@jit
def hispano_mask(state: np.ndarray, params: np.ndarray, mask: np.ndarray) -> int:
    """The Hispano player's choices."""
    ph = state[PHASE]
    hd = state[HDENARII]
    n = 0
    if ph == PH_SETUP_REVOLT:
        for f in range(6):
            if SCEN_FACES[params[P_SCENARIO], state[COUNTER], f] != 0:
                mask[A_H_FACE + f] = 1
                n += 1
        return n
    if ph == PH_SETUP_ARMY:
        faces = np.zeros(6, np.int32)
        m = army_die_faces(state, params, faces)
        for i in range(m):
            mask[A_H_FACE + faces[i] - 1] = 1
        return m
    if ph in (PH_H_ATTACK_TARGET, PH_H_ATTACK_SPEND):
        mask[A_CANCEL] = 1
        n = 1
        if ph == PH_H_ATTACK_TARGET:
            for t in range(NUM_CITIES):
                if hispano_target(state, state[COMBAT_ARMY], t):
                    mask[A_H_CITY + t] = 1
                    n += 1
        else:
            for k in range(2):
                if k < hd:
                    mask[A_H_SPEND + k] = 1
                    n += 1
        return n
    mask[A_H_ACCEPT] = 1
    n = 1
    if ph == PH_H_REVOLT:
        mask[A_H_REROLL_R] = 1
        mask[A_H_REROLL_H] = 1
        n += 2
    elif ph == PH_H_COMBAT:
        mask[A_H_REROLL_H] = 1
        n += 1
    elif ph == PH_H_REINFORCE:
        for k in range(2):
            if k < hd:
                mask[A_H_SPEND + k] = 1
                n += 1
    elif ph == PH_H_MOVE:
        cands = np.zeros(8, np.int32)
        m = move_armies_candidates(state, state[ARMY_ORDER + state[CUR]], cands)
        for i in range(m):
            mask[A_H_CITY + cands[i]] = 1
            n += 1
    elif ph == PH_H_ATTACK:
        for k in range(NUM_ARMY_SLOTS):
            if hispano_army_can_attack(state, k):
                mask[A_H_ARMY + k] = 1
                n += 1
    return n


@jit
def hispano_action(state: np.ndarray, params: np.ndarray, action: int) -> None:
    """One decision of the Hispano player."""
    ph = state[PHASE]
    if ph == PH_SETUP_REVOLT:
        setup_revolt(state, action - A_H_FACE + 1)
    elif ph == PH_SETUP_ARMY:
        setup_army(state, params, action - A_H_FACE + 1)
    elif ph == PH_H_REVOLT:
        if action == A_H_ACCEPT:
            resolve_revolt_roll(state, params)
        else:
            state[HDENARII] -= 1
            state[PHASE] = PH_H_REROLL_PROV if action == A_H_REROLL_R else PH_H_REROLL_CITY
    elif ph == PH_H_MOVE:
        if action == A_H_ACCEPT:
            state[PHASE] = PH_MOVE_DIE
        else:
            state[HDENARII] -= 1
            state[PHASE] = PH_ARMY_MOVE
            army_try_move(state, state[ARMY_ORDER + state[CUR]], action - A_H_CITY)
    elif ph == PH_H_REINFORCE:
        if action != A_H_ACCEPT:
            k = action - A_H_SPEND + 1
            state[HISP_BONUS] = k
            state[HDENARII] -= k
        state[PHASE] = PH_ROMAN_COMBAT
    elif ph == PH_H_COMBAT:
        if action == A_H_ACCEPT:
            state[H_ACCEPTED] = 1
            resolve_combat_if_ready(state, params)
        else:
            state[HDENARII] -= 1
            state[DIE_H] = 0
            roman = state[COMBAT_KIND] == CB_SIEGE or state[COMBAT_KIND] == CB_ATTACK
            state[PHASE] = PH_ROMAN_COMBAT if roman else PH_ARMY_COMBAT
    elif ph == PH_H_ATTACK:
        if action == A_H_ACCEPT:
            state[PHASE] = PH_TURN_END
        else:
            state[COMBAT_ARMY] = action - A_H_ARMY
            state[PHASE] = PH_H_ATTACK_TARGET
    elif ph == PH_H_ATTACK_TARGET:
        if action == A_CANCEL:
            state[PHASE] = PH_H_ATTACK
        else:
            state[PEND_TARGET] = action - A_H_CITY
            state[PHASE] = PH_H_ATTACK_SPEND
    elif ph == PH_H_ATTACK_SPEND:
        if action == A_CANCEL:
            state[PEND_TARGET] = 0
            state[PHASE] = PH_H_ATTACK
        else:
            t = state[PEND_TARGET]
            k = action - A_H_SPEND + 1
            state[COMBAT_KIND] = CB_ARMY_GENERAL if general_at(state, t) >= 0 else CB_ARMY_GARRISON
            state[COMBAT_TARGET] = t
            state[PEND_TARGET] = 0
            state[HISP_BONUS] = k
            state[HDENARII] -= k
            state[H_ACCEPTED] = 0
            state[H_ATTACK] = 1
            state[DIE_H] = 0
            state[DIE_R] = 0
            state[PHASE] = PH_ARMY_COMBAT


@jit
def legal_mask(state: np.ndarray, params: np.ndarray, mask: np.ndarray) -> int:
    """Fill ``mask`` with the legal actions of the player to move; return their count."""
    mask[:] = 0
    if state[H_ACTOR] < 0:
        return 0
    ph = state[PHASE]
    g = state[H_ACTOR]
    n = 0
    if g == HISPANO:
        return hispano_mask(state, params, mask)
    if ph == PH_SETUP_ROAD:
        # road_legal for every link at once: the cities already on the road network
        network = 0
        for li in range(NUM_LINKS):
            if state[ROADS + li] != 0:
                network |= (1 << LINK_A[li]) | (1 << LINK_B[li])
        for li in ROAD_CANDIDATES:
            a = LINK_A[li]
            b = LINK_B[li]
            if (
                state[ROADS + li] == 0
                and state[REVOLTS + a] == 0
                and state[REVOLTS + b] == 0
                and ((network >> a) & 1 or (network >> b) & 1)
            ):
                mask[A_ROAD + li] = 1
                n += 1
        if params[P_INGENIVM] != 0:
            mask[A_PASS] = 1  # keep this road aside
            n += 1
        return n
    if ph == PH_SETUP_PLACE:
        for s in range(NUM_SPACES):
            if place_legal(state, g, s):
                mask[A_SPACE + s] = 1
                n += 1
        return n
    if ph == PH_REENTER:
        for s in range(NUM_SPACES):
            if reentry_legal(state, params, g, s):
                mask[A_SPACE + s] = 1
                n += 1
        return n
    if ph == PH_FREE_MOVE:
        mask[A_PASS] = 1
        n = 1
        for s in range(NUM_SPACES):
            if free_move_legal(state, s):
                mask[A_SPACE + s] = 1
                n += 1
        return n
    if ph != PH_ROMAN:
        return 0
    den = state[DENARII]
    if state[PEND_KIND] != 0:
        for k in range(1, 4):
            if k <= den:
                mask[A_SPEND + k - 1] = 1
                n += 1
        mask[A_CANCEL] = 1
        return n + 1
    if sharing(state, g):
        return mark_moves(state, g, den, mask)  # he must first leave the shared space
    m = state[MOVER]
    if m >= 0:
        # the selected general: the consul moves a praetor, anyone uses the proconsul
        n = mark_moves(state, m, den, mask)
        if m == PROCONSUL:
            n += mark_targets(state, m, mask)
        mask[A_CANCEL] = 1
        return n + 1
    mask[A_PASS] = 1
    n = 1 + mark_moves(state, g, den, mask)
    fleets = 0
    calm = 0  # seas without revolt
    for a in range(NUM_SEAS):
        if state[FLEET + a] != 0:
            fleets |= 1 << a
        if state[REVOLTS + FIRST_SEA + a] == 0:
            calm |= 1 << a
    left = fleets
    while left != 0:
        a = trailing_zeros(left)
        left &= left - 1
        # fleet_move_cost for every sea at once: sea links through calm seas, den at most
        seen = 1 << a
        frontier = seen
        for _ in range(den):
            grown = 0
            while frontier != 0:
                x = trailing_zeros(frontier)
                frontier &= frontier - 1
                grown |= SEA_NEIGHBOURS[x]
            frontier = grown & calm & ~seen
            if frontier == 0:
                break
            seen |= frontier
        targets = seen & ~fleets
        while targets != 0:
            b = trailing_zeros(targets)
            targets &= targets - 1
            mask[A_FLEET + a * NUM_SEAS + b] = 1
            n += 1
    s = state[GEN_POS + g]
    if s < NUM_CITIES:
        if state[GARR_RESERVE + g] > 0 and garrison_legal(state, g, s):
            mask[A_GARRISON] = 1
            n += 1
        if _own_discs(state, s, g + 1) > 0:
            mask[A_UNGARRISON] = 1
            n += 1
        if state[LEGIO_OWNER] == g and garrison_legal(state, g, s):
            mask[A_LEGIO] = 1
            n += 1
        if _own_discs(state, s, LEGIO_COLOUR) > 0:
            mask[A_UNLEGIO] = 1
            n += 1
    if state[HELD_ROADS] > 0 and s < NUM_CITIES:
        for j in range(DEGREE[s]):
            li = ADJ_LINK[s, NEIGHBOURS[s, j]]
            if road_legal(state, li) and LINK_SEGMENTS[li] <= den:
                mask[A_ROAD + li] = 1
                n += 1
    n += mark_targets(state, g, mask)
    for x in range(NUM_GENERALS):
        if select_legal(state, params, g, x):
            mask[A_SELECT + x] = 1
            n += 1
    if (
        params[P_PROCONSVL] != 0
        and state[GEN_POS + PROCONSUL] == -1
        and den >= 3
        and state[FLEET] != 0
        and general_at(state, FIRST_SEA) < 0
    ):
        mask[A_PROCONSUL] = 1
        n += 1
    if assassination_legal(state, params, g):
        mask[A_ASSASSINATE] = 1
        n += 1
    return n


@jit
def garrison_legal(state: np.ndarray, g: int, c: int) -> bool:
    """Room for a disc (3 a city), and a capital's whole province free of revolt."""
    if garrison_count(state, c) + state[REVOLTS + c] >= STACK:
        return False
    if CITY_CAPITAL[c] != 0:
        nrev, _ = province_revolt_cities(state, CITY_PROVINCE[c])
        if nrev > 0:
            return False
    return True


@jit
def apply_action(state: np.ndarray, params: np.ndarray, action: int) -> None:
    """One decision of the player to move."""
    ph = state[PHASE]
    g = state[H_ACTOR]
    if g == HISPANO:
        hispano_action(state, params, action)
    elif ph == PH_SETUP_ROAD:
        if action == A_PASS:
            state[HELD_ROADS] += 1
        else:
            state[ROADS + action - A_ROAD] = 1
        state[COUNTER] += 1
    elif ph == PH_SETUP_PLACE:
        state[GEN_POS + g] = action - A_SPACE
        state[COUNTER] += 1
    elif ph == PH_REENTER:
        state[GEN_POS + g] = action - A_SPACE
        state[PHASE] = PH_TURN_START
    elif ph == PH_FREE_MOVE:
        if action != A_PASS:
            state[GEN_POS] = action - A_SPACE
            cross_lethe(state, 0, action - A_SPACE)
        state[PHASE] = PH_TURN_NEXT
    elif ph == PH_ROMAN:
        roman_action(state, params, g, action)
    advance(state, params)


@jit
def start_combat(state: np.ndarray, kind: int, k: int) -> None:
    """Spend ``k`` denarii on the chosen combat and roll."""
    state[DENARII] -= k
    state[COMBAT_KIND] = kind
    state[COMBAT_TARGET] = state[PEND_TARGET]
    state[COMBAT_SPENT] = k
    state[COMBAT_ARMY] = -1
    state[COMBAT_GEN] = acting_general(state)
    state[DIE_R] = 0
    state[DIE_H] = 0
    state[PEND_KIND] = 0
    state[PEND_TARGET] = 0
    state[MOVER] = -1
    state[HISP_BONUS] = 0
    state[H_ACCEPTED] = 0
    state[PHASE] = PH_ROMAN_COMBAT
    if kind != CB_ASSASSINATE and state[HDENARII] > 0:
        state[PHASE] = PH_H_REINFORCE  # Hispano may reinforce before the dice


@jit
def roman_action(state: np.ndarray, params: np.ndarray, g: int, action: int) -> None:
    """Move, Garrison, Besiege, Attack (and the variants' actions) or pass."""
    if action == A_PASS:
        state[PEND_KIND] = 0
        state[PHASE] = PH_REVOLT_PROV
    elif action < A_FLEET:
        m = acting_general(state)
        s = action - A_SPACE
        # move_general_cost, searching no further than his denarii (the move is legal)
        state[DENARII] -= move_cost_within(state, m, state[GEN_POS + m], state[DENARII], s)
        state[GEN_POS + m] = s
        state[MOVER] = -1
        cross_lethe(state, m, s)
    elif action < A_GARRISON:
        a = (action - A_FLEET) // NUM_SEAS
        b = (action - A_FLEET) % NUM_SEAS
        state[DENARII] -= fleet_move_cost(state, a, b)
        state[FLEET + a] = 0
        state[FLEET + b] = 1
        rider = general_at(state, FIRST_SEA + a)
        if rider >= 0:
            state[GEN_POS + rider] = FIRST_SEA + b
    elif action == A_GARRISON:
        c = state[GEN_POS + g]
        state[GARR + c * STACK + garrison_count(state, c)] = g + 1
        state[GARR_RESERVE + g] -= 1
        state[DENARII] -= 1
    elif action == A_UNGARRISON:
        c = state[GEN_POS + g]
        remove_own_garrison(state, c, g + 1)
        state[GARR_RESERVE + g] += 1
        state[DENARII] -= 1
    elif action < A_ATTACK:
        state[PEND_KIND] = PK_BESIEGE
        state[PEND_TARGET] = action - A_BESIEGE
    elif action < A_SPEND:
        state[PEND_KIND] = PK_ATTACK
        state[PEND_TARGET] = action - A_ATTACK
    elif action < A_CANCEL:
        pk = state[PEND_KIND]
        kind = CB_SIEGE if pk == PK_BESIEGE else (CB_ATTACK if pk == PK_ATTACK else CB_ASSASSINATE)
        start_combat(state, kind, action - A_SPEND + 1)
    elif action == A_CANCEL:
        state[PEND_KIND] = 0
        state[PEND_TARGET] = 0
        state[MOVER] = -1
    elif action < A_SELECT:
        build_road(state, g, action - A_ROAD)
    elif action < A_LEGIO:
        state[MOVER] = action - A_SELECT
    elif action == A_LEGIO:
        c = state[GEN_POS + g]
        state[GARR + c * STACK + garrison_count(state, c)] = LEGIO_COLOUR
        state[LEGIO_OWNER] = -1
        state[DENARII] -= 1
    elif action == A_UNLEGIO:
        remove_own_garrison(state, state[GEN_POS + g], LEGIO_COLOUR)
        state[LEGIO_OWNER] = g
        state[DENARII] -= 1
    elif action == A_PROCONSUL:
        state[GEN_POS + PROCONSUL] = FIRST_SEA
        state[DENARII] -= 3
    else:
        state[PEND_KIND] = PK_ASSASSINATE
        state[PEND_TARGET] = state[ARMY_POS + SPECIAL]


@jit
def cross_lethe(state: np.ndarray, g: int, s: int) -> None:
    """Brutus across the Durius: the Lethe road is removed for good."""
    if state[LETHE] != 0 and g == 0 and s < NUM_CITIES and LETHE_NORTH[s] != 0:
        state[LETHE] = 0


@jit
def build_road(state: np.ndarray, g: int, li: int) -> None:
    """Ingenivm: place a kept road on a link of the general's city (1 denarius a segment)."""
    state[ROADS + li] = 1
    state[HELD_ROADS] -= 1
    state[DENARII] -= LINK_SEGMENTS[li]


@jit
def remove_own_garrison(state: np.ndarray, c: int, colour: int) -> None:
    """Take the topmost disc of ``colour`` out of city ``c``'s stack (the rest close up)."""
    base = GARR + c * STACK
    for i in range(STACK - 1, -1, -1):
        if state[base + i] == colour:
            for j in range(i, STACK - 1):
                state[base + j] = state[base + j + 1]
            state[base + STACK - 1] = 0
            return


# ---------------------------------------------------------------- chance
@jit
def chance_weights(
    state: np.ndarray, params: np.ndarray, outcomes: np.ndarray, weights: np.ndarray
) -> int:
    """The outcomes of the pending chance node and their integer weights."""
    kind = state[H_CHANCE_KIND]
    if kind == CK_SETUP_ARMY:
        faces = np.zeros(6, np.int32)
        n = army_die_faces(state, params, faces)
        for i in range(n):
            outcomes[i] = faces[i]
            weights[i] = 1
        return n
    if kind == CK_SETUP_REVOLT:
        n = 0
        for f in range(6):
            if SCEN_FACES[params[P_SCENARIO], state[COUNTER], f] != 0:
                outcomes[n] = f + 1
                weights[n] = 1
                n += 1
        return n
    for i in range(6):
        outcomes[i] = i + 1
        weights[i] = 1
    return 6


@jit
def apply_chance(state: np.ndarray, params: np.ndarray, outcome: int) -> None:
    """Make one die outcome happen and run on to the next decision or chance node."""
    kind = state[H_CHANCE_KIND]
    state[H_CHANCE_KIND] = 0
    if kind == CK_SETUP_REVOLT:
        setup_revolt(state, outcome)
    elif kind == CK_SETUP_ARMY:
        setup_army(state, params, outcome)
    elif kind == CK_TERROR:
        n, first = ordinary_armies_left(state)
        if outcome >= (4 if n == 1 else 5):
            state[ARMY_POS + SPECIAL] = state[PLACE_CITY]
        else:
            state[ARMY_POS + first] = state[PLACE_CITY]
        state[PHASE] = state[RESUME_PHASE]
    elif kind == CK_REVOLT_PROV:
        state[REVOLT_PROV] = outcome - 1
        if SCEN_GUERRILLA[params[P_SCENARIO]] != 0:
            state[REVOLT_PROV] = 4 if outcome % 2 == 1 else 5  # Guerrilla: V odd, VI even
        if state[PHASE] == PH_REVOLT_PROV:
            state[PHASE] = PH_REVOLT_CITY
        else:
            revolt_dice_rolled(state, params)
    elif kind == CK_REVOLT_CITY:
        state[REVOLT_NUM] = outcome
        revolt_dice_rolled(state, params)
    elif kind == CK_MOVE_DIE:
        cands = np.zeros(8, np.int32)
        k = state[ARMY_ORDER + state[CUR]]
        n = move_armies_candidates(state, k, cands)
        t = choose_by_shield(cands, n, outcome)
        state[PHASE] = PH_ARMY_MOVE
        if t < 0:
            state[CUR] += 1
        else:
            army_try_move(state, k, t)
    elif kind in (CK_ROMAN_DIE, CK_HISP_DIE):
        if kind == CK_ROMAN_DIE:
            state[DIE_R] = outcome
        else:
            state[DIE_H] = outcome
        resolve_combat_if_ready(state, params)
    advance(state, params)


@jit
def setup_revolt(state: np.ndarray, face: int) -> None:
    """The initial revolt of province COUNTER on its city ``face``: 3/2/1 revolts."""
    p = state[COUNTER]
    c = p * 6 + face - 1
    state[SETUP_CITY + p] = c
    for _ in range(SETUP_REVOLTS_BY_DIE[face - 1]):
        place_revolt(state, c)
    state[COUNTER] += 1


@jit
def setup_army(state: np.ndarray, params: np.ndarray, numeral: int) -> None:
    """An initial army on the revolt city of province ``numeral`` (1-6); New Empire: the
    army on Gallaecia's revolt city ``numeral``, then the special army on Cantabria's."""
    if SCEN_ARMY_DIE[params[P_SCENARIO]] != 0:
        p = 4 + state[COUNTER]
        slot = 0 if state[COUNTER] == 0 else SPECIAL
        state[ARMY_POS + slot] = p * 6 + numeral - 1
        state[COUNTER] += 1
        return
    state[COUNTER] += 1
    place_army(state, state[SETUP_CITY + numeral - 1], PH_SETUP_ARMY)


@jit
def resolve_combat_if_ready(state: np.ndarray, params: np.ndarray) -> None:
    cb = state[COMBAT_KIND]
    t = state[COMBAT_TARGET]
    g = state[COMBAT_GEN]
    if cb == CB_SIEGE:
        die = state[DIE_R]
        if params[P_IMPERIVM] != 0 and g == 1:
            die += 1  # Imperivm: the praetor of Citerior adds 1 to his sieges
        resolve_siege(state, g, t, state[COMBAT_SPENT], die)
        state[PHASE] = PH_ROMAN
    elif cb == CB_ATTACK:
        if state[DIE_H] == 0 or hispano_reroll_pending(state):
            return
        if not resolve_attack(state, g, t, state[COMBAT_SPENT], state[DIE_R], state[DIE_H]):
            state[PHASE] = PH_REVOLT_PROV  # a lost attack ends the Roman phase
        else:
            state[PHASE] = PH_ROMAN
    elif cb == CB_ASSASSINATE:
        state[PHASE] = PH_ROMAN
        if state[DIE_H] <= state[COMBAT_SPENT]:
            # the special army leaves the game; a third army takes its place
            c = state[ARMY_POS + SPECIAL]
            state[ARMY_POS + SPECIAL] = GONE
            state[ARMY_POS + 2] = c
            state[TRAITORS_USED] = 2
        else:
            state[TRAITORS_USED] = 1
            state[REVOLT_RESUME] = PH_ROMAN  # an exceptional revolt roll, then back here
            state[PHASE] = PH_REVOLT_PROV
    else:
        if cb == CB_ARMY_GENERAL and state[DIE_R] == 0:
            return
        if hispano_reroll_pending(state):
            return
        resolve_army_attack(state, cb, state[COMBAT_ARMY], t, state[DIE_H], state[DIE_R])
        if state[H_ATTACK] != 0:
            state[H_ATTACK] = 0
            state[PHASE] = PH_H_ATTACK
        else:
            state[CUR] += 1
            state[PHASE] = PH_ARMY_MOVE
    state[COMBAT_KIND] = 0
    state[DIE_R] = 0
    state[DIE_H] = 0
    state[HISP_BONUS] = 0


@jit
def hispano_reroll_pending(state: np.ndarray) -> bool:
    """Hispano may still reroll this combat's Hispanic die: wait for his decision."""
    if state[HDENARII] > 0 and state[H_ACCEPTED] == 0:
        state[PHASE] = PH_H_COMBAT
        return True
    return False


@jit
def revolt_dice_rolled(state: np.ndarray, params: np.ndarray) -> None:
    """Both revolt dice are known: Hispano may reroll one, else the roll takes effect."""
    if state[HDENARII] > 0:
        state[PHASE] = PH_H_REVOLT
    else:
        resolve_revolt_roll(state, params)


@jit
def resolve_revolt_roll(state: np.ndarray, params: np.ndarray) -> None:
    resume = state[REVOLT_RESUME] if state[REVOLT_RESUME] != 0 else PH_MOVE_START
    state[REVOLT_RESUME] = 0
    state[PHASE] = resume
    roll_revolt(state, params, state[REVOLT_PROV], state[REVOLT_NUM], resume)


@jit
def roll_revolt(state: np.ndarray, params: np.ndarray, p: int, number: int, resume: int) -> None:
    """Hispanic revolt on city ``p-number``: protected, empty, or already in revolt."""
    c = p * 6 + number - 1
    if garrison_count(state, c) > 0 or general_at(state, c) >= 0:
        return
    if state[REVOLTS + c] == 0:
        place_revolt(state, c)
        return
    if province_army(state, p) < 0 and army_in_reserve(state):
        place_army(state, c, resume)
        return
    if state[REVOLTS + c] < STACK:
        place_revolt(state, c)


# ---------------------------------------------------------------- outputs
@jit
def observe(state: np.ndarray, params: np.ndarray, player: int, out: np.ndarray) -> None:
    """The whole board is public: every player sees the same, plus who he is."""
    out[:] = 0.0
    for s in range(NUM_SPACES):
        base = s * OBS_PER_SPACE
        out[base] = state[REVOLTS + s] / 3.0
        if s < NUM_CITIES:
            for i in range(STACK):
                col = state[GARR + s * STACK + i]
                if col > 0:
                    out[base + min(col, NUM_GENERALS)] += 1.0 / 3.0  # legio with the 4th
        if s >= FIRST_SEA and state[FLEET + s - FIRST_SEA] != 0:
            out[base + 2 + 2 * NUM_GENERALS] = 1.0
    for k in range(NUM_ARMY_SLOTS):  # army_at, for every city at once
        c = state[ARMY_POS + k]
        if 0 <= c < NUM_CITIES:
            out[c * OBS_PER_SPACE + 1 + NUM_GENERALS] = 1.0
    seen = 0  # general_at, for every space at once: the first general standing there
    for g in range(NUM_GENERALS):
        s = state[GEN_POS + g]
        if 0 <= s < NUM_SPACES and (seen >> s) & 1 == 0:
            seen |= 1 << s
            out[s * OBS_PER_SPACE + 2 + NUM_GENERALS + g] = 1.0
    for li in range(NUM_LINKS):
        out[OBS_ROADS + li] = state[ROADS + li]
    ph = state[PHASE]
    if 0 <= ph < NUM_PHASES:
        out[OBS_PHASE + ph] = 1.0
    out[OBS_TURN + state[TURN]] = 1.0
    out[OBS_SCALARS] = state[DENARII] / 8.0
    out[OBS_SCALARS + 1] = state[TRACK] / 11.0
    out[OBS_SCALARS + 2] = state[RESERVE] / 22.0
    out[OBS_SCALARS + 3] = state[PEND_KIND] / 2.0
    out[OBS_SCALARS + 4] = (state[PEND_TARGET] + 1) / 49.0 if state[PEND_KIND] != 0 else 0.0
    out[OBS_SCALARS + 5] = state[GARR_RESERVE + min(max(player, 0), NUM_GENERALS - 1)] / 5.0
    out[OBS_SCALARS + 6] = state[HDENARII] / 2.0
    out[OBS_SCALARS + 7] = state[HISP_BONUS] / 2.0
    out[OBS_SCALARS + 8] = state[DISPLAY]
    out[OBS_SCALARS + 9] = state[LETHE]
    if 0 <= player < MAX_PLAYERS:
        out[OBS_PLAYER + player] = 1.0
    observe_context(state, out)


@jit
def observe_context(state: np.ndarray, out: np.ndarray) -> None:
    """What the pending decision is about (targets, dice, selections)."""
    ph = state[PHASE]
    target = -1
    if state[PEND_KIND] != 0 or ph == PH_H_ATTACK_SPEND:
        target = state[PEND_TARGET]
    elif state[COMBAT_KIND] != 0:
        target = state[COMBAT_TARGET]
    if target >= 0:
        out[OBS_CONTEXT + target] = 1.0
    army = -1
    if state[COMBAT_KIND] >= CB_ARMY_GARRISON or ph == PH_H_ATTACK_TARGET:
        army = state[COMBAT_ARMY]
    elif ph == PH_H_MOVE:
        army = state[ARMY_ORDER + state[CUR]]
    if 0 <= army < NUM_ARMY_SLOTS and state[ARMY_POS + army] >= 0:
        out[OBS_CONTEXT + NUM_SPACES + state[ARMY_POS + army]] = 1.0
    if ph == PH_H_REVOLT:
        c = state[REVOLT_PROV] * 6 + state[REVOLT_NUM] - 1
        out[OBS_CONTEXT + 2 * NUM_SPACES + c] = 1.0
    e = OBS_EXTRA
    out[e] = state[DIE_R] / 6.0
    out[e + 1] = state[DIE_H] / 6.0
    out[e + 2] = state[COMBAT_SPENT] / 3.0 if state[COMBAT_KIND] != 0 else 0.0
    out[e + 3] = state[HELD_ROADS] / 5.0
    out[e + 4] = state[TRAITORS_USED] / 2.0
    out[e + 5 + state[COMBAT_KIND]] = 1.0
    if state[MOVER] >= 0:
        out[e + 11 + state[MOVER]] = 1.0
    if 0 <= state[LEGIO_OWNER] < 3:
        out[e + 11 + NUM_GENERALS + state[LEGIO_OWNER]] = 1.0
    out[e + 14 + NUM_GENERALS] = 1.0 if state[ARMY_POS + SPECIAL] == GONE else 0.0
    out[e + 15 + NUM_GENERALS] = 1.0 if state[GEN_POS + PROCONSUL] == GONE else 0.0


@jit
def rome_aims(state, params):
    """What Rome has of its aims, each in [0, 1]: the share of the Hispanic capitals
    garrisoned, the share of all revolt counters in the reserve, and 1 / (1 + revolts in
    the Roman provinces)."""
    capitals = 0
    for p in range(NUM_HISPANIC):
        if state[GARR + (p * 6 + 5) * STACK] != 0:
            capitals += 1
    roman_revolts = 0
    for c in range(NUM_CITIES):
        if CITY_PROVINCE[c] >= NUM_HISPANIC:
            roman_revolts += state[REVOLTS + c]
    reserve = min(max(state[RESERVE], 0) / TOTAL_REVOLTS, 1.0)
    return capitals / NUM_HISPANIC, reserve, 1.0 / (1.0 + roman_revolts)


@jit
def rome_progress(state, params):
    """Rome's progress toward victory in [0, 1] (MCTS's position value): the standing's
    weights on ``rome_aims`` (0.45 capitals, 0.25 reserve, 0.15 clear) and 0.15 x the
    share of the track's time left (``STANDING_*``, ``PROGRESS_TIME`` in layout.py)."""
    capitals, reserve, clear = rome_aims(state, params)
    limit = SCEN_TRACK_LIMIT[params[P_SCENARIO]]
    time_left = max(limit - state[TRACK], 0) / max(limit, 1)
    return (
        STANDING_CAPITALS * capitals
        + STANDING_RESERVE * reserve
        + STANDING_CLEAR * clear
        + PROGRESS_TIME * time_left
    )


@jit
def rome_standing(state, params):
    """What the ``progress`` reward pays for, in [0, 1]: ``rome_progress`` without the
    time (which only runs out): the ``STANDING_*`` weights on ``rome_aims`` over their sum."""
    capitals, reserve, clear = rome_aims(state, params)
    weighted = STANDING_CAPITALS * capitals + STANDING_RESERVE * reserve + STANDING_CLEAR * clear
    return weighted / (STANDING_CAPITALS + STANDING_RESERVE + STANDING_CLEAR)


@jit
def returns(state: np.ndarray, params: np.ndarray, out: np.ndarray) -> None:
    """+1 to every general on a Roman victory, -1 on a Hispanic victory. The ``progress``
    reward adds ``PROGRESS_WEIGHT`` x ``rome_standing`` at every moment, the end included
    (each decision is paid the standing it gained; a lost game that garrisoned capitals
    scores more than one that did not, and any win more than any loss)."""
    out[:] = 0.0
    w = state[WINNER]
    v = 1.0 if w == W_ROME else (-1.0 if w == W_HISPANIA else 0.0)
    if params[P_REWARD] == 1:
        v += PROGRESS_WEIGHT * rome_standing(state, params)
    for p in range(params[P_NUM_PLAYERS]):
        out[p] = v
    if params[P_HISPANO] != 0:
        out[HISPANO] = -v  # the Hispano player wins when Rome loses

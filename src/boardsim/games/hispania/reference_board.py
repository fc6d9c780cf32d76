"""Hispania's board, moves and combats in plain Python: the first half of the oracle
(:mod:`boardsim.games.hispania.reference`) the compiled core is compared against.

Reading the state, the generals' and fleets' travel costs (``heapq``), and the combat
values and results, over a plain ``list`` with the compiled core's layout.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L

State = list[int]
Params = Sequence[int]

CITIES = range(D.NUM_CITIES)
SPACES = range(D.NUM_SPACES)
SEA0 = D.FIRST_SEA
NBR: dict[int, list[int]] = {s: [int(t) for t in D.NEIGHBOURS[s, : D.DEGREE[s]]] for s in SPACES}
LINK: dict[frozenset[int], int] = {
    frozenset((int(D.LINK_A[i]), int(D.LINK_B[i]))): i for i in range(D.NUM_LINKS)
}
PROV = [int(x) for x in D.CITY_PROVINCE]
SHIELD = [int(x) for x in D.CITY_SHIELD]
CAPITAL = {c for c in CITIES if D.CITY_CAPITAL[c]}
ROMAN_GENERALS = 3
BASE_ARMIES = 3


def link_of(a: int, b: int) -> int:
    return LINK.get(frozenset((a, b)), -1)


# ---------------------------------------------------------------- reading the state
def revolts(s: State, x: int) -> int:
    return s[L.REVOLTS + x]


def stack(s: State, c: int) -> list[int]:
    return [s[L.GARR + c * L.STACK + i] for i in range(L.STACK)]


def n_garrisons(s: State, c: int) -> int:
    return sum(1 for x in stack(s, c) if x)


def gen_pos(s: State, g: int) -> int:
    return s[L.GEN_POS + g]


def general_on(s: State, x: int) -> int:
    for g in range(L.NUM_GENERALS):
        if gen_pos(s, g) == x:
            return g
    return -1


def army_on(s: State, c: int) -> int:
    for k in range(L.NUM_ARMY_SLOTS):
        if s[L.ARMY_POS + k] == c:
            return k
    return -1


def army_of_province(s: State, p: int) -> int:
    for k in range(L.NUM_ARMY_SLOTS):
        c = s[L.ARMY_POS + k]
        if c >= 0 and PROV[c] == p:
            return k
    return -1


def province_cities(p: int) -> list[int]:
    return [c for c in CITIES if PROV[c] == p]


def fleet(s: State, x: int) -> bool:
    return x >= SEA0 and s[L.FLEET + x - SEA0] == 1


def passable(s: State, x: int) -> bool:
    return fleet(s, x) if x >= SEA0 else revolts(s, x) == 0


NORTH = {c for c in CITIES if D.LETHE_NORTH[c]}
CROSSINGS = {i for i in range(D.NUM_LINKS) if D.LETHE_CROSSINGS[i]}


def can_enter(s: State, x: int, g: int) -> bool:
    """Passable for general g; north of the Durius is Brutus's alone while the Lethe lies."""
    if s[L.LETHE] and x in NORTH and g != 0:
        return False
    return passable(s, x)


def take_revolt(s: State, x: int) -> bool:
    if s[L.RESERVE] == 0:
        s[L.WINNER] = L.W_HISPANIA
        return False
    s[L.RESERVE] -= 1
    s[L.REVOLTS + x] += 1
    return True


def rome_has_won(s: State) -> bool:
    if any(s[L.GARR + c * L.STACK] == 0 for c in CAPITAL):
        return False
    return all(revolts(s, c) == 0 for c in CITIES if PROV[c] >= 6)


# ---------------------------------------------------------------- movement
def travel_costs(s: State, g: int) -> dict[int, int]:
    """Cheapest cost to each space, a run of roads costing 1 (Dijkstra on space x on-road)."""
    start = gen_pos(s, g)
    best: dict[tuple[int, bool], int] = {(start, False): 0}
    heap = [(0, start, False)]
    while heap:
        d, u, road = heapq.heappop(heap)
        if d > best.get((u, road), 1 << 30):
            continue
        if s[L.LETHE] and u in NORTH and u != start:
            continue
        for v in NBR[u]:
            if not can_enter(s, v, g):
                continue
            li = link_of(u, v)
            if s[L.LETHE] and v in NORTH and li not in CROSSINGS:
                continue
            if s[L.ROADS + li]:
                nd, nroad = d + (0 if road else 1), True
            else:
                nd, nroad = d + int(D.LINK_SEGMENTS[li]), False
            if nd < best.get((v, nroad), 1 << 30):
                best[(v, nroad)] = nd
                heapq.heappush(heap, (nd, v, nroad))
    out: dict[int, int] = {}
    for (x, _), d in best.items():
        out[x] = min(d, out.get(x, 1 << 30))
    return out


def general_destinations(s: State, g: int) -> dict[int, int]:
    den = s[L.DENARII]
    return {
        x: d
        for x, d in travel_costs(s, g).items()
        if 0 < d <= den and general_on(s, x) < 0 and can_enter(s, x, g)
    }


def fleet_cost(s: State, a: int, b: int) -> int | None:
    """Links from sea a to sea b (0-based), or None when the fleet may not go."""
    if a == b or not s[L.FLEET + a] or s[L.FLEET + b] or revolts(s, SEA0 + b):
        return None
    dist = {a: 0}
    frontier = [a]
    while frontier:
        nxt = []
        for x in frontier:
            for y in range(D.NUM_SEAS):
                if y not in dist and link_of(SEA0 + x, SEA0 + y) >= 0 and not revolts(s, SEA0 + y):
                    dist[y] = dist[x] + 1
                    nxt.append(y)
        frontier = nxt
    return dist.get(b)


# ---------------------------------------------------------------- combat
def linked(x: int, y: int) -> bool:
    return y in NBR[x]


def support(s: State, g: int) -> int:
    """Garrisons of g in groups linked to him, plus a praetor's "+1" disc."""
    here = gen_pos(s, g)
    ours = {g + 1, L.LEGIO_COLOUR} if g < ROMAN_GENERALS else {g + 1}
    mine = {c for c in CITIES if ours & set(stack(s, c))}
    total = 0
    reach = {here} if here >= 0 else set()
    while mine:
        group = {mine.pop()}
        todo = list(group)
        while todo:
            c = todo.pop()
            for v in NBR[c]:
                if v in mine:
                    mine.discard(v)
                    group.add(v)
                    todo.append(v)
        if here >= 0 and any(c == here or linked(c, here) for c in group):
            total += sum(1 for c in group for x in stack(s, c) if x in ours)
            reach |= group
    if g < 2 and here >= 0:
        prov = 6 + g
        near = set(reach)
        for x in reach:
            near.update(NBR[x])
        if any(x < D.NUM_CITIES and PROV[x] == prov for x in near):
            total += 1
    return total


def revolt_group(s: State, x: int) -> int:
    if not revolts(s, x):
        return 0
    seen = {x}
    todo = [x]
    while todo:
        u = todo.pop()
        for v in NBR[u]:
            if v not in seen and revolts(s, v):
                seen.add(v)
                todo.append(v)
    return sum(revolts(s, u) for u in seen)


def n_generals_linked(s: State, x: int, but: int) -> int:
    return sum(
        1
        for g in range(L.NUM_GENERALS)
        if g != but and gen_pos(s, g) >= 0 and linked(gen_pos(s, g), x)
    )


def n_armies_linked(s: State, x: int, but: int) -> int:
    return sum(
        1
        for k in range(L.NUM_ARMY_SLOTS)
        if k != but and s[L.ARMY_POS + k] >= 0 and linked(s[L.ARMY_POS + k], x)
    )


def support_towards(s: State, g: int, t: int) -> int:
    return 0 if s[L.LETHE] and t in NORTH else support(s, g)


def wins(params: Params, attacker: int, defender: int) -> bool:
    """combat_ties: a tie is the defender's (0) or the attacker's (1), in every combat."""
    return attacker > defender or (attacker == defender and params[L.P_COMBAT_TIES] == 1)


def army_revolts(s: State, params: Params, x: int) -> int:
    """hispanic_revolts: the connected revolt group around x (0) or x's own discs (1)."""
    return revolts(s, x) if params[L.P_HISPANIC_REVOLTS] == 1 else revolt_group(s, x)


def beaten(s: State, params: Params, k: int) -> None:
    """beaten_army: the army goes, its city's revolts stay (0) or one goes too (1)."""
    a = s[L.ARMY_POS + k]
    s[L.ARMY_POS + k] = -1
    if params[L.P_BEATEN_ARMY] == 1 and revolts(s, a):
        s[L.REVOLTS + a] -= 1
        s[L.RESERVE] += 1


def siege(s: State, params: Params, g: int, t: int, spent: int, die: int) -> None:
    roman = (die + spent + support_towards(s, g, t)) * 2 ** n_generals_linked(s, t, g)
    shield = (SHIELD[t] if t < D.NUM_CITIES else t - SEA0 + 1) + s[L.HISP_BONUS]
    shield *= 2 ** n_armies_linked(s, gen_pos(s, g), -1)
    if wins(params, roman, shield):
        s[L.REVOLTS + t] -= 1
        s[L.RESERVE] += 1


def attack(s: State, params: Params, g: int, t: int, spent: int, die_r: int, die_h: int) -> bool:
    k = army_on(s, t)
    roman = (die_r + spent + support_towards(s, g, t)) * 2 ** n_generals_linked(s, t, g)
    hisp = (die_h + s[L.HISP_BONUS] + army_revolts(s, params, t)) * 2 ** n_armies_linked(
        s, gen_pos(s, g), k
    )
    if k == L.SPECIAL:
        hisp *= 2
    if s[L.DISPLAY]:  # Display of Power (S5): the bare die, or all but the named two
        hisp = die_h
        if params[L.P_DISPLAY_OF_POWER] == 1:
            hisp = (die_h + s[L.HISP_BONUS]) * (2 if k == L.SPECIAL else 1)
    if wins(params, roman, hisp):
        beaten(s, params, k)
        return True
    lose_general(s, g)
    return False


def lose_general(s: State, g: int) -> None:
    s[L.GEN_POS + g] = L.GONE if g == L.PROCONSUL else -1


def army_attack(
    s: State, params: Params, kind: int, k: int, t: int, die_h: int, die_r: int
) -> None:
    a = s[L.ARMY_POS + k]
    own = die_h + s[L.HISP_BONUS] + army_revolts(s, params, a)
    hisp = own * 2 ** n_armies_linked(s, t, k)
    hisp *= 2 if k == L.SPECIAL else 1
    if s[L.DISPLAY]:  # Display of Power (S5): the bare die, or all but the named two
        hisp = die_h
        if params[L.P_DISPLAY_OF_POWER] == 1:
            hisp = (die_h + s[L.HISP_BONUS]) * (2 if k == L.SPECIAL else 1)
    if kind == L.CB_ARMY_GARRISON:
        if wins(params, hisp, SHIELD[t] * 2 ** n_generals_linked(s, a, -1)):
            st = stack(s, t)
            top = max(i for i in range(L.STACK) if st[i])
            if st[top] == L.LEGIO_COLOUR:
                s[L.LEGIO_OWNER] = 2
            elif params[L.P_BEATEN_GARRISON] == 0:  # else "lost": out of the game
                s[L.GARR_RESERVE + st[top] - 1] += 1
            s[L.GARR + t * L.STACK + top] = 0
        return
    g = general_on(s, t)
    roman = (die_r + support(s, g)) * 2 ** n_generals_linked(s, a, g)
    if wins(params, hisp, roman):
        lose_general(s, g)
    else:
        beaten(s, params, k)

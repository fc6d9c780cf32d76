"""The set-up: the pieces laid out, the roads, placing and re-entering generals, scenarios.

Roads extend the network on land links, never reaching a revolt or a capital; praetors
stand on a revolt-free city of their province, the consul on a fleet (at set-up and
when they return). ``lay_out`` places the pieces; the set-up phases that follow are run
by ``flow.advance``.
"""

from __future__ import annotations

import numpy as np

from boardsim.core.jit import jit
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.board import (
    NUM_ROMAN_GENERALS,
    absent_generals,
    army_at,
    general_at,
    on_network,
    place_revolt,
    province_army,
)
from boardsim.games.hispania.movement import general_can_enter, move_costs_within

# the links a road may ever be built on: land links between two non-capital cities
ROAD_CANDIDATES = np.array(
    [
        li
        for li in range(D.NUM_LINKS)
        if D.LINK_SEA[li] == 0
        and D.CITY_CAPITAL[D.LINK_A[li]] == 0
        and D.CITY_CAPITAL[D.LINK_B[li]] == 0
    ],
    np.int64,
)


@jit
def road_legal(state: np.ndarray, li: int) -> bool:
    """A road may extend the network on a land link, never reaching a revolt or capital."""
    if D.LINK_SEA[li] != 0 or state[L.ROADS + li] != 0:
        return False
    a = D.LINK_A[li]
    b = D.LINK_B[li]
    if state[L.REVOLTS + a] > 0 or state[L.REVOLTS + b] > 0:
        return False
    if D.CITY_CAPITAL[a] != 0 or D.CITY_CAPITAL[b] != 0:
        return False
    return on_network(state, a) or on_network(state, b)


@jit
def any_road_legal(state: np.ndarray) -> bool:
    for li in range(D.NUM_LINKS):
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
        return s < D.NUM_CITIES and D.CITY_PROVINCE[s] == 6 + g and state[L.REVOLTS + s] == 0
    return s >= D.FIRST_SEA and state[L.FLEET + s - D.FIRST_SEA] != 0


@jit
def any_place_legal(state: np.ndarray, g: int) -> bool:
    for s in range(D.NUM_SPACES):
        if place_legal(state, g, s):
            return True
    return False


@jit
def reentry_legal(state: np.ndarray, params: np.ndarray, g: int, s: int) -> bool:
    """A returning general: a praetor on any revolt-free city of his province, the consul on
    any fleet. If another general is there he must leave it with his first action, so the
    space is offered only if his turn's denarii can take him somewhere."""
    if g < 2:
        if s >= D.NUM_CITIES or D.CITY_PROVINCE[s] != 6 + g or state[L.REVOLTS + s] != 0:
            return False
    elif s < D.FIRST_SEA or state[L.FLEET + s - D.FIRST_SEA] == 0:
        return False
    if general_at(state, s) < 0:
        return True
    budget = params[L.P_DENARII] - (absent_generals(state) - 1)
    costs = np.zeros(D.NUM_SPACES, np.int64)
    move_costs_within(state, g, s, max(budget, 0), costs)
    for t in range(D.NUM_SPACES):
        if 0 < costs[t] <= budget and general_at(state, t) < 0 and general_can_enter(state, t, g):
            return True
    return False


@jit
def any_reentry_legal(state: np.ndarray, params: np.ndarray, g: int) -> bool:
    for s in range(D.NUM_SPACES):
        if reentry_legal(state, params, g, s):
            return True
    return False


@jit
def sharing(state: np.ndarray, g: int) -> bool:
    """Another general stands on general ``g``'s space (he has just re-entered there)."""
    s = state[L.GEN_POS + g]
    if s < 0:
        return False
    for x in range(L.NUM_GENERALS):
        if x != g and state[L.GEN_POS + x] == s:
            return True
    return False


@jit
def auto_place(state: np.ndarray, g: int) -> int:
    """``auto_setup``: a praetor on his "+1" disc city (else the first legal), the consul on
    the lowest-numbered free fleet."""
    if g < 2 and place_legal(state, g, D.PLUS_ONE_CITY[g]):
        return D.PLUS_ONE_CITY[g]
    for s in range(D.NUM_SPACES):
        if place_legal(state, g, s):
            return s
    return -1


@jit
def lay_out(state: np.ndarray, params: np.ndarray) -> None:
    """The pieces of the basic set-up (a scenario's on top): armies and generals off
    the board, the garrisons and revolts in reserve, the fleets, the Pirates' revolts
    and the initial roads."""
    for i in range(L.NUM_ARMY_SLOTS):
        state[L.ARMY_POS + i] = -1
        state[L.ARMY_ORDER + i] = -1
    # Terror: the special army replaces the third army, which goes back to the box
    state[L.ARMY_POS + L.SPECIAL] = -1 if params[L.P_TERROR] != 0 else L.GONE
    if params[L.P_TERROR] != 0:
        state[L.ARMY_POS + 2] = L.GONE
    state[L.MOVER] = -1
    state[L.LEGIO_OWNER] = 2 if params[L.P_LEGIO] != 0 else L.GONE
    for g in range(L.NUM_GENERALS):
        state[L.GEN_POS + g] = (
            -1 if g < NUM_ROMAN_GENERALS or params[L.P_PROCONSVL] != 0 else L.GONE
        )
        state[L.GARR_RESERVE + g] = params[L.P_GARRISONS] if g < NUM_ROMAN_GENERALS else 0
    state[L.RESERVE] = D.TOTAL_REVOLTS
    sc = params[L.P_SCENARIO]
    # fleets: a scenario's named seas first, then consecutive seas from 1
    left = params[L.P_FLEETS]
    for i in range(D.NUM_SEAS):
        if D.SCEN_FLEET_SEAS[sc, i] != 0 and left > 0:
            state[L.FLEET + i] = 1
            left -= 1
    for i in range(D.NUM_SEAS):
        if state[L.FLEET + i] == 0 and left > 0:
            state[L.FLEET + i] = 1
            left -= 1
    for i in range(D.NUM_SEAS):
        if params[L.P_PIRATES] != 0 and state[L.FLEET + i] == 0:
            # Pirates: a revolt on every sea left without a fleet
            place_revolt(state, D.FIRST_SEA + i)
    for li in range(D.NUM_LINKS):
        state[L.ROADS + li] = D.INITIAL_ROADS[li]
    if sc != 0:
        scenario_setup(state, params, sc)


@jit
def scenario_setup(state: np.ndarray, params: np.ndarray, sc: int) -> None:
    """A scenario's time track and pieces (rulebook, Scenarios)."""
    state[L.TRACK] = D.SCEN_TRACK[sc]
    state[L.RESERVE] -= D.SCEN_TRACK[sc]
    for p in range(D.NUM_HISPANIC):
        state[L.SETUP_CITY + p] = -1
    for c in range(D.NUM_CITIES):
        for _ in range(D.SCEN_REVOLTS[sc, c]):
            place_revolt(state, c)
        for i in range(L.STACK):
            col = D.SCEN_GARRISONS[sc, c, i]
            if col != 0:
                state[L.GARR + c * L.STACK + i] = col
                state[L.GARR_RESERVE + col - 1] -= 1
        p = D.CITY_PROVINCE[c]
        if D.SCEN_REVOLTS[sc, c] > 0 and p < D.NUM_HISPANIC and state[L.SETUP_CITY + p] < 0:
            state[L.SETUP_CITY + p] = c
    for g in range(NUM_ROMAN_GENERALS):
        state[L.GEN_POS + g] = D.SCEN_GENERALS[sc, g]
    for k in range(L.NUM_ARMY_SLOTS):
        if D.SCEN_ARMIES[sc, k] >= 0:
            state[L.ARMY_POS + k] = D.SCEN_ARMIES[sc, k]
    state[L.DISPLAY] = D.SCEN_DISPLAY[sc]
    state[L.LETHE] = D.SCEN_LETHE[sc]


@jit
def armies_on_board(state: np.ndarray) -> int:
    n = 0
    for k in range(L.NUM_ARMY_SLOTS):
        if state[L.ARMY_POS + k] >= 0:
            n += 1
    return n


@jit
def army_province_ok(state: np.ndarray, params: np.ndarray, p: int) -> bool:
    """An initial army may be rolled for province ``p`` (its revolt city, none there yet)."""
    sc = params[L.P_SCENARIO]
    return (
        state[L.SETUP_CITY + p] >= 0 and province_army(state, p) < 0 and D.SCEN_NO_ARMY[sc, p] == 0
    )


@jit
def army_die_faces(state: np.ndarray, params: np.ndarray, faces: np.ndarray) -> int:
    """The outcomes of the next initial-army roll; returns how many (New Empire: city
    numbers of the revolts of Gallaecia, then of Cantabria; otherwise provinces I-VI)."""
    sc = params[L.P_SCENARIO]
    n = 0
    if D.SCEN_ARMY_DIE[sc] != 0:
        p = 4 + state[L.COUNTER]
        for f in range(6):
            if state[L.REVOLTS + p * 6 + f] > 0 and army_at(state, p * 6 + f) < 0:
                faces[n] = f + 1
                n += 1
        return n
    for p in range(D.NUM_HISPANIC):
        if army_province_ok(state, params, p):
            faces[n] = p + 1
            n += 1
    return n

"""The players' decisions: ``legal_mask`` and ``apply_action``.

Both dispatch on the phase (the Hispano player's decisions are in ``hispano.py``): the
set-up roads and generals, a general's re-entry, Imperivm's free move, and the Roman
phase's Move, Garrison, Besiege, Attack and the variants' actions.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from boardsim.core.header import H_ACTOR
from boardsim.core.jit import jit, jit_inline
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.board import (
    army_at,
    garrison_count,
    general_at,
    is_adjacent,
    province_revolt_cities,
)
from boardsim.games.hispania.combat import own_discs
from boardsim.games.hispania.flow import advance, begin_hispanic_phase, free_move_legal
from boardsim.games.hispania.hispano import hispano_action, hispano_mask
from boardsim.games.hispania.movement import (
    calm_seas,
    fleet_move_cost,
    fleet_search,
    move_cost_within,
    move_reach,
)
from boardsim.games.hispania.setup import (
    ROAD_CANDIDATES,
    place_legal,
    reentry_legal,
    road_legal,
    sharing,
)


@jit
def acting_general(state: np.ndarray) -> int:
    """The general the next Roman action is for: the selected one, else the turn's."""
    m = state[L.MOVER]
    return m if m >= 0 else state[L.TURN]


@jit
def mark_moves(state: np.ndarray, g: int, den: int, mask: np.ndarray) -> int:
    """Mark every space general ``g`` may move to with ``den`` denarii; return the count."""
    n = 0
    # the search only ever enters spaces he may enter (general_can_enter); he may not
    # stop where another general stands
    reach = move_reach(state, g, state[L.GEN_POS + g], den) & ~generals_spaces(state)
    while reach != 0:
        s = trailing_zeros(reach)
        reach &= reach - 1
        mask[L.A_SPACE + s] = 1
        n += 1
    return n


@jit
def generals_spaces(state: np.ndarray) -> int:
    """The spaces a general stands on, as a bit set."""
    occupied = 0
    for x in range(L.NUM_GENERALS):
        if state[L.GEN_POS + x] >= 0:
            occupied |= 1 << state[L.GEN_POS + x]
    return occupied


@jit
def mark_targets(state: np.ndarray, g: int, mask: np.ndarray) -> int:
    """Besiege (a revolt without army) or attack (an army) from general ``g``'s space."""
    n = 0
    s = state[L.GEN_POS + g]
    for j in range(D.DEGREE[s]):
        t = D.NEIGHBOURS[s, j]
        if state[L.REVOLTS + t] > 0:
            if t < D.NUM_CITIES and army_at(state, t) >= 0:
                mask[L.A_ATTACK + t] = 1
            else:
                mask[L.A_BESIEGE + t] = 1
            n += 1
    return n


@jit
def select_legal(state: np.ndarray, params: np.ndarray, t: int, g: int) -> bool:
    """Imperivm: the consul may move the praetors; Proconsvl: anyone may use the proconsul.
    Only a general with something to do now (a move the denarii pay for, or for the
    proconsul a revolt to fight): a selection is never cancelled (ledger row 25)."""
    if state[L.GEN_POS + g] < 0 or g == t:
        return False
    if g == L.PROCONSUL:
        return params[L.P_PROCONSVL] != 0 and (has_move(state, g) or has_target(state, g))
    return params[L.P_IMPERIVM] != 0 and t == 2 and g < 2 and has_move(state, g)


@jit
def has_move(state: np.ndarray, g: int) -> bool:
    """General ``g`` may move somewhere the Roman phase's denarii pay for."""
    reach = move_reach(state, g, state[L.GEN_POS + g], state[L.DENARII])
    return (reach & ~generals_spaces(state)) != 0


@jit
def has_target(state: np.ndarray, g: int) -> bool:
    """A revolt (or an army) linked to general ``g``'s space, to besiege or attack."""
    s = state[L.GEN_POS + g]
    for j in range(D.DEGREE[s]):
        if state[L.REVOLTS + D.NEIGHBOURS[s, j]] > 0:
            return True
    return False


@jit
def assassination_left(state: np.ndarray, params: np.ndarray) -> bool:
    """Rome does not pay traitors may still be tried: ``assassination="once_per_game"``
    while no attempt was made, ``"while_in_game"`` also after a failed one (a success
    takes the special army out of the game)."""
    if params[L.P_TRAITORS] == 0:
        return False
    used = state[L.TRAITORS_USED]
    return used == 0 or (used == 1 and params[L.P_ASSASSINATION] != 0)


@jit
def assassination_legal(state: np.ndarray, params: np.ndarray, g: int) -> bool:
    """Rome does not pay traitors: while an attempt is left, a general linked to the
    special army."""
    c = state[L.ARMY_POS + L.SPECIAL]
    if not assassination_left(state, params) or c < 0:
        return False
    return is_adjacent(state[L.GEN_POS + g], c)


@jit
def legal_mask(state: np.ndarray, params: np.ndarray, mask: np.ndarray) -> int:
    """Fill ``mask`` with the legal actions of the player to move; return their count."""
    mask[:] = 0
    if state[H_ACTOR] < 0:
        return 0
    ph = state[L.PHASE]
    g = state[H_ACTOR]
    if g == L.HISPANO:
        return hispano_mask(state, params, mask)
    if ph == L.PH_SETUP_ROAD:
        return setup_road_mask(state, params, mask)
    if ph == L.PH_SETUP_PLACE:
        return setup_place_mask(state, g, mask)
    if ph == L.PH_REENTER:
        return reentry_mask(state, params, g, mask)
    if ph == L.PH_FREE_MOVE:
        return free_move_mask(state, mask)
    if ph == L.PH_ROMAN:
        return roman_mask(state, params, g, mask)
    return 0


@jit_inline
def setup_road_mask(state: np.ndarray, params: np.ndarray, mask: np.ndarray) -> int:
    """A set-up road: every link ``road_legal`` allows; Ingenivm: or keep it aside."""
    n = 0
    # road_legal for every link at once: the cities already on the road network
    network = 0
    for li in range(D.NUM_LINKS):
        if state[L.ROADS + li] != 0:
            network |= (1 << D.LINK_A[li]) | (1 << D.LINK_B[li])
    for li in ROAD_CANDIDATES:
        a = D.LINK_A[li]
        b = D.LINK_B[li]
        if (
            state[L.ROADS + li] == 0
            and state[L.REVOLTS + a] == 0
            and state[L.REVOLTS + b] == 0
            and ((network >> a) & 1 or (network >> b) & 1)
        ):
            mask[L.A_ROAD + li] = 1
            n += 1
    if params[L.P_INGENIVM] != 0:
        mask[L.A_PASS] = 1  # keep this road aside
        n += 1
    return n


@jit_inline
def setup_place_mask(state: np.ndarray, g: int, mask: np.ndarray) -> int:
    """General ``g``'s set-up space: every space ``place_legal`` allows."""
    n = 0
    for s in range(D.NUM_SPACES):
        if place_legal(state, g, s):
            mask[L.A_SPACE + s] = 1
            n += 1
    return n


@jit_inline
def reentry_mask(state: np.ndarray, params: np.ndarray, g: int, mask: np.ndarray) -> int:
    """A returning general's space: every space ``reentry_legal`` allows."""
    n = 0
    for s in range(D.NUM_SPACES):
        if reentry_legal(state, params, g, s):
            mask[L.A_SPACE + s] = 1
            n += 1
    return n


@jit_inline
def free_move_mask(state: np.ndarray, mask: np.ndarray) -> int:
    """Imperivm's free move of the praetor of Ulterior: a space one link away, or pass."""
    mask[L.A_PASS] = 1
    n = 1
    for s in range(D.NUM_SPACES):
        if free_move_legal(state, s):
            mask[L.A_SPACE + s] = 1
            n += 1
    return n


@jit_inline
def roman_mask(state: np.ndarray, params: np.ndarray, g: int, mask: np.ndarray) -> int:
    """The Roman phase of general ``g``: the denarii of a chosen combat; a move off a
    shared space; the selected general's moves; else every action of his turn, or pass."""
    den = state[L.DENARII]
    if state[L.PEND_KIND] != 0:
        return spend_mask(den, mask)
    if sharing(state, g):
        return mark_moves(state, g, den, mask)  # he must first leave the shared space
    m = state[L.MOVER]
    if m >= 0:
        return selected_general_mask(state, m, den, mask)
    mask[L.A_PASS] = 1
    n = 1 + mark_moves(state, g, den, mask)
    n += mark_fleet_moves(state, den, mask)
    s = state[L.GEN_POS + g]
    if s < D.NUM_CITIES:
        n += mark_garrison_actions(state, g, s, mask)
        if state[L.HELD_ROADS] > 0:
            n += mark_held_roads(state, s, den, mask)
    n += mark_targets(state, g, mask)
    for x in range(L.NUM_GENERALS):
        if select_legal(state, params, g, x):
            mask[L.A_SELECT + x] = 1
            n += 1
    if proconsul_legal(state, params, den):
        mask[L.A_PROCONSUL] = 1
        n += 1
    if assassination_legal(state, params, g):
        mask[L.A_ASSASSINATE] = 1
        n += 1
    return n


@jit_inline
def spend_mask(den: int, mask: np.ndarray) -> int:
    """A chosen combat: spend 1-3 denarii (as many as he has; the Roman phase always has
    one). A chosen combat is fought, never cancelled (ledger row 25)."""
    n = 0
    for k in range(1, 4):
        if k <= den:
            mask[L.A_SPEND + k - 1] = 1
            n += 1
    return n


@jit_inline
def selected_general_mask(state: np.ndarray, m: int, den: int, mask: np.ndarray) -> int:
    """The selected general: the consul moves a praetor, anyone uses the proconsul (who
    may also fight). No cancel: he was selectable only with something to do."""
    n = mark_moves(state, m, den, mask)
    if m == L.PROCONSUL:
        n += mark_targets(state, m, mask)
    return n


@jit_inline
def mark_fleet_moves(state: np.ndarray, den: int, mask: np.ndarray) -> int:
    """Mark every fleet move ``den`` denarii pay for (a denarius a sea link, never through
    a sea in revolt, to a sea without fleet); return the count."""
    n = 0
    fleets = 0
    for a in range(D.NUM_SEAS):
        if state[L.FLEET + a] != 0:
            fleets |= 1 << a
    calm = calm_seas(state)
    left = fleets
    while left != 0:
        a = trailing_zeros(left)
        left &= left - 1
        seen, _ = fleet_search(calm, a, den, -1)
        targets = seen & ~fleets
        while targets != 0:
            b = trailing_zeros(targets)
            targets &= targets - 1
            mask[L.A_FLEET + a * D.NUM_SEAS + b] = 1
            n += 1
    return n


@jit_inline
def mark_garrison_actions(state: np.ndarray, g: int, s: int, mask: np.ndarray) -> int:
    """In city ``s``: place or take back one of his garrisons, or the Legio Hispana disc."""
    n = 0
    if state[L.GARR_RESERVE + g] > 0 and garrison_legal(state, g, s):
        mask[L.A_GARRISON] = 1
        n += 1
    if own_discs(state, s, g + 1) > 0:
        mask[L.A_UNGARRISON] = 1
        n += 1
    if state[L.LEGIO_OWNER] == g and garrison_legal(state, g, s):
        mask[L.A_LEGIO] = 1
        n += 1
    if own_discs(state, s, L.LEGIO_COLOUR) > 0:
        mask[L.A_UNLEGIO] = 1
        n += 1
    return n


@jit_inline
def mark_held_roads(state: np.ndarray, s: int, den: int, mask: np.ndarray) -> int:
    """Ingenivm: a kept road on a link of city ``s`` that ``road_legal`` allows and ``den``
    denarii pay for (1 a segment)."""
    n = 0
    for j in range(D.DEGREE[s]):
        li = D.ADJ_LINK[s, D.NEIGHBOURS[s, j]]
        if road_legal(state, li) and D.LINK_SEGMENTS[li] <= den:
            mask[L.A_ROAD + li] = 1
            n += 1
    return n


@jit_inline
def proconsul_legal(state: np.ndarray, params: np.ndarray, den: int) -> bool:
    """Proconsvl: for 3 denarii the proconsul enters on the fleet of sea 1, if it is free."""
    return (
        params[L.P_PROCONSVL] != 0
        and state[L.GEN_POS + L.PROCONSUL] == -1
        and den >= 3
        and state[L.FLEET] != 0
        and general_at(state, D.FIRST_SEA) < 0
    )


@jit
def garrison_legal(state: np.ndarray, g: int, c: int) -> bool:
    """Room for a disc (3 a city), and a capital's whole province free of revolt."""
    if garrison_count(state, c) + state[L.REVOLTS + c] >= L.STACK:
        return False
    if D.CITY_CAPITAL[c] != 0:
        nrev, _ = province_revolt_cities(state, D.CITY_PROVINCE[c])
        if nrev > 0:
            return False
    return True


@jit
def apply_action(state: np.ndarray, params: np.ndarray, action: int) -> None:
    """One decision of the player to move."""
    ph = state[L.PHASE]
    g = state[H_ACTOR]
    if g == L.HISPANO:
        hispano_action(state, params, action)
    elif ph == L.PH_SETUP_ROAD:
        if action == L.A_PASS:
            state[L.HELD_ROADS] += 1
        else:
            state[L.ROADS + action - L.A_ROAD] = 1
        state[L.COUNTER] += 1
    elif ph == L.PH_SETUP_PLACE:
        state[L.GEN_POS + g] = action - L.A_SPACE
        state[L.COUNTER] += 1
    elif ph == L.PH_REENTER:
        state[L.GEN_POS + g] = action - L.A_SPACE
        state[L.PHASE] = L.PH_TURN_START
    elif ph == L.PH_FREE_MOVE:
        if action != L.A_PASS:
            state[L.GEN_POS] = action - L.A_SPACE
            cross_lethe(state, 0, action - L.A_SPACE)
        state[L.PHASE] = L.PH_TURN_NEXT
    elif ph == L.PH_ROMAN:
        roman_action(state, params, g, action)
    advance(state, params)


@jit
def start_combat(state: np.ndarray, kind: int, k: int) -> None:
    """Spend ``k`` denarii on the chosen combat and roll."""
    state[L.DENARII] -= k
    state[L.COMBAT_KIND] = kind
    state[L.COMBAT_TARGET] = state[L.PEND_TARGET]
    state[L.COMBAT_SPENT] = k
    state[L.COMBAT_ARMY] = -1
    state[L.COMBAT_GEN] = acting_general(state)
    state[L.DIE_R] = 0
    state[L.DIE_H] = 0
    state[L.PEND_KIND] = 0
    state[L.PEND_TARGET] = 0
    state[L.MOVER] = -1
    state[L.HISP_BONUS] = 0
    state[L.H_ACCEPTED] = 0
    state[L.PHASE] = L.PH_ROMAN_COMBAT
    if kind != L.CB_ASSASSINATE and state[L.HDENARII] > 0:
        state[L.PHASE] = L.PH_H_REINFORCE  # Hispano may reinforce before the dice


@jit
def roman_action(state: np.ndarray, params: np.ndarray, g: int, action: int) -> None:
    """Move, Garrison, Besiege, Attack (and the variants' actions) or pass."""
    if action == L.A_PASS:
        state[L.PEND_KIND] = 0
        begin_hispanic_phase(state, params)
    elif action < L.A_FLEET:
        m = acting_general(state)
        s = action - L.A_SPACE
        # the cost of the move, searching no further than his denarii (the move is legal)
        state[L.DENARII] -= move_cost_within(state, m, state[L.GEN_POS + m], state[L.DENARII], s)
        state[L.GEN_POS + m] = s
        state[L.MOVER] = -1
        cross_lethe(state, m, s)
    elif action < L.A_GARRISON:
        a = (action - L.A_FLEET) // D.NUM_SEAS
        b = (action - L.A_FLEET) % D.NUM_SEAS
        state[L.DENARII] -= fleet_move_cost(state, a, b)
        state[L.FLEET + a] = 0
        state[L.FLEET + b] = 1
        rider = general_at(state, D.FIRST_SEA + a)
        if rider >= 0:
            state[L.GEN_POS + rider] = D.FIRST_SEA + b
    elif action == L.A_GARRISON:
        c = state[L.GEN_POS + g]
        state[L.GARR + c * L.STACK + garrison_count(state, c)] = g + 1
        state[L.GARR_RESERVE + g] -= 1
        state[L.DENARII] -= 1
    elif action == L.A_UNGARRISON:
        c = state[L.GEN_POS + g]
        remove_own_garrison(state, c, g + 1)
        state[L.GARR_RESERVE + g] += 1
        state[L.DENARII] -= 1
    elif action < L.A_ATTACK:
        state[L.PEND_KIND] = L.PK_BESIEGE
        state[L.PEND_TARGET] = action - L.A_BESIEGE
    elif action < L.A_SPEND:
        state[L.PEND_KIND] = L.PK_ATTACK
        state[L.PEND_TARGET] = action - L.A_ATTACK
    elif action < L.A_ROAD:  # A_SPEND + k - 1 (A_CANCEL is never legal: ledger row 25)
        pk = state[L.PEND_KIND]
        kind = (
            L.CB_SIEGE
            if pk == L.PK_BESIEGE
            else (L.CB_ATTACK if pk == L.PK_ATTACK else L.CB_ASSASSINATE)
        )
        start_combat(state, kind, action - L.A_SPEND + 1)
    elif action < L.A_SELECT:
        build_road(state, g, action - L.A_ROAD)
    elif action < L.A_LEGIO:
        state[L.MOVER] = action - L.A_SELECT
    elif action == L.A_LEGIO:
        c = state[L.GEN_POS + g]
        state[L.GARR + c * L.STACK + garrison_count(state, c)] = L.LEGIO_COLOUR
        state[L.LEGIO_OWNER] = -1
        state[L.DENARII] -= 1
    elif action == L.A_UNLEGIO:
        remove_own_garrison(state, state[L.GEN_POS + g], L.LEGIO_COLOUR)
        state[L.LEGIO_OWNER] = g
        state[L.DENARII] -= 1
    elif action == L.A_PROCONSUL:
        state[L.GEN_POS + L.PROCONSUL] = D.FIRST_SEA
        state[L.DENARII] -= 3
    else:
        state[L.PEND_KIND] = L.PK_ASSASSINATE
        state[L.PEND_TARGET] = state[L.ARMY_POS + L.SPECIAL]


@jit
def cross_lethe(state: np.ndarray, g: int, s: int) -> None:
    """Brutus across the Durius: the Lethe road is removed for good."""
    if state[L.LETHE] != 0 and g == 0 and s < D.NUM_CITIES and D.LETHE_NORTH[s] != 0:
        state[L.LETHE] = 0


@jit
def build_road(state: np.ndarray, g: int, li: int) -> None:
    """Ingenivm: place a kept road on a link of the general's city (1 denarius a segment)."""
    state[L.ROADS + li] = 1
    state[L.HELD_ROADS] -= 1
    state[L.DENARII] -= D.LINK_SEGMENTS[li]


@jit
def remove_own_garrison(state: np.ndarray, c: int, colour: int) -> None:
    """Take the topmost disc of ``colour`` out of city ``c``'s stack (the rest close up)."""
    base = L.GARR + c * L.STACK
    for i in range(L.STACK - 1, -1, -1):
        if state[base + i] == colour:
            for j in range(i, L.STACK - 1):
                state[base + j] = state[base + j + 1]
            state[base + L.STACK - 1] = 0
            return

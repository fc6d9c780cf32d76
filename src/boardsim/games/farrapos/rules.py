"""Farrapos rules: the numba core over one flat ``int32`` state (layout in ``layout.py``).

Numpy and numba only. Small functions named after the rule they implement; the
kernels the generic engine needs (``init``, ``legal_mask``, ``apply_action``,
``chance_weights``, ``apply_chance``, ``observe``, ``returns``) come last; the package's
bundle (``GameKernels.from_package``) hands them to the generic engine (``step``,
batching, rollouts).

A turn: the side to move places its arriving units (one decision a unit), takes one
action (attack a linked enemy city, move or invade to one city, or pass), then may
place militia in its empty cities (the set-up step) before its VP are recorded. With
``arrivals="after"`` the arriving units are placed in the set-up step instead, before
the militia. With ``move_destinations="several"`` a move action may go on to further
cities, one group of units after another.
Battles are rounds of two dice (chance nodes); each loser picks the unit it flips;
the attacker continues or stops (with ``round_attackers="rechosen"`` it may name the
attacking units anew). A city left without defenders falls: the surviving attackers
move in (with ``advance="chosen"`` those the attacker chooses). Rulings:
``docs/rules/farrapos.md``.

Plain loops rather than ``any``/``all`` over generators: this is numba code.
"""

from __future__ import annotations

import numpy as np

from boardsim.core import header as H
from boardsim.core.jit import jit, jit_inline
from boardsim.core.kernel_parts import fair_die, mark_over
from boardsim.games.farrapos import data as D
from boardsim.games.farrapos import layout as L

SEA_CAPACITY = 2  # advanced rule: up to 2 MU a turn between held ports
VP_SCALE = 24.0  # dense reward: VP difference over the victory threshold


# ---------------------------------------------------------------- control and victory points
@jit
def update_control(state: np.ndarray) -> None:
    """A city is occupied by the side with a unit or militia in it, and possessed by it.

    An emptied city stays in its side's possession (not occupied, so it scores nothing)
    until the other side moves in, or with ``empty_city="neutral"`` until the turn ends
    (:func:`release_empty_cities`).
    """
    for c in range(L.C):
        state[L.OCC + c] = D.NEUTRAL
    for u in range(L.P):
        loc = state[L.LOC + u]
        if loc >= 0:
            state[L.OCC + loc] = D.PIECE_SIDE[u]
    for c in range(L.C):
        if state[L.OCC + c] != D.NEUTRAL:
            state[L.OWNER + c] = state[L.OCC + c]


@jit
def release_empty_cities(state: np.ndarray, params: np.ndarray) -> None:
    """Option ``empty_city="neutral"`` (ruling 5, l.60 "it will be considered empty"): when
    the turn's VP are recorded, a city with no piece in it is no one's. Only a militia
    placed in the set-up step keeps a city the turn emptied (l.113)."""
    if params[L.P_EMPTY_CITY] != L.EMPTY_NEUTRAL:
        return
    for c in range(L.C):
        if state[L.OCC + c] == D.NEUTRAL:
            state[L.OWNER + c] = D.NEUTRAL


@jit
def release_wiped_out_city(state: np.ndarray, params: np.ndarray, c: int) -> None:
    """Option ``empty_city="neutral"`` (ruling 5): a battle whose tie removed the last
    pieces of both sides leaves the defended city with no one to enter it. It is no one's
    at once: it would be at the turn's end anyway, and the attacker's set-up step can place
    nothing in it (it is not the attacker's), so only the position in between changes,
    which then keeps the rule that an empty city of the side not to move is no one's."""
    if params[L.P_EMPTY_CITY] == L.EMPTY_NEUTRAL:
        state[L.OWNER + c] = D.NEUTRAL


@jit
def holds_region(state: np.ndarray, side: int, region: int) -> bool:
    """Every city of the colour region is occupied by ``side``."""
    for c in range(L.C):
        if D.CITY_REGION[c] == region and state[L.OCC + c] != side:
            return False
    return True


@jit
def holds_all_ports(state: np.ndarray, side: int) -> bool:
    for c in range(L.C):
        if D.CITY_PORT[c] == 1 and state[L.OCC + c] != side:
            return False
    return True


@jit
def is_sea_port(state: np.ndarray, params: np.ndarray, side: int, c: int) -> bool:
    """A port of ``side``'s for port transport (ruling 19, l.134 "has conquered at least 2
    port cities"): one it possesses; with ``sea_ports="conquered"`` only one it did not
    hold at the start of the game (the state keeps no history: a home port lost and
    retaken does not count)."""
    if D.CITY_PORT[c] != 1 or state[L.OWNER + c] != side:
        return False
    return params[L.P_SEA_PORTS] != L.SEA_PORTS_CONQUERED or D.CITY_START[c] != side


@jit
def ports_held(state: np.ndarray, params: np.ndarray, side: int) -> int:
    n = 0
    for c in range(L.C):
        if is_sea_port(state, params, side, c):
            n += 1
    return n


@jit
def region_bonus(params: np.ndarray, r: int) -> int:
    """A colour region's bonus: the data file's, plus the option ``region_bonus_shift``,
    never below 0."""
    return max(D.REGION_BONUS[r] + params[L.P_REGION_BONUS_SHIFT], 0)


@jit
def score_victory_points(state: np.ndarray, params: np.ndarray, side: int) -> int:
    """VP = each occupied city's VP + each colour region held whole + all ports held
    (the bonuses by the options ``region_bonus_shift`` and ``ports_bonus``)."""
    total = 0
    for c in range(L.C):
        if state[L.OCC + c] == side:
            total += D.CITY_VP[c]
    for r in range(D.NUM_REGIONS):
        if holds_region(state, side, r):
            total += region_bonus(params, r)
    if holds_all_ports(state, side):
        total += params[L.P_PORTS_BONUS]
    return total


@jit
def recount(state: np.ndarray, params: np.ndarray) -> None:
    """Recompute who holds each city and both sides' VP."""
    update_control(state)
    for s in range(2):
        state[L.VP + s] = score_victory_points(state, params, s)


# ---------------------------------------------------------------- pieces
@jit
def is_militia(u: int) -> bool:
    return D.PIECE_TYPE[u] == D.T_MILITIA


@jit
def attack_factor(state: np.ndarray, u: int) -> int:
    return D.PIECE_AF[u, state[L.STEP + u]]


@jit
def defence_factor(state: np.ndarray, u: int) -> int:
    return D.PIECE_DF[u, state[L.STEP + u]]


@jit
def movement_factor(state: np.ndarray, u: int) -> int:
    return D.PIECE_MF[u, state[L.STEP + u]]


@jit
def in_the_game(params: np.ndarray, u: int) -> bool:
    """MU ``u`` is among the first ``republic_mu`` / ``empire_mu`` of its side in order
    of entry; the others (its side's latest arrivals) never enter."""
    return D.PIECE_ENTRY_RANK[u] < params[L.P_REPUBLIC_MU + D.PIECE_SIDE[u]]


@jit
def next_reinforcement(state: np.ndarray, params: np.ndarray, side: int) -> int:
    """The first MU of ``side`` in the game whose arrival phase has come and that is not
    yet placed."""
    for u in range(D.NUM_UNITS):
        if (
            D.PIECE_SIDE[u] == side
            and state[L.LOC + u] == L.LOC_RESERVE
            and D.PIECE_ARRIVAL[u] <= state[L.PHASE]
            and in_the_game(params, u)
        ):
            return u
    return -1


@jit
def next_militia(state: np.ndarray, side: int) -> int:
    """The first militia counter of ``side`` not yet placed (eliminated ones never return)."""
    for u in range(D.NUM_UNITS, L.P):
        if D.PIECE_SIDE[u] == side and state[L.LOC + u] == L.LOC_RESERVE:
            return u
    return -1


@jit
def can_place_militia_in(state: np.ndarray, side: int, c: int) -> bool:
    """A militia goes to a city of its side's possession that has no MU (nor militia)."""
    return state[L.OWNER + c] == side and state[L.OCC + c] == D.NEUTRAL


@jit
def can_place_militia(state: np.ndarray, side: int) -> bool:
    if next_militia(state, side) < 0:
        return False
    for c in range(L.C):
        if can_place_militia_in(state, side, c):
            return True
    return False


@jit
def holds_any_city(state: np.ndarray, side: int) -> bool:
    """``side`` possesses a city (where arriving units may enter)."""
    for c in range(L.C):
        if state[L.OWNER + c] == side:
            return True
    return False


# ---------------------------------------------------------------- movement
# each city's path-line neighbours as a bit set (the board has at most 63 cities)
NEIGHBOUR_BITS = np.zeros(L.C, np.int64)
for _c in range(L.C):
    for _k in range(D.DEGREE[_c]):
        NEIGHBOUR_BITS[_c] |= np.int64(1) << np.int64(D.NEIGHBORS[_c, _k])
assert L.C <= 63, "city sets are 64-bit masks"
MAX_MF = int(D.PIECE_MF.max())  # the longest land move of any unit, any step


@jit_inline
def linked_to(cities: int) -> int:
    """The cities a path line links to a city of the set ``cities`` (bit sets)."""
    linked = 0
    c = 0
    while (cities >> c) != 0:
        if (cities >> c) & 1:
            linked |= NEIGHBOUR_BITS[c]
        c += 1
    return linked


@jit
def distance_layers(target: int, passable: int, layers: np.ndarray) -> None:
    """``layers[k]``: the cities within ``k`` path-line steps of ``target`` (k <= MAX_MF),
    never through an enemy-occupied city (the paths are the same read either way)."""
    reach = 1 << target
    layers[0] = reach
    frontier = reach
    for k in range(1, MAX_MF + 1):
        grown = linked_to(frontier) & passable & ~reach
        reach |= grown
        frontier = grown
        layers[k] = reach


@jit
def passable_cities(state: np.ndarray, side: int) -> int:
    """The cities ``side``'s units may pass through or enter: those not enemy-occupied."""
    enemy = 1 - side
    bits = 0
    for c in range(L.C):
        if state[L.OCC + c] != enemy:
            bits |= 1 << c
    return bits


@jit
def land_reach(start: int, steps: int, passable: int) -> int:
    """The cities within ``steps`` path-line steps of ``start`` (itself included), never
    through or into an enemy-occupied city, as a bit set."""
    reach = 1 << start
    frontier = reach
    for _ in range(steps):
        grown = linked_to(frontier) & passable & ~reach
        if grown == 0:
            break
        reach |= grown
        frontier = grown
    return reach


@jit
def can_carry_by_sea(state: np.ndarray, params: np.ndarray, side: int, u: int, dest: int) -> bool:
    """Advanced rule: with 2 ports held, MU cross between held ports (2 a turn)."""
    if params[L.P_PORT_TRANSPORT] == 0:
        return False
    loc = state[L.LOC + u]
    return (
        loc >= 0
        and is_sea_port(state, params, side, dest)
        and is_sea_port(state, params, side, loc)
        and loc != dest
        and ports_held(state, params, side) >= 2
    )


@jit
def can_move_unit(
    state: np.ndarray, params: np.ndarray, side: int, u: int, dest: int, passable: int
) -> int:
    """0: no; SEL_LAND: along path lines within its MF; SEL_SEA: carried between ports."""
    if u >= D.NUM_UNITS or D.PIECE_SIDE[u] != side:
        return 0
    loc = state[L.LOC + u]
    if loc < 0 or loc == dest or not leaves_one_behind(state, params, u):
        return 0
    if (land_reach(loc, movement_factor(state, u), passable) >> dest) & 1:
        return L.SEL_LAND
    if state[L.SEA_USED] < SEA_CAPACITY and can_carry_by_sea(state, params, side, u, dest):
        return L.SEL_SEA
    return 0


@jit
def can_use_sea(state: np.ndarray, params: np.ndarray, side: int) -> bool:
    """Advanced rule: port transport is on, has room this turn, and ``side`` holds 2 ports."""
    return (
        params[L.P_PORT_TRANSPORT] != 0
        and state[L.SEA_USED] < SEA_CAPACITY
        and ports_held(state, params, side) >= 2
    )


@jit
def held_ports(state: np.ndarray, params: np.ndarray, side: int) -> int:
    """The ports ``side`` may carry MU between (:func:`is_sea_port`), as a bit set."""
    bits = 0
    for c in range(L.C):
        if is_sea_port(state, params, side, c):
            bits |= 1 << c
    return bits


@jit
def origin_kept(params: np.ndarray) -> bool:
    """Option ``empty_origin="forbidden"`` (ruling 10, l.60-61 "leaving at least one MU or
    Militia counter in the city of origin"): a move may not empty a city; by default it
    may, the city then being empty (l.60's parenthesis)."""
    return params[L.P_EMPTY_ORIGIN] == L.ORIGIN_KEEPS_ONE


@jit
def leaves_one_behind(state: np.ndarray, params: np.ndarray, u: int) -> bool:
    """``u`` may join the move: by default always; with ``empty_origin="forbidden"`` only
    if a piece not chosen for the move stays in its city."""
    if not origin_kept(params):
        return True
    loc = state[L.LOC + u]
    for v in range(L.P):
        if v != u and state[L.LOC + v] == loc and not is_chosen(state, v):
            return True
    return False


@jit
def has_moved(state: np.ndarray, u: int) -> bool:
    """``u`` moved already in this action (``move_destinations="several"``): it stays."""
    return state[L.SEL + u] >= L.SEL_MOVED_LAND


@jit
def is_chosen(state: np.ndarray, u: int) -> bool:
    """``u`` is chosen for the attack or move being composed (or attacks in the battle)."""
    return state[L.SEL + u] == L.SEL_LAND or state[L.SEL + u] == L.SEL_SEA


@jit
def several_destinations(params: np.ndarray) -> bool:
    """Option ``move_destinations="several"`` (ruling 8, l.61 "as many MU as desired"): a
    move action may send units to several cities; by default to one (l.59-60)."""
    return params[L.P_MOVE_DESTINATIONS] == L.MOVES_SEVERAL


@jit
def moving_on(state: np.ndarray, params: np.ndarray) -> bool:
    """A move to several destinations is under way: some MU has moved in this action."""
    if not several_destinations(params):
        return False
    for u in range(D.NUM_UNITS):
        if has_moved(state, u):
            return True
    return False


@jit
def move_destinations(state: np.ndarray, params: np.ndarray, side: int) -> int:
    """Every city some MU of ``side`` can move or invade into this turn, as a bit set:
    within its MF by path lines (not through enemy cities), or by sea between held ports.
    An MU that has moved in this action (several destinations) moves no more."""
    passable = passable_cities(state, side)
    ports = held_ports(state, params, side) if can_use_sea(state, params, side) else 0
    # the longest move from each city holding our MU (units in one city share their paths)
    longest = np.full(L.C, -1, np.int64)
    for u in range(D.NUM_UNITS):
        loc = state[L.LOC + u]
        if D.PIECE_SIDE[u] == side and loc >= 0 and not has_moved(state, u):
            longest[loc] = max(longest[loc], movement_factor(state, u))
    if origin_kept(params):  # empty_origin="forbidden": a lone piece may not leave its city
        pieces = np.zeros(L.C, np.int64)
        for u in range(L.P):
            if state[L.LOC + u] >= 0:
                pieces[state[L.LOC + u]] += 1
        for loc in range(L.C):
            if pieces[loc] < 2:
                longest[loc] = -1
    dests = 0
    for loc in range(L.C):
        if longest[loc] < 0:
            continue
        here = 1 << loc
        dests |= land_reach(loc, longest[loc], passable) & ~here
        if ports & here:
            dests |= ports & ~here
    return dests & passable


@jit
def is_linked(a: int, b: int) -> bool:
    return D.ADJACENCY[a, b] == 1


@jit
def can_attack_with(state: np.ndarray, side: int, u: int, target: int) -> bool:
    """An attacking MU stands in a city linked to the target by a path line."""
    if u >= D.NUM_UNITS or D.PIECE_SIDE[u] != side:
        return False
    loc = state[L.LOC + u]
    return loc >= 0 and is_linked(loc, target)


@jit
def can_attack(state: np.ndarray, side: int, target: int) -> bool:
    """A city occupied by the enemy, with an MU of ``side`` in a linked city."""
    if state[L.OCC + target] != 1 - side:
        return False
    for u in range(D.NUM_UNITS):
        if can_attack_with(state, side, u, target):
            return True
    return False


@jit
def is_under_siege(state: np.ndarray, c: int) -> bool:
    """Advanced rule: every city linked to ``c`` is occupied by the enemy of its occupant."""
    holder = state[L.OCC + c]
    if holder == D.NEUTRAL:
        return False
    for k in range(D.DEGREE[c]):
        if state[L.OCC + D.NEIGHBORS[c, k]] != 1 - holder:
            return False
    return True


@jit
def extra_defence(state: np.ndarray, params: np.ndarray, c: int) -> int:
    """The city's VP defend it too, unless it is under siege (advanced rule)."""
    if params[L.P_SIEGE] != 0 and is_under_siege(state, c):
        return 0
    return D.CITY_VP[c]


@jit
def attack_strength(state: np.ndarray) -> int:
    total = 0
    for u in range(D.NUM_UNITS):
        if state[L.SEL + u] != 0 and state[L.LOC + u] >= 0:
            total += attack_factor(state, u)
    return total


@jit
def defence_strength(state: np.ndarray, params: np.ndarray, c: int) -> int:
    total = 0
    for u in range(L.P):
        if state[L.LOC + u] == c:
            total += defence_factor(state, u)
    return total + extra_defence(state, params, c)


@jit
def read_battle_table(strength: int, die: int) -> int:
    """The index in the die's row, in the last column whose low bound the strength reaches."""
    col = -1
    for i in range(D.COLUMN_LOW.shape[0]):
        if strength >= D.COLUMN_LOW[i]:
            col = i
    if col < 0:
        return 0
    return D.BATTLE_TABLE[die - 1, col]


@jit
def count_attackers(state: np.ndarray) -> int:
    n = 0
    for u in range(D.NUM_UNITS):
        if state[L.SEL + u] != 0 and state[L.LOC + u] >= 0:
            n += 1
    return n


@jit
def pieces_at(state: np.ndarray, c: int) -> int:
    """Pieces (units and militia) standing in city ``c``: a battle's defenders in its target."""
    n = 0
    for u in range(L.P):
        if state[L.LOC + u] == c:
            n += 1
    return n


@jit
def flip_or_eliminate(state: np.ndarray, u: int) -> None:
    """A loser's unit flips to its reduced face; a reduced unit or a militia is eliminated."""
    if is_militia(u) or state[L.STEP + u] == D.REDUCED:
        state[L.LOC + u] = L.LOC_ELIMINATED
        state[L.SEL + u] = 0
    else:
        state[L.STEP + u] = D.REDUCED


@jit
def start_battle_round(state: np.ndarray, params: np.ndarray) -> None:
    """Sum the attack and the defence, then each side rolls a die (two chance nodes)."""
    state[L.ROUND] += 1
    state[L.STR_A] = attack_strength(state)
    state[L.STR_D] = defence_strength(state, params, state[L.TARGET])
    state[L.DIE_A] = 0
    state[L.DIE_D] = 0
    state[L.IDX_A] = 0
    state[L.IDX_D] = 0
    state[L.MODE] = L.M_DICE
    state[H.H_ACTOR] = H.CHANCE
    state[H.H_CHANCE_KIND] = L.CHANCE_ATTACK_DIE


@jit
def resolve_battle(state: np.ndarray, params: np.ndarray) -> None:
    """The higher index wins; the loser flips a unit; a tie makes both sides lose."""
    state[L.IDX_A] = read_battle_table(state[L.STR_A], state[L.DIE_A])
    state[L.IDX_D] = read_battle_table(state[L.STR_D], state[L.DIE_D])
    state[L.LOSS_A] = 1 if state[L.IDX_D] >= state[L.IDX_A] else 0
    state[L.LOSS_D] = 1 if state[L.IDX_A] >= state[L.IDX_D] else 0
    next_loss(state, params)


@jit
def next_loss(state: np.ndarray, params: np.ndarray) -> None:
    """The attacker picks its loss first, then the defender; then the round ends."""
    attacker = state[L.SIDE]
    if state[L.LOSS_A] != 0:
        state[L.MODE] = L.M_LOSS
        state[H.H_ACTOR] = attacker
    elif state[L.LOSS_D] != 0:
        state[L.MODE] = L.M_LOSS
        state[H.H_ACTOR] = 1 - attacker
    else:
        end_battle_round(state, params)


@jit
def end_battle_round(state: np.ndarray, params: np.ndarray) -> None:
    """No defender left: the city falls and the attackers move in. No attacker: it ends."""
    target = state[L.TARGET]
    if pieces_at(state, target) == 0:
        take_city(state, params)
    elif count_attackers(state) == 0:
        end_turn(state, params)
    else:
        recount(state, params)
        state[L.MODE] = L.M_CONTINUE
        state[H.H_ACTOR] = state[L.SIDE]


@jit
def attackers_rechosen(params: np.ndarray) -> bool:
    """Option ``round_attackers="rechosen"`` (ruling 14, l.105 "repeating the previous
    procedure"): the attacker may name the attacking MU anew before each further round;
    by default the surviving attackers go on together."""
    return params[L.P_ROUND_ATTACKERS] == L.ATTACKERS_RECHOSEN


@jit
def rechoose_attackers(state: np.ndarray, u: int) -> None:
    """Continue the attack with units named anew, ``u`` first: the last round's attackers
    are no longer chosen (they stay where they stand unless named again); the attacker
    adds the others (M_ATTACK, ROUND kept) and confirms the next round."""
    for v in range(D.NUM_UNITS):
        state[L.SEL + v] = 0
    state[L.SEL + u] = L.SEL_LAND
    state[L.MODE] = L.M_ATTACK


@jit
def advance_chosen(params: np.ndarray) -> bool:
    """Option ``advance="chosen"`` (ruling 12): the attacker chooses which survivors enter
    a taken city, at least one; by default all of them do."""
    return params[L.P_ADVANCE] == L.ADVANCE_CHOSEN


@jit
def take_city(state: np.ndarray, params: np.ndarray) -> None:
    """The city has no defender left and falls (ruling 12): the surviving attackers move in
    and the action is over (with none left, a tie having removed both sides' last pieces,
    it stays empty: :func:`release_wiped_out_city`). With ``advance="chosen"`` and two
    survivors or more, the attacker chooses them instead, one at a time (the advance, M_MOVE
    with ROUND >= 1)."""
    if advance_chosen(params) and count_attackers(state) >= 2:
        state[L.MODE] = L.M_MOVE
        state[H.H_ACTOR] = state[L.SIDE]
        return
    target = state[L.TARGET]
    if count_attackers(state) == 0:
        release_wiped_out_city(state, params, target)
    for u in range(D.NUM_UNITS):
        if state[L.SEL + u] != 0 and state[L.LOC + u] >= 0:
            state[L.LOC + u] = target
    end_turn(state, params)


@jit
def advancing(state: np.ndarray) -> bool:
    """The attacker chooses the survivors that enter the city it took (``advance``)."""
    return state[L.MODE] == L.M_MOVE and state[L.ROUND] >= 1


@jit
def advance_unit(state: np.ndarray, params: np.ndarray, u: int) -> None:
    """A survivor enters the taken city (and possesses it); when none is left to choose the
    advance is over."""
    state[L.LOC + u] = state[L.TARGET]
    state[L.SEL + u] = 0
    recount(state, params)
    if count_attackers(state) == 0:
        end_turn(state, params)


# ---------------------------------------------------------------- turns
@jit
def finish(state: np.ndarray, winner: int) -> None:
    state[L.WINNER] = winner
    state[L.MODE] = L.M_OVER
    mark_over(state)


@jit
def check_sudden_victory(state: np.ndarray, params: np.ndarray) -> bool:
    """A side with the victory VP (24) before the last phase wins at the end of a turn."""
    if state[L.PHASE] >= D.PHASES:
        return False
    v0 = state[L.VP]
    v1 = state[L.VP + 1]
    need = params[L.P_VICTORY_VP]
    if v0 < need and v1 < need:
        return False
    if v0 > v1:
        finish(state, 0)
    elif v1 > v0:
        finish(state, 1)
    else:
        finish(state, L.DRAW)
    return True


@jit
def final_victory(state: np.ndarray, params: np.ndarray) -> None:
    """After turn 4 of the last phase: the most VP wins; equal VP by the final_tie option."""
    v0 = state[L.VP]
    v1 = state[L.VP + 1]
    if v0 > v1:
        finish(state, 0)
    elif v1 > v0 or params[L.P_FINAL_TIE] == 1:
        finish(state, 1)
    else:
        finish(state, L.DRAW)


@jit
def arrivals_after_action(params: np.ndarray) -> bool:
    """Option ``arrivals="after"`` (ruling 3, l.63): arriving MU are placed in the set-up
    step after the action; by default (l.79) at the start of the turn, before it."""
    return params[L.P_ARRIVALS] == L.ARRIVALS_AFTER


@jit
def can_reinforce(state: np.ndarray, params: np.ndarray) -> bool:
    """The side to move has an arriving MU to place and a city of its own to place it in."""
    side = state[L.SIDE]
    return next_reinforcement(state, params, side) >= 0 and holds_any_city(state, side)


@jit
def choose_deploy_mode(state: np.ndarray, params: np.ndarray) -> None:
    """Turn start: arriving units enter first (one decision each), then the side takes its
    action; with ``arrivals="after"`` the action comes at once."""
    if can_reinforce(state, params) and not arrivals_after_action(params):
        state[L.MODE] = L.M_REINFORCE
    else:
        state[L.MODE] = L.M_MAIN


@jit
def begin_turn(state: np.ndarray, params: np.ndarray) -> None:
    side = D.TURN_SIDE[state[L.TURN] - 1]
    state[L.SIDE] = side
    state[H.H_ACTOR] = side
    state[H.H_CHANCE_KIND] = 0
    choose_deploy_mode(state, params)


@jit
def make_move(state: np.ndarray, params: np.ndarray) -> None:
    """Confirm a move: the chosen MU enter the target. By default that is the action
    (ruling 8). With ``move_destinations="several"`` they are marked as moved and the side
    may choose a further city for the MU that have not moved (M_MAIN, no attack), or end
    the action; with no city left for them the action ends."""
    several = several_destinations(params)
    for u in range(D.NUM_UNITS):
        if is_chosen(state, u):
            state[L.LOC + u] = state[L.TARGET]
            if several:
                state[L.SEL + u] += L.SEL_MOVED
    if not several:
        end_turn(state, params)
        return
    state[L.TARGET] = -1
    recount(state, params)
    if move_destinations(state, params, state[L.SIDE]) != 0:
        state[L.MODE] = L.M_MAIN
    else:
        end_turn(state, params)


@jit
def clear_selection(state: np.ndarray) -> None:
    for u in range(L.P):
        state[L.SEL + u] = 0
    state[L.SEA_USED] = 0
    state[L.TARGET] = -1
    state[L.ROUND] = 0
    state[L.LOSS_A] = 0
    state[L.LOSS_D] = 0


@jit
def end_turn(state: np.ndarray, params: np.ndarray) -> None:
    """After the action: the set-up step (with ``arrivals="after"`` the arriving units,
    then militia into empty cities), if anything is to be placed."""
    clear_selection(state)
    recount(state, params)
    if arrivals_after_action(params) and can_reinforce(state, params):
        state[L.MODE] = L.M_REINFORCE
        state[H.H_ACTOR] = state[L.SIDE]
        return
    set_up_militia(state, params)


@jit
def set_up_militia(state: np.ndarray, params: np.ndarray) -> None:
    """The set-up step's militia, one decision each, if one can be placed; else the turn
    closes."""
    side = state[L.SIDE]
    if can_place_militia(state, side):
        state[L.MODE] = L.M_MILITIA
        state[H.H_ACTOR] = side
        return
    close_turn(state, params)


@jit
def after_reinforcement(state: np.ndarray, params: np.ndarray) -> None:
    """One arriving unit is placed: the next one, else the action (turn start) or the
    militia (set-up step, ``arrivals="after"``)."""
    if can_reinforce(state, params):
        state[L.MODE] = L.M_REINFORCE
    elif arrivals_after_action(params):
        set_up_militia(state, params)
    else:
        state[L.MODE] = L.M_MAIN


@jit
def close_turn(state: np.ndarray, params: np.ndarray) -> None:
    """Record VP, check victory, advance the turn marker (and the phase after turn 4)."""
    recount(state, params)
    release_empty_cities(state, params)
    if check_sudden_victory(state, params):
        return
    state[L.TURN] += 1
    if state[L.TURN] > D.TURNS_PER_PHASE:
        state[L.TURN] = 1
        state[L.PHASE] += 1
        if state[L.PHASE] > D.PHASES:
            state[L.PHASE] = D.PHASES
            state[L.TURN] = D.TURNS_PER_PHASE
            final_victory(state, params)
            return
    begin_turn(state, params)


# ---------------------------------------------------------------- kernels
@jit
def init(state: np.ndarray, params: np.ndarray, seed: int) -> None:
    """Set-up: units in their printed cities, VP 5/7, phase 1835, the Republic to move."""
    state[L.PHASE] = 1
    state[L.TURN] = 1
    state[L.TARGET] = -1
    state[L.WINNER] = L.NO_WINNER
    for c in range(L.C):
        state[L.OWNER + c] = D.CITY_START[c]
    for u in range(L.P):
        state[L.LOC + u] = D.PIECE_SETUP[u] if D.PIECE_SETUP[u] >= 0 else L.LOC_RESERVE
        state[L.STEP + u] = 0
        state[L.SEL + u] = 0
    recount(state, params)
    begin_turn(state, params)


@jit
def legal_mask(state: np.ndarray, params: np.ndarray, mask: np.ndarray) -> int:
    for a in range(L.NUM_ACTIONS):
        mask[a] = 0
    mode = state[L.MODE]
    side = state[L.SIDE]
    if state[H.H_ACTOR] < 0:
        return 0
    if mode == L.M_REINFORCE:
        for c in range(L.C):
            if state[L.OWNER + c] == side:
                mask[L.A_CITY + c] = 1
    elif mode == L.M_MILITIA:
        for c in range(L.C):
            if can_place_militia_in(state, side, c):
                mask[L.A_CITY + c] = 1
        mask[L.A_PASS] = 1
    elif mode == L.M_MAIN:
        dests = move_destinations(state, params, side)
        attackers_at = 0  # cities holding an MU of ours (none once a move is under way)
        if not moving_on(state, params):
            for u in range(D.NUM_UNITS):
                if D.PIECE_SIDE[u] == side and state[L.LOC + u] >= 0:
                    attackers_at |= 1 << state[L.LOC + u]
        for c in range(L.C):
            if state[L.OCC + c] == 1 - side:
                if NEIGHBOUR_BITS[c] & attackers_at:  # can_attack, for every city at once
                    mask[L.A_CITY + c] = 1
            elif (dests >> c) & 1:
                mask[L.A_CITY + c] = 1
        mask[L.A_PASS] = 1
    elif mode == L.M_ATTACK:
        # add-only, no cancel (ledger row 25): a unit once chosen stays chosen
        any_sel = False
        for u in range(D.NUM_UNITS):
            if state[L.SEL + u] != 0:
                any_sel = True
            elif can_attack_with(state, side, u, state[L.TARGET]):
                mask[L.A_UNIT + u] = 1
        if any_sel:
            mask[L.A_CONFIRM] = 1
    elif mode == L.M_MOVE and state[L.ROUND] >= 1:  # the advance: survivors, then confirm
        for u in range(D.NUM_UNITS):
            if state[L.SEL + u] != 0 and state[L.LOC + u] >= 0:
                mask[L.A_UNIT + u] = 1
        if state[L.OCC + state[L.TARGET]] == side:  # at least one has entered
            mask[L.A_CONFIRM] = 1
    elif mode == L.M_MOVE:
        # can_move_unit for every unit at once: one search out of the target
        target = state[L.TARGET]
        layers = np.empty(MAX_MF + 1, np.int64)
        distance_layers(target, passable_cities(state, side), layers)
        ports = held_ports(state, params, side) if can_use_sea(state, params, side) else 0
        if (ports >> target) & 1 == 0:
            ports = 0
        any_sel = False
        for u in range(D.NUM_UNITS):
            loc = state[L.LOC + u]
            if is_chosen(state, u):
                any_sel = True
            elif (
                state[L.SEL + u] == 0  # not moved already (several destinations)
                and D.PIECE_SIDE[u] == side
                and loc >= 0
                and loc != target
                and ((layers[movement_factor(state, u)] >> loc) & 1 or (ports >> loc) & 1)
                and leaves_one_behind(state, params, u)
            ):
                mask[L.A_UNIT + u] = 1
        if any_sel:
            mask[L.A_CONFIRM] = 1
    elif mode == L.M_LOSS:
        if state[L.LOSS_A] != 0:
            for u in range(D.NUM_UNITS):
                if state[L.SEL + u] != 0 and state[L.LOC + u] >= 0:
                    mask[L.A_UNIT + u] = 1
        else:
            for u in range(L.P):
                if state[L.LOC + u] == state[L.TARGET]:
                    mask[L.A_UNIT + u] = 1
    elif mode == L.M_CONTINUE:
        mask[L.A_CONTINUE] = 1
        mask[L.A_STOP] = 1
        if attackers_rechosen(params):  # or name the attacking units anew, this one first
            for u in range(D.NUM_UNITS):
                if can_attack_with(state, side, u, state[L.TARGET]):
                    mask[L.A_UNIT + u] = 1
    n = 0
    for a in range(L.NUM_ACTIONS):
        n += mask[a]
    return n


@jit
def apply_action(state: np.ndarray, params: np.ndarray, action: int) -> None:
    mode = state[L.MODE]
    side = state[L.SIDE]
    if mode == L.M_REINFORCE:
        u = next_reinforcement(state, params, side)
        state[L.LOC + u] = action - L.A_CITY
        recount(state, params)
        after_reinforcement(state, params)
    elif mode == L.M_MILITIA:
        if action == L.A_PASS:
            close_turn(state, params)
        else:
            state[L.LOC + next_militia(state, side)] = action - L.A_CITY
            recount(state, params)
            if not can_place_militia(state, side):
                close_turn(state, params)
    elif mode == L.M_MAIN:
        if action == L.A_PASS:
            end_turn(state, params)
        else:
            c = action - L.A_CITY
            state[L.TARGET] = c
            state[L.MODE] = L.M_ATTACK if state[L.OCC + c] == 1 - side else L.M_MOVE
    elif advancing(state):
        if action == L.A_CONFIRM:  # the survivors not chosen stay where they stand
            end_turn(state, params)
        else:
            advance_unit(state, params, action - L.A_UNIT)
    elif mode == L.M_ATTACK or mode == L.M_MOVE:
        if action == L.A_CONFIRM:
            if mode == L.M_ATTACK:  # ROUND is 0 for a new attack, counts on when re-chosen
                start_battle_round(state, params)
            else:
                make_move(state, params)
        else:  # one more unit joins (ledger row 25: none leaves, no cancel)
            u = action - L.A_UNIT
            if mode == L.M_ATTACK:
                state[L.SEL + u] = L.SEL_LAND
            else:
                passable = passable_cities(state, side)
                how = can_move_unit(state, params, side, u, state[L.TARGET], passable)
                state[L.SEL + u] = how
                if how == L.SEL_SEA:
                    state[L.SEA_USED] += 1
    elif mode == L.M_LOSS:
        flip_or_eliminate(state, action - L.A_UNIT)
        if state[L.LOSS_A] != 0:
            state[L.LOSS_A] = 0
        else:
            state[L.LOSS_D] = 0
        recount(state, params)
        next_loss(state, params)
    elif mode == L.M_CONTINUE:
        if action == L.A_CONTINUE:
            start_battle_round(state, params)
        elif action == L.A_STOP:
            end_turn(state, params)
        else:
            rechoose_attackers(state, action - L.A_UNIT)


@jit
def chance_weights(
    state: np.ndarray, params: np.ndarray, outcomes: np.ndarray, weights: np.ndarray
) -> int:
    """A battle die: faces 1..6, equally likely."""
    return fair_die(outcomes, weights, 6)


@jit
def apply_chance(state: np.ndarray, params: np.ndarray, outcome: int) -> None:
    if state[H.H_CHANCE_KIND] == L.CHANCE_ATTACK_DIE:
        state[L.DIE_A] = outcome
        state[H.H_CHANCE_KIND] = L.CHANCE_DEFENCE_DIE
    else:
        state[L.DIE_D] = outcome
        state[H.H_CHANCE_KIND] = 0
        resolve_battle(state, params)


@jit
def observe(state: np.ndarray, params: np.ndarray, player: int, out: np.ndarray) -> None:
    """Everything is public; features are seen from ``player`` (mine / theirs)."""
    for i in range(L.OBS_SIZE):
        out[i] = 0.0
    other = 1 - player
    for u in range(L.P):
        loc = state[L.LOC + u]
        mine = D.PIECE_SIDE[u] == player
        base = L.OBS_PIECE + u * L.PIECE_FEATURES
        out[base] = 1.0 if mine else 0.0
        out[base + 1] = 1.0 if loc >= 0 else 0.0
        out[base + 2] = 1.0 if state[L.STEP + u] == D.REDUCED else 0.0
        out[base + 3] = 1.0 if loc == L.LOC_ELIMINATED else 0.0
        out[base + 4] = 1.0 if is_chosen(state, u) else 0.5 if has_moved(state, u) else 0.0
        out[base + 5] = loc / (L.C - 1) if loc >= 0 else -1.0
        if loc >= 0:
            cb = L.OBS_CITY + loc * L.CITY_FEATURES + (3 if mine else 6)
            if is_militia(u):
                out[cb + 2] += 1.0
            elif state[L.STEP + u] == D.REDUCED:
                out[cb + 1] += 1.0
            else:
                out[cb] += 1.0
    for c in range(L.C):
        cb = L.OBS_CITY + c * L.CITY_FEATURES
        out[cb] = 1.0 if state[L.OWNER + c] == player else 0.0
        out[cb + 1] = 1.0 if state[L.OWNER + c] == other else 0.0
        out[cb + 2] = D.CITY_VP[c] / 4.0
    g = L.OBS_GLOBAL
    out[g] = state[L.PHASE] / D.PHASES
    out[g + 1] = state[L.TURN] / D.TURNS_PER_PHASE
    out[g + 2] = 1.0 if state[L.SIDE] == player else 0.0
    out[g + 3] = 1.0 if state[H.H_ACTOR] == player else 0.0
    out[g + 4] = state[L.VP + player] / VP_SCALE
    out[g + 5] = state[L.VP + other] / VP_SCALE
    out[g + 6] = state[L.STR_A] / VP_SCALE
    out[g + 7] = state[L.STR_D] / VP_SCALE
    out[g + 8 + state[L.MODE]] = 1.0
    if state[L.TARGET] >= 0:
        out[L.OBS_TARGET + state[L.TARGET]] = 1.0


@jit
def returns(state: np.ndarray, params: np.ndarray, out: np.ndarray) -> None:
    """+1 / -1 for a win / loss, 0 for a draw; dense option: plus the VP lead gained / 24."""
    for p in range(out.shape[0]):
        out[p] = 0.0
    if params[L.P_REWARD] == 1:
        lead = (state[L.VP] - state[L.VP + 1]) - (D.START_VP[0] - D.START_VP[1])
        out[0] = lead / VP_SCALE
        out[1] = -lead / VP_SCALE
    w = state[L.WINNER]
    if w == 0 or w == 1:
        out[w] += 1.0
        out[1 - w] -= 1.0

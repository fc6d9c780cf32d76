"""Farrapos rules: the numba core over one flat ``int32`` state (layout in ``layout.py``).

Numpy and numba only. Small functions named after the rule they implement; the
kernels the generic engine needs (``init``, ``legal_mask``, ``apply_action``,
``chance_weights``, ``apply_chance``, ``observe``, ``returns``) come last, then
``bind_engine(globals())`` compiles the engine (``step``, batching, rollouts) here.

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

from boardsim.core.header import (
    CHANCE,
    FLAG_TERMINAL,
    H_ACTOR,
    H_CHANCE_KIND,
    H_FLAGS,
    TERMINAL,
)
from boardsim.core.jit import jit
from boardsim.games.farrapos.data import (
    ADJACENCY,
    BATTLE_TABLE,
    CITY_PORT,
    CITY_REGION,
    CITY_START,
    CITY_VP,
    COLUMN_LOW,
    DEGREE,
    NEIGHBORS,
    NEUTRAL,
    NUM_REGIONS,
    NUM_UNITS,
    PHASES,
    PIECE_AF,
    PIECE_ARRIVAL,
    PIECE_DF,
    PIECE_ENTRY_RANK,
    PIECE_MF,
    PIECE_SETUP,
    PIECE_SIDE,
    PIECE_TYPE,
    REDUCED,
    REGION_BONUS,
    START_VP,
    T_MILITIA,
    TURN_SIDE,
    TURNS_PER_PHASE,
)
from boardsim.games.farrapos.layout import (
    A_CITY,
    A_CONFIRM,
    A_CONTINUE,
    A_PASS,
    A_STOP,
    A_UNIT,
    ADVANCE_CHOSEN,
    ARRIVALS_AFTER,
    ATTACKERS_RECHOSEN,
    CHANCE_ATTACK_DIE,
    CHANCE_DEFENCE_DIE,
    CITY_FEATURES,
    DIE_A,
    DIE_D,
    DRAW,
    EMPTY_NEUTRAL,
    IDX_A,
    IDX_D,
    LOC,
    LOC_ELIMINATED,
    LOC_RESERVE,
    LOSS_A,
    LOSS_D,
    M_ATTACK,
    M_CONTINUE,
    M_DICE,
    M_LOSS,
    M_MAIN,
    M_MILITIA,
    M_MOVE,
    M_OVER,
    M_REINFORCE,
    MAX_CHANCE_OUTCOMES,
    MAX_PLAYERS,
    MODE,
    MOVES_SEVERAL,
    NO_WINNER,
    NUM_ACTIONS,
    OBS_CITY,
    OBS_GLOBAL,
    OBS_PIECE,
    OBS_SIZE,
    OBS_TARGET,
    OCC,
    ORIGIN_KEEPS_ONE,
    OWNER,
    P_ADVANCE,
    P_ARRIVALS,
    P_EMPTY_CITY,
    P_EMPTY_ORIGIN,
    P_FINAL_TIE,
    P_MOVE_DESTINATIONS,
    P_PORT_TRANSPORT,
    P_PORTS_BONUS,
    P_REGION_BONUS_SHIFT,
    P_REPUBLIC_MU,
    P_REWARD,
    P_ROUND_ATTACKERS,
    P_SEA_PORTS,
    P_SIEGE,
    P_VICTORY_VP,
    PHASE,
    PIECE_FEATURES,
    ROUND,
    SEA_PORTS_CONQUERED,
    SEA_USED,
    SEL,
    SEL_LAND,
    SEL_MOVED,
    SEL_MOVED_LAND,
    SEL_SEA,
    SIDE,
    STATE_SIZE,
    STEP,
    STR_A,
    STR_D,
    TARGET,
    TURN,
    VP,
    WINNER,
    C,
    P,
)

__all__ = [
    "MAX_CHANCE_OUTCOMES",
    "MAX_PLAYERS",
    "NUM_ACTIONS",
    "OBS_SIZE",
    "STATE_SIZE",
]

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
    for c in range(C):
        state[OCC + c] = NEUTRAL
    for u in range(P):
        loc = state[LOC + u]
        if loc >= 0:
            state[OCC + loc] = PIECE_SIDE[u]
    for c in range(C):
        if state[OCC + c] != NEUTRAL:
            state[OWNER + c] = state[OCC + c]


@jit
def release_empty_cities(state: np.ndarray, params: np.ndarray) -> None:
    """Option ``empty_city="neutral"`` (ruling 5, l.60 "it will be considered empty"): when
    the turn's VP are recorded, a city with no piece in it is no one's. Only a militia
    placed in the set-up step keeps a city the turn emptied (l.113)."""
    if params[P_EMPTY_CITY] != EMPTY_NEUTRAL:
        return
    for c in range(C):
        if state[OCC + c] == NEUTRAL:
            state[OWNER + c] = NEUTRAL


@jit
def release_wiped_out_city(state: np.ndarray, params: np.ndarray, c: int) -> None:
    """Option ``empty_city="neutral"`` (ruling 5): a battle whose tie removed the last
    pieces of both sides leaves the defended city with no one to enter it. It is no one's
    at once: it would be at the turn's end anyway, and the attacker's set-up step can place
    nothing in it (it is not the attacker's), so only the position in between changes,
    which then keeps the rule that an empty city of the side not to move is no one's."""
    if params[P_EMPTY_CITY] == EMPTY_NEUTRAL:
        state[OWNER + c] = NEUTRAL


@jit
def holds_region(state: np.ndarray, side: int, region: int) -> bool:
    """Every city of the colour region is occupied by ``side``."""
    for c in range(C):
        if CITY_REGION[c] == region and state[OCC + c] != side:
            return False
    return True


@jit
def holds_all_ports(state: np.ndarray, side: int) -> bool:
    for c in range(C):
        if CITY_PORT[c] == 1 and state[OCC + c] != side:
            return False
    return True


@jit
def is_sea_port(state: np.ndarray, params: np.ndarray, side: int, c: int) -> bool:
    """A port of ``side``'s for port transport (ruling 19, l.134 "has conquered at least 2
    port cities"): one it possesses; with ``sea_ports="conquered"`` only one it did not
    hold at the start of the game (the state keeps no history: a home port lost and
    retaken does not count)."""
    if CITY_PORT[c] != 1 or state[OWNER + c] != side:
        return False
    return params[P_SEA_PORTS] != SEA_PORTS_CONQUERED or CITY_START[c] != side


@jit
def ports_held(state: np.ndarray, params: np.ndarray, side: int) -> int:
    n = 0
    for c in range(C):
        if is_sea_port(state, params, side, c):
            n += 1
    return n


@jit
def region_bonus(params: np.ndarray, r: int) -> int:
    """A colour region's bonus: the data file's, plus the option ``region_bonus_shift``,
    never below 0."""
    return max(REGION_BONUS[r] + params[P_REGION_BONUS_SHIFT], 0)


@jit
def score_victory_points(state: np.ndarray, params: np.ndarray, side: int) -> int:
    """VP = each occupied city's VP + each colour region held whole + all ports held
    (the bonuses by the options ``region_bonus_shift`` and ``ports_bonus``)."""
    total = 0
    for c in range(C):
        if state[OCC + c] == side:
            total += CITY_VP[c]
    for r in range(NUM_REGIONS):
        if holds_region(state, side, r):
            total += region_bonus(params, r)
    if holds_all_ports(state, side):
        total += params[P_PORTS_BONUS]
    return total


@jit
def recount(state: np.ndarray, params: np.ndarray) -> None:
    """Recompute who holds each city and both sides' VP."""
    update_control(state)
    for s in range(2):
        state[VP + s] = score_victory_points(state, params, s)


# ---------------------------------------------------------------- pieces
@jit
def is_militia(u: int) -> bool:
    return PIECE_TYPE[u] == T_MILITIA


@jit
def attack_factor(state: np.ndarray, u: int) -> int:
    return PIECE_AF[u, state[STEP + u]]


@jit
def defence_factor(state: np.ndarray, u: int) -> int:
    return PIECE_DF[u, state[STEP + u]]


@jit
def movement_factor(state: np.ndarray, u: int) -> int:
    return PIECE_MF[u, state[STEP + u]]


@jit
def in_the_game(params: np.ndarray, u: int) -> bool:
    """MU ``u`` is among the first ``republic_mu`` / ``empire_mu`` of its side in order
    of entry; the others (its side's latest arrivals) never enter."""
    return PIECE_ENTRY_RANK[u] < params[P_REPUBLIC_MU + PIECE_SIDE[u]]


@jit
def next_reinforcement(state: np.ndarray, params: np.ndarray, side: int) -> int:
    """The first MU of ``side`` in the game whose arrival phase has come and that is not
    yet placed."""
    for u in range(NUM_UNITS):
        if (
            PIECE_SIDE[u] == side
            and state[LOC + u] == LOC_RESERVE
            and PIECE_ARRIVAL[u] <= state[PHASE]
            and in_the_game(params, u)
        ):
            return u
    return -1


@jit
def next_militia(state: np.ndarray, side: int) -> int:
    """The first militia counter of ``side`` not yet placed (eliminated ones never return)."""
    for u in range(NUM_UNITS, P):
        if PIECE_SIDE[u] == side and state[LOC + u] == LOC_RESERVE:
            return u
    return -1


@jit
def can_place_militia_in(state: np.ndarray, side: int, c: int) -> bool:
    """A militia goes to a city of its side's possession that has no MU (nor militia)."""
    return state[OWNER + c] == side and state[OCC + c] == NEUTRAL


@jit
def can_place_militia(state: np.ndarray, side: int) -> bool:
    if next_militia(state, side) < 0:
        return False
    for c in range(C):
        if can_place_militia_in(state, side, c):
            return True
    return False


@jit
def holds_any_city(state: np.ndarray, side: int) -> bool:
    """``side`` possesses a city (where arriving units may enter)."""
    for c in range(C):
        if state[OWNER + c] == side:
            return True
    return False


# ---------------------------------------------------------------- movement
# each city's path-line neighbours as a bit set (the board has at most 63 cities)
NEIGHBOUR_BITS = np.zeros(C, np.int64)
for _c in range(C):
    for _k in range(DEGREE[_c]):
        NEIGHBOUR_BITS[_c] |= np.int64(1) << np.int64(NEIGHBORS[_c, _k])
assert C <= 63, "city sets are 64-bit masks"
MAX_MF = int(PIECE_MF.max())  # the longest land move of any unit, any step


@jit
def distance_layers(target: int, passable: int, layers: np.ndarray) -> None:
    """``layers[k]``: the cities within ``k`` path-line steps of ``target`` (k <= MAX_MF),
    never through an enemy-occupied city (the paths are the same read either way)."""
    reach = 1 << target
    layers[0] = reach
    frontier = reach
    for k in range(1, MAX_MF + 1):
        grown = 0
        c = 0
        while (frontier >> c) != 0:
            if (frontier >> c) & 1:
                grown |= NEIGHBOUR_BITS[c]
            c += 1
        grown &= passable & ~reach
        reach |= grown
        frontier = grown
        layers[k] = reach


@jit
def passable_cities(state: np.ndarray, side: int) -> int:
    """The cities ``side``'s units may pass through or enter: those not enemy-occupied."""
    enemy = 1 - side
    bits = 0
    for c in range(C):
        if state[OCC + c] != enemy:
            bits |= 1 << c
    return bits


@jit
def land_reach(start: int, steps: int, passable: int) -> int:
    """The cities within ``steps`` path-line steps of ``start`` (itself included), never
    through or into an enemy-occupied city, as a bit set."""
    reach = 1 << start
    frontier = reach
    for _ in range(steps):
        grown = 0
        c = 0
        while (frontier >> c) != 0:
            if (frontier >> c) & 1:
                grown |= NEIGHBOUR_BITS[c]
            c += 1
        grown &= passable & ~reach
        if grown == 0:
            break
        reach |= grown
        frontier = grown
    return reach


@jit
def can_carry_by_sea(state: np.ndarray, params: np.ndarray, side: int, u: int, dest: int) -> bool:
    """Advanced rule: with 2 ports held, MU cross between held ports (2 a turn)."""
    if params[P_PORT_TRANSPORT] == 0:
        return False
    loc = state[LOC + u]
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
    if u >= NUM_UNITS or PIECE_SIDE[u] != side:
        return 0
    loc = state[LOC + u]
    if loc < 0 or loc == dest or not leaves_one_behind(state, params, u):
        return 0
    if (land_reach(loc, movement_factor(state, u), passable) >> dest) & 1:
        return SEL_LAND
    if state[SEA_USED] < SEA_CAPACITY and can_carry_by_sea(state, params, side, u, dest):
        return SEL_SEA
    return 0


@jit
def can_use_sea(state: np.ndarray, params: np.ndarray, side: int) -> bool:
    """Advanced rule: port transport is on, has room this turn, and ``side`` holds 2 ports."""
    return (
        params[P_PORT_TRANSPORT] != 0
        and state[SEA_USED] < SEA_CAPACITY
        and ports_held(state, params, side) >= 2
    )


@jit
def held_ports(state: np.ndarray, params: np.ndarray, side: int) -> int:
    """The ports ``side`` may carry MU between (:func:`is_sea_port`), as a bit set."""
    bits = 0
    for c in range(C):
        if is_sea_port(state, params, side, c):
            bits |= 1 << c
    return bits


@jit
def origin_kept(params: np.ndarray) -> bool:
    """Option ``empty_origin="forbidden"`` (ruling 10, l.60-61 "leaving at least one MU or
    Militia counter in the city of origin"): a move may not empty a city; by default it
    may, the city then being empty (l.60's parenthesis)."""
    return params[P_EMPTY_ORIGIN] == ORIGIN_KEEPS_ONE


@jit
def leaves_one_behind(state: np.ndarray, params: np.ndarray, u: int) -> bool:
    """``u`` may join the move: by default always; with ``empty_origin="forbidden"`` only
    if a piece not chosen for the move stays in its city."""
    if not origin_kept(params):
        return True
    loc = state[LOC + u]
    for v in range(P):
        if v != u and state[LOC + v] == loc and not is_chosen(state, v):
            return True
    return False


@jit
def has_moved(state: np.ndarray, u: int) -> bool:
    """``u`` moved already in this action (``move_destinations="several"``): it stays."""
    return state[SEL + u] >= SEL_MOVED_LAND


@jit
def is_chosen(state: np.ndarray, u: int) -> bool:
    """``u`` is chosen for the attack or move being composed (or attacks in the battle)."""
    return state[SEL + u] == SEL_LAND or state[SEL + u] == SEL_SEA


@jit
def several_destinations(params: np.ndarray) -> bool:
    """Option ``move_destinations="several"`` (ruling 8, l.61 "as many MU as desired"): a
    move action may send units to several cities; by default to one (l.59-60)."""
    return params[P_MOVE_DESTINATIONS] == MOVES_SEVERAL


@jit
def moving_on(state: np.ndarray, params: np.ndarray) -> bool:
    """A move to several destinations is under way: some MU has moved in this action."""
    if not several_destinations(params):
        return False
    for u in range(NUM_UNITS):
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
    longest = np.full(C, -1, np.int64)
    for u in range(NUM_UNITS):
        loc = state[LOC + u]
        if PIECE_SIDE[u] == side and loc >= 0 and not has_moved(state, u):
            longest[loc] = max(longest[loc], movement_factor(state, u))
    if origin_kept(params):  # empty_origin="forbidden": a lone piece may not leave its city
        pieces = np.zeros(C, np.int64)
        for u in range(P):
            if state[LOC + u] >= 0:
                pieces[state[LOC + u]] += 1
        for loc in range(C):
            if pieces[loc] < 2:
                longest[loc] = -1
    dests = 0
    for loc in range(C):
        if longest[loc] < 0:
            continue
        here = 1 << loc
        dests |= land_reach(loc, longest[loc], passable) & ~here
        if ports & here:
            dests |= ports & ~here
    return dests & passable


@jit
def is_linked(a: int, b: int) -> bool:
    return ADJACENCY[a, b] == 1


@jit
def can_attack_with(state: np.ndarray, side: int, u: int, target: int) -> bool:
    """An attacking MU stands in a city linked to the target by a path line."""
    if u >= NUM_UNITS or PIECE_SIDE[u] != side:
        return False
    loc = state[LOC + u]
    return loc >= 0 and is_linked(loc, target)


@jit
def can_attack(state: np.ndarray, side: int, target: int) -> bool:
    """A city occupied by the enemy, with an MU of ``side`` in a linked city."""
    if state[OCC + target] != 1 - side:
        return False
    for u in range(NUM_UNITS):
        if can_attack_with(state, side, u, target):
            return True
    return False


@jit
def is_under_siege(state: np.ndarray, c: int) -> bool:
    """Advanced rule: every city linked to ``c`` is occupied by the enemy of its occupant."""
    holder = state[OCC + c]
    if holder == NEUTRAL:
        return False
    for k in range(DEGREE[c]):
        if state[OCC + NEIGHBORS[c, k]] != 1 - holder:
            return False
    return True


@jit
def extra_defence(state: np.ndarray, params: np.ndarray, c: int) -> int:
    """The city's VP defend it too, unless it is under siege (advanced rule)."""
    if params[P_SIEGE] != 0 and is_under_siege(state, c):
        return 0
    return CITY_VP[c]


@jit
def attack_strength(state: np.ndarray) -> int:
    total = 0
    for u in range(NUM_UNITS):
        if state[SEL + u] != 0 and state[LOC + u] >= 0:
            total += attack_factor(state, u)
    return total


@jit
def defence_strength(state: np.ndarray, params: np.ndarray, c: int) -> int:
    total = 0
    for u in range(P):
        if state[LOC + u] == c:
            total += defence_factor(state, u)
    return total + extra_defence(state, params, c)


@jit
def read_battle_table(strength: int, die: int) -> int:
    """The index in the die's row, in the last column whose low bound the strength reaches."""
    col = -1
    for i in range(COLUMN_LOW.shape[0]):
        if strength >= COLUMN_LOW[i]:
            col = i
    if col < 0:
        return 0
    return BATTLE_TABLE[die - 1, col]


@jit
def count_attackers(state: np.ndarray) -> int:
    n = 0
    for u in range(NUM_UNITS):
        if state[SEL + u] != 0 and state[LOC + u] >= 0:
            n += 1
    return n


@jit
def count_defenders(state: np.ndarray, c: int) -> int:
    n = 0
    for u in range(P):
        if state[LOC + u] == c:
            n += 1
    return n


@jit
def flip_or_eliminate(state: np.ndarray, u: int) -> None:
    """A loser's unit flips to its reduced face; a reduced unit or a militia is eliminated."""
    if is_militia(u) or state[STEP + u] == REDUCED:
        state[LOC + u] = LOC_ELIMINATED
        state[SEL + u] = 0
    else:
        state[STEP + u] = REDUCED


@jit
def start_battle_round(state: np.ndarray, params: np.ndarray) -> None:
    """Sum the attack and the defence, then each side rolls a die (two chance nodes)."""
    state[ROUND] += 1
    state[STR_A] = attack_strength(state)
    state[STR_D] = defence_strength(state, params, state[TARGET])
    state[DIE_A] = 0
    state[DIE_D] = 0
    state[IDX_A] = 0
    state[IDX_D] = 0
    state[MODE] = M_DICE
    state[H_ACTOR] = CHANCE
    state[H_CHANCE_KIND] = CHANCE_ATTACK_DIE


@jit
def resolve_battle(state: np.ndarray, params: np.ndarray) -> None:
    """The higher index wins; the loser flips a unit; a tie makes both sides lose."""
    state[IDX_A] = read_battle_table(state[STR_A], state[DIE_A])
    state[IDX_D] = read_battle_table(state[STR_D], state[DIE_D])
    state[LOSS_A] = 1 if state[IDX_D] >= state[IDX_A] else 0
    state[LOSS_D] = 1 if state[IDX_A] >= state[IDX_D] else 0
    next_loss(state, params)


@jit
def next_loss(state: np.ndarray, params: np.ndarray) -> None:
    """The attacker picks its loss first, then the defender; then the round ends."""
    attacker = state[SIDE]
    if state[LOSS_A] != 0:
        state[MODE] = M_LOSS
        state[H_ACTOR] = attacker
    elif state[LOSS_D] != 0:
        state[MODE] = M_LOSS
        state[H_ACTOR] = 1 - attacker
    else:
        end_battle_round(state, params)


@jit
def end_battle_round(state: np.ndarray, params: np.ndarray) -> None:
    """No defender left: the city falls and the attackers move in. No attacker: it ends."""
    target = state[TARGET]
    if count_defenders(state, target) == 0:
        take_city(state, params)
    elif count_attackers(state) == 0:
        end_turn(state, params)
    else:
        recount(state, params)
        state[MODE] = M_CONTINUE
        state[H_ACTOR] = state[SIDE]


@jit
def attackers_rechosen(params: np.ndarray) -> bool:
    """Option ``round_attackers="rechosen"`` (ruling 14, l.105 "repeating the previous
    procedure"): the attacker may name the attacking MU anew before each further round;
    by default the surviving attackers go on together."""
    return params[P_ROUND_ATTACKERS] == ATTACKERS_RECHOSEN


@jit
def rechoose_attackers(state: np.ndarray, u: int) -> None:
    """Continue the attack with units named anew, ``u`` first: the last round's attackers
    are no longer chosen (they stay where they stand unless named again); the attacker
    adds the others (M_ATTACK, ROUND kept) and confirms the next round."""
    for v in range(NUM_UNITS):
        state[SEL + v] = 0
    state[SEL + u] = SEL_LAND
    state[MODE] = M_ATTACK


@jit
def advance_chosen(params: np.ndarray) -> bool:
    """Option ``advance="chosen"`` (ruling 12): the attacker chooses which survivors enter
    a taken city, at least one; by default all of them do."""
    return params[P_ADVANCE] == ADVANCE_CHOSEN


@jit
def take_city(state: np.ndarray, params: np.ndarray) -> None:
    """The city has no defender left and falls (ruling 12): the surviving attackers move in
    and the action is over (with none left, a tie having removed both sides' last pieces,
    it stays empty: :func:`release_wiped_out_city`). With ``advance="chosen"`` and two
    survivors or more, the attacker chooses them instead, one at a time (the advance, M_MOVE
    with ROUND >= 1)."""
    if advance_chosen(params) and count_attackers(state) >= 2:
        state[MODE] = M_MOVE
        state[H_ACTOR] = state[SIDE]
        return
    target = state[TARGET]
    if count_attackers(state) == 0:
        release_wiped_out_city(state, params, target)
    for u in range(NUM_UNITS):
        if state[SEL + u] != 0 and state[LOC + u] >= 0:
            state[LOC + u] = target
    end_turn(state, params)


@jit
def advancing(state: np.ndarray) -> bool:
    """The attacker chooses the survivors that enter the city it took (``advance``)."""
    return state[MODE] == M_MOVE and state[ROUND] >= 1


@jit
def advance_unit(state: np.ndarray, params: np.ndarray, u: int) -> None:
    """A survivor enters the taken city (and possesses it); when none is left to choose the
    advance is over."""
    state[LOC + u] = state[TARGET]
    state[SEL + u] = 0
    recount(state, params)
    if count_attackers(state) == 0:
        end_turn(state, params)


# ---------------------------------------------------------------- turns
@jit
def finish(state: np.ndarray, winner: int) -> None:
    state[WINNER] = winner
    state[MODE] = M_OVER
    state[H_FLAGS] |= FLAG_TERMINAL
    state[H_ACTOR] = TERMINAL
    state[H_CHANCE_KIND] = 0


@jit
def check_sudden_victory(state: np.ndarray, params: np.ndarray) -> bool:
    """A side with the victory VP (24) before the last phase wins at the end of a turn."""
    if state[PHASE] >= PHASES:
        return False
    v0 = state[VP]
    v1 = state[VP + 1]
    need = params[P_VICTORY_VP]
    if v0 < need and v1 < need:
        return False
    if v0 > v1:
        finish(state, 0)
    elif v1 > v0:
        finish(state, 1)
    else:
        finish(state, DRAW)
    return True


@jit
def final_victory(state: np.ndarray, params: np.ndarray) -> None:
    """After turn 4 of the last phase: the most VP wins; equal VP by the final_tie option."""
    v0 = state[VP]
    v1 = state[VP + 1]
    if v0 > v1:
        finish(state, 0)
    elif v1 > v0 or params[P_FINAL_TIE] == 1:
        finish(state, 1)
    else:
        finish(state, DRAW)


@jit
def arrivals_after_action(params: np.ndarray) -> bool:
    """Option ``arrivals="after"`` (ruling 3, l.63): arriving MU are placed in the set-up
    step after the action; by default (l.79) at the start of the turn, before it."""
    return params[P_ARRIVALS] == ARRIVALS_AFTER


@jit
def can_reinforce(state: np.ndarray, params: np.ndarray) -> bool:
    """The side to move has an arriving MU to place and a city of its own to place it in."""
    side = state[SIDE]
    return next_reinforcement(state, params, side) >= 0 and holds_any_city(state, side)


@jit
def choose_deploy_mode(state: np.ndarray, params: np.ndarray) -> None:
    """Turn start: arriving units enter first (one decision each), then the side takes its
    action; with ``arrivals="after"`` the action comes at once."""
    if can_reinforce(state, params) and not arrivals_after_action(params):
        state[MODE] = M_REINFORCE
    else:
        state[MODE] = M_MAIN


@jit
def begin_turn(state: np.ndarray, params: np.ndarray) -> None:
    side = TURN_SIDE[state[TURN] - 1]
    state[SIDE] = side
    state[H_ACTOR] = side
    state[H_CHANCE_KIND] = 0
    choose_deploy_mode(state, params)


@jit
def make_move(state: np.ndarray, params: np.ndarray) -> None:
    """Confirm a move: the chosen MU enter the target. By default that is the action
    (ruling 8). With ``move_destinations="several"`` they are marked as moved and the side
    may choose a further city for the MU that have not moved (M_MAIN, no attack), or end
    the action; with no city left for them the action ends."""
    several = several_destinations(params)
    for u in range(NUM_UNITS):
        if is_chosen(state, u):
            state[LOC + u] = state[TARGET]
            if several:
                state[SEL + u] += SEL_MOVED
    if not several:
        end_turn(state, params)
        return
    state[TARGET] = -1
    recount(state, params)
    if move_destinations(state, params, state[SIDE]) != 0:
        state[MODE] = M_MAIN
    else:
        end_turn(state, params)


@jit
def clear_selection(state: np.ndarray) -> None:
    for u in range(P):
        state[SEL + u] = 0
    state[SEA_USED] = 0
    state[TARGET] = -1
    state[ROUND] = 0
    state[LOSS_A] = 0
    state[LOSS_D] = 0


@jit
def end_turn(state: np.ndarray, params: np.ndarray) -> None:
    """After the action: the set-up step (with ``arrivals="after"`` the arriving units,
    then militia into empty cities), if anything is to be placed."""
    clear_selection(state)
    recount(state, params)
    if arrivals_after_action(params) and can_reinforce(state, params):
        state[MODE] = M_REINFORCE
        state[H_ACTOR] = state[SIDE]
        return
    set_up_militia(state, params)


@jit
def set_up_militia(state: np.ndarray, params: np.ndarray) -> None:
    """The set-up step's militia, one decision each, if one can be placed; else the turn
    closes."""
    side = state[SIDE]
    if can_place_militia(state, side):
        state[MODE] = M_MILITIA
        state[H_ACTOR] = side
        return
    close_turn(state, params)


@jit
def after_reinforcement(state: np.ndarray, params: np.ndarray) -> None:
    """One arriving unit is placed: the next one, else the action (turn start) or the
    militia (set-up step, ``arrivals="after"``)."""
    if can_reinforce(state, params):
        state[MODE] = M_REINFORCE
    elif arrivals_after_action(params):
        set_up_militia(state, params)
    else:
        state[MODE] = M_MAIN


@jit
def close_turn(state: np.ndarray, params: np.ndarray) -> None:
    """Record VP, check victory, advance the turn marker (and the phase after turn 4)."""
    recount(state, params)
    release_empty_cities(state, params)
    if check_sudden_victory(state, params):
        return
    state[TURN] += 1
    if state[TURN] > TURNS_PER_PHASE:
        state[TURN] = 1
        state[PHASE] += 1
        if state[PHASE] > PHASES:
            state[PHASE] = PHASES
            state[TURN] = TURNS_PER_PHASE
            final_victory(state, params)
            return
    begin_turn(state, params)


# ---------------------------------------------------------------- kernels
@jit
def init(state: np.ndarray, params: np.ndarray, seed: int) -> None:
    """Set-up: units in their printed cities, VP 5/7, phase 1835, the Republic to move."""
    state[PHASE] = 1
    state[TURN] = 1
    state[TARGET] = -1
    state[WINNER] = NO_WINNER
    for c in range(C):
        state[OWNER + c] = CITY_START[c]
    for u in range(P):
        state[LOC + u] = PIECE_SETUP[u] if PIECE_SETUP[u] >= 0 else LOC_RESERVE
        state[STEP + u] = 0
        state[SEL + u] = 0
    recount(state, params)
    begin_turn(state, params)


@jit
def legal_mask(state: np.ndarray, params: np.ndarray, mask: np.ndarray) -> int:
    for a in range(NUM_ACTIONS):
        mask[a] = 0
    mode = state[MODE]
    side = state[SIDE]
    if state[H_ACTOR] < 0:
        return 0
    if mode == M_REINFORCE:
        for c in range(C):
            if state[OWNER + c] == side:
                mask[A_CITY + c] = 1
    elif mode == M_MILITIA:
        for c in range(C):
            if can_place_militia_in(state, side, c):
                mask[A_CITY + c] = 1
        mask[A_PASS] = 1
    elif mode == M_MAIN:
        dests = move_destinations(state, params, side)
        attackers_at = 0  # cities holding an MU of ours (none once a move is under way)
        if not moving_on(state, params):
            for u in range(NUM_UNITS):
                if PIECE_SIDE[u] == side and state[LOC + u] >= 0:
                    attackers_at |= 1 << state[LOC + u]
        for c in range(C):
            if state[OCC + c] == 1 - side:
                if NEIGHBOUR_BITS[c] & attackers_at:  # can_attack, for every city at once
                    mask[A_CITY + c] = 1
            elif (dests >> c) & 1:
                mask[A_CITY + c] = 1
        mask[A_PASS] = 1
    elif mode == M_ATTACK:
        # add-only, no cancel (ledger row 25): a unit once chosen stays chosen
        any_sel = False
        for u in range(NUM_UNITS):
            if state[SEL + u] != 0:
                any_sel = True
            elif can_attack_with(state, side, u, state[TARGET]):
                mask[A_UNIT + u] = 1
        if any_sel:
            mask[A_CONFIRM] = 1
    elif mode == M_MOVE and state[ROUND] >= 1:  # the advance: survivors, then confirm
        for u in range(NUM_UNITS):
            if state[SEL + u] != 0 and state[LOC + u] >= 0:
                mask[A_UNIT + u] = 1
        if state[OCC + state[TARGET]] == side:  # at least one has entered
            mask[A_CONFIRM] = 1
    elif mode == M_MOVE:
        # can_move_unit for every unit at once: one search out of the target
        target = state[TARGET]
        layers = np.empty(MAX_MF + 1, np.int64)
        distance_layers(target, passable_cities(state, side), layers)
        ports = held_ports(state, params, side) if can_use_sea(state, params, side) else 0
        if (ports >> target) & 1 == 0:
            ports = 0
        any_sel = False
        for u in range(NUM_UNITS):
            loc = state[LOC + u]
            if is_chosen(state, u):
                any_sel = True
            elif (
                state[SEL + u] == 0  # not moved already (several destinations)
                and PIECE_SIDE[u] == side
                and loc >= 0
                and loc != target
                and ((layers[movement_factor(state, u)] >> loc) & 1 or (ports >> loc) & 1)
                and leaves_one_behind(state, params, u)
            ):
                mask[A_UNIT + u] = 1
        if any_sel:
            mask[A_CONFIRM] = 1
    elif mode == M_LOSS:
        if state[LOSS_A] != 0:
            for u in range(NUM_UNITS):
                if state[SEL + u] != 0 and state[LOC + u] >= 0:
                    mask[A_UNIT + u] = 1
        else:
            for u in range(P):
                if state[LOC + u] == state[TARGET]:
                    mask[A_UNIT + u] = 1
    elif mode == M_CONTINUE:
        mask[A_CONTINUE] = 1
        mask[A_STOP] = 1
        if attackers_rechosen(params):  # or name the attacking units anew, this one first
            for u in range(NUM_UNITS):
                if can_attack_with(state, side, u, state[TARGET]):
                    mask[A_UNIT + u] = 1
    n = 0
    for a in range(NUM_ACTIONS):
        n += mask[a]
    return n


@jit
def apply_action(state: np.ndarray, params: np.ndarray, action: int) -> None:
    mode = state[MODE]
    side = state[SIDE]
    if mode == M_REINFORCE:
        u = next_reinforcement(state, params, side)
        state[LOC + u] = action - A_CITY
        recount(state, params)
        after_reinforcement(state, params)
    elif mode == M_MILITIA:
        if action == A_PASS:
            close_turn(state, params)
        else:
            state[LOC + next_militia(state, side)] = action - A_CITY
            recount(state, params)
            if not can_place_militia(state, side):
                close_turn(state, params)
    elif mode == M_MAIN:
        if action == A_PASS:
            end_turn(state, params)
        else:
            c = action - A_CITY
            state[TARGET] = c
            state[MODE] = M_ATTACK if state[OCC + c] == 1 - side else M_MOVE
    elif advancing(state):
        if action == A_CONFIRM:  # the survivors not chosen stay where they stand
            end_turn(state, params)
        else:
            advance_unit(state, params, action - A_UNIT)
    elif mode == M_ATTACK or mode == M_MOVE:
        if action == A_CONFIRM:
            if mode == M_ATTACK:  # ROUND is 0 for a new attack, counts on when re-chosen
                start_battle_round(state, params)
            else:
                make_move(state, params)
        else:  # one more unit joins (ledger row 25: none leaves, no cancel)
            u = action - A_UNIT
            if mode == M_ATTACK:
                state[SEL + u] = SEL_LAND
            else:
                passable = passable_cities(state, side)
                how = can_move_unit(state, params, side, u, state[TARGET], passable)
                state[SEL + u] = how
                if how == SEL_SEA:
                    state[SEA_USED] += 1
    elif mode == M_LOSS:
        flip_or_eliminate(state, action - A_UNIT)
        if state[LOSS_A] != 0:
            state[LOSS_A] = 0
        else:
            state[LOSS_D] = 0
        recount(state, params)
        next_loss(state, params)
    elif mode == M_CONTINUE:
        if action == A_CONTINUE:
            start_battle_round(state, params)
        elif action == A_STOP:
            end_turn(state, params)
        else:
            rechoose_attackers(state, action - A_UNIT)


@jit
def chance_weights(
    state: np.ndarray, params: np.ndarray, outcomes: np.ndarray, weights: np.ndarray
) -> int:
    """A battle die: faces 1..6, equally likely."""
    for i in range(6):
        outcomes[i] = i + 1
        weights[i] = 1
    return 6


@jit
def apply_chance(state: np.ndarray, params: np.ndarray, outcome: int) -> None:
    if state[H_CHANCE_KIND] == CHANCE_ATTACK_DIE:
        state[DIE_A] = outcome
        state[H_CHANCE_KIND] = CHANCE_DEFENCE_DIE
    else:
        state[DIE_D] = outcome
        state[H_CHANCE_KIND] = 0
        resolve_battle(state, params)


@jit
def observe(state: np.ndarray, params: np.ndarray, player: int, out: np.ndarray) -> None:
    """Everything is public; features are seen from ``player`` (mine / theirs)."""
    for i in range(OBS_SIZE):
        out[i] = 0.0
    other = 1 - player
    for u in range(P):
        loc = state[LOC + u]
        mine = PIECE_SIDE[u] == player
        base = OBS_PIECE + u * PIECE_FEATURES
        out[base] = 1.0 if mine else 0.0
        out[base + 1] = 1.0 if loc >= 0 else 0.0
        out[base + 2] = 1.0 if state[STEP + u] == REDUCED else 0.0
        out[base + 3] = 1.0 if loc == LOC_ELIMINATED else 0.0
        out[base + 4] = 1.0 if is_chosen(state, u) else 0.5 if has_moved(state, u) else 0.0
        out[base + 5] = loc / (C - 1) if loc >= 0 else -1.0
        if loc >= 0:
            cb = OBS_CITY + loc * CITY_FEATURES + (3 if mine else 6)
            if is_militia(u):
                out[cb + 2] += 1.0
            elif state[STEP + u] == REDUCED:
                out[cb + 1] += 1.0
            else:
                out[cb] += 1.0
    for c in range(C):
        cb = OBS_CITY + c * CITY_FEATURES
        out[cb] = 1.0 if state[OWNER + c] == player else 0.0
        out[cb + 1] = 1.0 if state[OWNER + c] == other else 0.0
        out[cb + 2] = CITY_VP[c] / 4.0
    g = OBS_GLOBAL
    out[g] = state[PHASE] / PHASES
    out[g + 1] = state[TURN] / TURNS_PER_PHASE
    out[g + 2] = 1.0 if state[SIDE] == player else 0.0
    out[g + 3] = 1.0 if state[H_ACTOR] == player else 0.0
    out[g + 4] = state[VP + player] / VP_SCALE
    out[g + 5] = state[VP + other] / VP_SCALE
    out[g + 6] = state[STR_A] / VP_SCALE
    out[g + 7] = state[STR_D] / VP_SCALE
    out[g + 8 + state[MODE]] = 1.0
    if state[TARGET] >= 0:
        out[OBS_TARGET + state[TARGET]] = 1.0


@jit
def returns(state: np.ndarray, params: np.ndarray, out: np.ndarray) -> None:
    """+1 / -1 for a win / loss, 0 for a draw; dense option: plus the VP lead gained / 24."""
    for p in range(out.shape[0]):
        out[p] = 0.0
    if params[P_REWARD] == 1:
        lead = (state[VP] - state[VP + 1]) - (START_VP[0] - START_VP[1])
        out[0] = lead / VP_SCALE
        out[1] = -lead / VP_SCALE
    w = state[WINNER]
    if w == 0 or w == 1:
        out[w] += 1.0
        out[1 - w] -= 1.0

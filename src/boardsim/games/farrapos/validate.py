"""Farrapos's state validator: is an untrusted array a position the kernels handle safely?

``validate(state, params, where)`` returns 0, or the code of the first check that fails
with the index and the value at fault in ``where`` (``STATE_ERRORS`` has the words). It
checks what ``tests/farrapos/test_invariants.py`` checks after every step of random
games, and what the kernels index with: every piece on the map, in reserve or
eliminated, on one of its faces; no city held by both sides; occupation, possession
and VP agreeing with the pieces; the turn marker and the side to move; the mode of the
decision with its target, selection, battle dice and losses, and the player who
decides. The engine adds the header and a legal action (``core/engine.py``
``validate_state``).
"""

from __future__ import annotations

import numpy as np

from boardsim.core import header as H
from boardsim.core.checks import first_outside, refuse
from boardsim.core.jit import jit
from boardsim.games.farrapos import data as D
from boardsim.games.farrapos import layout as L
from boardsim.games.farrapos import rules as R

NUM_MODES = len(L.MODE_NAMES)
MAX_STRENGTH = int(D.PIECE_AF.max(axis=1).sum() + D.PIECE_DF.max(axis=1).sum() + D.CITY_VP.max())
MAX_INDEX = int(D.BATTLE_TABLE.max())
MAX_ROUNDS = 2 * L.P  # each round flips or eliminates a piece of at least one side
BATTLE = (L.M_DICE, L.M_LOSS, L.M_CONTINUE)

# ---------------------------------------------------------------- the checks, by code
E_PHASE = 1
E_TURN = 2
E_SIDE = 3
E_MODE = 4
E_TARGET = 5
E_ROUND = 6
E_DIE = 7
E_STRENGTH = 8
E_INDEX = 9
E_LOSS = 10
E_SEA_USED = 11
E_WINNER = 12
E_CHANCE_KIND = 13
E_LOC = 14
E_STEP = 15
E_SEL = 16
E_RESERVE_UNIT = 17
E_MILITIA_FACE = 18
E_BOTH_SIDES = 19
E_OCC = 20
E_OWNER = 21
E_POSSESSION = 22
E_VP = 23
E_OVER = 24
E_FINAL_TURN = 25
E_ACTOR = 26
E_DECISION_KIND = 27
E_SELECTED = 28
E_SELECTED_MODE = 29
E_SEA_COUNT = 30
E_NO_ARRIVAL = 31
E_NO_MILITIA = 32
E_ATTACK_TARGET = 33
E_MOVE_TARGET = 34
E_CANNOT_ATTACK = 35
E_CANNOT_MOVE = 36
E_DICE_STATE = 37
E_BATTLE_SIDES = 38
E_BATTLE_STRENGTH = 39
E_BATTLE_INDEX = 40
E_IDLE_FIELD = 41
E_MOVED = 42
E_ADVANCE = 43
E_NEUTRAL_EMPTY = 44
E_WITHHELD = 45

STATE_ERRORS: dict[int, str] = {
    E_PHASE: f"PHASE = {{value}}: not a phase (1..{D.PHASES})",
    E_TURN: f"TURN = {{value}}: not a turn (1..{D.TURNS_PER_PHASE})",
    E_SIDE: "SIDE = {value}: not the side whose turn TURN is",
    E_MODE: f"MODE = {{value}}: not a mode (0..{NUM_MODES - 1})",
    E_TARGET: f"TARGET = {{value}}: neither -1 nor a city (0..{L.C - 1})",
    E_ROUND: f"ROUND = {{value}}: not 0..{MAX_ROUNDS}, or not >= 1 exactly in a battle (or in "
    "an attack composed anew between rounds, round_attackers)",
    E_DIE: "die word {index} = {value}: not 0..6",
    E_STRENGTH: f"strength word {{index}} = {{value}}: not 0..{MAX_STRENGTH}",
    E_INDEX: f"battle-table index word {{index}} = {{value}}: not 0..{MAX_INDEX}",
    E_LOSS: "loss word {index} = {value}: not 0 or 1",
    E_SEA_USED: f"SEA_USED = {{value}}: not 0..{R.SEA_CAPACITY}",
    E_WINNER: "WINNER = {value}: not -1 (playing), 0, 1 or 2 (draw)",
    E_CHANCE_KIND: "CHANCE_KIND (word 5) = {value}: not 0, 1 (attack die) or 2 (defence die)",
    E_LOC: "LOC[{index}] = {value}: not -2 (eliminated), -1 (reserve) or a city "
    f"(0..{L.C - 1})",
    E_STEP: "STEP[{index}] = {value}: not 0 (full) or 1 (reduced)",
    E_SEL: "SEL[{index}] = {value}: not 0, 1 (land), 2 (sea), 3 or 4 (moved by land or sea)",
    E_RESERVE_UNIT: "piece {index} is in reserve but starts on the map",
    E_MILITIA_FACE: "militia {index}: STEP {value} or selected; militia have one face and never "
    "attack or move",
    E_BOTH_SIDES: "city {index} holds pieces of both sides",
    E_OCC: "OCC[{index}] = {value}: not the side whose pieces are there",
    E_OWNER: "OWNER[{index}] = {value}: not -1, 0 or 1",
    E_POSSESSION: "city {index} is occupied by side {value} but possessed by the other",
    E_VP: "VP[{index}] = {value}: not the VP of the cities and bonuses the side occupies",
    E_OVER: "MODE = {value}: the game is over (not truncated) exactly in mode 8, with a winner",
    E_FINAL_TURN: "the game is over before its end, and no side reached the victory VP",
    E_ACTOR: "ACTOR (word 2) = {value}: not the player who decides in this mode",
    E_DECISION_KIND: "a player decides but CHANCE_KIND (word 5) = {value}",
    E_SELECTED: "piece {index} is selected ({value}) but is not a unit on the map of the side "
    "to move",
    E_SELECTED_MODE: "piece {index} is selected in MODE {value}, where nothing is",
    E_SEA_COUNT: "SEA_USED = {value}: not the number of units selected to go by sea",
    E_NO_ARRIVAL: "MODE 0 (reinforce): side {value} has no unit arriving, or no city to enter",
    E_NO_MILITIA: "MODE 1 (militia): side {value} has no militia to place, or no empty city",
    E_ATTACK_TARGET: "TARGET = {value}: an attack's target is a city the enemy occupies",
    E_MOVE_TARGET: "TARGET = {value}: not a city a unit of the side to move can reach",
    E_CANNOT_ATTACK: "unit {index} is selected to attack but is not linked to the target",
    E_CANNOT_MOVE: "unit {index} is selected to move ({value}) but cannot reach the target so",
    E_DICE_STATE: "the battle's dice ({index}) do not fit the chance node or the mode",
    E_BATTLE_SIDES: "a battle with {value} attackers or defenders left where it goes on",
    E_BATTLE_STRENGTH: "battle strength word {index} = {value}: not the selected units' and "
    "the target's",
    E_BATTLE_INDEX: "battle-table index word {index} = {value}: not the table's for its "
    "strength and die",
    E_IDLE_FIELD: "word {index} = {value}: not 0 outside a battle or a composed move",
    E_MOVED: "unit {index} is marked as moved in this action ({value}) but no move to several "
    "cities is under way (move_destinations), or it is not a unit on the map of the side to "
    "move, or carried by sea to a city that is no port",
    E_ADVANCE: "TARGET = {value}: an advance into a city that still has defenders, or with no "
    "survivor left to choose, or with one and none entered (advance)",
    E_NEUTRAL_EMPTY: "city {index} is empty but possessed by side {value}: with "
    "empty_city='neutral' a turn ends with every empty city no one's, and in a turn only the "
    "side to move empties cities (or the defender loses the one it is taking)",
    E_WITHHELD: "LOC[{index}] = {value}: unit {index} is withheld (republic_mu / empire_mu: "
    "its side's latest arrivals never enter) but not in reserve",
}


# ---------------------------------------------------------------- fields in range
@jit
def check_scalars(state, where):
    """The turn marker, mode, target, battle words and winner, each in its range."""
    if not 1 <= state[L.PHASE] <= D.PHASES:
        return refuse(where, E_PHASE, L.PHASE, state[L.PHASE])
    if not 1 <= state[L.TURN] <= D.TURNS_PER_PHASE:
        return refuse(where, E_TURN, L.TURN, state[L.TURN])
    if state[L.SIDE] != D.TURN_SIDE[state[L.TURN] - 1]:
        return refuse(where, E_SIDE, L.SIDE, state[L.SIDE])
    if not 0 <= state[L.MODE] < NUM_MODES:
        return refuse(where, E_MODE, L.MODE, state[L.MODE])
    if not -1 <= state[L.TARGET] < L.C:
        return refuse(where, E_TARGET, L.TARGET, state[L.TARGET])
    if not 0 <= state[L.ROUND] <= MAX_ROUNDS:
        return refuse(where, E_ROUND, L.ROUND, state[L.ROUND])
    for w in (L.DIE_A, L.DIE_D):
        if not 0 <= state[w] <= 6:
            return refuse(where, E_DIE, w, state[w])
    for w in (L.STR_A, L.STR_D):
        if not 0 <= state[w] <= MAX_STRENGTH:
            return refuse(where, E_STRENGTH, w, state[w])
    for w in (L.IDX_A, L.IDX_D):
        if not 0 <= state[w] <= MAX_INDEX:
            return refuse(where, E_INDEX, w, state[w])
    for w in (L.LOSS_A, L.LOSS_D):
        if not 0 <= state[w] <= 1:
            return refuse(where, E_LOSS, w, state[w])
    if not 0 <= state[L.SEA_USED] <= R.SEA_CAPACITY:
        return refuse(where, E_SEA_USED, L.SEA_USED, state[L.SEA_USED])
    if not (state[L.WINNER] == L.NO_WINNER or 0 <= state[L.WINNER] <= L.DRAW):
        return refuse(where, E_WINNER, L.WINNER, state[L.WINNER])
    if not 0 <= state[H.H_CHANCE_KIND] <= L.CHANCE_DEFENCE_DIE:
        return refuse(where, E_CHANCE_KIND, H.H_CHANCE_KIND, state[H.H_CHANCE_KIND])
    return 0


@jit
def check_pieces(state, where):
    """Every piece on a city, in reserve or eliminated, on one of its faces."""
    i = first_outside(state, L.LOC, L.P, L.LOC_ELIMINATED, L.C - 1)
    if i >= 0:
        return refuse(where, E_LOC, i, state[L.LOC + i])
    i = first_outside(state, L.STEP, L.P, 0, 1)
    if i >= 0:
        return refuse(where, E_STEP, i, state[L.STEP + i])
    i = first_outside(state, L.SEL, L.P, 0, L.SEL_MOVED_SEA)
    if i >= 0:
        return refuse(where, E_SEL, i, state[L.SEL + i])
    for u in range(L.P):
        if u < D.NUM_UNITS:
            if state[L.LOC + u] == L.LOC_RESERVE and D.PIECE_SETUP[u] >= 0:
                return refuse(where, E_RESERVE_UNIT, u, state[L.LOC + u])
        elif state[L.STEP + u] != 0 or state[L.SEL + u] != 0:
            return refuse(where, E_MILITIA_FACE, u, state[L.STEP + u])
    return 0


@jit
def check_withheld(state, params, where):
    """An MU withheld by ``republic_mu`` / ``empire_mu`` never leaves the reserve."""
    for u in range(D.NUM_UNITS):
        if not R.in_the_game(params, u) and state[L.LOC + u] != L.LOC_RESERVE:
            return refuse(where, E_WITHHELD, u, state[L.LOC + u])
    return 0


@jit
def check_control(state, params, where):
    """One side a city; occupation, possession and VP agree with the pieces."""
    occ = np.full(L.C, D.NEUTRAL, np.int64)
    for u in range(L.P):
        c = state[L.LOC + u]
        if c < 0:
            continue
        if occ[c] != D.NEUTRAL and occ[c] != D.PIECE_SIDE[u]:
            return refuse(where, E_BOTH_SIDES, c, D.PIECE_SIDE[u])
        occ[c] = D.PIECE_SIDE[u]
    for c in range(L.C):
        if state[L.OCC + c] != occ[c]:
            return refuse(where, E_OCC, c, state[L.OCC + c])
        owner = state[L.OWNER + c]
        if not -1 <= owner <= 1:
            return refuse(where, E_OWNER, c, owner)
        if occ[c] != D.NEUTRAL and owner != occ[c]:
            return refuse(where, E_POSSESSION, c, occ[c])
    for s in range(2):
        if state[L.VP + s] != R.score_victory_points(state, params, s):
            return refuse(where, E_VP, s, state[L.VP + s])
    return 0


# ---------------------------------------------------------------- the turn
@jit
def winner_by_rules(state, params, final):
    """Who wins on these VP: at the end of the last turn, or by the victory VP before it."""
    v0 = state[L.VP]
    v1 = state[L.VP + 1]
    if v0 > v1:
        return 0
    if v1 > v0 or (final and params[L.P_FINAL_TIE] == 1):
        return 1
    return L.DRAW


@jit
def check_end(state, params, where):
    """Mode 8 and a winner exactly when the game is over by the rules: after the last turn,
    or earlier with the victory VP; the winner the one the rules name."""
    flags = state[H.H_FLAGS]
    over = (flags & H.FLAG_TERMINAL) != 0 and (flags & H.FLAG_TRUNCATED) == 0
    if over != (state[L.MODE] == L.M_OVER) or over != (state[L.WINNER] != L.NO_WINNER):
        return refuse(where, E_OVER, L.MODE, state[L.MODE])
    if not over:
        return 0
    final = state[L.PHASE] == D.PHASES
    if final and state[L.TURN] != D.TURNS_PER_PHASE:
        return refuse(where, E_FINAL_TURN, L.TURN, state[L.TURN])
    if not final and max(state[L.VP], state[L.VP + 1]) < params[L.P_VICTORY_VP]:
        return refuse(where, E_FINAL_TURN, L.PHASE, state[L.PHASE])
    if state[L.WINNER] != winner_by_rules(state, params, final):
        return refuse(where, E_WINNER, L.WINNER, state[L.WINNER])
    return 0


@jit
def check_actor(state, where):
    """Who decides in each mode: the side to move, the loser of a round, or chance."""
    mode = state[L.MODE]
    actor = state[H.H_ACTOR]
    if (state[H.H_FLAGS] & H.FLAG_TERMINAL) != 0:
        return 0
    if mode == L.M_DICE:
        if actor != H.CHANCE or state[H.H_CHANCE_KIND] == 0:
            return refuse(where, E_ACTOR, H.H_ACTOR, actor)
        return 0
    if actor == H.CHANCE:
        return refuse(where, E_ACTOR, H.H_ACTOR, actor)
    if state[H.H_CHANCE_KIND] != 0:
        return refuse(where, E_DECISION_KIND, H.H_CHANCE_KIND, state[H.H_CHANCE_KIND])
    decider = state[L.SIDE]
    if mode == L.M_LOSS and state[L.LOSS_A] == 0:
        decider = 1 - state[L.SIDE]
    if actor != decider:
        return refuse(where, E_ACTOR, H.H_ACTOR, actor)
    return 0


@jit
def rechoosing(state, params):
    """The attacker names the attacking units anew between two rounds of a battle
    (M_ATTACK with ROUND >= 1, ``round_attackers="rechosen"``) or composes a new attack."""
    return state[L.MODE] == L.M_ATTACK and R.attackers_rechosen(params)


@jit
def check_idle_fields(state, params, where):
    """The target, round, losses and sea transport are set only where the mode uses them:
    a target while an attack or move is composed or a battle fought, rounds in a battle,
    losses when a loser picks, sea transport in a move (and between the cities of a move
    to several, ``move_destinations="several"``)."""
    mode = state[L.MODE]
    composing = mode == L.M_ATTACK or mode == L.M_MOVE
    battle = mode == L.M_DICE or mode == L.M_LOSS or mode == L.M_CONTINUE
    if (composing or battle) != (state[L.TARGET] >= 0):
        return refuse(where, E_TARGET, L.TARGET, state[L.TARGET])
    later_round = rechoosing(state, params) or (mode == L.M_MOVE and R.advance_chosen(params))
    if battle != (state[L.ROUND] >= 1) and not later_round:
        return refuse(where, E_ROUND, L.ROUND, state[L.ROUND])
    moving = mode == L.M_MOVE or (mode == L.M_MAIN and R.several_destinations(params))
    if not moving and state[L.SEA_USED] != 0:
        return refuse(where, E_IDLE_FIELD, L.SEA_USED, state[L.SEA_USED])
    if mode != L.M_LOSS:
        for w in (L.LOSS_A, L.LOSS_D):
            if state[w] != 0:
                return refuse(where, E_IDLE_FIELD, w, state[w])
    return 0


@jit
def moved_where_it_may(state, params, u):
    """An MU marked as moved in this action: a move to several cities is under way (its
    next city being chosen or composed); it is the mover's, on the map, and if it went by
    sea it stands in a port of the side's."""
    mode = state[L.MODE]
    side = state[L.SIDE]
    loc = state[L.LOC + u]
    composing = mode == L.M_MAIN or (mode == L.M_MOVE and state[L.ROUND] == 0)
    if not R.several_destinations(params) or not composing:
        return False
    if D.PIECE_SIDE[u] != side or loc < 0:
        return False
    return state[L.SEL + u] != L.SEL_MOVED_SEA or (
        D.CITY_PORT[loc] == 1 and state[L.OWNER + loc] == side
    )


@jit
def check_selection(state, params, where):
    """Selected units: of the side to move, on the map, able to attack or move as chosen."""
    mode = state[L.MODE]
    side = state[L.SIDE]
    target = state[L.TARGET]
    selecting = mode == L.M_ATTACK or mode == L.M_MOVE
    battle = mode == L.M_DICE or mode == L.M_LOSS or mode == L.M_CONTINUE
    passable = R.passable_cities(state, side)
    sea = 0
    for u in range(D.NUM_UNITS):
        how = state[L.SEL + u]
        if how == 0:
            continue
        if R.has_moved(state, u):
            if not moved_where_it_may(state, params, u):
                return refuse(where, E_MOVED, u, how)
            if how == L.SEL_MOVED_SEA:
                sea += 1
            continue
        if not (selecting or battle):
            return refuse(where, E_SELECTED_MODE, u, mode)
        if D.PIECE_SIDE[u] != side or state[L.LOC + u] < 0:
            return refuse(where, E_SELECTED, u, how)
        loc = state[L.LOC + u]
        if mode == L.M_MOVE and state[L.ROUND] == 0:
            if loc == target or not R.leaves_one_behind(state, params, u):  # empty_origin
                return refuse(where, E_CANNOT_MOVE, u, how)
            if how == L.SEL_SEA:
                sea += 1
                if not R.can_carry_by_sea(state, params, side, u, target):
                    return refuse(where, E_CANNOT_MOVE, u, how)
            elif (R.land_reach(loc, R.movement_factor(state, u), passable) >> target) & 1 == 0:
                return refuse(where, E_CANNOT_MOVE, u, how)
        elif how != L.SEL_LAND or not R.can_attack_with(state, side, u, target):
            return refuse(where, E_CANNOT_ATTACK, u, how)  # attacking, or one to advance
    if sea != state[L.SEA_USED]:
        return refuse(where, E_SEA_COUNT, L.SEA_USED, state[L.SEA_USED])
    return 0


@jit
def check_advance(state, where):
    """The advance into a taken city (``advance="chosen"``, ruling 12): no defender is left
    in it; a survivor is still to be chosen, and two when none has entered yet."""
    side = state[L.SIDE]
    target = state[L.TARGET]
    left = R.count_attackers(state)
    entered = state[L.OCC + target] == side
    if state[L.OCC + target] == 1 - side or left == 0 or (not entered and left < 2):
        return refuse(where, E_ADVANCE, L.TARGET, target)
    return 0


@jit
def check_mode_context(state, params, where):
    """What each mode needs: a unit to bring in, a militia to place, a target to attack or
    reach."""
    mode = state[L.MODE]
    side = state[L.SIDE]
    target = state[L.TARGET]
    if mode == L.M_REINFORCE:
        if R.next_reinforcement(state, params, side) < 0 or not R.holds_any_city(state, side):
            return refuse(where, E_NO_ARRIVAL, L.SIDE, side)
    elif mode == L.M_MILITIA:
        if not R.can_place_militia(state, side):
            return refuse(where, E_NO_MILITIA, L.SIDE, side)
    elif mode == L.M_ATTACK or mode == L.M_DICE or mode == L.M_LOSS or mode == L.M_CONTINUE:
        if state[L.OCC + target] != 1 - side:
            return refuse(where, E_ATTACK_TARGET, L.TARGET, target)
        if mode == L.M_ATTACK and state[L.ROUND] >= 1 and R.count_attackers(state) == 0:
            return refuse(where, E_BATTLE_SIDES, -1, 0)  # named anew: the first one is named
    elif mode == L.M_MOVE and state[L.ROUND] >= 1:
        return check_advance(state, where)
    elif mode == L.M_MOVE:
        # chosen among move_destinations while nothing was selected; a unit selected to go
        # by sea takes room on the ships, so once one is, it vouches for the target itself
        by_sea = False
        for u in range(D.NUM_UNITS):
            if state[L.SEL + u] == L.SEL_SEA:
                by_sea = True
        reachable = by_sea or (R.move_destinations(state, params, side) >> target) & 1
        if state[L.OCC + target] == 1 - side or not reachable:
            return refuse(where, E_MOVE_TARGET, L.TARGET, target)
    return 0


@jit
def check_battle(state, params, where):
    """A battle's dice, strengths, table indices and losses fit the point it has reached."""
    mode = state[L.MODE]
    if mode != L.M_DICE and mode != L.M_LOSS and mode != L.M_CONTINUE:
        return 0
    target = state[L.TARGET]
    attackers = R.count_attackers(state)
    defenders = R.pieces_at(state, target)
    if mode == L.M_DICE:
        kind = state[H.H_CHANCE_KIND]
        first = kind == L.CHANCE_ATTACK_DIE and state[L.DIE_A] == 0
        second = kind == L.CHANCE_DEFENCE_DIE and state[L.DIE_A] >= 1
        if state[L.DIE_D] != 0 or not (first or second):
            return refuse(where, E_DICE_STATE, L.DIE_A, state[L.DIE_A])
        if attackers < 1 or defenders < 1:
            return refuse(where, E_BATTLE_SIDES, -1, min(attackers, defenders))
        if state[L.STR_A] != R.attack_strength(state):
            return refuse(where, E_BATTLE_STRENGTH, L.STR_A, state[L.STR_A])
        if state[L.STR_D] != R.defence_strength(state, params, target):
            return refuse(where, E_BATTLE_STRENGTH, L.STR_D, state[L.STR_D])
        return 0
    if state[L.DIE_A] < 1 or state[L.DIE_D] < 1:
        return refuse(where, E_DICE_STATE, L.DIE_A, state[L.DIE_A])
    if state[L.IDX_A] != R.read_battle_table(state[L.STR_A], state[L.DIE_A]):
        return refuse(where, E_BATTLE_INDEX, L.IDX_A, state[L.IDX_A])
    if state[L.IDX_D] != R.read_battle_table(state[L.STR_D], state[L.DIE_D]):
        return refuse(where, E_BATTLE_INDEX, L.IDX_D, state[L.IDX_D])
    if mode == L.M_LOSS:
        a_lost = state[L.IDX_D] >= state[L.IDX_A]
        d_lost = state[L.IDX_A] >= state[L.IDX_D]
        la = state[L.LOSS_A]
        ld = state[L.LOSS_D]
        if (la == 0 and ld == 0) or (la == 1 and not a_lost) or (ld == 1 and not d_lost):
            return refuse(where, E_LOSS, L.LOSS_A, la)
        if (la == 1 and attackers < 1) or (ld == 1 and defenders < 1):
            return refuse(where, E_BATTLE_SIDES, -1, min(attackers, defenders))
    elif attackers < 1 or defenders < 1:  # M_CONTINUE
        return refuse(where, E_BATTLE_SIDES, -1, min(attackers, defenders))
    return 0


@jit
def check_emptied_cities(state, params, where):
    """With ``empty_city="neutral"`` (ruling 5) a city with no piece is no one's when a turn
    ends, so possession equals occupation at every turn's start; within the turn only the
    side to move empties cities (its moves, its attackers lost), and the enemy only the
    city being taken from it (the advance into it, ``advance="chosen"``)."""
    if params[L.P_EMPTY_CITY] != L.EMPTY_NEUTRAL:
        return 0
    side = state[L.SIDE]
    for c in range(L.C):
        owner = state[L.OWNER + c]
        if owner == D.NEUTRAL or state[L.OCC + c] != D.NEUTRAL or owner == side:
            continue
        taken = state[L.MODE] == L.M_MOVE and state[L.ROUND] >= 1 and c == state[L.TARGET]
        if not taken:
            return refuse(where, E_NEUTRAL_EMPTY, c, owner)
    return 0


@jit
def validate(state, params, where):
    """0 if every field of ``state`` is in range and coherent, else the failed check's code."""
    code = check_scalars(state, where)
    if code == 0:
        code = check_pieces(state, where)
    if code == 0:
        code = check_withheld(state, params, where)
    if code == 0:
        code = check_control(state, params, where)
    if code == 0:
        code = check_end(state, params, where)
    if code == 0:
        code = check_actor(state, where)
    if code == 0:
        code = check_idle_fields(state, params, where)
    if code == 0:
        code = check_selection(state, params, where)
    if code == 0:
        code = check_mode_context(state, params, where)
    if code == 0:
        code = check_battle(state, params, where)
    if code == 0:
        code = check_emptied_cities(state, params, where)
    return code

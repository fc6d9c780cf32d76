"""Chance: every die roll is a chance node (``chance_weights`` / ``apply_chance``).

The set-up rolls (initial revolts and armies), the Terror die, the revolt roll, the army
move die and the combat dice; once a combat's dice are known it is resolved here (unless
the Hispano player may still reroll).
"""

from __future__ import annotations

import numpy as np

from boardsim.core.header import H_CHANCE_KIND
from boardsim.core.jit import jit
from boardsim.core.kernel_parts import fair_die
from boardsim.games.hispania.board import garrison_count, general_at, place_revolt, province_army
from boardsim.games.hispania.combat import resolve_army_attack, resolve_attack, resolve_siege
from boardsim.games.hispania.data import (
    SCEN_ARMY_DIE,
    SCEN_FACES,
    SCEN_GUERRILLA,
    SETUP_REVOLTS_BY_DIE,
)
from boardsim.games.hispania.flow import (
    advance,
    army_in_reserve,
    army_try_move,
    begin_hispanic_phase,
    ordinary_armies_left,
    place_army,
)
from boardsim.games.hispania.layout import (
    ARMY_ORDER,
    ARMY_POS,
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
    DIE_H,
    DIE_R,
    GONE,
    H_ACCEPTED,
    H_ATTACK,
    HA_AFTER_MOVE,
    HA_COMBAT,
    HDENARII,
    HISP_BONUS,
    P_IMPERIVM,
    P_SCENARIO,
    PH_ARMY_MOVE,
    PH_H_ATTACK,
    PH_H_COMBAT,
    PH_H_REVOLT,
    PH_MOVE_START,
    PH_REVOLT_CITY,
    PH_REVOLT_PROV,
    PH_ROMAN,
    PH_SETUP_ARMY,
    PHASE,
    PLACE_CITY,
    RESUME_PHASE,
    REVOLT_NUM,
    REVOLT_PROV,
    REVOLT_RESUME,
    REVOLTS,
    SETUP_CITY,
    SPECIAL,
    STACK,
    TRAITORS_USED,
)
from boardsim.games.hispania.movement import choose_by_shield, move_armies_candidates
from boardsim.games.hispania.setup import army_die_faces


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
    return fair_die(outcomes, weights, 6)


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
        resolve_siege(state, params, g, t, state[COMBAT_SPENT], die)
        state[PHASE] = PH_ROMAN
    elif cb == CB_ATTACK:
        if state[DIE_H] == 0 or hispano_reroll_pending(state):
            return
        if not resolve_attack(state, params, g, t, state[COMBAT_SPENT], state[DIE_R], state[DIE_H]):
            begin_hispanic_phase(state, params)  # a lost attack ends the Roman phase
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
        resolve_army_attack(state, params, cb, state[COMBAT_ARMY], t, state[DIE_H], state[DIE_R])
        if state[H_ATTACK] != 0:
            if state[H_ATTACK] == HA_COMBAT:
                state[H_ATTACK] = HA_AFTER_MOVE  # back to the step the attack was made in
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

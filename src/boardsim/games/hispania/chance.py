"""Chance: every die roll is a chance node (``chance_weights`` / ``apply_chance``).

The set-up rolls (initial revolts and armies), the Terror die, the revolt roll, the army
move die and the combat dice; once a combat's dice are known it is resolved here (unless
the Hispano player may still reroll).
"""

from __future__ import annotations

import numpy as np

from boardsim.core.header import H_CHANCE_KIND, H_DECISIONS, P_EXPLICIT_CHANCE
from boardsim.core.jit import jit
from boardsim.core.kernel_parts import fair_die
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.board import (
    garrison_count,
    general_at,
    place_revolt,
    province_army,
    record_start,
)
from boardsim.games.hispania.combat import resolve_army_attack, resolve_attack, resolve_siege
from boardsim.games.hispania.flow import (
    advance,
    army_in_reserve,
    army_try_move,
    begin_hispanic_phase,
    ordinary_armies_left,
    place_army,
)
from boardsim.games.hispania.movement import choose_by_shield, move_armies_candidates
from boardsim.games.hispania.setup import army_die_faces


@jit
def chance_weights(
    state: np.ndarray, params: np.ndarray, outcomes: np.ndarray, weights: np.ndarray
) -> int:
    """The outcomes of the pending chance node and their integer weights."""
    kind = state[H_CHANCE_KIND]
    if kind == L.CK_SETUP_ARMY:
        faces = np.zeros(6, np.int32)
        n = army_die_faces(state, params, faces)
        for i in range(n):
            outcomes[i] = faces[i]
            weights[i] = 1
        return n
    if kind == L.CK_SETUP_REVOLT:
        n = 0
        for f in range(6):
            if D.SCEN_FACES[params[L.P_SCENARIO], state[L.COUNTER], f] != 0:
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
    if kind == L.CK_SETUP_REVOLT:
        setup_revolt(state, outcome)
    elif kind == L.CK_SETUP_ARMY:
        setup_army(state, params, outcome)
    elif kind == L.CK_TERROR:
        n, first = ordinary_armies_left(state)
        if outcome >= (4 if n == 1 else 5):
            state[L.ARMY_POS + L.SPECIAL] = state[L.PLACE_CITY]
        else:
            state[L.ARMY_POS + first] = state[L.PLACE_CITY]
        state[L.PHASE] = state[L.RESUME_PHASE]
    elif kind == L.CK_REVOLT_PROV:
        state[L.REVOLT_PROV] = outcome - 1
        if D.SCEN_GUERRILLA[params[L.P_SCENARIO]] != 0:
            state[L.REVOLT_PROV] = 4 if outcome % 2 == 1 else 5  # Guerrilla: V odd, VI even
        if state[L.PHASE] == L.PH_REVOLT_PROV:
            state[L.PHASE] = L.PH_REVOLT_CITY
        else:
            revolt_dice_rolled(state, params)
    elif kind == L.CK_REVOLT_CITY:
        state[L.REVOLT_NUM] = outcome
        revolt_dice_rolled(state, params)
    elif kind == L.CK_MOVE_DIE:
        cands = np.zeros(8, np.int32)
        k = state[L.ARMY_ORDER + state[L.CUR]]
        n = move_armies_candidates(state, k, cands)
        t = choose_by_shield(cands, n, outcome)
        state[L.PHASE] = L.PH_ARMY_MOVE
        if t < 0:
            state[L.CUR] += 1
        else:
            army_try_move(state, k, t)
    elif kind in (L.CK_ROMAN_DIE, L.CK_HISP_DIE):
        if kind == L.CK_ROMAN_DIE:
            state[L.DIE_R] = outcome
        else:
            state[L.DIE_H] = outcome
        resolve_combat_if_ready(state, params)
    advance(state, params)
    if params[P_EXPLICIT_CHANCE] == 0 and state[H_DECISIONS] == 0:
        # drawn inside new_game (chance resolved there): still the first position
        record_start(state)


@jit
def setup_revolt(state: np.ndarray, face: int) -> None:
    """The initial revolt of province COUNTER on its city ``face``: 3/2/1 revolts."""
    p = state[L.COUNTER]
    c = p * 6 + face - 1
    state[L.SETUP_CITY + p] = c
    for _ in range(D.SETUP_REVOLTS_BY_DIE[face - 1]):
        place_revolt(state, c)
    state[L.COUNTER] += 1


@jit
def setup_army(state: np.ndarray, params: np.ndarray, numeral: int) -> None:
    """An initial army on the revolt city of province ``numeral`` (1-6); New Empire: the
    army on Gallaecia's revolt city ``numeral``, then the special army on Cantabria's."""
    if D.SCEN_ARMY_DIE[params[L.P_SCENARIO]] != 0:
        p = 4 + state[L.COUNTER]
        slot = 0 if state[L.COUNTER] == 0 else L.SPECIAL
        state[L.ARMY_POS + slot] = p * 6 + numeral - 1
        state[L.COUNTER] += 1
        return
    state[L.COUNTER] += 1
    place_army(state, state[L.SETUP_CITY + numeral - 1], L.PH_SETUP_ARMY)


@jit
def resolve_combat_if_ready(state: np.ndarray, params: np.ndarray) -> None:
    cb = state[L.COMBAT_KIND]
    t = state[L.COMBAT_TARGET]
    g = state[L.COMBAT_GEN]
    if cb == L.CB_SIEGE:
        die = state[L.DIE_R]
        if params[L.P_IMPERIVM] != 0 and g == 1:
            die += 1  # Imperivm: the praetor of Citerior adds 1 to his sieges
        resolve_siege(state, params, g, t, state[L.COMBAT_SPENT], die)
        state[L.PHASE] = L.PH_ROMAN
    elif cb == L.CB_ATTACK:
        if state[L.DIE_H] == 0 or hispano_reroll_pending(state):
            return
        if not resolve_attack(
            state, params, g, t, state[L.COMBAT_SPENT], state[L.DIE_R], state[L.DIE_H]
        ):
            begin_hispanic_phase(state, params)  # a lost attack ends the Roman phase
        else:
            state[L.PHASE] = L.PH_ROMAN
    elif cb == L.CB_ASSASSINATE:
        state[L.PHASE] = L.PH_ROMAN
        if state[L.DIE_H] <= state[L.COMBAT_SPENT]:
            # the special army leaves the game; a third army takes its place
            c = state[L.ARMY_POS + L.SPECIAL]
            state[L.ARMY_POS + L.SPECIAL] = L.GONE
            state[L.ARMY_POS + 2] = c
            state[L.TRAITORS_USED] = 2
        else:
            state[L.TRAITORS_USED] = 1
            state[L.REVOLT_RESUME] = L.PH_ROMAN  # an exceptional revolt roll, then back here
            state[L.PHASE] = L.PH_REVOLT_PROV
    else:
        if cb == L.CB_ARMY_GENERAL and state[L.DIE_R] == 0:
            return
        if hispano_reroll_pending(state):
            return
        resolve_army_attack(
            state, params, cb, state[L.COMBAT_ARMY], t, state[L.DIE_H], state[L.DIE_R]
        )
        if state[L.H_ATTACK] != 0:
            if state[L.H_ATTACK] == L.HA_COMBAT:
                state[L.H_ATTACK] = L.HA_AFTER_MOVE  # back to the step the attack was made in
            state[L.PHASE] = L.PH_H_ATTACK
        else:
            state[L.CUR] += 1
            state[L.PHASE] = L.PH_ARMY_MOVE
    state[L.COMBAT_KIND] = 0
    state[L.DIE_R] = 0
    state[L.DIE_H] = 0
    state[L.HISP_BONUS] = 0


@jit
def hispano_reroll_pending(state: np.ndarray) -> bool:
    """Hispano may still reroll this combat's Hispanic die: wait for his decision."""
    if state[L.HDENARII] > 0 and state[L.H_ACCEPTED] == 0:
        state[L.PHASE] = L.PH_H_COMBAT
        return True
    return False


@jit
def revolt_dice_rolled(state: np.ndarray, params: np.ndarray) -> None:
    """Both revolt dice are known: Hispano may reroll one, else the roll takes effect."""
    if state[L.HDENARII] > 0:
        state[L.PHASE] = L.PH_H_REVOLT
    else:
        resolve_revolt_roll(state, params)


@jit
def resolve_revolt_roll(state: np.ndarray, params: np.ndarray) -> None:
    resume = state[L.REVOLT_RESUME] if state[L.REVOLT_RESUME] != 0 else L.PH_MOVE_START
    state[L.REVOLT_RESUME] = 0
    state[L.PHASE] = resume
    roll_revolt(state, params, state[L.REVOLT_PROV], state[L.REVOLT_NUM], resume)


@jit
def roll_revolt(state: np.ndarray, params: np.ndarray, p: int, number: int, resume: int) -> None:
    """Hispanic revolt on city ``p-number``: protected, empty, or already in revolt."""
    c = p * 6 + number - 1
    if garrison_count(state, c) > 0 or general_at(state, c) >= 0:
        return
    if state[L.REVOLTS + c] == 0:
        place_revolt(state, c)
        return
    if province_army(state, p) < 0 and army_in_reserve(state):
        place_army(state, c, resume)
        return
    if state[L.REVOLTS + c] < L.STACK:
        place_revolt(state, c)

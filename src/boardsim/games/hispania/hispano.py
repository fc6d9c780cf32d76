"""The Hispano player's decisions (variant): his mask and his actions, phase by phase.

He chooses the initial revolts and armies, spends his denarii on rerolls and
reinforcements, may choose an army's move instead of the die, and may attack with an army
at the end of the Hispanic phase.
"""

from __future__ import annotations

import numpy as np

from boardsim.core.jit import jit
from boardsim.games.hispania.board import general_at
from boardsim.games.hispania.chance import (
    resolve_combat_if_ready,
    resolve_revolt_roll,
    setup_army,
    setup_revolt,
)
from boardsim.games.hispania.combat import hispano_army_can_attack, hispano_target
from boardsim.games.hispania.data import NUM_CITIES, SCEN_FACES
from boardsim.games.hispania.flow import army_try_move, end_hispano_attacks
from boardsim.games.hispania.layout import (
    A_H_ACCEPT,
    A_H_ARMY,
    A_H_CITY,
    A_H_FACE,
    A_H_REROLL_H,
    A_H_REROLL_R,
    A_H_SPEND,
    ARMY_ORDER,
    CB_ARMY_GARRISON,
    CB_ARMY_GENERAL,
    CB_ATTACK,
    CB_SIEGE,
    COMBAT_ARMY,
    COMBAT_KIND,
    COMBAT_TARGET,
    COUNTER,
    CUR,
    DIE_H,
    DIE_R,
    H_ACCEPTED,
    H_ATTACK,
    HA_AFTER_MOVE,
    HA_COMBAT,
    HDENARII,
    HISP_BONUS,
    NUM_ARMY_SLOTS,
    P_SCENARIO,
    PEND_TARGET,
    PH_ARMY_COMBAT,
    PH_ARMY_MOVE,
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
    PH_ROMAN_COMBAT,
    PH_SETUP_ARMY,
    PH_SETUP_REVOLT,
    PHASE,
)
from boardsim.games.hispania.movement import move_armies_candidates
from boardsim.games.hispania.setup import army_die_faces


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
        # an attack begun is made, never cancelled (ledger row 25): the army chosen has a
        # target, and Hispano a denarius
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
            end_hispano_attacks(state)
        else:
            state[COMBAT_ARMY] = action - A_H_ARMY
            state[PHASE] = PH_H_ATTACK_TARGET
    elif ph == PH_H_ATTACK_TARGET:
        state[PEND_TARGET] = action - A_H_CITY
        state[PHASE] = PH_H_ATTACK_SPEND
    elif ph == PH_H_ATTACK_SPEND:
        t = state[PEND_TARGET]
        k = action - A_H_SPEND + 1
        state[COMBAT_KIND] = CB_ARMY_GENERAL if general_at(state, t) >= 0 else CB_ARMY_GARRISON
        state[COMBAT_TARGET] = t
        state[PEND_TARGET] = 0
        state[HISP_BONUS] = k
        state[HDENARII] -= k
        state[H_ACCEPTED] = 0
        if state[H_ATTACK] == HA_AFTER_MOVE:
            state[H_ATTACK] = HA_COMBAT  # (the other steps keep theirs through the combat)
        state[DIE_H] = 0
        state[DIE_R] = 0
        state[PHASE] = PH_ARMY_COMBAT

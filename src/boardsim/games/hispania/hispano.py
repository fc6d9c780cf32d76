"""The Hispano player's decisions (variant): his mask and his actions, phase by phase.

He chooses the initial revolts and armies, spends his denarii on rerolls and
reinforcements, may choose an army's move instead of the die, and may attack with an army
at the end of the Hispanic phase.
"""

from __future__ import annotations

import numpy as np

from boardsim.core.jit import jit
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.board import general_at
from boardsim.games.hispania.chance import (
    resolve_combat_if_ready,
    resolve_revolt_roll,
    setup_army,
    setup_revolt,
)
from boardsim.games.hispania.combat import hispano_army_can_attack, hispano_target
from boardsim.games.hispania.flow import army_try_move, end_hispano_attacks
from boardsim.games.hispania.movement import move_armies_candidates
from boardsim.games.hispania.setup import army_die_faces


@jit
def hispano_mask(state: np.ndarray, params: np.ndarray, mask: np.ndarray) -> int:
    """The Hispano player's choices."""
    ph = state[L.PHASE]
    hd = state[L.HDENARII]
    n = 0
    if ph == L.PH_SETUP_REVOLT:
        for f in range(6):
            if D.SCEN_FACES[params[L.P_SCENARIO], state[L.COUNTER], f] != 0:
                mask[L.A_H_FACE + f] = 1
                n += 1
        return n
    if ph == L.PH_SETUP_ARMY:
        faces = np.zeros(6, np.int32)
        m = army_die_faces(state, params, faces)
        for i in range(m):
            mask[L.A_H_FACE + faces[i] - 1] = 1
        return m
    if ph in (L.PH_H_ATTACK_TARGET, L.PH_H_ATTACK_SPEND):
        # an attack begun is made, never cancelled (ledger row 25): the army chosen has a
        # target, and Hispano a denarius
        if ph == L.PH_H_ATTACK_TARGET:
            for t in range(D.NUM_CITIES):
                if hispano_target(state, state[L.COMBAT_ARMY], t):
                    mask[L.A_H_CITY + t] = 1
                    n += 1
        else:
            for k in range(2):
                if k < hd:
                    mask[L.A_H_SPEND + k] = 1
                    n += 1
        return n
    mask[L.A_H_ACCEPT] = 1
    n = 1
    if ph == L.PH_H_REVOLT:
        mask[L.A_H_REROLL_R] = 1
        mask[L.A_H_REROLL_H] = 1
        n += 2
    elif ph == L.PH_H_COMBAT:
        mask[L.A_H_REROLL_H] = 1
        n += 1
    elif ph == L.PH_H_REINFORCE:
        for k in range(2):
            if k < hd:
                mask[L.A_H_SPEND + k] = 1
                n += 1
    elif ph == L.PH_H_MOVE:
        cands = np.zeros(8, np.int32)
        m = move_armies_candidates(state, state[L.ARMY_ORDER + state[L.CUR]], cands)
        for i in range(m):
            mask[L.A_H_CITY + cands[i]] = 1
            n += 1
    elif ph == L.PH_H_ATTACK:
        for k in range(L.NUM_ARMY_SLOTS):
            if hispano_army_can_attack(state, k):
                mask[L.A_H_ARMY + k] = 1
                n += 1
    return n


@jit
def hispano_action(state: np.ndarray, params: np.ndarray, action: int) -> None:
    """One decision of the Hispano player."""
    ph = state[L.PHASE]
    if ph == L.PH_SETUP_REVOLT:
        setup_revolt(state, action - L.A_H_FACE + 1)
    elif ph == L.PH_SETUP_ARMY:
        setup_army(state, params, action - L.A_H_FACE + 1)
    elif ph == L.PH_H_REVOLT:
        if action == L.A_H_ACCEPT:
            resolve_revolt_roll(state, params)
        else:
            state[L.HDENARII] -= 1
            state[L.PHASE] = L.PH_H_REROLL_PROV if action == L.A_H_REROLL_R else L.PH_H_REROLL_CITY
    elif ph == L.PH_H_MOVE:
        if action == L.A_H_ACCEPT:
            state[L.PHASE] = L.PH_MOVE_DIE
        else:
            state[L.HDENARII] -= 1
            state[L.PHASE] = L.PH_ARMY_MOVE
            army_try_move(state, state[L.ARMY_ORDER + state[L.CUR]], action - L.A_H_CITY)
    elif ph == L.PH_H_REINFORCE:
        if action != L.A_H_ACCEPT:
            k = action - L.A_H_SPEND + 1
            state[L.HISP_BONUS] = k
            state[L.HDENARII] -= k
        state[L.PHASE] = L.PH_ROMAN_COMBAT
    elif ph == L.PH_H_COMBAT:
        if action == L.A_H_ACCEPT:
            state[L.H_ACCEPTED] = 1
            resolve_combat_if_ready(state, params)
        else:
            state[L.HDENARII] -= 1
            state[L.DIE_H] = 0
            roman = state[L.COMBAT_KIND] == L.CB_SIEGE or state[L.COMBAT_KIND] == L.CB_ATTACK
            state[L.PHASE] = L.PH_ROMAN_COMBAT if roman else L.PH_ARMY_COMBAT
    elif ph == L.PH_H_ATTACK:
        if action == L.A_H_ACCEPT:
            end_hispano_attacks(state)
        else:
            state[L.COMBAT_ARMY] = action - L.A_H_ARMY
            state[L.PHASE] = L.PH_H_ATTACK_TARGET
    elif ph == L.PH_H_ATTACK_TARGET:
        state[L.PEND_TARGET] = action - L.A_H_CITY
        state[L.PHASE] = L.PH_H_ATTACK_SPEND
    elif ph == L.PH_H_ATTACK_SPEND:
        t = state[L.PEND_TARGET]
        k = action - L.A_H_SPEND + 1
        state[L.COMBAT_KIND] = (
            L.CB_ARMY_GENERAL if general_at(state, t) >= 0 else L.CB_ARMY_GARRISON
        )
        state[L.COMBAT_TARGET] = t
        state[L.PEND_TARGET] = 0
        state[L.HISP_BONUS] = k
        state[L.HDENARII] -= k
        state[L.H_ACCEPTED] = 0
        if state[L.H_ATTACK] == L.HA_AFTER_MOVE:
            state[L.H_ATTACK] = L.HA_COMBAT  # (the other steps keep theirs through the combat)
        state[L.DIE_H] = 0
        state[L.DIE_R] = 0
        state[L.PHASE] = L.PH_ARMY_COMBAT

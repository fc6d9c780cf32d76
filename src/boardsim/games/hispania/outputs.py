"""What the game shows: ``observe``, ``returns``, and Rome's standing and progress.

The whole board is public. ``rome_progress`` is MCTS's position value (``search.py``) and
``rome_standing`` what the ``progress`` reward pays for.
"""

from __future__ import annotations

import numpy as np

from boardsim.core.header import P_NUM_PLAYERS
from boardsim.core.jit import jit
from boardsim.games.hispania.data import (
    CITY_PROVINCE,
    FIRST_SEA,
    NUM_CITIES,
    NUM_HISPANIC,
    NUM_LINKS,
    NUM_SPACES,
    SCEN_TRACK_LIMIT,
    TOTAL_REVOLTS,
)
from boardsim.games.hispania.layout import (
    ARMY_ORDER,
    ARMY_POS,
    CB_ARMY_GARRISON,
    COMBAT_ARMY,
    COMBAT_KIND,
    COMBAT_SPENT,
    COMBAT_TARGET,
    CUR,
    DENARII,
    DIE_H,
    DIE_R,
    DISPLAY,
    FLEET,
    GARR,
    GARR_RESERVE,
    GEN_POS,
    GONE,
    HDENARII,
    HELD_ROADS,
    HISP_BONUS,
    HISPANO,
    LEGIO_OWNER,
    LETHE,
    MAX_PLAYERS,
    MOVER,
    NUM_ARMY_SLOTS,
    NUM_GENERALS,
    NUM_PHASES,
    OBS_CONTEXT,
    OBS_EXTRA,
    OBS_PER_SPACE,
    OBS_PHASE,
    OBS_PLAYER,
    OBS_ROADS,
    OBS_SCALARS,
    OBS_TURN,
    P_HISPANO,
    P_REWARD,
    P_SCENARIO,
    PEND_KIND,
    PEND_TARGET,
    PH_H_ATTACK_SPEND,
    PH_H_ATTACK_TARGET,
    PH_H_MOVE,
    PH_H_REVOLT,
    PHASE,
    PROCONSUL,
    PROGRESS_TIME,
    PROGRESS_WEIGHT,
    RESERVE,
    REVOLT_NUM,
    REVOLT_PROV,
    REVOLTS,
    ROADS,
    SPECIAL,
    STACK,
    STANDING_CAPITALS,
    STANDING_CLEAR,
    STANDING_RESERVE,
    TRACK,
    TRAITORS_USED,
    TURN,
    W_HISPANIA,
    W_ROME,
    WINNER,
)


@jit
def observe(state: np.ndarray, params: np.ndarray, player: int, out: np.ndarray) -> None:
    """The whole board is public: every player sees the same, plus who he is."""
    out[:] = 0.0
    for s in range(NUM_SPACES):
        base = s * OBS_PER_SPACE
        out[base] = state[REVOLTS + s] / 3.0
        if s < NUM_CITIES:
            for i in range(STACK):
                col = state[GARR + s * STACK + i]
                if col > 0:
                    out[base + min(col, NUM_GENERALS)] += 1.0 / 3.0  # legio with the 4th
        if s >= FIRST_SEA and state[FLEET + s - FIRST_SEA] != 0:
            out[base + 2 + 2 * NUM_GENERALS] = 1.0
    for k in range(NUM_ARMY_SLOTS):  # army_at, for every city at once
        c = state[ARMY_POS + k]
        if 0 <= c < NUM_CITIES:
            out[c * OBS_PER_SPACE + 1 + NUM_GENERALS] = 1.0
    seen = 0  # general_at, for every space at once: the first general standing there
    for g in range(NUM_GENERALS):
        s = state[GEN_POS + g]
        if 0 <= s < NUM_SPACES and (seen >> s) & 1 == 0:
            seen |= 1 << s
            out[s * OBS_PER_SPACE + 2 + NUM_GENERALS + g] = 1.0
    for li in range(NUM_LINKS):
        out[OBS_ROADS + li] = state[ROADS + li]
    ph = state[PHASE]
    if 0 <= ph < NUM_PHASES:
        out[OBS_PHASE + ph] = 1.0
    out[OBS_TURN + state[TURN]] = 1.0
    out[OBS_SCALARS] = state[DENARII] / 8.0
    out[OBS_SCALARS + 1] = state[TRACK] / 11.0
    out[OBS_SCALARS + 2] = state[RESERVE] / 22.0
    out[OBS_SCALARS + 3] = state[PEND_KIND] / 2.0
    out[OBS_SCALARS + 4] = (state[PEND_TARGET] + 1) / 49.0 if state[PEND_KIND] != 0 else 0.0
    out[OBS_SCALARS + 5] = state[GARR_RESERVE + min(max(player, 0), NUM_GENERALS - 1)] / 5.0
    out[OBS_SCALARS + 6] = state[HDENARII] / 2.0
    out[OBS_SCALARS + 7] = state[HISP_BONUS] / 2.0
    out[OBS_SCALARS + 8] = state[DISPLAY]
    out[OBS_SCALARS + 9] = state[LETHE]
    if 0 <= player < MAX_PLAYERS:
        out[OBS_PLAYER + player] = 1.0
    observe_context(state, out)


@jit
def observe_context(state: np.ndarray, out: np.ndarray) -> None:
    """What the pending decision is about (targets, dice, selections)."""
    ph = state[PHASE]
    target = -1
    if state[PEND_KIND] != 0 or ph == PH_H_ATTACK_SPEND:
        target = state[PEND_TARGET]
    elif state[COMBAT_KIND] != 0:
        target = state[COMBAT_TARGET]
    if target >= 0:
        out[OBS_CONTEXT + target] = 1.0
    army = -1
    if state[COMBAT_KIND] >= CB_ARMY_GARRISON or ph == PH_H_ATTACK_TARGET:
        army = state[COMBAT_ARMY]
    elif ph == PH_H_MOVE:
        army = state[ARMY_ORDER + state[CUR]]
    if 0 <= army < NUM_ARMY_SLOTS and state[ARMY_POS + army] >= 0:
        out[OBS_CONTEXT + NUM_SPACES + state[ARMY_POS + army]] = 1.0
    if ph == PH_H_REVOLT:
        c = state[REVOLT_PROV] * 6 + state[REVOLT_NUM] - 1
        out[OBS_CONTEXT + 2 * NUM_SPACES + c] = 1.0
    e = OBS_EXTRA
    out[e] = state[DIE_R] / 6.0
    out[e + 1] = state[DIE_H] / 6.0
    out[e + 2] = state[COMBAT_SPENT] / 3.0 if state[COMBAT_KIND] != 0 else 0.0
    out[e + 3] = state[HELD_ROADS] / 5.0
    out[e + 4] = state[TRAITORS_USED] / 2.0
    out[e + 5 + state[COMBAT_KIND]] = 1.0
    if state[MOVER] >= 0:
        out[e + 11 + state[MOVER]] = 1.0
    if 0 <= state[LEGIO_OWNER] < 3:
        out[e + 11 + NUM_GENERALS + state[LEGIO_OWNER]] = 1.0
    out[e + 14 + NUM_GENERALS] = 1.0 if state[ARMY_POS + SPECIAL] == GONE else 0.0
    out[e + 15 + NUM_GENERALS] = 1.0 if state[GEN_POS + PROCONSUL] == GONE else 0.0


@jit
def rome_aims(state, params):
    """What Rome has of its aims, each in [0, 1]: the share of the Hispanic capitals
    garrisoned, the share of all revolt counters in the reserve, and 1 / (1 + revolts in
    the Roman provinces)."""
    capitals = 0
    for p in range(NUM_HISPANIC):
        if state[GARR + (p * 6 + 5) * STACK] != 0:
            capitals += 1
    roman_revolts = 0
    for c in range(NUM_CITIES):
        if CITY_PROVINCE[c] >= NUM_HISPANIC:
            roman_revolts += state[REVOLTS + c]
    reserve = min(max(state[RESERVE], 0) / TOTAL_REVOLTS, 1.0)
    return capitals / NUM_HISPANIC, reserve, 1.0 / (1.0 + roman_revolts)


@jit
def rome_progress(state, params):
    """Rome's progress toward victory in [0, 1] (MCTS's position value): the standing's
    weights on ``rome_aims`` (0.45 capitals, 0.25 reserve, 0.15 clear) and 0.15 x the
    share of the track's time left (``STANDING_*``, ``PROGRESS_TIME`` in layout.py)."""
    capitals, reserve, clear = rome_aims(state, params)
    limit = SCEN_TRACK_LIMIT[params[P_SCENARIO]]
    time_left = max(limit - state[TRACK], 0) / max(limit, 1)
    return (
        STANDING_CAPITALS * capitals
        + STANDING_RESERVE * reserve
        + STANDING_CLEAR * clear
        + PROGRESS_TIME * time_left
    )


@jit
def rome_standing(state, params):
    """What the ``progress`` reward pays for, in [0, 1]: ``rome_progress`` without the
    time (which only runs out): the ``STANDING_*`` weights on ``rome_aims`` over their sum."""
    capitals, reserve, clear = rome_aims(state, params)
    weighted = STANDING_CAPITALS * capitals + STANDING_RESERVE * reserve + STANDING_CLEAR * clear
    return weighted / (STANDING_CAPITALS + STANDING_RESERVE + STANDING_CLEAR)


@jit
def returns(state: np.ndarray, params: np.ndarray, out: np.ndarray) -> None:
    """+1 to every general on a Roman victory, -1 on a Hispanic victory. The ``progress``
    reward adds ``PROGRESS_WEIGHT`` x ``rome_standing`` at every moment, the end included
    (each decision is paid the standing it gained; a lost game that garrisoned capitals
    scores more than one that did not, and any win more than any loss)."""
    out[:] = 0.0
    w = state[WINNER]
    v = 1.0 if w == W_ROME else (-1.0 if w == W_HISPANIA else 0.0)
    if params[P_REWARD] == 1:
        v += PROGRESS_WEIGHT * rome_standing(state, params)
    for p in range(params[P_NUM_PLAYERS]):
        out[p] = v
    if params[P_HISPANO] != 0:
        out[HISPANO] = -v  # the Hispano player wins when Rome loses

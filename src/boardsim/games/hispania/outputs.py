"""What the game shows: ``observe``, ``returns``, and Rome's standing and progress.

The whole board is public. ``rome_progress`` is MCTS's position value (``search.py``) and
``rome_standing`` what the ``progress`` reward pays for.
"""

from __future__ import annotations

import numpy as np

from boardsim.core.header import P_NUM_PLAYERS
from boardsim.core.jit import jit
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.board import aim_counts


@jit
def observe(state: np.ndarray, params: np.ndarray, player: int, out: np.ndarray) -> None:
    """The whole board is public: every player sees the same, plus who he is."""
    out[:] = 0.0
    for s in range(D.NUM_SPACES):
        base = s * L.OBS_PER_SPACE
        out[base] = state[L.REVOLTS + s] / 3.0
        if s < D.NUM_CITIES:
            for i in range(L.STACK):
                col = state[L.GARR + s * L.STACK + i]
                if col > 0:
                    out[base + min(col, L.NUM_GENERALS)] += 1.0 / 3.0  # legio with the 4th
        if s >= D.FIRST_SEA and state[L.FLEET + s - D.FIRST_SEA] != 0:
            out[base + 2 + 2 * L.NUM_GENERALS] = 1.0
    for k in range(L.NUM_ARMY_SLOTS):  # army_at, for every city at once
        c = state[L.ARMY_POS + k]
        if 0 <= c < D.NUM_CITIES:
            out[c * L.OBS_PER_SPACE + 1 + L.NUM_GENERALS] = 1.0
    seen = 0  # general_at, for every space at once: the first general standing there
    for g in range(L.NUM_GENERALS):
        s = state[L.GEN_POS + g]
        if 0 <= s < D.NUM_SPACES and (seen >> s) & 1 == 0:
            seen |= 1 << s
            out[s * L.OBS_PER_SPACE + 2 + L.NUM_GENERALS + g] = 1.0
    for li in range(D.NUM_LINKS):
        out[L.OBS_ROADS + li] = state[L.ROADS + li]
    ph = state[L.PHASE]
    if 0 <= ph < L.NUM_PHASES:
        out[L.OBS_PHASE + ph] = 1.0
    out[L.OBS_TURN + state[L.TURN]] = 1.0
    out[L.OBS_SCALARS] = state[L.DENARII] / 8.0
    out[L.OBS_SCALARS + 1] = state[L.TRACK] / 11.0
    out[L.OBS_SCALARS + 2] = state[L.RESERVE] / 22.0
    out[L.OBS_SCALARS + 3] = state[L.PEND_KIND] / 2.0
    out[L.OBS_SCALARS + 4] = (state[L.PEND_TARGET] + 1) / 49.0 if state[L.PEND_KIND] != 0 else 0.0
    out[L.OBS_SCALARS + 5] = state[L.GARR_RESERVE + min(max(player, 0), L.NUM_GENERALS - 1)] / 5.0
    out[L.OBS_SCALARS + 6] = state[L.HDENARII] / 2.0
    out[L.OBS_SCALARS + 7] = state[L.HISP_BONUS] / 2.0
    out[L.OBS_SCALARS + 8] = state[L.DISPLAY]
    out[L.OBS_SCALARS + 9] = state[L.LETHE]
    if 0 <= player < L.MAX_PLAYERS:
        out[L.OBS_PLAYER + player] = 1.0
    observe_context(state, out)


@jit
def observe_context(state: np.ndarray, out: np.ndarray) -> None:
    """What the pending decision is about (targets, dice, selections)."""
    ph = state[L.PHASE]
    target = -1
    if state[L.PEND_KIND] != 0 or ph == L.PH_H_ATTACK_SPEND:
        target = state[L.PEND_TARGET]
    elif state[L.COMBAT_KIND] != 0:
        target = state[L.COMBAT_TARGET]
    if target >= 0:
        out[L.OBS_CONTEXT + target] = 1.0
    army = -1
    if state[L.COMBAT_KIND] >= L.CB_ARMY_GARRISON or ph == L.PH_H_ATTACK_TARGET:
        army = state[L.COMBAT_ARMY]
    elif ph == L.PH_H_MOVE:
        army = state[L.ARMY_ORDER + state[L.CUR]]
    if 0 <= army < L.NUM_ARMY_SLOTS and state[L.ARMY_POS + army] >= 0:
        out[L.OBS_CONTEXT + D.NUM_SPACES + state[L.ARMY_POS + army]] = 1.0
    if ph == L.PH_H_REVOLT:
        c = state[L.REVOLT_PROV] * 6 + state[L.REVOLT_NUM] - 1
        out[L.OBS_CONTEXT + 2 * D.NUM_SPACES + c] = 1.0
    e = L.OBS_EXTRA
    out[e] = state[L.DIE_R] / 6.0
    out[e + 1] = state[L.DIE_H] / 6.0
    out[e + 2] = state[L.COMBAT_SPENT] / 3.0 if state[L.COMBAT_KIND] != 0 else 0.0
    out[e + 3] = state[L.HELD_ROADS] / 5.0
    out[e + 4] = state[L.TRAITORS_USED] / 2.0
    out[e + 5 + state[L.COMBAT_KIND]] = 1.0
    if state[L.MOVER] >= 0:
        out[e + 11 + state[L.MOVER]] = 1.0
    if 0 <= state[L.LEGIO_OWNER] < 3:
        out[e + 11 + L.NUM_GENERALS + state[L.LEGIO_OWNER]] = 1.0
    out[e + 14 + L.NUM_GENERALS] = 1.0 if state[L.ARMY_POS + L.SPECIAL] == L.GONE else 0.0
    out[e + 15 + L.NUM_GENERALS] = 1.0 if state[L.GEN_POS + L.PROCONSUL] == L.GONE else 0.0


@jit
def rome_aims(state, params):
    """What Rome has of its aims, each in [0, 1]: the share of the Hispanic capitals
    garrisoned, the share of all revolt counters in the reserve, and 1 / (1 + revolts in
    the Roman provinces)."""
    capitals, reserve, roman_revolts = aim_counts(state)
    return scaled_aims(capitals, reserve, roman_revolts)


@jit
def scaled_aims(capitals, reserve, roman_revolts):
    """``rome_aims`` from the counts of ``board.aim_counts``."""
    share = min(max(reserve, 0) / D.TOTAL_REVOLTS, 1.0)
    return capitals / D.NUM_HISPANIC, share, 1.0 / (1.0 + roman_revolts)


@jit
def rome_progress(state, params):
    """Rome's progress toward victory in [0, 1] (MCTS's position value): the standing's
    weights on ``rome_aims`` (0.45 capitals, 0.25 reserve, 0.15 clear) and 0.15 x the
    share of the track's time left (``STANDING_*``, ``PROGRESS_TIME`` in layout.py)."""
    capitals, reserve, clear = rome_aims(state, params)
    limit = D.SCEN_TRACK_LIMIT[params[L.P_SCENARIO]]
    time_left = max(limit - state[L.TRACK], 0) / max(limit, 1)
    return (
        L.STANDING_CAPITALS * capitals
        + L.STANDING_RESERVE * reserve
        + L.STANDING_CLEAR * clear
        + L.PROGRESS_TIME * time_left
    )


@jit
def rome_standing(state, params):
    """What the ``progress`` reward pays for, in [0, 1]: ``rome_progress`` without the
    time (which only runs out): the ``STANDING_*`` weights on ``rome_aims`` over their sum."""
    capitals, reserve, clear = rome_aims(state, params)
    return weighted_standing(capitals, reserve, clear)


@jit
def weighted_standing(capitals, reserve, clear):
    """The ``STANDING_*`` weights on Rome's scaled aims, over their sum."""
    weighted = (
        L.STANDING_CAPITALS * capitals + L.STANDING_RESERVE * reserve + L.STANDING_CLEAR * clear
    )
    return weighted / (L.STANDING_CAPITALS + L.STANDING_RESERVE + L.STANDING_CLEAR)


@jit
def start_standing(state):
    """Rome's standing at the first position (``START_AIMS``, kept by ``board.record_start``)."""
    capitals, reserve, clear = scaled_aims(
        state[L.START_AIMS], state[L.START_AIMS + 1], state[L.START_AIMS + 2]
    )
    return weighted_standing(capitals, reserve, clear)


@jit
def returns(state: np.ndarray, params: np.ndarray, out: np.ndarray) -> None:
    """+1 to every general on a Roman victory, -1 on a Hispanic victory. The ``progress``
    reward adds ``PROGRESS_WEIGHT`` x what ``rome_standing`` gained since the first
    position (``START_AIMS``; version 4: before, the standing itself, so returns began
    above 0 though no reward had been paid), the end included (each decision is paid the
    standing it gained; a lost game that garrisoned capitals scores more than one that did
    not, and any win more than any loss)."""
    out[:] = 0.0
    w = state[L.WINNER]
    v = 1.0 if w == L.W_ROME else (-1.0 if w == L.W_HISPANIA else 0.0)
    if params[L.P_REWARD] == 1:
        v += L.PROGRESS_WEIGHT * (rome_standing(state, params) - start_standing(state))
    for p in range(params[P_NUM_PLAYERS]):
        out[p] = v
    if params[L.P_HISPANO] != 0:
        out[L.HISPANO] = -v  # the Hispano player wins when Rome loses

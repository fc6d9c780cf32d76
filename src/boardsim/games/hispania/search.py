"""What the generic search (``core/search/``) needs from Hispania.

Compiled into the rules namespace by ``bind_engine`` (not imported as a module).
The whole board is public (``observe``) and the Hispanic system is dice, so
``determinize`` changes nothing. ``prune`` drops the Roman steps that only undo
another (ungarrison, the Legio disc). ``evaluate_position`` measures Rome's progress
toward its victory (the rules' ``rome_progress``: garrisoned capitals, revolts left
in the reserve, the Roman provinces free of revolt, time left), kept inside
``(-0.9, 0.9)`` so that a real victory or defeat always counts more than any position.
"""

from boardsim.core.header import (
    H_ACTOR,
    P_NUM_PLAYERS,
)
from boardsim.core.jit import jit
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.outputs import rome_progress

VALUE_CAP = 0.9


@jit
def determinize(state, params, player, prng):
    """Nothing is hidden in Hispania: the state is its own determinization."""
    return


@jit
def search_prune(state, params, mask):
    """In the Roman phase, never search taking back a garrison or the Legio disc (a
    denarius for nothing). (A chosen combat or a selected general is never cancelled in
    the rules themselves, ledger row 25, so no choose-and-cancel loop is left to prune.)"""
    if state[L.PHASE] != L.PH_ROMAN or state[H_ACTOR] == L.HISPANO:
        return
    if state[L.PEND_KIND] == 0 and state[L.MOVER] < 0:
        mask[L.A_UNGARRISON] = 0
        mask[L.A_UNLEGIO] = 0


@jit
def evaluate_position(state, params, out):
    """Every general gets Rome's progress mapped to (-0.9, 0.9); the Hispano player its
    opposite."""
    v = VALUE_CAP * (2.0 * rome_progress(state, params) - 1.0)
    for p in range(params[P_NUM_PLAYERS]):
        out[p] = v
    if params[L.P_HISPANO] != 0:
        out[L.HISPANO] = -v

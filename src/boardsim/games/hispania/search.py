"""What the generic search (``core/mcts_template.py``) needs from Hispania.

Compiled into the rules namespace by ``bind_engine`` (not imported as a module).
The whole board is public (``observe``) and the Hispanic system is dice, so
``determinize`` changes nothing. ``prune`` drops the Roman steps that only undo
another (cancel, ungarrison). ``evaluate_position`` measures Rome's progress
toward its victory (the rules' ``rome_progress``: garrisoned capitals, revolts left
in the reserve, the Roman provinces free of revolt, time left), kept inside
``(-0.9, 0.9)`` so that a real victory or defeat always counts more than any position.
"""

from boardsim.core.header import (
    H_ACTOR,
    P_NUM_PLAYERS,
)
from boardsim.core.jit import jit
from boardsim.games.hispania.layout import (
    A_CANCEL,
    A_UNGARRISON,
    A_UNLEGIO,
    HISPANO,
    MOVER,
    NUM_ACTIONS,
    P_HISPANO,
    PEND_KIND,
    PH_ROMAN,
    PHASE,
)
from boardsim.games.hispania.outputs import rome_progress

VALUE_CAP = 0.9


@jit
def determinize(state, params, player, prng):
    """Nothing is hidden in Hispania: the state is its own determinization."""
    return


@jit
def search_prune(state, params, mask):
    """In the Roman phase, never search undoing a step: cancelling a chosen combat or a
    selected general (free, so the search could repeat choose-and-cancel for ever) or
    taking back a garrison or the Legio disc (a denarius for nothing). Left as is when
    nothing else is legal (a general with no denarii left to move must cancel)."""
    if state[PHASE] != PH_ROMAN or state[H_ACTOR] == HISPANO:
        return
    if state[PEND_KIND] == 0 and state[MOVER] < 0:
        mask[A_UNGARRISON] = 0
        mask[A_UNLEGIO] = 0
        return
    others = 0
    for a in range(NUM_ACTIONS):
        if a != A_CANCEL:
            others += mask[a]
    if others > 0:
        mask[A_CANCEL] = 0


@jit
def evaluate_position(state, params, out):
    """Every general gets Rome's progress mapped to (-0.9, 0.9); the Hispano player its
    opposite."""
    v = VALUE_CAP * (2.0 * rome_progress(state, params) - 1.0)
    for p in range(params[P_NUM_PLAYERS]):
        out[p] = v
    if params[P_HISPANO] != 0:
        out[HISPANO] = -v

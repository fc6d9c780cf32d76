"""Small compiled pieces the games' kernels share (``games/<game>/rules.py``, ``policy.py``).

Each is inlined into its caller (:func:`~boardsim.core.jit.jit_inline`): the compiled code
is the same as when every game wrote it out itself.
"""

from __future__ import annotations

import numpy as np

from boardsim.core import header as H
from boardsim.core.jit import jit_inline


@jit_inline
def mark_over(state: np.ndarray) -> None:
    """Mark ``state``'s header as a game that is over: the terminal flag, TERMINAL to act,
    no chance node."""
    state[H.H_FLAGS] |= H.FLAG_TERMINAL
    state[H.H_ACTOR] = H.TERMINAL
    state[H.H_CHANCE_KIND] = 0


@jit_inline
def fair_die(outcomes: np.ndarray, weights: np.ndarray, faces: int) -> int:
    """A die's chance node: outcomes ``1..faces``, equally likely; returns ``faces``."""
    for i in range(faces):
        outcomes[i] = i + 1
        weights[i] = 1
    return faces


@jit_inline
def legal_or_fallback(action: int, mask: np.ndarray, pass_action: int, num_actions: int) -> int:
    """A rule-based player's ``action`` if ``mask`` allows it; else passing if allowed; else
    the first legal action (``action`` itself when there is none)."""
    if action >= 0 and mask[action]:
        return action
    if mask[pass_action]:
        return pass_action
    for b in range(num_actions):
        if mask[b]:
            return b
    return action

# ruff: noqa: F821
"""The compiled rule-based player (``heuristic_action``).

Compiled into the rules namespace by ``bind_engine`` (not imported as a module).
Until this game's heuristic lands it plays uniformly random legal moves.
"""

from boardsim.core.jit import jit


@jit
def heuristic_action(state, params, mask, prng):
    """Uniformly random over the legal actions (the heuristic is not written yet)."""
    return random_legal(state, params, mask, prng)

"""Hispania's compiled rules: small kernels named after the rulebook's rules.

numpy and numba only. The state layout is in ``layout.py``; every die roll is a
chance node (``chance_weights`` / ``apply_chance``); options are params ints.
Decisions where the rulebook is silent are documented in ``docs/rules/hispania.md``.

This module is the face the engine bundle reads (``GameKernels.from_package``): the seven kernels of
the engine's contract, each defined in the module of the rules it belongs to. Each
module imports only those listed before it:

* ``board.py``: board queries (who stands where, revolts, the victory check);
* ``movement.py``: the generals' moves (the cheapest-move search), fleets, armies;
* ``combat.py``: combat values and results, the armies' attack targets;
* ``setup.py``: the set-up (roads, placing and re-entering generals, scenarios);
* ``flow.py``: the game flow, ``init`` and ``advance`` (one step per phase);
* ``chance.py``: the dice, ``chance_weights`` and ``apply_chance``;
* ``hispano.py``: the Hispano player's decisions (variant);
* ``decisions.py``: the players' decisions, ``legal_mask`` and ``apply_action``;
* ``outputs.py``: ``observe``, ``returns`` and Rome's standing and progress.
"""

from __future__ import annotations

from boardsim.games.hispania.chance import apply_chance, chance_weights
from boardsim.games.hispania.decisions import apply_action, legal_mask
from boardsim.games.hispania.flow import init
from boardsim.games.hispania.layout import (
    MAX_CHANCE_OUTCOMES,
    MAX_PLAYERS,
    NUM_ACTIONS,
    OBS_SIZE,
    STATE_SIZE,
)
from boardsim.games.hispania.outputs import observe, returns

__all__ = [
    "MAX_CHANCE_OUTCOMES",
    "MAX_PLAYERS",
    "NUM_ACTIONS",
    "OBS_SIZE",
    "STATE_SIZE",
    "apply_action",
    "apply_chance",
    "chance_weights",
    "init",
    "legal_mask",
    "observe",
    "returns",
]

"""The bounds of each feature of Farrapos's observation (``rules.observe``), for the envs'
``Box`` spaces (``GameDefinition.observation_bounds``).

Each bound is one the rules or the validator guarantee (``validate.py`` refuses a position
outside it, and accepts every position of real play): a count of pieces in a city is at
most the pieces of that kind a side has; the VP at most every city's VP, every region's
bonus and the ports' bonus; a battle strength at most the validator's ``MAX_STRENGTH``.
The features are seen from either side, so a "mine" or "theirs" count takes the larger
side's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from boardsim.games.farrapos.data import (
    CITY_VP,
    PIECE_SIDE,
    PIECE_TYPE,
    REGION_BONUS,
    T_MILITIA,
)
from boardsim.games.farrapos.layout import (
    CITY_FEATURES,
    GLOBAL_FEATURES,
    OBS_CITY,
    OBS_GLOBAL,
    OBS_PIECE,
    OBS_SIZE,
    OBS_TARGET,
    PIECE_FEATURES,
    C,
    P,
)
from boardsim.games.farrapos.rules import VP_SCALE
from boardsim.games.farrapos.validate import MAX_STRENGTH


def most_vp(options: Mapping[str, Any]) -> int:
    """The most VP a side can hold: every city's, every region's bonus (shifted by
    ``region_bonus_shift``, at least 0) and the ports' bonus."""
    shift = int(options["region_bonus_shift"])
    regions = sum(max(0, int(b) + shift) for b in REGION_BONUS)
    return int(CITY_VP.sum()) + regions + int(options["ports_bonus"])


def side_counts() -> tuple[int, int]:
    """The most military units and the most militia one side has."""
    units = max(int(((PIECE_SIDE == s) & (PIECE_TYPE != T_MILITIA)).sum()) for s in (0, 1))
    militia = max(int(((PIECE_SIDE == s) & (PIECE_TYPE == T_MILITIA)).sum()) for s in (0, 1))
    return units, militia


def observation_bounds(options: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of every feature of the observation, for the resolved ``options``."""
    low = np.zeros(OBS_SIZE, np.float64)
    high = np.ones(OBS_SIZE, np.float64)  # flags and one-hot rows: 0 or 1
    units, militia = side_counts()
    cities = OBS_CITY + np.arange(C) * CITY_FEATURES
    high[cities + 2] = CITY_VP / 4.0
    for theirs in (0, 3):  # full MU, reduced MU, militia in the city: mine, then theirs
        high[cities + 3 + theirs] = units
        high[cities + 4 + theirs] = units
        high[cities + 5 + theirs] = militia
    pieces = OBS_PIECE + np.arange(P) * PIECE_FEATURES
    low[pieces + 5] = -1.0  # the city / (C - 1), -1 off the board
    g = OBS_GLOBAL
    high[g + 4 : g + 6] = most_vp(options) / VP_SCALE
    high[g + 6 : g + 8] = MAX_STRENGTH / VP_SCALE
    assert g + GLOBAL_FEATURES == OBS_TARGET  # the mode's one-hot, then the target's
    return low.astype(np.float32), high.astype(np.float32)

"""The bounds of each feature of Hispania's observation (``outputs.observe``), for the envs'
``Box`` spaces (``GameDefinition.observation_bounds``).

Each bound is one the validator guarantees (``validate.py`` refuses a position outside it,
and accepts every position of real play), read for the game's own params: the revolts of a
space at most the discs it holds; the denarii at most the level's; the time track at most
its scenario's last space; a general's garrisons in reserve at most the level's; the roads
kept at most the level's roads (under Ingenivm; none are kept without it, but the bound
stays the level's, as Gymnasium warns of a feature whose low is its high).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from boardsim.core.header import PARAMS_HEADER
from boardsim.games.hispania import game_params
from boardsim.games.hispania.data import (
    NUM_CITIES,
    NUM_SPACES,
    SCEN_TRACK_LIMIT,
    TOTAL_REVOLTS,
)
from boardsim.games.hispania.layout import (
    NUM_GENERALS,
    OBS_EXTRA,
    OBS_PER_SPACE,
    OBS_SCALARS,
    OBS_SIZE,
    OBS_SPACES,
    P_DENARII,
    P_GARRISONS,
    P_ROADS,
    P_SCENARIO,
    PK_ASSASSINATE,
    STACK,
)


def observation_bounds(options: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of every feature of the observation, for the resolved ``options``."""
    params = np.asarray([0] * PARAMS_HEADER + game_params(dict(options)), np.int64)
    low = np.zeros(OBS_SIZE, np.float64)
    high = np.ones(OBS_SIZE, np.float64)  # flags, one-hot rows, dice/6 and 0..2 counts/2
    spaces = OBS_SPACES + np.arange(NUM_SPACES) * OBS_PER_SPACE
    high[spaces] = np.where(np.arange(NUM_SPACES) < NUM_CITIES, STACK, 1) / 3.0  # revolts
    for colour in range(1, NUM_GENERALS + 1):  # garrison discs of each colour, a third each
        high[spaces + colour] = STACK / 3.0
    s = OBS_SCALARS
    high[s] = params[P_DENARII] / 8.0
    high[s + 1] = SCEN_TRACK_LIMIT[params[P_SCENARIO]] / 11.0
    high[s + 2] = TOTAL_REVOLTS / 22.0  # the revolts' reserve
    high[s + 3] = PK_ASSASSINATE / 2.0  # the pending kind
    high[s + 4] = NUM_SPACES / 49.0  # the pending target + 1
    high[s + 5] = params[P_GARRISONS] / 5.0  # own garrisons in reserve
    high[OBS_EXTRA + 3] = params[P_ROADS] / 5.0  # roads kept
    return low.astype(np.float32), high.astype(np.float32)

"""The bounds of each feature of the race's observation (``rules.observe``), for the envs'
``Box`` spaces (``GameDefinition.observation_bounds``).

Each bound is one the rules or the validator guarantee (``validate.py`` refuses a position
outside it, and accepts every position of real play): a count of cards of a kind is at
most the deck's cards of that kind; a player's supply and the counters on a space at most
the counters each player starts with (the validator counts them back to it); the VT at
most what every country awards at its independence (its closing card, and the best place
for each player).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from boardsim.games.liberation.data import (
    CLOSING_CARD_VT,
    KIND_COUNT,
    KIND_FORCE,
    NUM_COUNTRIES,
    NUM_SPACES,
    OTHER_VT,
    PLACE_VT,
)
from boardsim.games.liberation.layout import (
    OBS_CARDS,
    OBS_GLOBAL,
    OBS_HAND,
    OBS_PLAYER_WIDTH,
    OBS_PLAYERS,
    OBS_SIZE,
    OBS_SPACE_WIDTH,
    OBS_SPACES,
    K,
    P,
)


def most_vt(num_players: int) -> int:
    """The most VT the players can hold together: each country's closing card and the best
    place's award for every player (the validator's bound)."""
    best_place = max(OTHER_VT, int(PLACE_VT.max()))
    return NUM_COUNTRIES * (CLOSING_CARD_VT + best_place * num_players)


def observation_bounds(options: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of every feature of the observation, for the resolved ``options``."""
    n = int(options["num_players"])
    counters = int(options["counters"])
    cards = int(KIND_COUNT.sum())
    low = np.zeros(OBS_SIZE, np.float64)
    high = np.ones(OBS_SIZE, np.float64)  # flags and one-hot rows: 0 or 1
    high[OBS_GLOBAL + 1] = (n - 1) / P  # the mover, counted from the observer
    high[OBS_GLOBAL + 2] = cards / 80.0  # the draw pile
    players = OBS_PLAYERS + np.arange(P) * OBS_PLAYER_WIDTH
    high[players + 1 + NUM_SPACES] = counters / 30.0  # supply
    high[players + 2 + NUM_SPACES] = most_vt(n) / 30.0  # VT
    high[players + 3 + NUM_SPACES] = cards / 5.0  # hand size
    high[OBS_HAND : OBS_HAND + K] = KIND_COUNT  # own hand, discards, removed, selected
    for row in range(3):
        high[OBS_CARDS + row * K : OBS_CARDS + (row + 1) * K] = KIND_COUNT
    spaces = OBS_SPACES + np.arange(NUM_SPACES) * OBS_SPACE_WIDTH
    high[spaces + P] = int(KIND_FORCE.max()) / 8.0  # the tucked card's force
    high[spaces + P + 1] = counters / 5.0  # its counters
    return low.astype(np.float32), high.astype(np.float32)

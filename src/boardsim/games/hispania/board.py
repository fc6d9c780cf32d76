"""Hispania's board queries: who stands where, the revolts, and the victory check.

The lowest of the rules' modules (``rules.py`` lists them): numpy and numba only, reading
the state of ``layout.py`` and the board of ``data.py``.
"""

from __future__ import annotations

import numpy as np

from boardsim.core.jit import jit
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L

NUM_BASE_ARMIES = 3  # the special army (slot 3) only enters under the Terror variant
NUM_ROMAN_GENERALS = 3  # the proconsul (slot 3) only enters under the Proconsvl variant


@jit
def general_at(state: np.ndarray, s: int) -> int:
    """The general on space ``s``, or -1."""
    for g in range(L.NUM_GENERALS):
        if state[L.GEN_POS + g] == s:
            return g
    return -1


@jit
def army_at(state: np.ndarray, c: int) -> int:
    """The army slot on city ``c``, or -1."""
    for k in range(L.NUM_ARMY_SLOTS):
        if state[L.ARMY_POS + k] == c:
            return k
    return -1


@jit
def garrison_count(state: np.ndarray, c: int) -> int:
    n = 0
    for i in range(L.STACK):
        if state[L.GARR + c * L.STACK + i] != 0:
            n += 1
    return n


@jit
def province_army(state: np.ndarray, p: int) -> int:
    """The army slot standing in province ``p``, or -1."""
    for k in range(L.NUM_ARMY_SLOTS):
        c = state[L.ARMY_POS + k]
        if c >= 0 and D.CITY_PROVINCE[c] == p:
            return k
    return -1


@jit
def province_revolt_cities(state: np.ndarray, p: int) -> tuple[int, int]:
    """How many cities of province ``p`` hold a revolt, and how many cities it has."""
    n = 0
    total = 0
    for c in range(D.NUM_CITIES):
        if D.CITY_PROVINCE[c] == p:
            total += 1
            if state[L.REVOLTS + c] > 0:
                n += 1
    return n, total


@jit
def is_adjacent(a: int, b: int) -> bool:
    return D.ADJ_LINK[a, b] >= 0


@jit
def on_network(state: np.ndarray, c: int) -> bool:
    """City ``c`` already has a road."""
    for j in range(D.DEGREE[c]):
        n = D.NEIGHBOURS[c, j]
        if state[L.ROADS + D.ADJ_LINK[c, n]] != 0:
            return True
    return False


@jit
def place_revolt(state: np.ndarray, s: int) -> bool:
    """Take a revolt from the reserve onto ``s``; none left is a Hispanic victory."""
    if state[L.RESERVE] <= 0:
        state[L.WINNER] = L.W_HISPANIA
        return False
    state[L.RESERVE] -= 1
    state[L.REVOLTS + s] += 1
    return True


@jit
def roman_victory(state: np.ndarray) -> bool:
    """Garrisons in the 6 Hispanic capitals and no revolt in the Roman provinces."""
    for p in range(D.NUM_HISPANIC):
        if state[L.GARR + (p * 6 + 5) * L.STACK] == 0:
            return False
    for c in range(D.NUM_CITIES):
        if D.CITY_PROVINCE[c] >= D.NUM_HISPANIC and state[L.REVOLTS + c] > 0:
            return False
    return True


@jit
def absent_generals(state: np.ndarray) -> int:
    """Generals off the board (each blocks 1 denarius); a dead proconsul blocks none."""
    n = 0
    for g in range(NUM_ROMAN_GENERALS):
        if state[L.GEN_POS + g] < 0:
            n += 1
    return n


@jit
def aim_counts(state: np.ndarray) -> tuple[int, int, int]:
    """Rome's aims as counts: the Hispanic capitals garrisoned, the revolt counters in the
    reserve and the revolts in the Roman provinces (``outputs.rome_aims`` scales them)."""
    capitals = 0
    for p in range(D.NUM_HISPANIC):
        if state[L.GARR + (p * 6 + 5) * L.STACK] != 0:
            capitals += 1
    roman_revolts = 0
    for c in range(D.NUM_CITIES):
        if D.CITY_PROVINCE[c] >= D.NUM_HISPANIC:
            roman_revolts += state[L.REVOLTS + c]
    return capitals, state[L.RESERVE], roman_revolts


@jit
def record_start(state: np.ndarray) -> None:
    """Keep Rome's aims at the first position in ``START_AIMS`` (the progress reward's zero)."""
    capitals, reserve, roman_revolts = aim_counts(state)
    state[L.START_AIMS] = capitals
    state[L.START_AIMS + 1] = reserve
    state[L.START_AIMS + 2] = roman_revolts

"""Combat values: sieges, the generals' attacks and the armies' attacks, and their results.

The Roman value is the die, the denarii spent and the general's garrison support, doubled
for every other general linked to the target. Against it stands the shield (a siege) or
the Hispanic value (an attack): the die, Hispano's denarii and the revolt group, doubled
for every army linked to the general (other than the attacked one), and again for the
special army (Terror). An army blocked by a garrison or a general attacks it the same
way. Also what an army may attack when the Hispano player leads it.

Three readings the rulebook leaves open are options (params words): who wins a tie
(``combat_ties``, :func:`attacker_wins`), which revolts count in an army's value
(``hispanic_revolts``, :func:`army_revolts`) and whether a beaten army takes a revolt
with it (``beaten_army``, :func:`army_beaten`).
"""

from __future__ import annotations

import numpy as np

from boardsim.core.jit import jit
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.board import (
    NUM_ROMAN_GENERALS,
    army_at,
    garrison_count,
    general_at,
    is_adjacent,
)


@jit
def garrison_support(state: np.ndarray, g: int) -> int:
    """His garrisons in groups connected to general ``g``, plus a praetor's "+1" disc."""
    s = state[L.GEN_POS + g]
    comp = np.full(D.NUM_CITIES, -1, np.int32)
    stack = np.zeros(D.NUM_CITIES, np.int32)
    total = 0
    reach = np.zeros(D.NUM_SPACES, np.uint8)
    if s >= 0:
        reach[s] = 1
    for c0 in range(D.NUM_CITIES):
        if comp[c0] >= 0 or _support_discs(state, c0, g) == 0:
            continue
        # flood one group of cities holding his garrisons
        comp[c0] = c0
        top = 0
        stack[top] = c0
        top += 1
        members = 0
        discs = 0
        connected = False
        first = c0
        while top > 0:
            top -= 1
            c = stack[top]
            members += 1
            discs += _support_discs(state, c, g)
            if s >= 0 and (c == s or is_adjacent(c, s)):
                connected = True
            for j in range(D.DEGREE[c]):
                v = D.NEIGHBOURS[c, j]
                if v < D.NUM_CITIES and comp[v] < 0 and _support_discs(state, v, g) > 0:
                    comp[v] = first
                    stack[top] = v
                    top += 1
        if connected:
            total += discs
            for c in range(D.NUM_CITIES):
                if comp[c] == first:
                    reach[c] = 1
    if g < 2 and s >= 0:
        prov = 6 + g
        plus = False
        for x in range(D.NUM_SPACES):
            if reach[x] == 0:
                continue
            if x < D.NUM_CITIES and D.CITY_PROVINCE[x] == prov:
                plus = True
            for j in range(D.DEGREE[x]):
                v = D.NEIGHBOURS[x, j]
                if v < D.NUM_CITIES and D.CITY_PROVINCE[v] == prov:
                    plus = True
        if plus:
            total += 1
    return total


@jit
def _support_discs(state: np.ndarray, c: int, g: int) -> int:
    """Discs of city ``c`` that count as general ``g``'s: his colour, and (for the three
    generals) the Legio Hispana disc, which every general considers his."""
    n = 0
    for i in range(L.STACK):
        col = state[L.GARR + c * L.STACK + i]
        if col == g + 1 or (col == L.LEGIO_COLOUR and g < NUM_ROMAN_GENERALS):
            n += 1
    return n


@jit
def own_discs(state: np.ndarray, c: int, colour: int) -> int:
    n = 0
    for i in range(L.STACK):
        if state[L.GARR + c * L.STACK + i] == colour:
            n += 1
    return n


@jit
def revolt_group(state: np.ndarray, s: int) -> int:
    """Revolt discs in the connected group of revolt spaces containing ``s``."""
    seen = np.zeros(D.NUM_SPACES, np.uint8)
    stack = np.zeros(D.NUM_SPACES, np.int32)
    if state[L.REVOLTS + s] == 0:
        return 0
    seen[s] = 1
    stack[0] = s
    top = 1
    total = 0
    while top > 0:
        top -= 1
        u = stack[top]
        total += state[L.REVOLTS + u]
        for j in range(D.DEGREE[u]):
            v = D.NEIGHBOURS[u, j]
            if seen[v] == 0 and state[L.REVOLTS + v] > 0:
                seen[v] = 1
                stack[top] = v
                top += 1
    return total


@jit
def army_revolts(state: np.ndarray, params: np.ndarray, a: int) -> int:
    """The revolts in the Hispanic value of the army on space ``a``: the discs of the
    connected group of revolt spaces containing ``a`` (``hispanic_revolts="group"``, pirate
    seas included), or only the discs on ``a`` itself (``"city"``)."""
    if params[L.P_HISPANIC_REVOLTS] != 0:
        return state[L.REVOLTS + a]
    return revolt_group(state, a)


@jit
def attacker_wins(params: np.ndarray, attacker: int, defender: int) -> bool:
    """The attacker's value beats the defender's; a tie is the defender's
    (``combat_ties="defender"``) or the attacker's (``"attacker"``), in every combat."""
    if params[L.P_COMBAT_TIES] != 0:
        return attacker >= defender
    return attacker > defender


@jit
def generals_connected(state: np.ndarray, t: int, exclude: int) -> int:
    """Generals on the board linked to space ``t`` (other than ``exclude``)."""
    n = 0
    for g in range(L.NUM_GENERALS):
        s = state[L.GEN_POS + g]
        if g != exclude and s >= 0 and is_adjacent(s, t):
            n += 1
    return n


@jit
def armies_connected(state: np.ndarray, t: int, exclude: int) -> int:
    """Armies on the board linked to space ``t`` (other than slot ``exclude``)."""
    n = 0
    for k in range(L.NUM_ARMY_SLOTS):
        c = state[L.ARMY_POS + k]
        if k != exclude and c >= 0 and is_adjacent(c, t):
            n += 1
    return n


@jit
def attack_support(state: np.ndarray, g: int, t: int) -> int:
    """His support, except towards the north of the Durius while the Lethe road lies."""
    if state[L.LETHE] != 0 and t < D.NUM_CITIES and D.LETHE_NORTH[t] != 0:
        return 0
    return garrison_support(state, g)


@jit
def resolve_siege(
    state: np.ndarray, params: np.ndarray, g: int, t: int, spent: int, die: int
) -> bool:
    """A general's siege: remove one revolt if the Roman value beats the shield value."""
    roman = (die + spent + attack_support(state, g, t)) << generals_connected(state, t, g)
    shield = D.CITY_SHIELD[t] if t < D.NUM_CITIES else t - D.FIRST_SEA + 1
    shield += state[L.HISP_BONUS]  # Hispano's denarii add to the shield
    shield = shield << armies_connected(state, state[L.GEN_POS + g], -1)
    if attacker_wins(params, roman, shield):
        state[L.REVOLTS + t] -= 1
        state[L.RESERVE] += 1
        return True
    return False


@jit
def army_beaten(state: np.ndarray, params: np.ndarray, k: int) -> None:
    """Army ``k``, beaten by a general, goes back to the reserve; the revolts of its city
    stay (``beaten_army="revolts_stay"``), or one goes to the reserve too
    (``"revolt_removed"``)."""
    a = state[L.ARMY_POS + k]
    state[L.ARMY_POS + k] = -1
    if params[L.P_BEATEN_ARMY] != 0 and state[L.REVOLTS + a] > 0:
        state[L.REVOLTS + a] -= 1
        state[L.RESERVE] += 1


@jit
def remove_general(state: np.ndarray, g: int) -> None:
    """A defeated general leaves the board (he blocks 1 denarius until he returns); the
    proconsul dies and leaves the game."""
    state[L.GEN_POS + g] = L.GONE if g == L.PROCONSUL else -1


@jit
def display_value(state: np.ndarray, params: np.ndarray, k: int, die_h: int) -> int:
    """The First Repression's Display of Power (ledger S5), army ``k`` rolling ``die_h``:
    the bare die (``display_of_power="bare_die"``), or with ``"named_only"`` the die with
    the Hispano player's denarii, doubled for the special army: only the revolts and the
    x2 per linked army go."""
    if params[L.P_DISPLAY_OF_POWER] == 0:
        return die_h
    value = die_h + state[L.HISP_BONUS]
    if k == L.SPECIAL:
        value *= 2
    return value


@jit
def resolve_attack(
    state: np.ndarray, params: np.ndarray, g: int, t: int, spent: int, die_r: int, die_h: int
) -> bool:
    """A general attacks the army on ``t``: the loser's meeple leaves the board."""
    k = army_at(state, t)
    roman = (die_r + spent + attack_support(state, g, t)) << generals_connected(state, t, g)
    own = die_h + state[L.HISP_BONUS] + army_revolts(state, params, t)
    hisp = own << armies_connected(state, state[L.GEN_POS + g], k)
    if k == L.SPECIAL:
        hisp *= 2  # Terror: the special army doubles its own value
    if state[L.DISPLAY] != 0:
        hisp = display_value(state, params, k, die_h)
    if attacker_wins(params, roman, hisp):
        army_beaten(state, params, k)
        return True
    remove_general(state, g)
    return False


@jit
def garrison_beaten(state: np.ndarray, params: np.ndarray, t: int) -> None:
    """The garrison on top of city ``t``, beaten by an army, leaves the city: back to its
    general's reserve (``beaten_garrison="reserve"``) or out of the game (``"lost"``); the
    Legio Hispana disc goes back to the consul's reserve either way (V6, the RB's own)."""
    for i in range(L.STACK - 1, -1, -1):
        col = state[L.GARR + t * L.STACK + i]
        if col != 0:
            state[L.GARR + t * L.STACK + i] = 0
            if col == L.LEGIO_COLOUR:
                state[L.LEGIO_OWNER] = 2  # back to the consul's reserve
            elif params[L.P_BEATEN_GARRISON] == 0:
                state[L.GARR_RESERVE + col - 1] += 1
            return


@jit
def resolve_army_attack(
    state: np.ndarray, params: np.ndarray, kind: int, k: int, t: int, die_h: int, die_r: int
) -> None:
    """An army blocked by a garrison or a general attacks it; the victor does not advance."""
    a = state[L.ARMY_POS + k]
    own = die_h + state[L.HISP_BONUS] + army_revolts(state, params, a)
    hisp = own << armies_connected(state, t, k)
    if k == L.SPECIAL:
        hisp *= 2
    if state[L.DISPLAY] != 0:
        hisp = display_value(state, params, k, die_h)
    if kind == L.CB_ARMY_GARRISON:
        roman = D.CITY_SHIELD[t] << generals_connected(state, a, -1)
        if attacker_wins(params, hisp, roman):
            garrison_beaten(state, params, t)
        return
    g = general_at(state, t)
    roman = (die_r + garrison_support(state, g)) << generals_connected(state, a, g)
    if attacker_wins(params, hisp, roman):
        remove_general(state, g)
    else:
        army_beaten(state, params, k)


@jit
def hispano_target(state: np.ndarray, k: int, t: int) -> bool:
    """Hispano: army ``k`` may attack a garrison or general in city ``t`` linked to it."""
    a = state[L.ARMY_POS + k]
    if a < 0 or t >= D.NUM_CITIES or not is_adjacent(a, t):
        return False
    return general_at(state, t) >= 0 or garrison_count(state, t) > 0


@jit
def hispano_army_can_attack(state: np.ndarray, k: int) -> bool:
    a = state[L.ARMY_POS + k]
    if a < 0:
        return False
    for j in range(D.DEGREE[a]):
        if hispano_target(state, k, D.NEIGHBOURS[a, j]):
            return True
    return False


@jit
def any_hispano_attack(state: np.ndarray) -> bool:
    for k in range(L.NUM_ARMY_SLOTS):
        if hispano_army_can_attack(state, k):
            return True
    return False

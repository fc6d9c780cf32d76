"""Hispania's state validator: is an untrusted array a position the kernels handle safely?

``validate(state, params, where)`` returns 0, or the code of the first check that fails
with the index and the value at fault in ``where`` (``STATE_ERRORS`` has the words). It
checks what ``tests/hispania/invariants.py`` checks after every step of random games,
and what the kernels index with:

- every field in its range, and the variants' pieces only under their variants (the
  proconsul, the special army, the Legio Hispana disc, pirates, kept roads, Hispano's
  denarii, a scenario's events);
- conservation: the 22 revolts on the board, in the reserve and on the time track; each
  general's garrisons on the board or in his reserve; the fleets of the level;
- the board: garrison stacks packed, at most 3 discs a city, never with a revolt;
  armies on revolts, one a province; generals off revolts, at sea only on a fleet, one
  a space (but a general just back on his space); roads where roads may lie;
- the step of the game sequence (``PHASE``) with the player to move or the chance node,
  and with what that step reads: the combat being fought (its kind, target, general or
  army, dice), the choice being composed, the army moving, the revolt roll, the army
  being placed under Terror.

The engine adds the header and a legal action (``core/engine.py`` ``validate_state``).
"""

from __future__ import annotations

import numpy as np

from boardsim.core.checks import refuse
from boardsim.core.header import (
    CHANCE,
    FLAG_TERMINAL,
    FLAG_TRUNCATED,
    H_ACTOR,
    H_CHANCE_KIND,
    H_FLAGS,
)
from boardsim.core.jit import jit
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.board import (
    NUM_ROMAN_GENERALS,
    army_at,
    garrison_count,
    general_at,
    is_adjacent,
    province_army,
    roman_victory,
)
from boardsim.games.hispania.combat import hispano_army_can_attack, hispano_target
from boardsim.games.hispania.decisions import assassination_left, select_legal
from boardsim.games.hispania.flow import ordinary_armies_left
from boardsim.games.hispania.movement import move_armies_candidates
from boardsim.games.hispania.setup import any_road_legal

MAX_DENARII = int(D.LEVEL_VALUES[0].max())
MAX_CHANCE_KIND = L.CK_TERROR
NUM_COMBAT_KINDS = L.CB_ASSASSINATE + 1
COMBAT_PHASES = (L.PH_ROMAN_COMBAT, L.PH_ARMY_COMBAT, L.PH_H_REINFORCE, L.PH_H_COMBAT)
# the links a road may ever be built on (set-up, Ingenivm): land, between two non-capitals
ROAD_LINK = np.array(
    [
        D.LINK_SEA[li] == 0
        and D.CITY_CAPITAL[D.LINK_A[li]] == 0
        and D.CITY_CAPITAL[D.LINK_B[li]] == 0
        for li in range(D.NUM_LINKS)
    ],
    np.int32,
)

# ---------------------------------------------------------------- the checks, by code
E_PHASE = 1
E_TURN = 2
E_DENARII = 3
E_PEND_KIND = 4
E_PEND_TARGET = 5
E_COUNTER = 6
E_WINNER = 7
E_TRACK = 8
E_RESERVE = 9
E_REVOLT_PROV = 10
E_REVOLT_NUM = 11
E_CUR = 12
E_COMBAT_KIND = 13
E_COMBAT_TARGET = 14
E_COMBAT_ARMY = 15
E_COMBAT_SPENT = 16
E_DIE = 17
E_HELD_ROADS = 18
E_MOVER = 19
E_COMBAT_GEN = 20
E_LEGIO_OWNER = 21
E_TRAITORS_USED = 22
E_PLACE_CITY = 23
E_RESUME_PHASE = 24
E_HDENARII = 25
E_HISP_BONUS = 26
E_FLAG_WORD = 27
E_CHANCE_KIND = 28
E_ARMY_ORDER = 29
E_SETUP_CITY = 30
E_REVOLTS = 31
E_SEA_REVOLT = 32
E_GARRISON = 33
E_STACK_GAP = 34
E_STACK_FULL = 35
E_GARRISON_ON_REVOLT = 36
E_GARRISON_SUPPLY = 37
E_GARR_RESERVE = 38
E_LEGIO_DISC = 39
E_ARMY_POS = 40
E_ARMY_SLOT = 41
E_ARMY_OFF_REVOLT = 42
E_ARMIES_SHARE = 43
E_GEN_POS = 44
E_GENERAL_ON_REVOLT = 45
E_GENERAL_AT_SEA = 46
E_GENERALS_SHARE = 47
E_FLEET = 48
E_FLEET_COUNT = 49
E_FLEET_ON_PIRATES = 50
E_ROAD = 51
E_ROAD_LINK = 52
E_INITIAL_ROAD = 53
E_ROAD_COUNT = 54
E_REVOLT_COUNT = 55
E_OVER = 56
E_ROME_WON = 57
E_TRACK_END = 58
E_STOP_PHASE = 59
E_ACTOR = 60
E_CHANCE_NODE = 61
E_DECISION_KIND = 62
E_SETUP_REVOLT = 63
E_SETUP_ARMY = 64
E_SETUP_ROAD = 65
E_SETUP_PLACE = 66
E_REENTER = 67
E_ROMAN = 68
E_PENDING = 69
E_SELECTED = 70
E_COMBAT = 71
E_COMBAT_DICE = 72
E_MOVING_ARMY = 73
E_TERROR = 74
E_HISPANO = 75
E_IDLE_FIELD = 76
E_ARMY_PROVINCE = 77
E_START_AIMS = 78

STATE_ERRORS: dict[int, str] = {
    E_PHASE: f"PHASE = {{value}}: not a step of the game (1..{L.NUM_PHASES - 1})",
    E_TURN: "TURN = {value}: not 0 (Ulterior), 1 (Citerior) or 2 (consul)",
    E_DENARII: "DENARII = {value}: not 0 up to the level's denarii",
    E_PEND_KIND: "PEND_KIND = {value}: not 0..3",
    E_PEND_TARGET: f"PEND_TARGET = {{value}}: not a space (0..{D.NUM_SPACES - 1})",
    E_COUNTER: "COUNTER = {value}: out of range",
    E_WINNER: "WINNER = {value}: not 0 (none), 1 (Rome) or 2 (Hispania)",
    E_TRACK: "TRACK = {value}: not between the scenario's start and its last space",
    E_RESERVE: f"RESERVE = {{value}}: not 0..{D.TOTAL_REVOLTS}",
    E_REVOLT_PROV: f"REVOLT_PROV = {{value}}: not a Hispanic province (0..{D.NUM_HISPANIC - 1})",
    E_REVOLT_NUM: "REVOLT_NUM = {value}: not 0..6",
    E_CUR: f"CUR = {{value}}: not 0..{L.NUM_ARMY_SLOTS}",
    E_COMBAT_KIND: f"COMBAT_KIND = {{value}}: not 0..{NUM_COMBAT_KINDS - 1}",
    E_COMBAT_TARGET: f"COMBAT_TARGET = {{value}}: not a space (0..{D.NUM_SPACES - 1})",
    E_COMBAT_ARMY: f"COMBAT_ARMY = {{value}}: not -1 or an army slot (0..{L.NUM_ARMY_SLOTS - 1})",
    E_COMBAT_SPENT: "COMBAT_SPENT = {value}: not 0..3",
    E_DIE: "die word {index} = {value}: not 0..6",
    E_HELD_ROADS: "HELD_ROADS = {value}: negative, or roads kept without Ingenivm",
    E_MOVER: "MOVER = {value}: not -1 or a general who may be selected now",
    E_COMBAT_GEN: f"COMBAT_GEN = {{value}}: not a general (0..{L.NUM_GENERALS - 1})",
    E_LEGIO_OWNER: "LEGIO_OWNER = {value}: not -1 (placed) or a general's reserve under "
    "Legio Hispana, -2 (none) without it",
    E_TRAITORS_USED: "TRAITORS_USED = {value}: not 0..2, or used without the traitors rule",
    E_PLACE_CITY: f"PLACE_CITY = {{value}}: not a city (0..{D.NUM_CITIES - 1})",
    E_RESUME_PHASE: "RESUME_PHASE = {value}: not a step a placement resumes",
    E_HDENARII: "HDENARII = {value}: not 0..2, or Hispano's denarii without Hispano",
    E_HISP_BONUS: "HISP_BONUS = {value}: not 0..2, or outside a combat with Hispano",
    E_FLAG_WORD: "word {index} = {value}: not 0 or 1, or on without its scenario or variant",
    E_CHANCE_KIND: f"CHANCE_KIND (word 5) = {{value}}: not 0..{MAX_CHANCE_KIND}",
    E_ARMY_ORDER: "ARMY_ORDER[{index}] = {value}: not an army slot, -1 padded, each once",
    E_SETUP_CITY: "SETUP_CITY[{index}] = {value}: not -1 or a city of that province with a revolt",
    E_REVOLTS: "REVOLTS[{index}] = {value}: more than a space holds, or negative",
    E_SEA_REVOLT: "sea space {index} has {value} revolts (pirates) without the Pirates variant",
    E_GARRISON: "GARR word {index} = {value}: not 0 (empty), a general's colour 1-3 or the "
    "Legio Hispana disc (5, under its variant)",
    E_STACK_GAP: "city {index}: its garrison stack has a gap (discs are packed from the bottom)",
    E_STACK_FULL: "city {index}: {value} discs, more than 3",
    E_GARRISON_ON_REVOLT: "city {index}: a garrison on a revolt",
    E_GARRISON_SUPPLY: "general {index}: {value} garrisons on the board and in reserve, not the "
    "level's (at most the level's with beaten_garrison='lost')",
    E_GARR_RESERVE: "GARR_RESERVE[{index}] = {value}: negative, or the proconsul's (he has none)",
    E_LEGIO_DISC: "{value} Legio Hispana discs on the board, not what LEGIO_OWNER says",
    E_ARMY_POS: f"ARMY_POS[{{index}}] = {{value}}: not -2 (out), -1 (reserve) or a city "
    f"(0..{D.NUM_CITIES - 1})",
    E_ARMY_SLOT: "army slot {index} = {value}: the special army and the third army are in "
    "play only as Terror (and an assassination) says",
    E_ARMY_OFF_REVOLT: "army {index} stands on city {value}, which has no revolt",
    E_ARMIES_SHARE: "two armies in province {value} (or on one city)",
    E_GEN_POS: f"GEN_POS[{{index}}] = {{value}}: not -1 (off the board), a space "
    f"(0..{D.NUM_SPACES - 1}), or -2 (only the proconsul, dead or without Proconsvl)",
    E_GENERAL_ON_REVOLT: "general {index} stands on space {value}, which has a revolt",
    E_GENERAL_AT_SEA: "general {index} is at sea {value} without a fleet",
    E_GENERALS_SHARE: "two generals on space {value} (only a general just back may share, "
    "before his first move)",
    E_FLEET: "FLEET[{index}] = {value}: not 0 or 1",
    E_FLEET_COUNT: "{value} fleets, not the level's",
    E_FLEET_ON_PIRATES: "a fleet on sea {index}, which has pirates",
    E_ROAD: "ROADS[{index}] = {value}: not 0 or 1",
    E_ROAD_LINK: "a road on link {index}, where no road may lie",
    E_INITIAL_ROAD: "the printed road on link {index} is missing",
    E_ROAD_COUNT: "{value} roads placed or kept, where the set-up and the level make {index}",
    E_REVOLT_COUNT: f"{{value}} revolts on the board, in the reserve and on the track, not "
    f"{D.TOTAL_REVOLTS}",
    E_OVER: "PHASE = {value}: the game is over (not truncated) exactly in PHASE 16, with a winner",
    E_ROME_WON: "Rome has won (Hispanic capitals garrisoned, Roman provinces clear) but the "
    "game goes on",
    E_TRACK_END: "TRACK = {value}: the time track is full but the game goes on",
    E_STOP_PHASE: "PHASE = {value}: an automated step, where no decision or chance node waits",
    E_ACTOR: "ACTOR (word 2) = {value}: not who decides in this step",
    E_CHANCE_NODE: "CHANCE_KIND (word 5) = {value}: not the die this step rolls",
    E_DECISION_KIND: "a player decides but CHANCE_KIND (word 5) = {value}",
    E_SETUP_REVOLT: "the initial revolts: COUNTER = {value} is no province left to roll",
    E_SETUP_ARMY: "the initial armies: COUNTER = {value} does not fit the level or scenario",
    E_SETUP_ROAD: "the set-up roads: COUNTER = {value} does not fit the level, the player or "
    "the board",
    E_SETUP_PLACE: "the generals' set-up: COUNTER = {value} does not fit the player or the "
    "generals' places",
    E_REENTER: "a general re-enters (general {value}) but is on the board",
    E_ROMAN: "the Roman phase of general {index}: {value} (off the board or no denarii)",
    E_PENDING: "the chosen {index} (PEND_KIND) on space {value} is not one the general may make",
    E_SELECTED: "MOVER = {value}: a general selected outside the Roman phase, or with a "
    "choice he may not make",
    E_COMBAT: "combat kind {index} against space {value} is not one this step can fight",
    E_COMBAT_DICE: "the combat's dice ({index}) do not fit its kind and the step",
    E_MOVING_ARMY: "the army moving (ARMY_ORDER[CUR], slot {value}) is not on the board, or "
    "has no choice here",
    E_TERROR: "Terror's placement: {value} does not fit the armies left or the city",
    E_HISPANO: "Hispano decides ({value}) without the variant, denarii or a choice",
    E_IDLE_FIELD: "word {index} = {value}: set outside the step that uses it",
    E_ARMY_PROVINCE: "the army placed on city {value} joins another army's province",
    E_START_AIMS: "START_AIMS word {index} = {value}: not a count of capitals "
    f"(0..{D.NUM_HISPANIC}), revolt "
    f"counters in the reserve (0..{D.TOTAL_REVOLTS}) or revolts in the Roman provinces",
}


# ---------------------------------------------------------------- small queries
@jit
def is_over(state):
    flags = state[H_FLAGS]
    return (flags & FLAG_TERMINAL) != 0 and (flags & FLAG_TRUNCATED) == 0


@jit
def in_phase(ph, phases):
    for x in phases:
        if ph == x:
            return True
    return False


# ---------------------------------------------------------------- fields in range
@jit
def outside(state, word, low, high):
    """``state[word]`` is not in ``[low, high]``."""
    return state[word] < low or state[word] > high


@jit
def check_scalars(state, params, where):
    """Every scalar field in its range (and the variants' only under their variant)."""
    sc = params[L.P_SCENARIO]
    hispano = params[L.P_HISPANO] != 0
    if outside(state, L.PHASE, 1, L.NUM_PHASES - 1):
        return refuse(where, E_PHASE, L.PHASE, state[L.PHASE])
    if outside(state, L.TURN, 0, NUM_ROMAN_GENERALS - 1):
        return refuse(where, E_TURN, L.TURN, state[L.TURN])
    if outside(state, L.DENARII, 0, params[L.P_DENARII]):
        return refuse(where, E_DENARII, L.DENARII, state[L.DENARII])
    if outside(state, L.PEND_KIND, 0, L.PK_ASSASSINATE):
        return refuse(where, E_PEND_KIND, L.PEND_KIND, state[L.PEND_KIND])
    if outside(state, L.PEND_TARGET, 0, D.NUM_SPACES - 1):
        return refuse(where, E_PEND_TARGET, L.PEND_TARGET, state[L.PEND_TARGET])
    if outside(state, L.COUNTER, 0, 16):
        return refuse(where, E_COUNTER, L.COUNTER, state[L.COUNTER])
    if outside(state, L.WINNER, L.W_NONE, L.W_HISPANIA):
        return refuse(where, E_WINNER, L.WINNER, state[L.WINNER])
    if outside(state, L.TRACK, D.SCEN_TRACK[sc], D.SCEN_TRACK_LIMIT[sc]):
        return refuse(where, E_TRACK, L.TRACK, state[L.TRACK])
    if outside(state, L.RESERVE, 0, D.TOTAL_REVOLTS):
        return refuse(where, E_RESERVE, L.RESERVE, state[L.RESERVE])
    if outside(state, L.START_AIMS, 0, D.NUM_HISPANIC):
        return refuse(where, E_START_AIMS, L.START_AIMS, state[L.START_AIMS])
    for i in range(1, 3):
        if outside(state, L.START_AIMS + i, 0, D.TOTAL_REVOLTS):
            return refuse(where, E_START_AIMS, L.START_AIMS + i, state[L.START_AIMS + i])
    if outside(state, L.REVOLT_PROV, 0, D.NUM_HISPANIC - 1):
        return refuse(where, E_REVOLT_PROV, L.REVOLT_PROV, state[L.REVOLT_PROV])
    if outside(state, L.REVOLT_NUM, 0, 6):
        return refuse(where, E_REVOLT_NUM, L.REVOLT_NUM, state[L.REVOLT_NUM])
    if outside(state, L.CUR, 0, L.NUM_ARMY_SLOTS):
        return refuse(where, E_CUR, L.CUR, state[L.CUR])
    if outside(state, L.COMBAT_KIND, 0, NUM_COMBAT_KINDS - 1):
        return refuse(where, E_COMBAT_KIND, L.COMBAT_KIND, state[L.COMBAT_KIND])
    if outside(state, L.COMBAT_TARGET, 0, D.NUM_SPACES - 1):
        return refuse(where, E_COMBAT_TARGET, L.COMBAT_TARGET, state[L.COMBAT_TARGET])
    if outside(state, L.COMBAT_ARMY, -1, L.NUM_ARMY_SLOTS - 1):
        return refuse(where, E_COMBAT_ARMY, L.COMBAT_ARMY, state[L.COMBAT_ARMY])
    if outside(state, L.COMBAT_SPENT, 0, 3):
        return refuse(where, E_COMBAT_SPENT, L.COMBAT_SPENT, state[L.COMBAT_SPENT])
    if outside(state, L.DIE_R, 0, 6):
        return refuse(where, E_DIE, L.DIE_R, state[L.DIE_R])
    if outside(state, L.DIE_H, 0, 6):
        return refuse(where, E_DIE, L.DIE_H, state[L.DIE_H])
    if outside(state, L.HELD_ROADS, 0, params[L.P_ROADS] if params[L.P_INGENIVM] != 0 else 0):
        return refuse(where, E_HELD_ROADS, L.HELD_ROADS, state[L.HELD_ROADS])
    if outside(state, L.MOVER, -1, L.NUM_GENERALS - 1):
        return refuse(where, E_MOVER, L.MOVER, state[L.MOVER])
    if outside(state, L.COMBAT_GEN, 0, L.NUM_GENERALS - 1):
        return refuse(where, E_COMBAT_GEN, L.COMBAT_GEN, state[L.COMBAT_GEN])
    if outside(state, L.TRAITORS_USED, 0, 2 if params[L.P_TRAITORS] != 0 else 0):
        return refuse(where, E_TRAITORS_USED, L.TRAITORS_USED, state[L.TRAITORS_USED])
    if outside(state, L.PLACE_CITY, 0, D.NUM_CITIES - 1):
        return refuse(where, E_PLACE_CITY, L.PLACE_CITY, state[L.PLACE_CITY])
    if outside(state, L.HDENARII, 0, 2 if hispano else 0):
        return refuse(where, E_HDENARII, L.HDENARII, state[L.HDENARII])
    if outside(state, L.HISP_BONUS, 0, 2 if hispano else 0):
        return refuse(where, E_HISP_BONUS, L.HISP_BONUS, state[L.HISP_BONUS])
    if outside(state, L.H_ACCEPTED, 0, 1 if hispano else 0):
        return refuse(where, E_FLAG_WORD, L.H_ACCEPTED, state[L.H_ACCEPTED])
    steps = L.HA_BEFORE_MOVE if params[L.P_HISPANO_ATTACKS] != 0 else L.HA_COMBAT
    if outside(state, L.H_ATTACK, 0, steps if hispano else 0):
        return refuse(where, E_FLAG_WORD, L.H_ATTACK, state[L.H_ATTACK])
    if outside(state, L.DISPLAY, 0, D.SCEN_DISPLAY[sc]):
        return refuse(where, E_FLAG_WORD, L.DISPLAY, state[L.DISPLAY])
    if outside(state, L.LETHE, 0, D.SCEN_LETHE[sc]):
        return refuse(where, E_FLAG_WORD, L.LETHE, state[L.LETHE])
    if outside(state, H_CHANCE_KIND, 0, MAX_CHANCE_KIND):
        return refuse(where, E_CHANCE_KIND, H_CHANCE_KIND, state[H_CHANCE_KIND])
    resume = state[L.RESUME_PHASE]
    if (
        resume != 0
        and resume != L.PH_SETUP_ARMY
        and resume != L.PH_MOVE_START
        and resume != L.PH_ROMAN
    ):
        return refuse(where, E_RESUME_PHASE, L.RESUME_PHASE, resume)
    if state[L.REVOLT_RESUME] != 0 and state[L.REVOLT_RESUME] != L.PH_ROMAN:
        return refuse(where, E_RESUME_PHASE, L.REVOLT_RESUME, state[L.REVOLT_RESUME])
    if params[L.P_LEGIO] != 0:
        if not -1 <= state[L.LEGIO_OWNER] < NUM_ROMAN_GENERALS:
            return refuse(where, E_LEGIO_OWNER, L.LEGIO_OWNER, state[L.LEGIO_OWNER])
    elif state[L.LEGIO_OWNER] != L.GONE:
        return refuse(where, E_LEGIO_OWNER, L.LEGIO_OWNER, state[L.LEGIO_OWNER])
    return 0


@jit
def check_army_order(state, where):
    """The armies' moving order: army slots, each at most once, -1 padded at the end."""
    seen = 0
    ended = False
    for i in range(L.NUM_ARMY_SLOTS):
        k = state[L.ARMY_ORDER + i]
        if k == -1:
            ended = True
        elif ended or not 0 <= k < L.NUM_ARMY_SLOTS or (seen >> k) & 1:
            return refuse(where, E_ARMY_ORDER, i, k)
        else:
            seen |= 1 << k
    return 0


@jit
def check_setup_cities(state, where):
    """Each province's initial revolt city: -1 (none) or a city of that province; 0 too for
    a province the set-up has not rolled yet (the basic game's word starts at 0)."""
    rolling = state[L.PHASE] == L.PH_SETUP_REVOLT or state[L.PHASE] == L.PH_OVER
    for p in range(D.NUM_HISPANIC):
        c = state[L.SETUP_CITY + p]
        pending = rolling and p >= state[L.COUNTER] and c == 0
        if not (c == -1 or pending or (0 <= c < D.NUM_CITIES and D.CITY_PROVINCE[c] == p)):
            return refuse(where, E_SETUP_CITY, p, c)
    return 0


# ---------------------------------------------------------------- the board
@jit
def check_revolts(state, params, where):
    """Revolts: up to 3 on a city, pirates (1) on a sea only under Pirates, 22 in all."""
    total = np.int64(state[L.RESERVE]) + state[L.TRACK]
    for s in range(D.NUM_SPACES):
        v = state[L.REVOLTS + s]
        if not 0 <= v <= (L.STACK if s < D.NUM_CITIES else 1):
            return refuse(where, E_REVOLTS, s, v)
        if s >= D.FIRST_SEA and v != 0 and params[L.P_PIRATES] == 0:
            return refuse(where, E_SEA_REVOLT, s, v)
        total += v
    if total != D.TOTAL_REVOLTS:
        return refuse(where, E_REVOLT_COUNT, -1, total)
    return 0


@jit
def garrison_supply_fits(params, supply):
    """A general's garrisons on the board and in reserve: the level's, or fewer once beaten
    garrisons are lost (``beaten_garrison="lost"``)."""
    if params[L.P_BEATEN_GARRISON] != 0:
        return 0 <= supply <= params[L.P_GARRISONS]
    return supply == params[L.P_GARRISONS]


@jit
def check_garrisons(state, params, where):
    """Stacks packed from the bottom, 3 discs a city, none on a revolt; every general's
    garrisons on the board or in his reserve; the Legio Hispana disc where its owner says."""
    on_board = np.zeros(L.NUM_GENERALS + 2, np.int64)
    for c in range(D.NUM_CITIES):
        n = 0
        for i in range(L.STACK):
            col = state[L.GARR + c * L.STACK + i]
            ok = (1 <= col <= NUM_ROMAN_GENERALS) or (
                col == L.LEGIO_COLOUR and params[L.P_LEGIO] != 0
            )
            if col != 0 and not ok:
                return refuse(where, E_GARRISON, c * L.STACK + i, col)
            if col != 0:
                if n != i:
                    return refuse(where, E_STACK_GAP, c, i)
                n += 1
                on_board[col] += 1
        if n + state[L.REVOLTS + c] > L.STACK:
            return refuse(where, E_STACK_FULL, c, n + state[L.REVOLTS + c])
        if n > 0 and state[L.REVOLTS + c] > 0:
            return refuse(where, E_GARRISON_ON_REVOLT, c, state[L.REVOLTS + c])
    for g in range(L.NUM_GENERALS):
        reserve = state[L.GARR_RESERVE + g]
        if reserve < 0 or (g == L.PROCONSUL and reserve != 0):
            return refuse(where, E_GARR_RESERVE, g, reserve)
        if g < NUM_ROMAN_GENERALS and not garrison_supply_fits(params, on_board[g + 1] + reserve):
            return refuse(where, E_GARRISON_SUPPLY, g, on_board[g + 1] + reserve)
    legio = on_board[L.LEGIO_COLOUR]
    if params[L.P_LEGIO] != 0 and legio != (1 if state[L.LEGIO_OWNER] == -1 else 0):
        return refuse(where, E_LEGIO_DISC, L.LEGIO_OWNER, legio)
    return 0


@jit
def check_army_slots(state, params, where):
    """Which army slots are in play: three armies, the special one replacing the third under
    Terror, and the third back once the special army's leader is assassinated."""
    for k in range(L.NUM_ARMY_SLOTS):
        c = state[L.ARMY_POS + k]
        if not (c == L.GONE or -1 <= c < D.NUM_CITIES):
            return refuse(where, E_ARMY_POS, k, c)
    third = state[L.ARMY_POS + 2]
    special = state[L.ARMY_POS + L.SPECIAL]
    if state[L.ARMY_POS] == L.GONE or state[L.ARMY_POS + 1] == L.GONE:
        return refuse(where, E_ARMY_SLOT, 0 if state[L.ARMY_POS] == L.GONE else 1, L.GONE)
    # without Terror, or once the special army's leader is murdered, the third army plays
    if params[L.P_TERROR] == 0 or state[L.TRAITORS_USED] == 2:
        if special != L.GONE or third == L.GONE:
            return refuse(where, E_ARMY_SLOT, L.SPECIAL, special)
    elif special == L.GONE or third != L.GONE:
        return refuse(where, E_ARMY_SLOT, 2, third)
    return 0


@jit
def check_armies(state, where):
    """Armies on the board stand on revolts, one a city and one a province."""
    provinces = 0
    for k in range(L.NUM_ARMY_SLOTS):
        c = state[L.ARMY_POS + k]
        if c < 0:
            continue
        if state[L.REVOLTS + c] == 0:
            return refuse(where, E_ARMY_OFF_REVOLT, k, c)
        p = D.CITY_PROVINCE[c]
        if (provinces >> p) & 1:
            return refuse(where, E_ARMIES_SHARE, k, p)
        provinces |= 1 << p
    return 0


@jit
def check_generals(state, params, where):
    """Generals off the board or on a space without revolt, at sea only on a fleet, one a
    space; the proconsul only under Proconsvl (-2 when dead or absent)."""
    for g in range(L.NUM_GENERALS):
        s = state[L.GEN_POS + g]
        allowed_gone = g == L.PROCONSUL
        if g == L.PROCONSUL and params[L.P_PROCONSVL] == 0:
            if s != L.GONE:
                return refuse(where, E_GEN_POS, g, s)
            continue
        if not (-1 <= s < D.NUM_SPACES or (allowed_gone and s == L.GONE)):
            return refuse(where, E_GEN_POS, g, s)
        if s < 0:
            continue
        if state[L.REVOLTS + s] != 0:
            return refuse(where, E_GENERAL_ON_REVOLT, g, s)
        if s >= D.FIRST_SEA and state[L.FLEET + s - D.FIRST_SEA] == 0:
            return refuse(where, E_GENERAL_AT_SEA, g, s)
    turn = state[L.TURN]
    for g in range(L.NUM_GENERALS):
        s = state[L.GEN_POS + g]
        for h in range(g + 1, L.NUM_GENERALS):
            if s >= 0 and state[L.GEN_POS + h] == s:
                back = state[L.PHASE] == L.PH_ROMAN and (g == turn or h == turn)
                if not back:
                    return refuse(where, E_GENERALS_SHARE, h, s)
    return 0


@jit
def check_fleets(state, params, where):
    """The level's fleets, never on a sea with pirates."""
    n = 0
    for i in range(D.NUM_SEAS):
        v = state[L.FLEET + i]
        if not 0 <= v <= 1:
            return refuse(where, E_FLEET, i, v)
        if v != 0 and state[L.REVOLTS + D.FIRST_SEA + i] != 0:
            return refuse(where, E_FLEET_ON_PIRATES, i, v)
        n += v
    if n != params[L.P_FLEETS]:
        return refuse(where, E_FLEET_COUNT, -1, n)
    return 0


@jit
def check_roads(state, params, where):
    """The printed roads, and placed ones only on land links between non-capitals, no more
    (with those kept aside under Ingenivm) than the level's."""
    placed = np.int64(0)
    for li in range(D.NUM_LINKS):
        v = state[L.ROADS + li]
        if not 0 <= v <= 1:
            return refuse(where, E_ROAD, li, v)
        if D.INITIAL_ROADS[li] != 0:
            if v == 0:
                return refuse(where, E_INITIAL_ROAD, li, v)
            continue
        if v != 0:
            if ROAD_LINK[li] == 0:
                return refuse(where, E_ROAD_LINK, li, v)
            placed += 1
    # set-up places (or, under Ingenivm, keeps) one road a step, COUNTER counting them;
    # after it, under Ingenivm, every road of the level is placed or kept
    total = placed + state[L.HELD_ROADS]
    ph = state[L.PHASE]
    if (
        ph == L.PH_SETUP_REVOLT
        or ph == L.PH_SETUP_ARMY
        or (ph == L.PH_TERROR and state[L.RESUME_PHASE] == L.PH_SETUP_ARMY)
    ):
        expected = 0
    elif ph == L.PH_SETUP_ROAD:
        expected = state[L.COUNTER]
    elif params[L.P_INGENIVM] != 0 and ph != L.PH_OVER:  # (a game may end during the set-up)
        expected = params[L.P_ROADS]
    else:
        expected = min(total, params[L.P_ROADS])
    if total != expected:
        return refuse(where, E_ROAD_COUNT, expected, total)
    return 0


# ---------------------------------------------------------------- the game sequence
@jit
def check_end(state, params, where):
    """PHASE 16 and a winner exactly when the game is over; a live game has not been won."""
    over = is_over(state)
    if over != (state[L.PHASE] == L.PH_OVER) or over != (state[L.WINNER] != L.W_NONE):
        return refuse(where, E_OVER, L.PHASE, state[L.PHASE])
    if over or (state[H_FLAGS] & FLAG_TERMINAL) != 0:
        return 0
    if state[L.PHASE] >= L.PH_TURN_START and roman_victory(state):
        return refuse(where, E_ROME_WON, -1, 0)
    if state[L.TRACK] >= D.SCEN_TRACK_LIMIT[params[L.P_SCENARIO]]:
        return refuse(where, E_TRACK_END, L.TRACK, state[L.TRACK])
    return 0


@jit
def expected_mover(state, params):
    """Who decides, or which die is rolled (as -10 - chance kind), in the step ``PHASE``
    stops at; -99 for a step where nothing ever waits."""
    ph = state[L.PHASE]
    hispano = params[L.P_HISPANO] != 0
    if ph == L.PH_SETUP_REVOLT:
        return L.HISPANO if hispano else -10 - L.CK_SETUP_REVOLT
    if ph == L.PH_SETUP_ARMY:
        return L.HISPANO if hispano else -10 - L.CK_SETUP_ARMY
    if ph == L.PH_SETUP_ROAD:
        return state[L.COUNTER] % NUM_ROMAN_GENERALS
    if ph == L.PH_SETUP_PLACE:
        return state[L.COUNTER]
    if ph == L.PH_REENTER or ph == L.PH_ROMAN:
        return state[L.TURN]
    if ph == L.PH_FREE_MOVE:
        return 0
    if ph == L.PH_ROMAN_COMBAT:
        first = state[L.DIE_R] == 0 and state[L.COMBAT_KIND] != L.CB_ASSASSINATE
        return -10 - (L.CK_ROMAN_DIE if first else L.CK_HISP_DIE)
    if ph == L.PH_REVOLT_PROV or ph == L.PH_H_REROLL_PROV:
        return -10 - L.CK_REVOLT_PROV
    if ph == L.PH_REVOLT_CITY or ph == L.PH_H_REROLL_CITY:
        return -10 - L.CK_REVOLT_CITY
    if ph == L.PH_MOVE_DIE:
        return -10 - L.CK_MOVE_DIE
    if ph == L.PH_ARMY_COMBAT:
        return -10 - (L.CK_HISP_DIE if state[L.DIE_H] == 0 else L.CK_ROMAN_DIE)
    if ph == L.PH_TERROR:
        return -10 - L.CK_TERROR
    if ph >= L.PH_H_REVOLT:
        return L.HISPANO
    return -99


@jit
def check_actor(state, params, where):
    """The player to move, or the die rolled, is the one this step waits for."""
    ph = state[L.PHASE]
    if ph == L.PH_OVER:
        return 0
    want = expected_mover(state, params)
    if want == -99:
        return refuse(where, E_STOP_PHASE, L.PHASE, ph)
    if (state[H_FLAGS] & FLAG_TERMINAL) != 0:
        return 0  # truncated where it stood
    actor = state[H_ACTOR]
    kind = state[H_CHANCE_KIND]
    if want <= -10:
        if actor != CHANCE:
            return refuse(where, E_ACTOR, H_ACTOR, actor)
        if kind != -10 - want:
            return refuse(where, E_CHANCE_NODE, H_CHANCE_KIND, kind)
        return 0
    if actor != want:
        return refuse(where, E_ACTOR, H_ACTOR, actor)
    if kind != 0:
        return refuse(where, E_DECISION_KIND, H_CHANCE_KIND, kind)
    return 0


@jit
def check_idle_fields(state, where):
    """Words a step sets and the next clears: the composed choice, the selected general, the
    combat, Hispano's bonus and attack, outside their steps."""
    ph = state[L.PHASE]
    combat = in_phase(ph, COMBAT_PHASES)
    if (state[L.COMBAT_KIND] != 0) != combat:
        return refuse(where, E_IDLE_FIELD, L.COMBAT_KIND, state[L.COMBAT_KIND])
    if not combat:
        if state[L.HISP_BONUS] != 0:
            return refuse(where, E_IDLE_FIELD, L.HISP_BONUS, state[L.HISP_BONUS])
        # Hispano's attack steps before the revolt roll and the move keep their step
        step = ph == L.PH_H_ATTACK or ph == L.PH_H_ATTACK_TARGET or ph == L.PH_H_ATTACK_SPEND
        if state[L.H_ATTACK] != 0 and not (step and state[L.H_ATTACK] >= L.HA_BEFORE_REVOLT):
            return refuse(where, E_IDLE_FIELD, L.H_ATTACK, state[L.H_ATTACK])
    if ph != L.PH_ROMAN:
        for w in (L.PEND_KIND,):
            if state[w] != 0:
                return refuse(where, E_IDLE_FIELD, w, state[w])
        if state[L.MOVER] != -1:
            return refuse(where, E_SELECTED, L.MOVER, state[L.MOVER])
    return 0


@jit
def check_setup(state, params, where):
    """The set-up steps: what the counter says is left to do, and who does it."""
    ph = state[L.PHASE]
    sc = params[L.P_SCENARIO]
    k = state[L.COUNTER]
    if ph == L.PH_SETUP_REVOLT:
        if k >= D.NUM_HISPANIC or D.SCEN_RANDOM[sc, k] == 0:
            return refuse(where, E_SETUP_REVOLT, L.COUNTER, k)
    elif ph == L.PH_SETUP_ARMY:
        if k >= params[L.P_ARMIES] or (D.SCEN_ARMY_DIE[sc] != 0 and k > 1):
            return refuse(where, E_SETUP_ARMY, L.COUNTER, k)
        for p in range(D.NUM_HISPANIC):
            c = state[L.SETUP_CITY + p]
            if c >= 0 and (D.CITY_PROVINCE[c] != p or state[L.REVOLTS + c] == 0):
                return refuse(where, E_SETUP_CITY, p, c)
    elif ph == L.PH_SETUP_ROAD:
        if params[L.P_AUTO_SETUP] != 0 or k >= params[L.P_ROADS] or not any_road_legal(state):
            return refuse(where, E_SETUP_ROAD, L.COUNTER, k)
    elif ph == L.PH_SETUP_PLACE:
        if params[L.P_AUTO_SETUP] != 0 or sc != 0 or k >= NUM_ROMAN_GENERALS:
            return refuse(where, E_SETUP_PLACE, L.COUNTER, k)
        for g in range(k, L.NUM_GENERALS):
            if g < NUM_ROMAN_GENERALS and state[L.GEN_POS + g] != -1:
                return refuse(where, E_SETUP_PLACE, L.COUNTER, k)
    return 0


@jit
def check_pending(state, params, g, where):
    """A besiege, attack or assassination chosen by general ``g``, waiting for denarii:
    its target is one he may choose from his space."""
    kind = state[L.PEND_KIND]
    t = state[L.PEND_TARGET]
    s = state[L.GEN_POS + g]
    if kind == L.PK_ASSASSINATE:
        ok = (
            assassination_left(state, params)
            and state[L.MOVER] == -1
            and t == state[L.ARMY_POS + L.SPECIAL]
            and t >= 0
            and is_adjacent(s, t)
        )
    else:
        army = t < D.NUM_CITIES and army_at(state, t) >= 0
        ok = is_adjacent(s, t) and state[L.REVOLTS + t] > 0 and army == (kind == L.PK_ATTACK)
    if not ok:
        return refuse(where, E_PENDING, kind, t)
    return 0


@jit
def check_roman_phase(state, params, where):
    """A Roman phase: the general on the board with denarii; a selected general one he may
    select; a general sharing his space (just back) with nothing chosen yet; a pending
    choice one he may make."""
    ph = state[L.PHASE]
    turn = state[L.TURN]
    if ph == L.PH_REENTER:
        if state[L.GEN_POS + turn] != -1:
            return refuse(where, E_REENTER, turn, state[L.GEN_POS + turn])
        return 0
    if ph == L.PH_FREE_MOVE:
        if params[L.P_IMPERIVM] == 0 or turn != 0 or state[L.GEN_POS] < 0:
            return refuse(where, E_ROMAN, turn, state[L.GEN_POS])
        return 0
    if ph != L.PH_ROMAN:
        return 0
    if state[L.GEN_POS + turn] < 0 or state[L.DENARII] < 1:
        return refuse(where, E_ROMAN, turn, state[L.DENARII])
    m = state[L.MOVER]
    shared = False
    for x in range(L.NUM_GENERALS):
        if x != turn and state[L.GEN_POS + x] == state[L.GEN_POS + turn]:
            shared = True
    if m >= 0:
        if not select_legal(state, params, turn, m):
            return refuse(where, E_SELECTED, L.MOVER, m)
        if state[L.PEND_KIND] != 0 and (m != L.PROCONSUL or state[L.PEND_KIND] == L.PK_ASSASSINATE):
            return refuse(where, E_SELECTED, L.MOVER, m)
    if shared and (m >= 0 or state[L.PEND_KIND] != 0):
        return refuse(where, E_SELECTED, L.MOVER, m)
    if state[L.PEND_KIND] != 0:
        return check_pending(state, params, m if m >= 0 else turn, where)
    return 0


@jit
def roman_combat_target_ok(state, params, kind, g, t):
    """The general's combat ``kind`` against space ``t`` is one he may fight."""
    s = state[L.GEN_POS + g]
    if s < 0 or not is_adjacent(s, t):
        return False
    if kind == L.CB_SIEGE:
        return state[L.REVOLTS + t] > 0 and (t >= D.NUM_CITIES or army_at(state, t) < 0)
    if kind == L.CB_ATTACK:
        return t < D.NUM_CITIES and army_at(state, t) >= 0
    # CB_ASSASSINATE
    return assassination_left(state, params) and t == state[L.ARMY_POS + L.SPECIAL] and t >= 0


@jit
def army_combat_target_ok(state, kind, k, t):
    """Army ``k`` attacks city ``t`` linked to it: its general, or (no general) its garrison."""
    a = state[L.ARMY_POS + k]
    if a < 0 or t >= D.NUM_CITIES or not is_adjacent(a, t):
        return False
    if kind == L.CB_ARMY_GENERAL:
        return general_at(state, t) >= 0
    return general_at(state, t) < 0 and garrison_count(state, t) > 0


@jit
def check_combat(state, params, where):
    """The combat being fought: its kind fits the step, its target the general or army who
    fights it, its dice the point it has reached."""
    ph = state[L.PHASE]
    if not in_phase(ph, COMBAT_PHASES):
        return 0
    kind = state[L.COMBAT_KIND]
    t = state[L.COMBAT_TARGET]
    roman = kind == L.CB_SIEGE or kind == L.CB_ATTACK or kind == L.CB_ASSASSINATE
    if ph == L.PH_ROMAN_COMBAT or ph == L.PH_H_REINFORCE or (ph == L.PH_H_COMBAT and roman):
        if not roman or (ph != L.PH_ROMAN_COMBAT and kind == L.CB_ASSASSINATE):
            return refuse(where, E_COMBAT, kind, t)
        if ph == L.PH_H_COMBAT and kind != L.CB_ATTACK:
            return refuse(where, E_COMBAT, kind, t)
        if state[L.COMBAT_SPENT] < 1 or state[L.H_ATTACK] != 0:
            return refuse(where, E_COMBAT, kind, t)
        if not roman_combat_target_ok(state, params, kind, state[L.COMBAT_GEN], t):
            return refuse(where, E_COMBAT, kind, t)
    else:
        if roman:
            return refuse(where, E_COMBAT, kind, t)
        k = state[L.COMBAT_ARMY]
        if k < 0 or not army_combat_target_ok(state, kind, k, t):
            return refuse(where, E_COMBAT, kind, t)
        if state[L.H_ATTACK] == 0:
            i = state[L.CUR]
            if i >= L.NUM_ARMY_SLOTS or state[L.ARMY_ORDER + i] != k:
                return refuse(where, E_MOVING_ARMY, L.CUR, k)
    return check_combat_dice(state, where)


@jit
def check_combat_dice(state, where):
    """Which dice are known: a siege rolls the Roman die, an assassination the Hispanic die,
    an attack both (Roman first), an army's attack the Hispanic die (then the Roman one
    against a general). Hispano reinforces before any die and, after the last, may reroll
    the Hispanic die (cleared, to be rolled again)."""
    ph = state[L.PHASE]
    kind = state[L.COMBAT_KIND]
    r = state[L.DIE_R]
    h = state[L.DIE_H]
    if ph == L.PH_H_REINFORCE:
        ok = r == 0 and h == 0 and state[L.HISP_BONUS] == 0
    elif ph == L.PH_H_COMBAT:
        ok = h >= 1 and (r >= 1) == (kind != L.CB_ARMY_GARRISON)
        ok = ok and state[L.H_ACCEPTED] == 0
    elif kind == L.CB_SIEGE or kind == L.CB_ASSASSINATE:
        ok = r == 0 and h == 0
    elif kind == L.CB_ATTACK:
        ok = h == 0
    elif kind == L.CB_ARMY_GARRISON:
        ok = r == 0 and h == 0
    else:  # CB_ARMY_GENERAL: Hispanic die, Roman die; a reroll clears the Hispanic one
        ok = r == 0 or h == 0
    if not ok:
        return refuse(where, E_COMBAT_DICE, kind, r * 10 + h)
    return 0


@jit
def check_moving_army(state, where):
    """Choosing an army's destination (its die, or Hispano): the army on the board, with
    two or more cities to choose from."""
    ph = state[L.PHASE]
    if ph != L.PH_MOVE_DIE and ph != L.PH_H_MOVE:
        return 0
    i = state[L.CUR]
    if i >= L.NUM_ARMY_SLOTS or state[L.ARMY_ORDER + i] < 0:
        return refuse(where, E_MOVING_ARMY, L.CUR, i)
    k = state[L.ARMY_ORDER + i]
    if state[L.ARMY_POS + k] < 0:
        return refuse(where, E_MOVING_ARMY, L.CUR, k)
    cands = np.zeros(8, np.int32)
    if move_armies_candidates(state, k, cands) < 2:
        return refuse(where, E_MOVING_ARMY, L.CUR, k)
    return 0


@jit
def check_terror(state, params, where):
    """Terror's die: the special army and another in the reserve, the city a revolt with no
    army in its province, and a step to resume that places armies."""
    if state[L.PHASE] != L.PH_TERROR:
        return 0
    n, _ = ordinary_armies_left(state)
    c = state[L.PLACE_CITY]
    if params[L.P_TERROR] == 0 or state[L.ARMY_POS + L.SPECIAL] != -1 or n < 1:
        return refuse(where, E_TERROR, L.ARMY_POS + L.SPECIAL, n)
    if state[L.RESUME_PHASE] == 0:
        return refuse(where, E_RESUME_PHASE, L.RESUME_PHASE, 0)
    if state[L.REVOLTS + c] == 0 or army_at(state, c) >= 0:
        return refuse(where, E_TERROR, L.PLACE_CITY, c)
    if province_army(state, D.CITY_PROVINCE[c]) >= 0:
        return refuse(where, E_ARMY_PROVINCE, L.PLACE_CITY, c)
    return 0


@jit
def check_revolt_roll(state, where):
    """The revolt roll's dice: known where they are read (Hispano's choice, his rerolls)."""
    ph = state[L.PHASE]
    if (ph == L.PH_H_REVOLT or ph == L.PH_H_REROLL_PROV) and state[L.REVOLT_NUM] < 1:
        return refuse(where, E_REVOLT_NUM, L.REVOLT_NUM, state[L.REVOLT_NUM])
    return 0


@jit
def check_hispano(state, params, where):
    """Hispano's steps: under the variant, with a denarius, and a choice to make."""
    ph = state[L.PHASE]
    if ph < L.PH_H_REVOLT:
        return 0
    if params[L.P_HISPANO] == 0:
        return refuse(where, E_HISPANO, L.PHASE, ph)
    rerolling = ph == L.PH_H_REROLL_PROV or ph == L.PH_H_REROLL_CITY  # the denarius is spent
    if state[L.HDENARII] < 1 and not rerolling:
        return refuse(where, E_HISPANO, L.HDENARII, state[L.HDENARII])
    if ph == L.PH_H_ATTACK:
        for k in range(L.NUM_ARMY_SLOTS):
            if hispano_army_can_attack(state, k):
                return 0
        return refuse(where, E_HISPANO, L.PHASE, ph)
    k = state[L.COMBAT_ARMY]
    attacking = ph == L.PH_H_ATTACK_TARGET or ph == L.PH_H_ATTACK_SPEND
    if attacking and (k < 0 or not hispano_army_can_attack(state, k)):
        return refuse(where, E_HISPANO, L.COMBAT_ARMY, k)
    if ph == L.PH_H_ATTACK_SPEND and not hispano_target(state, k, state[L.PEND_TARGET]):
        return refuse(where, E_HISPANO, L.PEND_TARGET, state[L.PEND_TARGET])
    return 0


@jit
def check_sequence(state, params, where):
    """The step of the game sequence with who moves and what the step reads."""
    code = check_end(state, params, where)
    if code == 0:
        code = check_actor(state, params, where)
    if code == 0:
        code = check_idle_fields(state, where)
    if code == 0:
        code = check_setup(state, params, where)
    if code == 0:
        code = check_roman_phase(state, params, where)
    if code == 0:
        code = check_combat(state, params, where)
    if code == 0:
        code = check_moving_army(state, where)
    if code == 0:
        code = check_terror(state, params, where)
    if code == 0:
        code = check_revolt_roll(state, where)
    if code == 0:
        code = check_hispano(state, params, where)
    return code


@jit
def validate(state, params, where):
    """0 if every field of ``state`` is in range and coherent, else the failed check's code."""
    code = check_scalars(state, params, where)
    if code == 0:
        code = check_army_order(state, where)
    if code == 0:
        code = check_setup_cities(state, where)
    if code == 0:
        code = check_revolts(state, params, where)
    if code == 0:
        code = check_garrisons(state, params, where)
    if code == 0:
        code = check_army_slots(state, params, where)
    if code == 0:
        code = check_armies(state, where)
    if code == 0:
        code = check_generals(state, params, where)
    if code == 0:
        code = check_fleets(state, params, where)
    if code == 0:
        code = check_roads(state, params, where)
    if code == 0:
        code = check_sequence(state, params, where)
    return code

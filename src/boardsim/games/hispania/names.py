"""Human words for Hispania: actions and a text rendering of the board."""

from __future__ import annotations

import numpy as np

from boardsim.core.header import CHANCE, H_ACTOR, H_CHANCE_KIND
from boardsim.games.hispania.data import (
    CITY_NUMBER,
    CITY_PROVINCE,
    FIRST_SEA,
    LINK_A,
    LINK_B,
    NUM_CITIES,
    NUM_LINKS,
    NUM_SEAS,
    NUM_SPACES,
    PROVINCE_IDS,
    SCEN_TRACK_LIMIT,
    SPACE_NAMES,
    TIME_TRACK_YEARS,
)
from boardsim.games.hispania.layout import (
    A_ASSASSINATE,
    A_ATTACK,
    A_BESIEGE,
    A_CANCEL,
    A_FLEET,
    A_GARRISON,
    A_H_ACCEPT,
    A_H_ARMY,
    A_H_CITY,
    A_H_FACE,
    A_H_REROLL_H,
    A_H_REROLL_R,
    A_H_SPEND,
    A_LEGIO,
    A_PASS,
    A_PROCONSUL,
    A_ROAD,
    A_SELECT,
    A_SPACE,
    A_SPEND,
    A_UNGARRISON,
    A_UNLEGIO,
    ARMY_POS,
    CK_HISP_DIE,
    CK_MOVE_DIE,
    CK_REVOLT_CITY,
    CK_REVOLT_PROV,
    CK_ROMAN_DIE,
    CK_SETUP_ARMY,
    CK_SETUP_REVOLT,
    CK_TERROR,
    COMBAT_GEN,
    COUNTER,
    DENARII,
    FLEET,
    GARR,
    GARR_RESERVE,
    GEN_POS,
    HDENARII,
    HISPANO,
    NUM_ACTIONS,
    NUM_ARMY_SLOTS,
    P_SCENARIO,
    PEND_KIND,
    PEND_TARGET,
    PH_FREE_MOVE,
    PH_H_MOVE,
    PH_REENTER,
    PH_SETUP_ARMY,
    PH_SETUP_PLACE,
    PH_SETUP_ROAD,
    PHASE,
    RESERVE,
    REVOLTS,
    ROADS,
    STACK,
    TRACK,
    TURN,
    WINNER,
)

GENERAL_NAMES = ("praetor of Ulterior", "praetor of Citerior", "consul", "proconsul")
COLOURS = ("red", "yellow", "blue", "white")


TEXT_LEGEND = """\
the top line: the year on the time track, whose turn it is, the general to
  act, his denarii, the revolt discs in reserve, the track (step/limit)
Osca (I-6): city 6 of province I (I-VI: the six provinces; Citerior,
  Ulterior: the Roman provinces); Mare Balearicum (sea 1): a sea
  N revolts              revolt discs on the space
  garrisons red/yellow   garrison discs, bottom first, their general's
                         colour (red: praetor of Ulterior, yellow: praetor
                         of Citerior, blue: consul)
  ARMY                   a Hispanic army (SPECIAL ARMY: the Terror's)
  fleet                  a Roman fleet on the sea
roads: the roads built (Ingenivm)"""


def space_label(s: int) -> str:
    """A space's name with its coordinates (``Ilerda (I-5)``, ``Mare Ibericum (sea 2)``)."""
    if s >= FIRST_SEA:
        return f"{SPACE_NAMES[s]} (sea {s - FIRST_SEA + 1})"
    p = int(CITY_PROVINCE[s])
    if p < 6:
        return f"{SPACE_NAMES[s]} ({PROVINCE_IDS[p]}-{int(CITY_NUMBER[s])})"
    return f"{SPACE_NAMES[s]} ({PROVINCE_IDS[p]})"


def describe_action(params: np.ndarray, state: np.ndarray, action: int) -> str:
    """Words for ``action`` in ``state``."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"action {a} (out of range)"
    ph = int(state[PHASE])
    if a == A_PASS:
        if ph == PH_SETUP_ROAD:
            return "keep this road aside (Ingenivm)"
        if ph == PH_FREE_MOVE:
            return "stay (no free move)"
        return "pass (end the Roman phase)"
    if a < A_FLEET:
        s = a - A_SPACE
        if ph in (PH_SETUP_PLACE, PH_REENTER):
            who = int(state[H_ACTOR])
            who_name = GENERAL_NAMES[who] if 0 <= who < 4 else "general"
            return f"place the {who_name} on {space_label(s)}"
        return f"move to {space_label(s)}"
    if a < A_GARRISON:
        x, y = divmod(a - A_FLEET, NUM_SEAS)
        return f"move the fleet of {space_label(FIRST_SEA + x)} to {space_label(FIRST_SEA + y)}"
    if a == A_GARRISON:
        return "place a garrison here"
    if a == A_UNGARRISON:
        return "remove a garrison from here"
    if a < A_ATTACK:
        return f"besiege {space_label(a - A_BESIEGE)}"
    if a < A_SPEND:
        return f"attack the army in {space_label(a - A_ATTACK)}"
    if a < A_CANCEL:
        return f"spend {a - A_SPEND + 1} denarii on the combat"
    if a == A_CANCEL:
        return "cancel the combat"
    if a < A_SELECT:
        li = a - A_ROAD
        return f"road {SPACE_NAMES[LINK_A[li]]}-{SPACE_NAMES[LINK_B[li]]}"
    if a < A_LEGIO:
        return f"act next with the {GENERAL_NAMES[a - A_SELECT]}"
    simple = {
        A_LEGIO: "place the Legio Hispana disc here",
        A_UNLEGIO: "take the Legio Hispana disc from here",
        A_PROCONSUL: "bring the proconsul onto the Mare Balearicum fleet (3 denarii)",
        A_ASSASSINATE: "try to have the special army's leader murdered",
        A_H_ACCEPT: "Hispano: accept / roll / pass",
        A_H_REROLL_R: "Hispano: reroll the Roman die (1 denarius)",
        A_H_REROLL_H: "Hispano: reroll the Hispanic die (1 denarius)",
    }
    if a in simple:
        return simple[a]
    if a < A_H_REROLL_R:
        f = a - A_H_FACE + 1
        if ph == PH_SETUP_ARMY:
            return f"Hispano: initial army in province {PROVINCE_IDS[f - 1]}"
        return f"Hispano: initial revolt on city {f}"
    if a < A_H_ARMY:
        c = a - A_H_CITY
        if ph == PH_H_MOVE:
            return f"Hispano: the army goes to {space_label(c)} (1 denarius)"
        return f"Hispano: attack {space_label(c)}"
    if a < A_H_SPEND:
        return f"Hispano: attack with army {a - A_H_ARMY + 1}"
    return f"Hispano: spend {a - A_H_SPEND + 1} denari{'us' if a == A_H_SPEND else 'i'}"


def render_text(params: np.ndarray, state: np.ndarray) -> str:
    """A compact text picture of the position."""
    lines = []
    w = int(state[WINNER])
    track = int(state[TRACK])
    scenario = int(params[P_SCENARIO]) if len(params) > P_SCENARIO else 0
    limit = int(SCEN_TRACK_LIMIT[scenario])
    if limit == len(TIME_TRACK_YEARS):
        year = int(TIME_TRACK_YEARS[min(track, len(TIME_TRACK_YEARS) - 1)])
    else:  # The New Empire: 3 revolts a space on 54, 36, 18
        year = int(TIME_TRACK_YEARS[min(8 + track // 3, len(TIME_TRACK_YEARS) - 1)])
    actor = int(state[H_ACTOR])
    # players 0-2 are the Roman generals; player 3 (variant hispano) is the Hispano player,
    # not the proconsul (the proconsul's turn is played by a Roman player)
    who = "chance" if actor == CHANCE else (
        GENERAL_NAMES[actor] if 0 <= actor < HISPANO else "Hispano" if actor == HISPANO else "-"
    )  # fmt: skip
    lines.append(
        f"Hispania {year} BC | turn {GENERAL_NAMES[int(state[TURN])]} | to act: {who} | "
        f"denarii {int(state[DENARII])} | revolts in reserve {int(state[RESERVE])} | "
        f"track {track}/{limit}"
        + (f" | Hispano denarii {int(state[HDENARII])}" if int(state[HDENARII]) else "")
        + {0: "", 1: " | ROMAN VICTORY", 2: " | HISPANIC VICTORY"}[w]
    )
    if int(state[PEND_KIND]):
        lines.append(f"chosen target: {space_label(int(state[PEND_TARGET]))}")
    for s in range(NUM_SPACES):
        parts = []
        if state[REVOLTS + s]:
            n = int(state[REVOLTS + s])
            parts.append(f"{n} revolt{'' if n == 1 else 's'}")
        if s < NUM_CITIES:
            stack = state[GARR + s * STACK : GARR + s * STACK + STACK]
            garr = [COLOURS[int(c) - 1] for c in stack if 0 < c < 5]
            if garr:
                parts.append("garrisons " + "/".join(garr))
            for k in range(NUM_ARMY_SLOTS):
                if int(state[ARMY_POS + k]) == s:
                    parts.append("ARMY" if k < 3 else "SPECIAL ARMY")
            if stack.tolist().count(5):
                parts.append("Legio Hispana")
        elif state[FLEET + s - FIRST_SEA]:
            parts.append("fleet")
        for g in range(4):
            if int(state[GEN_POS + g]) == s:
                parts.append(GENERAL_NAMES[g])
        if parts:
            lines.append(f"  {space_label(s)}: " + ", ".join(parts))
    off = [GENERAL_NAMES[g] for g in range(3) if int(state[GEN_POS + g]) < 0]
    if off:
        lines.append("  off the board: " + ", ".join(off))
    lines.append(
        "  garrisons in reserve: "
        + ", ".join(f"{COLOURS[g]} {int(state[GARR_RESERVE + g])}" for g in range(3))
    )
    extra = [
        f"{SPACE_NAMES[LINK_A[li]]}-{SPACE_NAMES[LINK_B[li]]}"
        for li in range(NUM_LINKS)
        if state[ROADS + li]
    ]
    lines.append("  roads: " + ", ".join(extra))
    return "\n".join(lines)


CHANCE_WORDS = {
    CK_SETUP_REVOLT: "the Hispanic die for an initial revolt city",
    CK_SETUP_ARMY: "the Roman die for an initial army's province",
    CK_ROMAN_DIE: "the Roman die of the combat",
    CK_HISP_DIE: "the Hispanic die of the combat",
    CK_REVOLT_PROV: "the Roman die of the revolt roll (the province)",
    CK_REVOLT_CITY: "the Hispanic die of the revolt roll (the city)",
    CK_MOVE_DIE: "the Hispanic die moving an army",
    CK_TERROR: "the Terror die (is the special army placed?)",
}


def describe_chance(params: np.ndarray, state: np.ndarray, outcome: int, viewer: int) -> str:
    """The die about to be rolled in ``state`` (every die is public): "you rolled 4 (the
    Roman die of the combat)", "the Hispanic die of the revolt roll (the city): 2"."""
    kind = int(state[H_CHANCE_KIND])
    words = CHANCE_WORDS.get(kind, "a die")
    if kind == CK_SETUP_REVOLT:
        words += f" of province {PROVINCE_IDS[int(state[COUNTER]) % len(PROVINCE_IDS)]}"
    if kind == CK_ROMAN_DIE and int(state[COMBAT_GEN]) == viewer:
        return f"you rolled {int(outcome)} ({words})"
    return f"{words}: {int(outcome)}"

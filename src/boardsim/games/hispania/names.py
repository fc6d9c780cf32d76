"""Human words for Hispania: actions and a text rendering of the board."""

from __future__ import annotations

import numpy as np

from boardsim.core.header import CHANCE, H_ACTOR, H_CHANCE_KIND
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L

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
    if s >= D.FIRST_SEA:
        return f"{D.SPACE_NAMES[s]} (sea {s - D.FIRST_SEA + 1})"
    p = int(D.CITY_PROVINCE[s])
    if p < 6:
        return f"{D.SPACE_NAMES[s]} ({D.PROVINCE_IDS[p]}-{int(D.CITY_NUMBER[s])})"
    return f"{D.SPACE_NAMES[s]} ({D.PROVINCE_IDS[p]})"


def describe_action(params: np.ndarray, state: np.ndarray, action: int) -> str:
    """Words for ``action`` in ``state``."""
    a = int(action)
    if not 0 <= a < L.NUM_ACTIONS:
        return f"action {a} (out of range)"
    ph = int(state[L.PHASE])
    if a == L.A_PASS:
        if ph == L.PH_SETUP_ROAD:
            return "keep this road aside (Ingenivm)"
        if ph == L.PH_FREE_MOVE:
            return "stay (no free move)"
        return "pass (end the Roman phase)"
    if a < L.A_FLEET:
        s = a - L.A_SPACE
        if ph in (L.PH_SETUP_PLACE, L.PH_REENTER):
            who = int(state[H_ACTOR])
            who_name = GENERAL_NAMES[who] if 0 <= who < 4 else "general"
            return f"place the {who_name} on {space_label(s)}"
        return f"move to {space_label(s)}"
    if a < L.A_GARRISON:
        x, y = divmod(a - L.A_FLEET, D.NUM_SEAS)
        return f"move the fleet of {space_label(D.FIRST_SEA + x)} to {space_label(D.FIRST_SEA + y)}"
    if a == L.A_GARRISON:
        return "place a garrison here"
    if a == L.A_UNGARRISON:
        return "remove a garrison from here"
    if a < L.A_ATTACK:
        return f"besiege {space_label(a - L.A_BESIEGE)}"
    if a < L.A_SPEND:
        return f"attack the army in {space_label(a - L.A_ATTACK)}"
    if a < L.A_CANCEL:
        return f"spend {a - L.A_SPEND + 1} denarii on the combat"
    if a == L.A_CANCEL:
        return "cancel the combat"
    if a < L.A_SELECT:
        li = a - L.A_ROAD
        return f"road {D.SPACE_NAMES[D.LINK_A[li]]}-{D.SPACE_NAMES[D.LINK_B[li]]}"
    if a < L.A_LEGIO:
        return f"act next with the {GENERAL_NAMES[a - L.A_SELECT]}"
    simple = {
        L.A_LEGIO: "place the Legio Hispana disc here",
        L.A_UNLEGIO: "take the Legio Hispana disc from here",
        L.A_PROCONSUL: "bring the proconsul onto the Mare Balearicum fleet (3 denarii)",
        L.A_ASSASSINATE: "try to have the special army's leader murdered",
        L.A_H_ACCEPT: "Hispano: accept / roll / pass",
        L.A_H_REROLL_R: "Hispano: reroll the Roman die (1 denarius)",
        L.A_H_REROLL_H: "Hispano: reroll the Hispanic die (1 denarius)",
    }
    if a in simple:
        return simple[a]
    if a < L.A_H_REROLL_R:
        f = a - L.A_H_FACE + 1
        if ph == L.PH_SETUP_ARMY:
            return f"Hispano: initial army in province {D.PROVINCE_IDS[f - 1]}"
        return f"Hispano: initial revolt on city {f}"
    if a < L.A_H_ARMY:
        c = a - L.A_H_CITY
        if ph == L.PH_H_MOVE:
            return f"Hispano: the army goes to {space_label(c)} (1 denarius)"
        return f"Hispano: attack {space_label(c)}"
    if a < L.A_H_SPEND:
        return f"Hispano: attack with army {a - L.A_H_ARMY + 1}"
    return f"Hispano: spend {a - L.A_H_SPEND + 1} denari{'us' if a == L.A_H_SPEND else 'i'}"


def render_text(params: np.ndarray, state: np.ndarray) -> str:
    """A compact text picture of the position."""
    lines = []
    w = int(state[L.WINNER])
    track = int(state[L.TRACK])
    scenario = int(params[L.P_SCENARIO]) if len(params) > L.P_SCENARIO else 0
    limit = int(D.SCEN_TRACK_LIMIT[scenario])
    if limit == len(D.TIME_TRACK_YEARS):
        year = int(D.TIME_TRACK_YEARS[min(track, len(D.TIME_TRACK_YEARS) - 1)])
    else:  # The New Empire: 3 revolts a space on 54, 36, 18
        year = int(D.TIME_TRACK_YEARS[min(8 + track // 3, len(D.TIME_TRACK_YEARS) - 1)])
    actor = int(state[H_ACTOR])
    # players 0-2 are the Roman generals; player 3 (variant hispano) is the Hispano player,
    # not the proconsul (the proconsul's turn is played by a Roman player)
    who = "chance" if actor == CHANCE else (
        GENERAL_NAMES[actor] if 0 <= actor < L.HISPANO else "Hispano" if actor == L.HISPANO else "-"
    )  # fmt: skip
    lines.append(
        f"Hispania {year} BC | turn {GENERAL_NAMES[int(state[L.TURN])]} | to act: {who} | "
        f"denarii {int(state[L.DENARII])} | revolts in reserve {int(state[L.RESERVE])} | "
        f"track {track}/{limit}"
        + (f" | Hispano denarii {int(state[L.HDENARII])}" if int(state[L.HDENARII]) else "")
        + {0: "", 1: " | ROMAN VICTORY", 2: " | HISPANIC VICTORY"}[w]
    )
    if int(state[L.PEND_KIND]):
        lines.append(f"chosen target: {space_label(int(state[L.PEND_TARGET]))}")
    for s in range(D.NUM_SPACES):
        parts = []
        if state[L.REVOLTS + s]:
            n = int(state[L.REVOLTS + s])
            parts.append(f"{n} revolt{'' if n == 1 else 's'}")
        if s < D.NUM_CITIES:
            stack = state[L.GARR + s * L.STACK : L.GARR + s * L.STACK + L.STACK]
            garr = [COLOURS[int(c) - 1] for c in stack if 0 < c < 5]
            if garr:
                parts.append("garrisons " + "/".join(garr))
            for k in range(L.NUM_ARMY_SLOTS):
                if int(state[L.ARMY_POS + k]) == s:
                    parts.append("ARMY" if k < 3 else "SPECIAL ARMY")
            if stack.tolist().count(5):
                parts.append("Legio Hispana")
        elif state[L.FLEET + s - D.FIRST_SEA]:
            parts.append("fleet")
        for g in range(4):
            if int(state[L.GEN_POS + g]) == s:
                parts.append(GENERAL_NAMES[g])
        if parts:
            lines.append(f"  {space_label(s)}: " + ", ".join(parts))
    off = [GENERAL_NAMES[g] for g in range(3) if int(state[L.GEN_POS + g]) < 0]
    if off:
        lines.append("  off the board: " + ", ".join(off))
    lines.append(
        "  garrisons in reserve: "
        + ", ".join(f"{COLOURS[g]} {int(state[L.GARR_RESERVE + g])}" for g in range(3))
    )
    extra = [
        f"{D.SPACE_NAMES[D.LINK_A[li]]}-{D.SPACE_NAMES[D.LINK_B[li]]}"
        for li in range(D.NUM_LINKS)
        if state[L.ROADS + li]
    ]
    lines.append("  roads: " + ", ".join(extra))
    return "\n".join(lines)


CHANCE_WORDS = {
    L.CK_SETUP_REVOLT: "the Hispanic die for an initial revolt city",
    L.CK_SETUP_ARMY: "the Roman die for an initial army's province",
    L.CK_ROMAN_DIE: "the Roman die of the combat",
    L.CK_HISP_DIE: "the Hispanic die of the combat",
    L.CK_REVOLT_PROV: "the Roman die of the revolt roll (the province)",
    L.CK_REVOLT_CITY: "the Hispanic die of the revolt roll (the city)",
    L.CK_MOVE_DIE: "the Hispanic die moving an army",
    L.CK_TERROR: "the Terror die (is the special army placed?)",
}


def describe_chance(params: np.ndarray, state: np.ndarray, outcome: int, viewer: int) -> str:
    """The die about to be rolled in ``state`` (every die is public): "you rolled 4 (the
    Roman die of the combat)", "the Hispanic die of the revolt roll (the city): 2"."""
    kind = int(state[H_CHANCE_KIND])
    words = CHANCE_WORDS.get(kind, "a die")
    if kind == L.CK_SETUP_REVOLT:
        words += f" of province {D.PROVINCE_IDS[int(state[L.COUNTER]) % len(D.PROVINCE_IDS)]}"
    if kind == L.CK_ROMAN_DIE and int(state[L.COMBAT_GEN]) == viewer:
        return f"you rolled {int(outcome)} ({words})"
    return f"{words}: {int(outcome)}"

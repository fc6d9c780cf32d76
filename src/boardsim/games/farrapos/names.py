"""Farrapos in words: actions described, states rendered as readable (ansi) text."""

from __future__ import annotations

import os
import sys

import numpy as np

from boardsim.core.header import CHANCE, H_ACTOR, H_CHANCE_KIND
from boardsim.games.farrapos.data import (
    ADJACENCY,
    CITY_NAMES,
    CITY_PORT,
    CITY_REGION,
    CITY_VP,
    FIRST_YEAR,
    NUM_UNITS,
    PIECE_AF,
    PIECE_ARRIVAL,
    PIECE_DF,
    PIECE_ENTRY_RANK,
    PIECE_IDS,
    PIECE_MF,
    PIECE_SIDE,
    PIECE_TYPE,
    REGION_NAMES,
    SIDES,
    UNIT_TYPES,
)
from boardsim.games.farrapos.layout import (
    A_CANCEL,
    A_CITY,
    A_CONFIRM,
    A_CONTINUE,
    A_PASS,
    A_STOP,
    A_UNIT,
    ATTACKERS_RECHOSEN,
    CHANCE_ATTACK_DIE,
    DIE_A,
    DIE_D,
    IDX_A,
    IDX_D,
    LOC,
    LOC_ELIMINATED,
    LOC_RESERVE,
    LOSS_A,
    M_ATTACK,
    M_CONTINUE,
    M_LOSS,
    M_MAIN,
    M_MILITIA,
    M_MOVE,
    M_REINFORCE,
    MODE,
    MODE_NAMES,
    NUM_ACTIONS,
    OCC,
    OWNER,
    P_REPUBLIC_MU,
    P_ROUND_ATTACKERS,
    PHASE,
    ROUND,
    SEL,
    SEL_LAND,
    SEL_MOVED_LAND,
    SEL_SEA,
    SIDE,
    STEP,
    STR_A,
    STR_D,
    TARGET,
    TURN,
    VP,
    WINNER,
    C,
    P,
)

SIDE_TITLES = ("Republic", "Empire")
_COLOURS = ("\x1b[32m", "\x1b[33m")  # Republic green, Empire yellow
_RESET = "\x1b[0m"


def unit_words(state: np.ndarray, u: int) -> str:
    """``"R03 artillery (reduced, AF 3) at Triunfo"``."""
    step = int(state[STEP + u])
    face = "reduced" if step == 1 else "full"
    loc = int(state[LOC + u])
    where = CITY_NAMES[loc] if loc >= 0 else ("eliminated" if loc == LOC_ELIMINATED else "reserve")
    return (
        f"{PIECE_IDS[u]} {UNIT_TYPES[PIECE_TYPE[u]]} ({face}, MF {PIECE_MF[u, step]} "
        f"AF {PIECE_AF[u, step]} DF {PIECE_DF[u, step]}) at {where}"
    )


def _links_own(state: np.ndarray, side: int, c: int) -> bool:
    return any(ADJACENCY[c, k] and int(state[OCC + k]) == side for k in range(C))


def moved_units(state: np.ndarray) -> list[int]:
    """The MU that moved already in this action (``move_destinations="several"``)."""
    return [u for u in range(P) if int(state[SEL + u]) >= SEL_MOVED_LAND]


def describe_action(params: np.ndarray, state: np.ndarray, action: int) -> str:
    """Human words for ``action`` in ``state`` ("attack Porto Alegre from Triunfo", ...)."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"action {a} (out of range 0..{NUM_ACTIONS - 1})"
    if int(state[H_ACTOR]) == CHANCE:
        return f"die shows {a}"
    mode = int(state[MODE])
    side = int(state[SIDE])
    target = int(state[TARGET])
    if a == A_PASS:
        if mode == M_MILITIA:
            return "place no more militia"
        if mode == M_MAIN and moved_units(state):
            return "end the move (no more cities)"
        return "take no action"
    if a == A_CONFIRM and mode == M_MOVE and int(state[ROUND]) >= 1:
        return f"end the advance into {CITY_NAMES[target]} (the other survivors stay)"
    if a == A_CONFIRM:
        what = "attack" if mode == M_ATTACK else "move"
        return f"confirm the {what} on {CITY_NAMES[target]}" if target >= 0 else "confirm"
    if a == A_CANCEL:
        return "cancel"
    if a == A_CONTINUE:
        return f"continue the attack on {CITY_NAMES[target]}" if target >= 0 else "continue"
    if a == A_STOP:
        return "stop the attack" if target < 0 else f"stop the attack on {CITY_NAMES[target]}"
    if a < A_UNIT:
        c = a - A_CITY
        name = CITY_NAMES[c]
        if mode == M_REINFORCE:
            arriving = [
                u
                for u in range(P)
                if PIECE_SIDE[u] == side
                and PIECE_TYPE[u] != 3
                and int(state[LOC + u]) == LOC_RESERVE
                and PIECE_ARRIVAL[u] <= int(state[PHASE])
                and not is_withheld(params, u)
            ]
            if not arriving:
                return f"place in {name}"
            u = arriving[0]
            return f"place the arriving {PIECE_IDS[u]} {UNIT_TYPES[PIECE_TYPE[u]]} in {name}"
        if mode == M_MILITIA:
            return f"place a militia in {name}"
        if int(state[OCC + c]) == 1 - side:
            froms = sorted(
                {
                    CITY_NAMES[int(state[LOC + u])]
                    for u in range(P)
                    if PIECE_SIDE[u] == side
                    and int(state[LOC + u]) >= 0
                    and ADJACENCY[int(state[LOC + u]), c]
                }
            )
            return f"attack {name} from {', '.join(froms)}" if froms else f"attack {name}"
        if int(state[OWNER + c]) != side and _links_own(state, side, c):
            return f"invade {name}"
        return f"move units to {name}"
    u = a - A_UNIT
    if mode == M_LOSS:
        verb = "eliminate" if PIECE_TYPE[u] == 3 or int(state[STEP + u]) == 1 else "flip"
        return f"{verb} {unit_words(state, u)}"
    if mode == M_MOVE and int(state[ROUND]) >= 1:
        return f"advance {unit_words(state, u)} into {CITY_NAMES[target]}"
    if mode == M_CONTINUE:
        where = CITY_NAMES[target] if target >= 0 else "?"
        return f"continue the attack on {where} with units named anew, first {unit_words(state, u)}"
    if mode in (M_ATTACK, M_MOVE):
        verb = "withdraw" if int(state[SEL + u]) in (SEL_LAND, SEL_SEA) else "add"
        role = "attack on" if mode == M_ATTACK else "move to"
        where = CITY_NAMES[target] if target >= 0 else "?"
        return f"{verb} {unit_words(state, u)} ({role} {where})"
    return f"unit {PIECE_IDS[u]}"


def _side(s: int, text: str, colour: bool) -> str:
    return f"{_COLOURS[s]}{text}{_RESET}" if colour else text


def is_withheld(params: np.ndarray, u: int) -> bool:
    """MU ``u`` is one of its side's latest arrivals that ``republic_mu`` / ``empire_mu``
    keep out of the game (it stays in reserve and never enters)."""
    return PIECE_TYPE[u] != 3 and PIECE_ENTRY_RANK[u] >= int(params[P_REPUBLIC_MU + PIECE_SIDE[u]])


TEXT_LEGEND = """\
VP: each side's victory points
a city held or occupied: REP / EMP (held by the Republic / the Empire),
  its VP, port, region, then the units in it:
  R03, E17   a Republican / Imperial manoeuvre unit (MU)
  R02'       an MU on its reduced face
  RM2, EM3   a Republican / Imperial militia
  R05*       chosen for the action being composed; R05+: moved already in it
  (empty: possessed, scores nothing)   held with no unit in it
reserve: units not yet arrived; eliminated: units out of the game"""


def colour_wanted() -> bool:
    """The sides' colours only for a terminal: standard output a TTY and ``NO_COLOR`` unset
    (no escape codes in a redirected file, a pipe, a log or a notebook)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def render_text(params: np.ndarray, state: np.ndarray, colour: bool | None = None) -> str:
    """A readable board: phase and turn, VP, and every held or occupied city with its units.
    ``colour``: the sides in green and yellow (terminal escape codes); by default only
    when standard output is a terminal (:func:`colour_wanted`)."""
    if colour is None:
        colour = colour_wanted()
    phase, turn = int(state[PHASE]), int(state[TURN])
    side = int(state[SIDE])
    actor = int(state[H_ACTOR])
    # the loser of a battle round decides its loss on the other side's turn (ruling 13)
    decides = f", {SIDE_TITLES[actor]} decides" if actor in (0, 1) and actor != side else ""
    lines = [
        f"Farrapos  phase {phase} ({FIRST_YEAR + phase - 1}), turn {turn}: "
        f"{SIDE_TITLES[side]} to move{decides} ({MODE_NAMES[int(state[MODE])]})",
        f"VP  {_side(0, f'Republic {int(state[VP])}', colour)}   "
        f"{_side(1, f'Empire {int(state[VP + 1])}', colour)}",
    ]
    w = int(state[WINNER])
    if w >= 0:
        lines.append("Result: " + ("draw" if w == 2 else f"{SIDE_TITLES[w]} wins"))
    if int(state[TARGET]) >= 0:
        t = int(state[TARGET])
        lines.append(
            f"Target {CITY_NAMES[t]}; round {int(state[ROUND])}: attack {int(state[STR_A])} "
            f"die {int(state[DIE_A])} -> {int(state[IDX_A])}, defence {int(state[STR_D])} "
            f"die {int(state[DIE_D])} -> {int(state[IDX_D])}"
            + ("; the attacker loses a step" if int(state[LOSS_A]) else "")
        )
    for c in range(C):
        owner = int(state[OWNER + c])
        pieces = [u for u in range(P) if int(state[LOC + u]) == c]
        tag = f"{CITY_NAMES[c]} ({CITY_VP[c]} VP{', port' if CITY_PORT[c] else ''}, "
        tag += f"{REGION_NAMES[CITY_REGION[c]]})"
        if owner < 0:
            continue
        if not pieces:
            units = "(empty: possessed, scores nothing)"
            lines.append(f"  {_side(owner, SIDES[owner][:3].upper(), colour)} {tag}: {units}")
            continue
        units = " ".join(
            PIECE_IDS[u] + ("'" if int(state[STEP + u]) == 1 else "")
            + ("*" if int(state[SEL + u]) in (SEL_LAND, SEL_SEA) else "")
            + ("+" if int(state[SEL + u]) >= SEL_MOVED_LAND else "")
            for u in pieces
        )  # fmt: skip
        lines.append(f"  {_side(owner, SIDES[owner][:3].upper(), colour)} {tag}: {units}")
    for s in range(2):
        out = [PIECE_IDS[u] for u in range(NUM_UNITS) if PIECE_SIDE[u] == s
               and is_withheld(params, u)]  # fmt: skip
        waiting = [PIECE_IDS[u] for u in range(P) if PIECE_SIDE[u] == s
                   and int(state[LOC + u]) == LOC_RESERVE and PIECE_IDS[u] not in out]  # fmt: skip
        gone = [PIECE_IDS[u] for u in range(P) if PIECE_SIDE[u] == s
                and int(state[LOC + u]) == LOC_ELIMINATED]  # fmt: skip
        lines.append(
            f"  {SIDE_TITLES[s]}: reserve {' '.join(waiting) or '-'}; "
            f"eliminated {' '.join(gone) or '-'}" + (f"; withheld {' '.join(out)}" if out else "")
        )
    if int(state[MODE]) == M_MAIN and moved_units(state):
        lines.append(f"{SIDE_TITLES[side]} chooses: move other units to another city, or end")
    elif int(state[MODE]) == M_MAIN:
        lines.append(f"{SIDE_TITLES[side]} chooses: attack, move, invade or no action")
    elif int(state[MODE]) == M_MOVE and int(state[ROUND]) >= 1:
        t = CITY_NAMES[int(state[TARGET])]
        lines.append(f"{SIDE_TITLES[side]} chooses: which survivors enter {t} (one at least)")
    elif int(state[MODE]) == M_CONTINUE and int(params[P_ROUND_ATTACKERS]) == ATTACKERS_RECHOSEN:
        lines.append(
            f"{SIDE_TITLES[side]} chooses: continue or stop the attack, or name the attackers anew"
        )
    elif int(state[MODE]) == M_CONTINUE:
        lines.append(f"{SIDE_TITLES[side]} chooses: continue or stop the attack")
    return "\n".join(lines)


def evaluate(params: np.ndarray, state: np.ndarray, player: int) -> float:
    """A side's standing, higher is better: the result when over, else VP lead then strength.

    10 per VP of lead, plus 1 per step of MU on the board (a full unit has 2 steps, a
    reduced one 1) more than the enemy's. Used by simple search agents.
    """
    other = 1 - player
    w = int(state[WINNER])
    if w >= 0:
        return 0.0 if w == 2 else (1000.0 if w == player else -1000.0)
    lead = int(state[VP + player]) - int(state[VP + other])
    steps = 0
    for u in range(P):
        if PIECE_TYPE[u] != 3 and int(state[LOC + u]) >= 0:
            value = 2 - int(state[STEP + u])
            steps += value if PIECE_SIDE[u] == player else -value
    return 10.0 * lead + steps


def describe_chance(params: np.ndarray, state: np.ndarray, outcome: int, viewer: int) -> str:
    """The battle die about to be rolled in ``state``, in ``viewer``'s words (dice are
    public): "you rolled 5 for the attack on Pelotas", "the Empire rolled 3 for the
    defence of Pelotas"."""
    attacker = int(state[SIDE])
    attack = int(state[H_CHANCE_KIND]) == CHANCE_ATTACK_DIE
    roller = attacker if attack else 1 - attacker
    who = "you" if viewer == roller else f"the {SIDE_TITLES[roller]}"
    target = int(state[TARGET])
    where = f" of {CITY_NAMES[target]}" if target >= 0 else ""
    what = "the attack" + (f" on {CITY_NAMES[target]}" if target >= 0 else "")
    return f"{who} rolled {int(outcome)} for " + (what if attack else "the defence" + where)


__all__ = [
    "describe_action",
    "describe_chance",
    "evaluate",
    "is_withheld",
    "render_text",
    "unit_words",
]

"""Farrapos in words: actions described, states rendered as readable (ansi) text."""

from __future__ import annotations

import os
import sys

import numpy as np

from boardsim.core import header as H
from boardsim.games.farrapos import data as D
from boardsim.games.farrapos import layout as L

SIDE_TITLES = ("Republic", "Empire")
_COLOURS = ("\x1b[32m", "\x1b[33m")  # Republic green, Empire yellow
_RESET = "\x1b[0m"


def unit_words(state: np.ndarray, u: int) -> str:
    """``"R03 artillery (reduced, AF 3) at Triunfo"``."""
    step = int(state[L.STEP + u])
    face = "reduced" if step == 1 else "full"
    loc = int(state[L.LOC + u])
    where = (
        D.CITY_NAMES[loc] if loc >= 0 else ("eliminated" if loc == L.LOC_ELIMINATED else "reserve")
    )
    return (
        f"{D.PIECE_IDS[u]} {D.UNIT_TYPES[D.PIECE_TYPE[u]]} ({face}, MF {D.PIECE_MF[u, step]} "
        f"AF {D.PIECE_AF[u, step]} DF {D.PIECE_DF[u, step]}) at {where}"
    )


def _links_own(state: np.ndarray, side: int, c: int) -> bool:
    return any(D.ADJACENCY[c, k] and int(state[L.OCC + k]) == side for k in range(L.C))


def moved_units(state: np.ndarray) -> list[int]:
    """The MU that moved already in this action (``move_destinations="several"``)."""
    return [u for u in range(L.P) if int(state[L.SEL + u]) >= L.SEL_MOVED_LAND]


def describe_action(params: np.ndarray, state: np.ndarray, action: int) -> str:
    """Human words for ``action`` in ``state`` ("attack Porto Alegre from Triunfo", ...)."""
    a = int(action)
    if not 0 <= a < L.NUM_ACTIONS:
        return f"action {a} (out of range 0..{L.NUM_ACTIONS - 1})"
    if int(state[H.H_ACTOR]) == H.CHANCE:
        return f"die shows {a}"
    mode = int(state[L.MODE])
    side = int(state[L.SIDE])
    target = int(state[L.TARGET])
    if a == L.A_PASS:
        if mode == L.M_MILITIA:
            return "place no more militia"
        if mode == L.M_MAIN and moved_units(state):
            return "end the move (no more cities)"
        return "take no action"
    if a == L.A_CONFIRM and mode == L.M_MOVE and int(state[L.ROUND]) >= 1:
        return f"end the advance into {D.CITY_NAMES[target]} (the other survivors stay)"
    if a == L.A_CONFIRM:
        what = "attack" if mode == L.M_ATTACK else "move"
        return f"confirm the {what} on {D.CITY_NAMES[target]}" if target >= 0 else "confirm"
    if a == L.A_CANCEL:
        return "cancel"
    if a == L.A_CONTINUE:
        return f"continue the attack on {D.CITY_NAMES[target]}" if target >= 0 else "continue"
    if a == L.A_STOP:
        return "stop the attack" if target < 0 else f"stop the attack on {D.CITY_NAMES[target]}"
    if a < L.A_UNIT:
        c = a - L.A_CITY
        name = D.CITY_NAMES[c]
        if mode == L.M_REINFORCE:
            arriving = [
                u
                for u in range(L.P)
                if D.PIECE_SIDE[u] == side
                and D.PIECE_TYPE[u] != 3
                and int(state[L.LOC + u]) == L.LOC_RESERVE
                and D.PIECE_ARRIVAL[u] <= int(state[L.PHASE])
                and not is_withheld(params, u)
            ]
            if not arriving:
                return f"place in {name}"
            u = arriving[0]
            return f"place the arriving {D.PIECE_IDS[u]} {D.UNIT_TYPES[D.PIECE_TYPE[u]]} in {name}"
        if mode == L.M_MILITIA:
            return f"place a militia in {name}"
        if int(state[L.OCC + c]) == 1 - side:
            froms = sorted(
                {
                    D.CITY_NAMES[int(state[L.LOC + u])]
                    for u in range(L.P)
                    if D.PIECE_SIDE[u] == side
                    and int(state[L.LOC + u]) >= 0
                    and D.ADJACENCY[int(state[L.LOC + u]), c]
                }
            )
            return f"attack {name} from {', '.join(froms)}" if froms else f"attack {name}"
        if int(state[L.OWNER + c]) != side and _links_own(state, side, c):
            return f"invade {name}"
        return f"move units to {name}"
    u = a - L.A_UNIT
    if mode == L.M_LOSS:
        verb = "eliminate" if D.PIECE_TYPE[u] == 3 or int(state[L.STEP + u]) == 1 else "flip"
        return f"{verb} {unit_words(state, u)}"
    if mode == L.M_MOVE and int(state[L.ROUND]) >= 1:
        return f"advance {unit_words(state, u)} into {D.CITY_NAMES[target]}"
    if mode == L.M_CONTINUE:
        where = D.CITY_NAMES[target] if target >= 0 else "?"
        return f"continue the attack on {where} with units named anew, first {unit_words(state, u)}"
    if mode in (L.M_ATTACK, L.M_MOVE):
        verb = "withdraw" if int(state[L.SEL + u]) in (L.SEL_LAND, L.SEL_SEA) else "add"
        role = "attack on" if mode == L.M_ATTACK else "move to"
        where = D.CITY_NAMES[target] if target >= 0 else "?"
        return f"{verb} {unit_words(state, u)} ({role} {where})"
    return f"unit {D.PIECE_IDS[u]}"


def _side(s: int, text: str, colour: bool) -> str:
    return f"{_COLOURS[s]}{text}{_RESET}" if colour else text


def is_withheld(params: np.ndarray, u: int) -> bool:
    """MU ``u`` is one of its side's latest arrivals that ``republic_mu`` / ``empire_mu``
    keep out of the game (it stays in reserve and never enters)."""
    return D.PIECE_TYPE[u] != 3 and D.PIECE_ENTRY_RANK[u] >= int(
        params[L.P_REPUBLIC_MU + D.PIECE_SIDE[u]]
    )


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
    phase, turn = int(state[L.PHASE]), int(state[L.TURN])
    side = int(state[L.SIDE])
    actor = int(state[H.H_ACTOR])
    # the loser of a battle round decides its loss on the other side's turn (ruling 13)
    decides = f", {SIDE_TITLES[actor]} decides" if actor in (0, 1) and actor != side else ""
    lines = [
        f"Farrapos  phase {phase} ({D.FIRST_YEAR + phase - 1}), turn {turn}: "
        f"{SIDE_TITLES[side]} to move{decides} ({L.MODE_NAMES[int(state[L.MODE])]})",
        f"VP  {_side(0, f'Republic {int(state[L.VP])}', colour)}   "
        f"{_side(1, f'Empire {int(state[L.VP + 1])}', colour)}",
    ]
    w = int(state[L.WINNER])
    if w >= 0:
        lines.append("Result: " + ("draw" if w == 2 else f"{SIDE_TITLES[w]} wins"))
    if int(state[L.TARGET]) >= 0:
        t = int(state[L.TARGET])
        lines.append(
            f"Target {D.CITY_NAMES[t]}; round {int(state[L.ROUND])}: attack {int(state[L.STR_A])} "
            f"die {int(state[L.DIE_A])} -> {int(state[L.IDX_A])}, defence {int(state[L.STR_D])} "
            f"die {int(state[L.DIE_D])} -> {int(state[L.IDX_D])}"
            + ("; the attacker loses a step" if int(state[L.LOSS_A]) else "")
        )
    for c in range(L.C):
        owner = int(state[L.OWNER + c])
        pieces = [u for u in range(L.P) if int(state[L.LOC + u]) == c]
        tag = f"{D.CITY_NAMES[c]} ({D.CITY_VP[c]} VP{', port' if D.CITY_PORT[c] else ''}, "
        tag += f"{D.REGION_NAMES[D.CITY_REGION[c]]})"
        if owner < 0:
            continue
        if not pieces:
            units = "(empty: possessed, scores nothing)"
            lines.append(f"  {_side(owner, D.SIDES[owner][:3].upper(), colour)} {tag}: {units}")
            continue
        units = " ".join(
            D.PIECE_IDS[u] + ("'" if int(state[L.STEP + u]) == 1 else "")
            + ("*" if int(state[L.SEL + u]) in (L.SEL_LAND, L.SEL_SEA) else "")
            + ("+" if int(state[L.SEL + u]) >= L.SEL_MOVED_LAND else "")
            for u in pieces
        )  # fmt: skip
        lines.append(f"  {_side(owner, D.SIDES[owner][:3].upper(), colour)} {tag}: {units}")
    for s in range(2):
        out = [D.PIECE_IDS[u] for u in range(D.NUM_UNITS) if D.PIECE_SIDE[u] == s
               and is_withheld(params, u)]  # fmt: skip
        waiting = [D.PIECE_IDS[u] for u in range(L.P) if D.PIECE_SIDE[u] == s
                   and int(state[L.LOC + u]) == L.LOC_RESERVE
                   and D.PIECE_IDS[u] not in out]  # fmt: skip
        gone = [D.PIECE_IDS[u] for u in range(L.P) if D.PIECE_SIDE[u] == s
                and int(state[L.LOC + u]) == L.LOC_ELIMINATED]  # fmt: skip
        lines.append(
            f"  {SIDE_TITLES[s]}: reserve {' '.join(waiting) or '-'}; "
            f"eliminated {' '.join(gone) or '-'}" + (f"; withheld {' '.join(out)}" if out else "")
        )
    if int(state[L.MODE]) == L.M_MAIN and moved_units(state):
        lines.append(f"{SIDE_TITLES[side]} chooses: move other units to another city, or end")
    elif int(state[L.MODE]) == L.M_MAIN:
        lines.append(f"{SIDE_TITLES[side]} chooses: attack, move, invade or no action")
    elif int(state[L.MODE]) == L.M_MOVE and int(state[L.ROUND]) >= 1:
        t = D.CITY_NAMES[int(state[L.TARGET])]
        lines.append(f"{SIDE_TITLES[side]} chooses: which survivors enter {t} (one at least)")
    elif (
        int(state[L.MODE]) == L.M_CONTINUE
        and int(params[L.P_ROUND_ATTACKERS]) == L.ATTACKERS_RECHOSEN
    ):
        lines.append(
            f"{SIDE_TITLES[side]} chooses: continue or stop the attack, or name the attackers anew"
        )
    elif int(state[L.MODE]) == L.M_CONTINUE:
        lines.append(f"{SIDE_TITLES[side]} chooses: continue or stop the attack")
    return "\n".join(lines)


def evaluate(params: np.ndarray, state: np.ndarray, player: int) -> float:
    """A side's standing, higher is better: the result when over, else VP lead then strength.

    10 per VP of lead, plus 1 per step of MU on the board (a full unit has 2 steps, a
    reduced one 1) more than the enemy's. Used by simple search agents.
    """
    other = 1 - player
    w = int(state[L.WINNER])
    if w >= 0:
        return 0.0 if w == 2 else (1000.0 if w == player else -1000.0)
    lead = int(state[L.VP + player]) - int(state[L.VP + other])
    steps = 0
    for u in range(L.P):
        if D.PIECE_TYPE[u] != 3 and int(state[L.LOC + u]) >= 0:
            value = 2 - int(state[L.STEP + u])
            steps += value if D.PIECE_SIDE[u] == player else -value
    return 10.0 * lead + steps


def describe_chance(params: np.ndarray, state: np.ndarray, outcome: int, viewer: int) -> str:
    """The battle die about to be rolled in ``state``, in ``viewer``'s words (dice are
    public): "you rolled 5 for the attack on Pelotas", "the Empire rolled 3 for the
    defence of Pelotas"."""
    attacker = int(state[L.SIDE])
    attack = int(state[H.H_CHANCE_KIND]) == L.CHANCE_ATTACK_DIE
    roller = attacker if attack else 1 - attacker
    who = "you" if viewer == roller else f"the {SIDE_TITLES[roller]}"
    target = int(state[L.TARGET])
    where = f" of {D.CITY_NAMES[target]}" if target >= 0 else ""
    what = "the attack" + (f" on {D.CITY_NAMES[target]}" if target >= 0 else "")
    return f"{who} rolled {int(outcome)} for " + (what if attack else "the defence" + where)


__all__ = [
    "describe_action",
    "describe_chance",
    "evaluate",
    "is_withheld",
    "render_text",
    "unit_words",
]

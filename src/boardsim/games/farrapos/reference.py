"""Farrapos rules in plain, readable Python: the oracle for the differential tests.

The state is a plain ``list`` of ints with exactly the layout of ``layout.py``; the
generic plain-Python engine (``core/reference.py``'s ``ReferenceEngine``) adds
seeding, chance resolution and truncation, drawing dice in the same order as the
compiled core. Written independently of ``rules.py`` (sets and helper lists rather
than index loops), so that both must agree on every word after every step.
"""

from __future__ import annotations

from collections import deque

from boardsim.core import header as H
from boardsim.games.farrapos import data as D
from boardsim.games.farrapos import layout as L

State = list[int]
Params = list[int]

CITIES = range(L.C)
UNITS = range(D.NUM_UNITS)  # military units (MU)
PIECES = range(L.P)  # MU then militia
MILITIA = range(D.NUM_UNITS, L.P)
LINKS = {c: tuple(k for k in CITIES if D.ADJACENCY[c][k]) for c in CITIES}  # ascending
PORTS = {c for c in CITIES if D.CITY_PORT[c]}
REGIONS = {r: {c for c in CITIES if D.CITY_REGION[c] == r} for r in range(D.NUM_REGIONS)}
SIDE_OF = [int(s) for s in D.PIECE_SIDE]


# ---------------------------------------------------------------- reading the state
def loc(s: State, u: int) -> int:
    return s[L.LOC + u]


def owner(s: State, c: int) -> int:
    """The side possessing ``c`` (-1 none); it keeps an emptied city until the enemy enters
    (with ``empty_city="neutral"``, until the turn ends)."""
    return s[L.OWNER + c]


def occupant(s: State, c: int) -> int:
    """The side with a unit or militia in ``c`` (-1 empty)."""
    return s[L.OCC + c]


def face(s: State, u: int) -> int:
    return s[L.STEP + u]


def pieces_in(s: State, c: int) -> list[int]:
    return [u for u in PIECES if loc(s, u) == c]


def selected(s: State) -> list[int]:
    """Chosen units still on the board (not those that moved already in this action)."""
    return [u for u in UNITS if s[L.SEL + u] in (L.SEL_LAND, L.SEL_SEA) and loc(s, u) >= 0]


def moved_already(s: State) -> list[int]:
    """The MU that moved in this action (``move_destinations="several"``)."""
    return [u for u in UNITS if s[L.SEL + u] in (L.SEL_MOVED_LAND, L.SEL_MOVED_SEA)]


def cities_of(s: State, side: int) -> set[int]:
    """Cities in ``side``'s possession."""
    return {c for c in CITIES if owner(s, c) == side}


def occupied_by(s: State, side: int) -> set[int]:
    return {c for c in CITIES if occupant(s, c) == side}


# ---------------------------------------------------------------- VP
def recount(s: State, params: Params) -> None:
    """Occupation from the pieces; possession follows occupation; VP from occupation
    (the region and ports bonuses as the options set them)."""
    occupants = {loc(s, u): SIDE_OF[u] for u in PIECES if loc(s, u) >= 0}
    for c in CITIES:
        s[L.OCC + c] = occupants.get(c, -1)
        if c in occupants:
            s[L.OWNER + c] = occupants[c]
    for side in (0, 1):
        held = occupied_by(s, side)
        vp = sum(int(D.CITY_VP[c]) for c in held)
        shift = params[L.P_REGION_BONUS_SHIFT]
        vp += sum(
            max(int(D.REGION_BONUS[r]) + shift, 0)
            for r, members in REGIONS.items()
            if members <= held
        )
        if held >= PORTS:
            vp += params[L.P_PORTS_BONUS]
        s[L.VP + side] = vp


# ---------------------------------------------------------------- deployment
def fielded(params: Params, side: int) -> set[int]:
    """The side's MU in the game: its set-up units, then its first arrivals by phase (file
    order breaking ties), ``republic_mu`` / ``empire_mu`` in all; the later ones never
    enter."""
    mine = sorted(
        (D.PIECE_SETUP[u] < 0, int(D.PIECE_ARRIVAL[u]), u) for u in UNITS if SIDE_OF[u] == side
    )
    return {u for *_, u in mine[: params[L.P_REPUBLIC_MU + side]]}


def arriving_unit(s: State, params: Params, side: int) -> int | None:
    playing = fielded(params, side)
    for u in UNITS:
        if u in playing and loc(s, u) == L.LOC_RESERVE and D.PIECE_ARRIVAL[u] <= s[L.PHASE]:
            return u
    return None


def spare_militia(s: State, side: int) -> int | None:
    for u in MILITIA:
        if SIDE_OF[u] == side and loc(s, u) == L.LOC_RESERVE:
            return u
    return None


def militia_cities(s: State, side: int) -> list[int]:
    """Empty cities of ``side``'s possession, when it has a militia counter left."""
    if spare_militia(s, side) is None:
        return []
    return [c for c in CITIES if owner(s, c) == side and occupant(s, c) == -1]


def units_to_bring_in(s: State, params: Params) -> bool:
    """The side to move has an arriving MU and a city of its possession to put it in."""
    side = s[L.SIDE]
    return arriving_unit(s, params, side) is not None and bool(cities_of(s, side))


def arrivals_after(params: Params) -> bool:
    """Ruling 3's option: arrivals in the set-up step after the action (l.63), not first."""
    return params[L.P_ARRIVALS] == L.ARRIVALS_AFTER


def deploy_mode(s: State, params: Params) -> int:
    """The mode a turn starts in."""
    if units_to_bring_in(s, params) and not arrivals_after(params):
        return L.M_REINFORCE
    return L.M_MAIN


# ---------------------------------------------------------------- movement
def distances_to(s: State, side: int, dest: int) -> dict[int, int]:
    """Breadth-first steps to ``dest`` along path lines avoiding enemy-held cities."""
    dist = {dest: 0}
    todo = deque([dest])
    while todo:
        cur = todo.popleft()
        for nb in LINKS[cur]:
            if nb not in dist and occupant(s, nb) != 1 - side:
                dist[nb] = dist[cur] + 1
                todo.append(nb)
    return dist


def sea_ok(s: State, params: Params, side: int, u: int, dest: int) -> bool:
    if not params[L.P_PORT_TRANSPORT]:
        return False
    held_ports = PORTS & cities_of(s, side)
    if params[L.P_SEA_PORTS] == L.SEA_PORTS_CONQUERED:  # ruling 19's option: won ports only
        held_ports = {c for c in held_ports if D.CITY_START[c] != side}
    return len(held_ports) >= 2 and dest in held_ports and loc(s, u) in held_ports


def how_unit_moves(
    s: State, params: Params, side: int, u: int, dest: int, dist: dict[int, int]
) -> int:
    """SEL_LAND within its MF (``dist`` = distances_to(dest)), SEL_SEA by port, else 0."""
    if u >= D.NUM_UNITS or SIDE_OF[u] != side or loc(s, u) < 0 or loc(s, u) == dest:
        return 0
    if params[L.P_EMPTY_ORIGIN] == L.ORIGIN_KEEPS_ONE:  # ruling 10's option: one stays
        chosen = set(selected(s))
        if not [v for v in pieces_in(s, loc(s, u)) if v != u and v not in chosen]:
            return 0
    d = dist.get(loc(s, u))
    if d is not None and d <= D.PIECE_MF[u][face(s, u)]:
        return L.SEL_LAND
    if s[L.SEA_USED] < 2 and sea_ok(s, params, side, u, dest):
        return L.SEL_SEA
    return 0


def may_still_move(s: State, side: int) -> list[int]:
    """The side's MU on the board that have not moved in this action."""
    return [u for u in UNITS if SIDE_OF[u] == side and loc(s, u) >= 0 and not s[L.SEL + u]]


def reachable_cities(s: State, params: Params, side: int) -> list[int]:
    """The cities not enemy-occupied that an MU still free to move can go to."""
    mine = may_still_move(s, side)
    out = []
    for c in CITIES:
        if occupant(s, c) != 1 - side:
            dist = distances_to(s, side, c)
            if any(how_unit_moves(s, params, side, u, c, dist) for u in mine):
                out.append(c)
    return out


def several_destinations(params: Params) -> bool:
    """Ruling 8's option: a move action may go on to further cities (l.61)."""
    return params[L.P_MOVE_DESTINATIONS] == L.MOVES_SEVERAL


def arrive(s: State, params: Params) -> None:
    """The move's chosen MU enter its city; with several destinations the side may then
    send the MU that have not moved to another city (or end the action)."""
    for u in selected(s):
        s[L.LOC + u] = s[L.TARGET]
    if not several_destinations(params):
        next_turn(s, params)
        return
    for u in selected(s):
        s[L.SEL + u] += L.SEL_MOVED
    s[L.TARGET] = -1
    recount(s, params)
    if reachable_cities(s, params, s[L.SIDE]):
        s[L.MODE] = L.M_MAIN
    else:
        next_turn(s, params)


def attackers_rechosen(params: Params) -> bool:
    """Ruling 14's option: before each further round the attackers may be named anew."""
    return params[L.P_ROUND_ATTACKERS] == L.ATTACKERS_RECHOSEN


def attackers_possible(s: State, side: int, target: int) -> list[int]:
    return [u for u in UNITS if SIDE_OF[u] == side and loc(s, u) in LINKS[target]]


# ---------------------------------------------------------------- battle
def table(strength: int, die: int) -> int:
    cols = [i for i, low in enumerate(D.COLUMN_LOW) if strength >= low]
    return int(D.BATTLE_TABLE[die - 1][cols[-1]]) if cols else 0


def city_defence_bonus(s: State, params: Params, c: int) -> int:
    holder = occupant(s, c)
    besieged = holder >= 0 and all(occupant(s, k) == 1 - holder for k in LINKS[c])
    return 0 if params[L.P_SIEGE] and besieged else int(D.CITY_VP[c])


def roll_round(s: State, params: Params) -> None:
    t = s[L.TARGET]
    s[L.ROUND] += 1
    s[L.STR_A] = sum(int(D.PIECE_AF[u][face(s, u)]) for u in selected(s))
    s[L.STR_D] = sum(int(D.PIECE_DF[u][face(s, u)]) for u in pieces_in(s, t))
    s[L.STR_D] += city_defence_bonus(s, params, t)
    for k in (L.DIE_A, L.DIE_D, L.IDX_A, L.IDX_D):
        s[k] = 0
    s[L.MODE] = L.M_DICE
    s[H.H_ACTOR] = H.CHANCE
    s[H.H_CHANCE_KIND] = L.CHANCE_ATTACK_DIE


def ask_for_losses(s: State, params: Params) -> None:
    if s[L.LOSS_A]:
        s[L.MODE] = L.M_LOSS
        s[H.H_ACTOR] = s[L.SIDE]
    elif s[L.LOSS_D]:
        s[L.MODE] = L.M_LOSS
        s[H.H_ACTOR] = 1 - s[L.SIDE]
    else:
        t = s[L.TARGET]
        if not pieces_in(s, t) and params[L.P_ADVANCE] == L.ADVANCE_CHOSEN and len(selected(s)) > 1:
            s[L.MODE] = L.M_MOVE  # the advance: the attacker chooses who enters (ROUND >= 1)
            s[H.H_ACTOR] = s[L.SIDE]
        elif not pieces_in(s, t):
            for u in selected(s):
                s[L.LOC + u] = t
            if not selected(s) and params[L.P_EMPTY_CITY] == L.EMPTY_NEUTRAL:
                s[L.OWNER + t] = -1  # both sides wiped out by a tie: no one's at once
            next_turn(s, params)
        elif not selected(s):
            next_turn(s, params)
        else:
            recount(s, params)
            s[L.MODE] = L.M_CONTINUE
            s[H.H_ACTOR] = s[L.SIDE]


def take_loss(s: State, u: int) -> None:
    if D.PIECE_TYPE[u] == D.T_MILITIA or face(s, u) == 1:
        s[L.LOC + u] = L.LOC_ELIMINATED
        s[L.SEL + u] = 0
    else:
        s[L.STEP + u] = 1


# ---------------------------------------------------------------- turns
def game_over(s: State, winner: int) -> None:
    s[L.WINNER] = winner
    s[L.MODE] = L.M_OVER
    s[H.H_FLAGS] |= H.FLAG_TERMINAL
    s[H.H_ACTOR] = H.TERMINAL
    s[H.H_CHANCE_KIND] = 0


def leader(s: State) -> int:
    rep, emp = s[L.VP], s[L.VP + 1]
    return 0 if rep > emp else 1 if emp > rep else L.DRAW


def start_turn(s: State, params: Params) -> None:
    s[L.SIDE] = int(D.TURN_SIDE[s[L.TURN] - 1])
    s[H.H_ACTOR] = s[L.SIDE]
    s[H.H_CHANCE_KIND] = 0
    s[L.MODE] = deploy_mode(s, params)


def reset_choice(s: State) -> None:
    for u in PIECES:
        s[L.SEL + u] = 0
    s[L.SEA_USED] = 0
    s[L.TARGET] = -1
    s[L.ROUND] = 0
    s[L.LOSS_A] = 0
    s[L.LOSS_D] = 0


def next_turn(s: State, params: Params) -> None:
    """The action is over: the set-up step (the arrivals with ``arrivals="after"``, then
    the militia) if anything is to be placed, else close the turn."""
    reset_choice(s)
    recount(s, params)
    if arrivals_after(params) and units_to_bring_in(s, params):
        s[L.MODE] = L.M_REINFORCE
        s[H.H_ACTOR] = s[L.SIDE]
    else:
        militia_or_close(s, params)


def militia_or_close(s: State, params: Params) -> None:
    """The set-up step's militia if one can be placed, else the turn closes."""
    if militia_cities(s, s[L.SIDE]):
        s[L.MODE] = L.M_MILITIA
        s[H.H_ACTOR] = s[L.SIDE]
    else:
        close_turn(s, params)


def close_turn(s: State, params: Params) -> None:
    recount(s, params)
    if params[L.P_EMPTY_CITY] == L.EMPTY_NEUTRAL:  # ruling 5's option: empty is no one's
        for c in CITIES:
            if occupant(s, c) == -1:
                s[L.OWNER + c] = -1
    need = params[L.P_VICTORY_VP]
    if s[L.PHASE] < D.PHASES and max(s[L.VP], s[L.VP + 1]) >= need:
        game_over(s, leader(s))
        return
    if s[L.TURN] < D.TURNS_PER_PHASE:
        s[L.TURN] += 1
    elif s[L.PHASE] < D.PHASES:
        s[L.TURN] = 1
        s[L.PHASE] += 1
    else:
        w = leader(s)
        game_over(s, 1 if w == L.DRAW and params[L.P_FINAL_TIE] == 1 else w)
        return
    start_turn(s, params)


# ---------------------------------------------------------------- the reference API
def init(state: State, params: Params, seed: int) -> None:
    s = state
    s[L.PHASE] = 1
    s[L.TURN] = 1
    s[L.TARGET] = -1
    s[L.WINNER] = L.NO_WINNER
    for c in CITIES:
        s[L.OWNER + c] = int(D.CITY_START[c])
    for u in PIECES:
        s[L.LOC + u] = int(D.PIECE_SETUP[u]) if D.PIECE_SETUP[u] >= 0 else L.LOC_RESERVE
    recount(s, params)
    start_turn(s, params)


def legal_actions(state: State, params: Params) -> list[int]:
    s = state
    side, mode, t = s[L.SIDE], s[L.MODE], s[L.TARGET]
    if s[H.H_ACTOR] < 0:
        return []
    acts: list[int] = []
    if mode == L.M_REINFORCE:
        acts = [L.A_CITY + c for c in sorted(cities_of(s, side))]
    elif mode == L.M_MILITIA:
        acts = [L.A_CITY + c for c in militia_cities(s, side)] + [L.A_PASS]
    elif mode == L.M_MAIN:
        targets = set(reachable_cities(s, params, side))
        if not moved_already(s):  # no attack once a move to several cities is under way
            targets |= {c for c in occupied_by(s, 1 - side) if attackers_possible(s, side, c)}
        acts = [L.A_CITY + c for c in sorted(targets)] + [L.A_PASS]
    elif mode == L.M_ATTACK:  # add-only, no cancel (ledger row 25)
        acts = [L.A_UNIT + u for u in attackers_possible(s, side, t) if not s[L.SEL + u]]
        if any(s[L.SEL + u] for u in UNITS):
            acts.append(L.A_CONFIRM)
    elif mode == L.M_MOVE and s[L.ROUND]:  # the advance into a taken city
        acts = [L.A_UNIT + u for u in selected(s)]
        if occupant(s, t) == side:
            acts.append(L.A_CONFIRM)
    elif mode == L.M_MOVE:
        dist = distances_to(s, side, t)
        acts = [
            L.A_UNIT + u
            for u in UNITS
            if not s[L.SEL + u] and how_unit_moves(s, params, side, u, t, dist)
        ]
        if selected(s):
            acts.append(L.A_CONFIRM)
    elif mode == L.M_LOSS:
        losers = selected(s) if s[L.LOSS_A] else pieces_in(s, t)
        acts = [L.A_UNIT + u for u in sorted(losers)]
    elif mode == L.M_CONTINUE:
        acts = [L.A_CONTINUE, L.A_STOP]
        if attackers_rechosen(params):  # or name the attackers anew, this unit first
            acts = [L.A_UNIT + u for u in attackers_possible(s, side, t)] + acts
    return acts


def apply_action(state: State, params: Params, action: int) -> None:
    s = state
    side, mode = s[L.SIDE], s[L.MODE]
    if mode == L.M_REINFORCE:
        s[L.LOC + arriving_unit(s, params, side)] = action - L.A_CITY
        recount(s, params)
        more = units_to_bring_in(s, params)  # then the next arriving unit is placed
        if not more and arrivals_after(params):
            militia_or_close(s, params)
        elif not more:
            s[L.MODE] = L.M_MAIN
    elif mode == L.M_MILITIA:
        if action == L.A_PASS:
            close_turn(s, params)
        else:
            s[L.LOC + spare_militia(s, side)] = action - L.A_CITY
            recount(s, params)
            if not militia_cities(s, side):
                close_turn(s, params)
    elif mode == L.M_MAIN:
        if action == L.A_PASS:
            next_turn(s, params)
        else:
            c = action - L.A_CITY
            s[L.TARGET] = c
            s[L.MODE] = L.M_ATTACK if occupant(s, c) == 1 - side else L.M_MOVE
    elif mode == L.M_MOVE and s[L.ROUND]:  # the advance (advance="chosen")
        if action == L.A_CONFIRM:
            next_turn(s, params)
            return
        u = action - L.A_UNIT
        s[L.LOC + u] = s[L.TARGET]
        s[L.SEL + u] = 0
        recount(s, params)
        if not selected(s):
            next_turn(s, params)
    elif mode in (L.M_ATTACK, L.M_MOVE):
        if action == L.A_CONFIRM and mode == L.M_ATTACK:
            roll_round(s, params)  # ROUND: 0 for a new attack, on from a re-chosen round
        elif action == L.A_CONFIRM:
            arrive(s, params)
        else:  # one more unit joins; none leaves (ledger row 25)
            u = action - L.A_UNIT
            if mode == L.M_ATTACK:
                s[L.SEL + u] = L.SEL_LAND
            else:
                t = s[L.TARGET]
                how = how_unit_moves(s, params, side, u, t, distances_to(s, side, t))
                s[L.SEL + u] = how
                if how == L.SEL_SEA:
                    s[L.SEA_USED] += 1
    elif mode == L.M_LOSS:
        take_loss(s, action - L.A_UNIT)
        if s[L.LOSS_A]:
            s[L.LOSS_A] = 0
        else:
            s[L.LOSS_D] = 0
        recount(s, params)
        ask_for_losses(s, params)
    elif mode == L.M_CONTINUE:
        if action == L.A_CONTINUE:
            roll_round(s, params)
        elif action == L.A_STOP:
            next_turn(s, params)
        else:  # the attackers named anew, this one first (round_attackers="rechosen")
            for u in UNITS:
                s[L.SEL + u] = 0
            s[L.SEL + action - L.A_UNIT] = L.SEL_LAND
            s[L.MODE] = L.M_ATTACK


def chance_weights(state: State, params: Params) -> tuple[list[int], list[int]]:
    return [1, 2, 3, 4, 5, 6], [1] * 6


def apply_chance(state: State, params: Params, outcome: int) -> None:
    s = state
    if s[H.H_CHANCE_KIND] == L.CHANCE_ATTACK_DIE:
        s[L.DIE_A] = outcome
        s[H.H_CHANCE_KIND] = L.CHANCE_DEFENCE_DIE
        return
    s[L.DIE_D] = outcome
    s[H.H_CHANCE_KIND] = 0
    s[L.IDX_A] = table(s[L.STR_A], s[L.DIE_A])
    s[L.IDX_D] = table(s[L.STR_D], s[L.DIE_D])
    s[L.LOSS_A] = int(s[L.IDX_D] >= s[L.IDX_A])
    s[L.LOSS_D] = int(s[L.IDX_A] >= s[L.IDX_D])
    ask_for_losses(s, params)


def returns(state: State, params: Params) -> list[float]:
    s = state
    out = [0.0, 0.0]
    if params[L.P_REWARD] == 1:
        lead = (s[L.VP] - s[L.VP + 1]) - int(D.START_VP[0] - D.START_VP[1])
        out = [lead / 24.0, -lead / 24.0]
    w = s[L.WINNER]
    if w in (0, 1):
        out[w] += 1.0
        out[1 - w] -= 1.0
    return out

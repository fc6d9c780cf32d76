"""Farrapos's compiled rule-based player (``heuristic_action``), for either side.

One of the kernels of its bundle (``GameKernels.from_package``) for the generic engine;
it reads the rules as ``R``.

How it plays, in a player's words:

* **Victory points are held, not owned.** A city scores only while a unit or a
  militia stands in it, so never empty a city to go somewhere else: the units that
  march or attack are the spare ones, and a city's last piece stays home unless the
  prize is worth more than what it guards.
* **Fill the empty cities.** Arriving units and militia go first to the cities of
  ours that stand empty (the richest first), so that they score again; otherwise
  arriving units go where the enemy is next door.
* **Attack when the odds are good.** Before attacking, reckon each round's chances
  from the battle table (our attack factors against the defence factors plus the
  city's VP) and the chance to wear the defenders down before they wear us down;
  attack the city where the expected VP swing is best, with every unit that can
  reach it when it needs them all, with the spare ones when they suffice.
* **Take what is free.** With no good attack, march spare units into the empty or
  neutral city that gains the most VP (a colour region completed, a port). When a move
  may go to several cities (``move_destinations="several"``), go on marching the units
  that have not moved to the next best city while a march still gains, then stop.
* **Press on while winning.** After a round, continue while a round is still more
  likely won than lost; otherwise stop and keep the units. When the attackers may be
  named anew for each round (``round_attackers="rechosen"``), attack with the units the
  attack plan picks now if they differ from the last round's.
* **Hold what you leave.** When the attacker chooses who enters a city it took
  (``advance="chosen"``), the survivors whose city keeps another piece enter; the last
  piece of a city stays home (one enters in any case: from the city worth least).
* **Lose the cheapest step.** When a loss must be taken, flip a full unit (the one
  whose flip costs the fewest factors) before losing a piece; the last piece of a
  city goes last.

Every composite choice is decided once (the city, then the units it wants, then
confirm), from the board alone, so a choice is never cancelled and re-chosen: games
always finish. It is deterministic: ties go to the lowest index (``prng`` is unused).
"""

import numpy as np

from boardsim.core import header as H
from boardsim.core.jit import jit
from boardsim.core.kernel_parts import legal_or_fallback
from boardsim.games.farrapos import data as D
from boardsim.games.farrapos import layout as L
from boardsim.games.farrapos import rules as R

MAX_STEPS = 24  # battle steps a side may bring (bounds the odds table)
LOSS_COST = 0.3  # VP an expected lost step of ours is worth
FRONT_BONUS = 0.4  # an arriving unit next to the enemy
MIN_ATTACK = 0.25  # expected VP swing below which an attack is not worth it


@jit
def vp_lead(state, side):
    """``side``'s VP minus the enemy's (as recorded)."""
    return state[L.VP + side] - state[L.VP + 1 - side]


@jit
def enemy_neighbours(state, side, c):
    """Cities linked to ``c`` that the enemy occupies."""
    n = 0
    for k in range(D.DEGREE[c]):
        if state[L.OCC + D.NEIGHBORS[c, k]] == 1 - side:
            n += 1
    return n


@jit
def round_odds(str_a, str_d):
    """Probabilities that the attacker wins, loses or ties one battle round."""
    win = 0
    lose = 0
    for da in range(1, 7):
        ia = R.read_battle_table(str_a, da)
        for dd in range(1, 7):
            idd = R.read_battle_table(str_d, dd)
            if ia > idd:
                win += 1
            elif idd > ia:
                lose += 1
    return win / 36.0, lose / 36.0, (36 - win - lose) / 36.0


@jit
def steps(state, u):
    """Steps a piece can still lose: 2 for a full unit, 1 for a reduced one or a militia."""
    if R.is_militia(u) or state[L.STEP + u] == D.REDUCED:
        return 1
    return 2


@jit
def capture_chance(steps_a, steps_d, pw, pl, pt):
    """Chance to eliminate ``steps_d`` defending steps before losing ``steps_a`` (fixed odds)."""
    a_n = min(steps_a, MAX_STEPS)
    d_n = min(steps_d, MAX_STEPS)
    f = np.zeros((a_n + 1, d_n + 1))
    for a in range(1, a_n + 1):
        f[a, 0] = 1.0
    for a in range(1, a_n + 1):
        for d in range(1, d_n + 1):
            f[a, d] = pw * f[a, d - 1] + pl * f[a - 1, d] + pt * f[a - 1, d - 1]
    return f[a_n, d_n]


@jit
def lead_after(state, params, side, pieces, n, dest, clear):
    """The VP lead once ``pieces[:n]`` stand in ``dest`` (its defenders gone if ``clear``)."""
    work = state.copy()
    for i in range(n):
        work[L.LOC + pieces[i]] = dest
    if clear:
        for u in range(L.P):
            if state[L.LOC + u] == dest:
                work[L.LOC + u] = L.LOC_ELIMINATED
    R.recount(work, params)
    return vp_lead(work, side)


@jit
def spare_units(state, side, cands, n, out):
    """The candidates whose city keeps another piece after they leave (in order)."""
    left = np.zeros(L.C, np.int64)
    for c in range(L.C):
        left[c] = R.pieces_at(state, c)
    m = 0
    for i in range(n):
        loc = state[L.LOC + cands[i]]
        if left[loc] >= 2:
            left[loc] -= 1
            out[m] = cands[i]
            m += 1
    return m


@jit
def attack_plan(state, params, side, c, out):
    """The units to attack city ``c`` with and the expected VP swing (units written to out).

    Two plans are weighed: the spare units only, and every unit that can attack.
    """
    cands = np.zeros(D.NUM_UNITS, np.int64)
    n = 0
    for u in range(D.NUM_UNITS):
        if R.can_attack_with(state, side, u, c):
            cands[n] = u
            n += 1
    if n == 0:
        return 0, -1e9
    spare = np.zeros(D.NUM_UNITS, np.int64)
    m = spare_units(state, side, cands, n, spare)
    steps_d = 0
    for u in range(L.P):
        if state[L.LOC + u] == c:
            steps_d += steps(state, u)
    str_d = R.defence_strength(state, params, c)
    now = vp_lead(state, side)
    best = -1e9
    best_n = 0
    for plan in range(2):
        units = spare if plan == 0 else cands
        k = m if plan == 0 else n
        if k == 0 or (plan == 1 and m == n):
            continue
        str_a = 0
        steps_a = 0
        for i in range(k):
            str_a += R.attack_factor(state, units[i])
            steps_a += steps(state, units[i])
        pw, pl, pt = round_odds(str_a, str_d)
        if pw <= pl:
            continue
        p = capture_chance(steps_a, steps_d, pw, pl, pt)
        gain = lead_after(state, params, side, units, k, c, True) - now
        lost = (1.0 - p) * steps_a * 0.5 + p * 1.0  # steps we expect to lose
        value = p * gain - LOSS_COST * lost + 0.2 * p * steps_d
        if value > best:
            best = value
            best_n = k
            for i in range(k):
                out[i] = units[i]
    return best_n, best


@jit
def move_plan(state, params, side, c, out):
    """The units to march into city ``c`` and the VP lead gained (units written to out).

    The spare units that reach it by land; with none, the one unit whose city is
    worth least, if the march still gains. A unit that has moved in this action (several
    destinations) stays.
    """
    layers = np.empty(R.MAX_MF + 1, np.int64)  # the cities within k steps of c, by land
    R.distance_layers(c, R.passable_cities(state, side), layers)
    cands = np.zeros(D.NUM_UNITS, np.int64)
    n = 0
    for u in range(D.NUM_UNITS):
        if D.PIECE_SIDE[u] != side:
            continue
        loc = state[L.LOC + u]
        if R.has_moved(state, u):
            continue
        if loc >= 0 and loc != c and (layers[R.movement_factor(state, u)] >> loc) & 1:
            cands[n] = u
            n += 1
    if n == 0:
        return 0, -1e9
    now = vp_lead(state, side)
    m = spare_units(state, side, cands, n, out)
    if m > 0:
        return m, float(lead_after(state, params, side, out, m, c, False) - now)
    pick = -1
    worth = 1 << 20
    for i in range(n):
        v = D.CITY_VP[state[L.LOC + cands[i]]]
        if v < worth:
            worth, pick = v, cands[i]
    out[0] = pick
    return 1, float(lead_after(state, params, side, out, 1, c, False) - now)


@jit
def main(state, params, side, mask):
    """The turn's action: the best attack, else the best march, else pass."""
    units = np.zeros(D.NUM_UNITS, np.int64)
    best = MIN_ATTACK
    pick = L.A_PASS
    for c in range(L.C):
        if not mask[L.A_CITY + c] or state[L.OCC + c] != 1 - side:
            continue
        k, v = attack_plan(state, params, side, c, units)
        if k > 0 and v > best:
            best, pick = v, L.A_CITY + c
    if pick != L.A_PASS:
        return pick
    best = 0.5
    for c in range(L.C):
        if not mask[L.A_CITY + c] or state[L.OCC + c] == 1 - side:
            continue
        k, v = move_plan(state, params, side, c, units)
        if k > 0 and v > best:
            best, pick = v, L.A_CITY + c
    return pick


@jit
def compose(state, params, side, mask):
    """Add the planned units one by one, then confirm (units join for good, ledger row 25;
    with no plan left, the first unit that may join)."""
    units = np.zeros(D.NUM_UNITS, np.int64)
    c = state[L.TARGET]
    if state[L.MODE] == L.M_ATTACK:
        k, _ = attack_plan(state, params, side, c, units)
    else:
        k, _ = move_plan(state, params, side, c, units)
    want = np.zeros(D.NUM_UNITS, np.uint8)
    for i in range(k):
        want[units[i]] = 1
    for u in range(D.NUM_UNITS):
        if want[u] != 0 and state[L.SEL + u] == 0 and mask[L.A_UNIT + u]:
            return L.A_UNIT + u
    if mask[L.A_CONFIRM]:
        return L.A_CONFIRM
    for u in range(D.NUM_UNITS):
        if mask[L.A_UNIT + u]:
            return L.A_UNIT + u
    return L.A_CONFIRM


@jit
def loss(state, params, mask):
    """The step to lose: the full unit whose flip costs least, else the least useful piece."""
    pick = -1
    best = 1e9
    for u in range(L.P):
        if not mask[L.A_UNIT + u]:
            continue
        if R.is_militia(u) or state[L.STEP + u] == D.REDUCED:
            cost = 10.0 + D.PIECE_AF[u, state[L.STEP + u]] + D.PIECE_DF[u, state[L.STEP + u]]
            if R.pieces_at(state, state[L.LOC + u]) <= 1:
                cost += 5.0 + D.CITY_VP[state[L.LOC + u]]
        else:
            cost = (
                D.PIECE_AF[u, 0]
                + D.PIECE_DF[u, 0]
                - D.PIECE_AF[u, D.REDUCED]
                - D.PIECE_DF[u, D.REDUCED]
            ) * 1.0
        if cost < best:
            best, pick = cost, L.A_UNIT + u
    return pick


@jit
def press_on(state, params):
    """Continue while a round is still more likely won than lost."""
    pw, pl, _ = round_odds(
        R.attack_strength(state), R.defence_strength(state, params, state[L.TARGET])
    )
    return L.A_CONTINUE if pw > pl else L.A_STOP


@jit
def same_units(state, units, k):
    """``units[:k]`` are exactly the units attacking now."""
    for i in range(k):
        if state[L.SEL + units[i]] == 0:
            return False
    return R.count_attackers(state) == k


@jit
def carry_on(state, params, side):
    """After a round: press on or stop; with the attackers named anew for each round, the
    units the attack plan picks now, when they are worth it and not the same (the first
    of them: the others join in ``compose``)."""
    if R.attackers_rechosen(params):
        units = np.zeros(D.NUM_UNITS, np.int64)
        k, v = attack_plan(state, params, side, state[L.TARGET], units)
        if k > 0 and v > MIN_ATTACK and not same_units(state, units, k):
            return L.A_UNIT + units[0]
    return press_on(state, params)


@jit
def place(state, side, mask):
    """An arriving unit or a militia: the richest empty city of ours, else the front."""
    pick = -1
    best = -1e9
    for c in range(L.C):
        if not mask[L.A_CITY + c]:
            continue
        v = 0.0
        if state[L.OCC + c] != side:
            v += 10.0 + D.CITY_VP[c]
        v += FRONT_BONUS * enemy_neighbours(state, side, c) + 0.1 * D.CITY_VP[c]
        if v > best:
            best, pick = v, L.A_CITY + c
    return pick


@jit
def advance(state, mask):
    """The survivors that enter a taken city: one whose city keeps another piece, else
    confirm once one has entered, else the one whose city is worth least."""
    pick = -1
    worth = 1 << 20
    for u in range(D.NUM_UNITS):
        if not mask[L.A_UNIT + u]:
            continue
        if R.pieces_at(state, state[L.LOC + u]) >= 2:
            return L.A_UNIT + u
        if D.CITY_VP[state[L.LOC + u]] < worth:
            worth, pick = D.CITY_VP[state[L.LOC + u]], L.A_UNIT + u
    if mask[L.A_CONFIRM]:
        return L.A_CONFIRM
    return pick


@jit
def heuristic_action(state, params, mask, prng):
    """The rule-based player's action for the player to move (a decision node)."""
    if R.legal_mask(state, params, mask) == 0:
        return -1
    mode = state[L.MODE]
    side = state[H.H_ACTOR]
    a = -1
    if mode == L.M_REINFORCE or mode == L.M_MILITIA:
        a = place(state, side, mask)
    elif mode == L.M_MAIN:
        a = main(state, params, side, mask)
    elif mode == L.M_MOVE and state[L.ROUND] >= 1:
        a = advance(state, mask)
    elif mode == L.M_ATTACK or mode == L.M_MOVE:
        a = compose(state, params, side, mask)
    elif mode == L.M_LOSS:
        a = loss(state, params, mask)
    elif mode == L.M_CONTINUE:
        a = carry_on(state, params, side)
    return legal_or_fallback(a, mask, L.A_PASS, L.NUM_ACTIONS)

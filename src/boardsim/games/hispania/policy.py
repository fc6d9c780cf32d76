"""Hispania's compiled rule-based player (``heuristic_action``).

Compiled into the rules namespace by ``bind_engine`` (not imported as a module), so
it calls the rules kernels (``legal_mask``, ``province_army``, ``move_costs``, ...)
directly. Its Roman strategy is the one of ``heuristic.py`` (the readable plain-Python
reference, kept step for step: a differential test checks that both choose the same
action in many positions).

How the Romans play, in a player's words, is told once, in ``heuristic.py``'s docstring.

For a Roman decision it has no rule for (set-up roads, Imperivm's free move, the
variants' extra actions) it passes when it may, else takes the first legal action.

How the Hispano player (variant ``hispano``) plays, in a player's words:

* **Do not waste a revolt.** When the revolt roll lands on a city a garrison or a
  general protects, or on a full city, pay a denarius to reroll the city die.
* **March into the open.** Pay a denarius to send an army where it spreads a new
  revolt (a revolt-free, unprotected city, better in a province whose capital Rome
  still lacks) when the die could do worse; otherwise let the die decide.
* **Defend the armies.** When a general attacks an army, add the denarii to its
  side; when a siege would free a province for Rome (its last revolt), add one.
* **Reroll a bad die.** In a combat, reroll the Hispanic die when it shows 1 to 3.
* **Take the capitals back.** An army next to a garrisoned capital attacks that
  garrison with every denarius left: a capital lost undoes Rome's progress.
* At set-up, the Hispanic dice are rolled (a uniformly random legal face).

Every choice reads only the board (which is public) and never the state's generator;
the Romans are deterministic, the Hispano set-up faces use ``prng``.
"""

import numpy as np

from boardsim.core.engine import pick_legal
from boardsim.core.header import H_ACTOR
from boardsim.core.jit import jit, jit_inline
from boardsim.core.kernel_parts import legal_or_fallback
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.board import army_at, garrison_count, general_at, province_army
from boardsim.games.hispania.combat import (
    armies_connected,
    army_revolts,
    attack_support,
    attacker_wins,
    generals_connected,
    hispano_target,
)
from boardsim.games.hispania.decisions import acting_general, garrison_legal, legal_mask
from boardsim.games.hispania.flow import army_in_reserve
from boardsim.games.hispania.movement import move_armies_candidates, move_costs

ARMY_VALUE = 5.0  # an army removed, in revolts
GENERAL_LOSS = 3.0  # a general off the board (his turn's coins, 1 blocked denarius a turn)
BLOCK_VALUE = 3.0  # a garrison standing in an army's way
SUPPORT_VALUE = 0.15  # a garrison next to a revolt to besiege
PATH_BONUS = 0.5  # a general standing in an army's way (it attacks him or stops)
MIN_GAIN = 0.12  # expected gain per denarius below which a plan is not worth it
MAX_OPTIONS = 32  # combat options from one space: neighbours x 1-3 denarii


@jit
def province_discs(state):
    """Revolt discs on the cities of each province."""
    out = np.zeros(8, np.int64)
    for c in range(D.NUM_CITIES):
        out[D.CITY_PROVINCE[c]] += state[L.REVOLTS + c]
    return out


@jit
def capital_done(state, p):
    """The capital of province ``p`` holds a garrison (won for good)."""
    return state[L.GARR + (p * 6 + 5) * L.STACK] != 0


@jit
def revolt_value(state, t, discs):
    """What removing one revolt disc from space ``t`` is worth (1 = a disc in the reserve)."""
    if t >= D.FIRST_SEA:
        return 0.8
    p = D.CITY_PROVINCE[t]
    if p >= D.NUM_HISPANIC:
        return 2.5  # no victory while a Roman province holds a revolt
    if capital_done(state, p):
        return 1.0
    n = max(1, discs[p])
    v = 1.0 + 3.0 / n
    if n == 1 and province_army(state, p) < 0:
        v += 3.0  # the last one: the capital can be garrisoned
    return v


@jit
def army_value(state, t):
    """What removing the army in city ``t`` is worth."""
    p = D.CITY_PROVINCE[t]
    v = ARMY_VALUE
    if p >= D.NUM_HISPANIC or not capital_done(state, p):
        v += 1.0
    return v


@jit
def siege_p(state, params, g, t, k):
    """Probability that general ``g`` takes the revolt at ``t`` spending ``k`` denarii."""
    s = state[L.GEN_POS + g]
    sup = attack_support(state, g, t)
    gm = generals_connected(state, t, g)
    shield = D.CITY_SHIELD[t] if t < D.NUM_CITIES else t - D.FIRST_SEA + 1
    shield = shield << armies_connected(state, s, -1)
    bonus = 1 if (params[L.P_IMPERIVM] != 0 and g == 1) else 0
    win = 0
    for d in range(1, 7):
        if attacker_wins(params, (d + bonus + k + sup) << gm, shield):
            win += 1
    return win / 6.0


@jit
def attack_p(state, params, g, t, k):
    """Probability that general ``g`` beats the army at ``t`` spending ``k`` denarii."""
    s = state[L.GEN_POS + g]
    a = army_at(state, t)
    sup = attack_support(state, g, t)
    gm = generals_connected(state, t, g)
    group = army_revolts(state, params, t)
    am = armies_connected(state, s, a)
    win = 0
    for dr in range(1, 7):
        roman = (dr + k + sup) << gm
        for dh in range(1, 7):
            hisp = (dh + group) << am
            if a == L.SPECIAL:
                hisp *= 2
            if state[L.DISPLAY] != 0:  # Display of Power (S5)
                hisp = dh * 2 if params[L.P_DISPLAY_OF_POWER] == 1 and a == L.SPECIAL else dh
            if attacker_wins(params, roman, hisp):
                win += 1
    return win / 36.0


@jit_inline
def option_buffers():
    """Room for the combat options of one space (``combat_options``): gains per denarius,
    gains, actions and denarii."""
    effs = np.zeros(MAX_OPTIONS)
    gains = np.zeros(MAX_OPTIONS)
    acts = np.zeros(MAX_OPTIONS, np.int64)
    ks = np.zeros(MAX_OPTIONS, np.int64)
    return effs, gains, acts, ks


@jit
def combat_options(state, params, g, budget, discs, effs, gains, acts, ks):
    """Each combat from g's current space: gain per denarius, gain, action, denarii.

    Written into the four arrays in the reference's order; returns how many.
    """
    n = 0
    s = state[L.GEN_POS + g]
    if s < 0:
        return 0
    for j in range(D.DEGREE[s]):
        t = D.NEIGHBOURS[s, j]
        if state[L.REVOLTS + t] == 0:
            continue
        army = t < D.NUM_CITIES and army_at(state, t) >= 0
        for k in range(1, min(3, budget) + 1):
            if army:
                p = attack_p(state, params, g, t, k)
                rest = budget - k
                gain = p * army_value(state, t) - (1 - p) * (GENERAL_LOSS + 0.3 * rest)
                act = L.A_ATTACK + t
            else:
                p = siege_p(state, params, g, t, k)
                gain = p * revolt_value(state, t, discs)
                act = L.A_BESIEGE + t
            effs[n] = gain / k
            gains[n] = gain
            acts[n] = act
            ks[n] = k
            n += 1
    return n


@jit
def in_army_path(state, s):
    """Armies that may try to move into city ``s`` (a blocked army attacks, never advances)."""
    if s >= D.NUM_CITIES or state[L.REVOLTS + s] != 0:
        return 0
    cands = np.zeros(8, np.int32)
    n = 0
    for k in range(L.NUM_ARMY_SLOTS):
        if state[L.ARMY_POS + k] >= 0:
            m = move_armies_candidates(state, k, cands)
            for i in range(m):
                if cands[i] == s:
                    n += 1
    return n


@jit
def garrison_value(state, g, s):
    """A garrison (not in a capital) in city ``s``: it stops the armies that walk into it
    and supports the sieges around it."""
    if s >= D.NUM_CITIES or D.CITY_CAPITAL[s] != 0 or state[L.GARR_RESERVE + g] <= 0:
        return 0.0
    if garrison_count(state, s) >= 1:
        return 0.0
    need = 0
    for p in range(D.NUM_HISPANIC):
        if not capital_done(state, p):
            need += 1
    spare = state[L.GARR_RESERVE] + state[L.GARR_RESERVE + 1] + state[L.GARR_RESERVE + 2] - need
    if spare <= 1:
        return 0.0
    v = BLOCK_VALUE * in_army_path(state, s)
    for j in range(D.DEGREE[s]):
        t = D.NEIGHBOURS[s, j]
        if t < D.NUM_CITIES and state[L.REVOLTS + t] > 0 and army_at(state, t) < 0:
            v += SUPPORT_VALUE
    return v


@jit
def potential(state, params, g, discs):
    """How good g's space is for next turn: the best cheap sieges around (the three best
    gains per denarius), and standing in an army's way."""
    effs, gains, acts, ks = option_buffers()
    n = combat_options(state, params, g, 3, discs, effs, gains, acts, ks)
    top = np.sort(effs[:n])[::-1]
    total = 0
    for i in range(min(3, n)):
        total = total + top[i]
    return total + PATH_BONUS * in_army_path(state, state[L.GEN_POS + g])


@jit
def best_stand(work, params, g, discs, mask, pick, pv):
    """Where general ``g`` stands best for next turn: the legal move (``mask``) to the
    space of the highest potential above ``pv``, else ``pick``. ``work`` is a copy of the
    state, his position in it moved to each space in turn."""
    for d in range(D.NUM_SPACES):
        if not mask[L.A_SPACE + d]:
            continue
        work[L.GEN_POS + g] = d
        v = potential(work, params, g, discs)
        if v > pv:
            pick, pv = L.A_SPACE + d, v
    return pick


@jit
def roman_choice(state, params, mask):
    """The Roman phase: the best plan (garrison, combat, or a move to one), else stand well."""
    g = acting_general(state)
    den = state[L.DENARII]
    if state[L.PEND_KIND] != 0:
        return pending_spend(state, params, g, den, mask)
    discs = province_discs(state)
    s = state[L.GEN_POS + g]
    # a capital won for good
    capital = s < D.NUM_CITIES and D.CITY_CAPITAL[s] != 0
    if mask[L.A_GARRISON] and capital and state[L.GARR + s * L.STACK] == 0:
        return L.A_GARRISON
    effs, gains, acts, ks = option_buffers()
    # plans: (move,) combat or garrison
    best = MIN_GAIN
    best_act = -1
    if mask[L.A_GARRISON]:
        gv = garrison_value(state, g, s)
        if gv > best:
            best, best_act = gv, L.A_GARRISON
    n = combat_options(state, params, g, den, discs, effs, gains, acts, ks)
    for i in range(n):
        if mask[acts[i]] and effs[i] > best:
            best, best_act = effs[i], acts[i]
    work = state.copy()
    costs = np.zeros(D.NUM_SPACES, np.int64)
    move_costs(state, g, costs)
    for d in range(D.NUM_SPACES):
        if not mask[L.A_SPACE + d]:
            continue
        c = costs[d]
        work[L.GEN_POS + g] = d
        rest = den - c
        # a capital to garrison at d
        free_capital = (
            d < D.NUM_CITIES and D.CITY_CAPITAL[d] != 0 and work[L.GARR + d * L.STACK] == 0
        )
        can = rest >= 1 and free_capital and work[L.GARR_RESERVE + g] > 0
        if can and garrison_legal(work, g, d) and 6.0 / (c + 1) > best:
            best, best_act = 6.0 / (c + 1), L.A_SPACE + d
        if rest < 1:
            continue
        if garrison_legal(work, g, d):
            eff = garrison_value(work, g, d) / (c + 1)
            if eff > best:
                best, best_act = eff, L.A_SPACE + d
        n = combat_options(work, params, g, rest, discs, effs, gains, acts, ks)
        for i in range(n):
            eff = gains[i] / (c + ks[i])
            if eff > best:
                best, best_act = eff, L.A_SPACE + d
    work[L.GEN_POS + g] = s
    if best_act >= 0:
        return best_act
    # nothing worth paying for now: stand where next turn is best, then pass
    here = potential(state, params, g, discs) + 0.05
    return best_stand(work, params, g, discs, mask, L.A_PASS, here)


@jit
def pending_spend(state, params, g, den, mask):
    """A combat chosen: the denarii with the best gain per denarius (1 if none: a chosen
    combat is fought, ledger row 25)."""
    discs = province_discs(state)
    t = state[L.PEND_TARGET]
    effs, gains, acts, ks = option_buffers()
    n = combat_options(state, params, g, den, discs, effs, gains, acts, ks)
    best_k = 0
    best = -1e9
    for i in range(n):
        base = L.A_ATTACK if acts[i] >= L.A_ATTACK else L.A_BESIEGE
        if acts[i] - base != t:
            continue
        if effs[i] > best:
            best_k, best = ks[i], effs[i]
    if best_k > 0 and mask[L.A_SPEND + best_k - 1]:
        return L.A_SPEND + best_k - 1
    return L.A_SPEND


@jit
def place_choice(state, params, mask):
    """Set-up placement or re-entry: the space with the best prospects."""
    g = state[H_ACTOR]
    return best_stand(state.copy(), params, g, province_discs(state), mask, -1, -1e9)


@jit
def revolt_wasted(state, c):
    """The revolt roll's city ``c`` would receive nothing (protected, or full with no army)."""
    if garrison_count(state, c) > 0 or general_at(state, c) >= 0:
        return True
    if state[L.REVOLTS + c] == 0:
        return False
    if province_army(state, D.CITY_PROVINCE[c]) < 0 and army_in_reserve(state):
        return False
    return state[L.REVOLTS + c] >= L.STACK


@jit
def march_score(state, t):
    """How much an army gains by entering city ``t``: a new revolt most, a capital's
    garrison attacked next, a general attacked least."""
    if general_at(state, t) >= 0:
        return -1.0
    if garrison_count(state, t) > 0:
        return 1.0 if D.CITY_CAPITAL[t] != 0 else 0.0
    if state[L.REVOLTS + t] != 0:
        return 0.0
    p = D.CITY_PROVINCE[t]
    if p < D.NUM_HISPANIC and not capital_done(state, p):
        return 3.0
    return 2.0


@jit
def hispano_move(state, mask):
    """Choose the moving army's destination when it beats the die's average, else roll."""
    best = -1e9
    best_act = L.A_H_ACCEPT
    total = 0.0
    n = 0
    for t in range(D.NUM_CITIES):
        if mask[L.A_H_CITY + t]:
            v = march_score(state, t)
            total += v
            n += 1
            if v > best:
                best, best_act = v, L.A_H_CITY + t
    if n == 0 or best <= total / n:
        return L.A_H_ACCEPT
    return best_act


@jit
def capital_target(state, k):
    """A garrisoned capital next to army ``k`` (without a general), or -1."""
    for t in range(D.NUM_CITIES):
        if (
            D.CITY_CAPITAL[t] != 0
            and general_at(state, t) < 0
            and garrison_count(state, t) > 0
            and hispano_target(state, k, t)
        ):
            return t
    return -1


@jit
def hispano_choice(state, params, mask, prng):
    """The Hispano player's decision (see the module docstring)."""
    ph = state[L.PHASE]
    hd = state[L.HDENARII]
    if ph == L.PH_SETUP_REVOLT or ph == L.PH_SETUP_ARMY:
        return pick_legal(mask, legal_mask(state, params, mask), prng)
    if ph == L.PH_H_REVOLT:
        c = state[L.REVOLT_PROV] * 6 + state[L.REVOLT_NUM] - 1
        if hd > 0 and mask[L.A_H_REROLL_H] and revolt_wasted(state, c):
            return L.A_H_REROLL_H
        return L.A_H_ACCEPT
    if ph == L.PH_H_MOVE:
        return hispano_move(state, mask)
    if ph == L.PH_H_REINFORCE:
        if state[L.COMBAT_KIND] == L.CB_ATTACK:
            k = min(2, hd)
            if k > 0 and mask[L.A_H_SPEND + k - 1]:
                return L.A_H_SPEND + k - 1
        elif state[L.COMBAT_KIND] == L.CB_SIEGE:
            t = state[L.COMBAT_TARGET]
            if t < D.NUM_CITIES and D.CITY_PROVINCE[t] < D.NUM_HISPANIC and mask[L.A_H_SPEND]:
                discs = province_discs(state)
                if discs[D.CITY_PROVINCE[t]] == 1:
                    return L.A_H_SPEND
        return L.A_H_ACCEPT
    if ph == L.PH_H_COMBAT:
        if mask[L.A_H_REROLL_H] and state[L.DIE_H] <= 3:
            return L.A_H_REROLL_H
        return L.A_H_ACCEPT
    if ph == L.PH_H_ATTACK:
        if hd > 0:
            for k in range(L.NUM_ARMY_SLOTS):
                if mask[L.A_H_ARMY + k] and capital_target(state, k) >= 0:
                    return L.A_H_ARMY + k
        return L.A_H_ACCEPT
    if ph == L.PH_H_ATTACK_TARGET:
        t = capital_target(state, state[L.COMBAT_ARMY])
        if t >= 0 and mask[L.A_H_CITY + t]:
            return L.A_H_CITY + t
        return -1  # none planned: the first legal (an attack begun is made, ledger row 25)
    if ph == L.PH_H_ATTACK_SPEND:
        k = min(2, hd)
        if k > 0 and mask[L.A_H_SPEND + k - 1]:
            return L.A_H_SPEND + k - 1
        return -1
    return -1


@jit
def heuristic_action(state, params, mask, prng):
    """The rule-based player's action for the player to move (a decision node)."""
    n = legal_mask(state, params, mask)
    if n == 0:
        return -1
    a = -1
    if state[H_ACTOR] == L.HISPANO:
        a = hispano_choice(state, params, mask, prng)
        legal_mask(state, params, mask)  # pick_legal's mask was refilled: same content
    else:
        ph = state[L.PHASE]
        if ph == L.PH_ROMAN:
            a = roman_choice(state, params, mask)
        elif ph == L.PH_SETUP_PLACE or ph == L.PH_REENTER:
            a = place_choice(state, params, mask)
    return legal_or_fallback(a, mask, L.A_PASS, L.NUM_ACTIONS)

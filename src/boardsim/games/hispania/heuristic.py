"""A scripted Roman policy for Hispania: ``choose_action(params, state) -> int``.

How it plays, in a player's words:

* **Capitals first.** Standing in a capital whose province is free of revolt, put a
  garrison there at once: that capital is won for good (a garrison keeps the revolt roll
  off it), whatever happens to the province afterwards.
* **Kill armies when the odds are good.** An army spreads a revolt every Hispanic phase,
  three a round, so it is worth several sieges; but a lost attack costs the general (and a
  denarius each turn until he is back) and ends the phase, so attack only with the dice
  well on our side: bring a second general next to the army first (x2), spend 3 denarii.
* **Besiege where a capital can be freed.** Every revolt removed goes back to the
  reserve and buys time, but a revolt in a province that is nearly clear is worth more
  (the last one opens the capital), and a revolt in a Roman province blocks the victory.
* **Pay for value, not for certainty.** A failed siege only costs its denarii, so one
  denarius at a time is usually the best buy; spend more when the shield is doubled by
  an army nearby.
* **Walk to the work.** Each plan is a move (paid by the cheapest path, roads count 1)
  followed by a combat; take the plan with the best expected gain per denarius.
* **Stand in the armies' way.** An army that would walk into a city holding a garrison
  or a general attacks it instead and does not advance, so it spreads nothing that
  phase; a beaten garrison only goes back to the reserve, to be placed again. Spare
  garrisons (beyond one per capital still to take) go on the revolt-free cities an army
  may enter, or next to revolts to support the sieges.
* **Leftover coins place the general** next to the revolts he will besiege next turn, or
  in an army's way.

The policy only reads the board (no look at future dice) and is deterministic. It plays
the Roman decisions of the basic game (and, simply, the variants'); for a decision it has
no rule for (set-up roads, Imperivm's free move, the Hispano player) it passes when it
may, else takes the first legal action.

This module is the readable reference: ``policy.py`` compiles the same strategy, step for
step, as ``rules.heuristic_action`` (the heuristic of ``load("heuristic")`` and of the
batched engine), and ``tests/agents/test_heuristic_hispania.py`` checks that both choose
the same action. Change both together.
"""

from __future__ import annotations

import numpy as np

from boardsim.core.header import CHANCE, H_ACTOR
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.board import army_at, garrison_count, province_army
from boardsim.games.hispania.combat import (
    armies_connected,
    army_revolts,
    attack_support,
    attacker_wins,
    generals_connected,
)
from boardsim.games.hispania.decisions import acting_general, garrison_legal, legal_mask
from boardsim.games.hispania.movement import move_armies_candidates, move_costs

ARMY_VALUE = 5.0  # an army removed, in revolts
GENERAL_LOSS = 3.0  # a general off the board (his turn's coins, 1 blocked denarius a turn)
BLOCK_VALUE = 3.0  # a garrison standing in an army's way
SUPPORT_VALUE = 0.15  # a garrison next to a revolt to besiege
PATH_BONUS = 0.5  # a general standing in an army's way (it attacks him or stops)
MIN_GAIN = 0.12  # expected gain per denarius below which a plan is not worth it


def _province_discs(state: np.ndarray) -> np.ndarray:
    out = np.zeros(8, np.int64)
    for c in range(D.NUM_CITIES):
        out[D.CITY_PROVINCE[c]] += state[L.REVOLTS + c]
    return out


def _capital_done(state: np.ndarray, p: int) -> bool:
    return state[L.GARR + (p * 6 + 5) * L.STACK] != 0


def revolt_value(state: np.ndarray, t: int, discs: np.ndarray) -> float:
    """What removing one revolt disc from space ``t`` is worth (1 = a disc in the reserve)."""
    if t >= D.FIRST_SEA:
        return 0.8
    p = D.CITY_PROVINCE[t]
    if p >= D.NUM_HISPANIC:
        return 2.5  # no victory while a Roman province holds a revolt
    if _capital_done(state, p):
        return 1.0
    n = max(1, int(discs[p]))
    v = 1.0 + 3.0 / n
    if n == 1 and province_army(state, p) < 0:
        v += 3.0  # the last one: the capital can be garrisoned
    return v


def army_value(state: np.ndarray, t: int) -> float:
    p = D.CITY_PROVINCE[t]
    v = ARMY_VALUE
    if p >= D.NUM_HISPANIC or not _capital_done(state, p):
        v += 1.0
    return v


def _siege_p(state: np.ndarray, params: np.ndarray, g: int, t: int, k: int) -> float:
    s = state[L.GEN_POS + g]
    sup = attack_support(state, g, t)
    gm = generals_connected(state, t, g)
    shield = D.CITY_SHIELD[t] if t < D.NUM_CITIES else t - D.FIRST_SEA + 1
    shield = shield << armies_connected(state, s, -1)
    bonus = 1 if (params[L.P_IMPERIVM] != 0 and g == 1) else 0
    win = sum(1 for d in range(1, 7) if attacker_wins(params, (d + bonus + k + sup) << gm, shield))
    return win / 6.0


def _attack_p(state: np.ndarray, params: np.ndarray, g: int, t: int, k: int) -> float:
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


def combat_options(
    state: np.ndarray, params: np.ndarray, g: int, budget: int, discs: np.ndarray
) -> list[tuple[float, float, int, int]]:
    """(gain per denarius, gain, action, denarii) for each combat from g's current space."""
    out = []
    s = state[L.GEN_POS + g]
    if s < 0:
        return out
    for j in range(D.DEGREE[s]):
        t = D.NEIGHBOURS[s, j]
        if state[L.REVOLTS + t] == 0:
            continue
        army = t < D.NUM_CITIES and army_at(state, t) >= 0
        for k in range(1, min(3, budget) + 1):
            if army:
                p = _attack_p(state, params, g, t, k)
                rest = budget - k
                gain = p * army_value(state, t) - (1 - p) * (GENERAL_LOSS + 0.3 * rest)
                out.append((gain / k, gain, L.A_ATTACK + t, k))
            else:
                p = _siege_p(state, params, g, t, k)
                gain = p * revolt_value(state, t, discs)
                out.append((gain / k, gain, L.A_BESIEGE + t, k))
    return out


def _in_army_path(state: np.ndarray, s: int) -> int:
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


def garrison_value(state: np.ndarray, g: int, s: int) -> float:
    """A garrison (not in a capital) in city ``s``: it stops the armies that walk into it
    and supports the sieges around it."""
    if s >= D.NUM_CITIES or D.CITY_CAPITAL[s] != 0 or state[L.GARR_RESERVE + g] <= 0:
        return 0.0
    if garrison_count(state, s) >= 1:
        return 0.0
    need = sum(1 for p in range(D.NUM_HISPANIC) if not _capital_done(state, p))
    spare = sum(int(state[L.GARR_RESERVE + x]) for x in range(3)) - need
    if spare <= 1:
        return 0.0
    v = BLOCK_VALUE * _in_army_path(state, s)
    for j in range(D.DEGREE[s]):
        t = D.NEIGHBOURS[s, j]
        if t < D.NUM_CITIES and state[L.REVOLTS + t] > 0 and army_at(state, t) < 0:
            v += SUPPORT_VALUE
    return v


def potential(state: np.ndarray, params: np.ndarray, g: int, discs: np.ndarray) -> float:
    """How good g's space is for next turn: the best cheap sieges around, and standing in
    an army's way."""
    opts = combat_options(state, params, g, 3, discs)
    best = sorted((o[0] for o in opts), reverse=True)[:3]
    return sum(best) + PATH_BONUS * _in_army_path(state, state[L.GEN_POS + g])


def _best_stand(
    work: np.ndarray,
    params: np.ndarray,
    g: int,
    discs: np.ndarray,
    mask: np.ndarray,
    pick: int,
    pv: float,
) -> int:
    """Where general ``g`` stands best for next turn: the legal move to the space of the
    highest potential above ``pv``, else ``pick`` (``work``: a copy of the state)."""
    for d in range(D.NUM_SPACES):
        if not mask[L.A_SPACE + d]:
            continue
        work[L.GEN_POS + g] = d
        v = potential(work, params, g, discs)
        if v > pv:
            pick, pv = L.A_SPACE + d, v
    return pick


def _roman_choice(state: np.ndarray, params: np.ndarray, mask: np.ndarray) -> int:
    g = acting_general(state)
    den = int(state[L.DENARII])
    if state[L.PEND_KIND] != 0:
        return _pending_spend(state, params, g, den, mask)
    discs = _province_discs(state)
    s = state[L.GEN_POS + g]
    # a capital won for good
    capital = s < D.NUM_CITIES and D.CITY_CAPITAL[s] != 0
    if mask[L.A_GARRISON] and capital and state[L.GARR + s * L.STACK] == 0:
        return L.A_GARRISON
    # plans: (move,) combat or garrison
    best = (MIN_GAIN, -1, 0)
    if mask[L.A_GARRISON]:
        gv = garrison_value(state, g, s)
        if gv > best[0]:
            best = (gv, L.A_GARRISON, 0)
    for eff, _gain, act, k in combat_options(state, params, g, den, discs):
        if mask[act] and eff > best[0]:
            best = (eff, act, k)
    work = state.copy()
    costs = np.zeros(D.NUM_SPACES, np.int64)
    move_costs(state, g, costs)
    moves = [d for d in range(D.NUM_SPACES) if mask[L.A_SPACE + d]]
    for d in moves:
        c = int(costs[d])
        work[L.GEN_POS + g] = d
        rest = den - c
        # a capital to garrison at d
        free_capital = d < D.NUM_CITIES and D.CITY_CAPITAL[d] != 0 and work[L.GARR + d * 3] == 0
        can = rest >= 1 and free_capital and work[L.GARR_RESERVE + g] > 0
        if can and garrison_legal(work, g, d) and 6.0 / (c + 1) > best[0]:
            best = (6.0 / (c + 1), L.A_SPACE + d, 0)
        if rest < 1:
            continue
        if garrison_legal(work, g, d):
            eff = garrison_value(work, g, d) / (c + 1)
            if eff > best[0]:
                best = (eff, L.A_SPACE + d, 0)
        for _eff, gain, _act, k in combat_options(work, params, g, rest, discs):
            eff = gain / (c + k)
            if eff > best[0]:
                best = (eff, L.A_SPACE + d, 0)
    work[L.GEN_POS + g] = s
    if best[1] >= 0:
        return best[1]
    # nothing worth paying for now: stand where next turn is best, then pass
    here = potential(state, params, g, discs)
    return _best_stand(work, params, g, discs, mask, L.A_PASS, here + 0.05)


def _pending_spend(state: np.ndarray, params: np.ndarray, g: int, den: int, mask) -> int:
    discs = _province_discs(state)
    t = int(state[L.PEND_TARGET])
    best_k, best = 0, -1e9
    for eff, _gain, act, k in combat_options(state, params, g, den, discs):
        if act - (L.A_ATTACK if act >= L.A_ATTACK else L.A_BESIEGE) != t:
            continue
        if eff > best:
            best_k, best = k, eff
    if best_k and mask[L.A_SPEND + best_k - 1]:
        return L.A_SPEND + best_k - 1
    return L.A_SPEND  # a chosen combat is fought (ledger row 25)


def _place_choice(state: np.ndarray, params: np.ndarray, mask: np.ndarray) -> int:
    """Set-up placement or re-entry: the space with the best prospects."""
    g = int(state[H_ACTOR])
    return _best_stand(state.copy(), params, g, _province_discs(state), mask, -1, -1e9)


def choose_action(params: np.ndarray, state: np.ndarray) -> int:
    """The Roman generals' action in ``state`` (a decision node of a Roman general)."""
    if state[H_ACTOR] == CHANCE or state[H_ACTOR] < 0:
        raise ValueError("choose_action needs a decision node")
    mask = np.zeros(L.NUM_ACTIONS, np.uint8)
    legal_mask(state, params, mask)
    ph = state[L.PHASE]
    if ph == L.PH_ROMAN:
        a = _roman_choice(state, params, mask)
    elif ph in (L.PH_SETUP_PLACE, L.PH_REENTER):
        a = _place_choice(state, params, mask)
    else:
        a = -1
    if a < 0 or not mask[a]:
        legal = np.flatnonzero(mask)
        a = int(legal[0]) if L.A_PASS not in legal else L.A_PASS
    return int(a)

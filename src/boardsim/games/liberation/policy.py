"""The liberation race's compiled rule-based player (``heuristic_action``).

One of the kernels of its bundle (``GameKernels.from_package``) for the generic engine;
it reads the rules as ``R``.

How it plays, in a player's words:

* **Liberate whenever you can.** Landing on a free country space with a Liberation
  card in hand and a counter in supply, tuck the strongest card: every space is force
  toward the 5 VT of a country, and the card that closes a country earns 2 more.
* **Choose the move, do not just roll.** Before moving, look at where each card in
  hand would take the pawn and at what the die would do on average; pay a card only
  when its landing is clearly better than the roll's average (a free space to
  liberate, one's own space to reinforce, a rival's space one can clear). Never spend
  the last Liberation card to reach a space that needs it.
* **Reinforce where the race is close.** A spare counter (on one's own space, or from
  a revolution space) goes to the country where we trail the leader by a little or
  lead by a little, and the closer that country is to independence the better; a
  country we lead by far or cannot catch gets nothing.
* **Trade up.** On one's own space, exchange the tucked card for one at least two
  points stronger; otherwise add a counter; otherwise draw and discard.
* **Clear a rival's strong space.** On a rival's space, when our Royalist cards are
  enough to beat its counters, attack with the fewest force wasted (the smallest card
  that suffices, else the strongest first, until the force is reached), and only
  where it hurts: the rival has counters there or the country is nearly free.
* **Discard the weakest.** At the hand limit (or after a draw on one's own space),
  drop the weakest Liberation card while two or more remain, else the weakest
  Royalist card.

It reads only its own hand and the public board (positions, owners, cards tucked face
up, counters, supplies, Victory Tokens, the Royalist cards out of the game): never
another hand nor the draw pile. Ties go to the first action in the action order, so
it is deterministic (``prng`` is unused).
"""

import numpy as np

from boardsim.core import header as H
from boardsim.core.jit import jit
from boardsim.core.kernel_parts import legal_or_fallback
from boardsim.games.liberation import data as D
from boardsim.games.liberation import layout as L
from boardsim.games.liberation import rules as R

TUCK_VALUE = 5.0  # landing where a card can be tucked
CLOSE_BONUS = 2.0  # ... and it closes the country (2 VT)
OWN_VALUE = 1.5  # landing on one's own space with a counter to add
REVOLUTION_VALUE = 1.2  # landing on a revolution space
ATTACK_VALUE = 2.0  # landing on a rival's space one can clear
CARD_COST = 0.8  # spending a card to move
FORCE_COST = 0.15  # ... plus this per point of a Liberation card's force


@jit
def liberation_cards(state, p, skip):
    """Liberation cards in ``p``'s hand, one of kind ``skip`` set aside (-1: none)."""
    n = 0
    for k in range(L.K):
        if D.KIND_ROYALIST[k] == 0:
            n += state[L.HAND + p * L.K + k] - (1 if k == skip else 0)
    return n


@jit
def royalist_force(state, p, skip):
    """Force of ``p``'s Royalist cards, one of kind ``skip`` set aside (-1: none)."""
    f = 0
    for k in range(L.K):
        if D.KIND_ROYALIST[k] != 0:
            f += (state[L.HAND + p * L.K + k] - (1 if k == skip else 0)) * D.KIND_FORCE[k]
    return f


@jit
def country_totals(state, params, c, totals):
    """Each player's total (counters + card force) in country ``c``."""
    totals[:] = 0
    for s in range(D.COUNTRY_FIRST[c], D.COUNTRY_FIRST[c] + D.COUNTRY_LENGTH[c]):
        o = state[L.OWNER + s]
        if o >= 0:
            totals[o] += state[L.COUNTERS + s] + D.KIND_FORCE[state[L.CARD + s]]


@jit
def empty_spaces(state, c):
    """Spaces of country ``c`` nobody has liberated."""
    n = 0
    for s in range(D.COUNTRY_FIRST[c], D.COUNTRY_FIRST[c] + D.COUNTRY_LENGTH[c]):
        if state[L.OWNER + s] < 0:
            n += 1
    return n


@jit
def reinforce_value(state, params, p, c):
    """What one more counter of ``p`` in country ``c`` is worth (0: not worth it)."""
    if state[L.INDEP + c] != 0:
        return 0.0
    totals = np.zeros(D.MAX_PLAYERS, np.int64)
    country_totals(state, params, c, totals)
    best_other = 0
    for q in range(params[H.P_NUM_PLAYERS]):
        if q != p and totals[q] > best_other:
            best_other = totals[q]
    gap = best_other - totals[p]  # > 0: we trail
    if gap > 4 or gap < -3:
        return 0.1
    urgency = 1.0 + 1.0 / (1 + empty_spaces(state, c))
    return (2.0 - 0.25 * abs(gap)) * urgency


@jit
def best_reinforcement(state, params, p):
    """The country space of ``p`` where a counter counts most: (value, country-space index)."""
    best = 0.0
    pick = -1
    for cs in range(D.NUM_COUNTRY_SPACES):
        t = D.COUNTRY_SPACES[cs]
        if state[L.OWNER + t] == p:
            v = reinforce_value(state, params, p, D.SPACE_COUNTRY[t])
            if v > best:
                best, pick = v, cs
    return best, pick


@jit
def space_value(state, params, p, s, skip):
    """What landing on ``s`` is worth to ``p`` having discarded a card of kind ``skip``."""
    if D.SPACE_REVOLUTION[s] >= 0:
        v = REVOLUTION_VALUE
        if state[L.SUPPLY + p] > 0:
            v += 0.5 * best_reinforcement(state, params, p)[0]
        return v
    c = D.SPACE_COUNTRY[s]
    o = state[L.OWNER + s]
    if o < 0:
        if state[L.SUPPLY + p] > 0 and liberation_cards(state, p, skip) > 0:
            v = TUCK_VALUE
            if empty_spaces(state, c) == 1:
                v += CLOSE_BONUS
            return v
        return 0.2
    if o == p:
        if state[L.SUPPLY + p] > 0:
            return OWN_VALUE * (0.5 + 0.5 * reinforce_value(state, params, p, c))
        return 0.3
    if royalist_force(state, p, skip) >= state[L.COUNTERS + s]:
        return ATTACK_VALUE
    return 0.0


@jit
def move(state, params, p, mask):
    """Roll, or discard the card whose landing beats the roll's average by its cost."""
    s = state[L.POS + p]
    roll = 0.0
    for d in range(1, 7):
        roll += space_value(state, params, p, R.landing_space(state, params, s, d), -1)
    best = roll / 6.0
    pick = L.A_ROLL
    for k in range(L.K):
        if not mask[L.A_MOVE_CARD + k]:
            continue
        cost = CARD_COST
        if D.KIND_ROYALIST[k] == 0:
            cost += FORCE_COST * D.KIND_FORCE[k]
        t = R.landing_space(state, params, s, D.KIND_FORCE[k])
        v = space_value(state, params, p, t, k) - cost
        if v > best:
            best, pick = v, L.A_MOVE_CARD + k
    return pick


@jit
def strongest(state, p, mask, base):
    """The legal ``base + k`` action of the strongest card kind ``k`` (-1 none)."""
    pick = -1
    force = -1
    for k in range(L.K):
        if mask[base + k] and D.KIND_FORCE[k] > force:
            force, pick = D.KIND_FORCE[k], base + k
    return pick


@jit
def discard(state, p, mask):
    """The weakest Liberation card while two remain, else the weakest Royalist card."""
    keep_liberation = liberation_cards(state, p, -1) < 2
    pick = -1
    score = 1 << 20
    for k in range(L.K):
        if not mask[L.A_DISCARD + k]:
            continue
        v = D.KIND_FORCE[k]
        if D.KIND_ROYALIST[k] == 0 and keep_liberation:
            v += 100
        if D.KIND_ROYALIST[k] != 0 and not keep_liberation:
            v += 100
        if v < score:
            score, pick = v, L.A_DISCARD + k
    return pick


@jit
def attack(state, params, p, mask):
    """Compose a Royalist attack on the rival's space (or pass when it is not worth it)."""
    s = state[L.POS + p]
    need = state[L.COUNTERS + s]
    if mask[L.A_CONFIRM]:
        return L.A_CONFIRM
    have = R.selected_force(state)
    available = have
    for k in range(L.K):
        if D.KIND_ROYALIST[k] != 0:
            available += (state[L.HAND + p * L.K + k] - state[L.SELECTED + k]) * D.KIND_FORCE[k]
    if available < need:
        return L.A_PASS
    if have == 0:
        # worth it: counters to clear, or a country nearly independent
        c = D.SPACE_COUNTRY[s]
        if need < 2 and empty_spaces(state, c) > 1:
            return L.A_PASS
    # the smallest card that suffices, else the strongest
    small = -1
    small_force = 1 << 20
    for k in range(L.K):
        if (
            mask[L.A_ROYALIST + k]
            and have + D.KIND_FORCE[k] >= need
            and D.KIND_FORCE[k] < small_force
        ):
            small_force, small = D.KIND_FORCE[k], L.A_ROYALIST + k
    if small >= 0:
        return small
    return strongest(state, p, mask, L.A_ROYALIST)


@jit
def own_space(state, params, p, mask):
    """Trade up the tucked card, else add a counter, else draw and discard, else pass."""
    s = state[L.POS + p]
    up = strongest(state, p, mask, L.A_EXCHANGE)
    if up >= 0 and D.KIND_FORCE[up - L.A_EXCHANGE] >= D.KIND_FORCE[state[L.CARD + s]] + 2:
        return up
    if mask[L.A_COUNTER + D.SPACE_CSPACE[s]]:
        return L.A_COUNTER + D.SPACE_CSPACE[s]
    if mask[L.A_DRAW_DISCARD]:
        return L.A_DRAW_DISCARD
    return L.A_PASS


@jit
def revolution(state, params, p, mask):
    """A counter where the race is close, else a card while the hand has room, else pass."""
    value, cs = best_reinforcement(state, params, p)
    if cs >= 0 and value >= 1.0 and mask[L.A_COUNTER + cs]:
        return L.A_COUNTER + cs
    if mask[L.A_REV_DRAW] and R.hand_size(state, p) < D.HAND_LIMIT:
        return L.A_REV_DRAW
    if cs >= 0 and mask[L.A_COUNTER + cs]:
        return L.A_COUNTER + cs
    return L.A_PASS


@jit
def heuristic_action(state, params, mask, prng):
    """The rule-based player's action for the player to move (a decision node)."""
    if R.legal_mask(state, params, mask) == 0:
        return -1
    p = state[H.H_ACTOR]
    ph = state[L.PHASE]
    a = -1
    if ph == L.PH_MOVE and not mask[L.A_ROLL]:  # hand_limit="at_once": the excess first
        a = discard(state, p, mask)
    elif ph == L.PH_MOVE:
        a = move(state, params, p, mask)
    elif ph == L.PH_EMPTY:
        a = strongest(state, p, mask, L.A_TUCK)
    elif ph == L.PH_OWN:
        a = own_space(state, params, p, mask)
    elif ph == L.PH_ENEMY:
        a = attack(state, params, p, mask)
    elif ph == L.PH_REVOLUTION:
        a = revolution(state, params, p, mask)
    elif ph == L.PH_DRAW_DISCARD or ph == L.PH_HAND_LIMIT:
        a = discard(state, p, mask)
    return legal_or_fallback(a, mask, L.A_PASS, L.NUM_ACTIONS)

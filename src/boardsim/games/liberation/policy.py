"""The liberation race's compiled rule-based player (``heuristic_action``).

Compiled into the rules namespace by ``bind_engine`` (not imported as a module).

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

from boardsim.core.header import (
    H_ACTOR,
    P_NUM_PLAYERS,
)
from boardsim.core.jit import jit
from boardsim.games.liberation.data import (
    COUNTRY_FIRST,
    COUNTRY_LENGTH,
    COUNTRY_SPACES,
    HAND_LIMIT,
    KIND_FORCE,
    KIND_ROYALIST,
    MAX_PLAYERS,
    NUM_COUNTRY_SPACES,
    SPACE_COUNTRY,
    SPACE_CSPACE,
    SPACE_REVOLUTION,
)
from boardsim.games.liberation.layout import (
    A_CONFIRM,
    A_COUNTER,
    A_DISCARD,
    A_DRAW_DISCARD,
    A_EXCHANGE,
    A_MOVE_CARD,
    A_PASS,
    A_REV_DRAW,
    A_ROLL,
    A_ROYALIST,
    A_TUCK,
    CARD,
    COUNTERS,
    HAND,
    INDEP,
    NUM_ACTIONS,
    OWNER,
    PH_DRAW_DISCARD,
    PH_EMPTY,
    PH_ENEMY,
    PH_HAND_LIMIT,
    PH_MOVE,
    PH_OWN,
    PH_REVOLUTION,
    PHASE,
    POS,
    SELECTED,
    SUPPLY,
    K,
)
from boardsim.games.liberation.rules import (
    hand_size,
    landing_space,
    legal_mask,
    selected_force,
)

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
    for k in range(K):
        if KIND_ROYALIST[k] == 0:
            n += state[HAND + p * K + k] - (1 if k == skip else 0)
    return n


@jit
def royalist_force(state, p, skip):
    """Force of ``p``'s Royalist cards, one of kind ``skip`` set aside (-1: none)."""
    f = 0
    for k in range(K):
        if KIND_ROYALIST[k] != 0:
            f += (state[HAND + p * K + k] - (1 if k == skip else 0)) * KIND_FORCE[k]
    return f


@jit
def country_totals(state, params, c, totals):
    """Each player's total (counters + card force) in country ``c``."""
    totals[:] = 0
    for s in range(COUNTRY_FIRST[c], COUNTRY_FIRST[c] + COUNTRY_LENGTH[c]):
        o = state[OWNER + s]
        if o >= 0:
            totals[o] += state[COUNTERS + s] + KIND_FORCE[state[CARD + s]]


@jit
def empty_spaces(state, c):
    """Spaces of country ``c`` nobody has liberated."""
    n = 0
    for s in range(COUNTRY_FIRST[c], COUNTRY_FIRST[c] + COUNTRY_LENGTH[c]):
        if state[OWNER + s] < 0:
            n += 1
    return n


@jit
def reinforce_value(state, params, p, c):
    """What one more counter of ``p`` in country ``c`` is worth (0: not worth it)."""
    if state[INDEP + c] != 0:
        return 0.0
    totals = np.zeros(MAX_PLAYERS, np.int64)
    country_totals(state, params, c, totals)
    best_other = 0
    for q in range(params[P_NUM_PLAYERS]):
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
    for cs in range(NUM_COUNTRY_SPACES):
        t = COUNTRY_SPACES[cs]
        if state[OWNER + t] == p:
            v = reinforce_value(state, params, p, SPACE_COUNTRY[t])
            if v > best:
                best, pick = v, cs
    return best, pick


@jit
def space_value(state, params, p, s, skip):
    """What landing on ``s`` is worth to ``p`` having discarded a card of kind ``skip``."""
    if SPACE_REVOLUTION[s] >= 0:
        v = REVOLUTION_VALUE
        if state[SUPPLY + p] > 0:
            v += 0.5 * best_reinforcement(state, params, p)[0]
        return v
    c = SPACE_COUNTRY[s]
    o = state[OWNER + s]
    if o < 0:
        if state[SUPPLY + p] > 0 and liberation_cards(state, p, skip) > 0:
            v = TUCK_VALUE
            if empty_spaces(state, c) == 1:
                v += CLOSE_BONUS
            return v
        return 0.2
    if o == p:
        if state[SUPPLY + p] > 0:
            return OWN_VALUE * (0.5 + 0.5 * reinforce_value(state, params, p, c))
        return 0.3
    if royalist_force(state, p, skip) >= state[COUNTERS + s]:
        return ATTACK_VALUE
    return 0.0


@jit
def move(state, params, p, mask):
    """Roll, or discard the card whose landing beats the roll's average by its cost."""
    s = state[POS + p]
    roll = 0.0
    for d in range(1, 7):
        roll += space_value(state, params, p, landing_space(state, params, s, d), -1)
    best = roll / 6.0
    pick = A_ROLL
    for k in range(K):
        if not mask[A_MOVE_CARD + k]:
            continue
        cost = CARD_COST
        if KIND_ROYALIST[k] == 0:
            cost += FORCE_COST * KIND_FORCE[k]
        t = landing_space(state, params, s, KIND_FORCE[k])
        v = space_value(state, params, p, t, k) - cost
        if v > best:
            best, pick = v, A_MOVE_CARD + k
    return pick


@jit
def strongest(state, p, mask, base):
    """The legal ``base + k`` action of the strongest card kind ``k`` (-1 none)."""
    pick = -1
    force = -1
    for k in range(K):
        if mask[base + k] and KIND_FORCE[k] > force:
            force, pick = KIND_FORCE[k], base + k
    return pick


@jit
def discard(state, p, mask):
    """The weakest Liberation card while two remain, else the weakest Royalist card."""
    keep_liberation = liberation_cards(state, p, -1) < 2
    pick = -1
    score = 1 << 20
    for k in range(K):
        if not mask[A_DISCARD + k]:
            continue
        v = KIND_FORCE[k]
        if KIND_ROYALIST[k] == 0 and keep_liberation:
            v += 100
        if KIND_ROYALIST[k] != 0 and not keep_liberation:
            v += 100
        if v < score:
            score, pick = v, A_DISCARD + k
    return pick


@jit
def attack(state, params, p, mask):
    """Compose a Royalist attack on the rival's space (or pass when it is not worth it)."""
    s = state[POS + p]
    need = state[COUNTERS + s]
    if mask[A_CONFIRM]:
        return A_CONFIRM
    have = selected_force(state)
    available = have
    for k in range(K):
        if KIND_ROYALIST[k] != 0:
            available += (state[HAND + p * K + k] - state[SELECTED + k]) * KIND_FORCE[k]
    if available < need:
        return A_PASS
    if have == 0:
        # worth it: counters to clear, or a country nearly independent
        c = SPACE_COUNTRY[s]
        if need < 2 and empty_spaces(state, c) > 1:
            return A_PASS
    # the smallest card that suffices, else the strongest
    small = -1
    small_force = 1 << 20
    for k in range(K):
        if mask[A_ROYALIST + k] and have + KIND_FORCE[k] >= need and KIND_FORCE[k] < small_force:
            small_force, small = KIND_FORCE[k], A_ROYALIST + k
    if small >= 0:
        return small
    return strongest(state, p, mask, A_ROYALIST)


@jit
def own_space(state, params, p, mask):
    """Trade up the tucked card, else add a counter, else draw and discard, else pass."""
    s = state[POS + p]
    up = strongest(state, p, mask, A_EXCHANGE)
    if up >= 0 and KIND_FORCE[up - A_EXCHANGE] >= KIND_FORCE[state[CARD + s]] + 2:
        return up
    if mask[A_COUNTER + SPACE_CSPACE[s]]:
        return A_COUNTER + SPACE_CSPACE[s]
    if mask[A_DRAW_DISCARD]:
        return A_DRAW_DISCARD
    return A_PASS


@jit
def revolution(state, params, p, mask):
    """A counter where the race is close, else a card while the hand has room, else pass."""
    value, cs = best_reinforcement(state, params, p)
    if cs >= 0 and value >= 1.0 and mask[A_COUNTER + cs]:
        return A_COUNTER + cs
    if mask[A_REV_DRAW] and hand_size(state, p) < HAND_LIMIT:
        return A_REV_DRAW
    if cs >= 0 and mask[A_COUNTER + cs]:
        return A_COUNTER + cs
    return A_PASS


@jit
def heuristic_action(state, params, mask, prng):
    """The rule-based player's action for the player to move (a decision node)."""
    if legal_mask(state, params, mask) == 0:
        return -1
    p = state[H_ACTOR]
    ph = state[PHASE]
    a = -1
    if ph == PH_MOVE and not mask[A_ROLL]:  # hand_limit="at_once": the excess first
        a = discard(state, p, mask)
    elif ph == PH_MOVE:
        a = move(state, params, p, mask)
    elif ph == PH_EMPTY:
        a = strongest(state, p, mask, A_TUCK)
    elif ph == PH_OWN:
        a = own_space(state, params, p, mask)
    elif ph == PH_ENEMY:
        a = attack(state, params, p, mask)
    elif ph == PH_REVOLUTION:
        a = revolution(state, params, p, mask)
    elif ph == PH_DRAW_DISCARD or ph == PH_HAND_LIMIT:
        a = discard(state, p, mask)
    if a < 0 or not mask[a]:
        if mask[A_PASS]:
            return A_PASS
        for b in range(NUM_ACTIONS):
            if mask[b]:
                return b
    return a

"""The liberation race's rules, compiled: pure functions over the state array.

Each function is named after the rule it carries out. Every die roll and card
draw is a chance node (``state[H_ACTOR] == CHANCE``); the generic engine bound
at the bottom draws them, or stops at them when ``explicit_chance`` is set.
Decisions the rulebook leaves open are numbered in ``docs/rules/liberation.md``.
"""

from __future__ import annotations

import numpy as np

from boardsim.core.header import (
    CHANCE,
    FLAG_TERMINAL,
    FLAG_TRUNCATED,
    H_ACTOR,
    H_CHANCE_KIND,
    H_FLAGS,
    P_NUM_PLAYERS,
    TERMINAL,
)
from boardsim.core.jit import jit
from boardsim.games.liberation.data import (
    CLOSING_CARD_VT,
    COUNTRY_FIRST,
    COUNTRY_LENGTH,
    COUNTRY_SPACES,
    HAND_LIMIT,
    KIND_COUNT,
    KIND_FORCE,
    KIND_ROYALIST,
    MAX_PLAYERS,
    NUM_COUNTRIES,
    NUM_COUNTRY_SPACES,
    NUM_REVOLUTIONS,
    NUM_SPACES,
    OTHER_VT,
    PLACE_VT,
    REVOLUTION_SPACES,
    SPACE_COUNTRY,
    SPACE_CSPACE,
    SPACE_REVOLUTION,
    START_SPACE,
    STARTING_HAND,
)
from boardsim.games.liberation.layout import (
    A_CONFIRM,
    A_COUNTER,
    A_DISCARD,
    A_DRAW_DISCARD,
    A_EXCHANGE,
    A_JUMP,
    A_MOVE_CARD,
    A_PASS,
    A_REV_DRAW,
    A_REV_ROLL,
    A_ROLL,
    A_ROYALIST,
    A_TUCK,
    CARD,
    CH_DEAL,
    CH_MOVE_DIE,
    CH_OWN_DRAW,
    CH_REVOLUTION_DIE,
    CH_REVOLUTION_DRAW,
    CH_TURN_DRAW,
    CLEARED_TUCK,
    COUNTERS,
    DEAL_LEFT,
    DIE_FACES,
    DISCARD,
    GAME_END_AT_ONCE,
    HAND,
    HAND_LIMIT_AT_ONCE,
    INDEP,
    INDEPENDENT_COUNTED,
    LAST_SCORER,
    MAX_CHANCE_OUTCOMES,
    MOVER,
    NUM_ACTIONS,
    NUM_PHASES,
    OBS_CARDS,
    OBS_GLOBAL,
    OBS_HAND,
    OBS_PHASE,
    OBS_PLAYER_WIDTH,
    OBS_PLAYERS,
    OBS_SIZE,
    OBS_SPACE_WIDTH,
    OBS_SPACES,
    OWNER,
    PH_DRAW_DISCARD,
    PH_EMPTY,
    PH_ENEMY,
    PH_HAND_LIMIT,
    PH_MOVE,
    PH_OVER,
    PH_OWN,
    PH_REVOLUTION,
    PHASE,
    PILE,
    POS,
    PR_CLEARED_SPACE,
    PR_COUNTERS,
    PR_GAME_END,
    PR_HAND_LIMIT,
    PR_INDEPENDENT_SPACES,
    PR_RETURN_COUNTERS,
    PR_REWARD,
    PR_ROYALIST_MOVES,
    PR_TIE_RULE,
    REMOVED,
    REWARD_VT,
    SELECTED,
    STALLED,
    STATE_SIZE,
    SUPPLY,
    TIE_DEMOTE,
    TURN,
    VT,
    K,
)

__all__ = ["MAX_CHANCE_OUTCOMES", "MAX_PLAYERS", "NUM_ACTIONS", "OBS_SIZE", "STATE_SIZE"]


# ---------------------------------------------------------------- small queries
@jit
def hand_size(state, p):
    """Cards in player ``p``'s hand."""
    n = 0
    for k in range(K):
        n += state[HAND + p * K + k]
    return n


@jit
def cards_to_draw(state):
    """Cards in the draw pile and the discards together."""
    n = 0
    for k in range(K):
        n += state[PILE + k] + state[DISCARD + k]
    return n


@jit
def country_liberated(state, c):
    """Every space of country ``c`` holds a tucked card."""
    for s in range(COUNTRY_FIRST[c], COUNTRY_FIRST[c] + COUNTRY_LENGTH[c]):
        if state[OWNER + s] < 0:
            return False
    return True


@jit
def independent_space(state, s):
    """Space ``s`` is a space of an independent country."""
    c = SPACE_COUNTRY[s]
    return c >= 0 and state[INDEP + c] != 0


@jit
def can_liberate(state, p):
    """Player ``p`` has a counter in supply and a Liberation card in hand to tuck."""
    if state[SUPPLY + p] <= 0:
        return False
    for k in range(K):
        if state[HAND + p * K + k] > 0 and KIND_ROYALIST[k] == 0:
            return True
    return False


@jit
def selected_force(state):
    """Combined force of the Royalist cards chosen for the attack so far."""
    f = 0
    for k in range(K):
        f += state[SELECTED + k] * KIND_FORCE[k]
    return f


# ---------------------------------------------------------------- turn flow
@jit
def decide(state, phase):
    """The player whose turn it is now decides in ``phase``."""
    state[PHASE] = phase
    state[H_ACTOR] = state[MOVER]
    state[H_CHANCE_KIND] = 0


@jit
def chance(state, kind):
    """A random event happens next (the engine or the chance player resolves it)."""
    state[H_ACTOR] = CHANCE
    state[H_CHANCE_KIND] = kind


@jit
def begin_draw(state, kind):
    """Draw a card: when the pile is empty the discards are reshuffled into it.

    Returns False when there is no card at all (decision L5): nothing is drawn.
    """
    total = 0
    for k in range(K):
        total += state[PILE + k]
    if total == 0:
        for k in range(K):
            state[PILE + k] += state[DISCARD + k]
            total += state[DISCARD + k]
            state[DISCARD + k] = 0
    if total == 0:
        return False
    chance(state, kind)
    return True


@jit
def take_card(state, p, k):
    """Card kind ``k`` leaves the draw pile for player ``p``'s hand."""
    state[PILE + k] -= 1
    state[HAND + p * K + k] += 1


@jit
def end_game(state, stalled):
    """The game is over (every country independent, or the stall rule)."""
    state[STALLED] = stalled
    state[PHASE] = PH_OVER
    state[H_FLAGS] |= FLAG_TERMINAL
    state[H_ACTOR] = TERMINAL
    state[H_CHANCE_KIND] = 0


@jit
def is_stalled(state, params):
    """No counter can ever be placed again (decision L9).

    Every supply is empty, and all the Royalist cards still in play together are
    too weak to clear even the least-defended liberated space: nothing can free
    a counter, so no space can be liberated and no country can finish.
    """
    for p in range(params[P_NUM_PLAYERS]):
        if state[SUPPLY + p] > 0:
            return False
    force = 0
    for k in range(K):
        if KIND_ROYALIST[k] != 0:
            force += (KIND_COUNT[k] - state[REMOVED + k]) * KIND_FORCE[k]
    for s in range(NUM_SPACES):
        c = SPACE_COUNTRY[s]
        if state[OWNER + s] >= 0 and state[INDEP + c] == 0 and state[COUNTERS + s] <= force:
            return False
    return True


@jit
def start_turn(state, params):
    """Phase 1: draw 1 card (then phase 2, the move)."""
    state[TURN] += 1
    if not begin_draw(state, CH_TURN_DRAW):
        decide(state, PH_MOVE)


@jit
def round_played_out(state, params):
    """Every country is independent (only with ``game_end="end_of_round"`` is the game still
    on) and the last seat has just had his turn of the round (ledger L13)."""
    return all_independent(state) and state[MOVER] == params[P_NUM_PLAYERS] - 1


@jit
def next_player(state, params):
    """The turn passes to the next player in seat order."""
    if all_independent(state):  # game_end="end_of_round": the round is played out
        if round_played_out(state, params):
            end_game(state, 0)
            return
    elif is_stalled(state, params):
        end_game(state, 1)
        return
    state[MOVER] = (state[MOVER] + 1) % params[P_NUM_PLAYERS]
    start_turn(state, params)


@jit
def over_limit_now(state, params, p):
    """Option ``hand_limit="at_once"`` (ledger L6): ``p``'s hand is over the limit and must
    be cut down now, before anything else; by default only at the end of its turn."""
    return params[PR_HAND_LIMIT] == HAND_LIMIT_AT_ONCE and hand_size(state, p) > HAND_LIMIT


@jit
def end_turn(state, params):
    """Phase 5: discard down to the hand limit, then the next player's turn."""
    if hand_size(state, state[MOVER]) > HAND_LIMIT:
        decide(state, PH_HAND_LIMIT)
    else:
        next_player(state, params)


# ---------------------------------------------------------------- movement
@jit
def landing_space(state, params, s, steps):
    """Where a pawn on ``s`` ends ``steps`` spaces on, independent country spaces skipped
    over (ledger L4): by default they use no pip; with ``independent_spaces="counted"`` each
    uses one, and a move ending on one goes on to the next space that is not independent."""
    counted = params[PR_INDEPENDENT_SPACES] == INDEPENDENT_COUNTED
    moved = 0
    while moved < steps:
        s = (s + 1) % NUM_SPACES
        if counted or not independent_space(state, s):
            moved += 1
    if counted:
        while independent_space(state, s):  # a revolution space always ends this
            s = (s + 1) % NUM_SPACES
    return s


@jit
def advance_pawn(state, params, p, steps):
    """Move forward ``steps`` spaces (independent country spaces as ``landing_space`` says)."""
    state[POS + p] = landing_space(state, params, state[POS + p], steps)


@jit
def land(state):
    """Phase 3 begins: what the pawn's new space allows."""
    p = state[MOVER]
    s = state[POS + p]
    if SPACE_REVOLUTION[s] >= 0:
        decide(state, PH_REVOLUTION)
    elif state[OWNER + s] < 0:
        decide(state, PH_EMPTY)
    elif state[OWNER + s] == p:
        decide(state, PH_OWN)
    else:
        for k in range(K):
            state[SELECTED + k] = 0
        decide(state, PH_ENEMY)


# ---------------------------------------------------------------- independence
@jit
def place_award(place):
    """VT for the ``place``-th (0-based) highest total in a country."""
    if place < PLACE_VT.shape[0]:
        return PLACE_VT[place]
    return OTHER_VT


@jit
def score_independence(state, params, c, placer):
    """Country ``c`` gains its independence: award its Victory Tokens at once."""
    n = params[P_NUM_PLAYERS]
    state[INDEP + c] = 1
    state[LAST_SCORER] = placer
    state[VT + placer] += CLOSING_CARD_VT
    totals = np.zeros(MAX_PLAYERS, np.int64)
    present = np.zeros(MAX_PLAYERS, np.int64)
    for s in range(COUNTRY_FIRST[c], COUNTRY_FIRST[c] + COUNTRY_LENGTH[c]):
        o = state[OWNER + s]
        totals[o] += state[COUNTERS + s] + KIND_FORCE[state[CARD + s]]
        if state[COUNTERS + s] > 0:
            present[o] = 1
    for p in range(n):
        if present[p] == 0:
            continue
        higher = 0
        equal = 0
        for q in range(n):
            if present[q] != 0 and q != p:
                if totals[q] > totals[p]:
                    higher += 1
                elif totals[q] == totals[p]:
                    equal += 1
        place = higher + equal if params[PR_TIE_RULE] == TIE_DEMOTE else higher
        state[VT + p] += place_award(place)
    if params[PR_RETURN_COUNTERS] != 0:
        for s in range(COUNTRY_FIRST[c], COUNTRY_FIRST[c] + COUNTRY_LENGTH[c]):
            state[SUPPLY + state[OWNER + s]] += state[COUNTERS + s]
            state[COUNTERS + s] = 0


@jit
def all_independent(state):
    for c in range(NUM_COUNTRIES):
        if state[INDEP + c] == 0:
            return False
    return True


@jit
def liberate_space(state, params, p, s, k):
    """Tuck Liberation card ``k`` at space ``s`` and place 1 counter: ``p`` liberated it."""
    state[HAND + p * K + k] -= 1
    state[CARD + s] = k
    state[OWNER + s] = p
    state[COUNTERS + s] = 1
    state[SUPPLY + p] -= 1
    c = SPACE_COUNTRY[s]
    if country_liberated(state, c):
        score_independence(state, params, c, p)
        if all_independent(state) and params[PR_GAME_END] == GAME_END_AT_ONCE:
            end_game(state, 0)
            return
    end_turn(state, params)  # game_end="end_of_round": next_player ends it after the round


@jit
def royalist_attack(state, p, s):
    """The chosen Royalist cards leave the game; the space's counters and card are discarded.

    The counters go back to their owner's supply (decision L7).
    """
    for k in range(K):
        n = state[SELECTED + k]
        state[HAND + p * K + k] -= n
        state[REMOVED + k] += n
        state[SELECTED + k] = 0
    owner = state[OWNER + s]
    state[SUPPLY + owner] += state[COUNTERS + s]
    state[DISCARD + state[CARD + s]] += 1
    state[OWNER + s] = -1
    state[CARD + s] = -1
    state[COUNTERS + s] = 0


@jit
def after_attack(state, params, p):
    """The attack done: the turn ends (ledger L7, ``cleared_space="left_empty"``), or with
    ``cleared_space="tuck"`` the attacker may tuck a card on the cleared space, if he can."""
    if params[PR_CLEARED_SPACE] == CLEARED_TUCK and can_liberate(state, p):
        decide(state, PH_EMPTY)
    else:
        end_turn(state, params)


@jit
def allow(mask, action):
    """Mark ``action`` legal; returns 1 for the count."""
    mask[action] = 1
    return 1


# ---------------------------------------------------------------- the engine's kernels
@jit
def init(state, params, seed):
    """Set up: shuffled deck, pawns on space 1, counters in supply, 2 cards dealt to each."""
    n = params[P_NUM_PLAYERS]
    for k in range(K):
        state[PILE + k] = KIND_COUNT[k]
    for s in range(NUM_SPACES):
        state[OWNER + s] = -1
        state[CARD + s] = -1
    for p in range(n):
        state[POS + p] = START_SPACE
        state[SUPPLY + p] = params[PR_COUNTERS]
    state[LAST_SCORER] = -1
    state[MOVER] = 0
    state[DEAL_LEFT] = n * STARTING_HAND
    if state[DEAL_LEFT] == 0 or not begin_draw(state, CH_DEAL):
        state[DEAL_LEFT] = 0
        start_turn(state, params)


@jit
def chance_weights(state, params, outcomes, weights):
    """The die's six faces, or the kinds left in the draw pile weighted by their count."""
    kind = state[H_CHANCE_KIND]
    if kind == CH_MOVE_DIE or kind == CH_REVOLUTION_DIE:
        for i in range(DIE_FACES):
            outcomes[i] = i + 1
            weights[i] = 1
        return DIE_FACES
    n = 0
    for k in range(K):
        if state[PILE + k] > 0:
            outcomes[n] = k
            weights[n] = state[PILE + k]
            n += 1
    return n


@jit
def apply_chance(state, params, outcome):
    """The die shows ``outcome``, or the card drawn is of kind ``outcome``."""
    kind = state[H_CHANCE_KIND]
    p = state[MOVER]
    if kind == CH_DEAL:
        n = params[P_NUM_PLAYERS]
        dealt = n * STARTING_HAND - state[DEAL_LEFT]
        take_card(state, dealt % n, outcome)
        state[DEAL_LEFT] -= 1
        if state[DEAL_LEFT] == 0 or not begin_draw(state, CH_DEAL):
            state[DEAL_LEFT] = 0
            start_turn(state, params)
    elif kind == CH_TURN_DRAW:
        take_card(state, p, outcome)
        decide(state, PH_MOVE)
    elif kind == CH_MOVE_DIE or kind == CH_REVOLUTION_DIE:
        advance_pawn(state, params, p, outcome)
        land(state)
    elif kind == CH_REVOLUTION_DRAW:
        take_card(state, p, outcome)
        end_turn(state, params)
    else:  # CH_OWN_DRAW
        take_card(state, p, outcome)
        decide(state, PH_DRAW_DISCARD)


@jit
def legal_mask(state, params, mask):
    """Fill ``mask`` with the actions open to the player to move; return how many."""
    mask[:] = 0
    p = state[H_ACTOR]
    if p < 0 or (state[H_FLAGS] & FLAG_TERMINAL) != 0:
        return 0
    phase = state[PHASE]
    s = state[POS + p]
    hand = HAND + p * K
    n = 0
    if phase == PH_MOVE and over_limit_now(state, params, p):
        for k in range(K):  # hand_limit="at_once": discard the excess before the move
            if state[hand + k] > 0:
                n += allow(mask, A_DISCARD + k)
    elif phase == PH_MOVE:
        n += allow(mask, A_ROLL)
        for k in range(K):
            if state[hand + k] > 0 and (KIND_ROYALIST[k] == 0 or params[PR_ROYALIST_MOVES] != 0):
                n += allow(mask, A_MOVE_CARD + k)
    elif phase == PH_REVOLUTION:
        n += allow(mask, A_PASS)
        n += allow(mask, A_REV_ROLL)
        if cards_to_draw(state) > 0:
            n += allow(mask, A_REV_DRAW)
        for r in range(NUM_REVOLUTIONS):
            if REVOLUTION_SPACES[r] != s:
                n += allow(mask, A_JUMP + r)
        if state[SUPPLY + p] > 0:
            for cs in range(NUM_COUNTRY_SPACES):
                t = COUNTRY_SPACES[cs]
                if state[OWNER + t] == p and state[INDEP + SPACE_COUNTRY[t]] == 0:
                    n += allow(mask, A_COUNTER + cs)
    elif phase == PH_EMPTY:
        n += allow(mask, A_PASS)
        if state[SUPPLY + p] > 0:
            for k in range(K):
                if state[hand + k] > 0 and KIND_ROYALIST[k] == 0:
                    n += allow(mask, A_TUCK + k)
    elif phase == PH_OWN:
        n += allow(mask, A_PASS)
        if state[SUPPLY + p] > 0:
            n += allow(mask, A_COUNTER + SPACE_CSPACE[s])
        for k in range(K):
            if state[hand + k] > 0 and KIND_ROYALIST[k] == 0 and k != state[CARD + s]:
                n += allow(mask, A_EXCHANGE + k)
        if cards_to_draw(state) > 0:
            n += allow(mask, A_DRAW_DISCARD)
    elif phase == PH_ENEMY:
        n += allow(mask, A_PASS)
        force = selected_force(state)
        if force >= state[COUNTERS + s]:
            n += allow(mask, A_CONFIRM)
        else:
            for k in range(K):
                if KIND_ROYALIST[k] != 0 and state[hand + k] > state[SELECTED + k]:
                    n += allow(mask, A_ROYALIST + k)
    elif phase == PH_DRAW_DISCARD or phase == PH_HAND_LIMIT:
        for k in range(K):
            if state[hand + k] > 0:
                n += allow(mask, A_DISCARD + k)
    return n


@jit
def apply_action(state, params, action):
    """One decision of the player to move (legal, as ``legal_mask`` says)."""
    p = state[H_ACTOR]
    s = state[POS + p]
    hand = HAND + p * K
    if action == A_ROLL:
        chance(state, CH_MOVE_DIE)
    elif action < A_PASS:  # discard a card to move its force
        k = action - A_MOVE_CARD
        state[hand + k] -= 1
        state[DISCARD + k] += 1
        advance_pawn(state, params, p, KIND_FORCE[k])
        land(state)
    elif action == A_PASS:
        for k in range(K):
            state[SELECTED + k] = 0
        end_turn(state, params)
    elif action == A_REV_ROLL:
        chance(state, CH_REVOLUTION_DIE)
    elif action == A_REV_DRAW:
        begin_draw(state, CH_REVOLUTION_DRAW)
    elif action == A_DRAW_DISCARD:
        begin_draw(state, CH_OWN_DRAW)
    elif action == A_CONFIRM:
        royalist_attack(state, p, s)
        after_attack(state, params, p)
    elif action < A_COUNTER:  # jump to another revolution space
        state[POS + p] = REVOLUTION_SPACES[action - A_JUMP]
        end_turn(state, params)
    elif action < A_TUCK:  # one more counter on a space one liberated
        t = COUNTRY_SPACES[action - A_COUNTER]
        state[COUNTERS + t] += 1
        state[SUPPLY + p] -= 1
        end_turn(state, params)
    elif action < A_EXCHANGE:
        liberate_space(state, params, p, s, action - A_TUCK)
    elif action < A_DISCARD:  # exchange the tucked card with a hand card
        k = action - A_EXCHANGE
        old = state[CARD + s]
        state[CARD + s] = k
        state[hand + k] -= 1
        state[hand + old] += 1
        end_turn(state, params)
    elif action < A_ROYALIST:
        k = action - A_DISCARD
        state[hand + k] -= 1
        state[DISCARD + k] += 1
        if state[PHASE] == PH_DRAW_DISCARD:
            end_turn(state, params)
        elif state[PHASE] == PH_MOVE:
            pass  # hand_limit="at_once": the move follows once the hand is down to the limit
        elif hand_size(state, p) <= HAND_LIMIT:
            next_player(state, params)
    else:  # add a Royalist card to the attack being composed
        state[SELECTED + action - A_ROYALIST] += 1


@jit
def observe(state, params, player, out):
    """What ``player`` sees: the board, every public count, its own hand; no other hand.

    Players are listed from the observer on (egocentric), so seat 0 is always "me".
    """
    n = params[P_NUM_PLAYERS]
    out[:] = 0.0
    if state[PHASE] < NUM_PHASES:
        out[OBS_PHASE + state[PHASE]] = 1.0
    actor = state[H_ACTOR]
    out[OBS_GLOBAL] = 1.0 if actor == player else 0.0
    out[OBS_GLOBAL + 1] = ((state[MOVER] - player) % n) / MAX_PLAYERS
    pile = 0
    for k in range(K):
        pile += state[PILE + k]
    out[OBS_GLOBAL + 2] = pile / 80.0
    out[OBS_GLOBAL + 3] = min(state[TURN], 400) / 400.0
    for j in range(n):
        q = (player + j) % n
        base = OBS_PLAYERS + j * OBS_PLAYER_WIDTH
        out[base] = 1.0
        out[base + 1 + state[POS + q]] = 1.0
        out[base + 1 + NUM_SPACES] = state[SUPPLY + q] / 30.0
        out[base + 2 + NUM_SPACES] = state[VT + q] / 30.0
        out[base + 3 + NUM_SPACES] = hand_size(state, q) / 5.0
    for k in range(K):
        out[OBS_HAND + k] = state[HAND + player * K + k]
        out[OBS_CARDS + k] = state[DISCARD + k]
        out[OBS_CARDS + K + k] = state[REMOVED + k]
        out[OBS_CARDS + 2 * K + k] = state[SELECTED + k]
    for s in range(NUM_SPACES):
        base = OBS_SPACES + s * OBS_SPACE_WIDTH
        o = state[OWNER + s]
        if o >= 0:
            out[base + (o - player) % n] = 1.0
            out[base + MAX_PLAYERS] = KIND_FORCE[state[CARD + s]] / 8.0
        out[base + MAX_PLAYERS + 1] = state[COUNTERS + s] / 5.0
        c = SPACE_COUNTRY[s]
        if c >= 0 and state[INDEP + c] != 0:
            out[base + MAX_PLAYERS + 2] = 1.0


@jit
def returns(state, params, out):
    """Win/loss at the end (+1 sole winner, 0 tied winners, -1 the rest), or VT when dense."""
    n = params[P_NUM_PLAYERS]
    out[:] = 0.0
    if params[PR_REWARD] == REWARD_VT:
        for p in range(n):
            out[p] = state[VT + p]
        return
    if (state[H_FLAGS] & FLAG_TERMINAL) == 0 or (state[H_FLAGS] & FLAG_TRUNCATED) != 0:
        return
    best = -1
    for p in range(n):
        best = max(best, state[VT + p])
    winners = 0
    for p in range(n):
        if state[VT + p] == best:
            winners += 1
    for p in range(n):
        if state[VT + p] == best:
            out[p] = 1.0 if winners == 1 else 0.0
        else:
            out[p] = -1.0

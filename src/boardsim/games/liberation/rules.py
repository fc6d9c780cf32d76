"""The liberation race's rules, compiled: pure functions over the state array.

Each function is named after the rule it carries out. Every die roll and card
draw is a chance node (``state[H_ACTOR] == CHANCE``); the generic engine (given
these kernels by its bundle) draws them, or stops at them when ``explicit_chance`` is set.
Decisions the rulebook leaves open are numbered in ``docs/rules/liberation.md``.
"""

from __future__ import annotations

import numpy as np

from boardsim.core import header as H
from boardsim.core.jit import jit
from boardsim.core.kernel_parts import fair_die, mark_over
from boardsim.games.liberation import data as D
from boardsim.games.liberation import layout as L


# ---------------------------------------------------------------- small queries
@jit
def hand_size(state, p):
    """Cards in player ``p``'s hand."""
    n = 0
    for k in range(L.K):
        n += state[L.HAND + p * L.K + k]
    return n


@jit
def cards_to_draw(state):
    """Cards in the draw pile and the discards together."""
    n = 0
    for k in range(L.K):
        n += state[L.PILE + k] + state[L.DISCARD + k]
    return n


@jit
def country_liberated(state, c):
    """Every space of country ``c`` holds a tucked card."""
    for s in range(D.COUNTRY_FIRST[c], D.COUNTRY_FIRST[c] + D.COUNTRY_LENGTH[c]):
        if state[L.OWNER + s] < 0:
            return False
    return True


@jit
def independent_space(state, s):
    """Space ``s`` is a space of an independent country."""
    c = D.SPACE_COUNTRY[s]
    return c >= 0 and state[L.INDEP + c] != 0


@jit
def can_liberate(state, p):
    """Player ``p`` has a counter in supply and a Liberation card in hand to tuck."""
    if state[L.SUPPLY + p] <= 0:
        return False
    for k in range(L.K):
        if state[L.HAND + p * L.K + k] > 0 and D.KIND_ROYALIST[k] == 0:
            return True
    return False


@jit
def selected_force(state):
    """Combined force of the Royalist cards chosen for the attack so far."""
    f = 0
    for k in range(L.K):
        f += state[L.SELECTED + k] * D.KIND_FORCE[k]
    return f


# ---------------------------------------------------------------- turn flow
@jit
def decide(state, phase):
    """The player whose turn it is now decides in ``phase``."""
    state[L.PHASE] = phase
    state[H.H_ACTOR] = state[L.MOVER]
    state[H.H_CHANCE_KIND] = 0


@jit
def chance(state, kind):
    """A random event happens next (the engine or the chance player resolves it)."""
    state[H.H_ACTOR] = H.CHANCE
    state[H.H_CHANCE_KIND] = kind


@jit
def begin_draw(state, kind):
    """Draw a card: when the pile is empty the discards are reshuffled into it.

    Returns False when there is no card at all (decision L5): nothing is drawn.
    """
    total = 0
    for k in range(L.K):
        total += state[L.PILE + k]
    if total == 0:
        for k in range(L.K):
            state[L.PILE + k] += state[L.DISCARD + k]
            total += state[L.DISCARD + k]
            state[L.DISCARD + k] = 0
    if total == 0:
        return False
    chance(state, kind)
    return True


@jit
def take_card(state, p, k):
    """Card kind ``k`` leaves the draw pile for player ``p``'s hand."""
    state[L.PILE + k] -= 1
    state[L.HAND + p * L.K + k] += 1


@jit
def end_game(state, stalled):
    """The game is over (every country independent, or the stall rule)."""
    state[L.STALLED] = stalled
    state[L.PHASE] = L.PH_OVER
    mark_over(state)


@jit
def is_stalled(state, params):
    """No counter can ever be placed again (decision L9).

    Every supply is empty, and all the Royalist cards still in play together are
    too weak to clear even the least-defended liberated space: nothing can free
    a counter, so no space can be liberated and no country can finish.
    """
    for p in range(params[H.P_NUM_PLAYERS]):
        if state[L.SUPPLY + p] > 0:
            return False
    force = 0
    for k in range(L.K):
        if D.KIND_ROYALIST[k] != 0:
            force += (D.KIND_COUNT[k] - state[L.REMOVED + k]) * D.KIND_FORCE[k]
    for s in range(D.NUM_SPACES):
        c = D.SPACE_COUNTRY[s]
        if state[L.OWNER + s] >= 0 and state[L.INDEP + c] == 0 and state[L.COUNTERS + s] <= force:
            return False
    return True


@jit
def start_turn(state, params):
    """Phase 1: draw 1 card (then phase 2, the move)."""
    state[L.TURN] += 1
    state[L.JUMPED] = 0
    if not begin_draw(state, L.CH_TURN_DRAW):
        decide(state, L.PH_MOVE)


@jit
def round_played_out(state, params):
    """Every country is independent (only with ``game_end="end_of_round"`` is the game still
    on) and the last seat has just had his turn of the round (ledger L13)."""
    return all_independent(state) and state[L.MOVER] == params[H.P_NUM_PLAYERS] - 1


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
    state[L.MOVER] = (state[L.MOVER] + 1) % params[H.P_NUM_PLAYERS]
    start_turn(state, params)


@jit
def over_limit_now(state, params, p):
    """Option ``hand_limit="at_once"`` (ledger L6): ``p``'s hand is over the limit and must
    be cut down now, before anything else; by default only at the end of its turn."""
    return params[L.PR_HAND_LIMIT] == L.HAND_LIMIT_AT_ONCE and hand_size(state, p) > D.HAND_LIMIT


@jit
def end_turn(state, params):
    """Phase 5: discard down to the hand limit, then the next player's turn."""
    if hand_size(state, state[L.MOVER]) > D.HAND_LIMIT:
        decide(state, L.PH_HAND_LIMIT)
    else:
        next_player(state, params)


# ---------------------------------------------------------------- movement
@jit
def landing_space(state, params, s, steps):
    """Where a pawn on ``s`` ends ``steps`` spaces on, independent country spaces skipped
    over (ledger L4): by default they use no pip; with ``independent_spaces="counted"`` each
    uses one, and a move ending on one goes on to the next space that is not independent."""
    counted = params[L.PR_INDEPENDENT_SPACES] == L.INDEPENDENT_COUNTED
    moved = 0
    while moved < steps:
        s = (s + 1) % D.NUM_SPACES
        if counted or not independent_space(state, s):
            moved += 1
    if counted:
        while independent_space(state, s):  # a revolution space always ends this
            s = (s + 1) % D.NUM_SPACES
    return s


@jit
def advance_pawn(state, params, p, steps):
    """Move forward ``steps`` spaces (independent country spaces as ``landing_space`` says)."""
    state[L.POS + p] = landing_space(state, params, state[L.POS + p], steps)


@jit
def land(state):
    """Phase 3 begins: what the pawn's new space allows."""
    p = state[L.MOVER]
    s = state[L.POS + p]
    if D.SPACE_REVOLUTION[s] >= 0:
        decide(state, L.PH_REVOLUTION)
    elif state[L.OWNER + s] < 0:
        decide(state, L.PH_EMPTY)
    elif state[L.OWNER + s] == p:
        decide(state, L.PH_OWN)
    else:
        for k in range(L.K):
            state[L.SELECTED + k] = 0
        decide(state, L.PH_ENEMY)


# ---------------------------------------------------------------- independence
@jit
def place_award(place):
    """VT for the ``place``-th (0-based) highest total in a country."""
    if place < D.PLACE_VT.shape[0]:
        return D.PLACE_VT[place]
    return D.OTHER_VT


@jit
def score_independence(state, params, c, placer):
    """Country ``c`` gains its independence: award its Victory Tokens at once."""
    n = params[H.P_NUM_PLAYERS]
    state[L.INDEP + c] = 1
    state[L.LAST_SCORER] = placer
    state[L.VT + placer] += D.CLOSING_CARD_VT
    totals = np.zeros(D.MAX_PLAYERS, np.int64)
    present = np.zeros(D.MAX_PLAYERS, np.int64)
    for s in range(D.COUNTRY_FIRST[c], D.COUNTRY_FIRST[c] + D.COUNTRY_LENGTH[c]):
        o = state[L.OWNER + s]
        totals[o] += state[L.COUNTERS + s] + D.KIND_FORCE[state[L.CARD + s]]
        if state[L.COUNTERS + s] > 0:
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
        place = higher + equal if params[L.PR_TIE_RULE] == L.TIE_DEMOTE else higher
        state[L.VT + p] += place_award(place)
    if params[L.PR_RETURN_COUNTERS] != 0:
        for s in range(D.COUNTRY_FIRST[c], D.COUNTRY_FIRST[c] + D.COUNTRY_LENGTH[c]):
            state[L.SUPPLY + state[L.OWNER + s]] += state[L.COUNTERS + s]
            state[L.COUNTERS + s] = 0


@jit
def all_independent(state):
    for c in range(D.NUM_COUNTRIES):
        if state[L.INDEP + c] == 0:
            return False
    return True


@jit
def liberate_space(state, params, p, s, k):
    """Tuck Liberation card ``k`` at space ``s`` and place 1 counter: ``p`` liberated it."""
    state[L.HAND + p * L.K + k] -= 1
    state[L.CARD + s] = k
    state[L.OWNER + s] = p
    state[L.COUNTERS + s] = 1
    state[L.SUPPLY + p] -= 1
    c = D.SPACE_COUNTRY[s]
    if country_liberated(state, c):
        score_independence(state, params, c, p)
        if all_independent(state) and params[L.PR_GAME_END] == L.GAME_END_AT_ONCE:
            end_game(state, 0)
            return
    end_turn(state, params)  # game_end="end_of_round": next_player ends it after the round


@jit
def royalist_attack(state, p, s):
    """The chosen Royalist cards leave the game; the space's counters and card are discarded.

    The counters go back to their owner's supply (decision L7).
    """
    for k in range(L.K):
        n = state[L.SELECTED + k]
        state[L.HAND + p * L.K + k] -= n
        state[L.REMOVED + k] += n
        state[L.SELECTED + k] = 0
    owner = state[L.OWNER + s]
    state[L.SUPPLY + owner] += state[L.COUNTERS + s]
    state[L.DISCARD + state[L.CARD + s]] += 1
    state[L.OWNER + s] = -1
    state[L.CARD + s] = -1
    state[L.COUNTERS + s] = 0


@jit
def jump(state, params, p, space):
    """The move to "any other Revolution space" (ledger L2). By default the turn ends there;
    with ``revolution_jump="triggers"`` the space acts as a landing (its actions again),
    and ``JUMPED`` withholds a second jump that turn, so a turn cannot jump for ever."""
    state[L.POS + p] = space
    if params[L.PR_REVOLUTION_JUMP] == L.REVOLUTION_JUMP_TRIGGERS:
        state[L.JUMPED] = 1
        land(state)
    else:
        end_turn(state, params)


@jit
def after_attack(state, params, p):
    """The attack done: the turn ends (ledger L7, ``cleared_space="left_empty"``), or with
    ``cleared_space="tuck"`` the attacker may tuck a card on the cleared space, if he can."""
    if params[L.PR_CLEARED_SPACE] == L.CLEARED_TUCK and can_liberate(state, p):
        decide(state, L.PH_EMPTY)
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
    n = params[H.P_NUM_PLAYERS]
    for k in range(L.K):
        state[L.PILE + k] = D.KIND_COUNT[k]
    for s in range(D.NUM_SPACES):
        state[L.OWNER + s] = -1
        state[L.CARD + s] = -1
    for p in range(n):
        state[L.POS + p] = D.START_SPACE
        state[L.SUPPLY + p] = params[L.PR_COUNTERS]
    state[L.LAST_SCORER] = -1
    state[L.MOVER] = 0
    state[L.DEAL_LEFT] = n * D.STARTING_HAND
    if state[L.DEAL_LEFT] == 0 or not begin_draw(state, L.CH_DEAL):
        state[L.DEAL_LEFT] = 0
        start_turn(state, params)


@jit
def chance_weights(state, params, outcomes, weights):
    """The die's six faces, or the kinds left in the draw pile weighted by their count."""
    kind = state[H.H_CHANCE_KIND]
    if kind == L.CH_MOVE_DIE or kind == L.CH_REVOLUTION_DIE:
        return fair_die(outcomes, weights, L.DIE_FACES)
    n = 0
    for k in range(L.K):
        if state[L.PILE + k] > 0:
            outcomes[n] = k
            weights[n] = state[L.PILE + k]
            n += 1
    return n


@jit
def apply_chance(state, params, outcome):
    """The die shows ``outcome``, or the card drawn is of kind ``outcome``."""
    kind = state[H.H_CHANCE_KIND]
    p = state[L.MOVER]
    if kind == L.CH_DEAL:
        n = params[H.P_NUM_PLAYERS]
        dealt = n * D.STARTING_HAND - state[L.DEAL_LEFT]
        take_card(state, dealt % n, outcome)
        state[L.DEAL_LEFT] -= 1
        if state[L.DEAL_LEFT] == 0 or not begin_draw(state, L.CH_DEAL):
            state[L.DEAL_LEFT] = 0
            start_turn(state, params)
    elif kind == L.CH_TURN_DRAW:
        take_card(state, p, outcome)
        decide(state, L.PH_MOVE)
    elif kind == L.CH_MOVE_DIE or kind == L.CH_REVOLUTION_DIE:
        advance_pawn(state, params, p, outcome)
        land(state)
    elif kind == L.CH_REVOLUTION_DRAW:
        take_card(state, p, outcome)
        end_turn(state, params)
    else:  # CH_OWN_DRAW
        take_card(state, p, outcome)
        decide(state, L.PH_DRAW_DISCARD)


@jit
def legal_mask(state, params, mask):
    """Fill ``mask`` with the actions open to the player to move; return how many."""
    mask[:] = 0
    p = state[H.H_ACTOR]
    if p < 0 or (state[H.H_FLAGS] & H.FLAG_TERMINAL) != 0:
        return 0
    phase = state[L.PHASE]
    s = state[L.POS + p]
    hand = L.HAND + p * L.K
    n = 0
    if phase == L.PH_MOVE and over_limit_now(state, params, p):
        for k in range(L.K):  # hand_limit="at_once": discard the excess before the move
            if state[hand + k] > 0:
                n += allow(mask, L.A_DISCARD + k)
    elif phase == L.PH_MOVE:
        n += allow(mask, L.A_ROLL)
        for k in range(L.K):
            if state[hand + k] > 0 and (
                D.KIND_ROYALIST[k] == 0 or params[L.PR_ROYALIST_MOVES] != 0
            ):
                n += allow(mask, L.A_MOVE_CARD + k)
    elif phase == L.PH_REVOLUTION:
        n += allow(mask, L.A_PASS)
        n += allow(mask, L.A_REV_ROLL)
        if cards_to_draw(state) > 0:
            n += allow(mask, L.A_REV_DRAW)
        for r in range(D.NUM_REVOLUTIONS):
            if D.REVOLUTION_SPACES[r] != s and state[L.JUMPED] == 0:
                n += allow(mask, L.A_JUMP + r)
        if state[L.SUPPLY + p] > 0:
            for cs in range(D.NUM_COUNTRY_SPACES):
                t = D.COUNTRY_SPACES[cs]
                if state[L.OWNER + t] == p and state[L.INDEP + D.SPACE_COUNTRY[t]] == 0:
                    n += allow(mask, L.A_COUNTER + cs)
    elif phase == L.PH_EMPTY:
        n += allow(mask, L.A_PASS)
        if state[L.SUPPLY + p] > 0:
            for k in range(L.K):
                if state[hand + k] > 0 and D.KIND_ROYALIST[k] == 0:
                    n += allow(mask, L.A_TUCK + k)
    elif phase == L.PH_OWN:
        n += allow(mask, L.A_PASS)
        if state[L.SUPPLY + p] > 0:
            n += allow(mask, L.A_COUNTER + D.SPACE_CSPACE[s])
        for k in range(L.K):
            if state[hand + k] > 0 and D.KIND_ROYALIST[k] == 0 and k != state[L.CARD + s]:
                n += allow(mask, L.A_EXCHANGE + k)
        if cards_to_draw(state) > 0:
            n += allow(mask, L.A_DRAW_DISCARD)
    elif phase == L.PH_ENEMY:
        n += allow(mask, L.A_PASS)
        force = selected_force(state)
        if force >= state[L.COUNTERS + s]:
            n += allow(mask, L.A_CONFIRM)
        else:
            for k in range(L.K):
                if D.KIND_ROYALIST[k] != 0 and state[hand + k] > state[L.SELECTED + k]:
                    n += allow(mask, L.A_ROYALIST + k)
    elif phase == L.PH_DRAW_DISCARD or phase == L.PH_HAND_LIMIT:
        for k in range(L.K):
            if state[hand + k] > 0:
                n += allow(mask, L.A_DISCARD + k)
    return n


@jit
def apply_action(state, params, action):
    """One decision of the player to move (legal, as ``legal_mask`` says)."""
    p = state[H.H_ACTOR]
    s = state[L.POS + p]
    hand = L.HAND + p * L.K
    if action == L.A_ROLL:
        chance(state, L.CH_MOVE_DIE)
    elif action < L.A_PASS:  # discard a card to move its force
        k = action - L.A_MOVE_CARD
        state[hand + k] -= 1
        state[L.DISCARD + k] += 1
        advance_pawn(state, params, p, D.KIND_FORCE[k])
        land(state)
    elif action == L.A_PASS:
        for k in range(L.K):
            state[L.SELECTED + k] = 0
        end_turn(state, params)
    elif action == L.A_REV_ROLL:
        chance(state, L.CH_REVOLUTION_DIE)
    elif action == L.A_REV_DRAW:
        begin_draw(state, L.CH_REVOLUTION_DRAW)
    elif action == L.A_DRAW_DISCARD:
        begin_draw(state, L.CH_OWN_DRAW)
    elif action == L.A_CONFIRM:
        royalist_attack(state, p, s)
        after_attack(state, params, p)
    elif action < L.A_COUNTER:
        jump(state, params, p, D.REVOLUTION_SPACES[action - L.A_JUMP])
    elif action < L.A_TUCK:  # one more counter on a space one liberated
        t = D.COUNTRY_SPACES[action - L.A_COUNTER]
        state[L.COUNTERS + t] += 1
        state[L.SUPPLY + p] -= 1
        end_turn(state, params)
    elif action < L.A_EXCHANGE:
        liberate_space(state, params, p, s, action - L.A_TUCK)
    elif action < L.A_DISCARD:  # exchange the tucked card with a hand card
        k = action - L.A_EXCHANGE
        old = state[L.CARD + s]
        state[L.CARD + s] = k
        state[hand + k] -= 1
        state[hand + old] += 1
        end_turn(state, params)
    elif action < L.A_ROYALIST:
        k = action - L.A_DISCARD
        state[hand + k] -= 1
        state[L.DISCARD + k] += 1
        if state[L.PHASE] == L.PH_DRAW_DISCARD:
            end_turn(state, params)
        elif state[L.PHASE] == L.PH_MOVE:
            pass  # hand_limit="at_once": the move follows once the hand is down to the limit
        elif hand_size(state, p) <= D.HAND_LIMIT:
            next_player(state, params)
    else:  # add a Royalist card to the attack being composed
        state[L.SELECTED + action - L.A_ROYALIST] += 1


@jit
def observe(state, params, player, out):
    """What ``player`` sees: the board, every public count, its own hand; no other hand.

    Players are listed from the observer on (egocentric), so seat 0 is always "me".
    """
    n = params[H.P_NUM_PLAYERS]
    out[:] = 0.0
    if state[L.PHASE] < L.NUM_PHASES:
        out[L.OBS_PHASE + state[L.PHASE]] = 1.0
    actor = state[H.H_ACTOR]
    out[L.OBS_GLOBAL] = 1.0 if actor == player else 0.0
    out[L.OBS_GLOBAL + 1] = ((state[L.MOVER] - player) % n) / D.MAX_PLAYERS
    pile = 0
    for k in range(L.K):
        pile += state[L.PILE + k]
    out[L.OBS_GLOBAL + 2] = pile / 80.0
    out[L.OBS_GLOBAL + 3] = min(state[L.TURN], 400) / 400.0
    for j in range(n):
        q = (player + j) % n
        base = L.OBS_PLAYERS + j * L.OBS_PLAYER_WIDTH
        out[base] = 1.0
        out[base + 1 + state[L.POS + q]] = 1.0
        out[base + 1 + D.NUM_SPACES] = state[L.SUPPLY + q] / 30.0
        out[base + 2 + D.NUM_SPACES] = state[L.VT + q] / 30.0
        out[base + 3 + D.NUM_SPACES] = hand_size(state, q) / 5.0
    for k in range(L.K):
        out[L.OBS_HAND + k] = state[L.HAND + player * L.K + k]
        out[L.OBS_CARDS + k] = state[L.DISCARD + k]
        out[L.OBS_CARDS + L.K + k] = state[L.REMOVED + k]
        out[L.OBS_CARDS + 2 * L.K + k] = state[L.SELECTED + k]
    for s in range(D.NUM_SPACES):
        base = L.OBS_SPACES + s * L.OBS_SPACE_WIDTH
        o = state[L.OWNER + s]
        if o >= 0:
            out[base + (o - player) % n] = 1.0
            out[base + D.MAX_PLAYERS] = D.KIND_FORCE[state[L.CARD + s]] / 8.0
        out[base + D.MAX_PLAYERS + 1] = state[L.COUNTERS + s] / 5.0
        c = D.SPACE_COUNTRY[s]
        if c >= 0 and state[L.INDEP + c] != 0:
            out[base + D.MAX_PLAYERS + 2] = 1.0


@jit
def returns(state, params, out):
    """Win/loss at the end (+1 sole winner, 0 tied winners, -1 the rest), or VT when dense."""
    n = params[H.P_NUM_PLAYERS]
    out[:] = 0.0
    if params[L.PR_REWARD] == L.REWARD_VT:
        for p in range(n):
            out[p] = state[L.VT + p]
        return
    if (state[H.H_FLAGS] & H.FLAG_TERMINAL) == 0 or (state[H.H_FLAGS] & H.FLAG_TRUNCATED) != 0:
        return
    best = -1
    for p in range(n):
        best = max(best, state[L.VT + p])
    winners = 0
    for p in range(n):
        if state[L.VT + p] == best:
            winners += 1
    for p in range(n):
        if state[L.VT + p] == best:
            out[p] = 1.0 if winners == 1 else 0.0
        else:
            out[p] = -1.0

"""The race's state validator: is an untrusted array a position the kernels handle safely?

``validate(state, params, where)`` returns 0, or the code of the first check that fails
with the index and the value at fault in ``where`` (``STATE_ERRORS`` has the words). It
checks what ``tests/liberation/test_invariants.py`` checks after every step of random
games, and what the kernels index with: every field in its range; the deck's cards
all somewhere, once; every counter in a supply or on the board; owners, tucked cards
and counters together; a country independent exactly when every space of it is
liberated; the phase, the chance node and the player to move coherent with one
another and with where the pawn stands. The engine adds the header and a legal action
(``core/engine.py`` ``validate_state``).
"""

from __future__ import annotations

import numpy as np

from boardsim.core import header as H
from boardsim.core.checks import first_outside, refuse
from boardsim.core.jit import jit
from boardsim.games.liberation import data as D
from boardsim.games.liberation import layout as L

NUM_CHANCE_KINDS = 7  # CH_NONE .. CH_OWN_DRAW
BIG = (1 << 31) - 1

# ---------------------------------------------------------------- the checks, by code
E_PHASE = 1
E_TURN = 2
E_MOVER = 3
E_DEAL_LEFT = 4
E_STALLED = 5
E_LAST_SCORER = 6
E_CHANCE_KIND = 7
E_POS = 8
E_SUPPLY = 9
E_VT = 10
E_HAND = 11
E_ABSENT_PLAYER = 12
E_PILE = 13
E_DISCARD = 14
E_REMOVED = 15
E_SELECTED = 16
E_OWNER = 17
E_CARD = 18
E_SPACE_COUNTERS = 19
E_UNOWNED_SPACE = 20
E_OWNED_REVOLUTION = 21
E_ROYALIST_TUCKED = 22
E_NO_COUNTER = 23
E_INDEP = 24
E_INDEPENDENCE = 25
E_CARD_COUNT = 26
E_COUNTER_COUNT = 27
E_VT_TOTAL = 28
E_OVER = 29
E_ALL_INDEPENDENT = 30
E_HAND_LIMIT = 31
E_DEAL = 32
E_CHANCE_PHASE = 33
E_DECISION_KIND = 34
E_DECISION_PHASE = 35
E_LANDING = 36
E_SELECTED_PHASE = 37
E_SELECTED_HAND = 38
E_OVER_LIMIT = 39
E_STALLED_LIVE = 40
E_LAST_SCORER_NONE = 41
E_ACTOR_MOVER = 42
E_JUMPED = 43

STATE_ERRORS: dict[int, str] = {
    E_PHASE: f"PHASE = {{value}}: not a phase (0..{L.NUM_PHASES - 1})",
    E_TURN: f"TURN = {{value}}: not 0..{H.MAX_DECISIONS}",
    E_MOVER: "MOVER = {value}: not a player of this game",
    E_DEAL_LEFT: "DEAL_LEFT = {value}: more cards than the opening hands, or negative",
    E_STALLED: "STALLED = {value}: not 0 or 1",
    E_LAST_SCORER: "LAST_SCORER = {value}: neither -1 nor a player of this game",
    E_CHANCE_KIND: "CHANCE_KIND (word 5) = {value}: not a chance kind "
    f"(0..{NUM_CHANCE_KINDS - 1})",
    E_POS: f"POS[{{index}}] = {{value}}: not a space (0..{D.NUM_SPACES - 1})",
    E_SUPPLY: "SUPPLY[{index}] = {value}: negative",
    E_VT: "VT[{index}] = {value}: negative",
    E_HAND: "HAND word {index} = {value}: negative",
    E_ABSENT_PLAYER: "player {index} is not in this game but has a pawn, counters, VT or cards "
    "(word {value})",
    E_PILE: "PILE[{index}] = {value}: negative",
    E_DISCARD: "DISCARD[{index}] = {value}: negative",
    E_REMOVED: "REMOVED[{index}] = {value}: negative, or a Liberation card out of the game",
    E_SELECTED: "SELECTED[{index}] = {value}: negative, or not a Royalist card",
    E_OWNER: "OWNER[{index}] = {value}: neither -1 nor a player of this game",
    E_CARD: f"CARD[{{index}}] = {{value}}: neither -1 nor a card kind (0..{L.K - 1})",
    E_SPACE_COUNTERS: "COUNTERS[{index}] = {value}: negative",
    E_UNOWNED_SPACE: "space {index} has no owner but a card or {value} counters",
    E_OWNED_REVOLUTION: "space {index} is a revolution space but has owner {value}",
    E_ROYALIST_TUCKED: "space {index} holds card {value}: none, or a Royalist card",
    E_NO_COUNTER: "space {index} is liberated with {value} counters",
    E_INDEP: "INDEP[{index}] = {value}: not 0 or 1",
    E_INDEPENDENCE: "country {index}: INDEP = {value}, but independent means every space liberated",
    E_CARD_COUNT: "card kind {index}: {value} cards in the pile, discards, hands, on the board "
    "and out of the game, not the deck's count",
    E_COUNTER_COUNT: "player {index}: {value} counters in the supply and on the board, not "
    "the game's counters option",
    E_VT_TOTAL: "the players hold {value} VT, more than the independent countries award",
    E_OVER: "PHASE = {value}: the game is over (not truncated) exactly in phase 8",
    E_ALL_INDEPENDENT: "every country is independent but the game goes on",
    E_HAND_LIMIT: f"player {{index}} holds {{value}} cards while another player moves "
    f"(limit {D.HAND_LIMIT})",
    E_DEAL: "the opening deal: DEAL_LEFT = {value}, not coherent with the chance node, the "
    "phase, the mover or the turn",
    E_CHANCE_PHASE: "chance kind {index} cannot happen in PHASE {value}",
    E_DECISION_KIND: "a player decides but CHANCE_KIND (word 5) = {value}",
    E_DECISION_PHASE: "a player decides in PHASE {value} (set-up or over) or before turn 1",
    E_LANDING: "the pawn of the player to move stands on space {index}, which does not "
    "allow PHASE {value}",
    E_SELECTED_PHASE: "Royalist card {index} is selected ({value}) outside a Royalist attack",
    E_SELECTED_HAND: "Royalist card {index}: {value} selected, more than in the mover's hand",
    E_OVER_LIMIT: "phase 7 (hand limit) but the mover holds {value} cards "
    f"(limit {D.HAND_LIMIT})",
    E_STALLED_LIVE: "STALLED = 1 but the game goes on",
    E_LAST_SCORER_NONE: "LAST_SCORER = {value} but no country is independent",
    E_ACTOR_MOVER: "ACTOR (word 2) = {value}, but it is player {index}'s turn (MOVER)",
    E_JUMPED: 'JUMPED = {value}: not 0 or 1, or set without revolution_jump="triggers" '
    "or before the turn's move (in PHASE {index})",
}


# ---------------------------------------------------------------- fields in range
@jit
def check_scalars(state, params, where):
    """The turn, phase, mover, deal and scorer words, each in its range."""
    n = params[H.P_NUM_PLAYERS]
    if not 0 <= state[L.PHASE] < L.NUM_PHASES:
        return refuse(where, E_PHASE, L.PHASE, state[L.PHASE])
    if not 0 <= state[L.TURN] <= H.MAX_DECISIONS:
        return refuse(where, E_TURN, L.TURN, state[L.TURN])
    if not 0 <= state[L.MOVER] < n:
        return refuse(where, E_MOVER, L.MOVER, state[L.MOVER])
    if not 0 <= state[L.DEAL_LEFT] <= n * D.STARTING_HAND:
        return refuse(where, E_DEAL_LEFT, L.DEAL_LEFT, state[L.DEAL_LEFT])
    if not 0 <= state[L.STALLED] <= 1:
        return refuse(where, E_STALLED, L.STALLED, state[L.STALLED])
    if not -1 <= state[L.LAST_SCORER] < n:
        return refuse(where, E_LAST_SCORER, L.LAST_SCORER, state[L.LAST_SCORER])
    if not 0 <= state[H.H_CHANCE_KIND] < NUM_CHANCE_KINDS:
        return refuse(where, E_CHANCE_KIND, H.H_CHANCE_KIND, state[H.H_CHANCE_KIND])
    return check_jumped(state, params, where)


@jit
def check_jumped(state, params, where):
    """``JUMPED`` (ledger L2) is 0 or 1, set only with ``revolution_jump="triggers"``, and
    only once the turn's move is made (a new turn clears it before its draw)."""
    jumped = state[L.JUMPED]
    if jumped == 0:
        return 0
    phase = state[L.PHASE]
    triggers = params[L.PR_REVOLUTION_JUMP] == L.REVOLUTION_JUMP_TRIGGERS
    kind = state[H.H_CHANCE_KIND]
    early = phase == L.PH_SETUP or phase == L.PH_MOVE or kind == L.CH_TURN_DRAW
    if jumped != 1 or not triggers or early:
        return refuse(where, E_JUMPED, phase, jumped)
    return 0


@jit
def check_players(state, params, where):
    """Pawns on the track, supplies, VT and hands not negative; absent players empty."""
    n = params[H.P_NUM_PLAYERS]
    i = first_outside(state, L.POS, n, 0, D.NUM_SPACES - 1)
    if i >= 0:
        return refuse(where, E_POS, i, state[L.POS + i])
    i = first_outside(state, L.SUPPLY, n, 0, BIG)
    if i >= 0:
        return refuse(where, E_SUPPLY, i, state[L.SUPPLY + i])
    i = first_outside(state, L.VT, n, 0, BIG)
    if i >= 0:
        return refuse(where, E_VT, i, state[L.VT + i])
    i = first_outside(state, L.HAND, n * L.K, 0, BIG)
    if i >= 0:
        return refuse(where, E_HAND, i, state[L.HAND + i])
    for p in range(n, L.P):
        for w in (L.POS + p, L.SUPPLY + p, L.VT + p):
            if state[w] != 0:
                return refuse(where, E_ABSENT_PLAYER, p, w)
        for k in range(L.K):
            if state[L.HAND + p * L.K + k] != 0:
                return refuse(where, E_ABSENT_PLAYER, p, L.HAND + p * L.K + k)
    return 0


@jit
def check_card_piles(state, where):
    """Pile and discards not negative; only Royalist cards out of the game or selected."""
    for k in range(L.K):
        if state[L.PILE + k] < 0:
            return refuse(where, E_PILE, k, state[L.PILE + k])
        if state[L.DISCARD + k] < 0:
            return refuse(where, E_DISCARD, k, state[L.DISCARD + k])
        if state[L.REMOVED + k] < 0 or (D.KIND_ROYALIST[k] == 0 and state[L.REMOVED + k] != 0):
            return refuse(where, E_REMOVED, k, state[L.REMOVED + k])
        if state[L.SELECTED + k] < 0 or (D.KIND_ROYALIST[k] == 0 and state[L.SELECTED + k] != 0):
            return refuse(where, E_SELECTED, k, state[L.SELECTED + k])
    return 0


@jit
def check_spaces(state, params, where):
    """Owner, tucked card and counters of every space, in range and together."""
    n = params[H.P_NUM_PLAYERS]
    for s in range(D.NUM_SPACES):
        owner = state[L.OWNER + s]
        card = state[L.CARD + s]
        cnt = state[L.COUNTERS + s]
        if not -1 <= owner < n:
            return refuse(where, E_OWNER, s, owner)
        if not -1 <= card < L.K:
            return refuse(where, E_CARD, s, card)
        if cnt < 0 or cnt >= BIG:
            return refuse(where, E_SPACE_COUNTERS, s, cnt)
        if owner < 0:
            if card != -1 or cnt != 0:
                return refuse(where, E_UNOWNED_SPACE, s, cnt)
            continue
        if D.SPACE_REVOLUTION[s] >= 0:
            return refuse(where, E_OWNED_REVOLUTION, s, owner)
        if card < 0 or D.KIND_ROYALIST[card] != 0:
            return refuse(where, E_ROYALIST_TUCKED, s, card)
        independent = state[L.INDEP + D.SPACE_COUNTRY[s]] == 1
        if params[L.PR_RETURN_COUNTERS] != 0 and independent:
            if cnt != 0:  # they went home with the independence
                return refuse(where, E_NO_COUNTER, s, cnt)
        elif cnt < 1:
            return refuse(where, E_NO_COUNTER, s, cnt)
    return 0


@jit
def check_countries(state, where):
    """A country is independent exactly when every one of its spaces is liberated."""
    for c in range(D.NUM_COUNTRIES):
        v = state[L.INDEP + c]
        if not 0 <= v <= 1:
            return refuse(where, E_INDEP, c, v)
        whole = True
        for s in range(D.COUNTRY_FIRST[c], D.COUNTRY_FIRST[c] + D.COUNTRY_LENGTH[c]):
            if state[L.OWNER + s] < 0:
                whole = False
        if whole != (v == 1):
            return refuse(where, E_INDEPENDENCE, c, v)
    return 0


# ---------------------------------------------------------------- conservation
@jit
def check_cards_conserved(state, where):
    """Every card of the deck is somewhere, once: pile, discards, hands, board, removed."""
    for k in range(L.K):
        total = np.int64(state[L.PILE + k]) + state[L.DISCARD + k] + state[L.REMOVED + k]
        for p in range(L.P):
            total += state[L.HAND + p * L.K + k]
        for s in range(D.NUM_SPACES):
            if state[L.CARD + s] == k:
                total += 1
        if total != D.KIND_COUNT[k]:
            return refuse(where, E_CARD_COUNT, k, total)
    return 0


@jit
def check_counters_conserved(state, params, where):
    """Each player's counters: in the supply or on the spaces he liberated, the option's count."""
    for p in range(params[H.P_NUM_PLAYERS]):
        total = np.int64(state[L.SUPPLY + p])
        for s in range(D.NUM_SPACES):
            if state[L.OWNER + s] == p:
                total += state[L.COUNTERS + s]
        if total != params[L.PR_COUNTERS]:
            return refuse(where, E_COUNTER_COUNT, p, total)
    return 0


@jit
def check_victory_tokens(state, params, where):
    """No more VT than the independent countries have awarded (closing card and places)."""
    n = params[H.P_NUM_PLAYERS]
    best_place = D.OTHER_VT
    for i in range(D.PLACE_VT.shape[0]):
        best_place = max(best_place, D.PLACE_VT[i])
    independent = 0
    for c in range(D.NUM_COUNTRIES):
        independent += state[L.INDEP + c]
    total = np.int64(0)
    for p in range(n):
        total += state[L.VT + p]
    if total > independent * (D.CLOSING_CARD_VT + best_place * n):
        return refuse(where, E_VT_TOTAL, -1, total)
    if independent == 0 and state[L.LAST_SCORER] != -1:
        return refuse(where, E_LAST_SCORER_NONE, L.LAST_SCORER, state[L.LAST_SCORER])
    return 0


# ---------------------------------------------------------------- the turn
@jit
def hand_size(state, p):
    n = np.int64(0)
    for k in range(L.K):
        n += state[L.HAND + p * L.K + k]
    return n


@jit
def check_end(state, params, where):
    """Phase 8 exactly when the game is over by the rules; over when no country is left
    (with ``game_end="end_of_round"``, once that round is played out: ledger L13)."""
    flags = state[H.H_FLAGS]
    over = (flags & H.FLAG_TERMINAL) != 0 and (flags & H.FLAG_TRUNCATED) == 0
    if over != (state[L.PHASE] == L.PH_OVER):
        return refuse(where, E_OVER, L.PHASE, state[L.PHASE])
    if (flags & H.FLAG_TERMINAL) != 0:
        return 0
    if state[L.STALLED] != 0:
        return refuse(where, E_STALLED_LIVE, L.STALLED, state[L.STALLED])
    for c in range(D.NUM_COUNTRIES):
        if state[L.INDEP + c] == 0:
            return 0
    if params[L.PR_GAME_END] == L.GAME_END_END_OF_ROUND:
        return 0
    return refuse(where, E_ALL_INDEPENDENT, -1, 0)


@jit
def check_hands(state, params, where):
    """Only the player to move may hold more than the hand limit (he discards at the end)."""
    for p in range(params[H.P_NUM_PLAYERS]):
        if p != state[L.MOVER] and hand_size(state, p) > D.HAND_LIMIT:
            return refuse(where, E_HAND_LIMIT, p, hand_size(state, p))
    return 0


@jit
def landing_allows(state, phase):
    """The mover's pawn stands where ``phase`` can happen: a revolution space, an unliberated
    space, his own, another's (not of an independent country); any space to move or discard."""
    p = state[L.MOVER]
    s = state[L.POS + p]
    owner = state[L.OWNER + s]
    if phase == L.PH_REVOLUTION:
        return D.SPACE_REVOLUTION[s] >= 0
    landing = phase == L.PH_EMPTY or phase == L.PH_OWN or phase == L.PH_DRAW_DISCARD
    if not (landing or phase == L.PH_ENEMY):
        return True
    if D.SPACE_REVOLUTION[s] >= 0 or state[L.INDEP + D.SPACE_COUNTRY[s]] != 0:
        return False
    if phase == L.PH_EMPTY:
        return owner < 0
    if phase == L.PH_ENEMY:
        return owner >= 0 and owner != p
    return owner == p


@jit
def check_chance_node(state, params, where):
    """Which random event is pending fits the phase and the pawn (and the deal the deck)."""
    kind = state[H.H_CHANCE_KIND]
    phase = state[L.PHASE]
    if kind == 0:
        return refuse(where, E_CHANCE_PHASE, kind, phase)
    if kind == L.CH_DEAL:
        if (
            state[L.DEAL_LEFT] < 1
            or phase != L.PH_SETUP
            or state[L.MOVER] != 0
            or state[L.TURN] != 0
        ):
            return refuse(where, E_DEAL, L.DEAL_LEFT, state[L.DEAL_LEFT])
        return 0
    if state[L.DEAL_LEFT] != 0 or state[L.TURN] < 1:
        return refuse(where, E_DEAL, L.DEAL_LEFT, state[L.DEAL_LEFT])
    if kind == L.CH_MOVE_DIE and phase != L.PH_MOVE:
        return refuse(where, E_CHANCE_PHASE, kind, phase)
    if (kind == L.CH_REVOLUTION_DIE or kind == L.CH_REVOLUTION_DRAW) and (
        phase != L.PH_REVOLUTION or not landing_allows(state, phase)
    ):
        return refuse(where, E_CHANCE_PHASE, kind, phase)
    if kind == L.CH_OWN_DRAW and (phase != L.PH_OWN or not landing_allows(state, phase)):
        return refuse(where, E_CHANCE_PHASE, kind, phase)
    return 0  # CH_TURN_DRAW: the new mover draws, whatever the last player's phase was


@jit
def check_decision(state, where):
    """A player decides in a phase of the turn, on a space that allows it."""
    phase = state[L.PHASE]
    if state[H.H_ACTOR] != state[L.MOVER]:
        return refuse(where, E_ACTOR_MOVER, state[L.MOVER], state[H.H_ACTOR])
    if state[H.H_CHANCE_KIND] != 0:
        return refuse(where, E_DECISION_KIND, H.H_CHANCE_KIND, state[H.H_CHANCE_KIND])
    if phase == L.PH_SETUP or phase == L.PH_OVER or state[L.TURN] < 1 or state[L.DEAL_LEFT] != 0:
        return refuse(where, E_DECISION_PHASE, L.PHASE, phase)
    if not landing_allows(state, phase):
        return refuse(where, E_LANDING, state[L.POS + state[L.MOVER]], phase)
    if phase == L.PH_HAND_LIMIT and hand_size(state, state[L.MOVER]) <= D.HAND_LIMIT:
        return refuse(where, E_OVER_LIMIT, state[L.MOVER], hand_size(state, state[L.MOVER]))
    return 0


@jit
def check_selection(state, where):
    """Royalist cards are selected only during the attack being composed, from the hand."""
    attacking = state[H.H_ACTOR] >= 0 and state[L.PHASE] == L.PH_ENEMY
    terminal = (state[H.H_FLAGS] & H.FLAG_TERMINAL) != 0
    mover = state[L.MOVER]
    for k in range(L.K):
        n = state[L.SELECTED + k]
        if n == 0:
            continue
        if not (attacking or (terminal and state[L.PHASE] == L.PH_ENEMY)):
            return refuse(where, E_SELECTED_PHASE, k, n)
        if n > state[L.HAND + mover * L.K + k]:
            return refuse(where, E_SELECTED_HAND, k, n)
    return 0


@jit
def check_turn(state, params, where):
    """Phase, chance node and player to move coherent with one another."""
    code = check_end(state, params, where)
    if code != 0:
        return code
    code = check_selection(state, where)
    if code != 0 or (state[H.H_FLAGS] & H.FLAG_TERMINAL) != 0:
        return code
    code = check_hands(state, params, where)
    if code != 0:
        return code
    if state[H.H_ACTOR] == H.CHANCE:
        return check_chance_node(state, params, where)
    return check_decision(state, where)  # the engine checked H_ACTOR is a player


@jit
def validate(state, params, where):
    """0 if every field of ``state`` is in range and coherent, else the failed check's code."""
    code = check_scalars(state, params, where)
    if code == 0:
        code = check_players(state, params, where)
    if code == 0:
        code = check_card_piles(state, where)
    if code == 0:
        code = check_spaces(state, params, where)
    if code == 0:
        code = check_countries(state, where)
    if code == 0:
        code = check_cards_conserved(state, where)
    if code == 0:
        code = check_counters_conserved(state, params, where)
    if code == 0:
        code = check_victory_tokens(state, params, where)
    if code == 0:
        code = check_turn(state, params, where)
    return code

"""The race's state layout, params layout and action encoding.

One flat ``int32`` array (after the engine header of ``core/header.py``)::

    TURN        player-turns begun so far
    PHASE       what the player to move decides (PH_*)
    MOVER       whose turn it is (the actor may be CHANCE meanwhile)
    DEAL_LEFT   cards still to deal at set-up
    STALLED     1 when the game ended by the stall rule
    LAST_SCORER the player who last made a country independent (-1 none)
    POS[p]      space of each pawn (0-based)
    SUPPLY[p]   counters in each player's supply
    VT[p]       Victory Tokens
    HAND[p, k]  cards of kind k in player p's hand
    PILE[k]     draw pile, by kind (no order is stored: a draw is a chance node)
    DISCARD[k]  discards, by kind (face up)
    REMOVED[k]  Royalist cards out of the game
    SELECTED[k] Royalist cards chosen for the attack being composed
    OWNER[s]    player who liberated space s (-1 none)
    CARD[s]     kind of the card tucked at space s (-1 none)
    COUNTERS[s] counters on space s
    INDEP[c]    1 once country c is independent
    JUMPED      1 once the mover has jumped to another revolution space this turn (only
                with ``revolution_jump="triggers"``, ledger L2)

Sizes come from the data file; ``rules.py`` uses only these names.
"""

from __future__ import annotations

from boardsim.core.header import HEADER_SIZE, PARAMS_HEADER
from boardsim.games.liberation.data import (
    MAX_PLAYERS,
    NUM_COUNTRIES,
    NUM_COUNTRY_SPACES,
    NUM_KINDS,
    NUM_REVOLUTIONS,
    NUM_SPACES,
)

P = MAX_PLAYERS
K = NUM_KINDS

# ---------------------------------------------------------------- state
TURN = HEADER_SIZE
PHASE = TURN + 1
MOVER = TURN + 2
DEAL_LEFT = TURN + 3
STALLED = TURN + 4
LAST_SCORER = TURN + 5
POS = TURN + 6
SUPPLY = POS + P
VT = SUPPLY + P
HAND = VT + P  # P rows of K
PILE = HAND + P * K
DISCARD = PILE + K
REMOVED = DISCARD + K
SELECTED = REMOVED + K
OWNER = SELECTED + K
CARD = OWNER + NUM_SPACES
COUNTERS = CARD + NUM_SPACES
INDEP = COUNTERS + NUM_SPACES
JUMPED = INDEP + NUM_COUNTRIES
STATE_SIZE = JUMPED + 1

# phases: what the player to move decides
PH_SETUP = 0
PH_MOVE = 1  # roll the die or discard a card to move its force
PH_REVOLUTION = 2  # landed on a revolution space
PH_EMPTY = 3  # landed on an unliberated country space
PH_OWN = 4  # landed on a space one liberated
PH_ENEMY = 5  # landed on a space another player liberated (Royalist attack)
PH_DRAW_DISCARD = 6  # drew a card on one's own space: discard one
PH_HAND_LIMIT = 7  # discard down to the hand limit at the end of the turn
PH_OVER = 8
NUM_PHASES = 9

# chance nodes (H_CHANCE_KIND)
CH_NONE = 0
CH_DEAL = 1  # the opening hands
CH_TURN_DRAW = 2  # draw 1 at the start of a turn
CH_MOVE_DIE = 3  # the move roll
CH_REVOLUTION_DIE = 4  # roll and move again
CH_REVOLUTION_DRAW = 5  # draw 1 on a revolution space
CH_OWN_DRAW = 6  # draw 1 (then discard 1) on one's own space
DIE_FACES = 6

# ---------------------------------------------------------------- params
PR_COUNTERS = PARAMS_HEADER  # counters each player starts with
PR_RETURN_COUNTERS = PARAMS_HEADER + 1  # 1: counters go home when their country is independent
PR_TIE_RULE = PARAMS_HEADER + 2  # TIE_SHARE or TIE_DEMOTE
PR_REWARD = PARAMS_HEADER + 3  # REWARD_WIN_LOSS or REWARD_VT
PR_ROYALIST_MOVES = PARAMS_HEADER + 4  # 1: a Royalist card may be discarded to move
PR_GAME_END = PARAMS_HEADER + 5  # GAME_END_*: when the last independence ends the game (L13)
PR_CLEARED_SPACE = PARAMS_HEADER + 6  # CLEARED_*: may an attacker tuck on the space cleared (L7)
PR_INDEPENDENT_SPACES = PARAMS_HEADER + 7  # INDEPENDENT_*: do skipped spaces use a pip (L4)
PR_HAND_LIMIT = PARAMS_HEADER + 8  # HAND_LIMIT_*: when the hand limit is checked (L6)
PR_REVOLUTION_JUMP = PARAMS_HEADER + 9  # REVOLUTION_JUMP_*: does the jump's space act (L2)
PARAMS_SIZE = PARAMS_HEADER + 10

TIE_SHARE = 0  # tied players all take the award of the best place they share
TIE_DEMOTE = 1  # tied players all take the award of the worst place they cover
REWARD_WIN_LOSS = 0
REWARD_VT = 1
GAME_END_AT_ONCE = 0  # the game ends with the tuck that makes the last country independent
GAME_END_END_OF_ROUND = 1  # ... at the end of that round (after the last seat's turn)
CLEARED_LEFT_EMPTY = 0  # a space cleared by a Royalist attack stays empty for this landing
CLEARED_TUCK = 1  # the attacker may tuck a Liberation card there in the same landing
INDEPENDENT_NOT_COUNTED = 0  # independent spaces are skipped and use no pip
INDEPENDENT_COUNTED = 1  # they are skipped over but each uses a pip
HAND_LIMIT_END_OF_TURN = 0  # a hand over the limit is cut down at the end of its turn
HAND_LIMIT_AT_ONCE = 1  # ... as soon as it is over: the turn's draw, before the move
REVOLUTION_JUMP_ENDS_TURN = 0  # the move to another revolution space ends the turn there
REVOLUTION_JUMP_TRIGGERS = 1  # ... is a landing there (its actions; no second jump a turn)

# ---------------------------------------------------------------- actions
A_ROLL = 0  # move by a die roll
A_MOVE_CARD = 1  # + kind: discard that card and move its force
A_PASS = A_MOVE_CARD + K  # do nothing here (or cancel an attack being composed)
A_REV_ROLL = A_PASS + 1  # revolution space: roll the die and move again
A_REV_DRAW = A_PASS + 2  # revolution space: draw 1 card
A_DRAW_DISCARD = A_PASS + 3  # own space: draw 1 card, then discard 1
A_CONFIRM = A_PASS + 4  # carry out the Royalist attack with the chosen cards
A_JUMP = A_PASS + 5  # + revolution index: move to another revolution space
A_COUNTER = A_JUMP + NUM_REVOLUTIONS  # + country-space index: place a counter there
A_TUCK = A_COUNTER + NUM_COUNTRY_SPACES  # + kind: tuck that Liberation card here
A_EXCHANGE = A_TUCK + K  # + kind: exchange the tucked card with that hand card
A_DISCARD = A_EXCHANGE + K  # + kind: discard that card
A_ROYALIST = A_DISCARD + K  # + kind: add that Royalist card to the attack
NUM_ACTIONS = A_ROYALIST + K

MAX_CHANCE_OUTCOMES = max(K, DIE_FACES)

# ---------------------------------------------------------------- observation
# see rules.observe: egocentric, players listed from the observer on
OBS_PHASE = 0
OBS_GLOBAL = OBS_PHASE + NUM_PHASES  # to-move flag, mover offset, pile size, turn
OBS_PLAYERS = OBS_GLOBAL + 4  # per player: present, position one-hot, supply, VT, hand size
OBS_PLAYER_WIDTH = 1 + NUM_SPACES + 3
OBS_HAND = OBS_PLAYERS + P * OBS_PLAYER_WIDTH  # own hand by kind
OBS_CARDS = OBS_HAND + K  # discards, removed, selected by kind
OBS_SPACES = OBS_CARDS + 3 * K  # per space: owner one-hot (P), force, counters, independent
OBS_SPACE_WIDTH = P + 3
OBS_SIZE = OBS_SPACES + NUM_SPACES * OBS_SPACE_WIDTH

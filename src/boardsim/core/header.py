"""The fixed header every game's state and params arrays start with.

The generic engine (chance resolution, truncation, batching) reads only these
words; each game lays out its own fields after ``HEADER_SIZE`` (state) and
``PARAMS_HEADER`` (params).
"""

from __future__ import annotations

# state header
H_RNG = 0  # two words: the xorshift64* generator (core/rng.py)
H_ACTOR = 2  # the player to decide (>= 0), CHANCE at a chance node, TERMINAL when over
H_FLAGS = 3  # FLAG_TERMINAL | FLAG_TRUNCATED
H_DECISIONS = 4  # decisions applied so far (chance outcomes not counted)
H_CHANCE_KIND = 5  # game-defined: which random event the chance node is (0 when none)
H_GAME = 6  # the tag of the game the state belongs to (params[P_GAME_TAG]; 0: saved before tags)
H_RESERVED = 7  # always 0
HEADER_SIZE = 8

CHANCE = -1
TERMINAL = -4

FLAG_TERMINAL = 1
FLAG_TRUNCATED = 2

# params header
P_NUM_PLAYERS = 0
P_EXPLICIT_CHANCE = 1  # 1: stop at chance nodes (the chance player acts); 0: draw them in step
P_MAX_DECISIONS = 2  # truncate after this many decisions (0: never)
P_GAME_TAG = 3  # the game's tag (its name and version, core/validation.py), stamped by new_game
PARAMS_HEADER = 4

# compiled policies the batched engine can play a seat with (``policies[p]``)
POLICY_RANDOM = 0  # uniformly random over the legal actions
POLICY_HEURISTIC = 1  # the game's ``heuristic_action`` (its ``policy.py``)
POLICY_MCTS = 2  # a seat searched by ``core/search/`` (``games.play_games``, ``games.selfplay``)
POLICY_NETWORK = 3  # a network's policy (``core/nn.py``), its seat's network and temperature
NUM_POLICIES = 4
# the codes ``core/engine.py`` plays itself (a search needs ``core/search/``)
ENGINE_POLICIES = (POLICY_RANDOM, POLICY_HEURISTIC, POLICY_NETWORK)

# a seat table's settings columns (``core/seats.py``), one row a player
S_TEMPERATURE = 0  # a network seat: 0 plays the most likely action; > 0 samples softmax(l / T)
S_SIMS = 1  # a search: simulations a decision
S_C = 2  # UCT's exploration (c_uct) or PUCT's (c_puct)
S_ROLLOUT = 3  # the rollouts' policy code (POLICY_RANDOM or POLICY_HEURISTIC)
S_DEPTH = 4  # rollout depth (-1: to the end)
S_PRIOR = 5  # UCT: the heuristic's progressive bias
S_SEARCH = 6  # SEARCH_UCT, SEARCH_PUCT, SEARCH_GUMBEL
S_MIX = 7  # network searches: leaf value = (1 - mix) * network + mix * rollout
S_GUMBEL_M = 8  # Gumbel: root actions sampled (sequential halving among them)
S_C_VISIT = 9  # Gumbel: sigma(q) = (c_visit + max visits) * c_scale * q
S_C_SCALE = 10
S_GUMBEL_SCALE = 11  # Gumbel noise at the root (1: sampled, as in training; 0: none)
S_NOISE = 12  # PUCT: weight of Dirichlet noise on the root's prior (training)
S_ALPHA = 13  # PUCT: the noise's Dirichlet alpha
S_FPU = 14  # PUCT: unvisited children are valued at the parent's value minus this
S_SAMPLE_MOVES = 15  # a game's first decisions: the move drawn in proportion to the visits
NUM_SETTINGS = 16

SEARCH_UCT = 0
SEARCH_PUCT = 1
SEARCH_GUMBEL = 2

# the engine's own checks of a state (engine.validate_state; a game's validate returns
# codes > 0; the messages are in core/validation.py)
V_RNG_STUCK = -1  # both generator words 0: xorshift never leaves 0
V_FLAGS = -2  # a flag bit that does not exist
V_TRUNCATED_LIVE = -3  # FLAG_TRUNCATED without FLAG_TERMINAL
V_TERMINAL_ACTOR = -4  # FLAG_TERMINAL and H_ACTOR == TERMINAL go together
V_ACTOR = -5  # H_ACTOR neither a player of the game, CHANCE nor TERMINAL
V_IMPLICIT_CHANCE = -6  # a chance node in a game that resolves chance itself
V_DECISIONS = -7  # a decision count below 0 or above MAX_DECISIONS
MAX_DECISIONS = 1 << 30  # more than any game plays: the count never overflows
V_RESERVED = -8  # H_RESERVED not 0
V_NO_LEGAL_ACTION = -9  # a live decision with no legal action
V_NO_OUTCOME = -10  # a chance node with no outcome, or too many
V_OUTCOME_WEIGHT = -11  # a chance outcome with a weight < 1, or weights summing past 2**31
V_OUTCOME_RANGE = -12  # a chance outcome outside [0, NUM_ACTIONS) (the AEC env masks them)

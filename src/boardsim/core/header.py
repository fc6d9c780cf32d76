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
HEADER_SIZE = 8

CHANCE = -1
TERMINAL = -4

FLAG_TERMINAL = 1
FLAG_TRUNCATED = 2

# params header
P_NUM_PLAYERS = 0
P_EXPLICIT_CHANCE = 1  # 1: stop at chance nodes (the chance player acts); 0: draw them in step
P_MAX_DECISIONS = 2  # truncate after this many decisions (0: never)
PARAMS_HEADER = 4

# compiled policies the batched engine can play a seat with (``policies[p]``)
POLICY_RANDOM = 0  # uniformly random over the legal actions
POLICY_HEURISTIC = 1  # the game's ``heuristic_action`` (its ``policy.py``)
POLICY_MCTS = 2  # a seat searched by ``core/mcts.py`` (``mcts.play_games``, ``mcts.selfplay``)
POLICY_NETWORK = 3  # a network's policy (``core/nn.py``), its seat's network and temperature
NUM_POLICIES = 4
# the codes ``core/engine.py`` plays itself (a search needs ``core/mcts.py``)
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

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
POLICY_MCTS = 2  # a seat searched by ``core/mcts.py`` (only in ``mcts.play_games``)
NUM_POLICIES = 2  # the codes ``core/engine.py`` plays itself

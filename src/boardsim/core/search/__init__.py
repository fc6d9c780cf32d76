"""The generic search, compiled once per game, in the order a reader meets it:

- :mod:`~boardsim.core.search.tree`: the tree and UCT (open loop over cloned states,
  determinization, rollouts, the heuristic prior);
- :mod:`~boardsim.core.search.guided`: the network-guided searches (PUCT, Gumbel);
- :mod:`~boardsim.core.search.games`: whole games by the seats, searched or not, traced,
  and self-play;
- :mod:`~boardsim.core.search.relabel`: stored positions searched afresh (DAgger).

From Python, a game's ``game.mcts`` (:class:`~boardsim.core.bound.BoundSearch`) calls
them with the game's kernels bound.
"""

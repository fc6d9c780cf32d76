"""The self-play replay buffer: positions, the search's targets and the games' results.

A position is stored as the game state itself (``int32``, a few hundred words: exact, and
smaller than its observation), the player to move being in its header; the observation
and the legal mask are computed again, in compiled code, when a batch is drawn. The
policy target is stored as ``float16`` (the search's visit distribution or improved
policy), the value target as the game's final returns rotated to the player to move
(``z[k]`` is the return of player ``(actor + k) mod players``), the way the network's
value head is read (:mod:`boardsim.core.nn`), and beside it the search's own value of the
position (its mean over the simulations, rotated alike; NaN where no search chose), which
training may mix into the value target.

The buffer is a ring of ``capacity`` positions; :meth:`ReplayBuffer.arrays` /
:meth:`ReplayBuffer.restore` save and restore it whole (a resumed run draws the same
batches).
"""

from __future__ import annotations

import numpy as np

from boardsim.core.errors import OptionError
from boardsim.core.header import H_ACTOR


class ReplayBuffer:
    """The newest ``capacity`` positions of self-play."""

    def __init__(self, capacity: int, state_size: int, num_actions: int, num_players: int) -> None:
        if capacity < 1:
            raise OptionError(f"the replay buffer holds at least one position, got {capacity}")
        self.capacity = capacity
        self.states = np.zeros((capacity, state_size), np.int32)
        self.policies = np.zeros((capacity, num_actions), np.float16)
        self.values = np.zeros((capacity, num_players), np.float32)
        self.search_values = np.full((capacity, num_players), np.nan, np.float32)
        self.size = 0
        self.next = 0
        self.added = 0  # positions ever added

    def add(
        self,
        states: np.ndarray,
        policies: np.ndarray,
        returns: np.ndarray,
        search_values: np.ndarray | None = None,
    ) -> None:
        """Add positions (``returns``: each position's game's returns, one a player;
        ``search_values``: the search's value of each position for each player, NaN where
        none searched)."""
        n = len(states)
        if n == 0:
            return
        players = self.values.shape[1]
        actors = states[:, H_ACTOR].astype(np.int64)
        turn = (actors[:, None] + np.arange(players)[None, :]) % players
        rotated = np.take_along_axis(returns[:, :players], turn, axis=1)
        if search_values is None:
            searched = np.full((n, players), np.nan, np.float32)
        else:
            searched = np.take_along_axis(search_values[:, :players], turn, axis=1)
        for start in range(0, n, self.capacity):
            part = slice(start, min(start + self.capacity, n))
            k = part.stop - part.start
            idx = (self.next + np.arange(k)) % self.capacity
            self.states[idx] = states[part]
            self.policies[idx] = policies[part]
            self.values[idx] = rotated[part]
            self.search_values[idx] = searched[part]
            self.next = int((self.next + k) % self.capacity)
            self.size = min(self.size + k, self.capacity)
        self.added += n

    def clear(self) -> None:
        """Drop every position (``added`` keeps counting the positions ever added)."""
        self.size = 0
        self.next = 0

    def sample(self, rng: np.random.Generator, batch: int) -> np.ndarray:
        """Indices of a uniform batch (with replacement)."""
        return rng.integers(0, self.size, size=batch)

    def arrays(self) -> dict[str, np.ndarray]:
        """The buffer's content, for a checkpoint (only the filled rows)."""
        order = self._order()
        return {
            "replay_states": self.states[order],
            "replay_policies": self.policies[order],
            "replay_values": self.values[order],
            "replay_search_values": self.search_values[order],
            # the slot of the oldest position, so that a restored buffer has its rows where
            # they were and a minibatch drawn from the same generator takes the same ones
            "replay_counters": np.array([self.capacity, self.added, self.next], np.int64),
        }

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Put back what :meth:`arrays` saved (oldest position first)."""
        counters = [int(x) for x in arrays["replay_counters"]]
        capacity, added = counters[:2]
        if capacity != self.capacity:
            raise OptionError(
                f"the saved buffer held {capacity} positions, this one {self.capacity}"
            )
        n = len(arrays["replay_states"])
        # a full buffer's oldest row is at its next slot (saved since issue 34's fix; before,
        # it went back to row 0, and a resumed run drew other minibatches than the run would)
        oldest = counters[2] if len(counters) > 2 and n == capacity else 0
        rows = (oldest + np.arange(n)) % capacity
        self.states[rows] = arrays["replay_states"]
        self.policies[rows] = arrays["replay_policies"]
        self.values[rows] = arrays["replay_values"]
        # a buffer saved before the search's values were kept has none
        self.search_values[rows] = arrays.get("replay_search_values", np.nan)
        self.size = n
        self.next = (oldest + n) % self.capacity
        self.added = added

    def _order(self) -> np.ndarray:
        """Filled rows, oldest first."""
        if self.size < self.capacity:
            return np.arange(self.size)
        return (self.next + np.arange(self.capacity)) % self.capacity

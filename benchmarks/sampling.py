"""The one sampler of the vector-env harness: a random legal action per row of a batch of
masks, in numpy only (so that the EnvPool side environment, which has no boardsim, samples
exactly as the library's harness does).

Drawing fresh random keys for every mask entry costs more than most environments' step
(``rng.random((4096, 338))`` takes about 1 ms here), so the sampler draws a pool of key
matrices once and, each step, multiplies the mask by one of them picked at random and takes
each row's largest product. Every row gets a legal action (keys are > 0), random among the
legal ones; the cost is one multiply and one argmax over the masks, as a masked policy pays.
"""

from __future__ import annotations

import numpy as np


class KeyPool:
    """Random legal actions for ``rows`` x ``actions`` masks from ``size`` pre-drawn keys."""

    def __init__(self, rows: int, actions: int, seed: int = 0, size: int = 16) -> None:
        self.rng = np.random.default_rng(seed)
        self.keys = self.rng.random((size, rows, actions), dtype=np.float32) + np.float32(1e-3)
        self.work = np.empty((rows, actions), np.float32)

    def sample(self, masks: np.ndarray) -> np.ndarray:
        """``int64[rows]``: a legal action of each row of ``masks`` (booleans or 0/1 bytes;
        every row must have one)."""
        keys = self.keys[self.rng.integers(len(self.keys))]
        np.multiply(keys, masks, out=self.work)
        return self.work.argmax(axis=1)

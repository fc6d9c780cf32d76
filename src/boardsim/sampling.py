"""Random legal actions for a batch of masks, in numpy only: the sampler of the vector-env
harness (``boardsim.bench.bench_vector``, ``benchmarks/vector.py``).

This module imports nothing but numpy, so that a peer's side environment without boardsim
(EnvPool's, ``benchmarks/envpool_peers.py``, which loads this file by its path) samples
exactly as the library's harness does.

Drawing fresh random keys for every mask entry costs more than most environments' step
(``rng.random((4096, 338))`` takes about 1 ms here), so the sampler draws one long run of
key rows once (``pool`` times the batch, at least 4,096 rows) and, each step, multiplies
the masks by a window of it that starts at a random row (a view, no copy), taking each
row's largest product. Every row gets a legal action (keys are > 0), random among the
legal ones (the window's start is uniform, so each row meets thousands of key rows); the
cost is one multiply and one argmax over the masks, as a masked policy pays.
"""

from __future__ import annotations

import numpy as np


class LegalSampler:
    """Random legal actions for ``rows`` x ``actions`` masks from one run of pre-drawn keys
    (``pool`` times ``rows`` rows of them, at least 4,096)."""

    def __init__(self, rows: int, actions: int, seed: int = 0, pool: int = 8) -> None:
        self.rng = np.random.default_rng(seed)
        self.rows = rows
        length = max(pool * rows, 4096 + rows)
        self.keys = self.rng.random((length, actions), dtype=np.float32) + np.float32(1e-3)
        self.work = np.empty((rows, actions), np.float32)

    def sample(self, masks: np.ndarray) -> np.ndarray:
        """``int64[rows]``: a legal action of each row of ``masks`` (booleans or 0/1 bytes;
        every row must have one)."""
        start = int(self.rng.integers(len(self.keys) - self.rows + 1))
        np.multiply(self.keys[start : start + self.rows], masks, out=self.work)
        return self.work.argmax(axis=1)

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
cost is one multiply and one maximum over the masks, as a masked policy pays.

A key is a positive ``int32`` whose low bits hold its action's number and whose high bits
are random, so a row's largest product names its action without an ``argmax`` (numpy's
``argmax`` along a short axis pays a call a row: 4,096 rows of connect four's 7 actions
took 90 us, the maximum of the packed keys 25 us). Two legal actions tie only when their
random parts are equal (probability ``2**-(31 - bits)`` a pair, ``bits`` the action
number's width: at most 2**-22 for Hispania's 338 actions); the tie goes to the higher
action. Few actions (at most 32) are kept action-major, so the maximum runs along whole
rows of 4,096 keys rather than 4,096 short rows; many are taken a block of rows at a time,
so that the products a block writes are still in the cache when its maximum reads them
(Hispania's 4,096 x 338: 850 us whole, 560 us in blocks of 256 KiB).
"""

from __future__ import annotations

import numpy as np

# at most this many actions: keys stored action-major (a reduction over whole rows)
ACTION_MAJOR_UP_TO = 32
# row-major keys are multiplied and reduced a block of about this many bytes at a time
BLOCK_BYTES = 1 << 18


class LegalSampler:
    """Random legal actions for ``rows`` x ``actions`` masks from one run of pre-drawn keys
    (``pool`` times ``rows`` rows of them, at least 4,096)."""

    def __init__(self, rows: int, actions: int, seed: int = 0, pool: int = 8) -> None:
        if rows < 1 or actions < 1:
            raise ValueError(f"a sampler needs rows and actions, got {rows} x {actions}")
        self.rng = np.random.default_rng(seed)
        self.rows = rows
        length = max(pool * rows, 4096 + rows)
        self.bits = max(1, int(actions - 1).bit_length())
        if self.bits > 16:
            raise ValueError(f"{actions} actions: the sampler packs at most 2**16 of them")
        self.low = np.int32((1 << self.bits) - 1)
        random = self.rng.integers(1, 1 << (31 - self.bits), (length, actions), dtype=np.int32)
        keys = (random << self.bits) | np.arange(actions, dtype=np.int32)
        self.action_major = actions <= ACTION_MAJOR_UP_TO
        if self.action_major:
            self.keys = np.ascontiguousarray(keys.T)
            self.work = np.empty((actions, rows), np.int32)
        else:
            self.keys = keys
            self.block = min(rows, max(16, BLOCK_BYTES // (4 * actions)))
            self.work = np.empty((self.block, actions), np.int32)

    def sample(self, masks: np.ndarray) -> np.ndarray:
        """``int64[rows]``: a legal action of each row of ``masks`` (booleans or 0/1 bytes;
        every row must have one)."""
        length = self.keys.shape[1] if self.action_major else self.keys.shape[0]
        start = int(self.rng.integers(length - self.rows + 1))
        if self.action_major:
            np.multiply(self.keys[:, start : start + self.rows], masks.T, out=self.work)
            best = np.maximum.reduce(self.work, axis=0)
        else:
            best = np.empty(self.rows, np.int32)
            for first in range(0, self.rows, self.block):
                last = min(self.rows, first + self.block)
                work = self.work[: last - first]
                keys = self.keys[start + first : start + last]
                np.multiply(keys, masks[first:last], out=work)
                np.maximum.reduce(work, axis=1, out=best[first:last])
        return np.bitwise_and(best, self.low, dtype=np.int64)

"""The random generator that lives inside a game's state array.

Two ``int32`` words of the state hold a 64-bit xorshift64* generator, so a
state copy is also a generator copy: clone-and-replay, saving and batching
need nothing else. Seeding goes through splitmix64, so nearby seeds give
unrelated streams.

``rng_*`` are the compiled functions used by the rules kernels;
:class:`PyRng` is the plain-Python twin used by the reference rules, drawing
the very same numbers from the same two words.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence

import numpy as np

from boardsim.core.jit import jit

RNG_WORDS = 2

_MASK32 = 0xFFFFFFFF
_MASK64 = 0xFFFFFFFFFFFFFFFF
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_STAR = 0x2545F4914F6CDD1D


@jit
def _load(state: np.ndarray, off: int) -> np.uint64:
    lo = np.uint64(state[off]) & np.uint64(_MASK32)
    hi = np.uint64(state[off + 1]) & np.uint64(_MASK32)
    return (hi << np.uint64(32)) | lo


@jit
def _store(state: np.ndarray, off: int, x: np.uint64) -> None:
    state[off] = np.int32(np.int64(x & np.uint64(_MASK32)) - np.int64(1 << 31)) ^ np.int32(
        -(1 << 31)
    )
    state[off + 1] = np.int32(np.int64(x >> np.uint64(32)) - np.int64(1 << 31)) ^ np.int32(
        -(1 << 31)
    )


@jit
def splitmix64(seed: np.uint64) -> np.uint64:
    """One splitmix64 output for ``seed`` (used to seed and to derive sub-seeds)."""
    z = seed + np.uint64(_GOLDEN)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    return z ^ (z >> np.uint64(31))


@jit
def rng_seed(state: np.ndarray, off: int, seed: int) -> None:
    """Seed the generator words at ``state[off:off+2]`` from any integer ``seed``."""
    x = splitmix64(np.uint64(seed))
    if x == np.uint64(0):
        x = np.uint64(_GOLDEN)
    _store(state, off, x)


@jit
def rng_next(state: np.ndarray, off: int) -> int:
    """Advance the generator and return 32 random bits as a non-negative int."""
    x = _load(state, off)
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    _store(state, off, x)
    return np.int64((x * np.uint64(_STAR)) >> np.uint64(32))


@jit
def rng_below(state: np.ndarray, off: int, n: int) -> int:
    """A random integer in ``[0, n)`` (multiply-shift; ``n`` at most 2**31)."""
    return np.int64((np.uint64(rng_next(state, off)) * np.uint64(n)) >> np.uint64(32))


@jit
def rng_weighted(state: np.ndarray, off: int, weights: np.ndarray, n: int) -> int:
    """Index ``i < n`` drawn with probability ``weights[i] / sum(weights[:n])`` (int weights)."""
    total = 0
    for i in range(n):
        total += weights[i]
    r = rng_below(state, off, total)
    for i in range(n):
        r -= weights[i]
        if r < 0:
            return i
    return n - 1


@jit
def derive_seed(master: int, index: int) -> int:
    """A 62-bit seed for game ``index`` of a run started with ``master``."""
    z = splitmix64(splitmix64(np.uint64(master)) ^ np.uint64(index))
    return np.int64(z >> np.uint64(2))


# ---------------------------------------------------------------- plain-Python twin


def _py_splitmix64(seed: int) -> int:
    z = (seed + _GOLDEN) & _MASK64
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
    return z ^ (z >> 31)


def _to_int32(u: int) -> int:
    return u - (1 << 32) if u >= (1 << 31) else u


class PyRng:
    """The plain-Python twin of the ``rng_*`` functions, over the same two state words."""

    def __init__(self, state: MutableSequence[int], off: int) -> None:
        self.state = state
        self.off = off

    def _load(self) -> int:
        lo = self.state[self.off] & _MASK32
        hi = self.state[self.off + 1] & _MASK32
        return (hi << 32) | lo

    def _store(self, x: int) -> None:
        self.state[self.off] = _to_int32(x & _MASK32)
        self.state[self.off + 1] = _to_int32(x >> 32)

    def seed(self, seed: int) -> None:
        """Seed the generator words (as ``rng_seed``)."""
        x = _py_splitmix64(seed & _MASK64)
        self._store(x if x else _GOLDEN)

    def next(self) -> int:
        """The next 32-bit draw (as ``rng_next``)."""
        x = self._load()
        x ^= x >> 12
        x = (x ^ (x << 25)) & _MASK64
        x ^= x >> 27
        self._store(x)
        return ((x * _STAR) & _MASK64) >> 32

    def below(self, n: int) -> int:
        """A draw in ``[0, n)`` (as ``rng_below``)."""
        return (self.next() * n) >> 32

    def weighted(self, weights: Sequence[int]) -> int:
        """An index drawn with probability proportional to ``weights`` (as ``rng_weighted``)."""
        r = self.below(sum(weights))
        for i, w in enumerate(weights):
            r -= w
            if r < 0:
                return i
        return len(weights) - 1


def py_derive_seed(master: int, index: int) -> int:
    """Plain-Python twin of :func:`derive_seed`."""
    return _py_splitmix64(_py_splitmix64(master & _MASK64) ^ (index & _MASK64)) >> 2

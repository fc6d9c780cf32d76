"""Confidence intervals of a rate, used by every layer that reports one (the heuristics'
strength table, tournaments, balance sweeps): plain math, no boardsim import, so any
layer may use it (:mod:`boardsim.research.stats` re-exports it with the rest of its
statistics)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``n`` (``(nan, nan)`` when ``n == 0``).

    ``wilson_interval(8, 10)`` is about ``(0.490, 0.943)``.
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return (float("nan"), float("nan"))
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))

"""The calibration connect four's bundle of kernels for the generic engine."""

from __future__ import annotations

from benchmarks.calibration import connect_four, policy, search
from boardsim.core.kernels import GameKernels

KERNELS = GameKernels.from_modules(
    __name__, rules=connect_four, policy=policy, search=search, sizes=connect_four
)

"""Connect four's bundle of kernels for the generic engine (``boardsim.core.engine``)."""

from __future__ import annotations

from boardsim.core.kernels import GameKernels
from boardsim_connect_four import data, layout, policy, rules, search, validate

KERNELS = GameKernels.from_modules(
    __name__,
    rules=rules,
    policy=policy,
    search=search,
    validate=validate,
    sizes=layout,
    data_files=data.DATA_FILES,
)

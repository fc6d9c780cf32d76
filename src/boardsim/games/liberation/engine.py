"""The face of liberation's compiled core: its bundle of kernels for the generic engine.

``KERNELS`` is what :mod:`boardsim.core.engine` and :mod:`boardsim.core.search` receive
as ``g``: the rules of ``rules.py``, the rule-based player of ``policy.py`` and what the
search needs from ``search.py``, with the sizes of ``layout.py``.
"""

from __future__ import annotations

from boardsim.core.kernels import GameKernels
from boardsim.games.liberation import data, layout, policy, rules, search, validate

KERNELS = GameKernels.from_modules(
    __name__,
    rules=rules,
    policy=policy,
    search=search,
    validate=validate,
    sizes=layout,
    data_files=data.DATA_FILES,
)

"""Bind the generic engine (``engine_template.py``), the game's ``policy.py``, the generic
search (``mcts_template.py``) and the game's ``search.py`` into its rules namespace.

numba caches a compiled function on disk only when it is a plain module-level
function of a real source file; a closure over a game's kernels, or a kernel
passed as an argument, is compiled anew in every process. So the generic
functions are compiled from one source text into each game's ``rules`` module,
with that module's file as their home: each game gets its own cached copies,
calling its own kernels directly.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

_TEMPLATE = Path(__file__).with_name("engine_template.py")
_MCTS_TEMPLATE = Path(__file__).with_name("mcts_template.py")

# every function the templates define (checked against the game's own names)
ENGINE_FUNCTIONS = tuple(
    name
    for template in (_TEMPLATE, _MCTS_TEMPLATE)
    for name in re.findall(r"^def (\w+)", template.read_text(encoding="utf-8"), flags=re.MULTILINE)
)

_REQUIRED = (
    "STATE_SIZE",
    "NUM_ACTIONS",
    "OBS_SIZE",
    "MAX_CHANCE_OUTCOMES",
    "MAX_PLAYERS",
    "init",
    "legal_mask",
    "apply_action",
    "chance_weights",
    "apply_chance",
    "observe",
    "returns",
)


def bind_engine(namespace: dict[str, Any]) -> None:
    """Compile the generic engine into ``namespace`` (a rules module's ``globals()``)."""
    missing = [name for name in _REQUIRED if name not in namespace]
    if missing:
        raise TypeError(f"{namespace.get('__name__')}: rules module lacks {', '.join(missing)}")
    clash = [name for name in ENGINE_FUNCTIONS if name in namespace]
    if clash:
        raise TypeError(f"{namespace.get('__name__')}: defines engine names {', '.join(clash)}")
    doc = namespace.get("__doc__")
    code = compile(_TEMPLATE.read_text(encoding="utf-8"), namespace["__file__"], "exec")
    exec(code, namespace)
    policy = Path(namespace["__file__"]).with_name("policy.py")
    if not policy.exists():
        raise TypeError(f"{namespace.get('__name__')}: no policy.py (heuristic_action) beside it")
    # compiled with the rules file as its home too (see above): one cache, one namespace
    exec(compile(policy.read_text(encoding="utf-8"), namespace["__file__"], "exec"), namespace)
    if "heuristic_action" not in namespace:
        raise TypeError(f"{policy}: defines no heuristic_action")
    # the generic search, then the game's determinize / evaluate_position it calls
    exec(
        compile(_MCTS_TEMPLATE.read_text(encoding="utf-8"), namespace["__file__"], "exec"),
        namespace,
    )
    search = Path(namespace["__file__"]).with_name("search.py")
    if not search.exists():
        raise TypeError(f"{namespace.get('__name__')}: no search.py (determinize) beside it")
    exec(compile(search.read_text(encoding="utf-8"), namespace["__file__"], "exec"), namespace)
    for name in ("determinize", "evaluate_position", "search_prune"):
        if name not in namespace:
            raise TypeError(f"{search}: defines no {name}")
    namespace["__doc__"] = doc

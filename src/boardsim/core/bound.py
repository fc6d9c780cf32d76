"""The engine and the search with one game's kernels bound: what Python code calls.

``game.engine.step(state, params, action, rewards)`` is
:func:`boardsim.core.engine.step` with ``g`` = the game's
:class:`~boardsim.core.kernels.GameKernels`; ``game.mcts.search(...)`` is
:func:`boardsim.core.search.tree.search` likewise. Every attribute below names the function it
binds, so an editor's go-to-definition leads from here to the engine, and from the
game's package (``games/<game>/``, :meth:`GameKernels.from_package`) to its kernels.

A call from Python to a compiled function costs its type dispatch (about 0.1 us an
argument, more for the kernels' own type). A :class:`BoundFunction` pays it once: after
the first call it calls the compiled entry point of that call's signature directly,
and falls back to the ordinary dispatch when later arguments cannot be converted to
it (an array of another dtype: a new specialization is compiled, as numba would).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from boardsim.core import engine
from boardsim.core.kernels import GameKernels
from boardsim.core.search import games, guided, relabel, tree

_UNBOX_ERROR = "can't unbox"


class BoundFunction:
    """``fn`` with ``kernels`` as its first argument, dispatched once per signature."""

    def __init__(self, fn: Callable[..., Any], kernels: GameKernels) -> None:
        self.fn = fn
        self.kernels = kernels
        self._entry: Callable[..., Any] | None = None
        self.__wrapped__ = fn
        self.__name__ = getattr(fn, "__name__", "bound")
        self.__doc__ = getattr(fn, "__doc__", None)

    def __call__(self, *args: Any) -> Any:
        entry = self._entry
        if entry is not None:
            try:
                return entry(self.kernels, *args)
            except TypeError as exc:  # an argument of another type than the first call's
                if not str(exc).startswith(_UNBOX_ERROR):
                    raise
        result = self.fn(self.kernels, *args)
        self._entry = _entry_point(self.fn, (self.kernels, *args))
        return result

    def direct(self) -> Callable[..., Any] | None:
        """After a first call: the compiled entry point for that call's argument types
        with ``kernels`` bound (a C-level ``functools.partial``: no Python frame, no type
        dispatch), for hot paths whose argument types never change. None before."""
        if self._entry is None:
            return None
        return functools.partial(self._entry, self.kernels)

    def __repr__(self) -> str:
        return f"<{self.__name__} bound to {self.kernels!r}>"

    def __reduce__(self) -> tuple[type[BoundFunction], tuple[Callable[..., Any], GameKernels]]:
        return (BoundFunction, (self.fn, self.kernels))


def _entry_point(fn: Any, args: tuple[Any, ...]) -> Callable[..., Any] | None:
    """The compiled entry point of dispatcher ``fn`` for the types of ``args`` (None when
    ``fn`` is not compiled, as under ``NUMBA_DISABLE_JIT=1``, or has no such overload)."""
    overloads = getattr(fn, "overloads", None)
    typeof = getattr(fn, "typeof_pyval", None)
    if not overloads or typeof is None:
        return None
    compiled = overloads.get(tuple(typeof(a) for a in args))
    return getattr(compiled, "entry_point", None)


class BoundEngine:
    """:mod:`boardsim.core.engine` with one game's kernels bound (``game.engine``)."""

    def __init__(self, kernels: GameKernels) -> None:
        self.kernels = kernels
        self.new_game = BoundFunction(engine.new_game, kernels)
        self.step = BoundFunction(engine.step, kernels)
        self.step_and_mask = BoundFunction(engine.step_and_mask, kernels)
        self.chance_outcomes = BoundFunction(engine.chance_outcomes, kernels)
        self.policy_action = BoundFunction(engine.policy_action, kernels)
        self.seat_action = BoundFunction(engine.seat_action, kernels)
        self.net_scratch = BoundFunction(engine.net_scratch, kernels)
        self.play_step = BoundFunction(engine.play_step, kernels)
        self.new_scratch = BoundFunction(engine.new_scratch, kernels)
        self.batch_reset = BoundFunction(engine.batch_reset, kernels)
        self.batch_step = BoundFunction(engine.batch_step, kernels)
        self.batch_observe = BoundFunction(engine.batch_observe, kernels)
        self.rollout_random = BoundFunction(engine.rollout_random, kernels)
        self.validate_state = BoundFunction(engine.validate_state, kernels)

    def __repr__(self) -> str:
        return f"BoundEngine({self.kernels!r})"


class BoundSearch:
    """:mod:`boardsim.core.search` with one game's kernels bound (``game.mcts``): the
    tree and UCT, the network searches, whole games (searched or not) and self-play, the
    relabelling of stored positions."""

    def __init__(self, kernels: GameKernels) -> None:
        self.kernels = kernels
        self.workspace = BoundFunction(tree.workspace, kernels)
        self.search = BoundFunction(tree.search, kernels)
        self.net_workspace = BoundFunction(guided.net_workspace, kernels)
        self.seat_search = BoundFunction(games.seat_search, kernels)
        self.game_workspaces = BoundFunction(games.game_workspaces, kernels)
        self.play_policy_games = BoundFunction(games.play_policy_games, kernels)
        self.play_games = BoundFunction(games.play_games, kernels)
        self.play_plain_games = BoundFunction(games.play_plain_games, kernels)
        self.selfplay = BoundFunction(games.selfplay, kernels)
        self.batch_positions = BoundFunction(relabel.batch_positions, kernels)
        self.search_positions = BoundFunction(relabel.search_positions, kernels)
        self.root_stats = tree.root_stats  # reads the workspace only

    def __repr__(self) -> str:
        return f"BoundSearch({self.kernels!r})"

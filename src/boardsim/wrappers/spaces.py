"""The observation spaces of every env: a Gymnasium ``Box`` with the true bounds of each
feature, as the game declares them (``GameDefinition.observation_bounds``), so that
``check_env`` and PettingZoo's ``api_test`` find no unbounded feature, and a learner
that scales its inputs by the space reads real ranges."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
from gymnasium import spaces

from boardsim.core.game import Game

__all__ = ["observation_bounds", "observation_space"]


def observation_bounds(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)``, float32 arrays of ``game.observation_size``: the bounds its game
    declares for these options; a game declaring none gets 0 and 1 where its observation
    is binary, else minus and plus infinity. A declaration of the wrong shape, not finite
    or with a low above its high raises ``ValueError`` naming the game."""
    d = game.definition
    size = game.observation_size
    if d.observation_bounds is None:
        if d.binary_observation:
            return np.zeros(size, np.float32), np.ones(size, np.float32)
        return np.full(size, -np.inf, np.float32), np.full(size, np.inf, np.float32)
    low, high = importlib.import_module(d.observation_bounds).observation_bounds(game.options)
    low, high = np.asarray(low, np.float32), np.asarray(high, np.float32)
    where = f"game {d.name!r}: {d.observation_bounds}.observation_bounds"
    if low.shape != (size,) or high.shape != (size,):
        raise ValueError(f"{where} gives shapes {low.shape}, {high.shape}, not ({size},)")
    if not (np.all(np.isfinite(low)) and np.all(np.isfinite(high))):
        raise ValueError(f"{where} gives bounds that are not finite")
    if np.any(low > high):
        feature = int(np.flatnonzero(low > high)[0])
        raise ValueError(f"{where}: feature {feature}'s low is above its high")
    return low, high


def observation_space(game: Game, dtype: Any = np.float32) -> spaces.Box:
    """The ``Box`` of one observation of ``game``: :func:`observation_bounds` in float32,
    or 0 and 1 in ``uint8`` (a binary observation's compact form)."""
    if np.dtype(dtype) == np.uint8:
        return spaces.Box(0, 1, (game.observation_size,), dtype=np.uint8)
    low, high = observation_bounds(game)
    return spaces.Box(low, high, dtype=np.float32)

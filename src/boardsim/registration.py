"""The ids under which other libraries' registries find every game found.

- Gymnasium: ``boardsim/<Name>-v0`` (:func:`boardsim.games.gym_id`), for ``gym.make`` and
  ``gym.make_vec``.
- PettingZoo (1.27 and later, ``pettingzoo.make("aec", id)``): ``boardsim/<game>-v0``
  (:func:`pettingzoo_id`), the same namespace and version as the Gymnasium id, the game's
  own id as PettingZoo names its environments (``classic/connect_four_v3``).

Every entry point is a module-level function named by a ``"module:function"`` string, the
game passed as a keyword of the spec: an env made through a registry pickles (its spec
with it) as the envs of :mod:`boardsim.api` do.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from boardsim.api import make_vec_env
from boardsim.core.errors import OptionError
from boardsim.games import definition, gym_id, names

__all__ = ["make_vector_env_of", "pettingzoo_id", "register_all"]


def pettingzoo_id(name: str) -> str:
    """The PettingZoo registry id of game ``name``: ``farrapos`` -> ``boardsim/farrapos-v0``
    (PettingZoo also reads ``boardsim/farrapos_v0``)."""
    return f"boardsim/{name}-v0"


def make_vector_env_of(num_envs: int, game: str, **kwargs: Any) -> Any:
    """``gym.make_vec(id, num_envs)``'s entry point: :func:`boardsim.make_vec_env`.

    ``gym.make_vec`` passes the id's ``max_episode_steps``: the game's own limit, which the
    core already applies (``max_decisions``); another value is refused, not ignored."""
    steps = kwargs.pop("max_episode_steps", None)
    if steps is not None and steps != _decision_limit(game):
        raise OptionError(
            f"{game}: the vector env is cut by max_decisions (the core's count of "
            f"decisions), not max_episode_steps={steps}; pass max_decisions"
        )
    return make_vec_env(game, num_envs, **kwargs)


def register_all() -> None:
    """Register each game's Gymnasium id, and its PettingZoo id where PettingZoo has a
    registry, once (safe to call repeatedly)."""
    for game in names():
        if gym_id(game) in gym.registry:
            continue
        gym.register(
            id=gym_id(game),
            entry_point="boardsim.api:make_gym_env",
            vector_entry_point="boardsim.registration:make_vector_env_of",
            kwargs={"game": game},
            disable_env_checker=False,
            max_episode_steps=_decision_limit(game),
        )
    _register_pettingzoo()


def _register_pettingzoo() -> None:
    """``pettingzoo.make("aec", "boardsim/<game>-v0", **options)`` -> ``make_env(game,
    **options)``. PettingZoo reads no entry-point group, so the ids are registered when
    boardsim is imported; a PettingZoo without a registry (before 1.27) is left alone.
    The games are turn-based: no parallel id (``BoardsimAECEnv`` is not parallelizable)."""
    try:
        from pettingzoo.env_registry import registration as pz
    except ImportError:
        return
    for game in names():
        if pettingzoo_id(game) in pz.aec_registry:
            continue
        pz.register("aec", pettingzoo_id(game), "boardsim.api:make_env", kwargs={"game": game})


def _decision_limit(game: str) -> int | None:
    """The game's default decision limit (``GameDefinition.decision_limit``), the same
    bound as its ``max_decisions``; None when it has none. The core truncates first (it
    counts every player's decisions, the id's TimeLimit only the learner's steps)."""
    try:
        found = definition(game)
    except OptionError:
        # a plugin game whose own package is importing boardsim right now (so its
        # definition is not there yet): registered without a TimeLimit; the core still
        # truncates at the game's default max_decisions
        return None
    return found.decision_limit or None

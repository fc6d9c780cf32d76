"""Gymnasium ids (``boardsim/<Name>-v0``, :func:`boardsim.games.gym_id`) for every game found."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from boardsim.core.errors import OptionError
from boardsim.games import gym_id, names


def _entry(game: str) -> Any:
    def make(**kwargs: Any) -> Any:
        from boardsim.api import make_gym_env

        return make_gym_env(game, **kwargs)

    return make


def _vector_entry(game: str) -> Any:
    def make(num_envs: int, **kwargs: Any) -> Any:
        from boardsim.api import make_vec_env

        # gym.make_vec passes the id's max_episode_steps: the game's own limit, which the
        # core already applies (max_decisions); another value is refused, not ignored
        steps = kwargs.pop("max_episode_steps", None)
        if steps is not None and steps != _decision_limit(game):
            raise OptionError(
                f"{game}: the vector env is cut by max_decisions (the core's count of "
                f"decisions), not max_episode_steps={steps}; pass max_decisions"
            )
        return make_vec_env(game, num_envs, **kwargs)

    return make


def register_all() -> None:
    """Register each game's id once (safe to call repeatedly)."""
    for game in names():
        if gym_id(game) in gym.registry:
            continue
        gym.register(
            id=gym_id(game),
            entry_point=_entry(game),
            vector_entry_point=_vector_entry(game),
            disable_env_checker=False,
            max_episode_steps=_decision_limit(game),
        )


def _decision_limit(game: str) -> int | None:
    """The game's default decision limit (``GameDefinition.decision_limit``), the same
    bound as its ``max_decisions``; None when it has none. The core truncates first (it
    counts every player's decisions, the id's TimeLimit only the learner's steps)."""
    from boardsim.core.errors import OptionError
    from boardsim.games import definition

    try:
        found = definition(game)
    except OptionError:
        # a plugin game whose own package is importing boardsim right now (so its
        # definition is not there yet): registered without a TimeLimit; the core still
        # truncates at the game's default max_decisions
        return None
    return found.decision_limit or None

"""The public entry points: list, make and roll out games."""

from __future__ import annotations

from typing import Any

from boardsim.core.game import Game
from boardsim.games import available, definition


def list_games() -> list[str]:
    """The games found (:mod:`boardsim.games`), by id: ``["farrapos", "hispania", "liberation"]``
    and those of installed plugins."""
    return available()


def make_game(game: str, **options: Any) -> Game:
    """An OpenSpiel-style :class:`Game` (``new_initial_state``, ``state_from_bytes``)."""
    return Game(definition(game), **options)


def make_env(game: str, render_mode: str | None = None, **options: Any) -> Any:
    """A PettingZoo AEC environment of ``game``."""
    from boardsim.wrappers.pettingzoo import BoardsimAECEnv

    return BoardsimAECEnv(make_game(game, **options), render_mode=render_mode)


def make_gym_env(game: str, opponents: Any = None, **options: Any) -> Any:
    """A Gymnasium env: seat 0 learns, the other seats are played by ``opponents``."""
    from boardsim.wrappers.gymnasium import BoardsimGymEnv

    wrapper = {
        k: options.pop(k)
        for k in ("render_mode", "seat", "illegal_action", "illegal_reward")
        if k in options
    }
    return BoardsimGymEnv(make_game(game, **options), opponents=opponents, **wrapper)


def make_vec_env(
    game: str,
    num_envs: int,
    threads: int | None = None,
    opponents: Any = None,
    **options: Any,
) -> Any:
    """A Gymnasium ``VectorEnv`` over the batched engine; ``.to_sb3()`` gives an SB3 VecEnv."""
    from boardsim.wrappers.vector import BoardsimVectorEnv

    seed = options.pop("seed", 0)
    seat = options.pop("seat", 0)
    render_mode = options.pop("render_mode", None)
    return BoardsimVectorEnv(
        make_game(game, **options),
        num_envs,
        threads=threads,
        opponents=opponents,
        seat=seat,
        seed=seed,
        render_mode=render_mode,
    )


def rollout(
    game: str,
    num_envs: int,
    num_steps: int,
    seed: int = 0,
    threads: int | None = None,
    **options: Any,
) -> dict[str, float]:
    """A compiled uniform-random rollout: decisions, games finished and seconds taken."""
    from boardsim.core.batch import random_rollout

    return random_rollout(make_game(game, **options), num_envs, num_steps, seed, threads)

"""The public entry points: list, make and roll out games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from boardsim.core.game import Game
from boardsim.games import available, definition

if TYPE_CHECKING:  # the wrappers import gymnasium and pettingzoo: only when used
    from boardsim.wrappers.gymnasium import BoardsimGymEnv, Policy
    from boardsim.wrappers.pettingzoo import BoardsimAECEnv
    from boardsim.wrappers.vector import BoardsimVectorEnv

__all__ = ["list_games", "make_env", "make_game", "make_gym_env", "make_vec_env", "rollout"]


def list_games() -> list[str]:
    """The games found (:mod:`boardsim.games`), by id: ``["farrapos", "hispania", "liberation"]``
    and those of installed plugins."""
    return available()


def make_game(game: str, **options: Any) -> Game:
    """An OpenSpiel-style :class:`Game` (``new_initial_state``, ``state_from_bytes``).

    ``options`` are the game's own (its page lists them, with defaults and allowed
    values) and the common ones, ``explicit_chance`` and ``max_decisions``; an unknown
    name or a value not allowed raises :class:`~boardsim.OptionError` saying what is.

    >>> game = make_game("liberation", num_players=3)
    >>> state = game.new_initial_state(seed=7)
    """
    return Game(definition(game), **options)


def make_env(game: str, render_mode: str | None = None, **options: Any) -> BoardsimAECEnv:
    """A PettingZoo AEC environment of ``game``: every seat an agent.

    Observations are ``{"observation": float32 vector, "action_mask": uint8 vector}``;
    ``render_mode`` is ``None``, ``"ansi"``, ``"human"`` or ``"rgb_array"`` (the public
    board). ``options`` as for :func:`make_game`.
    """
    from boardsim.wrappers.pettingzoo import BoardsimAECEnv

    return BoardsimAECEnv(make_game(game, **options), render_mode=render_mode)


def make_gym_env(
    game: str,
    opponents: str | list[str] | Policy | dict[int, Policy] | None = None,
    **options: Any,
) -> BoardsimGymEnv:
    """A Gymnasium env: one seat learns, the other seats are played by ``opponents``.

    ``opponents``: ``None`` or ``"random"`` (uniform over the legal actions),
    ``"heuristic"``, a name per other seat, an agent (``act(observation, action_mask)``)
    or a dict seat -> agent. Wrapper keywords taken from ``options``: ``seat`` (default
    0; the learner also plays every player of its side), ``render_mode``,
    ``illegal_action`` (``"raise"`` or ``"terminate"``) and ``illegal_reward``; the rest
    are the game's options. ``info["action_mask"]`` and ``env.action_masks()`` give the
    legal actions (sb3-contrib's MaskablePPO reads the latter).
    """
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
    opponents: str | Sequence[str] | None = None,
    **options: Any,
) -> BoardsimVectorEnv:
    """A Gymnasium ``VectorEnv`` of ``num_envs`` games stepped in one compiled call.

    ``threads``: numba threads (default: all); ``opponents``: ``"random"`` (default) or
    ``"heuristic"``, or one such name a player. From ``options``: ``seed`` (the games of
    that run, as ``reset(seed=...)``, replayed by the first unseeded reset; default None:
    new games, from fresh entropy),
    ``seat`` and ``render_mode`` (``"ansi"``, ``"rgb_array"``); the rest are the game's
    options.
    ``.action_masks()`` returns ``(num_envs, num_actions)``; ``.to_sb3()`` gives an SB3
    ``VecEnv`` of the same games.
    """
    from boardsim.wrappers.vector import BoardsimVectorEnv

    seed = options.pop("seed", None)
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
    """A compiled uniform-random rollout of ``num_envs`` games for ``num_steps`` steps each.

    Returns ``{"decisions", "games", "seconds", "decisions_per_second"}``: decisions
    taken, games finished, the time it took and their ratio (the benchmarks' measure of
    raw speed).
    """
    from boardsim.core.batch import random_rollout

    return random_rollout(make_game(game, **options), num_envs, num_steps, seed, threads)

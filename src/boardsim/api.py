"""The public entry points: list, make and roll out games."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from boardsim.core.batch import random_rollout
from boardsim.core.game import Game, GameDefinition
from boardsim.core.options import COMMON_OPTIONS, Option
from boardsim.games import available, definition, gym_id
from boardsim.wrappers.gymnasium import BoardsimGymEnv, Policy
from boardsim.wrappers.pettingzoo import BoardsimAECEnv
from boardsim.wrappers.vector import BoardsimVectorEnv

__all__ = [
    "GameInfo",
    "OptionInfo",
    "game_info",
    "list_games",
    "make_env",
    "make_game",
    "make_gym_env",
    "make_vec_env",
    "rollout",
]


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
    ``seat``, ``render_mode`` (``"ansi"``, ``"rgb_array"``), ``copy`` (default False:
    ``step`` returns the batch's own arrays, overwritten by the step after the next; True:
    copies) and ``obs_dtype`` (``"float32"``, or ``"uint8"`` where the game's observation is
    binary); the rest are the game's options.
    ``.action_masks()`` returns ``(num_envs, num_actions)`` booleans; ``.to_sb3()`` gives
    an SB3 ``VecEnv`` of the same games.
    """
    seed = options.pop("seed", None)
    seat = options.pop("seat", 0)
    render_mode = options.pop("render_mode", None)
    copy = options.pop("copy", False)
    obs_dtype = options.pop("obs_dtype", "float32")
    return BoardsimVectorEnv(
        make_game(game, **options),
        num_envs,
        threads=threads,
        opponents=opponents,
        seat=seat,
        seed=seed,
        render_mode=render_mode,
        copy=copy,
        obs_dtype=obs_dtype,
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
    return random_rollout(make_game(game, **options), num_envs, num_steps, seed, threads)


@dataclass(frozen=True)
class OptionInfo:
    """One option of a game: its name, its value in the game described (``value``: the
    default unless given), its ``default`` (its value in the game made without options),
    the values it allows, what it does, and whether every game has it."""

    name: str
    value: Any
    default: Any
    allowed: str
    doc: str
    common: bool


@dataclass(frozen=True)
class GameInfo:
    """What :func:`game_info` tells about a game: what ``boardsim info GAME`` prints."""

    name: str
    title: str
    version: int
    num_players: int
    agents: tuple[str, ...]
    players_allowed: str
    options: tuple[OptionInfo, ...]
    num_actions: int
    observation_size: int
    decision_limit: int
    gym_id: str

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for JSON): every field, the options as a list of dicts."""
        return asdict(self)

    def text(self) -> str:
        """The description as ``boardsim info`` prints it: the facts, then the options."""
        limit = (
            f"{self.decision_limit:,} decisions"
            if self.decision_limit
            else "none declared: an episode ends only by the rules"
        )
        lines = [
            f"{self.name}: {self.title} (version {self.version})",
            f"players:            {self.players_allowed}; agents: {', '.join(self.agents)}",
            f"actions:            {self.num_actions} (Discrete)",
            f"observation:        float32[{self.observation_size}]",
            f"decision limit:     {limit} (option max_decisions; 0: none)",
            f"Gymnasium id:       {self.gym_id}",
            "",
            "options (make_game(name, OPTION=VALUE); the command line: -o OPTION=VALUE):",
        ]
        for option in self.options:
            common = " (every game)" if option.common else ""
            given = "" if option.value == option.default else f" (default {option.default!r})"
            lines.append(f"  {option.name} = {option.value!r}{given}{common}")
            for words in (f"allowed: {option.allowed}", option.doc):
                lines.append(
                    textwrap.fill(
                        words,
                        92,
                        initial_indent=" " * 6,
                        subsequent_indent=" " * 6,
                        break_on_hyphens=False,  # "set-up" stays one word
                    )
                )
        return "\n".join(lines)


def allowed_values(option: Option, d: GameDefinition) -> str:
    """The values ``option`` takes, as its declaration says (choices, a range, or the
    parameters of a difficulty option)."""
    if option.choices is not None:
        return ", ".join(repr(c) for c in option.choices)
    if option.low is not None or option.high is not None:
        return f"an int from {option.low} to {option.high}"
    if d.difficulty is not None and d.difficulty.option == option.name:
        values = "; ".join(
            f"{p} {'/'.join(str(v) for v in vs)}"
            for p, vs in zip(d.difficulty.parameters, d.difficulty.values, strict=True)
        )
        return (
            f"'{'-'.join(d.difficulty.parameters)}', each one of: {values} "
            f"({len(d.difficulty.levels())} levels)"
        )
    return "checked when the game is made"


def players_allowed(d: GameDefinition, game: Game) -> str:
    """How many players the game takes (its ``num_players`` range where it has one) and
    their sides, where players share one."""
    count = next((o for o in d.options if o.name == "num_players"), None)
    text = str(game.num_players)
    if count is not None:
        text += f" (num_players: {count.low}-{count.high})"
    sides = len(set(game.teams))
    if sides == 1 and game.num_players > 1:
        text += ", all on one side (cooperative)"
    elif sides < game.num_players:
        text += f", on {sides} sides"
    return text


def game_info(game: str, **options: Any) -> GameInfo:
    """What ``game`` is: title, players, every option (its default, allowed values and
    help), action count, observation size, default decision limit and Gymnasium id.

    ``options`` describe the game made with them (the player count, say); an unknown
    game or option raises :class:`~boardsim.OptionError` naming the known ones.

    >>> info = game_info("liberation", num_players=3)
    >>> info.gym_id, info.num_players
    ('boardsim/Liberation-v0', 3)
    >>> "counters" in [o.name for o in info.options]
    True

    ``print(info.text())`` shows what ``boardsim info liberation -o num_players=3`` prints.
    """
    d = definition(game)
    made = make_game(game, **options)
    defaults = make_game(game).options if options else made.options
    common = {o.name for o in COMMON_OPTIONS}
    return GameInfo(
        name=d.name,
        title=d.title,
        version=d.version,
        num_players=made.num_players,
        agents=tuple(made.agent_names()),
        players_allowed=players_allowed(d, made),
        options=tuple(
            OptionInfo(
                o.name,
                made.options[o.name],
                defaults[o.name],
                allowed_values(o, d),
                o.doc,
                o.name in common,
            )
            for o in (*d.options, *COMMON_OPTIONS)
        ),
        num_actions=made.num_actions,
        observation_size=made.observation_size,
        decision_limit=d.decision_limit,
        gym_id=gym_id(game),
    )

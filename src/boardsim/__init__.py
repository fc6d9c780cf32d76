"""boardsim: numba-compiled RL environments for three historical board games."""

from __future__ import annotations

from boardsim.api import (
    GameInfo,
    OptionInfo,
    game_info,
    list_games,
    make_env,
    make_game,
    make_gym_env,
    make_vec_env,
    rollout,
)
from boardsim.core.errors import DataError, IllegalActionError, OptionError, StateFormatError
from boardsim.core.game import CHANCE, TERMINAL, Game, State
from boardsim.registration import register_all as _register_all

__version__ = "0.1.0"

_register_all()

# in the order the API reference lists them: what a user calls first leads
__all__ = [  # noqa: RUF022
    "make_game",
    "make_env",
    "make_gym_env",
    "make_vec_env",
    "list_games",
    "game_info",
    "rollout",
    "Game",
    "State",
    "GameInfo",
    "OptionInfo",
    "IllegalActionError",
    "OptionError",
    "DataError",
    "StateFormatError",
    "CHANCE",
    "TERMINAL",
]

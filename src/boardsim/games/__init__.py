"""The registry of games. Each game is a subpackage exposing ``DEFINITION``."""

from __future__ import annotations

import importlib

from boardsim.core.errors import OptionError
from boardsim.core.game import GameDefinition

GAMES: tuple[str, ...] = ("liberation", "hispania", "farrapos")


def available() -> list[str]:
    """The games whose package is present (in registry order)."""
    return [g for g in GAMES if importlib.util.find_spec(f"boardsim.games.{g}") is not None]


def definition(name: str) -> GameDefinition:
    """The :class:`GameDefinition` of game ``name``; ``OptionError`` for an unknown one."""
    if name not in available():
        raise OptionError(f"unknown game {name!r}; choose one of {', '.join(available())}")
    module = importlib.import_module(f"boardsim.games.{name}")
    return module.DEFINITION

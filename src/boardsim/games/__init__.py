"""The registry of games. Each game is a subpackage exposing ``DEFINITION``."""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache

from boardsim.core.errors import OptionError
from boardsim.core.game import GameDefinition

# game name -> Gymnasium id; ids are registered at import, games imported on use
GAMES: dict[str, str] = {
    "liberation": "boardsim/Liberation-v0",
    "hispania": "boardsim/Hispania-v0",
    "farrapos": "boardsim/Farrapos-v0",
}


@cache
def _load(name: str) -> GameDefinition | None:
    if importlib.util.find_spec(f"boardsim.games.{name}") is None:
        return None
    module = importlib.import_module(f"boardsim.games.{name}")
    return getattr(module, "DEFINITION", None)


def available() -> list[str]:
    """The games that are present and complete (in registry order)."""
    return [g for g in GAMES if _load(g) is not None]


def definition(name: str) -> GameDefinition:
    """The :class:`GameDefinition` of game ``name``; ``OptionError`` for an unknown one."""
    found = _load(name) if name in GAMES else None
    if found is None:
        raise OptionError(f"unknown game {name!r}; choose one of {', '.join(available())}")
    return found

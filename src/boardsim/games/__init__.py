"""The registry of games: the built-in ones and those of other installed packages.

A game is a module whose ``DEFINITION`` is a :class:`~boardsim.core.game.GameDefinition`.
Games are found without being imported, and imported on first use:

- **Entry points** of the group ``boardsim.games`` (the way Gymnasium and pytest find
  plugins): an installed package declares, in its ``pyproject.toml``::

      [project.entry-points."boardsim.games"]
      connect_four = "boardsim_connect_four"

  (the name is the game's id; the value a module with ``DEFINITION``, or
  ``module:attribute``). boardsim's own games are declared the same way, in its
  ``pyproject.toml``.
- **The folders of this package** (``boardsim/games/<game>/``), for a source checkout
  whose entry points were not installed.

Games are listed by id, in alphabetical order. Each game's Gymnasium id is
``boardsim/<Name>-v0`` (:func:`gym_id`), registered at import.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
from functools import cache

from boardsim.core.errors import OptionError
from boardsim.core.game import GameDefinition, use_registry

ENTRY_POINT_GROUP = "boardsim.games"


@cache
def _sources() -> dict[str, str]:
    """Game id -> ``module[:attribute]`` of its definition, sorted by id."""
    found: dict[str, str] = {}
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep.value)
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            found.setdefault(info.name, f"{__name__}.{info.name}")
    return dict(sorted(found.items()))


@cache
def _load(name: str) -> GameDefinition | None:
    source = _sources().get(name)
    if source is None:
        return None
    module_name, _, attribute = source.partition(":")
    module = importlib.import_module(module_name.strip())
    found = getattr(module, attribute.strip() or "DEFINITION", None)
    if found is None:
        return None
    if not isinstance(found, GameDefinition):
        raise TypeError(f"game {name!r}: {source} is not a GameDefinition but {type(found)!r}")
    if found.name != name:
        raise TypeError(f"game {name!r}: {source} defines the game {found.name!r}")
    return found


def names() -> list[str]:
    """The ids of every game found (none imported)."""
    return list(_sources())


def available() -> list[str]:
    """The games that are present and complete (sorted by id; each is imported)."""
    return [g for g in _sources() if _load(g) is not None]


def definition(name: str) -> GameDefinition:
    """The :class:`GameDefinition` of game ``name``; ``OptionError`` for an unknown one."""
    found = _load(name) if isinstance(name, str) else None
    if found is None:
        raise OptionError(f"unknown game {name!r}; choose one of {', '.join(available())}")
    return found


def gym_id(name: str) -> str:
    """The Gymnasium id of game ``name``: ``connect_four`` -> ``boardsim/ConnectFour-v0``."""
    return "boardsim/" + "".join(part.capitalize() for part in name.split("_")) + "-v0"


use_registry(definition)  # unpickled games find their definitions here

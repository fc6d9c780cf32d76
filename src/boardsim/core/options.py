"""Declared game options: names, defaults, allowed values, checked when a game is made."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardsim.core.errors import OptionError


@dataclass(frozen=True)
class Option:
    """One keyword option of a game.

    ``choices`` lists the allowed values; otherwise ``low``/``high`` bound an int,
    or ``check`` validates (returning an error text or ``None``).
    """

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    low: int | None = None
    high: int | None = None
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)

    def validate(self, value: Any, game: str) -> Any:
        """Return ``value`` if allowed, else raise :class:`OptionError` naming what is.

        A numpy integer or bool (what a sweep over ``np.arange`` gives) counts as the
        Python ``int`` or ``bool`` it equals, and is returned as that.
        """
        if isinstance(value, np.bool_):
            value = bool(value)
        elif isinstance(value, np.integer):
            value = int(value)
        if self.choices is not None:
            if not any(c == value and type(c) is type(value) for c in self.choices):
                allowed = ", ".join(repr(c) for c in self.choices)
                raise OptionError(
                    f"{game}: option {self.name}={value!r} is not allowed; choose one of {allowed}"
                )
            return value
        if self.low is not None or self.high is not None:
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"{game}: option {self.name} takes an int, got {value!r}")
            if (self.low is not None and value < self.low) or (
                self.high is not None and value > self.high
            ):
                raise OptionError(
                    f"{game}: option {self.name}={value} is out of range [{self.low}, {self.high}]"
                )
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise OptionError(f"{game}: option {self.name}={value!r}: {problem}")
        return value


# Options every game has, handled by the engine header (core/header.py).
COMMON_OPTIONS: tuple[Option, ...] = (
    Option(
        "explicit_chance",
        False,
        "Stop at chance nodes (dice, draws): the chance player (-1) acts, OpenSpiel style.",
        choices=(False, True),
    ),
    Option(
        "max_decisions",
        0,  # each game's own default: GameDefinition.decision_limit
        "Truncate a game after this many decisions, reported as truncation (0: never). "
        "The default is the game's decision limit (boardsim info shows it), well above the "
        "longest games its random, heuristic and MCTS players play (docs/rules/<game>.md); "
        "0 for a game that declares none.",
        low=0,
        high=2**31 - 1,
    ),
)


def resolve_options(
    game: str,
    declared: tuple[Option, ...],
    given: Mapping[str, Any],
    defaults: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Defaults (``defaults`` over the options' own) overlaid with ``given``, every value
    checked; unknown names refused."""
    by_name = {o.name: o for o in (*COMMON_OPTIONS, *declared)}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise OptionError(
            f"{game}: unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(by_name))}"
        )
    base = {name: opt.default for name, opt in by_name.items()} | dict(defaults or {})
    out: dict[str, Any] = {}
    for name, opt in by_name.items():
        out[name] = opt.validate(given.get(name, base[name]), game)
    return out


def with_later_defaults(declared: tuple[Option, ...], saved: Mapping[str, Any]) -> dict[str, Any]:
    """Options written before some of ``declared`` existed (a saved state, a trained
    network): each declared option they do not name takes its default. A game's new
    option defaults to the reading it had before, so the old options mean the same game."""
    return {**{o.name: o.default for o in declared if o.name not in saved}, **saved}


def option_words(pairs: Sequence[str] | None) -> dict[str, Any]:
    """``["num_players=2", "level=6-4-3-4-2"]`` -> options, as the command line gives them
    (``-o KEY=VALUE``): values read as JSON when they parse (``3``, ``true``), else as text
    (``6-4-3-4-2``); :class:`OptionError` for a word that is not ``KEY=VALUE``."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, raw = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OptionError(f"option {pair!r}: write KEY=VALUE, e.g. num_players=3")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options

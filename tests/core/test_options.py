"""Declared options: defaults, checks and clear refusals."""

from __future__ import annotations

import pytest

from boardsim.core.errors import OptionError
from boardsim.core.options import Option, resolve_options

DECLARED = (
    Option("size", 3, "a size", low=1, high=9),
    Option("mode", "a", "a mode", choices=("a", "b")),
    Option("name", "x", "checked", check=lambda v: None if isinstance(v, str) else "not text"),
)


def test_defaults_include_the_common_options() -> None:
    got = resolve_options("g", DECLARED, {})
    assert got == {
        "explicit_chance": False,
        "max_decisions": 0,
        "size": 3,
        "mode": "a",
        "name": "x",
    }


@pytest.mark.parametrize(
    ("given", "match"),
    [
        ({"size": 10}, r"size=10 is out of range \[1, 9\]"),
        ({"size": True}, "takes an int"),
        ({"size": "3"}, "takes an int"),
        ({"mode": "c"}, "choose one of 'a', 'b'"),
        ({"name": 5}, "not text"),
        ({"colour": 1}, "unknown option"),
        ({"max_decisions": -1}, "out of range"),
        ({"explicit_chance": 1}, "choose one of False, True"),
    ],
)
def test_bad_values_are_refused_with_the_allowed_ones(given: dict, match: str) -> None:
    with pytest.raises(OptionError, match=match):
        resolve_options("g", DECLARED, given)

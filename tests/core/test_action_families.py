"""A game's ``action_families`` (restricted play's mechanics): the plugin contract's
check_definition accepts a well-formed declaration, and names what is wrong with one
that is not (an id out of range, an id in two families, an empty family)."""

from __future__ import annotations

import dataclasses

import pytest

from boardsim.core.game import Game, action_family_problems
from boardsim.games import definition
from boardsim.testing import check_definition


def test_a_well_formed_declaration_has_no_problems() -> None:
    assert action_family_problems({"low": (0, 1), "high": (2,)}, 3) == []
    assert action_family_problems({}, 3) == []


def test_each_problem_is_named() -> None:
    assert action_family_problems({"far": (3,)}, 3) == ["family 'far': action 3 is not in [0, 3)"]
    assert action_family_problems({"a": (0, 1), "b": (1,)}, 3) == [
        "action 1 is in families 'a' and 'b'"
    ]
    assert action_family_problems({"none": ()}, 3) == [
        "family 'none' needs a name and at least one action id"
    ]


def test_check_definition_reads_the_declaration() -> None:
    game = Game(definition("liberation"))
    n = game.num_actions
    check_definition(game)  # no declaration: still a conforming game
    ok = dataclasses.replace(definition("liberation"), action_families={"first": (0,)})
    check_definition(Game(ok))
    bad = dataclasses.replace(definition("liberation"), action_families={"beyond": (n,)})
    with pytest.raises(AssertionError, match="beyond"):
        check_definition(Game(bad))


def test_liberation_puts_every_action_in_exactly_one_family() -> None:
    game = Game(definition("liberation"))
    families = definition("liberation").action_families
    assert action_family_problems(families, game.num_actions) == []
    ids = sorted(a for family in families.values() for a in family)
    assert ids == list(range(game.num_actions))

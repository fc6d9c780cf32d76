"""Session fixtures for the Farrapos tests: the compiled core is shared by every test."""

from __future__ import annotations

import pytest

import boardsim
from boardsim.core.game import Game


@pytest.fixture(scope="session")
def game() -> Game:
    return boardsim.make_game("farrapos")


@pytest.fixture(scope="session")
def dice_game() -> Game:
    """Dice chosen by the test: chance nodes are explicit."""
    return boardsim.make_game("farrapos", explicit_chance=True)

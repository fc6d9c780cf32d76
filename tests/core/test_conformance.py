"""Every installed game passes the shared conformance checks (``boardsim.testing``), the
built-in ones as a plugin does: definitions, random games (masks, observations, clones,
saves, the validator), explicit chance, batch equals single, thread invariance, the compiled
players, PettingZoo's ``api_test`` and ``seed_test``, Gymnasium's ``check_env``, the vector
env, pictures and turn bounds. A new game's API tests come for free: it is parametrized over
``boardsim.list_games()``, so an installed plugin is checked here too."""

from __future__ import annotations

import pytest

import boardsim
from boardsim.testing import CHECKS, check_game


@pytest.mark.parametrize("game", boardsim.list_games())
def test_every_installed_game_passes_the_conformance_checks(game: str) -> None:
    ran: list[str] = []
    assert check_game(game, report=ran.append) == list(CHECKS)
    assert ran == list(CHECKS)


def test_the_conformance_run_refuses_an_unknown_check() -> None:
    with pytest.raises(ValueError, match="unknown checks"):
        check_game(boardsim.list_games()[0], skip=("no such check",))

"""Every installed game passes the shared conformance checks (``boardsim.testing``), the
built-in ones as a plugin does: definitions, random games (masks, observations, clones,
saves, the validator), explicit chance, batch equals single, thread invariance, the compiled
players, PettingZoo's ``api_test`` and ``seed_test``, Gymnasium's ``check_env``, the vector
env, pictures and turn bounds. A new game's API tests come for free: it is parametrized over
``boardsim.list_games()``, so an installed plugin is checked here too."""

from __future__ import annotations

import dataclasses
import types

import pytest

import boardsim
import boardsim.testing
from boardsim.games import definition
from boardsim.testing import CHECKS, NoDecisionLimitWarning, check_game


@pytest.mark.parametrize("game", boardsim.list_games())
def test_every_installed_game_passes_the_conformance_checks(game: str) -> None:
    ran: list[str] = []
    assert check_game(game, report=ran.append) == list(CHECKS)
    assert ran == list(CHECKS)


def test_the_conformance_run_refuses_an_unknown_check() -> None:
    with pytest.raises(ValueError, match="unknown checks"):
        check_game(boardsim.list_games()[0], skip=("no such check",))


@pytest.mark.parametrize("game", boardsim.list_games())
def test_returns_keep_to_the_declared_payoffs_under_every_sample_option_set(game: str) -> None:
    """What a game's definition declares of its returns (range, sum, dense or not: what
    OpenSpiel is told) holds in random games of each of its sample option sets, dense
    rewards and more players included (the conformance run plays the defaults only)."""
    import numpy as np

    from boardsim.testing import check_payoffs

    d = definition(game)
    assert d.payoffs is not None, f"{game} declares no payoffs"
    rng = np.random.default_rng(0)
    for options in ({}, *d.sample_options):
        made = boardsim.make_game(game, **{**options, "max_decisions": 600})
        for seed in range(2):
            state = made.new_initial_state(seed)
            check_payoffs(made, state)
            while not state.is_terminal():
                state.apply_action(int(rng.choice(state.legal_actions())))
                check_payoffs(made, state)


def test_a_game_without_a_decision_limit_is_warned_of(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin that declares no decision_limit gets max_decisions = 0: check_game says its
    episodes may never end (issue 38); the built-in games, which declare one, are not warned."""
    unlimited = dataclasses.replace(definition("liberation"), decision_limit=0)
    monkeypatch.setattr(
        boardsim.testing, "_limited", lambda *a: types.SimpleNamespace(definition=unlimited)
    )
    with pytest.warns(NoDecisionLimitWarning, match="declares no decision_limit.*never ends"):
        assert check_game("liberation", skip=CHECKS) == []
    for game in ("liberation", "hispania", "farrapos"):
        assert boardsim.testing.no_decision_limit(definition(game)) is None

"""Shared fixtures of the Hispania tests."""

from __future__ import annotations

import pytest

import boardsim


@pytest.fixture(scope="session")
def game() -> boardsim.Game:
    return boardsim.make_game("hispania")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a longer sweep (still about a minute at most)")

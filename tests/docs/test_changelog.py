"""CHANGELOG.md and the licence (issue 38): the changelog has the library's version and,
for every game, its rules version and every option a user can set."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from boardsim.games import definition

ROOT = Path(__file__).resolve().parents[2]
CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_the_changelog_has_the_packages_version() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert re.search(rf"^## \[{re.escape(version)}\]", CHANGELOG, flags=re.MULTILINE)


@pytest.mark.parametrize("game", ["liberation", "hispania", "farrapos"])
def test_the_changelog_gives_each_games_version_and_options(game: str) -> None:
    d = definition(game)
    assert f"`{game}` version {d.version}" in CHANGELOG
    missing = [o.name for o in d.options if f"`{o.name}`" not in CHANGELOG]
    assert not missing, f"{game}'s options not in CHANGELOG.md: {missing}"


def test_the_licence_is_declared() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")

"""Editors complete on boardsim: the factories declare their concrete return types and the
wheel carries ``py.typed`` (PEP 561), so type checkers read the package's hints."""

from __future__ import annotations

import shutil
import subprocess
import sys
import typing
import zipfile
from pathlib import Path

import pytest

import boardsim
from boardsim.core.game import Game
from boardsim.wrappers.gymnasium import BoardsimGymEnv, Policy
from boardsim.wrappers.pettingzoo import BoardsimAECEnv
from boardsim.wrappers.vector import BoardsimVectorEnv

ROOT = Path(__file__).resolve().parents[2]


def test_the_factories_return_their_concrete_types() -> None:
    names = {
        "BoardsimAECEnv": BoardsimAECEnv,
        "BoardsimGymEnv": BoardsimGymEnv,
        "BoardsimVectorEnv": BoardsimVectorEnv,
        "Policy": Policy,
    }
    expected = {
        boardsim.make_game: Game,
        boardsim.make_env: BoardsimAECEnv,
        boardsim.make_gym_env: BoardsimGymEnv,
        boardsim.make_vec_env: BoardsimVectorEnv,
    }
    for factory, kind in expected.items():
        hints = typing.get_type_hints(factory, localns=names)
        assert hints["return"] is kind, factory.__name__
    env = boardsim.make_gym_env("liberation", num_players=2)
    assert isinstance(env, BoardsimGymEnv)


@pytest.mark.subprocess
def test_the_wheel_ships_py_typed_the_data_and_the_networks(tmp_path: Path) -> None:
    source = tmp_path / "checkout"  # a copy, so that the build leaves nothing in the tree
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "*.egg-info")
    shutil.copytree(ROOT / "src", source / "src", ignore=ignore)
    shutil.copytree(ROOT / "envs", source / "envs")
    shipped = sorted((ROOT / "agents").glob("*/*.npz"))  # the compiled networks
    for path in shipped:
        (source / "agents" / path.parent.name).mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, source / "agents" / path.parent.name / path.name)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    command += ["--quiet", "-w", str(tmp_path / "dist"), str(source)]
    subprocess.run(command, check=True, capture_output=True, timeout=600)
    (wheel,) = (tmp_path / "dist").glob("boardsim-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "boardsim/py.typed" in names
    assert any(n.startswith("boardsim/envs/") and n.endswith(".toml") for n in names)
    # what load("ppo", game) and load("alphazero", game) read from an installed wheel
    assert shipped and all(f"boardsim/shipped/{p.parent.name}/{p.name}" in names for p in shipped)
    # the licence (issue 38): declared in the metadata, its text shipped, classifiers said
    (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    meta = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "License-Expression: MIT" in meta and "License-File: LICENSE" in meta
    assert "Classifier: Topic :: Games/Entertainment :: Board Games" in meta
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)

"""Ship the top-level ``envs/`` data folder inside the wheel as ``boardsim/envs``, and the
trained networks of ``agents/<game>/*.npz`` as ``boardsim/shipped/<game>/`` (what
``boardsim.agents.load("alphazero", game)`` and ``load("ppo", game)`` read).

Everything else is configured in ``pyproject.toml``; in a checkout (editable
install) the library reads ``envs/`` and ``agents/`` in place.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

# (source folder, pattern, the package folder it goes to)
PACKAGE_DATA = (("envs", "**/*.toml", "envs"), ("agents", "*/*.npz", "shipped"))


class BuildPyWithEnvs(build_py):
    """``build_py`` that also copies the game data and the shipped networks into the
    built package."""

    def run(self) -> None:
        super().run()
        root = Path(__file__).resolve().parent
        for folder, pattern, package in PACKAGE_DATA:
            source = root / folder
            target = Path(self.build_lib) / "boardsim" / package
            for path in source.glob(pattern):
                dest = target / path.relative_to(source)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, dest)


setup(cmdclass={"build_py": BuildPyWithEnvs})

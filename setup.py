"""Ship the top-level ``envs/`` data folder inside the wheel as ``boardsim/envs``.

Everything else is configured in ``pyproject.toml``; in a checkout (editable
install) the library reads ``envs/`` in place.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithEnvs(build_py):
    """``build_py`` that also copies ``envs/**/*.toml`` into the built package."""

    def run(self) -> None:
        super().run()
        source = Path(__file__).resolve().parent / "envs"
        target = Path(self.build_lib) / "boardsim" / "envs"
        for path in source.rglob("*.toml"):
            dest = target / path.relative_to(source)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)


setup(cmdclass={"build_py": BuildPyWithEnvs})

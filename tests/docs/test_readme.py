"""Every ```python block of README.md runs to completion (issue 15: the PettingZoo loop
never ended for the race), each in a fresh interpreter, as a reader pasting it would.

The snippets are sized to be quick (a short training run, a short rollout); the budget
below also covers compiling a game's engine on a cold cache.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SNIPPET_SECONDS = 900  # a cold numba cache compiles each game the snippet uses


def python_blocks(text: str) -> list[str]:
    """The code of every fenced ```python block, in order."""
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


SNIPPETS = python_blocks(README.read_text(encoding="utf-8"))


def test_the_readme_has_its_snippets() -> None:
    assert len(SNIPPETS) >= 2
    assert any("agent_iter" in code for code in SNIPPETS), "the PettingZoo loop is tested"


@pytest.mark.timeout(SNIPPET_SECONDS + 60)
@pytest.mark.parametrize("index", range(len(SNIPPETS)), ids=lambda i: f"snippet{i}")
def test_readme_snippet_runs_to_completion(index: int, tmp_path: Path) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])])
    env.setdefault("MPLBACKEND", "Agg")
    done = subprocess.run(
        [sys.executable, "-c", SNIPPETS[index]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=SNIPPET_SECONDS,
    )
    assert done.returncode == 0, f"README snippet {index} failed:\n{done.stderr[-4000:]}"

"""Every ```python block of README.md runs to completion (issue 15: the PettingZoo loop
never ended for the race), each in a fresh interpreter, as a reader pasting it would.

The snippets are sized to be quick (a short training run, a short rollout); the budget
below also covers compiling a game's engine on a cold cache.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.snippets import ROOT, SNIPPET_SECONDS, python_blocks, run_python

pytestmark = pytest.mark.subprocess

README = ROOT / "README.md"


SNIPPETS = python_blocks(README.read_text(encoding="utf-8"))


def test_the_readme_has_its_snippets() -> None:
    assert len(SNIPPETS) >= 2
    assert any("agent_iter" in code for code in SNIPPETS), "the PettingZoo loop is tested"


@pytest.mark.timeout(SNIPPET_SECONDS + 60)
@pytest.mark.parametrize("index", range(len(SNIPPETS)), ids=lambda i: f"snippet{i}")
def test_readme_snippet_runs_to_completion(index: int, tmp_path: Path) -> None:
    done = run_python(SNIPPETS[index], tmp_path)
    assert done.returncode == 0, f"README snippet {index} failed:\n{done.stderr[-4000:]}"

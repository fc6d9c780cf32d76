"""Every ```python block of the "Other libraries" page (docs/guides/other-libraries.md,
issue 35: OpenSpiel, PettingZoo's registry, Gymnasium ids, SB3, RLlib) runs to
completion, each in a fresh interpreter, as a reader pasting it would."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.snippets import ROOT, SNIPPET_SECONDS, python_blocks, run_python

pytestmark = pytest.mark.subprocess

PAGE = ROOT / "docs" / "guides" / "other-libraries.md"
SNIPPETS = python_blocks(PAGE.read_text(encoding="utf-8"))
LIBRARIES = ("pyspiel", "pettingzoo.make", "gym.make", "MaskablePPO", "make_rllib_env")


def test_the_page_has_a_snippet_for_each_library() -> None:
    for library in LIBRARIES:
        assert sum(library in code for code in SNIPPETS) == 1, library
    assert "evaluate_bots" in SNIPPETS[0] and "BoardsimBot" in SNIPPETS[0]


@pytest.mark.timeout(SNIPPET_SECONDS + 60)
@pytest.mark.parametrize("index", range(len(SNIPPETS)), ids=lambda i: LIBRARIES[i])
def test_other_libraries_snippet_runs_to_completion(index: int, tmp_path: Path) -> None:
    if index == 0:
        pytest.importorskip("pyspiel")
    done = run_python(SNIPPETS[index], tmp_path, NUMBA_NUM_THREADS="1")
    assert done.returncode == 0, f"snippet {index} failed:\n{done.stderr[-4000:]}"

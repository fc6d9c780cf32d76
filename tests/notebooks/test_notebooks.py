"""Every notebook runs top to bottom at a small size (``BOARDSIM_NOTEBOOK_SCALE=small``).

The committed copies hold the outputs of a full run; here each is executed on a copy in
memory (the files are not rewritten), in a fresh kernel, and must finish without error.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("nbformat")
pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
NAMES = ("01-quickstart", "02-hispania-difficulty", "03-liberation-seats", "04-farrapos-sides")


def test_every_study_is_listed_here() -> None:
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_at_small_size(name: str) -> None:
    from boardsim.research.notebooks import run_notebook

    notebook = run_notebook(NOTEBOOKS / f"{name}.ipynb", small=True)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    outputs = [out for cell in code for out in cell.get("outputs", [])]
    assert not [out for out in outputs if out.get("output_type") == "error"]
    assert outputs  # it showed something

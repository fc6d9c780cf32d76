"""Every notebook runs top to bottom at a small size (``BOARDSIM_NOTEBOOK_SCALE=small``).

The committed copies hold the outputs of a full run; here each is executed on a copy in
memory (the files are not rewritten), in a fresh kernel, and must finish without error.
"""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
NAMES = ("01-quickstart", "02-hispania-difficulty", "03-liberation-seats", "04-farrapos-sides")


def test_every_study_is_listed_here() -> None:
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_at_small_size(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOARDSIM_NOTEBOOK_SCALE", "small")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": tmp_path}}
    )
    client.execute()
    errors = [
        out
        for cell in notebook.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "error"
    ]
    assert not errors
    assert any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")

"""Every notebook runs top to bottom at a small size (``BOARDSIM_NOTEBOOK_SCALE=small``).

The committed copies hold the outputs of a full run; here each is executed on a copy in
memory (the files are not rewritten), in a fresh kernel, and must finish without error,
and every cell that draws a figure must show it (an ``image/png`` output), in the run
and in the committed copy.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.subprocess

pytest.importorskip("nbformat")
pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
NAMES = ("01-quickstart", "02-hispania-difficulty", "03-liberation-seats", "04-farrapos-sides")
# a line that draws a figure: pyplot's drawing calls, or the studies' show(report.plot_...)
FIGURE_CALL = re.compile(
    r"^(?!\s*(?:#|def\s))(?:.*\bplt\.(?:figure|imshow|plot|subplots|bar|barh|hist|scatter)\("
    r"|\s*show\()",
    re.MULTILINE,
)


def source_of(cell: Any) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def cells_without_their_figure(cells: list[Any]) -> list[str]:
    """The first line of each code cell that draws a figure but has no image/png output."""
    missing = []
    for cell in cells:
        if cell.get("cell_type") != "code" or not FIGURE_CALL.search(source_of(cell)):
            continue
        kinds = {k for out in cell.get("outputs", []) for k in out.get("data", {})}
        if "image/png" not in kinds:
            missing.append(source_of(cell).splitlines()[0])
    return missing


def test_the_figure_cells_are_recognised() -> None:
    def cell(source: str, *kinds: str) -> dict[str, Any]:
        return {"cell_type": "code", "source": source, "outputs": [{"data": dict.fromkeys(kinds)}]}

    drawn = cell("import x\nplt.imshow(frame)", "image/png")
    blank = cell("plt.figure(figsize=(9, 6))\nplt.imshow(frame)", "text/plain")
    shown = cell('show(report.plot_heatmap, levels, "h.png")')
    helper = cell("def show(plot, summary, path):\n    plot(summary, path)")
    assert cells_without_their_figure([drawn, blank, shown, helper]) == [
        "plt.figure(figsize=(9, 6))",
        'show(report.plot_heatmap, levels, "h.png")',
    ]


@pytest.mark.parametrize("name", NAMES)
def test_the_committed_notebook_keeps_its_figures(name: str) -> None:
    cells = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    assert any(FIGURE_CALL.search(source_of(c)) for c in cells if c["cell_type"] == "code")
    assert not cells_without_their_figure(cells)


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
    assert not cells_without_their_figure(code), "figures drawn but not shown"

"""A damaged cell file of a sweep (cut short mid-row, or a row short) is named, not a
TypeError: the report refuses it saying which file, and a re-run plays that cell again."""

from __future__ import annotations

import csv
import io
import logging
from pathlib import Path

import pytest

from boardsim import DataError
from boardsim.cli import main
from boardsim.research import sweep

GAMES = 4


def farrapos_sweep(out: Path) -> sweep.SweepResult:
    grid = sweep.parse_grid("farrapos", ["victory_vp=14,20"])
    return sweep.run_sweep("farrapos", grid, ["random"], GAMES, out, seed=2)


def _cut(path: Path, keep: int) -> None:
    path.write_bytes(path.read_bytes()[:keep])


@pytest.fixture
def finished(tmp_path: Path) -> tuple[Path, Path, bytes, str]:
    """A finished sweep, one cell file of it, its whole text and the whole table."""
    out = tmp_path / "s"
    farrapos_sweep(out)
    cell = sorted((out / "cells").glob("*.csv"))[0]
    return out, cell, cell.read_bytes(), (out / "results.csv").read_text()


def test_a_cell_cut_mid_row_is_named_by_the_report_and_played_again(
    finished, capsys, caplog
) -> None:
    out, cell, whole, table = finished
    _cut(cell, len(whole) - 25)  # the last row cut in the middle
    with pytest.raises(DataError, match=f"{cell.name}.*cut short.*run the sweep again"):
        sweep.load_results(out)
    assert main(["balance", "report", str(out)]) == 2
    err = capsys.readouterr().err
    assert cell.name in err and "cut short" in err and "TypeError" not in err
    with caplog.at_level(logging.WARNING, logger="boardsim.research.sweep"):
        again = farrapos_sweep(out)
    assert cell.name in caplog.text and "playing the cell again" in caplog.text
    assert (again.played, again.skipped, again.damaged) == (1, 1, [str(cell)])
    assert cell.read_bytes() == whole  # rewritten whole
    assert (out / "results.csv").read_text() == table
    assert not [p for p in (out / "cells").iterdir() if p.name.startswith(".")]  # no tmp file


def test_a_cell_missing_its_last_rows_or_with_a_short_row_is_damaged_too(finished) -> None:
    out, cell, whole, table = finished
    lines = whole.decode().splitlines(keepends=True)
    cell.write_text("".join(lines[:-1]))  # cut at a row's end: one game missing
    with pytest.raises(DataError, match=f"{cell.name}.*3 rows, not the sweep's 4 games"):
        sweep.load_results(out)
    rows = list(csv.reader(io.StringIO(whole.decode())))
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows([rows[0], rows[1][:-3], *rows[2:]])
    cell.write_text(text.getvalue())  # a whole line, three values short
    with pytest.raises(DataError, match=f"{cell.name}: line 2: a row of"):
        sweep.load_results(out)
    again = farrapos_sweep(out)
    assert again.played == 1 and cell.read_bytes() == whole
    assert (out / "results.csv").read_text() == table


def test_a_damaged_cell_of_another_grid_is_named_before_anything_is_played(tmp_path) -> None:
    out = tmp_path / "s"
    farrapos_sweep(out)
    cell = next(p for p in (out / "cells").glob("*.csv") if "victory_vp-20" in p.name)
    _cut(cell, cell.stat().st_size - 10)
    grid = sweep.parse_grid("farrapos", ["victory_vp=14,24"])
    with pytest.raises(DataError, match=f"{cell.name}.*not in this grid"):
        sweep.run_sweep("farrapos", grid, ["random"], GAMES, out, seed=2)
    assert not list((out / "cells").glob("*victory_vp-24*"))

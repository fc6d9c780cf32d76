"""The board's sizes, read from ``connect_four.toml`` and checked (``DataError`` names what
is wrong)."""

from __future__ import annotations

import os
from pathlib import Path

from boardsim.core.data import load_toml, require
from boardsim.core.errors import DataError

# the data file (BOARDSIM_CONNECT_FOUR_DATA points the game at another one)
FILE = Path(
    os.environ.get("BOARDSIM_CONNECT_FOUR_DATA", Path(__file__).with_name("connect_four.toml"))
)
DATA_FILES = (FILE,)


def load(path: Path) -> tuple[int, int, int]:
    """``(rows, columns, connect)`` of the board in ``path``."""
    table = load_toml(path)
    rows = require(table, "rows", int, str(path), "(board)")
    columns = require(table, "columns", int, str(path), "(board)")
    connect = require(table, "connect", int, str(path), "(board)")
    if not 4 <= rows <= 16 or not 4 <= columns <= 16:
        raise DataError(
            str(path), "(board)", f"rows and columns must be 4..16, got {rows}x{columns}"
        )
    if not 3 <= connect <= min(rows, columns):
        raise DataError(
            str(path), "(board)", f"connect must be 3..{min(rows, columns)}, got {connect}"
        )
    return rows, columns, connect


ROWS, COLS, CONNECT = load(FILE)

"""Execute the study notebooks, at full size or small (``BOARDSIM_NOTEBOOK_SCALE=small``).

``python -m boardsim.research.notebooks notebooks/02-hispania-difficulty.ipynb`` runs a
notebook at full size and writes its outputs back (atomically); ``--small`` runs it at
the test suite's size without writing it. The notebooks read the scale from the
environment variable in their first code cell, so the kernel inherits it from here.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SCALE_VARIABLE = "BOARDSIM_NOTEBOOK_SCALE"


def run_notebook(
    path: str | os.PathLike, small: bool = False, write: bool = False, timeout: int = 3600
) -> Any:
    """Execute ``path`` in a fresh ``python3`` kernel; return the executed notebook.

    Raises nbclient's ``CellExecutionError`` at the first failing cell. With ``write``
    the executed notebook replaces the file (temp file + ``os.replace``).
    """
    import nbclient
    import nbformat

    from boardsim.files import atomic_write_text

    path = Path(path)
    notebook = nbformat.read(path, as_version=4)
    old = os.environ.get(SCALE_VARIABLE)
    os.environ[SCALE_VARIABLE] = "small" if small else "full"
    os.environ.setdefault("MPLBACKEND", "Agg")
    try:
        with tempfile.TemporaryDirectory() as work:
            nbclient.NotebookClient(
                notebook,
                timeout=timeout,
                kernel_name="python3",
                resources={"metadata": {"path": work}},
            ).execute()
    finally:
        if old is None:
            os.environ.pop(SCALE_VARIABLE, None)
        else:
            os.environ[SCALE_VARIABLE] = old
    if write:
        text = nbformat.writes(notebook)
        atomic_write_text(path, text if text.endswith("\n") else text + "\n")  # as nbformat.write
    return notebook


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m boardsim.research.notebooks NB.ipynb ... [--small]``: run notebooks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", help="the .ipynb files")
    parser.add_argument("--small", action="store_true", help="the test suite's size; no write")
    args = parser.parse_args(argv)
    for name in args.notebooks:
        run_notebook(name, small=args.small, write=not args.small)
        print(f"ran {name}" + (" (small)" if args.small else ", outputs written"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

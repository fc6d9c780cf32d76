"""Execute the study notebooks, at full size or small (``BOARDSIM_NOTEBOOK_SCALE=small``).

``python -m boardsim.research.notebooks notebooks/02-hispania-difficulty.ipynb`` runs a
notebook at full size and writes its outputs back (atomically); ``--small`` runs it at
the test suite's size without writing it. The notebooks read the scale from the
environment variable in their first code cell, so the kernel inherits it from here.
Figures are drawn with the inline backend (``MPLBACKEND``, set for the kernel whatever
the caller's is), so each ``plt`` figure is kept in the notebook as an ``image/png``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boardsim.files import atomic_write_text

SCALE_VARIABLE = "BOARDSIM_NOTEBOOK_SCALE"
# the kernel's matplotlib backend: the inline one shows each figure as an image/png output
# at the end of its cell (Agg, a test run's usual backend, would draw it nowhere)
INLINE_BACKEND = "module://matplotlib_inline.backend_inline"


def run_notebook(
    path: str | os.PathLike, small: bool = False, write: bool = False, timeout: int = 3600
) -> Any:
    """Execute ``path`` in a fresh ``python3`` kernel; return the executed notebook.

    Raises nbclient's ``CellExecutionError`` at the first failing cell. With ``write``
    the executed notebook replaces the file (temp file + ``os.replace``).
    """
    import nbclient
    import nbformat

    path = Path(path)
    notebook = nbformat.read(path, as_version=4)
    kernel_env = {SCALE_VARIABLE: "small" if small else "full", "MPLBACKEND": INLINE_BACKEND}
    old = {name: os.environ.get(name) for name in kernel_env}
    os.environ.update(kernel_env)  # the kernel inherits the environment
    try:
        with tempfile.TemporaryDirectory() as work:
            nbclient.NotebookClient(
                notebook,
                timeout=timeout,
                kernel_name="python3",
                resources={"metadata": {"path": work}},
            ).execute()
    finally:
        for name, value in old.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
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

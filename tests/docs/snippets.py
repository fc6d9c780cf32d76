"""The one way the docs tests run a page's code: its ```python blocks, each (or several
joined) in a fresh interpreter with this checkout's sources first on the path, as a reader
pasting them would."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SNIPPET_SECONDS = 900  # a cold numba cache compiles each game a snippet uses


def python_blocks(text: str) -> list[str]:
    """The code of every fenced ```python block, in order."""
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


def run_python(
    code: str, cwd: Path, timeout: float = SNIPPET_SECONDS, **env: str
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter in ``cwd`` (``src/`` first on the path,
    matplotlib headless, ``env`` added); what it printed and its status."""
    environ = dict(os.environ)
    path = [str(ROOT / "src"), *filter(None, [environ.get("PYTHONPATH")])]
    environ["PYTHONPATH"] = os.pathsep.join(path)
    environ.setdefault("MPLBACKEND", "Agg")
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=timeout,
    )

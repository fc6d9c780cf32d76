"""Files a user keeps (results, checkpoints, replays, reports, pictures): whole or not at all.

Every writer of the library goes through :func:`atomic_write` and its helpers: the
content goes to a temporary file in the target's folder, is flushed to disk, and
is renamed over the target (``os.replace``, atomic on one file system). A crash or
an error leaves either the old file or the new one, never half of one, and no
temporary file behind. New files get the mode a plain ``open(path, "w")`` would
give them (0666 less the umask), not ``mkstemp``'s private 0600.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any


def usual_file_mode() -> int:
    """The mode a plain ``open(path, "w")`` would give a new file (0666 less the umask)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write(path: str | os.PathLike[str], write: Callable[[str], None]) -> None:
    """Make ``path`` by ``write(temporary_path)``, then rename it over ``path``.

    ``write`` writes the whole content to the temporary path it is given (for
    libraries that write to a file name themselves: PIL, nbformat).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.close(fd)
        os.chmod(tmp, usual_file_mode())
        write(tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (:func:`atomic_write`)."""

    def write(tmp: str) -> None:
        with open(tmp, "wb") as fh:
            fh.write(data)

    atomic_write(path, write)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8, line ends as given) to ``path`` whole or not at all."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: str | os.PathLike[str], value: Any, indent: int | None = 2) -> None:
    """Write ``value`` as JSON (and a final newline) to ``path`` whole or not at all."""
    atomic_write_text(path, json.dumps(value, indent=indent) + "\n")

"""Finding and reading the games' TOML data files, with clear errors."""

from __future__ import annotations

import hashlib
import os
import tomllib
from pathlib import Path
from typing import Any

from boardsim.core.errors import DataError

_REPO_ENVS = Path(__file__).resolve().parents[3] / "envs"
_PACKAGED_ENVS = Path(__file__).resolve().parents[1] / "envs"


def data_root() -> Path:
    """Where the ``envs/`` data lives: ``$BOARDSIM_ENVS``, the wheel's copy, or the checkout."""
    env = os.environ.get("BOARDSIM_ENVS")
    if env:
        return Path(env)
    if _PACKAGED_ENVS.is_dir():
        return _PACKAGED_ENVS
    return _REPO_ENVS


def data_path(game: str, filename: str) -> Path:
    """The path of ``envs/<game>/<filename>``."""
    return data_root() / game / filename


def load_toml(path: Path | str) -> dict[str, Any]:
    """Parse a TOML file; a missing or malformed file raises :class:`DataError`."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise DataError(str(p), "(file)", "not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(str(p), "(syntax)", str(exc)) from None


def require(
    table: dict[str, Any], key: str, kind: type | tuple[type, ...], file: str, entry: str
) -> Any:
    """``table[key]``, checked to be of ``kind``; else :class:`DataError` naming the entry."""
    if key not in table:
        raise DataError(file, entry, f"missing field {key!r}")
    value = table[key]
    if isinstance(value, bool) and kind is int:
        raise DataError(file, entry, f"field {key!r} must be an int, got {value!r}")
    if not isinstance(value, kind):
        raise DataError(file, entry, f"field {key!r} must be {kind}, got {value!r}")
    return value


def source_fingerprint(files: list[Path]) -> str:
    """A digest of the names and contents of ``files`` (those missing are skipped)."""
    digest = hashlib.sha256()
    for path in sorted({Path(f).resolve() for f in files}):
        if path.exists():
            digest.update(str(path.name).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def forget_stale_compiled_code(
    stamp_dir: Path | str, fingerprint: str, cache_dirs: list[Path | str]
) -> bool:
    """Drop the compiled code cached in ``cache_dirs`` unless the fingerprint kept in
    ``stamp_dir`` is ``fingerprint``; then keep ``fingerprint`` there.

    A game's kernels freeze its data (as constant arrays) and the code of every kernel
    they call into numba's cache, and numba's cache notices neither a changed data file
    nor a change in a file other than the function's own. So each game keeps a
    fingerprint of its data files and sources (:class:`boardsim.core.kernels.GameKernels`
    derives both) beside its cache; on a mismatch its cached kernels (``*.nbi``/``*.nbc``
    of ``cache_dirs``) are deleted before anything is compiled or loaded. Returns True
    when something was dropped.
    """
    stamp = Path(stamp_dir) / "boardsim-data.sha256"
    try:
        if stamp.read_text() == fingerprint:
            return False
    except OSError:
        pass
    dropped = False
    try:
        for folder in {Path(d) for d in cache_dirs}:
            if not folder.is_dir():
                continue
            for pattern in ("*.nbi", "*.nbc"):
                for old in folder.glob(pattern):
                    old.unlink(missing_ok=True)
                    dropped = True
        stamp.parent.mkdir(parents=True, exist_ok=True)
        tmp = stamp.with_suffix(".tmp")
        tmp.write_text(fingerprint)
        os.replace(tmp, stamp)
    except OSError:  # a read-only install: numba then caches elsewhere or not at all
        return dropped
    return dropped

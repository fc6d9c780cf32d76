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


# Source files whose code ends up in a game's compiled kernels although numba only
# watches the file a kernel is defined in: the engine template and the game's
# policy are compiled with rules.py as their home, and constants and kernels come
# from data.py, layout.py and the core. A change to any of them drops the cache.
COMPILED_GAME_SOURCES = ("rules.py", "policy.py", "search.py", "layout.py", "data.py")
COMPILED_CORE_SOURCES = (
    "engine_template.py",
    "mcts_template.py",
    "engine.py",
    "rng.py",
    "header.py",
    "jit.py",
)


def forget_stale_compiled_code(package_file: str, data_files: list[Path]) -> bool:
    """Drop a game's on-disk numba cache when its data files (or the sources compiled
    into its kernels, ``COMPILED_*_SOURCES``) changed since it was compiled.

    The compiled kernels freeze the data (as constant arrays) into the cache, and
    numba's cache does not notice a changed data file, nor a change in a file other
    than the kernel's own. So each game records a fingerprint of those files beside
    its cache; on a mismatch its cached
    kernels (``*.nbi``/``*.nbc`` of that package) are deleted before anything is
    compiled or loaded. Returns True when something was dropped.
    """
    package = Path(package_file).resolve().parent
    core = Path(__file__).resolve().parent
    sources = [package / name for name in COMPILED_GAME_SOURCES] + [
        core / name for name in COMPILED_CORE_SOURCES
    ]
    digest = hashlib.sha256()
    for path in sorted(Path(f) for f in data_files) + [s for s in sources if s.exists()]:
        digest.update(str(path.name).encode())
        digest.update(Path(path).read_bytes())
    fingerprint = digest.hexdigest()
    cache = Path(package_file).resolve().parent / "__pycache__"
    stamp = cache / "boardsim-data.sha256"
    try:
        if stamp.read_text() == fingerprint:
            return False
    except OSError:
        pass
    dropped = False
    try:
        cache.mkdir(exist_ok=True)
        for pattern in ("*.nbi", "*.nbc"):
            for old in cache.glob(pattern):
                old.unlink(missing_ok=True)
                dropped = True
        tmp = stamp.with_suffix(".tmp")
        tmp.write_text(fingerprint)
        os.replace(tmp, stamp)
    except OSError:  # a read-only install: numba then caches elsewhere or not at all
        return dropped
    return dropped

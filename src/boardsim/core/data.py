"""Finding and reading the games' TOML data files, with clear errors."""

from __future__ import annotations

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

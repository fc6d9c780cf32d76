"""Training checkpoints: one zip file each, written atomically, with a ``latest`` pointer.

A checkpoint is the zip file stable-baselines3 writes for a model (policy,
optimizer, timestep count, ...) with two more entries:

- ``boardsim.json``: what the model was trained for (game, options, observation
  size, action count, seat, opponents), the training configuration and the
  timesteps and wall time so far. :func:`read_metadata` reads it without torch.
- ``boardsim_resume.npz``: what a resumed run needs to continue exactly where the
  interrupted one was: the vector env's game states and game counter, the
  opponents' generators, the episode accumulators, and the torch, numpy and
  Python random generator states.

Checkpoints live in ``RUN_DIR/checkpoints/step_<timesteps>.zip``; the file
``RUN_DIR/checkpoints/latest`` names the newest one. Every file is written to a
temporary file in the same folder, flushed to disk and renamed over the target
(``os.replace``), so a crash leaves either the old file or the new one, never
half of one.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import zipfile
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.core.errors import OptionError, StateFormatError
from boardsim.files import atomic_write_bytes, atomic_write_text

CHECKPOINT_FORMAT = 1
METADATA_ENTRY = "boardsim.json"
RESUME_ENTRY = "boardsim_resume.npz"
CHECKPOINT_DIR = "checkpoints"
LATEST_NAME = "latest"
# options that change nothing the policy sees or may do (the safety cap on a game's length, what
# the trainer was rewarded with): a checkpoint plays with any value of them
NEUTRAL_OPTIONS = ("max_decisions", "reward")


def checkpoint_name(timesteps: int) -> str:
    """The file name of the checkpoint taken after ``timesteps`` steps (sorts by step)."""
    return f"step_{timesteps:012d}.zip"


def write_checkpoint(
    run_dir: str | os.PathLike[str],
    model_zip: bytes,
    metadata: dict[str, Any],
    resume: dict[str, np.ndarray],
    keep: int,
    name: str | None = None,
) -> Path:
    """Store one checkpoint of a run, point ``latest`` at it and keep only the newest ``keep``
    (of the checkpoints named like it).

    ``model_zip`` is what SB3's ``model.save`` wrote (or any zip of the run's own
    entries); the metadata and the resume arrays are added to it as two more entries.
    ``name``: the file's name (default ``step_<timesteps>.zip``). Returns its path.
    """
    if keep < 1:
        raise OptionError(f"keep at least one checkpoint, got keep={keep}")
    folder = Path(run_dir) / CHECKPOINT_DIR
    buffer = io.BytesIO(model_zip)
    with zipfile.ZipFile(buffer, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        meta = {"format": CHECKPOINT_FORMAT, **metadata}
        archive.writestr(METADATA_ENTRY, json.dumps(meta, indent=2, sort_keys=True))
        arrays = io.BytesIO()
        np.savez(arrays, **resume)
        archive.writestr(RESUME_ENTRY, arrays.getvalue())
    path = folder / (name or checkpoint_name(int(metadata["timesteps"])))
    atomic_write_bytes(path, buffer.getvalue())
    atomic_write_text(folder / LATEST_NAME, path.name + "\n")
    prefix = path.name.split("_")[0]
    for old in sorted(folder.glob(f"{prefix}_*.zip"))[:-keep]:
        if old != path:
            old.unlink()
    return path


def latest_checkpoint(run_dir: str | os.PathLike[str]) -> Path | None:
    """The checkpoint ``latest`` names in ``run_dir``, or None if the run has none yet."""
    pointer = Path(run_dir) / CHECKPOINT_DIR / LATEST_NAME
    if not pointer.exists():
        return None
    path = pointer.parent / pointer.read_text().strip()
    if not path.is_file():
        raise StateFormatError(f"{pointer} names {path.name}, which does not exist")
    return path


def resolve_checkpoint(path: str | os.PathLike[str]) -> Path:
    """A checkpoint file from a path to one, to a run folder (its latest checkpoint) or to
    a run's ``checkpoints/latest`` pointer (the checkpoint it names).

    The file is checked whole (every entry's checksum): a damaged one (a truncated copy,
    say) raises :class:`StateFormatError` naming it and the newest readable checkpoint
    the run kept beside it, if any.
    """
    p = Path(path)
    if p.is_dir():
        found = latest_checkpoint(p)
        if found is None:
            raise StateFormatError(f"{p} holds no checkpoint ({CHECKPOINT_DIR}/{LATEST_NAME})")
        p = found
    elif p.name == LATEST_NAME and p.is_file():
        found = latest_checkpoint(p.parent.parent)
        assert found is not None  # the pointer exists
        p = found
    if not p.is_file():
        raise StateFormatError(f"no checkpoint at {p}")
    problem = _damage(p)
    if problem is not None:
        raise StateFormatError(f"checkpoint {p} is damaged ({problem}){_previous_hint(p)}")
    return p


def _damage(path: Path) -> str | None:
    """What is wrong with the zip file at ``path`` (not a zip, an entry that fails its
    checksum), or None if it reads whole."""
    try:
        with zipfile.ZipFile(path) as archive:
            bad = archive.testzip()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        return f"not a readable zip file: {exc}"
    return None if bad is None else f"its entry {bad} fails its checksum"


def _previous_hint(damaged: Path) -> str:
    """``"; the run kept ..."``: the newest other readable checkpoint of the same kind in
    the folder, and how to use it; "" if there is none."""
    prefix = damaged.name.split("_")[0]
    for other in sorted(damaged.parent.glob(f"{prefix}_*.zip"), reverse=True):
        if other != damaged and _damage(other) is None:
            pointer = damaged.parent / LATEST_NAME
            return (
                f"; the run kept an earlier checkpoint, {other}: play it by its path, or "
                f"resume from it by writing its name, {other.name}, into {pointer}"
            )
    return "; the run kept no other readable checkpoint"


def _open_archive(path: Path) -> zipfile.ZipFile:
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise StateFormatError(f"{path} is not a boardsim checkpoint: {exc}") from None
    if METADATA_ENTRY not in archive.namelist():
        archive.close()
        raise StateFormatError(f"{path} is not a boardsim checkpoint (no {METADATA_ENTRY})")
    return archive


def read_metadata(path: str | os.PathLike[str]) -> dict[str, Any]:
    """What the checkpoint at ``path`` (file or run folder) was trained for; no torch needed."""
    p = resolve_checkpoint(path)
    with _open_archive(p) as archive:
        try:
            meta = json.loads(archive.read(METADATA_ENTRY))
        except (json.JSONDecodeError, zipfile.BadZipFile) as exc:
            raise StateFormatError(f"{p}: unreadable {METADATA_ENTRY}: {exc}") from None
    if meta.get("format") != CHECKPOINT_FORMAT:
        raise StateFormatError(
            f"{p}: checkpoint format {meta.get('format')!r}; "
            f"this boardsim reads format {CHECKPOINT_FORMAT}"
        )
    return meta


def read_entry(path: str | os.PathLike[str], name: str) -> bytes:
    """The bytes of entry ``name`` of the checkpoint at ``path`` (file or run folder)."""
    p = resolve_checkpoint(path)
    with _open_archive(p) as archive:
        if name not in archive.namelist():
            raise StateFormatError(f"{p} has no {name}")
        return archive.read(name)


def read_resume_arrays(path: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """The arrays a resumed run restores (env states, generators, ...)."""
    p = resolve_checkpoint(path)
    with _open_archive(p) as archive:
        if RESUME_ENTRY not in archive.namelist():
            raise StateFormatError(f"{p} has no {RESUME_ENTRY}: it cannot be resumed")
        with np.load(io.BytesIO(archive.read(RESUME_ENTRY))) as data:
            return {k: data[k] for k in data.files}


class TrainedOptionsError(OptionError):
    """A network or checkpoint trained with other options than the game it is to play;
    the message names how to play it anyway (``remedy``: the Python argument, or a
    command's flag, :meth:`with_remedy`)."""

    def __init__(self, what: str, remedy: str = "strict_options=False") -> None:
        self.what = what
        super().__init__(f"{what}; pass {remedy} to use it anyway")

    def with_remedy(self, remedy: str) -> TrainedOptionsError:
        """The same refusal, naming ``remedy`` (e.g. ``--ppo-any-options``)."""
        return TrainedOptionsError(self.what, remedy)


def game_metadata(game: Any) -> dict[str, Any]:
    """What a checkpoint or an exported network records of its game (what
    :func:`check_compatible` reads back): the game and its version, the options, the
    sizes."""
    return {
        "game": game.name,
        "game_version": game.definition.version,
        "options": game.options,
        "observation_size": game.observation_size,
        "num_actions": game.num_actions,
        "num_players": game.num_players,
    }


def check_compatible(
    meta: dict[str, Any],
    game_name: str,
    options: dict[str, Any],
    observation_size: int,
    num_actions: int,
    strict_options: bool = True,
    where: str = "checkpoint",
) -> None:
    """Refuse, with an :class:`OptionError` saying why, a checkpoint made for another game.

    The game, the observation size and the action count must match; so must the
    options (except those in ``NEUTRAL_OPTIONS``) unless ``strict_options`` is False
    (e.g. a Hispania policy played at another difficulty level).
    """
    if meta.get("game") != game_name:
        raise OptionError(f"{where} was trained for {meta.get('game')!r}, not {game_name!r}")
    if meta.get("observation_size") != observation_size or meta.get("num_actions") != num_actions:
        raise OptionError(
            f"{where} expects observations of {meta.get('observation_size')} values and "
            f"{meta.get('num_actions')} actions; this {game_name} has {observation_size} and "
            f"{num_actions} (another version of the game?)"
        )
    if not strict_options:
        return
    trained = {k: v for k, v in meta.get("options", {}).items() if k not in NEUTRAL_OPTIONS}
    given = {k: v for k, v in options.items() if k not in NEUTRAL_OPTIONS}
    if trained != given:
        diff = sorted(k for k in set(trained) | set(given) if trained.get(k) != given.get(k))
        shown = ", ".join(f"{k}: trained {trained.get(k)!r}, given {given.get(k)!r}" for k in diff)
        raise TrainedOptionsError(
            f"{where} was trained with other options of {game_name} ({shown})"
        )


def set_by_caller(given: Any, explicit: Mapping[str, str] | None = None) -> Mapping[str, str]:
    """The settings the caller of a run set, each with its name for a message:
    ``explicit`` when given (a command's flags), else every setting with a default that
    ``given`` (a dataclass) sets otherwise, under its own name."""
    if explicit is not None:
        return explicit
    return {
        f.name: f.name
        for f in dataclasses.fields(given)
        if _has_default(f) and getattr(given, f.name) != _field_default(f)
    }


def changed_settings(
    saved: Any,
    given: Any,
    may_change: Collection[str],
    explicit: Mapping[str, str] | None = None,
) -> list[str]:
    """The settings of ``given`` (a run's configuration, a dataclass) that differ from the
    ``saved`` one's, as ``"NAME: OLD -> NEW"``, leaving out those in ``may_change``.

    Only the settings the caller set are compared: ``explicit`` maps each one to its
    name in the message (a command's flag, e.g. ``{"learning_rate": "--lr"}``); without
    it, every setting with a default that is given otherwise, under its own name.
    """
    changes = []
    for name, label in set_by_caller(given, explicit).items():
        if name in may_change:
            continue
        old, new = getattr(saved, name), getattr(given, name)
        if old != new:
            changes.append(f"{label}: {old!r} -> {new!r}")
    return changes


def refuse_changed_settings(
    run_dir: str | os.PathLike[str],
    saved: Any,
    given: Any,
    may_change: Collection[str],
    explicit: Mapping[str, str] | None = None,
) -> None:
    """Raise :class:`OptionError` naming every setting a resume of the run in ``run_dir``
    would change (:func:`changed_settings`): a resumed run trains on exactly as it began."""
    changes = changed_settings(saved, given, may_change, explicit)
    if changes:
        raise OptionError(
            f"{run_dir}: a resumed run trains on with the settings it began with, and these "
            f"differ from them ({'; '.join(changes)}); resume without them, or train with "
            "them as a new run in another run folder"
        )


def resume_settings(
    given: Any,
    saved: Any,
    may_change: Collection[str],
    explicit: Mapping[str, str] | None = None,
    keep_unless_given: Collection[str] = (),
) -> Any:
    """A resumed run's configuration: ``saved`` (the run's own, a dataclass with ``game``,
    ``run_dir`` and ``options``) with ``given``'s run folder and its values of the
    settings in ``may_change``, except those of ``keep_unless_given`` the caller did not
    set (:func:`set_by_caller`; a run's budget: a resume without ``--iterations`` trains
    to the run's own count). Another game, other game options, or any other setting
    given another value (:func:`refuse_changed_settings`) raise :class:`OptionError`."""
    if given.game != saved.game:
        raise OptionError(f"{given.run_dir} is a run of {saved.game!r}, not {given.game!r}")
    if given.options and given.options != saved.options:
        raise OptionError(
            f"{given.run_dir} was trained with options {saved.options}; resume it with the same "
            f"(or none), not {given.options}"
        )
    identity = ("game", "run_dir", "options")  # checked above
    refuse_changed_settings(given.run_dir, saved, given, (*identity, *may_change), explicit)
    saved.run_dir = given.run_dir
    caller = set_by_caller(given, explicit)
    for name in may_change:
        if name not in keep_unless_given or name in caller:
            setattr(saved, name, getattr(given, name))
    return saved


def _has_default(f: dataclasses.Field) -> bool:
    return f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING


def _field_default(f: dataclasses.Field) -> Any:
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


# entries of a full checkpoint that only a resumed training run needs
TRAINING_ONLY_ENTRIES = ("policy.optimizer.pth", RESUME_ENTRY)


def export_policy(checkpoint: str | os.PathLike[str], target: str | os.PathLike[str]) -> Path:
    """Write a small copy of a checkpoint to play with: no optimizer state, no resume arrays.

    The copy loads as an agent (``ppo:TARGET``) but cannot resume training.
    """
    source = resolve_checkpoint(checkpoint)
    meta = read_metadata(source)
    meta["policy_only"] = True
    out = io.BytesIO()
    with (
        _open_archive(source) as archive,
        zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as slim,
    ):
        for name in archive.namelist():
            if name in TRAINING_ONLY_ENTRIES:
                continue
            data = archive.read(name)
            if name == METADATA_ENTRY:
                data = json.dumps(meta, indent=2, sort_keys=True).encode()
            slim.writestr(name, data)
    atomic_write_bytes(target, out.getvalue())
    return Path(target)

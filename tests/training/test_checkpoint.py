"""Checkpoint files: atomic writes, the latest pointer, the last few kept, clear refusals."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest

import boardsim
from boardsim.training.checkpoint import (
    atomic_write_text,
    check_compatible,
    latest_checkpoint,
    read_metadata,
    read_resume_arrays,
    resolve_checkpoint,
    write_checkpoint,
)


def _model_zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("data", "{}")
    return out.getvalue()


def _meta(timesteps: int) -> dict:
    return {
        "game": "liberation",
        "options": {"num_players": 2, "max_decisions": 0},
        "observation_size": 10,
        "num_actions": 4,
        "timesteps": timesteps,
    }


def test_checkpoints_keep_the_newest_and_point_latest_at_it(tmp_path) -> None:
    for t in (100, 200, 300, 400):
        write_checkpoint(tmp_path, _model_zip(), _meta(t), {"x": np.arange(t)}, keep=2)
    folder = tmp_path / "checkpoints"
    assert sorted(p.name for p in folder.glob("step_*.zip")) == [
        "step_000000000300.zip",
        "step_000000000400.zip",
    ]
    latest = latest_checkpoint(tmp_path)
    assert latest is not None and latest.name == "step_000000000400.zip"
    assert resolve_checkpoint(tmp_path) == latest
    assert read_metadata(tmp_path)["timesteps"] == 400
    assert read_resume_arrays(latest)["x"].size == 400
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_an_interrupted_write_leaves_the_old_file_whole(tmp_path, monkeypatch) -> None:
    target = tmp_path / "results.json"
    atomic_write_text(target, "old")

    def fail(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr("os.replace", fail)
    with pytest.raises(OSError):
        atomic_write_text(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]


def test_not_a_checkpoint_is_refused_clearly(tmp_path) -> None:
    bogus = tmp_path / "model.zip"
    bogus.write_bytes(b"not a zip")
    with pytest.raises(boardsim.StateFormatError, match="not a readable zip file"):
        read_metadata(bogus)
    with pytest.raises(boardsim.StateFormatError, match="no checkpoint"):
        read_metadata(tmp_path / "missing.zip")
    with pytest.raises(boardsim.StateFormatError, match="holds no checkpoint"):
        resolve_checkpoint(tmp_path)
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("boardsim.json", json.dumps({"format": 99}))
    with pytest.raises(boardsim.StateFormatError, match="format 99"):
        read_metadata(other)


def test_the_latest_pointer_is_followed_wherever_a_checkpoint_path_is_taken(tmp_path) -> None:
    """Issue 38: ``alphazero:RUN/checkpoints/latest`` was refused as "not a boardsim
    checkpoint: File is not a zip file"."""
    for t in (100, 200):
        write_checkpoint(tmp_path, _model_zip(), _meta(t), {"x": np.arange(t)}, keep=2)
    pointer = tmp_path / "checkpoints" / "latest"
    assert resolve_checkpoint(pointer).name == "step_000000000200.zip"
    assert read_metadata(pointer)["timesteps"] == 200


def test_a_damaged_checkpoint_is_named_and_the_previous_one_offered(tmp_path) -> None:
    """Issue 38: a truncated checkpoint gave SB3's "wasn't a zip-file"."""
    for t in (100, 200):
        write_checkpoint(tmp_path, _model_zip(), _meta(t), {"x": np.arange(t)}, keep=2)
    folder = tmp_path / "checkpoints"
    newest = folder / "step_000000000200.zip"
    newest.write_bytes(newest.read_bytes()[:-40])  # truncated, as by a full disk
    for path in (tmp_path, folder / "latest", newest):
        with pytest.raises(boardsim.StateFormatError) as err:
            read_metadata(path)
        text = str(err.value)
        assert f"checkpoint {newest} is damaged" in text
        assert f"an earlier checkpoint, {folder / 'step_000000000100.zip'}" in text
        assert f"step_000000000100.zip, into {folder / 'latest'}" in text
    (folder / "step_000000000100.zip").write_bytes(b"")
    with pytest.raises(boardsim.StateFormatError, match="kept no other readable checkpoint"):
        resolve_checkpoint(newest)


def test_compatibility_names_what_differs() -> None:
    meta = _meta(1)
    check_compatible(meta, "liberation", {"num_players": 2, "max_decisions": 500}, 10, 4)
    with pytest.raises(boardsim.OptionError, match="trained for 'liberation'"):
        check_compatible(meta, "farrapos", {}, 10, 4)
    with pytest.raises(boardsim.OptionError, match="observations of 10 values"):
        check_compatible(meta, "liberation", {"num_players": 2}, 11, 4)
    with pytest.raises(boardsim.OptionError, match="num_players: trained 2, given 3"):
        check_compatible(meta, "liberation", {"num_players": 3}, 10, 4)
    check_compatible(meta, "liberation", {"num_players": 3}, 10, 4, strict_options=False)

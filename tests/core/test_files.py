"""Saved files are written whole or not at all (``boardsim.files``)."""

from __future__ import annotations

import json
import os

import pytest

from boardsim.files import atomic_write, atomic_write_json, atomic_write_text, usual_file_mode


def test_a_written_file_has_the_content_and_the_usual_mode(tmp_path) -> None:
    target = tmp_path / "sub" / "results.json"
    atomic_write_json(target, {"wins": 3})
    assert json.loads(target.read_text()) == {"wins": 3}
    assert target.stat().st_mode & 0o777 == usual_file_mode()
    assert [p.name for p in target.parent.iterdir()] == ["results.json"]


def test_a_failed_writer_leaves_the_old_file_and_no_temporary(tmp_path) -> None:
    target = tmp_path / "replay.jsonl"
    atomic_write_text(target, "old\n")

    def half_then_fail(tmp: str) -> None:
        with open(tmp, "w") as fh:
            fh.write("half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        atomic_write(target, half_then_fail)
    assert target.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["replay.jsonl"]


def test_text_is_utf8_and_keeps_its_line_ends(tmp_path) -> None:
    target = tmp_path / "a.csv"
    atomic_write_text(target, "São Paulo,1\r\n")
    assert target.read_bytes() == "São Paulo,1\r\n".encode()

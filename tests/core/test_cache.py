"""A changed data file makes the game's compiled cache be dropped, never silently reused."""

from __future__ import annotations

from pathlib import Path

from boardsim.core.data import forget_stale_compiled_code


def test_cache_is_dropped_when_the_data_changes(tmp_path: Path) -> None:
    pkg = tmp_path / "game"
    (pkg / "__pycache__").mkdir(parents=True)
    module = pkg / "data.py"
    module.write_text("")
    data = tmp_path / "game.toml"
    data.write_text("a = 1\n")
    cached = pkg / "__pycache__" / "rules.step-10.py311.nbi"
    forget_stale_compiled_code(str(module), [data])  # first sight: stamp written
    cached.write_text("compiled")
    assert not forget_stale_compiled_code(str(module), [data])
    assert cached.exists()
    data.write_text("a = 2\n")
    assert forget_stale_compiled_code(str(module), [data])
    assert not cached.exists()
    assert not forget_stale_compiled_code(str(module), [data])

"""A changed data file or source drops the game's compiled cache, never silently reused."""

from __future__ import annotations

from pathlib import Path

import boardsim
from boardsim.core.data import forget_stale_compiled_code


def test_cache_is_dropped_when_a_source_or_data_file_changes(tmp_path: Path) -> None:
    pkg = tmp_path / "game"
    cache = pkg / "__pycache__"
    core_cache = tmp_path / "core" / "__pycache__"
    cache.mkdir(parents=True)
    core_cache.mkdir(parents=True)
    module = pkg / "rules.py"
    module.write_text("")
    data = tmp_path / "game.toml"
    data.write_text("a = 1\n")
    sources = [module, data]
    forget_stale_compiled_code(cache, sources, [cache, core_cache])  # first sight: stamp written
    cached = cache / "rules.step-10.py311.nbi"
    engine_cached = core_cache / "engine.step-93.py311.1.nbc"
    cached.write_text("compiled")
    engine_cached.write_text("compiled")
    assert not forget_stale_compiled_code(cache, sources, [cache, core_cache])
    assert cached.exists() and engine_cached.exists()
    data.write_text("a = 2\n")
    assert forget_stale_compiled_code(cache, sources, [cache, core_cache])
    assert not cached.exists() and not engine_cached.exists()
    assert not forget_stale_compiled_code(cache, sources, [cache, core_cache])
    engine_cached.write_text("compiled")
    module.write_text("# a changed rule\n")
    assert forget_stale_compiled_code(cache, sources, [cache, core_cache])
    assert not engine_cached.exists()


def test_every_source_of_a_game_and_of_the_engine_is_fingerprinted() -> None:
    """Derived from the bundle, not a hand list: the game's folder and boardsim/core."""
    kernels = boardsim.make_game("hispania").kernels
    names = {(p.parent.name, p.name) for p in kernels.sources}
    for expected in [
        ("hispania", "rules.py"),
        ("hispania", "policy.py"),
        ("hispania", "search.py"),
        ("hispania", "layout.py"),
        ("hispania", "data.py"),
        ("core", "engine.py"),
        ("core", "mcts.py"),
        ("core", "rng.py"),
        ("core", "header.py"),
    ]:
        assert expected in names
    assert all(p.name.endswith(".toml") for p in kernels.data_files)
    assert {p.name for p in kernels.data_files} == {"board.toml", "rules.toml", "scenarios.toml"}

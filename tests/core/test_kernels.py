"""A game's bundle of kernels built from its package by convention (GameKernels.from_package):
the three games write no bundle module, and what only the Python side reads never
recompiles their engines."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import boardsim
from boardsim.core.kernels import USUAL_LAYOUT, GameKernels, bundle, is_game_package


@pytest.mark.parametrize("name", ["farrapos", "hispania", "liberation"])
def test_a_game_laid_out_the_usual_way_gets_its_bundle_from_its_package(name: str) -> None:
    package = f"boardsim.games.{name}"
    kernels = boardsim.make_game(name).kernels
    assert boardsim.make_game(name).definition.kernels == package
    assert kernels.module == kernels.package == package
    assert bundle(package) is kernels is GameKernels.from_package(package)  # built once
    assert pickle.loads(pickle.dumps(kernels)) is kernels
    folder = Path(boardsim.__file__).parent / "games" / name
    assert not (folder / "engine.py").exists()
    sources = {p.name for p in kernels.sources if p.parent == folder}
    assert {f"{m}.py" for m in USUAL_LAYOUT} <= sources
    # the definition, the balance questions and the words are the Python side's: editing
    # them changes no fingerprint, so no engine is compiled again
    assert sources.isdisjoint({"__init__.py", "balance.py", "names.py", "reference.py"})


def test_a_package_missing_part_of_the_layout_is_refused_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = tmp_path / "half_a_game"
    game.mkdir()
    (game / "__init__.py").write_text("")
    (game / "rules.py").write_text("")
    (game / "layout.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert not is_game_package("half_a_game")
    assert not is_game_package("boardsim.core")
    with pytest.raises(TypeError, match="missing policy, search, validate, data"):
        GameKernels.from_package("half_a_game")
    with pytest.raises(LookupError, match="builds no GameKernels"):
        bundle("half_a_game")

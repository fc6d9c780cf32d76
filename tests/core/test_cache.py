"""A changed data file or source drops the game's compiled cache, never silently reused."""

from __future__ import annotations

import ast
import os
import time
from pathlib import Path

import pytest

import boardsim
from boardsim.core.data import forget_stale_compiled_code, source_fingerprint
from boardsim.core.kernels import import_statements

PACKAGE = Path(boardsim.__file__).parent


def test_cache_is_dropped_when_a_source_or_data_file_changes(tmp_path: Path) -> None:
    cache = tmp_path / "game" / "__pycache__"
    cache.mkdir(parents=True)
    module = tmp_path / "game" / "rules.py"
    module.write_text("")
    data = tmp_path / "game.toml"
    data.write_text("a = 1\n")
    files = [module, data]
    first = source_fingerprint(files)
    forget_stale_compiled_code(cache, first, [cache])  # first sight: stamp written
    cached = cache / "rules.step-10.py311.nbi"
    cached.write_text("compiled")
    assert not forget_stale_compiled_code(cache, source_fingerprint(files), [cache])
    assert cached.exists()
    data.write_text("a = 2\n")
    assert source_fingerprint(files) != first
    assert forget_stale_compiled_code(cache, source_fingerprint(files), [cache])
    assert not cached.exists()
    assert not forget_stale_compiled_code(cache, source_fingerprint(files), [cache])
    cached.write_text("compiled")
    module.write_text("# a changed rule\n")
    assert forget_stale_compiled_code(cache, source_fingerprint(files), [cache])
    assert not cached.exists()


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
        ("search", "tree.py"),
        ("search", "guided.py"),
        ("search", "games.py"),
        ("search", "relabel.py"),
        ("core", "rng.py"),
        ("core", "header.py"),
    ]:
        assert expected in names
    assert ("hispania", "names.py") not in names  # words and pictures are not compiled
    assert ("hispania", "render.py") not in names
    assert all(p.name.endswith(".toml") for p in kernels.data_files)
    assert {p.name for p in kernels.data_files} == {"board.toml", "rules.toml", "scenarios.toml"}


PROBE = """
import numpy as np, boardsim_connect_four as c4
from boardsim.core import engine
from boardsim.core.game import Game
from boardsim_connect_four import rules
game = Game(c4.DEFINITION)
states = np.zeros((2, game.state_size), np.int32)
counts = np.zeros(2, np.int64)
game.engine.rollout_random(states, game.params, 50, 1, counts, counts.copy())
rules.legal_mask(states[0], game.params, np.zeros(game.num_actions, np.uint8))
state = game.new_initial_state(0)
for column in (0, 1, 0, 1, 0, 1, 0):  # four in column 0 for the first player, if not sooner
    if not state.is_terminal():
        state.apply_action(column)
print("moves", state.decisions(), "returns", *state.returns().tolist())
for name, fn in (("engine", engine.rollout_random), ("rules", rules.legal_mask)):
    print(name, sum(fn.stats.cache_hits.values()), sum(fn.stats.cache_misses.values()))
"""


def _edit_keeping_size_and_time(path: Path, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` (of the same length) and give the file back its time: an
    edit that a cache keyed by (time, size) cannot see."""
    assert len(old) == len(new)
    text = path.read_text()
    assert text.count(old) == 1, old
    stat = path.stat()
    path.write_text(text.replace(old, new))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


@pytest.mark.subprocess
def test_the_cache_survives_a_fresh_clone_and_never_serves_an_edited_kernel(
    tmp_path: Path,
) -> None:
    """In a copy of the sources with numba's cache in a folder of its own:
    - the second run loads everything from the cache;
    - every file given a new time (what a fresh clone of the same sources looks like): still
      everything from the cache, since numba 0.68 keys a file's entries by its contents;
    - an edit of a kernel that keeps the file's size and time: compiled anew, and the new
      rule is what plays (a win scores 2);
    - an edit of the game's data file (three in a row win): the game's fingerprint drops its
      cached kernels, and the game ends sooner;
    - an edit of the shared engine (core/engine.py): the engine and the game's kernels are
      compiled anew."""
    import shutil
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(root / "src" / "boardsim", tmp_path / "src" / "boardsim", ignore=ignore)
    plugin = root / "benchmarks" / "connect_four" / "boardsim_connect_four"
    game_dir = tmp_path / "plugin" / "boardsim_connect_four"
    shutil.copytree(plugin, game_dir, ignore=ignore)
    # importing boardsim registers every game's Gymnasium id with its decision limit,
    # which loads each game's data (not compiled)
    shutil.copytree(root / "envs", tmp_path / "envs")
    env = dict(
        os.environ,
        PYTHONPATH=f"{tmp_path / 'src'}{os.pathsep}{tmp_path / 'plugin'}",
        NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"),
    )

    def probe() -> dict[str, tuple[float, ...]]:
        words = subprocess.run(
            [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
        ).stdout.split()
        return {
            "moves": (int(words[1]),),
            "returns": (float(words[3]), float(words[4])),
            words[5]: (int(words[6]), int(words[7])),
            words[8]: (int(words[9]), int(words[10])),
        }

    warm = {"engine": (1, 0), "rules": (1, 0)}
    cold = probe()
    assert cold["engine"][1] >= 1 and cold["rules"][1] >= 1  # compiled
    assert cold["moves"] == (7,) and cold["returns"] == (1.0, -1.0)
    assert {k: v for k, v in probe().items() if k in warm} == warm  # all from the cache

    later = time.time() + 3600
    for path in (tmp_path / "src").rglob("*.py"):
        os.utime(path, (later, later))
    for path in game_dir.rglob("*"):
        os.utime(path, (later, later))
    assert probe() == {**cold, **warm}  # a fresh clone's times: still all from the cache

    _edit_keeping_size_and_time(game_dir / "rules.py", "out[w] = 1.0", "out[w] = 2.0")
    edited = probe()
    assert edited["rules"][1] >= 1 and edited["engine"][1] >= 1  # compiled anew
    assert edited["returns"] == (2.0, -1.0)  # the edited rule plays

    _edit_keeping_size_and_time(game_dir / "connect_four.toml", "connect = 4", "connect = 3")
    data = probe()
    assert data["rules"][1] >= 1 and data["engine"][1] >= 1
    assert data["moves"] == (5,) and data["returns"] == (2.0, -1.0)  # three in a row won

    engine_py = tmp_path / "src" / "boardsim" / "core" / "engine.py"
    engine_py.write_text(engine_py.read_text() + "\n# an edit of the shared engine\n")
    shared = probe()
    assert shared["engine"][1] >= 1 and shared["rules"][1] >= 1  # both compiled anew
    assert probe() == {**data, **warm}


def _imports_by_ast(source: str) -> list[tuple[int, str | None, list[str]]]:
    """The oracle: every import statement, as the parser sees it, in source order."""
    nodes = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Import | ast.ImportFrom)]
    nodes.sort(key=lambda n: (n.lineno, n.col_offset))
    return [
        (0, None, [a.name for a in n.names])
        if isinstance(n, ast.Import)
        else (n.level, n.module or "", [a.name for a in n.names])
        for n in nodes
    ]


def test_the_import_scan_reads_every_module_as_the_parser_does() -> None:
    """The fingerprint's text scan of imports (fast at every start) finds exactly the
    statements ``ast`` finds, in every module of the package."""
    paths = sorted(PACKAGE.rglob("*.py"))
    assert len(paths) > 50
    differ = [
        str(path.relative_to(PACKAGE))
        for path in paths
        if import_statements(text := path.read_text(encoding="utf-8")) != _imports_by_ast(text)
    ]
    assert differ == []


def test_the_import_scan_reads_the_forms_a_module_may_use() -> None:
    source = (
        '"""Docstring: from boardsim import nothing\nimport os\n"""\n'
        "import numpy as np, sys  # two\n"
        "from . import rules\n"
        "from ..core.header import (\n    H_GAME,  # the tag\n    H_PHASE as P,\n)\n"
        "def f():\n    from boardsim.games.hispania import data\n"
        "x = 'import not_a_statement'\n"
    )
    assert import_statements(source) == [
        (0, None, ["numpy", "sys"]),
        (1, "", ["rules"]),
        (2, "core.header", ["H_GAME", "H_PHASE"]),
        (0, "boardsim.games.hispania", ["data"]),
    ]


def test_a_game_drops_only_its_own_compiled_code_never_the_shared_cores() -> None:
    """The folders a game's changed fingerprint empties are its own: a game's modules
    import the core's compiled helpers, whose cache folder holds every game's engine
    (counting it, a plugin installed in a new folder dropped all three built-in engines in
    the middle of the test suite)."""
    from boardsim.core.kernels import KERNELS, _cache_dirs, _own_modules, kernel_modules

    core = Path(boardsim.core.__file__).parent
    for name in boardsim.list_games():
        kernels = boardsim.make_game(name).kernels
        functions = [kernels.members[k] for k in KERNELS]
        own = _own_modules(kernel_modules(functions, face=kernels.module), functions)
        assert own and all(not Path(m.__file__).is_relative_to(core) for m in own)
        dirs = _cache_dirs(own)
        assert dirs and not any(d.parent == core or d.name.startswith("core_") for d in dirs)

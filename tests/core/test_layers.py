"""The spine holds: no source compiled at run time, layers that import only downward, and
no game named in code outside its own folder."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

import boardsim

SRC = Path(boardsim.__file__).resolve().parent
# boardsim's own games, and the plugin of benchmarks/connect_four it must not know either
GAMES = ("liberation", "hispania", "farrapos", "connect_four")

# package -> the packages it must never import (the layers of DESIGN.md, bottom up)
FORBIDDEN = {
    "core": ("games", "wrappers", "agents", "research", "training", "render", "commands"),
    "wrappers": ("agents", "research", "training", "commands"),
    "agents": ("research", "commands"),  # agents read training's checkpoints
    "training": ("agents", "research", "commands"),
    "render": ("agents", "research", "training", "commands"),
}


def sources() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "__pycache__" not in p.parts)


def imported(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


def test_no_source_is_compiled_or_executed_at_run_time() -> None:
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("exec", "eval", "compile"), f"{path}:{node.lineno}"


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers_import_only_downward(package: str) -> None:
    for path in sorted((SRC / package).rglob("*.py")):
        for name in imported(path):
            for above in FORBIDDEN[package]:
                assert not name.startswith(f"boardsim.{above}"), f"{path} imports {name}"


def test_no_game_is_named_in_code_outside_its_folder() -> None:
    """Identifiers and whole string literals; comments, docstrings and help texts (longer
    strings that mention a game) are not code."""
    for path in sources():
        rel = path.relative_to(SRC).parts
        if rel[0] == "games" and len(rel) > 2:
            continue  # inside a game's own folder
        with path.open("rb") as fh:
            for tok in tokenize.tokenize(fh.readline):
                if tok.type == tokenize.NAME:
                    hit = any(g in tok.string.lower() for g in GAMES)
                elif tok.type == tokenize.STRING:
                    hit = tok.string.strip("\"'").lower() in GAMES
                else:
                    continue
                assert not hit, f"{path}:{tok.start[0]} names a game: {tok.string}"


def test_tokenize_reads_every_source() -> None:
    for path in sources():
        list(tokenize.tokenize(io.BytesIO(path.read_bytes()).readline))


MAX_FILE_LINES = 1200  # no file in src/ longer (issue 14)
MAX_GAME_FUNCTION_LINES = 100  # no function of a game longer, its data validators included
PLUGIN = SRC.parents[1] / "benchmarks" / "connect_four" / "boardsim_connect_four"


def test_no_source_file_is_longer_than_a_reader_can_hold() -> None:
    lines = {
        str(p.relative_to(SRC)): len(p.read_text(encoding="utf-8").splitlines()) for p in sources()
    }
    long = {name: n for name, n in lines.items() if n > MAX_FILE_LINES}
    assert not long, f"files over {MAX_FILE_LINES} lines: {long}"


def test_no_function_of_a_game_is_longer_than_a_screenful_or_two() -> None:
    files = [p for p in sources() if "games" in p.relative_to(SRC).parts]
    files += sorted(PLUGIN.glob("*.py"))
    long = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_GAME_FUNCTION_LINES:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({n} lines)")
    assert files and not long, f"game functions over {MAX_GAME_FUNCTION_LINES} lines: {long}"


@pytest.mark.subprocess
def test_importing_boardsim_loads_no_game_kernels() -> None:
    """Finding, listing and registering the games (with their decision limits as the
    Gymnasium ids' max_episode_steps) imports no game's compiled engine: a game's kernels
    load when the first Game of it is made."""
    code = (
        "import sys, gymnasium as gym, boardsim\n"
        "assert gym.spec('boardsim/Farrapos-v0').max_episode_steps == 2000\n"
        "print(sorted(m for m in sys.modules if m.startswith('boardsim.games.')"
        " and m.endswith(('.engine', '.rules', '.policy'))))\n"
        "boardsim.make_game('farrapos')\n"
        "print('boardsim.games.farrapos.engine' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == ["[]", "True"]

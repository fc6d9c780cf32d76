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
    "core": ("games", "wrappers", "agents", "research", "training", "render", "commands", "cli"),
    "games": ("wrappers", "agents", "research", "training", "commands", "cli"),
    "wrappers": ("agents", "research", "training", "commands", "cli"),
    "agents": ("research", "commands", "cli"),  # agents read training's checkpoints
    "training": ("agents", "research", "commands", "cli"),
    "render": ("agents", "research", "training", "commands", "cli"),
    "research": ("commands", "cli"),  # the library never imports its command line
}
# function-level imports of boardsim's own modules at the most (each hides an arrow; the
# ones left defer a heavy optional dependency such as torch, on purpose)
MAX_INNER_IMPORTS = 40


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


def module_name(path: Path) -> str:
    parts = ["boardsim", *path.relative_to(SRC).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> tuple[dict[str, set[str]], list[str]]:
    """Every module's imports of boardsim's own modules (inside functions too; not those
    only for type checking), and where the function-level ones stand."""
    modules = {module_name(p): p for p in sources()}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    inner: list[str] = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {
            id(n)
            for block in ast.walk(tree)
            if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
            for n in ast.walk(block)
        }
        in_functions = {
            id(n)
            for f in ast.walk(tree)
            if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
            for n in ast.walk(f)
        }
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom) or id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = package.split(".")[: len(package.split(".")) - max(node.level - 1, 0)]
                module = ".".join([*base, node.module or ""]).strip(".") if node.level else ""
                module = module or node.module or ""
                # a name that is a submodule imports that module (its package only implicitly,
                # as any import of a submodule does: not an arrow); any other name, the module
                subs = [f"{module}.{a.name}" for a in node.names]
                targets = [s for s in subs if s in modules] or [module]
                if len([s for s in subs if s in modules]) < len(subs):
                    targets.append(module)
            found = {t for t in targets if t in modules and t != name}
            graph[name] |= found
            if found and id(node) in in_functions:
                inner.append(f"{path.relative_to(SRC)}:{node.lineno}")
    return graph, inner


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_modules_import_each_other_in_a_circle() -> None:
    """Every arrow between boardsim's modules points one way (function-level imports
    count: they only hide an arrow)."""
    graph, _ = import_graph()
    assert graph["boardsim.research.sweep"] >= {"boardsim.research.cells"}  # the graph is read
    assert not circles(graph), f"modules importing each other: {circles(graph)}"


def test_imports_stand_at_the_top_of_their_modules() -> None:
    _, inner = import_graph()
    assert len(inner) <= MAX_INNER_IMPORTS, (
        f"{len(inner)} function-level imports of boardsim modules (at most "
        f"{MAX_INNER_IMPORTS}; only to defer a heavy optional dependency): {inner}"
    )


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
        "print('boardsim.games.farrapos.rules' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == ["[]", "True"]

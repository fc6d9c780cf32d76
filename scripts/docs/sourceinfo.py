"""Read a module's source for the documentation: its constants with their comments.

``layout.py`` names every slice of the state, every action range and every part of the
observation as module constants, each explained by the comment on its line (or the
comment block just above it). :func:`constants` gives them with their values and words,
so that the game pages' tables come from the very file the rules read.
"""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class Constant:
    """A module-level ``NAME = expression`` with its value and its comment."""

    name: str
    value: Any
    line: int
    source: str  # the expression as written
    comment: str  # the trailing comment, its continuation lines, or the block above
    names: frozenset[str]  # the names the expression uses


def _comments(text: str) -> dict[int, str]:
    """Line number -> the comment on that line (without ``#``)."""
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string.lstrip("#").strip()
    return out


def _words(lines: list[str], comments: dict[int, str], node: ast.stmt) -> str:
    """The comment of an assignment: on its line(s) and the comment-only lines after it
    (a continuation), or else the comment-only block right above it (unless that block
    continues the comment of the line before it)."""
    first, last = node.lineno, node.end_lineno or node.lineno

    def comment_only(n: int) -> bool:
        if not 1 <= n <= len(lines):
            return False
        text = lines[n - 1].lstrip()
        return text.startswith("#") and not text.startswith("# ----")

    def trailing(n: int) -> bool:
        return 1 <= n <= len(lines) and n in comments and not lines[n - 1].lstrip().startswith("#")

    own = [comments[n] for n in range(first, last + 1) if n in comments]
    if own:
        n = last + 1
        while comment_only(n):
            own.append(comments[n])
            n += 1
        return " ".join(w for w in own if w and w != "fmt: skip")
    n = first - 1
    while comment_only(n):
        n -= 1
    if trailing(n):
        return ""  # the block above continues that line's comment
    return " ".join(comments[k] for k in range(n + 1, first) if comments.get(k))


def constants(module: ModuleType) -> list[Constant]:
    """Every module-level simple assignment of ``module``, in source order."""
    import inspect

    text = inspect.getsource(module)
    lines = text.splitlines()
    comments = _comments(text)
    out = []
    for node in ast.parse(text).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target = node.targets[0]
        if not isinstance(target, ast.Name) or not hasattr(module, target.id):
            continue
        used = frozenset(n.id for n in ast.walk(node.value) if isinstance(n, ast.Name))
        out.append(
            Constant(
                target.id,
                getattr(module, target.id),
                node.lineno,
                ast.get_source_segment(text, node.value) or "",
                _words(lines, comments, node),
                used,
            )
        )
    return out


def chain(consts: list[Constant], roots: set[str]) -> list[Constant]:
    """The int constants computed from ``roots`` by arithmetic, directly or through one
    another (the offsets of a layout: ``TURN = HEADER_SIZE``, ``PHASE = TURN + 1`` ...)."""
    found: list[Constant] = []
    known = set(roots)
    for c in consts:
        is_int = isinstance(c.value, int) and not isinstance(c.value, bool)
        if is_int and c.names & known and "(" not in c.source:
            found.append(c)
            known.add(c.name)
    return found


def ranges(offsets: list[Constant], end: int) -> list[tuple[Constant, int, int]]:
    """Each offset with the range it starts, up to the next offset (or ``end``)."""
    ordered = sorted(offsets, key=lambda c: (c.value, c.line))
    out = []
    for i, c in enumerate(ordered):
        stop = end
        for later in ordered[i + 1 :]:
            if later.value > c.value:
                stop = later.value
                break
        out.append((c, int(c.value), int(stop)))
    return out

"""The runnable snippets of the documentation's pages run, as a reader pasting them would,
and a line whose comment is a Python value (``state.legal_actions()  # [0, 3, 10, 13]``)
shows what the line returns (issue 38: getting-started showed ``[0, 3, 7, ...]``).

A page's ```python blocks run in order in one fresh interpreter (a later block uses an
earlier one's names). Blocks that train for minutes or need a plugin of the reader's are
listed below with the reason they do not run here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.docs.snippets import ROOT, SNIPPET_SECONDS, python_blocks, run_python

pytestmark = pytest.mark.subprocess

SECONDS = SNIPPET_SECONDS  # a cold numba cache compiles each game a page uses
PAGES = ("getting-started.md", "index.md", "adding-a-game.md")
# pages whose other blocks are a plugin's files (they import the reader's package): only
# the blocks that start with "import boardsim" run
PARTS_ONLY = ("adding-a-game.md",)


def checked(code: str) -> str:
    """``code`` with each ``expression  # value`` line turned into an assertion that the
    expression equals the value (a comment that is no Python value is left alone)."""
    out = []
    for line in code.splitlines():
        m = re.fullmatch(r"(\S.*?)  # (.+)", line)
        if m:
            try:
                value = ast.literal_eval(m.group(2))
                ast.parse(m.group(1), mode="eval")
            except (ValueError, SyntaxError):
                pass
            else:
                line = (
                    f"_got = ({m.group(1)})\n"
                    f"assert _got == {value!r}, "
                    f"{m.group(1) + ' is '!r} + repr(_got) + {', not ' + repr(value)!r}"
                )
        out.append(line)
    return "\n".join(out)


def test_checked_turns_a_shown_value_into_an_assertion() -> None:
    code = checked("x = [1]\nx  # [1]\nlen(x)  # one item\n")
    assert "assert _got == [1]" in code
    assert "len(x)  # one item" in code
    with pytest.raises(AssertionError, match=r"x is \[1\], not \[2\]"):
        exec(checked("x = [1]\nx  # [2]"), {})


@pytest.mark.timeout(SECONDS + 60)
@pytest.mark.parametrize("page", PAGES)
def test_a_pages_snippets_run_and_show_what_they_return(page: str, tmp_path: Path) -> None:
    blocks = python_blocks((ROOT / "docs" / page).read_text(encoding="utf-8"))
    if page in PARTS_ONLY:
        blocks = [b for b in blocks if b.startswith("import boardsim\n")]
    assert blocks
    code = "\n".join(checked(b) for b in blocks)
    done = run_python(code, tmp_path, SECONDS)
    assert done.returncode == 0, f"docs/{page}'s snippets failed:\n{done.stderr[-4000:]}"


@pytest.mark.timeout(SECONDS + 60)
@pytest.mark.parametrize("page", ["README.md", "docs/getting-started.md", "docs/index.md"])
def test_the_pettingzoo_loop_ends_by_the_rules(page: str, tmp_path: Path) -> None:
    """The PettingZoo loop a page teaches ends with a winner, not by truncation after
    41,004 steps (issue 38: it played always the first legal action)."""
    code = next(
        b for b in python_blocks((ROOT / page).read_text(encoding="utf-8")) if "agent_iter" in b
    )
    lines = code.splitlines()
    start = next(i for i, line in enumerate(lines) if "make_env(" in line)
    end = next(i for i, line in enumerate(lines) if "env.step(action)" in line)
    loop = "\n".join(["import boardsim", *lines[start : end + 1]])
    loop += "\n    steps = globals().get('steps', 0) + 1\n"
    loop += "assert term and not trunc, (term, trunc)\nassert steps < 5000, steps\n"
    done = run_python(loop, tmp_path, SECONDS)
    assert done.returncode == 0, f"{page}'s PettingZoo loop:\n{done.stderr[-4000:]}"

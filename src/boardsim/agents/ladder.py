"""Each game's strength ladder: one ``boardsim eval`` round robin, its file and its page.

``python -m boardsim.agents.ladder GAME [--games N]`` plays the game's ladder (random,
the heuristic, the shipped PPO policy, MCTS at 50, 200 and 800 simulations, and the
shipped self-play network alone and guiding MCTS at 200 when the game has one) as one
``boardsim eval`` command, seats rotated, and writes ``agents/GAME/ladder.json`` and
``ladder.csv``: the win-rate matrix with 95% intervals and Bradley-Terry Elo ratings with
theirs (Hispania, whose Romans play one side against the game: Rome's win rate for each
agent at an easy and the medium level). The JSON records the command that made it.
The pairs the file already holds, played with exactly the same settings (the same agents
playing the same networks and searches, the same games, seed, options and rules version),
are read back instead of played (``boardsim eval`` reuses its ``--out`` file), so an agent
joining the ladder plays only its own pairs; ``--no-reuse`` replays them all. (A ladder
file written before the settings were recorded is played whole once.)

``python -m boardsim.agents.pages`` writes the ladders' section of ``docs/agents.md``
from those files (between the ``ladder:begin`` and ``ladder:end`` marks), with the page's
other generated blocks, so the page's figures are the files' figures
(``python -m boardsim.agents.ladder --docs`` does the same); ``tests/agents/test_ladder.py``
holds the page, the files and the agents each game can field to one another.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boardsim.agents.network import shipped_root
from boardsim.core.game import StrengthLadder

DOCS_PAGE = Path("docs") / "agents.md"  # paths are the checkout's, from its root
BEGIN = "<!-- ladder:begin (written by python -m boardsim.agents.pages) -->"
END = "<!-- ladder:end -->"
SEARCHES = ("mcts:50", "mcts:200", "mcts:800")


def ladder_games() -> list[str]:
    """The games that declare a strength ladder."""
    import boardsim

    return [g for g in boardsim.list_games() if _declared(g) is not None]


def _declared(game: str) -> StrengthLadder | None:
    from boardsim.games import definition

    return definition(game).strength_ladder


def ladder_setting(game: str) -> StrengthLadder:
    """How ``game``'s ladder is played (its definition's ``strength_ladder``)."""
    import boardsim

    if game not in boardsim.list_games() or _declared(game) is None:
        raise ValueError(f"no ladder for {game!r}; games with one: {', '.join(ladder_games())}")
    setting = _declared(game)
    assert setting is not None
    return setting


def ladder_agents(game: str) -> list[str]:
    """The agents of ``game``'s ladder: the networks only where one is shipped."""
    root = shipped_root() / game
    agents = ["random", "heuristic"]
    if (root / "ppo.npz").exists():
        agents.append("ppo")
    agents += list(SEARCHES)
    if (root / "alphazero.npz").exists():
        agents += ["alphazero", "alphazero-mcts:200"]
    return agents


def ladder_path(game: str) -> Path:
    """``agents/GAME/ladder`` (the prefix of its ``.json`` and ``.csv``)."""
    return Path("agents") / game / "ladder"


def _check_checkout() -> None:
    """Ladders are the checkout's files: refuse to run elsewhere, saying so."""
    if not (Path("agents").is_dir() and DOCS_PAGE.is_file()):
        raise SystemExit(
            f"run from the root of a boardsim checkout (no agents/ and {DOCS_PAGE} in {Path.cwd()})"
        )


def eval_arguments(game: str, games: int | None = None) -> list[str]:
    """The ``boardsim eval`` arguments that play ``game``'s ladder."""
    setting = ladder_setting(game)
    n = setting.games if games is None else games
    words = [game, "--agents", ",".join(ladder_agents(game)), "--games", str(n)]
    words += ["--seed", str(setting.seed)]
    if setting.levels:
        words += ["--levels", setting.levels]
    for key, value in setting.options.items():
        words += ["-o", f"{key}={value}"]
    if setting.any_options:
        words.append("--ppo-any-options")
    words += ["--out", str(ladder_path(game))]
    return words


def play_ladder(game: str, games: int | None = None, reuse: bool = True) -> int:
    """Play ``game``'s ladder by ``boardsim eval`` (from the checkout's root), reading back
    the pairs its file already holds with the same settings unless ``reuse`` is False."""
    from boardsim.cli import main

    return main(["eval", *eval_arguments(game, games), *([] if reuse else ["--no-reuse"])])


def read_ladder(game: str) -> dict[str, Any]:
    """``agents/GAME/ladder.json``."""
    return json.loads(ladder_path(game).with_suffix(".json").read_text())


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _elo_table(data: dict[str, Any]) -> list[str]:
    agents = data["agents"]
    lookup = {(p["agent"], p["opponent"]): p for p in data["pairs"]}
    order = sorted(agents, key=lambda a: -data["elo"][a])
    lines = [
        "| agent | Elo [95%] | " + " | ".join(f"vs {a}" for a in order) + " |",
        "|---|---|" + "---|" * len(order),
    ]
    for a in order:
        cells = []
        for b in order:
            p = lookup.get((a, b))
            cells.append("" if p is None else _pct(p["win_rate"]))
        elo = f"{data['elo'][a]:.0f} [{data['elo_low'][a]:.0f}, {data['elo_high'][a]:.0f}]"
        lines.append(f"| {a} | {elo} | " + " | ".join(cells) + " |")
    return lines


def _side_table(data: dict[str, Any]) -> list[str]:
    levels: list[str] = []
    for row in data["solo"]:
        if row["level"] not in levels:
            levels.append(row["level"])
    lookup = {(r["agent"], r["level"]): r for r in data["solo"]}
    lines = [
        "| Roman agents | " + " | ".join(f"Rome wins at {lv} [95%]" for lv in levels) + " |",
        "|---|" + "---|" * len(levels),
    ]
    for a in data["agents"]:
        cells = []
        for lv in levels:
            r = lookup[(a, lv)]
            cells.append(f"{_pct(r['win_rate'])}% [{_pct(r['ci_low'])}, {_pct(r['ci_high'])}]")
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    return lines


def ladder_section(games: Sequence[str] | None = None) -> str:
    """The ladders' section of ``docs/agents.md``, from ``agents/<game>/ladder.json``."""
    out = [
        BEGIN,
        "## Strength ladders",
        "",
        "Each game's agents in one `boardsim eval` round robin, seats rotated, the same deals "
        "for every pair; written by `python -m boardsim.agents.ladder GAME`, which runs the "
        "command under each table, into `agents/<game>/ladder.json` (and `.csv`), and this "
        "section by `python -m boardsim.agents.pages` from those files. Elo is the "
        "Bradley-Terry rating of all the games (mean 1000, 400 points a factor of ten in the "
        "odds) with its 95% interval; a cell is the row agent's win rate in percent against "
        "the column agent (a draw counts half). `ppo` and `alphazero` are the networks "
        "shipped in the wheel; `mcts:N` is the compiled UCT with `N` simulations a decision and "
        "the game's default search settings (rollouts by the heuristic, cut at a depth, and "
        "its move as a prior: see MCTS below).",
        "",
    ]
    for game in ladder_games() if games is None else games:
        data = read_ladder(game)
        options = ", ".join(f"{k}={v}" for k, v in sorted(data["options"].items()))
        out.append(f"### {game}")
        out.append("")
        table = _side_table(data) if data["mode"] == "cooperative" else _elo_table(data)
        out += table
        out.append("")
        rows = data["solo"] if data["mode"] == "cooperative" else data["pairs"]
        cut = sum(r["truncated"] for r in rows)
        out.append(
            f"{data['games_per_pair']} games "
            + ("a level" if data["mode"] == "cooperative" else "a pair")
            + f", {data['seconds'] / 60:.0f} minutes on one core, "
            + (f"{cut} cut by the decision limit" if cut else "none cut by the decision limit")
            + f"; options {options}. Made by:"
        )
        out.append("")
        out.append("```bash")
        out.append(data["command"])
        out.append("```")
        out.append("")
    out.append(END)
    return "\n".join(out)


def write_docs(page: Path = DOCS_PAGE) -> bool:
    """Rewrite the ladders' section of ``page`` alone; True if it changed
    (``boardsim.agents.pages.write_docs`` rewrites every generated block)."""
    from boardsim.files import atomic_write_text

    text = page.read_text()
    if BEGIN not in text or END not in text:
        raise ValueError(f"{page} has no ladder section: add the lines {BEGIN!r} and {END!r}")
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    new = head + ladder_section() + tail
    if new == text:
        return False
    atomic_write_text(page, new)
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m boardsim.agents.ladder GAME [--games N]`` or ``--docs``."""
    parser = argparse.ArgumentParser(prog="python -m boardsim.agents.ladder", description=__doc__)
    parser.add_argument("game", nargs="?", choices=ladder_games())
    parser.add_argument("--games", type=int, default=None, help="games a pair (a level)")
    parser.add_argument(
        "--no-reuse",
        action="store_true",
        help="play every pair again (default: read back those the ladder file holds with "
        "the same settings)",
    )
    parser.add_argument(
        "--docs",
        action="store_true",
        help="write docs/agents.md's generated blocks (python -m boardsim.agents.pages)",
    )
    args = parser.parse_args(argv)
    if args.game is None and not args.docs:
        parser.error("name a game, or --docs")
    _check_checkout()
    if args.game is not None:
        rc = play_ladder(args.game, args.games, reuse=not args.no_reuse)
        if rc:
            return rc
    if args.docs:
        from boardsim.agents import pages

        changed = pages.write_docs()
        print(f"{DOCS_PAGE} {'written' if changed else 'unchanged'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

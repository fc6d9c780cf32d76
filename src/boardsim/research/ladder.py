"""Each game's strength ladder: one ``boardsim eval`` round robin, its file and its page.

``python -m boardsim.research.ladder GAME [--games N]`` plays the game's ladder (random,
the heuristic, the shipped PPO policy, MCTS at 50, 200 and 800 simulations, and the
shipped self-play network alone and guiding MCTS at 200 when the game has one) as one
``boardsim eval`` command, seats rotated, and writes ``agents/GAME/ladder.json`` and
``ladder.csv``: the win-rate matrix with 95% intervals and Bradley-Terry Elo ratings with
theirs (Hispania, whose Romans play one side against the game: Rome's win rate for each
agent at an easy and the medium level). The JSON records the command that made it.
The pairs the file already holds, played with exactly the same settings (the same agents
playing the same networks and searches, the same games, seed, options and rules version),
are read back instead of played (``boardsim eval`` reuses its ``--out`` file), so an agent
joining the ladder plays only its own pairs; ``--no-reuse`` replays them all. A ladder
file written before the settings were recorded is played whole once, unless it is adopted:
``python -m boardsim.research.ladder GAME --adopt --rules-version N`` (:func:`adopt_ladder`)
writes its pairs' records from its own results without playing, when its command is
today's ladder command for its agents (a prefix of today's), its options today's, its
results complete, the file committed, the rules version ``N`` the user vouches it was
played at today's, and each network it played byte for byte the one shipped at the commit
that wrote it (a pair whose network changed is not adopted, so it is played again);
each record adopted says so (``"adopted": {"from_commit", "rules_version"}``).

``python -m boardsim.research.agent_pages`` writes the ladders' section of ``docs/agents.md``
from those files (between the ``ladder:begin`` and ``ladder:end`` marks), with the page's
other generated blocks, so the page's figures are the files' figures
(``python -m boardsim.research.ladder --docs`` does the same); ``tests/research/test_ladder.py``
holds the page, the files and the agents each game can field to one another.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardsim.agents.network import shipped_root
from boardsim.core.game import StrengthLadder

if TYPE_CHECKING:
    from boardsim.research.adopt import Adoption

DOCS_PAGE = Path("docs") / "agents.md"  # paths are the checkout's, from its root
BEGIN = "<!-- ladder:begin (written by python -m boardsim.research.agent_pages) -->"
END = "<!-- ladder:end -->"
SEARCHES = ("mcts:50", "mcts:200", "mcts:800")


def ladder_games() -> list[str]:
    """The games that declare a strength ladder."""
    import boardsim

    return [g for g in boardsim.list_games() if _declared(g) is not None]


def _definition(game: str) -> Any:
    from boardsim.games import definition

    return definition(game)


def _declared(game: str) -> StrengthLadder | None:
    return _definition(game).strength_ladder


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


def eval_arguments(
    game: str, games: int | None = None, agents: Sequence[str] | None = None
) -> list[str]:
    """The ``boardsim eval`` arguments that play ``game``'s ladder (of ``agents``: by
    default :func:`ladder_agents`)."""
    setting = ladder_setting(game)
    n = setting.games if games is None else games
    names = ladder_agents(game) if agents is None else list(agents)
    words = [game, "--agents", ",".join(names), "--games", str(n)]
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


def adopt_ladder(game: str, rules_version: int) -> Adoption:
    """Write the records of ``agents/GAME/ladder.json``'s pairs (a file written before they
    were recorded) from its own results, without playing (the module docstring;
    :func:`boardsim.research.adopt.adopt_results`), and write it (``.json`` and ``.csv``,
    atomically). ``rules_version``: the version of the game's rules the file was played at,
    vouched for by the caller; it must be today's. :class:`AdoptionError` saying why not."""
    from boardsim.research.adopt import AdoptionError, adopt_results
    from boardsim.research.reuse import RECORDS_KEY

    path = ladder_path(game).with_suffix(".json")
    where = str(path)
    today = _definition(game).version
    if rules_version != today:
        raise AdoptionError(
            f"{game}'s rules are at version {today} today, not {rules_version}: adoption "
            "can only claim results of today's rules (a ladder of other rules is played again)"
        )
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise AdoptionError(f"{where} cannot be read as JSON ({exc})") from None
    if not isinstance(data, dict):
        raise AdoptionError(f"{where} is not a boardsim eval result")
    if RECORDS_KEY in data:
        raise AdoptionError(f"{where} already records its pairs' settings: nothing to adopt")
    agents, now = data.get("agents"), ladder_agents(game)
    if not isinstance(agents, list) or not agents or agents != now[: len(agents)]:
        raise AdoptionError(
            f"{where}'s agents {agents!r} are not the first of today's ladder's {now}"
        )
    games = data.get("games_per_pair")
    if not isinstance(games, int) or isinstance(games, bool):
        raise AdoptionError(f"{where}: games_per_pair must be a number of games")
    expected = shlex.join(["boardsim", "eval", *eval_arguments(game, games, agents)])
    if data.get("command") != expected:
        raise AdoptionError(
            f"{where} was made by {data.get('command')!r}, not by today's ladder command "
            f"for its agents {expected!r}"
        )
    commit = written_at(path)
    adoption = adopt_results(data, where, rules_version, commit, _changed_networks(game, commit))
    adoption.result.write(ladder_path(game))
    return adoption


def _git(*words: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", *words], capture_output=True, check=False)


def written_at(path: Path) -> str:
    """The commit that wrote ``path`` (a checkout's file, committed and unchanged since);
    :class:`AdoptionError` otherwise."""
    from boardsim.research.adopt import AdoptionError

    log = _git("log", "-1", "--format=%H", "--", str(path))
    commit = log.stdout.decode().strip()
    if log.returncode != 0 or not commit:
        raise AdoptionError(
            f"{path} is not a committed file of a git checkout: the commit that wrote it "
            "cannot be told"
        )
    then = _git("show", f"{commit}:./{path}")
    if then.returncode != 0 or then.stdout != path.read_bytes():
        raise AdoptionError(
            f"{path} differs from the one its last commit {commit[:12]} wrote: commit it "
            "or restore it first"
        )
    return commit


def _changed_networks(game: str, commit: str) -> Callable[[Sequence[str]], str | None]:
    """Why a pair of these agents cannot be adopted from a file written at ``commit``: a
    network it plays is not byte for byte the one shipped then (None: nothing changed)."""
    from boardsim.agents.network import shipped_path
    from boardsim.research.sweep import NETWORK_FAMILIES

    def changed(spec: str) -> str | None:
        family, _, arg = spec.partition(":")
        if family not in NETWORK_FAMILIES:
            return None
        path = arg.partition(":")[2] if family == "alphazero-mcts" else arg
        if family == "net" or path:
            return f"{spec} plays a network file that is not shipped: it cannot be told unchanged"
        kind = "ppo" if family == "ppo" else "alphazero"
        shipped = shipped_path(game, kind)
        repo = Path("agents") / game / f"{kind}.npz"
        then = _git("show", f"{commit}:./{repo}")
        if then.returncode != 0:
            return f"{spec}'s network {repo} was not there at {commit[:12]}"
        if not shipped.is_file() or shipped.read_bytes() != then.stdout:
            since = _git("log", "--format=%h", f"{commit}..HEAD", "--", str(repo))
            commits = " ".join(since.stdout.decode().split()) or "uncommitted"
            return (
                f"{spec}'s network {shipped} is not the {repo} of {commit[:12]} "
                f"(changed since: {commits})"
            )
        return None

    def refuse(specs: Sequence[str]) -> str | None:
        reasons = [r for r in map(changed, specs) if r is not None]
        return "; ".join(reasons) or None

    return refuse


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
        "for every pair; written by `python -m boardsim.research.ladder GAME`, which runs the "
        "command under each table, into `agents/<game>/ladder.json` (and `.csv`), and this "
        "section by `python -m boardsim.research.agent_pages` from those files. Elo is the "
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


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m boardsim.research.ladder GAME [--games N]``, ``GAME --adopt --rules-version
    N`` or ``--docs``."""
    parser = argparse.ArgumentParser(prog="python -m boardsim.research.ladder", description=__doc__)
    parser.add_argument("game", nargs="?", choices=ladder_games())
    parser.add_argument("--games", type=int, default=None, help="games a pair (a level)")
    parser.add_argument(
        "--no-reuse",
        action="store_true",
        help="play every pair again (default: read back those the ladder file holds with "
        "the same settings)",
    )
    parser.add_argument(
        "--adopt",
        action="store_true",
        help="write the records of the pairs a ladder file written before records holds, "
        "from its own results, without playing (with --rules-version)",
    )
    parser.add_argument(
        "--rules-version",
        type=int,
        default=None,
        metavar="N",
        help="--adopt: the version of the game's rules the ladder file was played at (you "
        "vouch for it; it must be today's)",
    )
    parser.add_argument(
        "--docs",
        action="store_true",
        help="write docs/agents.md's generated blocks (python -m boardsim.research.agent_pages)",
    )
    args = parser.parse_args(argv)
    if args.game is None and not args.docs:
        parser.error("name a game, or --docs")
    if args.adopt and (args.game is None or args.rules_version is None):
        parser.error("--adopt needs a game and --rules-version N")
    if args.adopt and (args.games is not None or args.no_reuse):
        parser.error("--adopt plays nothing: drop --games and --no-reuse")
    if args.rules_version is not None and not args.adopt:
        parser.error("--rules-version is for --adopt")
    _check_checkout()
    if args.adopt:
        from boardsim.research.adopt import AdoptionError

        try:
            adoption = adopt_ladder(args.game, args.rules_version)
        except AdoptionError as exc:
            print(f"ladder: not adopted: {exc}", file=sys.stderr)
            return 2
        what = "cells" if adoption.result.mode == "cooperative" else "pairs"
        print(
            f"{ladder_path(args.game)}.json: adopted {len(adoption.adopted)} {what} "
            f"(rules version {args.rules_version})",
            file=sys.stderr,
        )
        for line in adoption.refused:
            print(f"  not adopted (played again by the next run): {line}", file=sys.stderr)
    elif args.game is not None:
        rc = play_ladder(args.game, args.games, reuse=not args.no_reuse)
        if rc:
            return rc
    if args.docs:
        from boardsim.research import agent_pages as pages

        changed = pages.write_docs()
        print(f"{DOCS_PAGE} {'written' if changed else 'unchanged'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

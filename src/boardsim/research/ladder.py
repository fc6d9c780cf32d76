"""Each game's strength ladder: one ``boardsim eval`` round robin, its file and its page.

``boardsim ladder GAME [--games N]`` (:func:`play_ladder`) plays the game's ladder (random,
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
``boardsim ladder GAME --adopt --rules-version N`` (:func:`adopt_ladder`)
writes its pairs' records from its own results without playing, when its command is
today's ladder command for its agents (a prefix of today's), its options today's, its
results complete, the file committed, the rules version ``N`` the user vouches it was
played at today's, and each network it played byte for byte the one shipped at the commit
that wrote it (a pair whose network changed is not adopted, so it is played again);
each record adopted says so (``"adopted": {"from_commit", "rules_version"}``).

``python -m boardsim.research.agent_pages`` writes the ladders' section of ``docs/agents.md``
from those files (between the ``ladder:begin`` and ``ladder:end`` marks), with the page's
other generated blocks, so the page's figures are the files' figures
(``boardsim ladder --docs`` does the same); ``tests/research/test_ladder.py``
holds the page, the files and the agents each game can field to one another.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from boardsim.agents.network import shipped_path, shipped_root
from boardsim.api import list_games
from boardsim.core.game import StrengthLadder
from boardsim.games import definition
from boardsim.research.adopt import Adoption, AdoptionError, adopt_results
from boardsim.research.evaluation import PROGRAM, EvalRequest, prior_results, run_eval
from boardsim.research.players import NETWORK_FAMILIES
from boardsim.research.reuse import RECORDS_KEY, PriorResults
from boardsim.research.tournament import TournamentResult

DOCS_PAGE = Path("docs") / "agents.md"  # paths are the checkout's, from its root
BEGIN = "<!-- ladder:begin (written by python -m boardsim.research.agent_pages) -->"
END = "<!-- ladder:end -->"
SEARCHES = ("mcts:50", "mcts:200", "mcts:800")


def ladder_games() -> list[str]:
    """The games that declare a strength ladder."""
    return [g for g in list_games() if _declared(g) is not None]


def _definition(game: str) -> Any:
    return definition(game)


def _declared(game: str) -> StrengthLadder | None:
    return _definition(game).strength_ladder


def ladder_setting(game: str) -> StrengthLadder:
    """How ``game``'s ladder is played (its definition's ``strength_ladder``)."""
    if game not in list_games() or _declared(game) is None:
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


def check_checkout() -> None:
    """Ladders are the checkout's files: :class:`FileNotFoundError` saying so anywhere but
    at the root of a checkout."""
    if not (Path("agents").is_dir() and DOCS_PAGE.is_file()):
        raise FileNotFoundError(
            f"run from the root of a boardsim checkout (no agents/ and {DOCS_PAGE} in {Path.cwd()})"
        )


def ladder_request(
    game: str, games: int | None = None, agents: Sequence[str] | None = None
) -> EvalRequest:
    """The ``boardsim eval`` that plays ``game``'s ladder (of ``agents``: by default
    :func:`ladder_agents`), its results written to :func:`ladder_path`."""
    setting = ladder_setting(game)
    return EvalRequest(
        game=game,
        agents=tuple(ladder_agents(game) if agents is None else agents),
        games=setting.games if games is None else games,
        seed=setting.seed,
        levels=setting.levels or None,
        options=tuple(f"{key}={value}" for key, value in setting.options.items()),
        any_options=setting.any_options,
        out=str(ladder_path(game)),
    )


def eval_arguments(
    game: str, games: int | None = None, agents: Sequence[str] | None = None
) -> list[str]:
    """The ``boardsim eval`` arguments that play ``game``'s ladder (:func:`ladder_request`)."""
    return ladder_request(game, games, agents).words()[len(PROGRAM) :]


def play_ladder(
    game: str,
    games: int | None = None,
    reuse: bool = True,
    progress: Callable[[str], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> tuple[TournamentResult, PriorResults | None]:
    """Play ``game``'s ladder (from the checkout's root) and write its file, reading back the
    pairs the file already holds with the same settings unless ``reuse`` is False; the
    result and what was read back (None: nothing). ``backend``, ``address``: where the
    games are played (:func:`~boardsim.research.evaluation.run_eval`)."""
    request = ladder_request(game, games)
    prior = prior_results(request.out, no_reuse=not reuse)
    if prior is not None and not prior.usable:
        prior = None
    result = run_eval(request, progress, prior, backend, address)
    result.write(ladder_path(game))
    return result, prior


def adopt_ladder(game: str, rules_version: int) -> Adoption:
    """Write the records of ``agents/GAME/ladder.json``'s pairs (a file written before they
    were recorded) from its own results, without playing (the module docstring;
    :func:`boardsim.research.adopt.adopt_results`), and write it (``.json`` and ``.csv``,
    atomically). ``rules_version``: the version of the game's rules the file was played at,
    vouched for by the caller; it must be today's. :class:`AdoptionError` saying why not."""
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
    expected = ladder_request(game, games, agents).command()
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
        "for every pair; written by `boardsim ladder GAME`, which runs the "
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

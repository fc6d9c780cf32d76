"""The generated figures of ``docs/agents.md``, written from the committed result files.

``python -m boardsim.research.agent_pages`` (from a checkout's root) rewrites every block
of the page that sits between ``<!-- NAME:begin (written by python -m
boardsim.research.agent_pages) -->`` and ``<!-- NAME:end -->``, each from files that a
command wrote and that are committed:

- ``heuristic``: the heuristics' strength table, ``agents/<game>/heuristic-strength.json``
  (``python -m boardsim.agents.heuristic --write``), the issue's bars read from it, and
  the heuristic's lines of the committed ``boardsim eval`` runs;
- ``ladder``: the strength ladders, ``agents/<game>/ladder.json``
  (``boardsim ladder GAME``, :mod:`boardsim.research.ladder`);
- ``ppo``: the shipped PPO checkpoints (the record ``boardsim train`` keeps in
  ``agents/<game>/ppo.zip``, ``boardsim.json``) and their evaluations,
  ``agents/<game>/eval.json``;
- ``mcts``: MCTS at 200 simulations against the heuristic, ``agents/<game>/mcts-eval.json``
  and ``mcts-4p-eval.json``;
- ``depth``: whether more search helps, ``mcts:800`` against ``mcts:200`` (and searches at
  other settings against the same ``mcts:200``, where a game asks why), each game's
  ``[depth]`` files;
- ``alphazero``: the shipped self-play networks (``agents/<game>/alphazero.npz``, their
  training record) and issue 16's targets, read from their evaluation files;
- ``speed``: network, heuristic and MCTS decisions a second per core and the search
  against OpenSpiel, ``benchmarks/results/networks-latest.json``
  (``python benchmarks/networks.py``).

Every ``boardsim eval`` file is declared in its game's ``agents/<game>/figures.toml``
(:func:`read_figures`) with the command that writes it, beside what each block shows;
``tests/research/test_agent_pages.py`` holds each file to its command and each block of
the page to what this module writes from the files now. Nothing here measures anything:
to change a figure, run its file's command again (the page names it), then this one.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import shlex
import sys
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardsim.agents import heuristic
from boardsim.core.network import Network
from boardsim.files import atomic_write_text
from boardsim.games import definition
from boardsim.intervals import wilson_interval
from boardsim.research import ladder
from boardsim.training.alphazero import curve_markdown
from boardsim.training.run_log import export_flags

COMMAND = "python -m boardsim.research.agent_pages"
DOCS_PAGE = ladder.DOCS_PAGE


def marks(name: str) -> tuple[str, str]:
    """The lines that open and close block ``name`` of the page."""
    return f"<!-- {name}:begin (written by {COMMAND}) -->", f"<!-- {name}:end -->"


# ---------------------------------------------------------------- the boardsim eval files


@dataclass(frozen=True)
class Evaluation:
    """A committed ``boardsim eval`` result: ``PREFIX.json`` and ``PREFIX.csv``."""

    prefix: str  # agents/GAME/NAME
    command: str  # the command that writes it, as ``boardsim eval`` records it
    # the game's rules version it was played at, for a file from before ``boardsim eval``
    # recorded it (None: the file says)
    version: int | None = None

    def read(self) -> dict[str, Any]:
        return json.loads(Path(self.prefix + ".json").read_text())


@dataclass(frozen=True)
class Lines:
    """The lines of an evaluation a table shows: a round robin's pairs whose agent is one
    of ``agents`` (and opponent one of ``against``, when given); a cooperative game's
    lines of those agents."""

    prefix: str
    agents: tuple[str, ...]
    against: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bar:
    """One of the issue's bars for a heuristic, read from the game's strength file."""

    game: str
    says: str
    lines: tuple[tuple[str, Mapping[str, Any]], ...]  # (label, options) of the table's lines
    at_least: float | None = None  # every line's win rate at least this; else: they rise


@dataclass(frozen=True)
class Target:
    """One of issue 16's strength targets for a shipped self-play network, read from an
    evaluation file: ``agent``'s score against ``opponent`` (a round robin) or its side's
    win rate (a cooperative game; ``opponent`` None), at least ``bound`` (a number) or at
    least ``opponent``'s own win rate in the same file (``bound`` None)."""

    prefix: str
    what: str
    agent: str
    opponent: str | None
    bound: float | None


@dataclass(frozen=True)
class Figures:
    """What the page shows of one game, as ``agents/<game>/figures.toml`` declares it."""

    game: str
    evaluations: dict[str, Evaluation]  # by prefix, agents/GAME/NAME
    bar: Bar | None  # the heuristic's bar
    heuristic: tuple[Lines, ...]  # the evaluations' lines shown with the heuristic
    ppo: str | None  # the prefix of the evaluation of the shipped PPO checkpoint
    mcts: tuple[Lines, ...]
    targets: tuple[Target, ...]  # issue 16's targets for the shipped self-play network
    depth: tuple[Lines, ...] = ()  # more search against less: mcts:800 against mcts:200


AGENTS = Path("agents")  # the checkout's, from its root
FIGURES = "figures.toml"
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")  # an evaluation file's name, no path
PPO_SPEC = "ppo:agents/{game}/ppo.zip"


class FiguresError(ValueError):
    """A malformed ``figures.toml``."""


def _keys(
    table: Any, where: str, required: set[str], optional: frozenset[str] | set[str] = frozenset()
) -> Any:
    if not isinstance(table, dict):
        raise FiguresError(f"{where} must be a table, not {table!r}")
    unknown = set(table) - required - optional
    missing = required - set(table)
    if unknown or missing:
        raise FiguresError(
            f"{where}: "
            + "; ".join(
                [f"unknown keys {sorted(unknown)}"] * bool(unknown)
                + [f"missing keys {sorted(missing)}"] * bool(missing)
            )
            + f" (allowed: {sorted(required | optional)})"
        )
    return table


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise FiguresError(f"{where} must be a list of strings, not {value!r}")
    return tuple(value)


def _lines(game: str, known: Mapping[str, Evaluation], items: Any, where: str) -> tuple[Lines, ...]:
    if not isinstance(items, list):
        raise FiguresError(f"{where} must be a list of tables, not {items!r}")
    out = []
    for i, item in enumerate(items):
        at = f"{where}[{i}]"
        _keys(item, at, {"file", "agents"}, {"against"})
        prefix = _prefix(game, item["file"], known, at)
        against = _strings(item.get("against", []), f"{at}.against")
        out.append(Lines(prefix, _strings(item["agents"], f"{at}.agents"), against))
    return tuple(out)


def _prefix(game: str, name: Any, known: Mapping[str, Evaluation], where: str) -> str:
    prefix = f"{AGENTS.as_posix()}/{game}/{name}"
    if prefix not in known:
        raise FiguresError(f"{where}: {name!r} is not one of the file's [evaluations]")
    return prefix


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FiguresError(f"{where} must be a number, not {value!r}")
    return float(value)


def read_figures(game: str, root: Path = AGENTS) -> Figures:
    """``game``'s ``figures.toml`` under ``root``, checked: every key known, every file it
    shows declared among its evaluations (:class:`FiguresError` otherwise)."""
    import tomllib

    path = root / game / FIGURES
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise FiguresError(f"{path}: {exc}") from None
    w = str(path)
    _keys(data, w, {"evaluations"}, {"heuristic", "ppo", "mcts", "alphazero", "depth"})
    evaluations: dict[str, Evaluation] = {}
    if not isinstance(data["evaluations"], dict):
        raise FiguresError(f"{w} [evaluations] must be a table of files")
    for name, spec in data["evaluations"].items():
        at = f"{w} [evaluations.{name}]"
        if not NAME.fullmatch(name):
            raise FiguresError(f"{at}: a file's name is letters, digits, '-', '_' or '.'")
        _keys(spec, at, {"arguments"}, {"version"})
        prefix = f"{AGENTS.as_posix()}/{game}/{name}"
        if not isinstance(spec["arguments"], str):
            raise FiguresError(f"{at}.arguments must be a string")
        version = spec.get("version")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise FiguresError(f"{at}.version must be a whole number, not {version!r}")
        command = f"boardsim eval {game} {spec['arguments']} --out {prefix}"
        evaluations[prefix] = Evaluation(prefix, command, version)
    bar, heuristic_lines = None, ()
    if "heuristic" in data:
        h = _keys(
            data["heuristic"], f"{w} [heuristic]", {"bar", "lines"}, {"at_least", "evaluations"}
        )
        lines = []
        for i, line in enumerate(h["lines"] if isinstance(h["lines"], list) else [None]):
            _keys(line, f"{w} [heuristic].lines[{i}]", {"label", "options"})
            if not isinstance(line["options"], dict):
                raise FiguresError(f"{w} [heuristic].lines[{i}].options must be a table")
            lines.append((str(line["label"]), dict(line["options"])))
        at_least = h.get("at_least")
        bar = Bar(
            game,
            str(h["bar"]),
            tuple(lines),
            None if at_least is None else _number(at_least, f"{w} [heuristic].at_least"),
        )
        heuristic_lines = _lines(
            game, evaluations, h.get("evaluations", []), f"{w} [heuristic].evaluations"
        )
    ppo = None
    if "ppo" in data:
        _keys(data["ppo"], f"{w} [ppo]", {"evaluation"})
        ppo = _prefix(game, data["ppo"]["evaluation"], evaluations, f"{w} [ppo]")
    mcts: tuple[Lines, ...] = ()
    if "mcts" in data:
        _keys(data["mcts"], f"{w} [mcts]", {"evaluations"})
        mcts = _lines(game, evaluations, data["mcts"]["evaluations"], f"{w} [mcts].evaluations")
    depth: tuple[Lines, ...] = ()
    if "depth" in data:
        _keys(data["depth"], f"{w} [depth]", {"evaluations"})
        depth = _lines(game, evaluations, data["depth"]["evaluations"], f"{w} [depth].evaluations")
    targets = []
    if "alphazero" in data:
        az = _keys(data["alphazero"], f"{w} [alphazero]", {"targets"})
        items = az["targets"] if isinstance(az["targets"], list) else [None]
        for i, t in enumerate(items):
            at = f"{w} [[alphazero.targets]][{i}]"
            _keys(t, at, {"file", "what", "agent"}, {"opponent", "bound"})
            bound = t.get("bound")
            targets.append(
                Target(
                    _prefix(game, t["file"], evaluations, at),
                    str(t["what"]),
                    str(t["agent"]),
                    None if t.get("opponent") is None else str(t["opponent"]),
                    None if bound is None else _number(bound, f"{at}.bound"),
                )
            )
    return Figures(game, evaluations, bar, heuristic_lines, ppo, mcts, tuple(targets), depth)


def figure_games(root: Path = AGENTS) -> list[str]:
    """The games whose folder under ``root`` has a ``figures.toml``, sorted."""
    return sorted(p.parent.name for p in root.glob(f"*/{FIGURES}"))


def all_figures(root: Path = AGENTS) -> list[Figures]:
    """Every game's :class:`Figures`, in the games' order."""
    return [read_figures(g, root) for g in figure_games(root)]


def evaluations(root: Path = AGENTS) -> dict[str, Evaluation]:
    """Every declared ``boardsim eval`` file, by prefix."""
    return {p: e for f in all_figures(root) for p, e in f.evaluations.items()}


def _evaluation(prefix: str) -> Evaluation:
    found = evaluations()
    if prefix not in found:
        raise FiguresError(f"{prefix} is declared in no {AGENTS}/<game>/{FIGURES}")
    return found[prefix]


def _game_version(game: str) -> int:
    return definition(game).version


def _pct(x: float) -> str:
    """A rate in percent, to the hundredth where it has one (75.45%, 14.3%, 100.0%)."""
    text = f"{100 * x:.2f}"
    return (text[:-1] if text.endswith("0") else text) + "%"


def _with_interval(rate: float, low: float, high: float) -> str:
    return f"{_pct(rate)} [{100 * low:.1f}, {100 * high:.1f}]"


def _command_options(command: str) -> dict[str, str]:
    """The ``-o KEY=VALUE`` options a command line sets, as written."""
    words = shlex.split(command)
    return dict(
        words[i + 1].split("=", 1) for i, w in enumerate(words[:-1]) if w in ("-o", "--option")
    )


def _setting(game: str, options: Mapping[str, Any]) -> str:
    words = ", ".join(f"{k}={v}" for k, v in options.items())
    return f"{game} ({words})" if words else game


STALE = "these figures are of the earlier rules until the command is run again"


def _version_note(game: str, version: int, stale: str = STALE) -> str:
    """``game``'s rules version ``version``, flagged when the game has moved on."""
    now = _game_version(game)
    if version == now:
        return f"{game} rules version {version}"
    return f"{game} rules version {version} (**the game is now at version {now}**: {stale})"


def evaluation_version(evaluation: Evaluation, data: Mapping[str, Any]) -> int:
    """The rules version ``evaluation``'s file was played at."""
    version = data.get("version", evaluation.version)
    if version is None:
        raise ValueError(f"{evaluation.prefix}.json does not say its rules version")
    return int(version)


def _eval_table(selections: Sequence[Lines]) -> list[str]:
    out = [
        "| game | agent | against | games | wins | draws or shared wins | losses "
        "| win rate, wins only [95%] | score, a draw or shared win its share [95%] |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for sel in selections:
        evaluation = _evaluation(sel.prefix)
        data = evaluation.read()
        game = data["game"]
        shown = _command_options(evaluation.command)
        if data["mode"] == "cooperative":
            for r in data["solo"]:
                if r["agent"] not in sel.agents:
                    continue
                where = _setting(game, {**shown, "level": r["level"]})
                rate = _with_interval(r["win_rate"], r["ci_low"], r["ci_high"])
                losses = r["games"] - r["wins"]
                out.append(
                    f"| {where} | `{r['agent']}` (every Roman general) | the game "
                    f"| {r['games']} | {r['wins']} | - | {losses} | {rate} | - |"
                )
            continue
        players = int(data["options"].get("num_players", 2))
        for r in data["pairs"]:
            if r["agent"] not in sel.agents or (sel.against and r["opponent"] not in sel.against):
                continue
            against = f"`{r['opponent']}`"
            if players > 2:
                against = f"{players - 1} x {against} (fair share {100 / players:.0f}%)"
            low, high = wilson_interval(r["wins"], r["games"])
            wins = _with_interval(r["wins"] / r["games"], low, high)
            score = _with_interval(r["win_rate"], r["ci_low"], r["ci_high"])
            out.append(
                f"| {_setting(game, shown)} | `{r['agent']}` | {against} | {r['games']} "
                f"| {r['wins']} | {r['draws']} | {r['losses']} | {wins} | {score} |"
            )
    return out


def _eval_sources(prefixes: Sequence[str]) -> list[str]:
    """The commands that wrote the files, then each file's rules version and time."""
    out = ["```bash", *(_evaluation(p).command for p in prefixes), "```", ""]
    for p in prefixes:
        evaluation = _evaluation(p)
        data = evaluation.read()
        version = evaluation_version(evaluation, data)
        out.append(
            f"- `{p}.json` (and `.csv`): {_version_note(data['game'], version)}; "
            f"{data['seconds']:,.0f} s for the whole command."
        )
    return out


def _unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


# ---------------------------------------------------------------- the heuristic


def _strength_line(data: Mapping[str, Any], label: str, options: Mapping[str, Any]) -> Any:
    for row in data["rows"]:
        if row["label"] == label and row["options"] == dict(options):
            return row
    raise KeyError(f"no line {label!r} with {dict(options)} in {data['game']}'s strength file")


def _bar_line(bar: Bar) -> str:
    data = heuristic.read_strength(bar.game)
    rows = [_strength_line(data, label, options) for label, options in bar.lines]
    if bar.at_least is not None:
        rates = [r["win_rate"] for r in rows]
        low, high = _pct(min(rates)), _pct(max(rates))
        measured = low if low == high else f"{low} to {high}"
        met = min(rates) >= bar.at_least
    else:
        rates = [_with_interval(r["win_rate"], r["ci_low"], r["ci_high"]) for r in rows]
        measured = " < ".join(rates)
        met = all(b["ci_low"] > a["ci_high"] for a, b in itertools.pairwise(rows))
    return f"| {bar.game} | {bar.says} | {measured} | {'yes' if met else '**no**'} |"


def heuristic_block() -> str:
    """The heuristics' strength: the table of each game's strength file, the bars, and
    the heuristic's lines in the ``boardsim eval`` files."""
    begin, end = marks("heuristic")
    files = [heuristic.read_strength(g) for g in heuristic.strength_games()]
    figures = all_figures()
    shown = [sel for f in figures for sel in f.heuristic]
    out = [
        begin,
        "",
        "Each line is one compiled policy a seat (`boardsim.core.batch.play_games`), the "
        "counted seat's wins (a draw or a shared win is not a win; in Hispania the win is "
        "Rome's) with the 95% Wilson interval; games cut by the decision limit are counted "
        "apart. Each game's lines are written into `agents/<game>/heuristic-strength.json` "
        "by the command under the table (without `--game`, every game's).",
        "",
        "| game | matchup | games | win rate [95%] | cut by the limit |",
        "|---|---|---|---|---|",
    ]
    for data in files:
        for r in data["rows"]:
            rate = _with_interval(r["win_rate"], r["ci_low"], r["ci_high"])
            out.append(
                f"| {_setting(data['game'], r['options'])} | {r['label']} | {r['games']} "
                f"| {rate} | {r['truncated']} |"
            )
    out += ["", "```bash", *(d["command"] for d in files), "```", ""]
    for d in files:
        out.append(
            f"- `{heuristic.strength_path(d['game'])}`: {_version_note(d['game'], d['version'])}; "
            f"master seed {d['seed']}, a {d['max_decisions']:,}-decision limit; "
            f"{d['seconds']:,.0f} s on one thread."
        )
    out += [
        "",
        "The issue's bars for the heuristics, read from these files:",
        "",
        "| game | bar | measured | met |",
        "|---|---|---|---|",
        *(_bar_line(f.bar) for f in figures if f.bar is not None),
        "",
        "The same heuristics in `boardsim eval` runs (seats rotated; in a game of more than "
        "two players the agent holds one seat against a table of its opponent):",
        "",
        *_eval_table(shown),
        "",
        *_eval_sources(_unique([s.prefix for s in shown])),
        "",
        end,
    ]
    return "\n".join(out)


# ---------------------------------------------------------------- PPO


def checkpoint_record(game: str) -> dict[str, Any]:
    """What ``boardsim train`` recorded in ``agents/GAME/ppo.zip`` (``boardsim.json``)."""
    with zipfile.ZipFile(Path("agents") / game / "ppo.zip") as z:
        return json.loads(z.read("boardsim.json"))


PPO_BAR = 0.9  # the bar: PPO wins at least 90% of its games against random


def _ppo_lines(game: str, prefix: str) -> Lines:
    spec = PPO_SPEC.format(game=game)
    if _evaluation(prefix).read()["mode"] == "cooperative":
        return Lines(prefix, ("random", "heuristic", spec))
    return Lines(prefix, (spec,))


def ppo_block() -> str:
    """The shipped PPO checkpoints and their ``boardsim eval`` evaluations."""
    begin, end = marks("ppo")
    out = [
        begin,
        "",
        "| game | checkpoint | learner decisions | wall time when saved | trained at |",
        "|---|---|---|---|---|",
    ]
    shipped = [(f.game, f.ppo) for f in all_figures() if f.ppo is not None]
    for game, _ in shipped:
        rec = checkpoint_record(game)
        how = "PPO"
        if rec["config"].get("imitate"):
            how = f"imitation of the heuristic (`--imitate {rec['config']['imitate']}`), then PPO"
        trained = _setting(game, rec["config"]["options"])
        rules = _version_note(game, rec["game_version"], "the policy knows the earlier rules")
        out.append(
            f"| {game} | `agents/{game}/ppo.zip`: {how} | {rec['timesteps']:,} "
            f"| {rec['wall_seconds']:,.0f} s | {trained}, {rules} |"
        )
    lines = [_ppo_lines(g, prefix) for g, prefix in shipped]
    out += [
        "",
        "Each checkpoint's evaluation, by `boardsim eval` (seats rotated; the policy samples "
        "its actions unless the command says `--ppo-deterministic`):",
        "",
        *_eval_table(lines),
        "",
    ]
    bar = []
    for sel in lines:
        data = _evaluation(sel.prefix).read()
        for r in data["pairs"]:
            if r["agent"] in sel.agents and r["opponent"] == "random":
                low, _ = wilson_interval(r["wins"], r["games"])
                where = _setting(data["game"], _command_options(_evaluation(sel.prefix).command))
                met = "met" if low >= PPO_BAR else "not met"
                bar.append(
                    f"{where}: {_pct(r['wins'] / r['games'])} of its games won against random "
                    f"(lower 95% bound {_pct(low)}; the bar is {met})"
                )
    out += [
        f"The issue's bar, PPO wins at least {PPO_BAR:.0%} of its two-player games against "
        "random: " + "; ".join(bar) + ".",
        "",
        *_eval_sources([s.prefix for s in lines]),
        "",
        end,
    ]
    return "\n".join(out)


# ---------------------------------------------------------------- MCTS


def _read_with_setting(sel: Lines) -> tuple[dict[str, Any], str]:
    """The file of ``sel`` and its game with the options its command sets."""
    evaluation = _evaluation(sel.prefix)
    data = evaluation.read()
    return data, _setting(data["game"], _command_options(evaluation.command))


def _mcts_bar(sel: Lines, agent: str = "mcts:200", baseline: str = "heuristic") -> str:
    """Whether ``agent`` is ahead of ``baseline`` in one file: its score's interval above
    the fair share (a round robin), or its side's win rate's interval above the
    baseline's (a cooperative game)."""
    data, where = _read_with_setting(sel)
    if data["mode"] == "cooperative":
        by_agent = {r["agent"]: r for r in data["solo"]}
        a, b = by_agent[agent], by_agent[baseline]
        met = a["ci_low"] > b["ci_high"]
        return (
            f"{where}, {'met' if met else 'not met'} (Rome's win rate's interval "
            f"{'above' if met else 'not above'} the heuristic's)"
        )
    players = int(data["options"].get("num_players", 2))
    row = next(r for r in data["pairs"] if (r["agent"], r["opponent"]) == (agent, baseline))
    met = row["ci_low"] > 1 / players
    return (
        f"{where}, {'met' if met else 'not met'} (the score's interval "
        f"{'above' if met else 'not above'} the fair share, {100 / players:.0f}%)"
    )


def mcts_block() -> str:
    """MCTS at 200 simulations against the heuristic, from the ``mcts-eval`` files."""
    begin, end = marks("mcts")
    shown = [sel for f in all_figures() for sel in f.mcts]
    out = [
        begin,
        "",
        "By `boardsim eval`, seats rotated, master seed 10 (games the search's settings were "
        "never tuned on), the game's default search settings; `mcts:200` seats play whole "
        "games in compiled code, one a thread, when the rest of the table is compiled. At "
        "four players `boardsim eval` plays both tables, one MCTS against three heuristics "
        "and one heuristic against three MCTS players; in Hispania the win is Rome's, with "
        "random and heuristic generals in the same run:",
        "",
        *_eval_table(shown),
        "",
        "The issue's bar, MCTS at 200 simulations beats the heuristic: "
        + "; ".join(_mcts_bar(sel) for sel in shown)
        + ".",
        "",
        *_eval_sources([s.prefix for s in shown]),
        "",
        end,
    ]
    return "\n".join(out)


DEEPER, SHALLOWER = "mcts:800", "mcts:200"


def _depth_reading(sel: Lines) -> str:
    """Whether :data:`DEEPER` is ahead of :data:`SHALLOWER` in one file, read off the
    intervals: a round robin's score against the fair share, a cooperative game's two
    win rates against each other (on the same deals; apart only when the intervals are)."""
    data, where = _read_with_setting(sel)
    if data["mode"] == "cooperative":
        by_agent = {r["agent"]: r for r in data["solo"]}
        a, b = by_agent[DEEPER], by_agent[SHALLOWER]
        if a["ci_low"] > b["ci_high"]:
            word = "more search wins more (the intervals apart)"
        elif a["ci_high"] < b["ci_low"]:
            word = "**more search wins less** (the intervals apart)"
        else:
            word = f"**not apart** at {a['games']:,} games (the intervals overlap)"
        return (
            f"{where}: Rome wins {_pct(a['win_rate'])} with `{DEEPER}` and "
            f"{_pct(b['win_rate'])} with `{SHALLOWER}`: {word}"
        )
    row = next(r for r in data["pairs"] if (r["agent"], r["opponent"]) == (DEEPER, SHALLOWER))
    score = _with_interval(row["win_rate"], row["ci_low"], row["ci_high"])
    if row["ci_low"] > 0.5:
        word = "more search plays better (the interval above 50%)"
    elif row["ci_high"] < 0.5:
        word = "**more search plays worse** (the interval below 50%)"
    else:
        word = f"**not apart** at {row['games']:,} games (the interval holds 50%)"
    return f"{where}: `{DEEPER}` scores {score} against `{SHALLOWER}`: {word}"


def depth_block() -> str:
    """Whether more search helps: ``mcts:800`` against ``mcts:200`` in each game, and the
    searches at other settings a game measures against the same ``mcts:200`` to say why,
    from each game's ``[depth]`` files."""
    begin, end = marks("depth")
    shown = [sel for f in all_figures() for sel in f.depth]
    if not shown:
        return "\n".join([begin, "", "No game measures it yet.", "", end])
    out = [
        begin,
        "",
        f"`{DEEPER}` against `{SHALLOWER}` (four times the simulations, the game's default "
        "search settings otherwise), by `boardsim eval`, seats rotated, on a seed no "
        "training or tuning used; where a game asks why more search does or does not help, "
        f"searches at other settings (`{DEEPER}:KEY=VALUE`: the settings that differ from "
        f"the game's) play the same `{SHALLOWER}` in the same file. In Hispania the win is "
        "Rome's, every Roman general the agent, on the same deals:",
        "",
        *_eval_table(shown),
        "",
        "More search against less: "
        + "; ".join(_depth_reading(sel) for sel in shown if DEEPER in sel.agents)
        + ".",
        "",
        *_eval_sources(_unique([s.prefix for s in shown])),
        "",
        end,
    ]
    return "\n".join(out)


# ---------------------------------------------------------------- the self-play networks


def _target_row(t: Target) -> str:
    data = _evaluation(t.prefix).read()
    if data["mode"] == "cooperative":
        by_agent = {r["agent"]: r for r in data["solo"]}
        r = by_agent[t.agent]
        bound = by_agent[t.opponent]["win_rate"] if t.bound is None and t.opponent else t.bound
        assert bound is not None
        measured = _with_interval(r["win_rate"], r["ci_low"], r["ci_high"])
        games = r["games"]
        value = r["win_rate"]
        wanted = f"at least {_pct(bound)}" + (
            f" (`{t.opponent}`'s, same file)" if t.bound is None else ""
        )
    else:
        r = next(p for p in data["pairs"] if (p["agent"], p["opponent"]) == (t.agent, t.opponent))
        bound = t.bound if t.bound is not None else 0.5
        measured = _with_interval(r["win_rate"], r["ci_low"], r["ci_high"])
        games = r["games"]
        value = r["win_rate"]
        wanted = f"at least {_pct(bound)}"
    gap = 100 * (value - bound)
    verdict = "met" if value >= bound else f"missed by {-gap:.1f} points"
    return f"| {t.what} | {wanted} | {measured} | {games:,} | {verdict} |"


def shipped_alphazero(game: str) -> Any:
    """The self-play network shipped for ``game`` in the checkout (None: none)."""
    path = Path("agents") / game / "alphazero.npz"
    return Network.load(path) if path.is_file() else None


def _init_path(command: str) -> str | None:
    """The network a training command started from (its ``--init PATH``), if any."""
    words = shlex.split(command)
    for i, word in enumerate(words):
        if word == "--init" and i + 1 < len(words):
            return words[i + 1]
        if word.startswith("--init="):
            return word.split("=", 1)[1]
    return None


def _started_from(record: Mapping[str, Any]) -> list[str]:
    """A run that started from another network (``--init``): that network's own training,
    from its record, and so on back to the first stage that did not (a network trained
    from one trained from another), earliest first, so the page shows every stage
    (nothing when the first network named has no record)."""
    stages: list[tuple[str, Mapping[str, Any]]] = []
    path = _init_path(record["command"])
    while path is not None and Path(path).is_file() and len(stages) < 8:
        before = Network.load(path).meta.get("training", {})
        if not before or any(path == seen for seen, _ in stages):
            break
        stages.append((path, before))
        path = _init_path(before["command"])
    lines: list[str] = []
    for k, (path, before) in enumerate(reversed(stages)):
        if len(stages) == 1:
            heading = f"It started from `{path}`, itself trained by:"
        elif k == 0:
            heading = f"Its first stage, `{path}`, was trained by:"
        else:
            heading = f"Then `{path}`, from the stage before, by:"
        minutes = before["wall_seconds"] / 60
        lines += [
            heading,
            "",
            "```bash",
            before["command"] + export_flags(before),
            "```",
            "",
            f"({before['iterations']} iterations, {before['games']:,} self-play games, "
            f"{minutes:.0f} minutes; its iteration {before['best_iteration']}.)",
            "",
        ]
    if lines:
        lines[-2] += " This run:"
    return lines


def alphazero_block() -> str:
    """The shipped self-play networks: how each was trained (the command, the budget and
    the curve, from the network's own training record) and issue 16's targets, measured
    by the committed ``alphazero-*`` evaluation files."""
    begin, end = marks("alphazero")
    out = [begin, ""]
    targets = {f.game: f.targets for f in all_figures() if f.targets}
    games = [g for g in targets if shipped_alphazero(g) is not None]
    if not games:
        out += ["No self-play network is shipped yet.", ""]
    for game in games:
        record = shipped_alphazero(game).meta.get("training", {})
        out += [f"### {game}", ""]
        if record:
            minutes = record["wall_seconds"] / 60
            out += [
                "Trained by (on the 2-core machine, shared with other jobs):",
                "",
                "```bash",
                record["command"] + export_flags(record) + f" --export agents/{game}/alphazero.npz",
                "```",
                "",
                *_started_from(record),
                f"{record['iterations']} iterations, {record['games']:,} self-play games, "
                f"{record['positions']:,} positions, {minutes:.0f} minutes of wall time; the "
                f"shipped network is iteration {record['best_iteration']}'s. The curve (the "
                "network alone against the heuristic on the run's fixed deals; in Hispania "
                "Rome's win rate):",
                "",
                curve_markdown(record),
                "",
            ]
        out += [
            "| target (issue 16) | wanted | measured [95%] | games | verdict |",
            "|---|---|---|---|---|",
            *(_target_row(t) for t in targets[game]),
            "",
            *_eval_sources(_unique([t.prefix for t in targets[game]])),
            "",
        ]
    out.append(end)
    return "\n".join(out)


# ---------------------------------------------------------------- speed

SPEED_RESULTS = Path("benchmarks/results/networks-latest.json")  # the checkout's
SPEED_COLUMNS = (
    ("mlp_2x256", "2x256 MLP (random weights)"),
    ("shipped_alphazero", "shipped network"),
    ("heuristic", "heuristic"),
    ("mcts_200", "MCTS@200"),
)


def _rate(row: Mapping[str, Any], key: str) -> str:
    return f"{row[key]['decisions_per_second']:,.0f}" if key in row else "not measured"


def speed_block(path: Path = SPEED_RESULTS) -> str:
    """Decisions a second per core of a network seat beside the heuristic's and MCTS's,
    the multiply-add bound, and the search against OpenSpiel: the benchmark's latest
    results file, as it wrote them."""
    begin, end = marks("speed")
    data = json.loads(path.read_text())
    when = data.get("started_utc", "a date the file does not record")
    out = [
        begin,
        "",
        f"`python {data['command']}` ({when}; {data['cpu']}, one thread, niceness "
        f"{data['niceness']}, load average {data['load_average_at_start']:.1f} at the start "
        f"on 2 cores), in `{path.as_posix()}`: decisions a second of whole `play_games` games, "
        "every seat the same player.",
        "",
        "| game | " + " | ".join(label for _, label in SPEED_COLUMNS) + " | FMA-loop bound, "
        "dense / non-zero inputs | policy multiply-adds a decision, dense / non-zero inputs |",
        "|---|" + "---|" * (len(SPEED_COLUMNS) + 2),
    ]
    for name, row in data["games"].items():
        bound = row["bound_decisions_per_second"]
        out.append(
            f"| {name} | "
            + " | ".join(_rate(row, key) for key, _ in SPEED_COLUMNS)
            + f" | {bound['fma_loop_dense']:,.0f} / {bound['fma_loop_sparse']:,.0f} | "
            f"{row['multiply_adds_policy_dense']:,} / {row['multiply_adds_policy_sparse']:,} "
            f"({row['mean_nonzero_inputs']:.0f} inputs) |"
        )
    out.append("")
    search = data.get("mcts_connect_four")
    if search:
        out += [
            f"The search on the calibration connect four ({search['simulations']:,} "
            f"simulations a move, random rollouts, {search['positions']} positions): "
            f"{search['boardsim_simulations_per_second']:,.0f} simulations a second against "
            f"OpenSpiel's C++ `MCTSBot` {search['openspiel_simulations_per_second']:,.0f} "
            f"({search['boardsim_over_openspiel']:.2f}x; the median of "
            f"{search['windows']} paired windows {search['median_ratio_of_windows']:.2f}x).",
            "",
        ]
    out += ["| target (issue 16) | measured | wanted | met |", "|---|---|---|---|"]
    for t in data["targets"]:
        met = {True: "yes", False: "no", None: "not measured"}[t["met"]]
        value = f"{t['value']:,.0f}" if abs(t["value"]) >= 100 else f"{t['value']:.2f}"
        out.append(f"| {t['target']} | {value} | {t['bound']} | {met} |")
    out += ["", end]
    return "\n".join(out)


# ---------------------------------------------------------------- the page

BLOCKS: dict[str, Callable[[], str]] = {
    "heuristic": heuristic_block,
    "ladder": ladder.ladder_section,
    "ppo": ppo_block,
    "mcts": mcts_block,
    "depth": depth_block,
    "alphazero": alphazero_block,
    "speed": speed_block,
}


def page_block(text: str, name: str) -> str:
    """Block ``name`` of the page ``text``, its marks included ('' if it has none)."""
    begin, end = marks(name)
    if begin not in text or end not in text:
        return ""
    _, _, rest = text.partition(begin)
    return begin + rest.partition(end)[0] + end


def write_docs(page: Path = DOCS_PAGE) -> bool:
    """Rewrite every generated block of ``page`` from the files; True if it changed."""
    text = page.read_text()
    missing = [name for name in BLOCKS if not page_block(text, name)]
    if missing:
        lines = " and ".join(f"{marks(n)[0]!r} / {marks(n)[1]!r}" for n in missing)
        raise ValueError(f"{page} has no {', '.join(missing)} block: add the lines {lines}")
    new = text
    for name, render in BLOCKS.items():
        begin, end = marks(name)
        head, _, rest = new.partition(begin)
        _, _, tail = rest.partition(end)
        new = head + render() + tail
    if new == text:
        return False
    atomic_write_text(page, new)
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m boardsim.research.agent_pages``: write docs/agents.md's generated blocks."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__)
    parser.parse_args(argv)
    if not (Path("agents").is_dir() and DOCS_PAGE.is_file()):
        raise SystemExit(
            f"run from the root of a boardsim checkout (no agents/ and {DOCS_PAGE} in {Path.cwd()})"
        )
    changed = write_docs()
    print(f"{DOCS_PAGE} {'written' if changed else 'unchanged'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

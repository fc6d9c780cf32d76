"""Adopting a ``boardsim eval`` file written before pair records existed, without playing.

Such a file holds every pair's results (a cooperative game's cells) and the command that
made it, but not the settings the pairs were played with, so nothing of it is read back
(:mod:`boardsim.research.reuse`). When a caller can vouch for what the file does not say
(the rules version it was played at, that the networks it played are today's: the
strength ladders' checks, :func:`boardsim.research.ladder.adopt_ladder`),
:func:`adopt_results` writes the records from the file's own results: it runs the
tournament the file's command describes with every pair *read from the file* instead of
played, so each record is the one a run playing the pair today would write (today's
settings, each agent's fingerprint as :func:`~boardsim.research.reuse.agent_fingerprint`
takes it, the file's scores: rounded to 6 decimals, so exact with two players, whose games
score 0, 1/2 or 1), and it checks that what that run finds (the results,
the win-rate matrix, the Elo ratings and their intervals) is the file's, digit for digit.

Each adopted record says so: ``"adopted": {"from_commit": ..., "rules_version": N}``
(kept by every later run that reads the pair back: :func:`~boardsim.research.reuse.carried`).
The pairs' own times were not recorded: each record takes an even share of the file's
``seconds``, so a later run's total, which adds its records' times up, stays the file's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardsim.api import make_game
from boardsim.core.errors import DataError
from boardsim.core.options import COMMON_OPTIONS, Option, with_later_defaults
from boardsim.research.evaluation import EvalRequest
from boardsim.research.reuse import (
    ADOPTED,
    RECORDS_KEY,
    PriorResults,
    Reused,
    _check_result,
)
from boardsim.research.tournament import TournamentResult, cooperative, round_robin

# what adoption may change in a file besides adding its records: the rules version (the
# file has none), the options (today's resolved ones: checked equal under
# with_later_defaults) and the records' seconds
NOT_COMPARED = ("version", RECORDS_KEY, "options")


class AdoptionError(ValueError):
    """A file that cannot be adopted: the message says why."""


@dataclass
class Adoption:
    """What :func:`adopt_results` made: the file's result with its records (``result``),
    the pairs (cells) adopted, and those refused with the reason (``refused``)."""

    result: TournamentResult
    adopted: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def _request(command: Any, where: str) -> EvalRequest:
    """The evaluation a file's recorded command asks for; :class:`AdoptionError` unless it
    is a ``boardsim eval`` command written the way ``boardsim eval`` records its own (every
    setting spelled out)."""
    try:
        request = EvalRequest.from_command(str(command))
        request.game_options()  # its -o words, checked
        return request
    except ValueError as exc:
        raise AdoptionError(f"{where}: {exc}") from None


class _FromFile(PriorResults):
    """Every pair (cell) read from the file's results, never played; a pair the file does
    not hold is an error (adoption never plays)."""

    def __init__(self, where: str, data: dict[str, Any], share: float, adopted: dict[str, Any]):
        super().__init__(where, True)
        self.mode = data["mode"]
        rows = data["pairs"] if self.mode == "round_robin" else data["solo"]
        key = "opponent" if self.mode == "round_robin" else "level"
        self.results = {(r["agent"], r[key]): r for r in rows}
        self.share = share
        self.adopted = adopted
        self.specs: list[list[str]] = []  # each pair's (cell's) agents, in the order taken

    def take(self, settings: dict[str, Any], declared: tuple[Option, ...]) -> Reused | None:
        specs = [a["spec"] for a in settings["agents"]]
        record: dict[str, Any] = {"settings": settings, "seconds": self.share}
        record[ADOPTED] = self.adopted
        if self.mode == "round_robin":
            a, b = specs
            keys = [(a, b), (b, a)]
            record["scores"] = [
                {"agent": x, "opponent": y, "score": self.results[(x, y)]["score"]} for x, y in keys
            ]
        else:
            level = str(settings["options"].get("level", "-"))
            keys = [(specs[0], level)]
            record["level"] = level
        missing = [" / ".join(k) for k in keys if k not in self.results]
        if missing:  # checked before: never played instead
            raise AdoptionError(f"{self.path} has no result for {', '.join(missing)}")
        self.reused += 1
        self.specs.append(specs)
        return Reused(record, [self.results[k] for k in keys], self.path)


def expected_keys(mode: str, agents: Sequence[str], levels: Sequence[str]) -> set[Any]:
    """The results a complete file holds: both ways of every pair, or every agent at
    every level."""
    if mode == "round_robin":
        return {(a, b) for a in agents for b in agents if a != b}
    return {(a, lv) for a in agents for lv in levels}


def check_complete(data: dict[str, Any], where: str, levels: Sequence[str]) -> None:
    """:class:`AdoptionError` unless ``data`` holds exactly the results of every pair (cell)
    of its agents, each well formed and of its ``games_per_pair`` games."""
    mode = data["mode"]
    name = "pairs" if mode == "round_robin" else "solo"
    rows = data.get(name)
    if not isinstance(rows, list):
        raise AdoptionError(f"{where}: no list of {name}")
    found = set()
    for n, row in enumerate(rows):
        try:
            _check_result(row, mode, where, f"{name}[{n}]")
        except DataError as exc:
            raise AdoptionError(str(exc)) from None
        if row["games"] != data["games_per_pair"]:
            raise AdoptionError(
                f"{where}: {name}[{n}] has {row['games']} games, not {data['games_per_pair']}"
            )
        found.add((row["agent"], row["opponent" if mode == "round_robin" else "level"]))
    expected = expected_keys(mode, data["agents"], levels)
    if found != expected:
        missing = sorted(" / ".join(k) for k in expected - found)
        extra = sorted(" / ".join(k) for k in found - expected)
        raise AdoptionError(
            f"{where} is incomplete: "
            + "; ".join(
                x
                for x in (
                    f"no result for {', '.join(missing)}" if missing else "",
                    f"results of no pair of its agents: {', '.join(extra)}" if extra else "",
                )
                if x
            )
        )
    if len(rows) != len(found):
        raise AdoptionError(f"{where}: a pair's result is there twice")


def adopt_results(
    data: dict[str, Any],
    where: str,
    rules_version: int,
    from_commit: str,
    refuse: Callable[[Sequence[str]], str | None] = lambda specs: None,
) -> Adoption:
    """``data`` (a ``boardsim eval`` file's JSON, from ``where``, written at ``from_commit``
    without records) with the records of its pairs, played at ``rules_version`` (vouched for
    by the caller: it must be today's), without playing; ``refuse(specs)``: a reason not to
    adopt a pair (a cell) of these agents, or None. :class:`AdoptionError` saying why not.

    The file's command is run as ``boardsim eval`` runs it, every pair read from the file;
    the file must be complete and its options today's (an option added since taking its
    default), and what the run finds must be the file's numbers.
    """
    if not isinstance(data, dict) or data.get("mode") not in ("round_robin", "cooperative"):
        raise AdoptionError(f"{where} is not a boardsim eval result (its mode is not known)")
    if RECORDS_KEY in data:
        raise AdoptionError(f"{where} already records its pairs' settings: nothing to adopt")
    missing = [
        k
        for k in ("game", "options", "agents", "games_per_pair", "seed", "seconds", "command")
        if k not in data
    ]
    if missing:
        raise AdoptionError(f"{where} lacks {', '.join(missing)}")
    plan = _request(data["command"], where)
    options = plan.game_options()
    told = {
        "game": plan.game,
        "agents": list(plan.agents),
        "games_per_pair": plan.games,
        "seed": plan.seed,
    }
    for key, value in told.items():
        if data[key] != value:
            raise AdoptionError(
                f"{where}: {key} is {data[key]!r} but its command says {value!r}: {data['command']}"
            )
    try:
        game = make_game(plan.game, **options)
    except ValueError as exc:
        raise AdoptionError(f"{where}: {exc}") from None
    mode = "cooperative" if game.is_cooperative() else "round_robin"
    if data["mode"] != mode:
        raise AdoptionError(f"{where}: mode {data['mode']!r}, but its command plays {mode!r}")
    if rules_version != game.definition.version:
        raise AdoptionError(
            f"{plan.game}'s rules are at version {game.definition.version} today, not "
            f"{rules_version}: adoption can only claim results of today's rules"
        )
    declared = (*COMMON_OPTIONS, *game.definition.options)
    _check_options(data["options"], game.options, declared, where)
    # a cooperative game's cells: its agents at each level (the options' own without levels)
    levels = plan.level_list() or [str(game.options.get("level", "-"))]
    check_complete(data, where, levels)

    pairs = len(expected_keys(mode, plan.agents, levels))
    if mode == "round_robin":
        pairs //= 2
    share = round(float(data["seconds"]) / pairs, 3)
    adopted = {"from_commit": from_commit, "rules_version": rules_version}
    source = _FromFile(where, data, share, adopted)
    if mode == "round_robin":
        result = round_robin(
            plan.game,
            plan.agents,
            plan.games,
            plan.seed,
            plan.agent_maker(),
            reuse=source,
            **options,
        )
    else:
        result = cooperative(
            plan.game,
            plan.agents,
            plan.games,
            plan.level_list(),
            plan.seed,
            plan.agent_maker(),
            reuse=source,
            **options,
        )
    result.command = data["command"]
    result.seconds = data["seconds"]
    _check_numbers(data, result, where)

    out = Adoption(result)
    records = []
    for specs, record in zip(source.specs, result.pair_records, strict=True):
        name = " against ".join(specs)
        if mode == "cooperative":
            name += f" at level {record['level']}"
        reason = refuse(specs)
        if reason is None:
            records.append(record)
            out.adopted.append(name)
        else:
            out.refused.append(f"{name}: {reason}")
    if not records:
        raise AdoptionError(f"{where}: no pair can be adopted ({'; '.join(out.refused)})")
    result.pair_records = records
    return out


def _check_options(
    saved: Any, today: dict[str, Any], declared: tuple[Option, ...], where: str
) -> None:
    if not isinstance(saved, dict):
        raise AdoptionError(f"{where}: options must be an object")
    then = json.loads(json.dumps(with_later_defaults(declared, saved)))
    now = json.loads(json.dumps(dict(today)))
    differ = sorted(k for k in {*then, *now} if then.get(k, "(none)") != now.get(k, "(none)"))
    if differ:
        shown = ", ".join(
            f"{k}={then.get(k, '(none)')!r} (today {now.get(k, '(none)')!r})" for k in differ
        )
        raise AdoptionError(f"{where} was played with other options than today's: {shown}")


def _check_numbers(data: dict[str, Any], result: TournamentResult, where: str) -> None:
    """What the run found from the file's results is the file's (but for what adoption
    may change: :data:`NOT_COMPARED`)."""
    found = json.loads(result.to_json())
    keys = sorted({*data, *found} - set(NOT_COMPARED))
    differ = [k for k in keys if data.get(k) != found.get(k)]
    if differ:
        raise AdoptionError(
            f"{where}: its {', '.join(differ)} are not what its pairs' results give: "
            "the file was not written whole by its command"
        )

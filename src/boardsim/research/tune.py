"""Tuning a game to a target: search its options for settings that meet balance targets.

``boardsim balance tune farrapos --target republic=0.5@heuristic --target
republic=0.5@mcts:25 --search victory_vp=12:40 --search siege=false,true --trials 40``

- A **target** is ``WHAT=VALUE@SKILL`` or ``WHAT=LOW-HIGH@SKILL``: ``WHAT`` a seat (its
  name or number: that seat's side's win rate), the game's subject (``rome``), or
  ``balance`` / ``draws`` (:mod:`boardsim.research.metrics`); values in ``[0, 1]``, or in
  percent with a ``%`` (``40-60%``); ``SKILL`` the agent every seat plays (``random``,
  ``heuristic``, ``mcts:N``; default ``heuristic``). A trial's loss is the sum over the
  targets of the distance of the measured value to the target's range (0 inside it).
- A **search** key is ``KEY=LOW:HIGH`` for an int option (a numeric rule parameter the
  game declares, Farrapos's ``victory_vp``; within its declared bounds) or
  ``KEY=V1,V2,...`` for a choice among values (typed as in sweeps).
- **Optuna** proposes the settings (its TPE sampler, seeded) and keeps every trial in its
  RDB storage, ``DIR/study.db`` (SQLite): a killed search resumes where it stopped, the
  trial that was running when it was killed re-run with its settings.
- **Common random numbers**: every trial plays games ``0 .. G-1`` of the same seed, so two
  settings are compared on the same deals and dice.
- **Ray** (``backend="ray"``): each batch of trials is asked together and played as Ray
  tasks (Optuna's ask-and-tell, the study in one storage); the local backend needs no
  cluster.
- Results: ``DIR/trials.csv`` (every trial: its settings, loss, each target's value with its
  95% interval), ``DIR/tune.md`` (the best settings, their intervals on the search's games
  and on fresh games, seed + 1, against the winner's curse) and ``DIR/search.png``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.api import make_game
from boardsim.core.cluster import _require_ray, init_ray
from boardsim.core.errors import OptionError
from boardsim.core.game import RuleSource
from boardsim.files import atomic_write_bytes, atomic_write_text
from boardsim.research import metrics
from boardsim.research.cells import Cell, grid_option, make_cell, play_cell, typed_word
from boardsim.research.players import check_compiled
from boardsim.research.precision import check_precision, games_wanted
from boardsim.research.report import pyplot
from boardsim.research.reuse import networks_played

STUDY_DB = "study.db"
MANIFEST = "tune.json"
TRIALS_CSV = "trials.csv"
REPORT = "tune.md"
PLOT = "search.png"
GLOBAL_WHATS = ("balance", "draws")


@dataclass(frozen=True)
class Target:
    """One balance target: ``what`` measured with every seat on ``skill`` in ``[low, high]``."""

    what: str
    low: float
    high: float
    skill: str
    text: str

    def distance(self, value: float) -> float:
        """How far ``value`` is from the target's range (0 inside it; 1 when unmeasured)."""
        if value != value:
            return 1.0
        return max(self.low - value, 0.0, value - self.high)


@dataclass(frozen=True)
class SearchKey:
    """One searched option: an int range ``[low, high]`` or a list of ``choices``."""

    name: str
    low: int | None = None
    high: int | None = None
    choices: tuple[Any, ...] | None = None

    def distribution(self) -> Any:
        """The Optuna distribution of this key."""
        from optuna.distributions import CategoricalDistribution, IntDistribution

        if self.choices is not None:
            return CategoricalDistribution(list(self.choices))
        return IntDistribution(int(self.low), int(self.high))


# ------------------------------------------------------------------ parsing
def _fraction(text: str, target: str) -> float:
    t = text.strip()
    percent = t.endswith("%")
    try:
        x = float(t.rstrip("%"))
    except ValueError:
        raise OptionError(f"target {target!r}: {text!r} is not a number") from None
    if percent:
        x /= 100.0
    if not 0.0 <= x <= 1.0:
        raise OptionError(f"target {target!r}: {text!r} is not a rate in [0, 1] (or 0-100%)")
    return x


def parse_target(game_name: str, text: str, base_options: Mapping[str, Any] = {}) -> Target:
    """``"republic=0.5@heuristic"``, ``"rome=40-60%@mcts:25"`` -> :class:`Target`."""
    what, sep, rest = text.partition("=")
    if not sep or not what.strip() or not rest.strip():
        raise OptionError(f"target {text!r} is not WHAT=VALUE[@SKILL] or WHAT=LOW-HIGH[@SKILL]")
    value, _, skill = rest.partition("@")
    skill = skill.strip() or "heuristic"
    check_compiled([skill])
    what = what.strip().lower()
    _what_column(game_name, what, base_options, text)
    pct = value.strip().endswith("%")
    lo_text, dash, hi_text = value.strip().rstrip("%").partition("-")
    suffix = "%" if pct else ""
    low = _fraction(lo_text + suffix, text)
    high = _fraction(hi_text + suffix, text) if dash else low
    if low > high:
        raise OptionError(f"target {text!r}: the range's low end is above its high end")
    return Target(what, low, high, skill, text)


def _what_column(game_name: str, what: str, base_options: Mapping[str, Any], text: str) -> int:
    """The seat whose side a target measures (-1 for balance/draws), or a clear error."""
    if what in GLOBAL_WHATS:
        return -1
    game = make_game(game_name, **base_options)
    names = [n.lower() for n in game.agent_names()]
    subject = (game.definition.subject or "").lower().removeprefix("the ")
    if what == subject:
        return 0
    if what in names and len(names) == game.num_players:
        return names.index(what)
    if what.isdigit() and int(what) < game.num_players:
        return int(what)
    known = [*GLOBAL_WHATS, *([subject] if subject else []), *names]
    raise OptionError(f"target {text!r}: {what!r} is not one of {', '.join(known)} or a seat")


def parse_search(game_name: str, text: str, base_options: Mapping[str, Any] = {}) -> SearchKey:
    """``"victory_vp=12:40"`` (an int range) or ``"siege=false,true"`` (choices)."""
    key, sep, values = text.partition("=")
    key = key.strip()
    if not sep or not key or not values.strip():
        raise OptionError(f"search {text!r} is not KEY=LOW:HIGH or KEY=V1,V2,...")
    game = make_game(game_name, **base_options)
    option = grid_option(game, key)
    if ":" in values and option.choices is None:
        lo_text, _, hi_text = values.partition(":")
        try:
            low, high = int(lo_text), int(hi_text)
        except ValueError:
            raise OptionError(f"search {text!r}: LOW:HIGH must be whole numbers") from None
        if low >= high:
            raise OptionError(f"search {text!r}: LOW must be below HIGH")
        option.validate(low, game_name)
        option.validate(high, game_name)
        return SearchKey(key, low=low, high=high)
    choices = tuple(typed_word(option, w, game_name) for w in values.split(",") if w.strip())
    if len(choices) < 2:
        raise OptionError(f"search {text!r}: give at least two values or a LOW:HIGH range")
    return SearchKey(key, choices=choices)


# ------------------------------------------------------------------ one trial
def measure(
    game_name: str,
    options: Mapping[str, Any],
    targets: Sequence[Target],
    games: int,
    seed: int,
    precision: float | None = None,
    most: int | None = None,
    threads: int | None = None,
) -> dict[str, Any]:
    """Play the targets' skills at ``options`` (games ``0 .. games-1`` of ``seed``; with a
    ``precision``, in rounds from those until each skill's seats' win rates are that
    precise or it holds ``most`` games, the trial's budget) and measure each target:
    ``{"loss", "targets": [{"value", "low", "high", "games", "half_width"}, ...]}``."""
    played = {}
    for skill in dict.fromkeys(t.skill for t in targets):
        cell = make_cell(game_name, {"skill": skill}, (skill,), options)
        played[skill] = (cell, _play_trial(game_name, cell, games, seed, precision, most, threads))
    measured = []
    for t in targets:
        cell, p = played[t.skill]
        teams = make_game(game_name, **cell.options).teams
        out = metrics.outcome_metrics(p["returns"], p["truncated"], teams)
        if t.what == "balance":
            e = out["balance"] or {"value": math.nan, "low": math.nan, "high": math.nan}
        elif t.what == "draws":
            e = out["draws"]
        else:
            seat = _what_column(game_name, t.what, cell.options, t.text)
            e = out["sides"][str(teams[seat])]
        measured.append(
            {
                "value": e["value"],
                "low": e["low"],
                "high": e["high"],
                "games": len(p["returns"]),
                "half_width": (e["high"] - e["low"]) / 2,
            }
        )
    loss = sum(t.distance(m["value"]) for t, m in zip(targets, measured, strict=True))
    return {"loss": loss, "targets": measured}


def _play_trial(
    game_name: str,
    cell: Cell,
    games: int,
    seed: int,
    precision: float | None,
    most: int | None,
    threads: int | None,
) -> dict[str, np.ndarray]:
    """A trial's games of one skill: ``games`` of them, or with a ``precision`` rounds of
    games ``0, 1, 2, ...`` (:func:`boardsim.research.precision.games_wanted`) until its
    seats' win rates are that precise or it holds ``most`` games."""
    played = play_cell(game_name, cell, games, seed, threads)
    if precision is None:
        return played
    while (wanted := games_wanted(_win_rows(played), precision, games, most)) > (
        held := len(played["returns"])
    ):
        more = play_cell(game_name, cell, wanted - held, seed, threads, first_game=held)
        played = {k: np.concatenate([played[k], more[k]]) for k in played}
    return played


def _win_rows(played: Mapping[str, np.ndarray]) -> list[dict[str, Any]]:
    """The games' winners as rows (:func:`boardsim.research.stats.seat_win_rates`'s)."""
    returns = np.asarray(played["returns"], float)
    return [
        {"num_players": returns.shape[1], "winners": "|".join(map(str, metrics.winners(r)))}
        for r in returns
    ]


def measure_task(args: tuple) -> dict[str, Any]:
    """:func:`measure` on one thread (the body of a Ray task)."""
    return measure(*args, threads=1)


# ------------------------------------------------------------------ the search
@dataclass(frozen=True)
class TrialBudget:
    """How a trial is played and read beyond a fixed number of games: to a ``precision``
    (the half-width of its seats' win rates, from its first games in rounds) within
    ``most`` games at each skill, and the ``sources`` of the searched options (printed in
    the rulebook or reconstructed: the report keeps the trials that change a printed rule
    apart)."""

    precision: float | None = None
    most: int | None = None
    sources: Mapping[str, RuleSource] = field(default_factory=dict)

    def manifest(self) -> dict[str, Any]:
        """What the budget adds to a search's manifest (nothing for none: the searches
        made before it keep their names)."""
        out: dict[str, Any] = {}
        if self.precision is not None:
            out.update(precision=self.precision, max_games_per_trial=self.most)
        if self.sources:
            out["sources"] = {k: asdict(v) for k, v in sorted(self.sources.items())}
        return out

    def check(self, first: int) -> None:
        """:class:`OptionError` saying what is wrong with the budget."""
        if self.precision is None:
            if self.most is not None:
                raise OptionError("a most of games a trial goes with a precision")
            return
        try:
            check_precision(self.precision, first, self.most)
        except ValueError as exc:
            raise OptionError(str(exc)) from None


@dataclass
class TuneResult:
    """What a tuning run did and found."""

    out: Path
    trials: int  # complete trials in the study
    ran: int  # trials this run played
    best: dict[str, Any]
    seconds: float


def _manifest(
    game_name: str,
    targets: Sequence[Target],
    keys: Sequence[SearchKey],
    games: int,
    seed: int,
    base_options: Mapping[str, Any],
    budget: TrialBudget | None = None,
) -> dict[str, Any]:
    extra = {} if budget is None else budget.manifest()
    plays = networks_played(game_name, [(t.skill, dict(base_options)) for t in targets])
    if plays:  # the networks its skills play: another network is another search
        extra = {**extra, "plays": plays}
    return {
        **extra,
        "game": game_name,
        "game_version": make_game(game_name, **base_options).definition.version,
        "targets": [asdict(t) for t in targets],
        "search": [asdict(k) for k in keys],
        "games_per_trial": games,
        "seed": seed,
        "base_options": {k: v for k, v in base_options.items()},
    }


def _check_out(out: Path, manifest: dict[str, Any]) -> str:
    """Create ``out`` or check that it holds the same search; returns the study's name."""
    text = _canonical(manifest)
    path = out / MANIFEST
    if path.exists() and _canonical(json.loads(path.read_text())) != text:
        raise OptionError(
            f"{out} holds a different search (targets, keys, games, seed or options "
            "differ); use another --out or delete it"
        )
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(manifest, indent=1, default=str) + "\n")
    return _study_name(text)


def _canonical(manifest: Mapping[str, Any]) -> str:
    return json.dumps(manifest, sort_keys=True, default=str)


def _study_name(manifest_text: str) -> str:
    return "tune-" + hashlib.sha256(manifest_text.encode()).hexdigest()[:12]


def finished_tune(
    game_name: str,
    targets: Sequence[Target],
    keys: Sequence[SearchKey],
    trials: int,
    games_per_trial: int,
    out: str | os.PathLike,
    seed: int = 0,
    base_options: Mapping[str, Any] = {},
    budget: TrialBudget | None = None,
) -> bool:
    """``out`` holds exactly this search with ``trials`` complete trials and its report:
    nothing to run (a page reads it back)."""
    out = Path(out)
    manifest = _manifest(game_name, targets, keys, games_per_trial, seed, base_options, budget)
    text = _canonical(manifest)
    path = out / MANIFEST
    if not (path.is_file() and (out / REPORT).is_file() and (out / STUDY_DB).is_file()):
        return False
    if _canonical(json.loads(path.read_text())) != text:
        return False
    return _complete(open_study(out, _study_name(text), seed)) >= trials


def open_study(out: Path, name: str, seed: int) -> Any:
    """The Optuna study in ``out/study.db`` (created, or loaded to resume)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna.create_study(
        study_name=name,
        storage=f"sqlite:///{out / STUDY_DB}",
        load_if_exists=True,
        direction="minimize",
        sampler=optuna.samplers.TPESampler(seed=seed),
    )


def _requeue_killed(study: Any) -> int:
    """Trials left running by a killed search: failed, and their settings asked again."""
    from optuna.trial import TrialState

    stale = study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
    for t in stale:
        study.tell(t.number, state=TrialState.FAIL)
        study.enqueue_trial(dict(t.params))
    return len(stale)


def run_tune(
    game_name: str,
    targets: Sequence[Target],
    keys: Sequence[SearchKey],
    trials: int,
    games_per_trial: int,
    out: str | os.PathLike,
    seed: int = 0,
    base_options: Mapping[str, Any] = {},
    backend: str = "local",
    address: str | None = None,
    threads: int | None = None,
    workers: int = 1,
    confirm: bool = True,
    progress: Callable[[str], None] | None = None,
    budget: TrialBudget | None = None,
    seconds: float | None = None,
) -> TuneResult:
    """Run (or resume) the search until the study has ``trials`` complete trials, then write
    the results table, the report and the plot. With a ``budget``, each trial is played to
    its precision within its most games, and the report keeps the trials that change a
    printed rule (its sources) apart from those that tune reconstructed numbers. With
    ``seconds``, no trial begins after that time: the report says how many of the trials
    asked the budget let finish (a run again continues the same study)."""
    if not targets or not keys:
        raise OptionError("give at least one --target and one --search key")
    if trials < 1 or games_per_trial < 1:
        raise OptionError("trials and games per trial must be at least 1")
    if backend not in ("local", "ray"):
        raise OptionError(f"backend {backend!r}: choose local or ray")
    budget = budget or TrialBudget()
    budget.check(games_per_trial)
    start = time.perf_counter()
    out = Path(out)
    manifest = _manifest(game_name, targets, keys, games_per_trial, seed, base_options, budget)
    study = open_study(out, _check_out(out, manifest), seed)
    _requeue_killed(study)
    distributions = {k.name: k.distribution() for k in keys}
    ran = 0
    evaluate = _evaluator(backend, address, threads)
    deadline = None if seconds is None else start + seconds
    try:
        while (left := trials - _complete(study)) > 0:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            batch = [study.ask(distributions) for _ in range(min(left, max(1, workers)))]
            jobs = [
                (
                    game_name,
                    {**base_options, **t.params},
                    targets,
                    games_per_trial,
                    seed,
                    budget.precision,
                    budget.most,
                )
                for t in batch
            ]
            for trial, result in zip(batch, evaluate(jobs), strict=True):
                trial.set_user_attr("targets", result["targets"])
                study.tell(trial, result["loss"])
                ran += 1
                if progress:
                    progress(f"trial {trial.number}: {trial.params} loss {result['loss']:.4f}")
    finally:
        evaluate.close()  # type: ignore[attr-defined]
    best = best_trial(study, targets)
    if confirm and best:
        options = {**base_options, **best["params"]}
        fresh = measure(
            game_name, options, targets, games_per_trial, seed + 1, budget.precision, budget.most
        )
        best["confirm"] = fresh
    write_outputs(out, study, targets, keys, best, manifest, budget, asked=trials)
    return TuneResult(out, _complete(study), ran, best, time.perf_counter() - start)


def budget_stopped(count: int, asked: int) -> str:
    """The report's sentence for a search the time budget stopped."""
    return (
        f"**The time budget stopped the search at {count} of the {asked} trials asked**: "
        "its best settings are those of the trials played; run it again (a larger "
        "`--time-budget`, or none) to continue the same study."
    )


def _complete(study: Any) -> int:
    from optuna.trial import TrialState

    return len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)))


class _Local:
    """Trials evaluated one after another in this process."""

    def __init__(self, threads: int | None) -> None:
        self.threads = threads

    def __call__(self, jobs: Sequence[tuple]) -> list[dict[str, Any]]:
        return [measure(*j, threads=self.threads) for j in jobs]

    def close(self) -> None:
        """Nothing to release."""


class _Ray:
    """Trials evaluated as Ray tasks (a local Ray, or the cluster at ``address``)."""

    def __init__(self, address: str | None) -> None:
        self.ray = _require_ray()
        # no cluster at address: one OptionError saying how to start one
        self.started = init_ray(address or None)
        self.task = self.ray.remote(num_cpus=1)(measure_task)

    def __call__(self, jobs: Sequence[tuple]) -> list[dict[str, Any]]:
        return self.ray.get([self.task.remote(j) for j in jobs])

    def close(self) -> None:
        """Shut down the Ray this search started."""
        if self.started:
            self.ray.shutdown()


def _evaluator(backend: str, address: str | None, threads: int | None) -> Any:
    return _Ray(address) if backend == "ray" else _Local(threads)


def best_trial(study: Any, targets: Sequence[Target]) -> dict[str, Any]:
    """The complete trial with the lowest loss (the first of equals), as plain data."""
    from optuna.trial import TrialState

    done = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    if not done:
        return {}
    t = min(done, key=lambda x: (x.value, x.number))
    return {
        "number": t.number,
        "params": dict(t.params),
        "loss": t.value,
        "targets": t.user_attrs.get("targets", []),
    }


def leading_trials(
    study: Any, n: int = 5, keep: Callable[[Mapping[str, Any]], bool] | None = None
) -> list[dict[str, Any]]:
    """The ``n`` complete trials of lowest loss (the first of equals first), as plain data:
    whether one setting alone meets the targets or several do (of the trials whose
    settings ``keep`` keeps, when given)."""
    from optuna.trial import TrialState

    done = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    if keep is not None:
        done = [t for t in done if keep(t.params)]
    ranked = sorted(done, key=lambda x: (x.value, x.number))[:n]
    return [
        {
            "number": t.number,
            "params": dict(t.params),
            "loss": t.value,
            "targets": t.user_attrs.get("targets", []),
        }
        for t in ranked
    ]


# ------------------------------------------------------------------ outputs
def declared_sources(game_name: str, keys: Sequence[SearchKey]) -> dict[str, RuleSource]:
    """The sources the game declares (on its balance page's tunings) of the options
    ``keys`` search."""
    found: dict[str, RuleSource] = {}
    for tuning in make_game(game_name).definition.balance_tunings:
        found.update(tuning.sources)
    return {k.name: found[k.name] for k in keys if k.name in found}


def sources_of(manifest: Mapping[str, Any]) -> dict[str, RuleSource]:
    """The searched options' sources a search's manifest keeps (none: {})."""
    return {k: RuleSource(**v) for k, v in manifest.get("sources", {}).items()}


def changes_rule(sources: Mapping[str, RuleSource], params: Mapping[str, Any]) -> list[str]:
    """The options of ``params`` whose values change a printed rule (in ``params``'s order)."""
    return [k for k, v in params.items() if k in sources and sources[k].changes_rule(v)]


def _rule_change_words(sources: Mapping[str, Any] | None, params: Mapping[str, Any]) -> str:
    """``": a rule change (victory_vp: printed 24, rulebook l.128)"`` or ``""``."""
    if not sources:
        return ""
    known = sources_of({"sources": sources})
    moved = changes_rule(known, params)
    if not moved:
        return "; it moves reconstructed numbers only"
    return "; **a rule change**: " + ", ".join(
        f"`{k}` ({'printed' if known[k].printed else 'the rule it switches off'}: "
        f"{known[k].value}, {known[k].where})"
        for k in moved
    )


def _sources_sentence(sources: Mapping[str, Mapping[str, Any]]) -> str:
    """Each searched option's source, in a sentence."""
    words = []
    for name, src in sources.items():
        kind = "printed" if src["printed"] else "reconstructed"
        off = (
            f"; at {src['off_at']} or below it switches off a rule the rulebook states"
            if src.get("off_at") is not None
            else ""
        )
        words.append(f"`{name}` {kind} ({src['value']}, {src['where']}{off})")
    return "Sources: " + "; ".join(words) + "."


def _trial_games(manifest: Mapping[str, Any]) -> str:
    """A trial's games: a fixed number, or rounds to a precision within a budget."""
    first = manifest["games_per_trial"]
    if manifest.get("precision") is None:
        return f"{first} games each"
    most = manifest.get("max_games_per_trial")
    return (
        f"games to a half-width of {100 * manifest['precision']:g} points at each skill, in "
        f"rounds from {first}" + (f", at most {most} games (the trial's budget)" if most else "")
    )


def _band_lines(targets: Sequence[Target], precision: float | None) -> list[str]:
    """With a precision, what it takes for a trial to be in the band."""
    if precision is None:
        return []
    return [
        f"A trial is *in the band* when every target's value lies in its range "
        f"({', '.join(f'`{t.text}`' for t in targets)}) and was measured to a half-width "
        f"of at most {100 * precision:g} points: a range the interval straddles, or a "
        "trial its budget stopped short, is not a band reached.",
        "",
    ]


def _best_band_lines(
    targets: Sequence[Target], best: Mapping[str, Any], precision: float | None
) -> list[str]:
    """With a precision, whether the best settings are in the band, on the search's games
    and on the fresh ones (the honest answer)."""
    if precision is None:
        return []
    fresh = best.get("confirm", {}).get("targets", [])
    words = {True: "in the band", False: "**not in the band**"}
    searched = in_band(targets, best["targets"], precision)
    line = f"On the search's games the best settings are {words[searched]}"
    if len(fresh) == len(targets):
        line += f"; on fresh games they are {words[in_band(targets, fresh, precision)]}"
    return ["", line + "."]


def in_band(
    targets: Sequence[Target], measured: Sequence[Mapping[str, Any]], precision: float
) -> bool:
    """Whether every target's value is in its range, measured to ``precision``."""
    return all(
        t.distance(m["value"]) == 0 and m.get("half_width", math.inf) <= precision + 1e-12
        for t, m in zip(targets, measured, strict=True)
    )


def _trials_lines(
    title: str,
    intro: str,
    rows: Sequence[Mapping[str, Any]],
    targets: Sequence[Target],
    precision: float | None,
) -> list[str]:
    """A table of trials under ``title``: their settings, loss, each target's value (and
    whether the trial is in the band, with a precision)."""
    lines = [f"## {title}", ""] + ([intro, ""] if intro else [])
    if not rows:
        return [*lines, "None among the trials.", ""]
    names = list(dict.fromkeys(k for row in rows for k in row["params"]))
    band = precision is not None
    lines += [
        "| trial | "
        + " | ".join(f"`{k}`" for k in names)
        + " | loss | "
        + " | ".join(f"`{t.text}` [95%]" for t in targets)
        + (" | in the band" if band else "")
        + " |",
        "|---" * (2 + len(names) + len(targets) + band) + "|",
    ]
    for row in rows:
        values = " | ".join(str(row["params"].get(k, "-")) for k in names)
        measured = " | ".join(_measured(m) for m in row["targets"])
        inside = ""
        if band:
            inside = " | " + ("yes" if in_band(targets, row["targets"], precision) else "no")
        lines.append(f"| {row['number']} | {values} | {row['loss']:.4f} | {measured}{inside} |")
    return [*lines, ""]


def trials_table(study: Any, targets: Sequence[Target], keys: Sequence[SearchKey]) -> str:
    """Every complete trial as CSV: number, settings, loss, each target's value [interval]."""
    from optuna.trial import TrialState

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    header = ["trial", *[k.name for k in keys], "loss"]
    for t in targets:
        header += [f"{t.text}", f"{t.text} low", f"{t.text} high"]
    w.writerow(header)
    for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        row = [t.number, *[t.params.get(k.name) for k in keys], round(t.value, 6)]
        for m in t.user_attrs.get("targets", []):
            row += [round(m["value"], 6), round(m["low"], 6), round(m["high"], 6)]
        w.writerow(row)
    return buf.getvalue()


def _pct(x: float) -> str:
    return "-" if x != x else f"{100 * x:.1f}%"


def _measured(m: Mapping[str, float]) -> str:
    return f"{_pct(m['value'])} [{_pct(m['low'])}, {_pct(m['high'])}]"


def markdown(
    manifest: Mapping[str, Any],
    targets: Sequence[Target],
    best: Mapping[str, Any],
    count: int,
    leaders: Sequence[Mapping[str, Any]] = (),
    rule_changes: Sequence[Mapping[str, Any]] | None = None,
    asked: int | None = None,
) -> str:
    """The tuning report: what was searched, the best settings with their intervals, and
    the trials that came closest (``leaders``; with the searched options' sources, the
    tunings of reconstructed numbers, and the ``rule_changes`` apart); when a time budget
    stopped the search short of the ``asked`` trials, it says so first."""
    precision = manifest.get("precision")
    stopped = [budget_stopped(count, asked), ""] if asked is not None and count < asked else []
    lines = [
        f"# Tuning {manifest['game']}",
        "",
        *stopped,
        f"{count} trials of {_trial_games(manifest)} (common random numbers: "
        f"games 0, 1, 2, ... of seed {manifest['seed']} in every "
        "trial); Optuna's TPE sampler; the study is in `study.db`, every trial in "
        "`trials.csv`, the search in `search.png`.",
        "",
        *_band_lines(targets, precision),
        "Searched: "
        + ", ".join(
            f"`{k['name']}` in "
            + (
                "{" + ", ".join(str(c) for c in k["choices"]) + "}"
                if k["choices"] is not None
                else f"[{k['low']}, {k['high']}]"
            )
            for k in manifest["search"]
        )
        + ".",
        "",
        "## Best settings",
        "",
    ]
    if not best:
        return "\n".join([*lines, "No trial finished.", ""])
    settings = ", ".join(f"`{k}={v}`" for k, v in best["params"].items())
    lines += [
        f"Trial {best['number']}: {settings} (loss {best['loss']:.4f}: the summed distance "
        "of each measured value to its target)"
        + _rule_change_words(manifest.get("sources"), best["params"])
        + ".",
        "",
        "| target | measured in the search [95%] | on fresh games (seed + 1) [95%] |",
        "|---|---|---|",
    ]
    confirm = best.get("confirm", {}).get("targets", [])
    for i, t in enumerate(targets):
        fresh = _measured(confirm[i]) if i < len(confirm) else "-"
        lines.append(f"| `{t.text}` | {_measured(best['targets'][i])} | {fresh} |")
    lines += _best_band_lines(targets, best, precision)
    lines += [
        "",
        "The best of many trials is flattered by its own luck (the winner's curse): the "
        "fresh games are independent of the search and give the honest interval.",
        "",
    ]
    if rule_changes is None:
        if len(leaders) > 1:
            lines += _trials_lines("The closest trials", "", leaders, targets, precision)
    else:
        lines += _trials_lines(
            "The closest tunings of reconstructed numbers",
            "Trials that move only numbers the rulebook does not print (reconstructions, "
            "readings of its rulings): tunings a designer may adopt without changing a "
            "printed rule.",
            leaders,
            targets,
            precision,
        )
        lines += _trials_lines(
            "The closest rule changes",
            "Trials that move a number the rulebook prints, or switch off a rule it states: "
            "rule changes, reported apart from the tunings above. "
            + _sources_sentence(manifest["sources"]),
            rule_changes,
            targets,
            precision,
        )
    lines += ["![the search](search.png)", ""]
    return "\n".join(lines)


def plot_search(study: Any, keys: Sequence[SearchKey], path: Path) -> None:
    """The loss of every trial (and the best so far), then the loss against each key."""
    from optuna.trial import TrialState

    plt = pyplot()
    done = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    fig, axes = plt.subplots(1, 1 + len(keys), figsize=(4.2 * (1 + len(keys)), 3.4))
    axes = np.atleast_1d(axes)
    losses = np.array([t.value for t in done])
    ax = axes[0]
    ax.plot(range(len(done)), losses, "o", ms=4, label="trial")
    ax.plot(range(len(done)), np.minimum.accumulate(losses), "-", label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel("loss (distance to the targets)")
    ax.legend()
    for ax, k in zip(axes[1:], keys, strict=True):
        values = [t.params.get(k.name) for t in done]
        if k.choices is not None:
            labels = [str(c) for c in k.choices]
            x = [labels.index(str(v)) for v in values]
            ax.set_xticks(range(len(labels)), labels)
        else:
            x = values
        ax.scatter(x, losses, s=14)
        ax.set_xlabel(k.name)
        ax.set_ylabel("loss")
    fig.suptitle(f"{study.study_name}: the search")
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    atomic_write_bytes(path, buf.getvalue())


def write_outputs(
    out: Path,
    study: Any,
    targets: Sequence[Target],
    keys: Sequence[SearchKey],
    best: Mapping[str, Any],
    manifest: Mapping[str, Any],
    budget: TrialBudget | None = None,
    asked: int | None = None,
) -> None:
    """``trials.csv``, ``tune.md``, ``best.json`` and ``search.png``, each atomically;
    ``asked``, the trials asked (the report says when a time budget stopped short of it)."""
    atomic_write_text(out / TRIALS_CSV, trials_table(study, targets, keys))
    atomic_write_text(out / "best.json", json.dumps(best, indent=1, default=str) + "\n")
    sources = {} if budget is None else dict(budget.sources)
    if sources:
        leaders = leading_trials(study, keep=lambda p: not changes_rule(sources, p))
        moved = leading_trials(study, keep=lambda p: bool(changes_rule(sources, p)))
        report = markdown(manifest, targets, best, _complete(study), leaders, moved, asked)
    else:
        count = _complete(study)
        report = markdown(manifest, targets, best, count, leading_trials(study), asked=asked)
    atomic_write_text(out / REPORT, report)
    if _complete(study):
        plot_search(study, keys, out / PLOT)

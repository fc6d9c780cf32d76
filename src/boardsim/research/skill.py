"""Skill rungs: every balance question asked at several skills in one sweep.

(The rungs of skill are "rungs", and "ladder" is the strength ladder of agents,
:mod:`boardsim.research.ladder`; the grid word is ``skill=rungs``, and the older
``skill=ladder`` is still read, with a :class:`DeprecationWarning`.)

A verdict measured with one scripted player cannot tell the game's imbalance from the
bot's (Jaffe et al. 2012). The sweep key ``skill`` makes skill a grid dimension: each
value is an agent every seat plays (``random``, ``heuristic``, ``mcts:200``), or a pair
``TEST/FIELD`` for the agent under test against a field (with a seat key). Two words
expand:

- ``skill=rungs`` (``rungs:N``; formerly ``skill=ladder``): the rungs ``random,
  heuristic, mcts:N, mcts:4N`` (``N`` = :data:`RUNGS_BUDGET`), then the learned rungs
  of :func:`learned_rungs` (the game's shipped self-play network alone, where it plays
  every cell);
- ``skill=depth`` (``depth:N``): the skill-depth pairs ``mcts:2M/mcts:M`` for
  ``M = N, 2N, 4N`` (Ludii's skill trace, TAG's ladder: how much a doubled search budget
  wins, rung by rung); give them a seat key (``seat=all``) so the stronger agent sits
  everywhere;
- ``skill=population:A+B+C``: every ordered pair ``A/B`` of a population of agents, for
  the meta-game (:mod:`boardsim.research.metagame`), also with ``seat=all``.

:func:`verdict` reads one question's effect at each rung (the numbers with their 95%
intervals) and says whether it holds, grows, shrinks or reverses as skill rises, or
exists at one skill only; :func:`rung_questions` asks the report's questions of a
sweep (the first seat's or side's advantage, each option's effect, each difficulty
parameter's drop), :func:`skill_depth` summarizes the depth pairs.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from boardsim.agents.network import shipped_network_for
from boardsim.api import make_game
from boardsim.core.errors import OptionError
from boardsim.research import stats
from boardsim.research.metagame import population_pairs

SKILL_KEY = "skill"
RUNGS_BUDGET = 25  # N of skill=rungs: MCTS at N and 4N simulations
RUNGS_WORD = "rungs"  # the grid word of the rungs (the older "ladder" deprecated)
DEPTH_BUDGET = 8  # N of skill=depth: 2N against N, 4N against 2N, 8N against 4N
DEPTH_RUNGS = 3
MAX_POINT_QUESTIONS = 24  # more grid points than this: the side question pooled over them

Row = dict[str, Any]


def learned_rungs(game: str, cells: Sequence[Mapping[str, Any]] = ({},)) -> list[str]:
    """The learned agents of ``game`` a ladder climbs to after MCTS: ``alphazero`` (the
    self-play network shipped in ``agents/<game>/``, alone) when one is shipped and it
    plays every cell's options (``cells``: the options of each cell of the sweep; a
    network made for two players is no rung of a sweep over 2 to 6 players).

    The network alone is the rung, not the network guiding a search: it costs a small
    share of a search's decision, and its strength lies at or above MCTS at 4N of the
    ladder's budget (the Elo of ``agents/<game>/ladder.json``: about MCTS@50 in the race,
    between MCTS@50 and MCTS@200 in Farrapos).
    """
    if not all(shipped_network_for(make_game(game, **options)) for options in cells):
        return []
    return ["alphazero"]


def skill_rungs(
    game: str, budget: int = RUNGS_BUDGET, cells: Sequence[Mapping[str, Any]] = ({},)
) -> list[str]:
    """The rungs of ``skill=rungs``: ``random, heuristic, mcts:N, mcts:4N``, then the learned rungs
    that play every one of ``cells`` (:func:`learned_rungs`)."""
    return [
        "random",
        "heuristic",
        f"mcts:{budget}",
        f"mcts:{4 * budget}",
        *learned_rungs(game, cells),
    ]


def depth_pairs(budget: int = DEPTH_BUDGET, rungs: int = DEPTH_RUNGS) -> list[str]:
    """``mcts:2N/mcts:N`` for ``N = budget, 2 budget, 4 budget, ...`` (``rungs`` of them)."""
    return [f"mcts:{2 * budget << i}/mcts:{budget << i}" for i in range(rungs)]


def expand_skill_words(
    words: Sequence[str], game: str, cells: Sequence[Mapping[str, Any]] = ({},)
) -> list[str]:
    """The grid's ``skill`` values with ``rungs[:N]`` and ``depth[:N]`` expanded (the
    learned rungs those that play every one of ``cells``' options); ``ladder[:N]``, the
    older word for ``rungs[:N]``, with a :class:`DeprecationWarning`."""
    out: list[str] = []
    for w in words:
        head, _, arg = w.partition(":")
        if head == "ladder":
            warnings.warn(
                f"skill={w} is deprecated: write skill={RUNGS_WORD}{w[len(head) :]}",
                DeprecationWarning,
                stacklevel=2,
            )
            head = RUNGS_WORD
        if head == "population":
            out += population_pairs([a.strip() for a in arg.split("+") if a.strip()])
        elif head in (RUNGS_WORD, "depth"):
            n = _budget(arg, RUNGS_BUDGET if head == RUNGS_WORD else DEPTH_BUDGET, w)
            out += skill_rungs(game, n, cells) if head == RUNGS_WORD else depth_pairs(n)
        else:
            out.append(w)
    return out


def _budget(arg: str, default: int, word: str) -> int:
    if not arg:
        return default
    if not arg.isdigit() or int(arg) < 1:
        raise OptionError(f"skill={word}: the budget must be a whole number >= 1")
    return int(arg)


def rung_agents(value: str) -> tuple[str, ...]:
    """A skill value's agents: ``("heuristic",)`` or ``("mcts:16", "mcts:8")`` (TEST, FIELD)."""
    parts = tuple(p.strip() for p in str(value).split("/"))
    if len(parts) > 2 or not all(parts):
        raise OptionError(f"skill={value!r}: give an agent or TEST/FIELD")
    return parts


def is_pair(value: Any) -> bool:
    """Whether a skill value is a ``TEST/FIELD`` pair (a skill-depth rung)."""
    return "/" in str(value)


# ------------------------------------------------------------------ verdicts
def significant(effect: Sequence[float]) -> int:
    """+1 / -1 when the interval ``(value, low, high)`` lies above / below 0, else 0."""
    _, low, high = effect
    return 1 if low > 0 else -1 if high < 0 else 0


def p_value(effect: Sequence[float]) -> float:
    """The two-sided p-value of "no effect" read off a 95% interval ``(value, low, high)``
    (its half-width as 1.96 standard errors: the normal approximation); 1 for no interval."""
    value, low, high = effect
    if any(math.isnan(x) for x in effect) or high <= low:
        return 1.0
    z = value / ((high - low) / 2 / stats.Z95)
    return math.erfc(abs(z) / math.sqrt(2))


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm's step-down correction: which of a family of tests stay significant at
    ``alpha`` for the family as a whole (the smallest p-value against alpha/m, the next
    against alpha/(m-1), ... until one fails)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    kept = [False] * len(p_values)
    for rank, i in enumerate(order):
        if p_values[i] > alpha / (len(p_values) - rank):
            break
        kept[i] = True
    return kept


def settled(rungs: Sequence[str], effects: Sequence[Sequence[float]]) -> dict[str, Any]:
    """Whether the answer is the game's: the two strongest rungs with an answer agree within
    their intervals (their difference's interval holds 0). ``{"settled": None}`` with
    fewer than two such rungs; else ``settled`` and, when not, the two rungs that differ."""
    defined = [i for i, e in enumerate(effects) if not math.isnan(e[0])]
    if len(defined) < 2:
        return {"settled": None}
    weaker, stronger = defined[-2], defined[-1]
    apart = significant(_difference(effects[weaker], effects[stronger])) != 0
    if not apart:
        return {"settled": True}
    return {"settled": False, "disagree": [rungs[weaker], rungs[stronger]]}


def verdict(
    rungs: Sequence[str],
    effects: Sequence[Sequence[float]],
    kept: Sequence[bool] | None = None,
) -> dict[str, Any]:
    """How one question's answer moves with skill.

    ``effects[i]`` is ``(value, low, high)`` at rung ``rungs[i]``, weakest first (a
    difference whose 0 means "no effect": an advantage, a gap, an option's effect).

    - ``no effect``: significant at no rung;
    - ``one skill only``: significant at exactly one rung of several (flagged: the
      verdict may be the bot's, not the game's);
    - ``reverses``: significant both ways at different rungs;
    - ``grows`` / ``shrinks``: the effect at the strongest rung minus at the weakest
      is significant (half-widths combined as independent, ``sqrt(h1^2 + h2^2)``) and
      the effect's size rose / fell;
    - ``holds``: significant, the same way, at every rung, with no significant trend;
    - ``fades``: significant at weaker rungs but not at the strongest one (the verdict
      may belong to the weaker bots);
    - ``unclear``: significant at some rungs only, the strongest among them, with no
      significant trend.

    ``kept``: which rungs' effects stay significant after a correction for multiple
    comparisons (:func:`holm`); None: each interval alone decides. ``settled`` says
    whether the two strongest rungs agree (:func:`settled`).
    """
    sig = [significant(e) for e in effects]
    if kept is not None:
        sig = [s if k else 0 for s, k in zip(sig, kept, strict=True)]
    hits = [i for i, s in enumerate(sig) if s != 0]
    out: dict[str, Any] = {
        "rungs": list(rungs),
        "effects": [list(map(float, e)) for e in effects],
        "significant": [s != 0 for s in sig],
        **settled(rungs, effects),
    }
    defined = [i for i, e in enumerate(effects) if not math.isnan(e[0])]
    if not hits:
        return {**out, "verdict": "no effect", "flag": False}
    if {sig[i] for i in hits} == {1, -1}:
        return {**out, "verdict": "reverses", "flag": True}
    if len(hits) == 1 and len(defined) > 1:
        return {**out, "verdict": "one skill only", "flag": True, "at": rungs[hits[0]]}
    first, last = effects[defined[0]], effects[defined[-1]]
    trend = _difference(first, last)
    if significant(trend) != 0:
        word = "grows" if abs(last[0]) > abs(first[0]) else "shrinks"
        return {**out, "verdict": word, "flag": False, "trend": list(trend)}
    if len(hits) == len(defined):
        word = "holds"
    elif sig[defined[-1]] == 0:
        word = "fades"
    else:
        word = "unclear"
    return {**out, "verdict": word, "flag": word == "fades", "trend": list(trend)}


def _difference(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """``b - a`` with the half-widths of the two intervals combined as independent."""
    ha = (a[2] - a[1]) / 2
    hb = (b[2] - b[1]) / 2
    d = b[0] - a[0]
    h = math.sqrt(ha * ha + hb * hb)
    return (d, d - h, d + h)


# ------------------------------------------------------------------ the questions
def _rate_effect(won: int, n: int, fair: float) -> tuple[float, float, float]:
    r = stats.rate(won, n)
    return (r.rate - fair, r.low - fair, r.high - fair)


def rung_questions(
    rows: Sequence[Row],
    keys: Sequence[str],
    won: Callable[[Row], bool],
    subject: str,
    seatwise: bool,
    difficulty: Any = None,
) -> list[dict[str, Any]]:
    """Every balance question of a ladder sweep (rows with a ``skill`` column), each with
    its :func:`verdict` across the rungs (self-play rungs only; depth pairs are for
    :func:`skill_depth`).

    - ``first seat``: seat 0's win rate over its fair share, per other grid point
      (games where every player is its own side; pooled over the points when there are
      more than :data:`MAX_POINT_QUESTIONS`);
    - ``<subject> win rate``: the subject's win rate over one half, per other grid point
      (a side against a side or against the game);
    - ``<key>=<value>``: an option's effect on the subject's win rate against the key's
      first value (Newcombe interval), pooled over the other keys;
    - ``<parameter> drop``: a difficulty parameter's drop from its easiest to its hardest
      value (the rulebook's "difficulty increases to the right").
    """
    rows = [r for r in rows if not is_pair(r[SKILL_KEY])]
    rungs = list(dict.fromkeys(str(r[SKILL_KEY]) for r in rows))
    by_rung = {g: [r for r in rows if str(r[SKILL_KEY]) == g] for g in rungs}
    others = [k for k in keys if k != SKILL_KEY]
    asked: list[tuple[str, list[Any]]] = []
    points = stats.group_rows(rows, others)
    if len(points) > MAX_POINT_QUESTIONS:  # Hispania's 243 levels: one pooled question
        points = {(): list(rows)}
        others_shown: list[str] = []
    else:
        others_shown = others
    for point, group in points.items():
        label = ", ".join(f"{k}={v}" for k, v in zip(others_shown, point, strict=True)) or "all"
        at = {g: [r for r in group if str(r[SKILL_KEY]) == g] for g in rungs}
        if seatwise:
            effects = [
                _rate_effect(
                    sum(stats.seat_won(r, 0) for r in at[g]),
                    len(at[g]),
                    1.0 / int(at[g][0]["num_players"]) if at[g] else math.nan,
                )
                for g in rungs
            ]
            name = "first-seat advantage"
        else:
            effects = [_rate_effect(sum(won(r) for r in at[g]), len(at[g]), 0.5) for g in rungs]
            name = f"{subject} win rate - 50%"
        asked.append((f"{name} ({label})", effects))
    for key in others:
        values = list(dict.fromkeys(r[key] for r in rows))
        many = len(values) > MAX_POINT_QUESTIONS
        if len(values) < 2 or many or (difficulty is not None and key == difficulty.option):
            continue
        base = values[0]
        for v in values[1:]:
            effects = []
            for g in rungs:
                a = [r for r in by_rung[g] if r[key] == v]
                b = [r for r in by_rung[g] if r[key] == base]
                effects.append(
                    stats.newcombe_interval(
                        sum(won(r) for r in a), len(a), sum(won(r) for r in b), len(b)
                    )
                )
            asked.append((f"{key}={v} against {key}={base} ({subject} win rate)", effects))
    if difficulty is not None and difficulty.option in others:
        per_rung = {
            g: stats.parameter_effects(
                by_rung[g],
                won,
                difficulty.parameters,
                difficulty.values,
                level_of=lambda r: difficulty.split(r[difficulty.option]),
            )
            for g in rungs
        }
        for name in difficulty.parameters:
            effects = []
            for g in rungs:
                e = next(x for x in per_rung[g] if x["parameter"] == name)
                effects.append((e["drop"], e["drop_low"], e["drop_high"]))
            asked.append((f"{name}: easiest minus hardest ({subject} win rate)", effects))
    return corrected_verdicts(rungs, asked)


def corrected_verdicts(
    rungs: Sequence[str], asked: Sequence[tuple[str, Sequence[Sequence[float]]]]
) -> list[dict[str, Any]]:
    """Each question's verdict, significance Holm-corrected over the whole family: every
    question at every rung of the sweep."""
    family = [p_value(e) for _, effects in asked for e in effects]
    kept = holm(family)
    out, at = [], 0
    for question, effects in asked:
        mine = kept[at : at + len(effects)]
        at += len(effects)
        out.append(
            {
                "question": question,
                **verdict(rungs, effects, mine),
                "correction": "holm",
                "family": len(family),
            }
        )
    return out


def skill_depth(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """Per depth pair ``mcts:2N/mcts:N``: the stronger agent's win rate (pooled over the
    seats it sat in) against its fair share ``1/players``, and ``depth``: how many rungs,
    from the weakest up, the doubled budget wins significantly more than its share."""
    pairs = list(dict.fromkeys(str(r[SKILL_KEY]) for r in rows if is_pair(r[SKILL_KEY])))
    out = []
    for p in pairs:
        group = [r for r in rows if str(r[SKILL_KEY]) == p]
        r = stats.rate(sum(stats.test_agent_won(x) for x in group), len(group))
        fair = 1.0 / int(group[0]["num_players"])
        out.append({"pair": p, **r.as_dict(), "fair_share": fair, "above": r.low > fair})
    depth = 0
    for e in out:
        if not e["above"]:
            break
        depth += 1
    for e in out:
        e["depth"] = depth
    return out

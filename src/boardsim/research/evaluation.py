"""What ``boardsim eval`` computes, as a library: a request, its command line, and its run.

An :class:`EvalRequest` holds every setting of an evaluation (the game, the agents, the
games a pair, the seed, Hispania's levels, the ``-o`` options, the decision limit, how the
networks and ``ppo`` agents play, the output prefix). :meth:`EvalRequest.command` writes
it as the ``boardsim eval`` command line that asks for it, every setting spelled out: the
results record it, so a strength ranking or a card names the command that made it, and
:meth:`EvalRequest.from_command` reads such a line back (the library's own reader of the
recorded line, with no command-line parser behind it). :func:`run_eval` plays it: a round
robin, or for a cooperative game each agent at every level
(:mod:`boardsim.research.tournament`), reading back the pairs an earlier result holds with
the same settings (:func:`prior_results`).

The ``boardsim eval`` command parses its arguments into a request and prints what
:func:`run_eval` returns; the strength ladders (:mod:`boardsim.research.ladder`) build
their requests here.
"""

from __future__ import annotations

import copy
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardsim.api import make_game
from boardsim.core.errors import OptionError
from boardsim.core.game import Game
from boardsim.core.options import option_words
from boardsim.research.players import NETWORK_FAMILIES, AgentMaker, make_agent, seat_family
from boardsim.research.ray_backend import play_ahead_on_ray
from boardsim.research.reuse import PriorResults
from boardsim.research.tournament import GamesAhead, TournamentResult, cooperative, round_robin
from boardsim.training.checkpoint import TrainedOptionsError

PROGRAM = ("boardsim", "eval")
ANY_OPTIONS = "--ppo-any-options"  # the flag that lets networks play at other options
DETERMINISTIC = "--ppo-deterministic"
VALUED = {"--agents", "--games", "--seed", "--levels", "-o", "--max-decisions", "--out"}


@dataclass(frozen=True)
class EvalRequest:
    """Every setting of one ``boardsim eval``."""

    game: str
    agents: tuple[str, ...]
    games: int = 100
    seed: int = 0
    levels: str | None = None  # Hispania: difficulty levels, comma-separated
    options: tuple[str, ...] = ()  # the -o KEY=VALUE words, as given
    max_decisions: int | None = None
    any_options: bool = False  # networks play at options other than their training's
    ppo_deterministic: bool = False  # ppo agents play their most likely action
    out: str | None = None  # where the results go: PREFIX.csv and PREFIX.json

    def words(self) -> list[str]:
        """The command line's words (``boardsim eval GAME --agents ...``)."""
        words = [*PROGRAM, self.game, "--agents", ",".join(self.agents)]
        words += ["--games", str(self.games), "--seed", str(self.seed)]
        if self.levels:
            words += ["--levels", self.levels]
        for option in self.options:
            words += ["-o", option]
        if self.max_decisions is not None:
            words += ["--max-decisions", str(self.max_decisions)]
        if self.any_options:
            words.append(ANY_OPTIONS)
        if self.ppo_deterministic:
            words.append(DETERMINISTIC)
        if self.out:
            words += ["--out", str(self.out)]
        return words

    def command(self) -> str:
        """The ``boardsim eval`` command that asks for this request, every setting spelled
        out (``--reuse`` and ``--no-reuse`` change what is played again, not the results,
        and are not settings)."""
        return shlex.join(self.words())

    @classmethod
    def from_command(cls, command: str) -> EvalRequest:
        """The request of a command line :meth:`command` wrote; :class:`ValueError` saying
        why for any other line (another program, a setting unknown or given twice, a
        malformed value, or settings not written the way :meth:`command` writes them)."""
        try:
            words = shlex.split(command)
        except ValueError as exc:
            raise ValueError(f"{command!r} cannot be split into words ({exc})") from None
        if tuple(words[:2]) != PROGRAM or len(words) < 3:
            raise ValueError(f"{command!r} is not a boardsim eval command")
        given: dict[str, Any] = {"options": []}
        rest = iter(words[3:])
        for word in rest:
            if word in (ANY_OPTIONS, DETERMINISTIC):
                given[word] = True
            elif word in VALUED:
                value = next(rest, None)
                if value is None:
                    raise ValueError(f"{command!r}: {word} has no value")
                if word == "-o":
                    given["options"].append(value)
                elif word in given:
                    raise ValueError(f"{command!r}: {word} is given twice")
                else:
                    given[word] = value
            else:
                raise ValueError(f"{command!r}: {word!r} is not a setting boardsim eval records")
        if "--agents" not in given:
            raise ValueError(f"{command!r} names no agents (--agents)")
        request = cls(
            game=words[2],
            agents=tuple(a.strip() for a in given["--agents"].split(",") if a.strip()),
            games=_whole(given.get("--games", "100"), "--games", command),
            seed=_whole(given.get("--seed", "0"), "--seed", command),
            levels=given.get("--levels"),
            options=tuple(given["options"]),
            max_decisions=(
                _whole(given["--max-decisions"], "--max-decisions", command)
                if "--max-decisions" in given
                else None
            ),
            any_options=ANY_OPTIONS in given,
            ppo_deterministic=DETERMINISTIC in given,
            out=given.get("--out"),
        )
        if request.command() != command:
            raise ValueError(
                f"{command!r} is not written as boardsim eval records its command "
                f"({request.command()!r})"
            )
        return request

    def game_options(self) -> dict[str, Any]:
        """The game's options: the ``-o`` words, and the decision limit unless ``-o`` sets
        it; :class:`OptionError` for a malformed word."""
        options = option_words(self.options)
        if self.max_decisions is not None:
            options.setdefault("max_decisions", self.max_decisions)
        return options

    def level_list(self) -> list[str] | None:
        """Hispania's levels, one a value (None: the options as given)."""
        return [x.strip() for x in self.levels.split(",")] if self.levels else None

    def agent_maker(self) -> AgentMaker:
        """How this request makes its agents (a ``ppo`` agent's sampling, the networks'
        check of the options they were trained with): ``(spec, game, seed) -> agent``; a
        network refused for its training's options names the setting that allows them
        (``--ppo-any-options``)."""

        def make(spec: str, game: Game, seed: int) -> Any:
            extra: dict[str, Any] = {}
            if seat_family(spec) == "ppo":
                # sampled from the policy: a deterministic one can choose and cancel a
                # composite decision forever (the same observation, the same argmax)
                extra["deterministic"] = self.ppo_deterministic
            if seat_family(spec) in NETWORK_FAMILIES and self.any_options:
                extra["strict_options"] = False
            try:
                return make_agent(spec, game, seed, **extra)
            except TrainedOptionsError as exc:
                raise exc.with_remedy(ANY_OPTIONS) from exc

        return make


def _whole(text: str, flag: str, command: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{command!r}: {flag} takes a whole number, got {text!r}") from None


def prior_results(
    out: str | None, reuse: str | None = None, no_reuse: bool = False
) -> PriorResults | None:
    """The earlier results to read back: the file ``reuse``, else PREFIX.json of ``out``
    when it exists; None with ``no_reuse`` or without either. The file may record no
    settings per pair (``usable`` is then False, and ``reason`` says why).
    :class:`~boardsim.DataError` for a malformed file, :class:`OptionError` for a
    ``reuse`` file that is not there or given with ``no_reuse``."""
    if no_reuse:
        if reuse:
            raise OptionError("--reuse and --no-reuse contradict each other: give one")
        return None
    if reuse:
        path = Path(reuse)
        if not path.is_file():
            raise OptionError(f"--reuse {path}: no such file")
    elif out:
        prefix = Path(out)
        path = prefix.with_name(prefix.name + ".json")
        if not path.is_file():
            return None
    else:
        return None
    return PriorResults.load(path)


BACKENDS = ("local", "ray")


def run_eval(
    request: EvalRequest,
    progress: Callable[[str], None] | None = None,
    prior: PriorResults | None = None,
    backend: str = "local",
    address: str | None = None,
) -> TournamentResult:
    """Play ``request``: a round robin, or for a cooperative game each agent at each level;
    the pairs ``prior`` holds with the same settings are read back (an unusable ``prior``
    is ignored). The result records the request's command; ``result.write(request.out)``
    writes it. :class:`ValueError` (an :class:`OptionError`) saying what is wrong with the
    request.

    ``backend="ray"``: the games played in compiled code go to a Ray cluster (``address``,
    or a local Ray) as tasks, all pairs at once, and the result is the local one's
    (:func:`boardsim.research.ray_backend.play_ahead_on_ray`); agents that decide in Python
    play here. Where the games are played is not a setting: the command is the same."""
    if backend not in BACKENDS:
        raise OptionError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    options = request.game_options()
    reuse = prior if prior is not None and prior.usable else None
    make = request.agent_maker()
    agents: Sequence[str] = list(request.agents)
    game = make_game(request.game, **options)
    if not game.is_cooperative() and request.levels:
        raise OptionError(f"--levels is for cooperative games; {request.game} is not one")

    def walk(
        reuse: PriorResults | None, ahead: GamesAhead | None, told: Callable[[str], None] | None
    ) -> TournamentResult:
        if game.is_cooperative():
            return cooperative(
                request.game, agents, request.games, request.level_list(), request.seed, make,
                told, reuse, ahead, **options,
            )  # fmt: skip
        return round_robin(
            request.game, agents, request.games, request.seed, make, told, reuse, ahead,
            **options,
        )  # fmt: skip

    ahead, ahead_seconds = None, 0.0
    if backend == "ray":
        clock = time.perf_counter()
        ahead = GamesAhead()
        walk(copy.deepcopy(reuse), ahead, None)  # what the walk will ask for
        play_ahead_on_ray(request.game, ahead, request.seed, make, address, progress)
        ahead_seconds = time.perf_counter() - clock
    result = walk(reuse, ahead, progress)
    result.seconds = round(result.seconds + ahead_seconds, 3)  # the cluster's wall time too
    result.command = request.command()
    return result

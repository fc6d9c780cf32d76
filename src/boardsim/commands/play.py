"""``boardsim play GAME``: a person plays in the terminal against agents.

Every decision lists the legal actions by number (the game's action number) and
by name; the person answers with a number or a name (or a unique part of one).
A wrong entry is answered with the legal choices. ``undo`` takes back the
person's last decision, replaying the game from the start without it, unless a
die was rolled or a card drawn since (its result is known by then, so taking the
decision back would let the person choose again knowing it). What the person may see
of chance is said as it happens ("you rolled 4", "you drew Leader 5", "player 2 drew a
card": an opponent's card stays hidden). ``board`` shows the board and the choices
again, ``help`` the choices, ``quit`` stops (the replay keeps the moves
so far). Every game is saved as a replay (``--replay PATH``, or a new file in
``--replay-dir``), line by line as it is played.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import textwrap
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import numpy as np

from boardsim.agents import load
from boardsim.api import list_games, make_game
from boardsim.commands.args import add_command, add_list_argument, seed_argument, split_list
from boardsim.core.compiles import compiling_notice
from boardsim.core.errors import OptionError
from boardsim.core.game import CHANCE, Game, State
from boardsim.core.header import FLAG_TERMINAL, H_ACTOR, H_FLAGS, H_RNG, P_EXPLICIT_CHANCE
from boardsim.core.options import option_words
from boardsim.core.rng import rng_weighted
from boardsim.render import chance_text, private_text, to_text
from boardsim.replay import Move, ReplayWriter
from boardsim.wrappers.gymnasium import act_with_state

CHOICES_SHOWN = 200  # a decision with more legal actions lists the first ones and says so
DEFAULT_REPLAY_DIR = "replays"


def chance_after(
    game: Game, state: State, action: int
) -> tuple[list[tuple[State, int]], np.ndarray]:
    """The chance nodes ``state.apply_action(action)`` will resolve, each ``(state at the
    node, outcome)``, and the state it ends in.

    The nodes are the library's own positions (a chance node that a game resolving chance
    itself never shows; its validator would refuse one from outside), so they are adopted
    as states without the untrusted-state check.

    The step is replayed on a copy stopping at every chance node (the ``explicit_chance``
    switch of the params) and each node drawn as the engine draws it, from the generator
    inside the state, so the outcomes are the very ones the step draws.
    """
    params = game.params.copy()
    params[P_EXPLICIT_CHANCE] = 1
    params.setflags(write=False)  # read-only as a Game's: the same compiled step, not another
    arr = state.array.copy()
    rewards = np.zeros(game.max_players, np.float32)
    game.engine.step(arr, params, np.int64(action), rewards)
    outcomes = np.zeros(game.max_chance_outcomes, np.int32)
    weights = np.zeros(game.max_chance_outcomes, np.int64)
    events = []
    while arr[H_ACTOR] == CHANCE and not arr[H_FLAGS] & FLAG_TERMINAL:
        n = game.kernels.chance_weights(arr, params, outcomes, weights)
        outcome = int(outcomes[rng_weighted(arr, H_RNG, weights, n)])
        events.append((State._adopt(game, arr.copy()), outcome))
        game.engine.step(arr, params, np.int64(outcome), rewards)
    return events, arr


class AgentError(RuntimeError):
    """An agent answered with an action the rules do not allow."""


@dataclass
class Seats:
    """Who plays which player: the person (``humans``) or an agent (``agents[p]``)."""

    humans: set[int]
    agents: dict[int, Any]
    specs: dict[int, str] = field(default_factory=dict)

    def describe(self, game: Game) -> dict[str, str]:
        return {
            f"player_{p}": "human" if p in self.humans else self.specs[p]
            for p in range(game.num_players)
        }


def make_seats(game: Game, seat: int, vs: list[str] | None, seed: int) -> Seats:
    """The person plays ``seat`` and every player on its side; agents play the rest."""
    if not 0 <= seat < game.num_players:
        raise OptionError(f"--seat {seat} out of range [0, {game.num_players})")
    humans = {p for p in range(game.num_players) if game.teams[p] == game.teams[seat]}
    others = [p for p in range(game.num_players) if p not in humans]
    specs = vs or ["random"]
    if len(specs) == 1:
        specs = specs * len(others)
    if len(specs) != len(others):
        raise OptionError(
            f"--vs names {len(specs)} agents for {len(others)} other player(s) "
            f"{others}: name one (for all) or one per other player, e.g. --vs random,greedy"
        )
    agents = {
        p: load(spec, game, seed=seed + 1000 + p) for p, spec in zip(others, specs, strict=True)
    }
    return Seats(humans, agents, dict(zip(others, specs, strict=True)))


class Session:
    """One game in the terminal: the state, the moves so far, the replay being written."""

    def __init__(
        self,
        game: Game,
        seed: int,
        seats: Seats,
        replay_path: Path,
        stdin: IO[str],
        stdout: IO[str],
    ) -> None:
        self.game, self.seed, self.seats = game, seed, seats
        self.stdin, self.stdout = stdin, stdout
        self.state = game.new_initial_state(seed)
        self.before: list[State] = []  # the state before each move, for undo
        self.writer = ReplayWriter(replay_path, game, seed, seats.describe(game))
        self.chance_rng = np.random.default_rng(seed + 7)

    # ------------------------------------------------------------ output
    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def who(self, player: int) -> str:
        if player == CHANCE:
            return "chance"
        kind = "you" if player in self.seats.humans else self.seats.specs[player]
        return f"player {player} ({kind})"

    def say_wrapped(self, text: str) -> None:
        """``text`` with each line too long for the terminal broken between words (the
        continuation indented under its line), never inside a token."""
        width = max(40, shutil.get_terminal_size((80, 24)).columns - 1)
        for line in text.splitlines():
            if len(line) <= width:
                self.say(line)
                continue
            indent = line[: len(line) - len(line.lstrip())]
            wrapped = textwrap.wrap(
                line,
                width,
                subsequent_indent=indent + "    ",
                break_long_words=False,
                break_on_hyphens=False,
            )
            for part in wrapped:
                self.say(part)

    def show_board(self, player: int) -> None:
        self.say_wrapped(to_text(self.game, self.state))
        mine = private_text(self.game, self.state, player)
        if mine:
            self.say_wrapped(mine)

    def show_choices(self, legal: list[int]) -> None:
        for a in legal[:CHOICES_SHOWN]:
            self.say(f"  {a:>4}  {self.state.action_to_string(a)}")
        if len(legal) > CHOICES_SHOWN:
            self.say(f"  ... {len(legal) - CHOICES_SHOWN} more: type a number or a name")

    # ------------------------------------------------------------ moves
    def apply(self, player: int, action: int) -> None:
        name = self.state.action_to_string(action)
        seen = self.chance_seen(player, action)
        self.before.append(self.state.clone())
        self.state.apply_action(action)
        self.writer.record(Move(player, action, name))
        if player not in self.seats.humans and player != CHANCE:
            self.say(f"{self.who(player)}: {name}")
        for words in seen(self.state):
            self.say(f"  ({words})")
        events = self.game.definition.move_events
        if events is not None:  # what the move brought about: an independence, who scored
            for words in events(self.game.params, self.before[-1].array, self.state.array):
                self.say(f"  {words}")

    def viewer(self) -> int:
        """The player whose eyes the person sees chance with (the first of their seats)."""
        return min(self.seats.humans)

    def chance_seen(self, player: int, action: int) -> Any:
        """What the person may see of the chance that ``action`` brings: a function of the
        state after it, giving the words ("you rolled 4", "player 2 drew a card")."""
        if player == CHANCE:  # explicit chance: this very outcome
            words = chance_text(self.game, self.state, action, self.viewer())
            return lambda after: [words] if words else []
        if self.game.options["explicit_chance"]:
            return lambda after: []
        events, end = chance_after(self.game, self.state, action)

        def seen(after: State) -> list[str]:
            if not np.array_equal(end, after.array) and not after.is_truncated():
                return []  # not the step it was meant to mirror: say nothing rather than wrong
            texts = (chance_text(self.game, at, o, self.viewer()) for at, o in events)
            return [t for t in texts if t]

        return seen

    def play_chance(self) -> None:
        outcomes = self.state.chance_outcomes()
        probs = np.array([p for _, p in outcomes])
        i = int(self.chance_rng.choice(len(outcomes), p=probs / probs.sum()))
        self.apply(CHANCE, outcomes[i][0])

    def play_agent(self, player: int) -> None:
        mask = self.state.legal_actions_mask()
        agent = self.seats.agents[player]
        action = act_with_state(agent, self.state.observation(player), mask, self.state)
        if not 0 <= action < self.game.num_actions or not mask[action]:
            raise AgentError(
                f"the agent {self.seats.specs[player]!r} of player {player} chose the illegal "
                f"action {action}"
            )
        self.apply(player, action)

    def undo(self) -> tuple[bool, str]:
        """Take back the person's last decision (and what followed): (done, words why)."""
        moves = self.writer.moves
        mine = [i for i, m in enumerate(moves) if m.player in self.seats.humans]
        if not mine:
            return False, "nothing to take back: you have not decided anything yet"
        k = mine[-1]
        since = moves[k:]
        rng_then = self.before[k].array[H_RNG : H_RNG + 2]
        rng_now = self.state.array[H_RNG : H_RNG + 2]
        if any(m.player == CHANCE for m in since) or not np.array_equal(rng_then, rng_now):
            return False, (
                "cannot take back your last decision: a die was rolled or a card drawn "
                "since, and its result is known now"
            )
        self.writer.truncate(k)
        self.before = self.before[:k]
        state = self.game.new_initial_state(self.seed)  # replay from the start, minus the rest
        for m in self.writer.moves:
            state.apply_action(m.action)
        self.state = state
        return True, f"took back: {since[0].name}" + (
            f" (and {len(since) - 1} move(s) after it)" if len(since) > 1 else ""
        )

    def match(self, entry: str, legal: list[int]) -> list[int]:
        """The legal actions ``entry`` may mean (a number, a name, or part of a name)."""
        text = entry.strip()
        if text.lstrip("-").isdigit():
            return [int(text)] if int(text) in legal else []
        names = {a: self.state.action_to_string(a).lower() for a in legal}
        low = text.lower()
        exact = [a for a, n in names.items() if n == low]
        if exact:
            return exact[:1]
        return [a for a, n in names.items() if low and low in n]

    def ask(self, player: int) -> bool:
        """One decision of the person; False when the input ends or they quit."""
        legal = self.state.legal_actions()
        self.say()
        self.show_board(player)
        self.say(f"\nYour decision, {self.who(player)}. Legal actions:")
        self.show_choices(legal)
        while True:
            self.stdout.write("> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.say("\n(input ended)")
                return False
            entry = line.strip()
            low = entry.lower()
            if low in ("quit", "exit", "q"):
                return False
            if not entry:
                self.say("type an action's number or name (help: the commands and the board)")
                continue
            if low in ("help", "?", "h"):
                self.say_wrapped(
                    "type an action's number or a part of its name; undo takes back your "
                    "last decision, board shows the board again, quit stops (the replay "
                    "keeps the moves)"
                )
                legend = self.game.definition.text_legend
                if legend:
                    self.say("\nThe board's notation:")
                    self.say_wrapped(legend)
                self.say("\nLegal actions:")
                self.show_choices(legal)
                continue
            if low == "board":
                self.show_board(player)
                self.say("Legal actions:")
                self.show_choices(legal)
                continue
            if low == "undo":
                taken_back, words = self.undo()
                self.say(words)
                if taken_back:
                    return True
                continue
            matches = self.match(entry, legal)
            if len(matches) > 1:
                self.say(f"{entry!r} could mean {len(matches)} actions; type one's number:")
                self.show_choices(matches)
                continue
            if not matches:
                self.say(f"{entry!r} is not a legal choice here. Choose one of:")
                self.show_choices(legal)
                continue
            action = matches[0]
            self.say(f"you: {self.state.action_to_string(action)}")
            self.apply(player, action)
            return True

    def run(self) -> int:
        """Play until the game ends or the person stops (both 0); 1 when an agent failed."""
        try:
            while not self.state.is_terminal():
                p = self.state.current_player()
                if p == CHANCE:
                    self.play_chance()
                elif p in self.seats.humans:
                    if not self.ask(p):  # the person stopped (quit, or the end of the input)
                        self.say(f"game left unfinished; replay so far: {self.writer.path}")
                        return 0
                else:
                    self.play_agent(p)
            self.say()
            self.say(str(self.state))
            self.say(result_words(self.state))
            self.say(f"replay saved: {self.writer.path}")
            return 0
        except KeyboardInterrupt:
            self.say(f"\ninterrupted; replay so far: {self.writer.path}")
            return 130
        except AgentError as exc:
            print(f"boardsim play: {exc}; replay so far: {self.writer.path}", file=sys.stderr)
            return 1
        finally:
            self.writer.close()


def seat_names(game: Game, seats: Seats) -> str:
    """The person's seats in words: ``player 0``, or ``Empire (player 1)`` where the seat
    has a name of its own."""
    names = game.agent_names()
    out = []
    for p in sorted(seats.humans):
        name = names[p] if p < len(names) else f"player_{p}"
        out.append(
            f"player {p}"
            if name == f"player_{p}"
            else f"{name.replace('_', ' ').capitalize()} (player {p})"
        )
    return ", ".join(out)


def result_words(state: State) -> str:
    ret = state.returns()
    shown = ", ".join(f"player {p}: {r:+g}" for p, r in enumerate(ret))
    end = "truncated" if state.is_truncated() else "over"
    return f"game {end} after {state.decisions()} decisions; returns {shown}"


def default_replay_path(directory: str, game: str, seed: int) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    return Path(directory) / f"{game}-{stamp}-seed{seed}.jsonl"


def cmd_play(args: argparse.Namespace, stdin: IO[str] | None = None) -> int:
    try:
        game = make_game(args.game, **option_words(args.option))
        seed = args.seed if args.seed is not None else int(np.random.default_rng().integers(2**31))
        seats = make_seats(game, args.seat, split_list(args.vs), seed)
    except OptionError as exc:
        print(f"boardsim play: {exc}", file=sys.stderr)
        return 2
    path = (
        Path(args.replay) if args.replay else default_replay_path(args.replay_dir, game.name, seed)
    )
    out = sys.stdout
    print(f"{game.definition.title}; seed {seed}; you play {seat_names(game, seats)}", file=out)
    print("type help for the commands and the board's notation", file=out)
    print(f"replay: {path}", file=out)
    # a first run compiles the engine and the agents before the first move: say so
    with compiling_notice(lambda text: print(text, file=out, flush=True), game.name):
        return Session(game, seed, seats, path, stdin or sys.stdin, out).run()


def add_parser(subparsers: Any) -> None:
    """Register ``boardsim play``."""
    p = add_command(
        subparsers,
        "play",
        "play a game in the terminal against agents (saved as a replay)",
        __doc__,
    )
    p.add_argument("game", choices=list_games())
    p.add_argument("--seat", type=int, default=0, help="your player (default 0); you also "
                   "play every player on its side")  # fmt: skip
    add_list_argument(
        p,
        "--vs",
        "agents for the other players: random, greedy, heuristic, mcts:N, ppo:PATH; "
        "one for all, or one per other player in order (default random)",
        metavar="AGENT[,AGENT...]",
    )
    p.add_argument(
        "--seed", type=seed_argument, default=None, help="game seed (default: a random one)"
    )
    p.add_argument(
        "--option", "-o", action="append", metavar="NAME=VALUE", help="a game option (repeatable)"
    )
    p.add_argument("--replay", default=None, help="write the replay to this file")
    p.add_argument(
        "--replay-dir",
        default=DEFAULT_REPLAY_DIR,
        help=f"where replays go without --replay (default ./{DEFAULT_REPLAY_DIR})",
    )
    p.set_defaults(func=cmd_play)

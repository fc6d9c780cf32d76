"""``boardsim demo``: a short tour of every game: speed, strength, balance and pictures.

- **speed**: the compiled batched random rollout in decisions and games a second, beside
  the PettingZoo and Gymnasium Python loops (``boardsim.bench``), and the peer libraries
  of ``benchmarks/peers.py`` on the same machine when the ``bench`` extra is installed;
- **strength**: a ladder played in compiled code (random, the heuristic, MCTS at a small
  budget, and the learned network when this build has one), seats rotated, with 95%
  Wilson intervals (``boardsim.research.tournament``); a cooperative game's side at an
  easy and the medium level of its difficulty;
- **balance**: one finding a game at small size from ``boardsim.research`` (each
  difficulty parameter's effect, or the seats' win rates), with the command that does it
  properly;
- **pictures**: a PNG of each board mid-game and an HTML replay of one game a game, in
  ``--out DIR`` with an ``index.html``.

The first run compiles each game's engine (numba caches it on disk) in two worker
processes, a part of ``boardsim compile`` at a time (the rules first, then the envs, the
loops and the searches side by side), while this process plays the tour of the games
already compiled; the speed is measured last, on a quiet machine. Later runs load the
engines.
"""

from __future__ import annotations

import argparse
import heapq
import html
import importlib
import importlib.util
import os
import queue
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import boardsim
from boardsim import render
from boardsim.agents import load
from boardsim.api import list_games, make_game
from boardsim.bench import bench_gymnasium, bench_pettingzoo, bench_rollout, bench_vector
from boardsim.build import PARTS, compile_part, compile_pool, compile_weight
from boardsim.commands.args import add_command, seed_argument
from boardsim.core.batch import play_games
from boardsim.core.compiles import counting_compiles
from boardsim.files import atomic_write, atomic_write_text
from boardsim.games import definition
from boardsim.render.animate import write_html
from boardsim.replay import Move, make_header, read_replay, write_replay
from boardsim.research.players import any_options_maker
from boardsim.research.report import summarize
from boardsim.research.sweep import run_sweep
from boardsim.research.tournament import cooperative, round_robin

DEFAULT_GAMES = 200
DEFAULT_OUT = "demo-output"
SEARCH_SIMULATIONS = 25  # MCTS's small budget by default: simulations a decision
SEARCH_SHARE = 10  # MCTS rungs play 1/SEARCH_SHARE of --games (at least 2)
LEVEL_CELL_SHARE = 20  # a difficulty sweep plays --games / LEVEL_CELL_SHARE games a level
LEARNED = "alphazero"  # the learned network's agent spec, once a build has it
FIELD_AGENT = "heuristic"  # who plays the balance games and the pictured game
SEARCH_NOTE = (
    "(MCTS grows with its budget: --simulations 200, or boardsim eval GAME --agents "
    "heuristic,mcts:200 --games 1000; docs/agents.md)"
)


# ------------------------------------------------------------------ the command
def add_parser(subparsers: Any) -> None:
    """Register ``boardsim demo``."""
    p = add_command(
        subparsers,
        "demo",
        "a tour of every game: speed, strength ladder, balance, pictures",
        __doc__,
    )
    p.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        help=f"games a rung of the ladder and a balance study (default {DEFAULT_GAMES}; "
        f"MCTS rungs play a {SEARCH_SHARE}th, a difficulty sweep a {LEVEL_CELL_SHARE}th a level)",
    )
    p.add_argument(
        "--out",
        default=DEFAULT_OUT,
        help=f"the folder the pictures go to (default {DEFAULT_OUT})",
    )
    p.add_argument(
        "--seconds",
        type=float,
        default=0.5,
        help="timed window of each speed case (default 0.5)",
    )
    p.add_argument(
        "--simulations",
        type=int,
        default=SEARCH_SIMULATIONS,
        help=f"MCTS's simulations a decision (default {SEARCH_SIMULATIONS}; it grows stronger "
        "and slower with more)",
    )
    p.add_argument("--seed", type=seed_argument, default=0)
    p.add_argument(
        "--game",
        dest="games_list",
        action="append",
        choices=list_games(),
        help="only this game (repeatable)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the tour and print its tables; bad arguments exit with status 2."""
    if args.seconds <= 0:
        print("boardsim demo: --seconds must be positive", file=sys.stderr)
        return 2
    if args.simulations < 1:
        print("boardsim demo: --simulations must be at least 1", file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"boardsim demo: --out {out} is a file, not a folder", file=sys.stderr)
        return 2
    tour = Tour(
        names=list(args.games_list or list_games()),
        games=int(args.games),
        seconds=float(args.seconds),
        seed=int(args.seed),
        out=out,
        simulations=int(args.simulations),
    )
    print(tour_text(tour, progress=not args.no_progress))
    return 0


@dataclass
class Tour:
    """What a demo plays: the games, how many, for how long, where the pictures go."""

    names: list[str]
    games: int
    seconds: float
    seed: int
    out: Path
    simulations: int = SEARCH_SIMULATIONS

    @property
    def search_games(self) -> int:
        """Games of an MCTS rung."""
        return max(2, self.games // SEARCH_SHARE)


@dataclass
class Findings:
    """Every section's rows, filled as the tour goes."""

    speed: list[dict[str, Any]] = field(default_factory=list)
    peers: dict[str, Any] | None = None
    ladder: list[dict[str, Any]] = field(default_factory=list)
    levels: list[dict[str, Any]] = field(default_factory=list)
    balance: list[dict[str, Any]] = field(default_factory=list)
    pictures: list[dict[str, Any]] = field(default_factory=list)
    compile_seconds: float = 0.0
    workers: int = 0
    seconds: float = 0.0

    def in_order(self, names: Sequence[str]) -> None:
        """Every section's rows in the order of the games (steps may play out of it)."""
        rank = {n: i for i, n in enumerate(names)}
        for rows in (self.speed, self.ladder, self.levels, self.balance, self.pictures):
            rows.sort(key=lambda r: rank[r["game"]])


def tour_text(tour: Tour, progress: bool = True) -> str:
    """Play the whole tour (a progress bar on stderr) and return its tables.

    The engines compile in worker processes (:class:`Compiler`) while this process plays
    each step as soon as what it needs is compiled: a game's strength, balance and
    pictures once that game is, the speed once every game is (so that it is measured on a
    quiet machine). The tables print in their own order whatever the order of play."""
    start = time.perf_counter()
    found = Findings()
    pending = tour_steps(tour, found)
    compiler = Compiler(tour.names)
    bar = Progress(len(pending) + compiler.stages, progress)
    try:
        compiler.start()
        while pending:
            bar.advance(compiler.poll())
            step = next((s for s in pending if compiler.compiled(s.needs)), None)
            if step is None:
                bar.show("compiling the engines (first run only)")
                bar.advance(compiler.wait())
                continue
            pending.remove(step)
            bar.show(step.label)
            step.run()
            bar.advance()
        found.compile_seconds = compiler.seconds
        found.workers = compiler.workers
    finally:
        bar.close()
        compiler.close()
    found.seconds = time.perf_counter() - start
    found.in_order(tour.names)
    return report(tour, found)


EVERY_GAME = ""  # what a step needs that needs every game compiled (the speed: a quiet machine)


@dataclass
class Step:
    """One step of the tour: what the bar says, what it needs compiled first (a game's
    name, or :data:`EVERY_GAME`) and what it does."""

    label: str
    needs: str
    run: Callable[[], None]


def tour_steps(tour: Tour, found: Findings) -> list[Step]:
    """The tour, one :class:`Step` a step, in the order the tables print."""
    steps: list[Step] = []
    for name in tour.names:
        steps.append(
            Step(
                f"speed: {name}",
                EVERY_GAME,
                lambda n=name: found.speed.append(speed_row(n, tour)),
            )
        )
    steps.append(
        Step(
            "speed: peer libraries",
            EVERY_GAME,
            lambda: setattr(found, "peers", peer_results(tour)),
        )
    )
    for name in tour.names:
        steps.append(Step(f"strength: {name}", name, lambda n=name: strength(n, tour, found)))
    for name in tour.names:
        steps.append(
            Step(
                f"balance: {name}",
                name,
                lambda n=name: found.balance.append(balance_finding(n, tour)),
            )
        )
    for name in tour.names:
        steps.append(
            Step(
                f"pictures: {name}",
                name,
                lambda n=name: found.pictures.append(pictures(n, tour)),
            )
        )
    steps.append(Step("pictures: index", EVERY_GAME, lambda: write_index(tour.out, found.pictures)))
    return steps


class Progress:
    """A tqdm bar over the tour's steps (what is being done as its text), or nothing."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.bar: Any = None
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:  # tqdm comes with the train and research extras
                return
            self.bar = tqdm(total=total, desc="demo", unit="step", leave=False, file=sys.stderr)

    def show(self, text: str) -> None:
        """Say what is being done now."""
        if self.bar is not None:
            self.bar.set_description_str(f"demo: {text}")

    def advance(self, steps: int = 1) -> None:
        """``steps`` steps done."""
        if self.bar is not None and steps:
            self.bar.update(steps)

    def close(self) -> None:
        """Take the bar away (the tables follow)."""
        if self.bar is not None:
            self.bar.close()


# ------------------------------------------------------------------ compiling
# A game's compiled code in the parts of boardsim.build (the library's build step, also
# ``boardsim compile``), as the workers compile them: the rules first (which every later part
# links), then the others side by side.
STAGES = PARTS


class Compiler:
    """Compiles (or loads from numba's cache) the tour's engines in worker processes, a
    :data:`STAGES` stage of a game at a time, the heaviest game first, from a thread of
    this process while it plays the tour. Without workers (one CPU, or they cannot start),
    every game counts as compiled at once and the tour compiles what it calls."""

    def __init__(self, names: Sequence[str], workers: int | None = None) -> None:
        self.names = list(names)
        self.stages = len(self.names) * len(STAGES)
        cpus = os.cpu_count() or 1
        self.workers = min(2, cpus) if workers is None else workers
        self.left = {n: len(STAGES) for n in self.names}
        self.events: queue.Queue[tuple[str, str] | None] = queue.Queue()
        self.finished = False
        self.seconds = 0.0
        self._start = time.perf_counter()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def start(self) -> None:
        """Start compiling (returns at once)."""
        self._start = time.perf_counter()
        if self.workers < 2:
            self.workers = 0
            self.events.put(None)
            return
        self._thread = threading.Thread(target=self._run, name="demo-compile", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        from concurrent.futures import FIRST_COMPLETED, Future, wait

        weight = {n: -compile_weight(n) for n in self.names}  # the heaviest game first
        ready = [(weight[n], 0, n) for n in self.names]
        heapq.heapify(ready)
        running: dict[Future[str], tuple[str, int]] = {}
        try:
            with compile_pool(self.workers) as pool:
                while running or (ready and not self._stop.is_set()):
                    while ready and len(running) < self.workers and not self._stop.is_set():
                        _, stage, name = heapq.heappop(ready)
                        running[pool.submit(compile_part, name, STAGES[stage])] = (name, stage)
                    done, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in done:
                        name, stage = running.pop(future)
                        future.exception()  # what failed here, the tour compiles itself
                        if stage == 0:
                            for later in range(1, len(STAGES)):
                                heapq.heappush(ready, (weight[name], later, name))
                        self.events.put((name, STAGES[stage]))
        except (OSError, RuntimeError):  # no workers (a broken pool is a RuntimeError too)
            pass
        finally:
            self.events.put(None)

    def _take(self, event: tuple[str, str] | None) -> int:
        if event is None:
            self.finished = True
            self.seconds = time.perf_counter() - self._start
            return 0
        self.left[event[0]] -= 1
        return 1

    def poll(self) -> int:
        """Take what the workers finished since the last look; returns how many stages."""
        done = 0
        while True:
            try:
                done += self._take(self.events.get_nowait())
            except queue.Empty:
                return done

    def wait(self) -> int:
        """Wait for the workers' next news; returns how many stages it finished (0 or 1)."""
        return self._take(self.events.get())

    def compiled(self, name: str) -> bool:
        """Whether game ``name`` (or every game: :data:`EVERY_GAME`) is compiled, or left
        to the tour to compile."""
        if self.finished or name == EVERY_GAME:
            return self.finished
        return self.left[name] == 0

    def close(self) -> None:
        """Stop compiling: no new stage starts, the workers finish theirs (at once after a
        whole tour, which waits for every game)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


def compiling_words(found: Findings) -> str:
    """The last line's account of compiling (a first run) or loading the engines."""
    if not found.workers:
        return "the tour compiled or loaded the engines as it went (numba caches them on disk)"
    return (
        f"the first {found.compile_seconds:.0f} s of it compiling or loading the engines in "
        f"{found.workers} worker processes beside the tour (a first run compiles them; numba "
        "caches them on disk)"
    )


# ------------------------------------------------------------------ speed
def speed_row(name: str, tour: Tour) -> dict[str, Any]:
    """The compiled rollout (4096 games, every thread), the vector env stepped from Python
    (4096 envs, a random legal action each from numpy), the PettingZoo and Gymnasium loops.

    Each case warms up (compiles or loads) before its clock starts; a case during whose
    timing this process compiled anything is marked, so that no speed measured beside a
    compilation passes for the engine's."""
    import numba

    threads = numba.config.NUMBA_NUM_THREADS
    bench_vector(name, 64, threads, 0.01, windows=1)  # compile or load before the clocks
    with counting_compiles() as compiled_meanwhile:
        compiled = bench_rollout(name, 4096, threads, tour.seconds)["decisions_per_second"]
        vector = bench_vector(name, 4096, threads, tour.seconds)["steps_per_second"]
        length = mean_game_length(make_game(name), tour.seed)
        row = {
            "game": name,
            "threads": threads,
            "compiled": compiled,
            "vector": vector,
            "games_per_second": compiled / length,
            "length": length,
            "pettingzoo": bench_pettingzoo(name, tour.seconds),
            "gymnasium": bench_gymnasium(name, tour.seconds),
        }
    row["compiling"] = bool(compiled_meanwhile)
    return row


def mean_game_length(game: Any, seed: int, games: int = 256) -> float:
    """Decisions a game of random players, over whole games (a rollout's window ends mid-game)."""
    return float(play_games(game, games, "random", seed=seed)["decisions"].mean())


def peers_module() -> ModuleType | None:
    """``benchmarks/peers.py`` of the source checkout (None in an installed wheel)."""
    try:
        return importlib.import_module("benchmarks.peers")
    except ImportError:
        pass
    path = Path(boardsim.__file__).resolve().parents[2] / "benchmarks" / "peers.py"
    spec = importlib.util.spec_from_file_location("boardsim_peers", path)
    if not path.exists() or spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def peer_results(tour: Tour) -> dict[str, Any] | None:
    """The peers' random play (``benchmarks.peers.run_all``): ``{case: rates or why not}``."""
    module = peers_module()
    return None if module is None else dict(module.run_all(tour.seconds))


# ------------------------------------------------------------------ strength
def strength_options(name: str) -> dict[str, Any]:
    """The options the game measures strength at (its first ``strength_matchups`` line),
    without its difficulty option (the ladder chooses the levels); the decision limit is
    the game's own default (``max_decisions`` left out)."""
    d = definition(name)
    options = dict(d.strength_matchups[0].options) if d.strength_matchups else {}
    if d.difficulty is not None:
        options.pop(d.difficulty.option, None)
    return options


def easy_and_medium(name: str) -> list[tuple[str, str]]:
    """``[("easy", level), ("medium", level)]`` of the game's difficulty: every parameter at
    its easiest value, then every one at its middle value; [] without a difficulty."""
    d = definition(name).difficulty
    if d is None:
        return []
    easy = d.join([v[0] for v in d.values])
    medium = d.join([v[len(v) // 2] for v in d.values])
    return [("easy", easy), ("medium", medium)]


def learned_agent(game: Any) -> str | None:
    """The learned network's spec when this build loads it for ``game``, else None."""
    try:
        load(LEARNED, game)
    except Exception:  # not built yet, or not trained for this game
        return None
    return LEARNED


def rungs(game: Any, simulations: int = SEARCH_SIMULATIONS) -> list[tuple[str, str]]:
    """The ladder: ``(agent, the agent it is measured against)``, weakest first."""
    out = [("heuristic", "random"), (f"mcts:{simulations}", "heuristic")]
    learned = learned_agent(game)
    if learned is not None:
        out.append((learned, "heuristic"))
    return out


def strength(name: str, tour: Tour, found: Findings) -> None:
    """The game's ladder: rung against rung, or a cooperative side's win rate by level."""
    options = strength_options(name)
    game = make_game(name, **options)
    if game.is_cooperative():
        found.levels += cooperative_ladder(name, game, tour, options)
    else:
        found.ladder += competitive_ladder(name, game, tour, options)


def _games_for(tour: Tour, *specs: str) -> int:
    compiled = all(s in ("random", "heuristic") for s in specs)
    return tour.games if compiled else tour.search_games


def competitive_ladder(
    name: str, game: Any, tour: Tour, options: dict[str, Any]
) -> list[dict[str, Any]]:
    """Each rung against the one below it, seats rotated (``round_robin`` of the pair)."""
    rows = []
    for agent, opponent in rungs(game, tour.simulations):
        games = _games_for(tour, agent, opponent)
        result = round_robin(name, [opponent, agent], games, tour.seed, **options)
        pair = next(p for p in result.pairs if p.agent == agent)
        rows.append(
            {
                "game": name,
                "players": game.num_players,
                "agent": agent,
                "opponent": opponent,
                "games": games,
                "rate": pair.win_rate,
                "low": pair.ci_low,
                "high": pair.ci_high,
                "fair": 1.0 / game.num_players,
            }
        )
    return rows


def cooperative_ladder(
    name: str, game: Any, tour: Tour, options: dict[str, Any]
) -> list[dict[str, Any]]:
    """The side's win rate with every player of it on one agent, at the easy and the medium
    level (``tournament.cooperative``)."""
    levels = easy_and_medium(name)
    agents = ["random"] + [a for a, _ in rungs(game, tour.simulations)]
    rows = []
    for agent in agents:
        games = _games_for(tour, agent)
        result = cooperative(
            name,
            [agent],
            games,
            [lv for _, lv in levels] or None,
            tour.seed,
            agent_maker=any_options_maker,
            **options,
        )
        words = [w for w, _ in levels] or [""]
        for word, solo in zip(words, result.solo, strict=True):
            rows.append(
                {
                    "game": name,
                    "side": game.definition.subject or "the side",
                    "agent": agent,
                    "level": f"{word} {solo.level}".strip(),
                    "games": games,
                    "rate": solo.win_rate,
                    "low": solo.ci_low,
                    "high": solo.ci_high,
                }
            )
    return rows


# ------------------------------------------------------------------ balance
def balance_plan(name: str, tour: Tour) -> dict[str, Any]:
    """What the small study sweeps (a difficulty's every level, or one cell of seats), and
    the ``boardsim balance`` command that does it properly."""
    d = definition(name)
    options = strength_options(name)
    fixed = "".join(f" --option {k}={v}" for k, v in options.items())
    if d.difficulty is not None:
        option = d.difficulty.option
        return {
            "kind": "difficulty",
            "grid": {option: d.difficulty.levels()},
            "games_per_cell": max(1, tour.games // LEVEL_CELL_SHARE),
            "options": options,
            "command": f"boardsim balance {name} --grid {option}=all --agents {FIELD_AGENT} "
            f"--games-per-cell 200{fixed} --out runs/{name}-{option} --report",
        }
    counts = any(o.name == "num_players" for o in d.options)
    grid = " --grid num_players=all" if counts else ""
    return {
        "kind": "seats",
        "grid": {},
        "games_per_cell": tour.games,
        "options": options,
        "command": f"boardsim balance {name}{grid} --agents {FIELD_AGENT} --games-per-cell 10000 "
        f"--out runs/{name}-seats --report",
    }


def balance_finding(name: str, tour: Tour) -> dict[str, Any]:
    """One finding at small size: the sweep of :func:`balance_plan`, summarized by the
    balance report's own statistics (``boardsim.research.report.summarize``)."""
    plan = balance_plan(name, tour)
    with tempfile.TemporaryDirectory(prefix="boardsim-demo-") as folder:
        result = run_sweep(
            name,
            plan["grid"],
            [FIELD_AGENT],
            plan["games_per_cell"],
            folder,
            seed=tour.seed,
            base_options=plan["options"],
        )
        summary = summarize(folder)
    text = (
        difficulty_words(summary)
        if plan["kind"] == "difficulty"
        else seat_words(name, summary, plan["options"])
    )
    return {"game": name, "games": result.games, "finding": text, "command": plan["command"]}


def _pct(rate: float) -> str:
    return f"{100 * rate:.0f}%"


def _rate_words(r: dict[str, Any]) -> str:
    return f"{_pct(r['rate'])} [{_pct(r['low'])}-{_pct(r['high'])}]"


def difficulty_words(summary: dict[str, Any]) -> str:
    """The parameter that makes the game hardest and the one that matters least."""
    effects = summary["parameters"]  # sorted, the largest drop first
    subject = summary["subject"]

    def words(e: dict[str, Any]) -> str:
        first, last = e["rates"][0], e["rates"][-1]
        return (
            f"{e['parameter']} {e['values'][0]} -> {e['values'][-1]}: {subject} wins "
            f"{_rate_words(first)} -> {_rate_words(last)}"
        )

    hardest, easiest = effects[0], effects[-1]
    return (
        f"hardest parameter: {words(hardest)}; "
        f"matters least: {words(easiest)} ({summary['games']} games, every level)"
    )


def seat_words(name: str, summary: dict[str, Any], options: dict[str, Any]) -> str:
    """Each seat's win rate with every seat played alike, and the first seat's advantage."""
    cell = summary["cells"][0]
    seats = make_game(name, **options).agent_names()
    rates = ", ".join(f"{s} {_rate_words(r)}" for s, r in zip(seats, cell["seats"], strict=True))
    text = f"every seat {FIELD_AGENT}: {rates}"
    first = cell.get("first_seat")
    if first is not None:
        text += (
            f"; the first seat wins {first['ratio']:.2f}x its fair share "
            f"{_pct(first['fair_share'])}"
        )
    nobody = cell.get("nobody_won", 0.0)
    if nobody:
        text += f"; nobody won {_pct(nobody)}"
    return text


# ------------------------------------------------------------------ pictures
def play_pictured_game(game: Any, seed: int, max_moves: int | None = None) -> tuple[list, Any]:
    """One game with the heuristic in every seat: its moves and the state halfway."""
    agent = load(FIELD_AGENT, game, seed)
    state = game.new_initial_state(seed)
    states, moves = [state.clone()], []
    while not state.is_terminal() and (max_moves is None or len(moves) < max_moves):
        player = state.current_player()
        action = agent.act_state(state)
        moves.append(Move(player, int(action), state.action_to_string(action)))
        state.apply_action(action)
        states.append(state.clone())
    return moves, states[len(states) // 2]


def pictures(name: str, tour: Tour) -> dict[str, Any]:
    """``DIR/GAME-midgame.png``, ``DIR/GAME.jsonl`` (the replay) and ``DIR/GAME.html``."""
    game = make_game(name, **strength_options(name))
    moves, middle = play_pictured_game(game, tour.seed)
    png = tour.out / f"{name}-midgame.png"
    image: Any = render.to_image(game, middle)
    atomic_write(png, lambda tmp: image.save(tmp, format="PNG"))
    seats = {f"player_{p}": FIELD_AGENT for p in range(game.num_players)}
    jsonl = write_replay(tour.out / f"{name}.jsonl", make_header(game, tour.seed, seats), moves)
    page = write_html(read_replay(jsonl), tour.out / f"{name}.html")
    return {"game": name, "moves": len(moves), "png": png, "replay": jsonl, "html": page}


def write_index(out: Path, shown: Sequence[dict[str, Any]]) -> Path:
    """``DIR/index.html``: every board picture, each linking to its game's replay."""
    parts = []
    for p in shown:
        game = html.escape(str(p["game"]))
        parts.append(
            f'<h2>{game}</h2><p><a href="{html.escape(p["html"].name)}">replay of a whole game '
            f'({p["moves"]} moves)</a></p><img src="{html.escape(p["png"].name)}" '
            f'alt="{game} mid-game" style="max-width:100%">'
        )
    page = (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>boardsim demo</title></head>'
        '<body style="font-family:sans-serif">'
        "<h1>boardsim demo: the boards mid-game</h1>" + "".join(parts) + "</body></html>\n"
    )
    path = out / "index.html"
    atomic_write_text(path, page)
    return path


# ------------------------------------------------------------------ the tables
def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], left: int = 1) -> str:
    """A text table: the first ``left`` columns aligned left, the others right."""
    cells = [[str(c) for c in r] for r in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        return "  ".join(
            v.ljust(w) if i < left else v.rjust(w)
            for i, (v, w) in enumerate(zip(values, widths, strict=True))
        ).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(r) for r in cells)])


def _interval(r: dict[str, Any]) -> str:
    return f"{r['rate']:.2f} [{r['low']:.2f}, {r['high']:.2f}]"


def report(tour: Tour, found: Findings) -> str:
    """Every section's table, then where the pictures are and how to open them."""
    out = [
        f"boardsim demo: {', '.join(tour.names)}; --games {tour.games} (MCTS rungs "
        f"{tour.search_games}), --simulations {tour.simulations}, seed {tour.seed}",
        "",
        speed_table(found),
    ]
    if found.ladder:
        out += ["", ladder_table(found, tour)]
    if found.levels:
        out += ["", levels_table(found, tour)]
    out += ["", balance_table(found), "", pictures_table(tour, found)]
    out += [
        "",
        f"{found.seconds:.0f} s in all; {compiling_words(found)}",
    ]
    return "\n".join(out)


def speed_table(found: Findings) -> str:
    threads = found.speed[0]["threads"] if found.speed else 1
    rows = [
        [
            r["game"] + (" (*)" if r.get("compiling") else ""),
            f"{r['compiled']:,.0f}",
            f"{r['games_per_second']:,.0f}",
            f"{r['length']:,.0f}",
            f"{r['vector']:,.0f}",
            f"{r['pettingzoo']:,.0f}",
            f"{r['gymnasium']:,.0f}",
            f"{r['compiled'] / r['pettingzoo']:,.0f}x",
        ]
        for r in found.speed
    ]
    text = [
        f"SPEED: random play, decisions a second (compiled: 4096 games at once on {threads} "
        "thread(s); a game's length from whole random games; vector env: a learner's steps "
        "a second stepping 4096 envs from Python, a random legal action each, the opponents' "
        "decisions inside), measured once every engine was compiled",
        table(
            [
                "game",
                "compiled",
                "games/s",
                "length",
                "vector env",
                "PettingZoo",
                "Gymnasium",
                "compiled/PettingZoo",
            ],
            rows,
        ),
    ]
    if any(r.get("compiling") for r in found.speed):
        text.append("(*) numba compiled during this game's timing: its speed reads low")
    text += ["", peers_text(found.peers)]
    return "\n".join(text)


def peers_text(peers: dict[str, Any] | None) -> str:
    if peers is None:
        return "peers: benchmarks/peers.py is not here (a source checkout has it)"
    rows = []
    missing = []
    for case, value in peers.items():
        if isinstance(value, dict):
            games = value.get("games_per_second")
            rows.append(
                [
                    case,
                    f"{value['steps_per_second']:,.0f}",
                    "-" if games is None else f"{games:,.0f}",
                ]
            )
        else:
            missing.append(case)
    text = []
    if rows:
        text += [
            "peers on this machine, same run (other games; steps as each library counts them)",
            table(["peer, random play", "steps/s", "games/s"], rows),
        ]
    if missing:
        text.append(
            f"not installed: {', '.join(missing)} (pip install -e '.[bench]'; "
            "python benchmarks/run.py measures everything)"
        )
    return "\n".join(text)


def ladder_table(found: Findings, tour: Tour) -> str:
    rows = [
        [
            r["game"],
            r["agent"],
            f"{'a table of ' if r['players'] > 2 else ''}{r['opponent']}",
            r["games"],
            _interval(r),
            f"{r['fair']:.2f}",
        ]
        for r in found.ladder
    ]
    return "\n".join(
        [
            "STRENGTH: each rung against the one below, seats rotated, compiled "
            f"(MCTS: {tour.simulations} simulations a decision); win rate [95% Wilson]",
            table(["game", "agent", "against", "games", "win rate", "fair share"], rows, left=3),
            SEARCH_NOTE,
        ]
    )


def levels_table(found: Findings, tour: Tour) -> str:
    rows = [[r["game"], r["agent"], r["level"], r["games"], _interval(r)] for r in found.levels]
    side = found.levels[0]["side"]
    return "\n".join(
        [
            f"STRENGTH, cooperative: {side}'s win rate, every player of the side on one agent, "
            "against the game's own system [95% Wilson]",
            table(["game", "agent", "level", "games", "win rate"], rows, left=3),
            SEARCH_NOTE,
        ]
    )


def balance_table(found: Findings) -> str:
    lines = ["BALANCE: one finding a game, at small size"]
    for r in found.balance:
        lines.append(f"{r['game']}: {r['finding']}")
        lines.append(f"    properly: {r['command']}")
    return "\n".join(lines)


def pictures_table(tour: Tour, found: Findings) -> str:
    rows = [[p["game"], p["moves"], p["png"].name, p["html"].name] for p in found.pictures]
    index = (tour.out / "index.html").resolve()
    return "\n".join(
        [
            f"PICTURES in {tour.out}/ (one game a game, {FIELD_AGENT} in every seat)",
            table(["game", "moves", "board mid-game", "replay"], rows, left=1),
            f"open them: python -m webbrowser file://{index}",
        ]
    )

"""Forged states: what the library answers to a saved state someone has tampered with.

Each try takes a real position (random play, in every game's ``sample_options``: its
variants and scenarios), changes 1 to 4 of its words to random or boundary values, recomputes the
checksum through the save format (what a buggy writer or a hostile file produces) and
loads it with ``Game.state_from_bytes``. The answer must be one of:

- **refused**: a ``ValueError`` (``StateFormatError``) naming the field;
- **accepted and played out**: random play from it to its end (or the decision limit)
  with every Python surface read on the way (words, observations, returns), the same
  answer from ``State(game, array)``, the heuristic and a small MCTS choosing a legal
  action in it, and a batch adopting it when it can.

Anything else is counted against the library: an **error** (any other exception, at
the load or during play), a **crash** (the process died: the tries run in a child
process so that a segfault is counted, not suffered) or a **hang** (a try past the
time limit). **Closure** counts accepted states whose play reached a state the
validator refuses (an accepted state the rules could not reach); they are reported,
and must be played out safely all the same.

``python scripts/fuzz_states.py --tries 20000`` runs the long loop; ``tests/core``
runs a short one. Try ``i`` of run ``--seed s`` is the same forgery on every machine:
``--replay i`` runs it again in this process and prints what it did.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import selectors
import struct
import subprocess
import sys
import tempfile
import time
import traceback
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import numpy as np

from boardsim.agents import load
from boardsim.api import list_games, make_game
from boardsim.core.batch import Batch
from boardsim.core.errors import StateFormatError
from boardsim.core.game import State
from boardsim.files import atomic_write_json
from boardsim.games import definition

DECISION_LIMIT = 3000  # the forged games' max_decisions: every play-out ends
PLAY_CAP = 4000  # and a cap on the steps a try plays (chance outcomes included)
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
BOUNDARY = (0, 1, -1, 2, -2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 22, 24, 28, 29, 36, 40, 41)
BOUNDARY += (43, 44, 48, 49, 55, 56, 63, 64, 100, 255, 413, 1000, INT32_MAX, INT32_MIN, -4, -3)
MAGIC = b"BSIMSTAT"

# A try starts now and then (``KNOWN_LINE_SHARE``) from one of its game's known lines
# (``GameDefinition.known_lines``: positions reached by legal play that random play seldom
# reaches, each one a validator once refused), plays on at random for a few steps, and
# forges that.
KNOWN_LINE_SHARE = 0.1


def configs() -> list[tuple[str, dict[str, Any]]]:
    """Every (game, options) forged: each game's ``sample_options`` (its variants and
    scenarios; the defaults when it declares none), for every game found (plugins too)."""
    out = []
    for name in list_games():
        for options in definition(name).sample_options or ({},):
            out.append((name, dict(options)))
    return out


@cache
def make(name: str, options_json: str) -> Any:
    return make_game(name, max_decisions=DECISION_LIMIT, **json.loads(options_json))


def resave(data: bytes, array: np.ndarray) -> bytes:
    """``data`` (a saved state) with its words replaced by ``array`` and a valid checksum."""
    body = data[len(MAGIC) : -4]
    body = body[: len(body) - 4 * array.size] + array.astype("<i4").tobytes()
    return MAGIC + body + struct.pack("<I", zlib.crc32(body))


def mutated_value(rng: np.random.Generator, old: int, words: np.ndarray) -> int:
    """A boundary value, a neighbour of the old one, another word's value, or a random int32."""
    pick = int(rng.integers(10))
    if pick == 8:
        value = int(words[int(rng.integers(words.size))])
    elif pick == 9:
        value = old + int(rng.choice([-1, 1]))
    elif pick <= 2:
        value = BOUNDARY[int(rng.integers(len(BOUNDARY)))]
    elif pick == 3:
        value = old + int(rng.choice([-2, -1, 1, 2]))
    elif pick == 4:
        value = -old
    elif pick == 5:
        value = old ^ (1 << int(rng.integers(31)))
    elif pick == 6:
        value = int(rng.integers(-3, 65))
    else:
        value = int(rng.integers(INT32_MIN, INT32_MAX, endpoint=True))
    return int(np.clip(value, INT32_MIN, INT32_MAX))


def source_state(game: Any, rng: np.random.Generator) -> Any:
    """A real position: a new game played at random for a random number of steps."""
    state = game.new_initial_state(int(rng.integers(2**31)))
    depth = int(rng.integers(0, 500)) if rng.random() < 0.8 else int(rng.integers(0, 30))
    for _ in range(depth):
        if state.is_terminal():
            break
        random_step(state, rng)
    return state


def known_position(game: Any, seed: int, actions: tuple[int, ...]) -> Any:
    """The position of a known line (``GameDefinition.known_lines``): its game replayed
    from ``seed``."""
    state = game.new_initial_state(seed)
    for action in actions:
        state.apply_action(action)
    return state


def random_step(state: Any, rng: np.random.Generator) -> None:
    """One random legal action (at a chance node, an outcome by its probability)."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        probs = np.array([p for _, p in outcomes])
        state.apply_action(outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0])
    else:
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])


def forge(
    seed: int, index: int
) -> tuple[str, dict[str, Any], Any, bytes, list[tuple[int, int, int]]]:
    """Try ``index`` of run ``seed``: (game, options, the source state, the forged bytes,
    the (word, old, new) changes)."""
    rng = np.random.default_rng([seed, index])
    table = configs()
    names = sorted({n for n, _ in table})
    name = names[int(rng.integers(len(names)))]  # each game as often, then its variants
    rows = [o for n, o in table if n == name]
    options = rows[int(rng.integers(len(rows)))]
    lines = definition(name).known_lines
    if lines and rng.random() < KNOWN_LINE_SHARE:
        options, seed0, actions = lines[int(rng.integers(len(lines)))]
        game = make(name, json.dumps(options, sort_keys=True))
        state = known_position(game, seed0, actions)
        for _ in range(int(rng.integers(0, 4))):
            if state.is_terminal():
                break
            random_step(state, rng)
    else:
        game = make(name, json.dumps(options, sort_keys=True))
        state = source_state(game, rng)
    array = state.array.copy()
    changes = []
    for _ in range(1 + min(int(rng.geometric(0.45)) - 1, 3)):
        word = int(rng.integers(8)) if rng.random() < 0.15 else int(rng.integers(array.size))
        old = int(array[word])
        array[word] = mutated_value(rng, old, array)
        changes.append((word, old, int(array[word])))
    return name, options, state, resave(state.to_bytes(), array), changes


def read_everything(state: Any) -> None:
    """Every Python surface of a position: words, observations, returns, actions' words."""
    game = state.game
    str(state)
    state.returns()
    for p in range(game.num_players):
        obs = state.observation(p)
        if not np.all(np.isfinite(obs)):
            raise AssertionError(f"observation of player {p} is not finite")
    for a in state.legal_actions()[:12]:
        state.action_to_string(a)


@cache
def agents(game: Any) -> tuple[Any, ...]:
    return (load("heuristic", game, seed=0), load("mcts:8", game, seed=0))


def ask_agents(state: Any) -> None:
    """The compiled heuristic and a small MCTS search choose a legal action here."""
    if state.is_terminal() or state.is_chance_node():
        return
    mask = state.legal_actions_mask()
    obs = state.observation(state.current_player())
    for agent in agents(state.game):
        action = agent.act(obs, mask, state=state)
        if not mask[action]:
            raise AssertionError(f"{type(agent).__name__} chose the illegal action {action}")


def adopt_in_batch(game: Any, array: np.ndarray) -> None:
    """A batch adopts the state (when it is one a multi-agent batch runs) and steps it."""
    if game.options.get("explicit_chance"):
        return
    batch = Batch(game, 1, seat=-1, seed=1)
    try:
        batch.adopt_states(array[None, :].copy())
    except StateFormatError:
        return  # a terminal state: a batch row is always a live game
    rng = np.random.default_rng(0)
    for _ in range(3):
        legal = np.flatnonzero(batch.masks[0])
        batch.step(np.array([legal[int(rng.integers(len(legal)))]]))


def play_out(state: Any, rng: np.random.Generator) -> tuple[int, list[str]]:
    """Random play to the end; returns the steps and the validator's refusals on the way."""
    game = state.game
    refusals: list[str] = []
    steps = 0
    while not state.is_terminal() and steps < PLAY_CAP:
        random_step(state, rng)
        steps += 1
        try:
            game.check_array(state.array.copy())
        except StateFormatError as exc:
            refusals.append(str(exc))
        if steps % 50 == 0:
            read_everything(state)
    read_everything(state)
    return steps, refusals


def run_try(seed: int, index: int) -> dict[str, Any]:
    """Forge try ``index`` and answer it: refused, played, or error (with the traceback)."""
    name, options, _, data, changes = forge(seed, index)
    game = make(name, json.dumps(options, sort_keys=True))
    out: dict[str, Any] = {"i": index, "game": name, "changes": changes}
    try:
        loaded = game.state_from_bytes(data)
    except ValueError as exc:
        array = np.frombuffer(data[-4 - 4 * game.state_size : -4], "<i4").astype(np.int32)
        try:
            State(game, array)
        except ValueError:
            return {**out, "result": "refused", "detail": str(exc)}
        return {**out, "result": "error", "detail": f"bytes refused, array accepted: {exc}"}
    except Exception:
        return {**out, "result": "error", "detail": traceback.format_exc(limit=6)}
    try:
        State(game, loaded.array.copy())
        read_everything(loaded)
        ask_agents(loaded)
        adopt_in_batch(game, loaded.array)
        steps, refusals = play_out(loaded, np.random.default_rng([seed, index, 1]))
    except Exception:
        return {**out, "result": "error", "detail": traceback.format_exc(limit=8)}
    out.update(result="played", steps=steps)
    if refusals:
        out.update(closure=refusals[0], closure_count=len(refusals))
    return out


# ---------------------------------------------------------------- the child process
def warm_up() -> None:
    """Load (or compile) every kernel a try can call, in every game, before the clock runs."""
    rng = np.random.default_rng(0)
    for name, options in configs():
        game = make(name, json.dumps(options, sort_keys=True))
        state = game.new_initial_state(0)
        game.state_from_bytes(state.to_bytes())
        for _ in range(3):
            read_everything(state)
            if not state.is_terminal():
                random_step(state, rng)
        ask_agents(state)
        adopt_in_batch(game, state.array)


def worker(seed: int, start: int, stop: int) -> None:
    """Run tries ``start..stop-1``, one JSON line each, ``start i`` before each."""
    warm_up()
    print("ready", flush=True)
    for i in range(start, stop):
        print(f"start {i}", flush=True)
        print(json.dumps(run_try(seed, i)), flush=True)


def _spawn(seed: int, start: int, stop: int, stderr: Any) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "boardsim.fuzz", "--worker", str(seed), str(start), str(stop)]
    # one thread, set before the child imports numba: numba reads the variable again at every
    # compilation and refuses a value other than the one its threads were launched with
    env = {**os.environ, "NUMBA_NUM_THREADS": os.environ.get("NUMBA_NUM_THREADS", "1")}
    return subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=stderr, text=True, bufsize=1, env=env
    )


def _lines(proc: subprocess.Popen[str], timeout: Callable[[], float]) -> Iterator[str | None]:
    """The child's lines; None when it says nothing for ``timeout()`` seconds."""
    assert proc.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    while True:
        if not sel.select(timeout()):
            yield None
            continue
        line = proc.stdout.readline()
        if not line:
            return
        yield line.rstrip("\n")


def _collect(
    proc: subprocess.Popen[str],
    nxt: int,
    timeout: float,
    warmup: float,
    tally: Callable[[dict[str, Any]], None],
) -> tuple[int | None, int, bool]:
    """Read the child's results until it ends or hangs: (the try it was in, if any; the
    next try to run; whether it hung)."""
    current: int | None = None
    ready = [False]
    for line in _lines(proc, lambda: timeout if ready[0] else warmup):
        if line is None:
            return current, nxt, True  # the caller stops the child
        if line == "ready":
            ready[0] = True
        elif line.startswith("start "):
            current = int(line.split()[1])
        else:
            res = json.loads(line)
            current = None
            nxt = res["i"] + 1
            tally(res)
    return current, nxt, False


def fuzz(
    tries: int,
    seed: int = 0,
    timeout: float = 120.0,
    warmup: float = 3600.0,
    report: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Tries ``0..tries-1`` of run ``seed`` in a child process, restarted after a crash or a
    hang; returns the counts and the failures."""
    counts: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    failures: list[dict[str, Any]] = []
    closures: list[dict[str, Any]] = []
    games: Counter[str] = Counter()

    def tally(res: dict[str, Any]) -> None:
        counts[res["result"]] += 1
        counts["tries"] += 1
        games[res["game"]] += 1
        if res["result"] == "refused":
            reasons[_reason(res["detail"])] += 1
        elif res["result"] == "error":
            failures.append(res)
        if "closure" in res:
            counts["closure"] += 1
            closures.append(res)
        if report:
            report(res)

    nxt = 0
    started = time.perf_counter()
    while nxt < tries:
        with tempfile.TemporaryFile("w+") as log:
            proc = _spawn(seed, nxt, tries, log)
            current, nxt, hung = _collect(proc, nxt, timeout, warmup, tally)
            if hung:
                proc.kill()
            proc.wait()
            log.seek(0)
            tail = log.read()[-3000:]
        if current is not None or nxt < tries:
            i = current if current is not None else nxt
            what = "hang" if hung else "crash"
            counts[what] += 1
            counts["tries"] += 1
            failures.append({"i": i, "result": what, "returncode": proc.returncode, "log": tail})
            nxt = i + 1
    return {
        "tries": counts["tries"],
        "refused": counts["refused"],
        "played": counts["played"],
        "errors": counts["error"],
        "crashes": counts["crash"],
        "hangs": counts["hang"],
        "closure": counts["closure"],
        "seconds": round(time.perf_counter() - started, 1),
        "games": dict(games),
        "top_reasons": reasons.most_common(12),
        "failures": failures,
        "closures": closures[:20],
    }


def _reason(message: str) -> str:
    """A refusal's message without its numbers (to count the checks that fire)."""
    text = message.split("refused: ", 1)[-1]
    return re.sub(r"-?\d+", "#", text)[:90]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tries", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds a try may take")
    parser.add_argument("--replay", type=int, default=None, help="run one try here, verbosely")
    parser.add_argument("--json", default=None, help="also write the summary to this file")
    parser.add_argument("--worker", nargs=3, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(*args.worker)
        return 0
    if args.replay is not None:
        name, options, state, _, changes = forge(args.seed, args.replay)
        print(f"try {args.replay}: {name} {options}, decision {state.decisions()}")
        print(f"changes (word, old, new): {changes}")
        print(json.dumps(run_try(args.seed, args.replay), indent=1))
        return 0
    done = [0]

    def progress(res: dict[str, Any]) -> None:
        done[0] += 1
        if done[0] % 500 == 0:
            print(f"  {done[0]} tries", file=sys.stderr, flush=True)

    summary = fuzz(args.tries, args.seed, args.timeout, report=progress)
    summary["command"] = " ".join(["python scripts/fuzz_states.py", *(argv or sys.argv[1:])])
    print(json.dumps({k: v for k, v in summary.items() if k != "closures"}, indent=1))
    if args.json:
        atomic_write_json(args.json, summary)
    bad = summary["errors"] + summary["crashes"] + summary["hangs"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

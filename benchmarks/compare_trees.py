"""Two checkouts compared on a shared machine: CPU nanoseconds per decision, alternated.

    .venv/bin/python benchmarks/compare_trees.py OLD_TREE NEW_TREE [--rounds 3]

Wall-clock figures (``benchmarks/run.py``) swing by 2x and more while other jobs run;
CPU time swings less. Each round runs one fresh process per tree, old then new, with
that tree's ``src`` first on the path and numba on one thread; each process times fixed
workloads through public APIs only (so it works on trees of different layouts): the
compiled random rollout at 64 and 4096 envs, the ``State`` loop, the Gymnasium loop, the
PettingZoo loop (``--play``: whole compiled games too, the heuristic's and MCTS's), each
the best of five windows of ``time.process_time`` (``--game NAME``: that game's
cases alone, repeatable). The table gives
the best of all rounds per tree and the ratio new / old. Warm up both trees' numba
caches first (a run of ``benchmarks/run.py`` in each), or the first round compiles.
``--paired WINDOWS`` keeps one process of each tree alive and alternates the two window
by window (the median of the paired ratios, with its quartiles): the reading to trust
when the machine's speed drifts between processes. ``--warm`` times instead each game's
warm start in each tree (import boardsim and the
first rollout, the numba cache on disk: wall-clock seconds, the best of ``--rounds``
fresh processes, alternated); ``--cold`` the same with an empty numba cache (everything
compiled).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

WORKLOAD = r"""
import json, sys, time
import numpy as np
import boardsim

SERVE = "--serve" in sys.argv
PLAY = "--play" in sys.argv  # also whole compiled games: the heuristic's, and MCTS's

def cpu_ns(fn):
    best = None
    for _ in range(5):
        t = time.process_time()
        n = fn()
        v = (time.process_time() - t) / n
        best = v if best is None else min(best, v)
    return best * 1e9

def rollout(name, opts, envs, steps):
    def run():
        out = boardsim.rollout(name, num_envs=envs, num_steps=steps, seed=1, threads=1, **opts)
        return out["decisions"]
    return run

def state_loop(game):
    def run():
        st = game.new_initial_state(3)
        rng = np.random.default_rng(0)
        for _ in range(4000):
            if st.is_terminal():
                st = game.new_initial_state(int(rng.integers(1 << 30)))
            legal = st.legal_actions()
            st.apply_action(legal[int(rng.integers(len(legal)))])
        return 4000
    return run

def gym_loop(env):
    def run():
        obs, info = env.reset(seed=1)
        rng = np.random.default_rng(0)
        for _ in range(4000):
            legal = np.flatnonzero(info["action_mask"])
            obs, r, te, tr, info = env.step(int(legal[int(rng.integers(len(legal)))]))
            if te or tr:
                obs, info = env.reset()
        return 4000
    return run

def pz_loop(env):
    def run():
        env.reset(seed=2)
        rng = np.random.default_rng(0)
        n = 0
        for _ in env.agent_iter():
            o, r, te, tr, _ = env.last()
            if te or tr:
                env.step(None)
            else:
                legal = np.flatnonzero(o["action_mask"])
                env.step(int(legal[int(rng.integers(len(legal)))]))
            n += 1
            if n >= 4000:
                break
        return n
    return run

def games(play, game, seats, n, **opts):
    def run():
        out = play(game, n, seats, seed=1, threads=1, **opts)
        return int(out["decisions"].sum())
    return run

from boardsim.agents.mcts import play_games as mcts_games
from boardsim.core.batch import play_games

import os

CASES = {}
ONLY = os.environ.get("BOARDSIM_COMPARE_GAMES")  # --game: these games alone
for name in [g for g in boardsim.list_games() if ONLY is None or g in ONLY.split(",")]:
    opts = {"num_players": 2} if name == "liberation" else {}  # as benchmarks/run.py
    rollout(name, opts, 64, 5)()
    game = boardsim.make_game(name, **opts)
    CASES[f"{name} rollout 64"] = rollout(name, opts, 64, 3000)
    CASES[f"{name} rollout 4096"] = rollout(name, opts, 4096, 100)
    CASES[f"{name} State loop"] = state_loop(game)
    CASES[f"{name} Gymnasium"] = gym_loop(boardsim.make_gym_env(name, **opts))
    CASES[f"{name} PettingZoo"] = pz_loop(boardsim.make_env(name, **opts))
    if PLAY:
        others = ["heuristic"] * (game.num_players - 1)
        CASES[f"{name} play_games"] = games(play_games, game, "heuristic", 64)
        CASES[f"{name} MCTS 25"] = games(mcts_games, game, ["mcts"] + others, 2, simulations=25)
    for fn in list(CASES.values())[-(7 if PLAY else 5):]:
        fn()  # every compiled function loaded before the first window

if SERVE:  # one window of the case named on each stdin line, answered on stdout
    print(json.dumps(list(CASES)), flush=True)
    for line in sys.stdin:
        fn = CASES[line.strip()]
        t = time.process_time()
        n = fn()
        print((time.process_time() - t) / n * 1e9, flush=True)
else:
    print(json.dumps({case: cpu_ns(fn) for case, fn in CASES.items()}))
"""


WARM_START = r"""
import time
t = time.perf_counter()
import boardsim
boardsim.rollout({game!r}, 2, 10)
print(time.perf_counter() - t)
"""

GAMES = ("liberation", "hispania", "farrapos")


def _env(tree: Path) -> dict[str, str]:
    """One thread, the tree's sources, and Python's bytecode cache on (as a user has it:
    without it every start compiles the library's modules again)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "NUMBA_NUM_THREADS": "1", "PYTHONPATH": f"{tree / 'src'}:{tree}"}


def warm_start(tree: Path, game: str, cold: bool = False) -> float:
    """One fresh process of ``tree``: seconds to import boardsim and play a first rollout
    (``cold``: with an empty numba cache, so everything it runs is compiled)."""
    code = WARM_START.format(game=game)
    with tempfile.TemporaryDirectory() as cache:
        env = _env(tree) | ({"NUMBA_CACHE_DIR": cache} if cold else {})
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True
        )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: the start failed:\n{done.stderr[-2000:]}")
    return float(done.stdout.strip().splitlines()[-1])


def warm_table(old: Path, new: Path, rounds: int, cold: bool = False) -> None:
    """Print each game's warm (or ``cold``) start in both trees (best of ``rounds``,
    alternated)."""
    kind = "cold" if cold else "warm"
    print(f"| game | old {kind} start (s) | new {kind} start (s) | new / old |\n|---|---|---|---|")
    for game in GAMES:
        runs: dict[Path, list[float]] = {old: [], new: []}
        for _ in range(rounds):
            for tree in (old, new):
                runs[tree].append(warm_start(tree, game, cold))
        a, b = min(runs[old]), min(runs[new])
        print(f"| {game} | {a:.2f} | {b:.2f} | {b / a:.3f} |", flush=True)


def measure(tree: Path, play: bool = False) -> dict[str, float]:
    """One fresh process of ``tree``: CPU ns per decision of every workload."""
    done = subprocess.run(
        [sys.executable, "-c", WORKLOAD, *(["--play"] if play else [])],
        cwd=tree,
        env=_env(tree),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: the workload failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


class Server:
    """A process of one tree that has loaded every workload and runs one window of a
    case on request (``--paired``)."""

    def __init__(self, tree: Path, play: bool = False) -> None:
        self.tree = tree
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKLOAD, "--serve", *(["--play"] if play else [])],
            cwd=tree,
            env=_env(tree),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.cases: list[str] = json.loads(self._line())

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"{self.tree}: the workload server stopped")
        return line

    def window(self, case: str) -> float:
        """CPU ns per decision of one window of ``case``."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(case + "\n")
        self.proc.stdin.flush()
        return float(self._line())

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def paired_table(old: Path, new: Path, windows: int, play: bool = False) -> None:
    """Both trees loaded at once, in two processes; each case's windows alternate between
    them (old, new, then new, old, ...), so a slow spell of the machine falls on both.
    The ratio is the median of the paired windows' new / old; the quartiles say how far
    one pair can be trusted."""
    servers = {"old": Server(old, play), "new": Server(new, play)}
    try:
        print(
            "| case | old ns/decision (best) | new ns/decision (best) "
            "| new / old (median of pairs) | quartiles |\n|---|---|---|---|---|"
        )
        for case in servers["new"].cases:
            if case not in servers["old"].cases:
                continue
            runs: dict[str, list[float]] = {"old": [], "new": []}
            for k in range(windows):
                for side in ("old", "new") if k % 2 == 0 else ("new", "old"):
                    runs[side].append(servers[side].window(case))
            ratios = sorted(n / o for n, o in zip(runs["new"], runs["old"], strict=True))
            q1, med, q3 = (ratios[int(q * (len(ratios) - 1))] for q in (0.25, 0.5, 0.75))
            print(
                f"| {case} | {min(runs['old']):,.0f} | {min(runs['new']):,.0f} "
                f"| {med:.3f} | {q1:.3f}-{q3:.3f} |",
                flush=True,
            )
    finally:
        for server in servers.values():
            server.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warm", action="store_true", help="time the warm starts instead")
    parser.add_argument(
        "--cold", action="store_true", help="time the cold starts (empty numba cache) instead"
    )
    parser.add_argument(
        "--paired",
        type=int,
        metavar="WINDOWS",
        help="both trees loaded at once, WINDOWS windows a case alternated between them",
    )
    parser.add_argument(
        "--play",
        action="store_true",
        help="also whole compiled games: 64 of the heuristic in every seat (play_games) and "
        "2 of MCTS at 25 simulations against it (CPU ns a decision of the game)",
    )
    parser.add_argument(
        "--game",
        action="append",
        metavar="NAME",
        help="time only this game's cases (repeatable; default every game)",
    )
    args = parser.parse_args(argv)
    if args.game:  # the workload processes inherit it
        os.environ["BOARDSIM_COMPARE_GAMES"] = ",".join(args.game)
    if args.paired:
        paired_table(args.old.resolve(), args.new.resolve(), args.paired, args.play)
        return 0
    if args.warm or args.cold:
        warm_table(args.old.resolve(), args.new.resolve(), args.rounds, cold=args.cold)
        return 0
    runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for _ in range(args.rounds):
        runs["old"].append(measure(args.old.resolve(), args.play))
        runs["new"].append(measure(args.new.resolve(), args.play))
    print("| case | old ns/decision | new ns/decision | new / old |\n|---|---|---|---|")
    for case in runs["new"][0]:
        if not all(case in r for r in runs["old"]):
            continue
        old = min(r[case] for r in runs["old"])
        new = min(r[case] for r in runs["new"])
        print(f"| {case} | {old:,.0f} | {new:,.0f} | {new / old:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

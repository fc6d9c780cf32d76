"""Two checkouts compared on a shared machine: CPU nanoseconds per decision, alternated.

    .venv/bin/python benchmarks/compare_trees.py OLD_TREE NEW_TREE [--rounds 3]

Wall-clock figures (``benchmarks/run.py``) swing by 2x and more while other jobs run;
CPU time swings less. Each round runs one fresh process per tree, old then new, with
that tree's ``src`` first on the path and numba on one thread; each process times fixed
workloads through public APIs only (so it works on trees of different layouts): the
compiled random rollout at 64 and 4096 envs, the ``State`` loop, the Gymnasium loop, the
PettingZoo loop, each the best of five windows of ``time.process_time``. The table gives
the best of all rounds per tree and the ratio new / old. Warm up both trees' numba
caches first (a run of ``benchmarks/run.py`` in each), or the first round compiles.
``--warm`` times instead each game's warm start in each tree (import boardsim and the
first rollout, the numba cache on disk: wall-clock seconds, the best of ``--rounds``
fresh processes, alternated).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

WORKLOAD = r"""
import json, time
import numpy as np
import boardsim

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

out = {}
for name in boardsim.list_games():
    opts = {"num_players": 2} if name == "liberation" else {}  # as benchmarks/run.py
    rollout(name, opts, 64, 5)()
    game = boardsim.make_game(name, **opts)
    out[f"{name} rollout 64"] = cpu_ns(rollout(name, opts, 64, 3000))
    out[f"{name} rollout 4096"] = cpu_ns(rollout(name, opts, 4096, 100))
    out[f"{name} State loop"] = cpu_ns(state_loop(game))
    out[f"{name} Gymnasium"] = cpu_ns(gym_loop(boardsim.make_gym_env(name, **opts)))
    out[f"{name} PettingZoo"] = cpu_ns(pz_loop(boardsim.make_env(name, **opts)))
print(json.dumps(out))
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


def warm_start(tree: Path, game: str) -> float:
    """One fresh process of ``tree``: seconds to import boardsim and play a first rollout."""
    code = WARM_START.format(game=game)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tree, env=_env(tree), capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: the warm start failed:\n{done.stderr[-2000:]}")
    return float(done.stdout.strip().splitlines()[-1])


def warm_table(old: Path, new: Path, rounds: int) -> None:
    """Print each game's warm start in both trees (best of ``rounds``, alternated)."""
    print("| game | old warm start (s) | new warm start (s) |\n|---|---|---|")
    for game in GAMES:
        runs: dict[Path, list[float]] = {old: [], new: []}
        for _ in range(rounds):
            for tree in (old, new):
                runs[tree].append(warm_start(tree, game))
        print(f"| {game} | {min(runs[old]):.2f} | {min(runs[new]):.2f} |")


def measure(tree: Path) -> dict[str, float]:
    """One fresh process of ``tree``: CPU ns per decision of every workload."""
    done = subprocess.run(
        [sys.executable, "-c", WORKLOAD], cwd=tree, env=_env(tree), capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: the workload failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warm", action="store_true", help="time the warm starts instead")
    args = parser.parse_args(argv)
    if args.warm:
        warm_table(args.old.resolve(), args.new.resolve(), args.rounds)
        return 0
    runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for _ in range(args.rounds):
        runs["old"].append(measure(args.old.resolve()))
        runs["new"].append(measure(args.new.resolve()))
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

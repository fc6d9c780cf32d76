"""EnvPool's board games, stepped by the vector-env harness (``benchmarks/vector.py``).

Runs inside the Python 3.12 side environment that ``benchmarks/side_env.sh`` builds (EnvPool
1.2.7 needs Python 3.12 or newer; the project runs on 3.11), and prints one JSON object:

    benchmarks/.side-py312/bin/python benchmarks/envpool_peers.py --seconds 3

For each game and thread count: steps a second from Python (a step is one decision of the
player to move, a random legal action per env chosen in numpy by
``boardsim/sampling.py``, loaded by its path: the same sampler as the library's harness),
games a second, and
the share of the time spent in EnvPool's ``step`` (the rest is the sampler and the loop).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

SAMPLING = Path(__file__).resolve().parents[1] / "src" / "boardsim" / "sampling.py"


def legal_sampler() -> Any:
    """``boardsim.sampling.LegalSampler``, loaded from its file (no boardsim here)."""
    spec = importlib.util.spec_from_file_location("boardsim_sampling", SAMPLING)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.LegalSampler


GAMES = ("ConnectFour-v1", "Backgammon-v1")


def measure(task: str, num_envs: int, threads: int, seconds: float) -> dict[str, float]:
    """Steps and games a second of ``task`` on ``num_envs`` envs and ``threads`` threads."""
    import envpool

    env = envpool.make(task, env_type="gymnasium", num_envs=num_envs, num_threads=threads, seed=0)
    _, info = env.reset()
    keys = legal_sampler()(num_envs, int(env.action_space.n), seed=0)
    steps = games = 0
    in_step = 0.0
    start = time.perf_counter()
    while True:
        actions = keys.sample(info["legal_action_mask"])
        t0 = time.perf_counter()
        _, _, terminated, truncated, info = env.step(actions)
        in_step += time.perf_counter() - t0
        steps += num_envs
        games += int(np.count_nonzero(terminated | truncated))
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {
        "steps_per_second": steps / elapsed,
        "games_per_second": games / elapsed,
        "step_share": in_step / elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--num-envs", type=int, default=4096)
    args = parser.parse_args()
    import envpool

    out: dict[str, object] = {"envpool": envpool.__version__, "python": sys.version.split()[0]}
    for task in GAMES:
        for threads in (1, 2):
            try:
                out[f"{task} t{threads}"] = measure(task, args.num_envs, threads, args.seconds)
            except Exception as exc:  # one game missing must not hide the other
                out[f"{task} t{threads}"] = f"failed: {type(exc).__name__}: {exc}"
    print(json.dumps(out))


if __name__ == "__main__":
    main()

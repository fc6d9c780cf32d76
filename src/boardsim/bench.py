"""Throughput of every layer, per game, with ratios (``boardsim bench``).

Cases: the compiled random rollout (batch 1, 64, 4096 on 1 and 2 threads), the
Python ``State`` loop over the compiled core, the PettingZoo AEC loop, the
Gymnasium loop, and the plain-Python reference. Each runs for a fixed time after a
warm-up, in several windows of which the best counts (these machines are shared:
the slower windows measure the neighbours); a "decision" is one action of a player
(chance resolved inside). Timing belongs here, never in the unit tests.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from boardsim.api import list_games, make_env, make_game, make_gym_env, rollout
from boardsim.core.game import Game
from boardsim.core.reference import ReferenceEngine
from boardsim.files import atomic_write_json
from boardsim.sampling import LegalSampler
from boardsim.wrappers.vector import BoardsimVectorEnv


def uniform_legal(mask: np.ndarray, rng: random.Random) -> int:
    """A uniformly random legal action of ``mask``: the one sampler of every Python loop
    here and of the peers' loops (``benchmarks/peers.py``), so that the loops compare
    the environments, not the samplers (``Generator.choice`` alone costs ~10 us)."""
    legal = mask.nonzero()[0]
    return int(legal[int(rng.random() * len(legal))])


def _timed(fn: Callable[[], int], seconds: float, windows: int = 3) -> float:
    """Call ``fn`` (returns decisions made) for ``seconds`` in all, in ``windows`` timed
    windows; the best window's decisions per second (the others met the neighbours)."""
    fn()
    best = 0.0
    for _ in range(windows):
        done = 0
        start = time.perf_counter()
        while True:
            done += fn()
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / windows:
                break
        best = max(best, done / elapsed)
    return best


def bench_state_loop(game_name: str, seconds: float) -> float:
    game = make_game(game_name)
    rng = random.Random(0)
    seed = [0]

    def one_game() -> int:
        st = game.new_initial_state(seed[0])
        seed[0] += 1
        n = 0
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
            n += 1
        return n

    return _timed(one_game, seconds)


def bench_pettingzoo(game_name: str, seconds: float) -> float:
    env = make_env(game_name)
    rng = random.Random(0)
    seed = [0]

    def one_game() -> int:
        env.reset(seed=seed[0])
        seed[0] += 1
        n = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(uniform_legal(obs["action_mask"], rng))
            n += 1
        return n

    return _timed(one_game, seconds)


def bench_gymnasium(game_name: str, seconds: float) -> float:
    """Decisions of every seat per second (the learner's and the random opponents')."""
    env = make_gym_env(game_name)
    rng = random.Random(0)
    seed = [0]

    def one_game() -> int:
        _, info = env.reset(seed=seed[0])
        seed[0] += 1
        done = False
        while not done:
            _, _, term, trunc, info = env.step(uniform_legal(info["action_mask"], rng))
            done = term or trunc
        return env.unwrapped.state_.decisions()

    return _timed(one_game, seconds)


def bench_reference(game_name: str, seconds: float) -> float | None:
    """Decisions a second of the game's plain-Python twin (the one its definition
    declares, ``GameDefinition.reference``) in random play; None if it has none."""
    game = make_game(game_name)
    module = game.definition.load_reference()
    if module is None:
        return None
    engine = ReferenceEngine(module, game.state_size, game.params)
    rng = random.Random(0)
    seed = [0]

    def one_game() -> int:
        st = engine.new_game(seed[0])
        seed[0] += 1
        n = 0
        while not engine.is_terminal(st):
            engine.step(st, rng.choice(engine.legal_actions(st)))
            n += 1
        return n

    return _timed(one_game, seconds)


class _Timed:
    """Stands in for ``owner.name`` (a method) and adds up the time of its calls."""

    def __init__(self, owner: Any, name: str) -> None:
        self.owner, self.name = owner, name
        self.inner = getattr(owner, name)
        self.seconds = 0.0
        setattr(owner, name, self)

    def __call__(self, *args: Any) -> Any:
        t0 = time.perf_counter()
        result = self.inner(*args)
        self.seconds += time.perf_counter() - t0
        return result

    def remove(self) -> None:
        delattr(self.owner, self.name)  # the class's own method again


def bench_vector(
    game: str | Game,
    num_envs: int = 4096,
    threads: int | None = None,
    seconds: float = 1.0,
    sb3: bool = False,
    windows: int = 3,
    **env_options: Any,
) -> dict[str, float]:
    """The vector env stepped from Python as a trainer steps it: each step a random legal
    action per env chosen in numpy from ``action_masks()`` (:class:`LegalSampler`), then
    ``step`` (``sb3``: the SB3 ``VecEnv`` of ``to_sb3()``, ``step_async``/``step_wait``).

    Returns the best window's learner ``steps_per_second`` (a learner step carries the
    other seats' decisions and the observation) and ``games_per_second``, and where its
    time went: ``compiled_share`` (the batch's compiled step), ``sampler_share`` (the
    harness's sampling) and ``wrapper_share`` (the env's own Python work, the rest); with
    ``sb3``, also ``infos_share``, the part of the wrapper's spent on SB3's episode
    contract (the finished envs' returns and lengths, each one's ``info`` and ``episode``
    dicts), timed in place."""
    g = make_game(game) if isinstance(game, str) else game
    venv = BoardsimVectorEnv(g, num_envs, threads=threads, seed=0, **env_options)
    sampler = LegalSampler(num_envs, g.num_actions, seed=0)
    if sb3:
        env = venv.to_sb3()
        env.reset()
        masks = env.action_masks

        def step(actions: np.ndarray) -> np.ndarray:
            env.step_async(actions)
            return env.step_wait()[2]

    else:
        venv.reset(seed=0)
        masks = venv.action_masks

        def step(actions: np.ndarray) -> np.ndarray:
            _, _, terminated, truncated, _ = venv.step(actions)
            return terminated | truncated

    for _ in range(3):  # warm: the compiled calls, the caches
        step(sampler.sample(masks()))
    best: dict[str, float] = {}
    for _ in range(windows):
        timed = _Timed(venv.batch, "step")
        infos = _Timed(env, "_report_episodes") if sb3 else None
        sampling = 0.0
        steps = games = 0
        start = time.perf_counter()
        while True:
            t0 = time.perf_counter()
            actions = sampler.sample(masks())
            sampling += time.perf_counter() - t0
            games += int(np.count_nonzero(step(actions)))
            steps += num_envs
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / windows:
                break
        timed.remove()
        if infos is not None:
            infos.remove()
        if steps / elapsed > best.get("steps_per_second", 0.0):
            best = {
                "steps_per_second": steps / elapsed,
                "games_per_second": games / elapsed,
                "compiled_share": timed.seconds / elapsed,
                "sampler_share": sampling / elapsed,
                "wrapper_share": (elapsed - timed.seconds - sampling) / elapsed,
            }
            if infos is not None:
                best["infos_share"] = infos.seconds / elapsed
    return best


def bench_rollout(
    game_name: str, num_envs: int, threads: int, seconds: float, windows: int = 5
) -> dict[str, float]:
    """The compiled random rollout, timed in ``windows`` calls of about ``seconds / windows``
    each: the best window's rate (``decisions_per_second``, what the targets use: on a
    shared machine the slow windows measure the neighbours) and the median window's."""
    rollout(game_name, num_envs, 1, threads=threads)  # compile/warm
    probe = rollout(game_name, num_envs, max(1, 20_000 // num_envs), threads=threads)
    rate = float(probe["decisions"]) / max(float(probe["seconds"]), 1e-9)
    steps = max(1, int(rate * seconds / windows / num_envs))
    rates, total_d, total_g = [], 0, 0
    for w in range(windows):
        r = rollout(game_name, num_envs, steps, seed=w + 1, threads=threads)
        total_d += int(r["decisions"])
        total_g += int(r["games"])
        rates.append(float(r["decisions"]) / float(r["seconds"]))
    return {
        "decisions_per_second": max(rates),
        "median_decisions_per_second": float(np.median(rates)),
        "decisions": total_d,
        "games_finished": total_g,
    }


def add_game_lengths(res: dict[str, Any]) -> None:
    """Mean game length and games/s of every rollout case, from the case that finished
    the most games (short calls over many envs end few games: decisions over finished
    games would count the unfinished ones' decisions too)."""
    cases = [v for k, v in res.items() if k.startswith("rollout")]
    most = max(cases, key=lambda v: v["games_finished"])
    length = most["decisions"] / max(most["games_finished"], 1)
    for case in cases:
        case["mean_game_length"] = length
        case["games_per_second"] = case["decisions_per_second"] / length


def run(games: list[str], seconds: float) -> dict[str, Any]:
    max_threads = min(2, numba.config.NUMBA_NUM_THREADS)
    out: dict[str, Any] = {
        "machine": {"cpus": os.cpu_count(), "numba_threads": max_threads},
        "seconds_per_case": seconds,
        "games": {},
    }
    for name in games:
        res: dict[str, Any] = {}
        for n in (1, 64, 4096):
            for t in sorted({1, max_threads}):
                res[f"rollout_n{n}_t{t}"] = bench_rollout(name, n, t, seconds)
        add_game_lengths(res)
        res["state_loop"] = bench_state_loop(name, seconds)
        res["pettingzoo_aec"] = bench_pettingzoo(name, seconds)
        res["gymnasium"] = bench_gymnasium(name, seconds)
        reference = bench_reference(name, seconds)
        best = res[f"rollout_n4096_t{max_threads}"]["decisions_per_second"]
        res["ratios"] = {
            "rollout_4096_vs_pettingzoo": best / res["pettingzoo_aec"],
            "threads_2_vs_1": best / res["rollout_n4096_t1"]["decisions_per_second"],
        }
        if reference is not None:  # a game without a plain-Python twin has no such ratios
            res["reference"] = reference
            res["ratios"]["rollout_4096_vs_reference"] = best / reference
            res["ratios"]["state_loop_vs_reference"] = res["state_loop"] / reference
        out["games"][name] = res
    return out


def print_table(result: dict[str, Any]) -> None:
    for name, res in result["games"].items():
        print(f"\n{name}")
        print(f"  {'case':<28} {'decisions/s':>14} {'games/s':>10} {'mean length':>12}")
        for key, val in res.items():
            if key.startswith("rollout"):
                print(
                    f"  {key:<28} {val['decisions_per_second']:>14,.0f} "
                    f"{val['games_per_second']:>10,.1f} {val['mean_game_length']:>12,.1f}"
                )
        for key in ("state_loop", "pettingzoo_aec", "gymnasium", "reference"):
            if key not in res:
                continue
            print(f"  {key:<28} {res[key]:>14,.0f}")
        for key, val in res["ratios"].items():
            print(f"  ratio {key:<22} {val:>14,.1f}x")


def write_json_atomic(result: dict[str, Any], path: str) -> None:
    """Write ``result`` to ``path`` whole or not at all (:mod:`boardsim.files`)."""
    atomic_write_json(path, result)


def main(args: argparse.Namespace) -> int:
    games = args.games_list or list_games()
    result = run(games, args.seconds)
    print_table(result)
    if args.json:
        write_json_atomic(result, args.json)
        print(f"\nwrote {args.json}")
    return 0

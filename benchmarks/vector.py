"""The vector env stepped from Python, against the compiled rollout under it and EnvPool.

    .venv/bin/python benchmarks/vector.py [--seconds 3] [--num-envs 4096] [--game farrapos]
        [--no-peers] [--src OTHER_TREE/src]

One harness for every case (issue 33): ``num_envs`` envs, each step a random legal action
per env chosen in numpy from ``action_masks()`` (``boardsim.sampling.LegalSampler``, the
same sampler EnvPool's side runs with), then ``step`` (``boardsim.bench.bench_vector``).
Per game, on 1 and 2 threads:

- the vector env's learner steps a second from Python (a learner step carries the
  opponents' decisions and the observation), games a second, and its ratio to the compiled
  random rollout's decisions a second on the same threads, measured in the same run;
- where the time of a step goes: the compiled call (``Batch.step``'s engine call), the
  wrapper's own Python work around it, and the harness's sampler;
- the SB3 ``VecEnv`` (``to_sb3()``) on the same harness, and, on connect four, the uint8
  observations;
- EnvPool 1.2.7's ``ConnectFour-v1`` and ``Backgammon-v1`` in the Python 3.12 side
  environment that ``benchmarks/side_env.sh`` builds ("not installed" where it cannot).

``--src`` measures another tree's library (``/work/old/src``) with this harness, for the
before/after of a change. Writes ``benchmarks/results/vector-latest.json`` (temporary file,
then rename). Timing lives here, never in the unit tests.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
SIDE_PYTHON = HERE / ".side-py312" / "bin" / "python"


def _early_src() -> None:
    """``--src TREE/src`` goes first on the path, before boardsim is imported, and that
    tree's ``benchmarks`` (its connect-four plugin) with it."""
    if "--src" in sys.argv:
        src = Path(sys.argv[sys.argv.index("--src") + 1]).resolve()
        sys.path[:0] = [str(src), str(src.parent)]
    for path in (str(ROOT), str(HERE)):
        if path not in sys.path:
            sys.path.append(path)


_early_src()

import numpy as np  # noqa: E402

import boardsim  # noqa: E402
from boardsim.core.batch import random_rollout, threads_used  # noqa: E402

GAMES: dict[str, dict[str, Any]] = {
    "farrapos": {},
    "liberation": {"num_players": 2},
    "hispania": {},
    "connect_four": {},
}

# issue 33's targets: (what, the measured key path, bound)
TARGETS = (
    ("vector env / compiled rollout, 2 threads, at least 3x the issue's", "ratio_t2", 3.0),
    ("2 threads / 1 thread, at least", "threads_2_vs_1", 1.7),
    ("the env's own time (no sampler), 2 threads / 1 thread, at least", "env_threads_2_vs_1", 1.7),
    ("wrapper's own Python share of a step, at most", "wrapper_share_t2", 0.20),
    ("SB3 VecEnv / vector env, at least", "sb3_over_vector_t2", 0.90),
)
# the ratio of the vector env to the compiled rollout on 2 threads when the issue was
# filed (its table: 428k / 5.56M, 510k / 11.9M, 2.56M / 44.6M)
ISSUE_RATIOS = {"farrapos": 0.077, "liberation": 0.043, "connect_four": 0.057}


def make_game(name: str) -> Any:
    if name == "connect_four":
        from benchmarks.calibration import connect_four

        return connect_four()
    return boardsim.make_game(name, **GAMES[name])


def rollout_rate(game: Any, num_envs: int, threads: int, seconds: float) -> float:
    """Decisions a second of the compiled random rollout (best of three windows)."""
    steps = 64
    while True:  # size the windows to about seconds / 3
        r = random_rollout(game, num_envs, steps, seed=1, threads=threads)
        if r["seconds"] >= seconds / 6 or steps > 1 << 20:
            break
        steps *= 2
    best = r["decisions_per_second"]
    for k in range(2):
        r = random_rollout(game, num_envs, steps, seed=2 + k, threads=threads)
        best = max(best, r["decisions_per_second"])
    return best


def vector_rate(
    game: Any, num_envs: int, threads: int, seconds: float, sb3: bool = False, **kw: Any
) -> dict[str, float]:
    """The harness (``boardsim.bench.bench_vector``; defined here for a tree without it)."""
    try:
        from boardsim.bench import bench_vector
    except ImportError:  # an older tree (--src): the harness as it was first written
        return _vector_rate_here(game, num_envs, threads, seconds, sb3)
    return bench_vector(game, num_envs, threads, seconds, sb3=sb3, **kw)


def _vector_rate_here(
    game: Any, num_envs: int, threads: int, seconds: float, sb3: bool
) -> dict[str, float]:
    """``bench_vector``'s harness for a tree that has none (the sampler, loaded by path)."""
    import importlib.util

    from boardsim.wrappers.vector import BoardsimVectorEnv

    spec = importlib.util.spec_from_file_location(
        "boardsim_sampling", ROOT / "src" / "boardsim" / "sampling.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sampler = module.LegalSampler(num_envs, game.num_actions, seed=0)
    venv = BoardsimVectorEnv(game, num_envs, threads=threads, seed=0)
    env = venv.to_sb3() if sb3 else venv
    if sb3:
        env.reset()
    else:
        venv.reset(seed=0)
    inner = venv.batch.step
    spent = [0.0]

    def timed(actions: np.ndarray) -> None:
        t0 = time.perf_counter()
        inner(actions)
        spent[0] += time.perf_counter() - t0

    venv.batch.step = timed
    best: dict[str, float] = {}
    for _ in range(3):
        spent[0] = 0.0
        sampling = 0.0
        steps = games = 0
        start = time.perf_counter()
        while True:
            t0 = time.perf_counter()
            actions = sampler.sample(env.action_masks())
            sampling += time.perf_counter() - t0
            if sb3:
                env.step_async(actions)
                done = env.step_wait()[2]
            else:
                _, _, term, trunc, _ = venv.step(actions)
                done = term | trunc
            games += int(np.count_nonzero(done))
            steps += num_envs
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / 3:
                break
        if steps / elapsed > best.get("steps_per_second", 0.0):
            best = {
                "steps_per_second": steps / elapsed,
                "games_per_second": games / elapsed,
                "compiled_share": spent[0] / elapsed,
                "sampler_share": sampling / elapsed,
                "wrapper_share": (elapsed - spent[0] - sampling) / elapsed,
            }
    return best


def measure_game(name: str, num_envs: int, seconds: float) -> dict[str, Any]:
    game = make_game(name)
    out: dict[str, Any] = {}
    for threads in (1, 2):
        with threads_used(threads):
            out[f"rollout_t{threads}"] = rollout_rate(game, num_envs, threads, seconds)
        out[f"vector_t{threads}"] = vector_rate(game, num_envs, threads, seconds)
    out["sb3_t2"] = vector_rate(game, num_envs, 2, seconds, sb3=True)
    if getattr(game.definition, "binary_observation", False):
        out["vector_uint8_t2"] = vector_rate(game, num_envs, 2, seconds, obs_dtype="uint8")
    v1, v2 = out["vector_t1"], out["vector_t2"]
    out["ratio_t1"] = v1["steps_per_second"] / out["rollout_t1"]
    out["ratio_t2"] = v2["steps_per_second"] / out["rollout_t2"]
    out["threads_2_vs_1"] = v2["steps_per_second"] / v1["steps_per_second"]
    out["env_threads_2_vs_1"] = env_seconds_a_step(v1) / env_seconds_a_step(v2)
    # the wrapper's own share of a step: of the env's time (the sampler is the harness's)
    env_time = v2["compiled_share"] + v2["wrapper_share"]
    out["wrapper_share_t2"] = v2["wrapper_share"] / env_time
    out["sb3_over_vector_t2"] = out["sb3_t2"]["steps_per_second"] / v2["steps_per_second"]
    out.update(sb3_cost_of_finished_games(v2, out["sb3_t2"], num_envs))
    if name in ISSUE_RATIOS:
        out["ratio_t2_over_issue"] = out["ratio_t2"] / ISSUE_RATIOS[name]
    return out


def env_seconds_a_step(vector: dict[str, float]) -> float:
    """The env's own time a step (per env: the compiled step and the wrapper's Python),
    without the harness's sampler, which is numpy on one thread whatever the env's."""
    env_share = vector["compiled_share"] + vector["wrapper_share"]
    return env_share / vector["steps_per_second"]


def sb3_cost_of_finished_games(
    vector: dict[str, float], sb3: dict[str, float], num_envs: int
) -> dict[str, float]:
    """What the SB3 ``VecEnv`` adds to a vector-env step, and per game that ended in it:
    SB3's contract is an ``info`` dict for each finished env (its ``terminal_observation``,
    ``TimeLimit.truncated`` and the ``episode`` dict SB3's logger keeps), so its extra
    time grows with the games that end a step."""
    step_us = 1e6 * num_envs / vector["steps_per_second"]
    sb3_step_us = 1e6 * num_envs / sb3["steps_per_second"]
    finished = num_envs * sb3["games_per_second"] / sb3["steps_per_second"]
    extra = sb3_step_us - step_us
    in_place = sb3.get("infos_share")
    return {
        "sb3_infos_us_a_step": math.nan if in_place is None else in_place * sb3_step_us,
        "sb3_finished_a_step": finished,
        "sb3_extra_us_a_step": extra,
        "sb3_extra_us_a_finished_game": extra / finished if finished else float("nan"),
        "sb3_episode_dicts_us_a_step": episode_dicts_us(round(finished), num_envs=num_envs),
        "sb3_allowed_us_a_step": step_us / 9,
    }


def episode_dicts_us(finished: int, repeats: int = 2000, num_envs: int = 4096) -> float:
    """Microseconds a step to build the ``infos`` SB3's contract asks for when ``finished``
    of ``num_envs`` games ended: a list of ``num_envs``, one shared empty dict for the
    envs that go on and, per finished env, its own ``info`` (``terminal_observation``, a
    view of its row; ``TimeLimit.truncated``) holding its own ``episode`` dict (``{"r",
    "l", "t"}``), and free the last step's: the least an SB3 ``VecEnv`` pays for them in
    Python, since SB3's logger keeps each ``episode`` (``ep_info_buffer``) and so none can
    be reused."""
    rows = list(range(0, num_envs, max(1, num_envs // max(finished, 1))))[:finished]
    finals = list(np.zeros((num_envs, 8), np.float32))
    returns, lengths, cut = [0.5] * len(rows), [7] * len(rows), [False] * len(rows)
    shared: dict[str, Any] = {}
    infos: list[dict[str, Any]] = []
    start = time.perf_counter()
    for _ in range(repeats):
        infos = [shared] * num_envs
        for i, r, n, t in zip(rows, returns, lengths, cut, strict=True):
            infos[i] = {
                "terminal_observation": finals[i],
                "TimeLimit.truncated": t,
                "episode": {"r": r, "l": n, "t": 1.5},
            }
    del infos
    return 1e6 * (time.perf_counter() - start) / repeats


def build_side_env() -> str | None:
    """The Python 3.12 side environment with EnvPool; None when ready, else why not."""
    if SIDE_PYTHON.exists():
        return None
    script = HERE / "side_env.sh"
    done = subprocess.run(["bash", str(script)], capture_output=True, text=True)
    if done.returncode != 0 or not SIDE_PYTHON.exists():
        return (done.stderr or done.stdout).strip().splitlines()[-1:] or ["side_env.sh failed"]
    return None


def envpool(seconds: float, num_envs: int) -> dict[str, Any]:
    why = build_side_env()
    if why is not None:
        return {"not installed": why}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL"))}
    done = subprocess.run(
        [
            str(SIDE_PYTHON),
            str(HERE / "envpool_peers.py"),
            *("--seconds", str(seconds), "--num-envs", str(num_envs)),
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    if done.returncode != 0:
        return {"not installed": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout)


def _beyond_contract(g: dict[str, Any]) -> str:
    """Said when SB3's own contract costs more than 0.9 of the vector env's speed allows:
    a ``VecEnv`` that builds them in Python cannot then reach 0.9 at this many finished
    games."""
    if g["sb3_episode_dicts_us_a_step"] > g["sb3_allowed_us_a_step"]:
        return ": SB3's own dicts alone take more, at this many finished games"
    return ""


def _in_place(g: dict[str, Any]) -> str:
    """The wrapper's episode bookkeeping and infos as timed inside the SB3 step (after the
    compiled step has been through the caches, dearer than the floor measured alone)."""
    us = g.get("sb3_infos_us_a_step", math.nan)
    if math.isnan(us):  # not measured (an older harness)
        return ""
    return f"; timed in place, the finished envs' returns, lengths and dicts took {us:.0f} us"


def _times(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}x"


def report(result: dict[str, Any]) -> str:
    lines = [
        f"vector env from Python, {result['num_envs']} envs; steps/s and ratio to the "
        "compiled rollout (decisions/s) in the same run",
        "| game | rollout t1 | vector t1 | ratio | rollout t2 | vector t2 | ratio | x issue "
        "| t2/t1 | compiled / wrapper / sampler share (t2) | SB3 t2 | uint8 t2 |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, g in result["games"].items():
        v1, v2 = g["vector_t1"], g["vector_t2"]
        uint8 = g.get("vector_uint8_t2", {}).get("steps_per_second")
        lines.append(
            f"| {name} | {g['rollout_t1'] / 1e6:.2f}M | {v1['steps_per_second'] / 1e6:.2f}M "
            f"| {g['ratio_t1']:.3f} | {g['rollout_t2'] / 1e6:.2f}M "
            f"| {v2['steps_per_second'] / 1e6:.2f}M | {g['ratio_t2']:.3f} "
            f"| {_times(g.get('ratio_t2_over_issue'))} "
            f"| {g['threads_2_vs_1']:.2f} "
            f"| {v2['compiled_share']:.2f} / {v2['wrapper_share']:.2f} / "
            f"{v2['sampler_share']:.2f} "
            f"| {g['sb3_t2']['steps_per_second'] / 1e6:.2f}M "
            f"| {'-' if uint8 is None else f'{uint8 / 1e6:.2f}M'} |"
        )
    lines.append("")
    for name, g in result["games"].items():
        if "sb3_finished_a_step" in g:
            lines.append(
                f"SB3 VecEnv, {name}: {g['sb3_finished_a_step']:.0f} games end a step; "
                f"it adds {g['sb3_extra_us_a_step']:.0f} us to the vector env's step, "
                f"{g['sb3_extra_us_a_finished_game']:.2f} us a finished game; "
                f"the infos SB3's contract asks for (a list of every env, a dict and an "
                f"episode dict a finished game) alone take "
                f"{g['sb3_episode_dicts_us_a_step']:.0f} us in Python "
                f"(0.9 of the vector env's speed allows {g['sb3_allowed_us_a_step']:.0f} us"
                f"{_beyond_contract(g)}){_in_place(g)}"
            )
    peers = result.get("envpool")
    if peers:
        lines.append(f"EnvPool (side Python): {json.dumps(peers)[:2000]}")
        c4 = result["games"].get("connect_four")
        for threads in (1, 2):
            ep = peers.get(f"ConnectFour-v1 t{threads}")
            if c4 and isinstance(ep, dict):
                ours = c4[f"vector_t{threads}"]
                lines.append(
                    f"connect four, {threads} thread(s): ours / EnvPool = "
                    f"{ours['steps_per_second'] / ep['steps_per_second']:.1f}x steps, "
                    f"{ours['games_per_second'] / max(ep['games_per_second'], 1e-9):.1f}x games"
                )
    lines.append("")
    lines.append("targets (issue 33):")
    for what, key, bound in TARGETS:
        for name, g in result["games"].items():
            if key == "ratio_t2" and name not in ISSUE_RATIOS:
                continue
            value = g[key] / ISSUE_RATIOS[name] if key == "ratio_t2" else g[key]
            ok = value <= bound if "at most" in what else value >= bound
            lines.append(f"  {name}: {what} {bound}: {value:.2f} {'met' if ok else 'MISSED'}")
    return "\n".join(lines)


def _write_report(path: Path, text: str, result: dict[str, Any]) -> None:
    """The report as markdown (the table as a table, the rest as it printed), with the
    command, the commit and the machine's load."""
    library = Path(result["library"])  # the tree measured (--src: another one)
    commit = subprocess.run(
        ["git", "-C", str(library), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    command = " ".join(["python benchmarks/vector.py", *sys.argv[1:]])
    lines = text.splitlines()
    table = [line for line in lines if line.startswith("|")]
    rest = [line for line in lines[1:] if not line.startswith("|")]
    out = [
        "<!-- written by python benchmarks/vector.py: do not edit, run it again -->",
        "",
        f"Written by `{command}`, the library measured at commit {commit or 'unknown'}, "
        f"{os.cpu_count()} CPUs, "
        f"load average {load:.2f} when it ended. {lines[0]}.",
        "",
        *table,
        "",
        "```text",
        *[line for line in rest if line.strip()],
        "```",
        "",
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(out))
    tmp.replace(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--num-envs", type=int, default=4096)
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--src", help="measure the library of another tree (its src folder)")
    parser.add_argument("--out", default=str(HERE / "results" / "vector-latest.json"))
    parser.add_argument(
        "--report",
        default=str(HERE / "results" / "vector.md"),
        help="where the report goes as markdown (the README's figures; '' for none)",
    )
    args = parser.parse_args()
    result: dict[str, Any] = {
        "num_envs": args.num_envs,
        "library": str(Path(boardsim.__file__).resolve().parent),
        "games": {},
    }
    for name in args.game or list(GAMES):
        result["games"][name] = measure_game(name, args.num_envs, args.seconds)
        print(f"{name}: done", file=sys.stderr)
    if not args.no_peers:
        result["envpool"] = envpool(args.seconds, args.num_envs)
    text = report(result)
    print(text)
    if args.report:
        _write_report(Path(args.report), text, result)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(result, indent=1))
    tmp.replace(out)


if __name__ == "__main__":
    main()

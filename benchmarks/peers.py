"""Peer libraries on the same machine, in the same run: OpenSpiel, pgx (jax CPU), PettingZoo,
EnvPool.

Each case is skipped (reported as "not installed") when its package is missing;
``pip install -e ".[bench]"`` brings them. EnvPool 1.2.7 needs Python 3.12: it runs in the
side environment of ``benchmarks/side_env.sh`` (built by ``benchmarks/vector.py``, or by
running the script), stepped by the vector env's harness (``benchmarks/envpool_peers.py``:
a random legal action per env from numpy, 4096 envs). Every Python loop samples with
``boardsim.bench.uniform_legal``, as the library's own loops do. Steps are counted as
each library counts them (see shared/research/peer_bench.md: compare games/s for
backgammon).
"""

from __future__ import annotations

import json
import random
import subprocess
import time
from pathlib import Path
from typing import Any

from boardsim.bench import uniform_legal


def _openspiel(game_name: str, seconds: float) -> dict[str, float]:
    import pyspiel

    game = pyspiel.load_game(game_name)
    rng = random.Random(0)
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes, probs = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(rng.choices(outcomes, probs)[0])
            else:
                st.apply_action(rng.choice(st.legal_actions()))
            steps += 1
        games += 1
    dt = time.perf_counter() - t0
    return {"steps_per_second": steps / dt, "games_per_second": games / dt}


def _pgx(env_id: str, batch: int, seconds: float) -> dict[str, float]:
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(env_id)

    def act_and_step(state: Any, key: Any) -> Any:
        k1, k2 = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(k1, logits)
        return auto_reset(env.step, env.init)(state, action, k2)

    step = jax.jit(jax.vmap(act_and_step))
    init = jax.jit(jax.vmap(env.init))
    key = jax.random.PRNGKey(0)
    state = init(jax.random.split(key, batch))
    state = step(state, jax.random.split(key, batch))
    jax.block_until_ready(state)
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        key, sub = jax.random.split(key)
        state = step(state, jax.random.split(sub, batch))
        n += batch
        if n % (256 * batch) == 0:
            jax.block_until_ready(state)
    jax.block_until_ready(state)
    return {"steps_per_second": n / (time.perf_counter() - t0)}


def _pettingzoo_connect_four(seconds: float) -> dict[str, float]:
    from pettingzoo.classic import connect_four_v3

    env = connect_four_v3.env()
    rng = random.Random(0)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        env.reset(seed=rng.randrange(1 << 30))
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(uniform_legal(obs["action_mask"], rng))
            steps += 1
    return {"steps_per_second": steps / (time.perf_counter() - t0)}


def _envpool(seconds: float) -> dict[str, Any]:
    """EnvPool's board games in the side environment, if it was built; else not installed."""
    here = Path(__file__).resolve().parent
    python = here / ".side-py312" / "bin" / "python"
    if not python.exists():
        raise ImportError(name="envpool (run benchmarks/side_env.sh)")
    done = subprocess.run(
        [str(python), str(here / "envpool_peers.py"), "--seconds", str(seconds)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def run_all(seconds: float) -> dict[str, Any]:
    cases = {
        "openspiel connect_four": lambda: _openspiel("connect_four", seconds),
        "openspiel backgammon": lambda: _openspiel("backgammon", seconds),
        "pgx connect_four batch 4096": lambda: _pgx("connect_four", 4096, seconds),
        "pgx backgammon batch 256": lambda: _pgx("backgammon", 256, seconds),
        "pettingzoo connect_four_v3 AEC": lambda: _pettingzoo_connect_four(seconds),
    }
    out: dict[str, Any] = {}
    for name, fn in cases.items():
        try:
            out[name] = fn()
        except ImportError as exc:
            out[name] = f"not installed ({exc.name})"
    try:
        found = _envpool(seconds)
        for case in ("ConnectFour-v1", "Backgammon-v1"):
            for threads in (1, 2):
                value = found.get(f"{case} t{threads}")
                if isinstance(value, dict):
                    out[f"envpool {case} batch 4096, {threads} thread(s)"] = value
    except ImportError as exc:
        out["envpool"] = f"not installed ({exc.name})"
    except (OSError, ValueError, subprocess.CalledProcessError) as exc:
        out["envpool"] = f"not installed ({type(exc).__name__})"
    return out

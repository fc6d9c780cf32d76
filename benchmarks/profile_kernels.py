"""Where a random decision's time goes, kernel by kernel (a profiling aid, not a benchmark).

Samples positions from random games, then times each kernel in a compiled loop
over those positions: ``legal_mask``, ``random_legal`` (mask + pick),
``advance_decision`` (apply + chance + truncation), ``observe``, and
``new_game``. Ratios between the lines are what matter on a busy machine.

    python benchmarks/profile_kernels.py [GAME ...] [--positions N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

import boardsim
from boardsim.core.header import FLAG_TERMINAL, H_FLAGS


def sample_positions(game: boardsim.Game, n: int, seed: int = 0) -> np.ndarray:
    """``n`` positions met in random games (decision nodes, not terminal)."""
    out = np.zeros((n, game.state_size), np.int32)
    rng = np.random.default_rng(seed)
    k = 0
    g = 0
    while k < n:
        st = game.new_initial_state(seed * 1_000_003 + g)
        g += 1
        while not st.is_terminal() and k < n:
            if rng.random() < 0.3:
                out[k] = st.array
                k += 1
            st.apply_action(int(rng.choice(st.legal_actions())))
    return out


def time_kernels(game: boardsim.Game, positions: np.ndarray, repeat: int = 3) -> dict[str, float]:
    R = game.rules
    params = game.params
    n = positions.shape[0]
    mask = np.zeros(game.num_actions, np.uint8)
    obs = np.zeros(game.observation_size, np.float32)
    outcomes = np.zeros(R.MAX_CHANCE_OUTCOMES, np.int32)
    weights = np.zeros(R.MAX_CHANCE_OUTCOMES, np.int64)
    prng = np.zeros(2, np.int32)
    prng[0] = 12345
    results: dict[str, float] = {}

    legal_mask = R.legal_mask
    random_legal = R.random_legal
    advance_decision = R.advance_decision
    observe = R.observe
    new_game = R.new_game

    @njit
    def loop_mask(pos, params, mask):
        t = 0
        for i in range(pos.shape[0]):
            t += legal_mask(pos[i], params, mask)
        return t

    @njit
    def loop_pick(pos, params, mask, prng):
        t = 0
        for i in range(pos.shape[0]):
            t += random_legal(pos[i], params, mask, prng)
        return t

    @njit
    def loop_step(pos, work, params, mask, prng, outcomes, weights):
        t = 0
        for i in range(pos.shape[0]):
            work[:] = pos[i]
            a = random_legal(work, params, mask, prng)
            t += advance_decision(work, params, a, outcomes, weights)
        return t

    @njit
    def loop_copy(pos, work):
        t = 0
        for i in range(pos.shape[0]):
            work[:] = pos[i]
            t += work[0]
        return t

    @njit
    def loop_observe(pos, params, obs):
        for i in range(pos.shape[0]):
            observe(pos[i], params, 0, obs)
        return obs[0]

    @njit
    def loop_new(n, params, work, outcomes, weights):
        t = 0
        for i in range(n):
            new_game(work, params, i + 1, outcomes, weights)
            t += work[H_FLAGS] & FLAG_TERMINAL
        return t

    work = np.zeros(game.state_size, np.int32)
    cases = {
        "legal_mask": lambda: loop_mask(positions, params, mask),
        "random_legal (mask+pick)": lambda: loop_pick(positions, params, mask, prng),
        "copy state": lambda: loop_copy(positions, work),
        "pick+advance_decision+copy": lambda: loop_step(
            positions, work, params, mask, prng, outcomes, weights
        ),
        "observe": lambda: loop_observe(positions, params, obs),
        "new_game": lambda: loop_new(n // 10, params, work, outcomes, weights),
    }
    for name, fn in cases.items():
        fn()  # compile
        best = float("inf")
        for _ in range(repeat):
            t0 = time.process_time()
            fn()
            best = min(best, time.process_time() - t0)
        per = n // 10 if name == "new_game" else n
        results[name] = best / per * 1e9
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=boardsim.list_games())
    ap.add_argument("--positions", type=int, default=20_000)
    args = ap.parse_args()
    for name in args.games:
        game = boardsim.make_game(name)
        pos = sample_positions(game, args.positions)
        res = time_kernels(game, pos)
        print(f"\n{name}: ns per call over {args.positions} sampled positions")
        for k, v in res.items():
            print(f"  {k:<30} {v:10.0f}")


if __name__ == "__main__":
    main()

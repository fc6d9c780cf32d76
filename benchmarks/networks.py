"""Learned agents at compiled speed: a report, never a timed test.

    .venv/bin/python benchmarks/networks.py [--seconds 5] [--game liberation] [--no-openspiel]
    .venv/bin/python benchmarks/networks.py --only search   # section 3 alone

1. **Network decisions per second per core**, each game, in ``play_games`` (one thread):
   every seat a 2 x 256 MLP (AlphaZero's shared trunk, a policy head, a value head) with
   random weights, and every seat the shipped network when there is one; beside them the
   heuristic's decisions per second and MCTS@200's (UCT with the game's settings), on the
   same games.
2. **The multiply-add bound** of that network on this CPU: numpy's BLAS (one thread) on
   the network's own matrices, batch 1 (``sgemv``: what a decision can use) and batch
   4096 (``sgemm``: the compute peak), and a tight numba loop of fused multiply-adds on
   data in L1 (AVX2 + FMA). A decision's multiply-adds are counted dense and as
   ``play_games`` does them (a network seat evaluates the policy only, and only the
   observation's non-zero inputs); dividing a bound by them gives the decisions per
   second the bound allows.
3. **MCTS simulations per second** on the calibration connect four
   (``benchmarks/calibration``), random rollouts to the end, against OpenSpiel's C++
   ``MCTSBot`` (``pyspiel.MCTSBot`` with ``RandomRolloutEvaluator(1)``) at the same
   simulation count, the same exploration constant, on the same positions, in the same
   run, one core each.

Writes ``benchmarks/results/networks-latest.json`` (temporary file, then rename).
Targets (issue 16): at least 10,000 network decisions a second per core on every game;
the search at least 2x OpenSpiel's per core.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numba  # noqa: E402
import numpy as np  # noqa: E402

import boardsim  # noqa: E402
from boardsim.bench import write_json_atomic  # noqa: E402
from boardsim.core.batch import play_games, threads_used  # noqa: E402
from boardsim.core.network import Network  # noqa: E402

GAMES = {
    "liberation": {"num_players": 2},
    "farrapos": {},
    "hispania": {"level": "6-4-3-4-2"},
}
TARGET_DECISIONS = 10_000
TARGET_OPENSPIEL = 2.0
CAP = 3000  # decisions a game at most: a network with random weights can stall


def mlp(game: boardsim.Game, hidden: tuple[int, ...] = (256, 256), seed: int = 0) -> Network:
    """AlphaZero's network for ``game`` with random weights (torch's initialisation)."""
    import torch

    from boardsim.training.networks import LayoutNet, alphazero_layers

    torch.manual_seed(seed)
    layers, ps, vs = alphazero_layers(
        game.observation_size, game.num_actions, game.num_players, hidden
    )
    return LayoutNet(layers, ps, vs, prune=True, meta={"game": game.name}).export()


def decisions_per_second(game: boardsim.Game, seats: list[Any], seconds: float) -> dict:
    """Decisions a second of ``play_games`` on one thread (whole games until ``seconds``),
    best of three windows."""
    best = 0.0
    games = decisions = 0
    with threads_used(1):
        play_games(game, 1, seats, seed=0)  # compiled before the clock
        for window in range(3):
            t0 = time.perf_counter()
            done = n = 0
            k = 0
            while time.perf_counter() - t0 < seconds / 3:
                out = play_games(game, 2, seats, seed=window, first_game=k)
                done += int(out["decisions"].sum())
                n += 2
                k += 2
            rate = done / (time.perf_counter() - t0)
            if rate > best:
                best, games, decisions = rate, n, done
    return {"decisions_per_second": best, "games": games, "mean_length": decisions / max(games, 1)}


def mean_nonzero(game: boardsim.Game, games: int = 4) -> float:
    """The mean count of non-zero observation values at the decisions of heuristic games."""
    counts = []
    rng = np.random.default_rng(0)
    for k in range(games):
        st = game.new_initial_state(k)
        from boardsim.agents import load

        h = load("heuristic", game, seed=k)
        while not st.is_terminal() and len(counts) < 400 * (k + 1):
            counts.append(int(np.count_nonzero(st.observation(st.current_player()))))
            st.apply_action(
                h.act_state(st) if rng.random() < 0.9 else int(rng.choice(st.legal_actions()))
            )
    return float(np.mean(counts))


# ---------------------------------------------------------------- the bound
@numba.njit(fastmath={"contract"}, cache=True)
def _fma_loop(a, b, c, reps):
    """``reps`` passes of ``c += a * b`` over L1-resident float32 vectors."""
    for _ in range(reps):
        for i in range(c.shape[0]):
            c[i] += a[i] * b[i]
    return c[0]


def fma_peak(seconds: float) -> float:
    """Multiply-adds a second of a tight numba FMA loop (8 KiB arrays, in L1)."""
    n = 2048
    a, b, c = (np.random.rand(n).astype(np.float32) for _ in range(3))
    _fma_loop(a, b, c, 1)
    reps = 1000
    t0 = time.perf_counter()
    while True:
        _fma_loop(a, b, c, reps)
        dt = time.perf_counter() - t0
        if dt > 0.2:
            break
        reps *= 2
    best = 0.0
    for _ in range(3):
        t0 = time.perf_counter()
        _fma_loop(a, b, c, reps)
        best = max(best, n * reps / (time.perf_counter() - t0))
    return best


def blas_bounds(net: Network, seconds: float) -> dict[str, float]:
    """numpy BLAS on the network's own matrices: batch 1 (one decision) and 4096. A
    dense network's only: a convolution's weights are no ``[n_in, n_out]`` matrix, so a
    network with one is refused (a ``ValueError``) rather than measured as if dense."""
    from boardsim.core import nn as cnn

    mats = []
    for row in net.layout[1 : 1 + int(net.layout[0, cnn.H_LAYERS])]:
        if int(row[cnn.L_KIND]) != cnn.KIND_DENSE:
            raise ValueError("blas_bounds measures dense layers only: this network convolves")
        n_in, n_out, w = int(row[cnn.L_IN]), int(row[cnn.L_OUT]), int(row[cnn.L_W])
        mats.append(net.weights[w : w + n_in * n_out].reshape(n_in, n_out))
    macs = sum(m.size for m in mats)
    out: dict[str, float] = {}
    for batch in (1, 4096):
        xs = [np.random.rand(batch, m.shape[0]).astype(np.float32) for m in mats]
        for x, m in zip(xs, mats, strict=True):
            x @ m
        best = 0.0
        for _ in range(3):
            t0 = time.perf_counter()
            reps = 0
            while time.perf_counter() - t0 < seconds / 6:
                for x, m in zip(xs, mats, strict=True):
                    x @ m
                reps += 1
            best = max(best, reps * batch * macs / (time.perf_counter() - t0))
        out[f"blas_batch{batch}_macs_per_second"] = best
    return out


# ---------------------------------------------------------------- MCTS against OpenSpiel
def mcts_against_openspiel(
    simulations: int, positions: int, c: float = 2.0, windows: int = 7
) -> dict:
    """Simulations a second of the compiled UCT and OpenSpiel's C++ MCTSBot, random
    rollouts to the end, on the same connect four positions, one core each: the best of
    ``windows`` windows each, the two alternating (and the median of the windows' ratios)."""
    from benchmarks.calibration import connect_four

    c4 = connect_four()
    rng = np.random.default_rng(0)
    states: list[boardsim.State] = []
    histories: list[list[int]] = []
    st, moves = c4.new_initial_state(0), []
    while len(states) < positions:
        if st.is_terminal() or len(st.legal_actions()) < 2:
            st, moves = c4.new_initial_state(len(states)), []
        states.append(st.clone())
        histories.append(list(moves))
        a = int(rng.choice(st.legal_actions()))
        st.apply_action(a)
        moves.append(a)
    ws = c4.mcts.workspace(simulations + 1)
    args = (np.int64(simulations), np.float64(c), np.int64(0), np.int64(-1), np.float64(0.0))
    c4.mcts.search(states[0].array.copy(), c4.params, *args, np.int64(1), ws)

    def ours_window() -> float:
        with threads_used(1):
            t0 = time.perf_counter()
            for k, s in enumerate(states):
                c4.mcts.search(s.array.copy(), c4.params, *args, np.int64(k), ws)
            return simulations * len(states) / (time.perf_counter() - t0)

    out: dict[str, Any] = {
        "simulations": simulations,
        "positions": len(states),
        "uct_c": c,
        "windows": windows,
    }
    try:
        import pyspiel
    except ImportError as exc:
        out["boardsim_simulations_per_second"] = max(ours_window() for _ in range(windows))
        out["openspiel"] = f"not installed ({exc.name})"
        return out
    game = pyspiel.load_game("connect_four")
    theirs_states = []
    for moves in histories:  # the same positions, by the same columns played
        ps = game.new_initial_state()
        for a in moves:
            ps.apply_action(a)
        theirs_states.append(ps)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    bot = pyspiel.MCTSBot(game, evaluator, c, simulations, 10_000, False, 0, False)
    bot.step(theirs_states[0])

    def theirs_window() -> float:
        t0 = time.perf_counter()
        for ps in theirs_states:
            bot.step(ps)
        return simulations * len(theirs_states) / (time.perf_counter() - t0)

    # alternating windows, the best of each: one core's speed drifts from minute to minute
    pairs = [(ours_window(), theirs_window()) for _ in range(windows)]
    ours = max(p[0] for p in pairs)
    theirs = max(p[1] for p in pairs)
    out["boardsim_simulations_per_second"] = ours
    out["median_ratio_of_windows"] = float(np.median([a / b for a, b in pairs]))
    out["openspiel_simulations_per_second"] = theirs
    out["boardsim_over_openspiel"] = ours / theirs
    return out


# ---------------------------------------------------------------- the report
def run_game(name: str, seconds: float, mcts: bool = True) -> dict[str, Any]:
    from boardsim.agents.mcts import uct_seat
    from boardsim.agents.network import NetworkAgent, shipped_path

    game = boardsim.make_game(name, max_decisions=CAP, **GAMES[name])
    net = mlp(game)
    agent = NetworkAgent(game, net, temperature=1.0)  # sampled: games end
    n = game.num_players
    nonzero = mean_nonzero(game)
    row: dict[str, Any] = {
        "network": "2x256 MLP (random weights, sampled)",
        "observation_size": game.observation_size,
        "num_actions": game.num_actions,
        "multiply_adds_dense": net.multiply_adds(),
        "multiply_adds_policy_dense": net.multiply_adds(want=1),
        "mean_nonzero_inputs": nonzero,
        "multiply_adds_policy_sparse": net.multiply_adds(want=1, nonzero_inputs=round(nonzero)),
    }
    row["mlp_2x256"] = decisions_per_second(game, [agent] * n, seconds)
    row["heuristic"] = decisions_per_second(game, ["heuristic"] * n, seconds)
    if mcts:  # compiling the search for a game takes minutes on a cold cache
        uct = uct_seat(game, simulations=200)
        row["mcts_200"] = decisions_per_second(game, [uct] * n, max(seconds, 6.0))
    path = shipped_path(name, "alphazero")
    if path.is_file():
        shipped = NetworkAgent(game, Network.load(path))
        row["shipped_alphazero"] = decisions_per_second(game, [shipped] * n, seconds)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--game", dest="games", action="append")
    parser.add_argument("--simulations", type=int, default=1000, help="MCTS vs OpenSpiel")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--no-openspiel", action="store_true")
    parser.add_argument(
        "--only",
        choices=("search",),
        help="search: only the MCTS comparison with OpenSpiel (printed, no file written)",
    )
    parser.add_argument(
        "--mcts-game",
        dest="mcts_games",
        action="append",
        help="measure MCTS@200 only in these games (default: every game)",
    )
    parser.add_argument(
        "--out", default=str(ROOT / "benchmarks" / "results" / "networks-latest.json")
    )
    args = parser.parse_args()
    if args.only == "search":
        return search_only(args.simulations, args.positions)
    load = os.getloadavg()[0]
    result: dict[str, Any] = {
        "load_average_at_start": load,
        "started_utc": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpu": _cpu(),
        "command": " ".join(["benchmarks/networks.py", *sys.argv[1:]]),
        "niceness": os.nice(0),
        "games": {},
    }
    print(f"load average {load:.2f} at the start (2 cores)")
    peak = fma_peak(args.seconds)
    result["fma_loop_macs_per_second"] = peak
    for name in args.games or list(GAMES):
        row = run_game(name, args.seconds, args.mcts_games is None or name in args.mcts_games)
        game = boardsim.make_game(name, **GAMES[name])
        row.update(blas_bounds(mlp(game), args.seconds))
        row["bound_decisions_per_second"] = {
            "fma_loop_dense": peak / row["multiply_adds_policy_dense"],
            "fma_loop_sparse": peak / row["multiply_adds_policy_sparse"],
            "blas_batch1_dense": row["blas_batch1_macs_per_second"]
            / row["multiply_adds_policy_dense"],
            "blas_batch4096_dense": row["blas_batch4096_macs_per_second"]
            / row["multiply_adds_policy_dense"],
        }
        result["games"][name] = row
        _print_game(name, row)
        write_json_atomic(result, args.out)  # what is measured so far, if the run is cut
    if not args.no_openspiel:
        result["mcts_connect_four"] = mcts_against_openspiel(args.simulations, args.positions)
        _print_search(result["mcts_connect_four"])
    result["targets"] = targets(result)
    print("\ntargets (issue 16)")
    for t in result["targets"]:
        mark = {True: "met", False: "MISSED", None: "not measured"}[t["met"]]
        print(f"  {t['target']:<48} {t['value']:>14,.1f} {t['bound']:>10}  {mark}")
    write_json_atomic(result, args.out)
    print(f"\nwrote {args.out}")
    return 0


def search_only(simulations: int, positions: int) -> int:
    """``--only search``: the MCTS comparison alone, printed (the results file is the full
    run's: a partial one would overwrite it)."""
    print(f"load average {os.getloadavg()[0]:.2f} at the start (2 cores)")
    _print_search(mcts_against_openspiel(simulations, positions))
    return 0


def _print_search(m: dict[str, Any]) -> None:
    print(f"\nMCTS, connect four, {m['simulations']} simulations, random rollouts, 1 core:")
    print(f"  boardsim  {m['boardsim_simulations_per_second']:>12,.0f} simulations/s")
    if "openspiel_simulations_per_second" in m:
        print(f"  OpenSpiel {m['openspiel_simulations_per_second']:>12,.0f} simulations/s")
        print(f"  ratio     {m['boardsim_over_openspiel']:>12.2f}x (target >= 2)")
        print(
            f"  ratio, median of {m['windows']} paired windows {m['median_ratio_of_windows']:.2f}x"
        )
    else:
        print(f"  OpenSpiel {m['openspiel']}")


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for name, row in result["games"].items():
        v = row["mlp_2x256"]["decisions_per_second"]
        rows.append(
            {
                "target": f"{name}: 2x256 MLP decisions/s, 1 core",
                "value": v,
                "bound": f">= {TARGET_DECISIONS}",
                "met": v >= TARGET_DECISIONS,
            }
        )
    m = result.get("mcts_connect_four", {})
    ratio = m.get("boardsim_over_openspiel")
    rows.append(
        {
            "target": "connect four MCTS sims/s over OpenSpiel MCTSBot",
            "value": float("nan") if ratio is None else ratio,
            "bound": f">= {TARGET_OPENSPIEL}",
            "met": None if ratio is None else ratio >= TARGET_OPENSPIEL,
        }
    )
    return rows


def _print_game(name: str, row: dict[str, Any]) -> None:
    print(f"\n{name}: observation {row['observation_size']}, {row['num_actions']} actions")
    for key in ("mlp_2x256", "shipped_alphazero", "heuristic", "mcts_200"):
        if key in row:
            r = row[key]
            print(
                f"  {key:<18} {r['decisions_per_second']:>12,.0f} decisions/s "
                f"({r['games']} games, {r['mean_length']:.0f} decisions a game)"
            )
    print(
        f"  multiply-adds a decision: {row['multiply_adds_policy_dense']:,} dense, "
        f"{row['multiply_adds_policy_sparse']:,} on the {row['mean_nonzero_inputs']:.0f} "
        "non-zero inputs (policy only)"
    )
    b = row["bound_decisions_per_second"]
    print(
        f"  bound (decisions/s): FMA loop {b['fma_loop_dense']:,.0f} dense / "
        f"{b['fma_loop_sparse']:,.0f} sparse; BLAS batch 1 {b['blas_batch1_dense']:,.0f}; "
        f"BLAS batch 4096 {b['blas_batch4096_dense']:,.0f}"
    )


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


if __name__ == "__main__":
    raise SystemExit(main())

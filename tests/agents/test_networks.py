"""Compiled networks: the same outputs as their torch twins on every game's observations,
and a network seat plays legal moves everywhere a compiled policy plays."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import boardsim
from boardsim.agents import load
from boardsim.agents.network import NetworkAgent, NetworkSearchAgent
from boardsim.core import nn as cnn
from boardsim.core.batch import Batch, play_games
from boardsim.core.errors import StateFormatError
from boardsim.core.network import LayerSpec, Network, build_layout, check_layout, new_scratch
from boardsim.training.networks import (
    LayoutNet,
    alphazero_layers,
    from_sb3_policy,
    load_policy,
)

AGENTS = Path(__file__).resolve().parents[2] / "agents"
GAMES = {
    "liberation": {"num_players": 2},
    "farrapos": {},
    "hispania": {"level": "6-4-3-4-2"},
}


def random_network(game: boardsim.Game, hidden=(64, 32), seed: int = 0) -> Network:
    torch.manual_seed(seed)
    layers, ps, vs = alphazero_layers(
        game.observation_size, game.num_actions, game.num_players, hidden, 16
    )
    meta = {"game": game.name, "options": game.options}
    return LayoutNet(layers, ps, vs, prune=True, meta=meta).export()


def game_observations(game: boardsim.Game, n: int = 48, seed: int = 0) -> np.ndarray:
    """Observations of random play (every seat's view), and noise of the same shape."""
    rng = np.random.default_rng(seed)
    rows = []
    st = game.new_initial_state(seed)
    while len(rows) < n // 2:
        if st.is_terminal():
            st = game.new_initial_state(int(rng.integers(1 << 30)))
        rows.append(st.observation(st.current_player()))
        st.apply_action(int(rng.choice(st.legal_actions())))
    noise = rng.normal(size=(n - len(rows), game.observation_size)).astype(np.float32)
    noise *= rng.random(noise.shape) < 0.2  # sparse, as observations are
    return np.concatenate([np.stack(rows), noise]).astype(np.float32)


def _compiled_outputs(net: Network, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    logits, values = zip(*(net.evaluate(x) for x in obs), strict=True)
    return np.stack(logits), np.stack(values)


def _close(a: np.ndarray, b: np.ndarray) -> None:
    """Within 1e-5, relative to the size of the outputs (logits of a trained policy reach
    tens; float32 carries about 7 digits)."""
    assert np.max(np.abs(a - b) / np.maximum(1.0, np.abs(b))) < 1e-5


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_alphazero_network_computes_what_its_torch_twin_computes(name: str) -> None:
    game = boardsim.make_game(name, **GAMES[name])
    torch.manual_seed(1)
    layers, ps, vs = alphazero_layers(game.observation_size, game.num_actions, game.num_players)
    model = LayoutNet(layers, ps, vs)  # 2 x 256, as benchmarked
    net = model.export()
    obs = game_observations(game)
    with torch.no_grad():
        t_logits, t_values = model(torch.from_numpy(obs))
    logits, values = _compiled_outputs(net, obs)
    _close(logits, t_logits.numpy())
    _close(values, t_values.numpy())
    # the twin built back from the compiled arrays is the same function
    back = LayoutNet.from_network(net)
    with torch.no_grad():
        b_logits, _ = back(torch.from_numpy(obs))
    np.testing.assert_array_equal(b_logits.numpy(), t_logits.numpy())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_shipped_ppo_policy_exports_to_the_same_outputs(name: str) -> None:
    game = boardsim.make_game(name, **GAMES[name])
    policy = load_policy(AGENTS / name / "ppo.zip")
    net = from_sb3_policy(policy)
    obs = game_observations(game, seed=2)
    with torch.no_grad():
        x = torch.from_numpy(obs)
        pi, vf = policy.mlp_extractor(policy.extract_features(x, policy.pi_features_extractor))
        t_logits, t_values = policy.action_net(pi).numpy(), policy.value_net(vf).numpy()
    logits, values = _compiled_outputs(net, obs)
    _close(logits, t_logits)
    _close(values, t_values)
    masks = np.stack([np.random.default_rng(i).random(game.num_actions) < 0.3 for i in range(8)])
    masks[:, 0] = True
    agent = load(f"ppo:{AGENTS / name / 'ppo.zip'}", game, strict_options=False)
    masked = agent.action_logits(obs[:8], masks)
    np.testing.assert_allclose(masked[masks], t_logits[:8][masks], rtol=1e-5, atol=1e-5)
    assert np.all(np.isneginf(masked[~masks]))


def test_the_masked_softmax_and_the_choice() -> None:
    logits = np.array([1.0, 5.0, 2.0, 9.0], np.float32)
    mask = np.array([1, 1, 1, 0], np.uint8)
    probs = np.zeros(4)
    assert cnn.masked_softmax(logits, mask, probs) == 3
    expected = np.exp([1.0, 5.0, 2.0]) / np.exp([1.0, 5.0, 2.0]).sum()
    np.testing.assert_allclose(probs[:3], expected) and probs[3] == 0
    prng = np.array([5, 6], np.int32)
    assert cnn.pick(logits, mask, 0.0, probs, prng) == 1  # the best legal, not 3
    draws = [cnn.pick(logits, mask, 1.0, probs, prng) for _ in range(4000)]
    counts = np.bincount(draws, minlength=4) / 4000
    assert counts[3] == 0 and abs(counts[1] - expected[1]) < 0.03


def test_a_network_file_round_trips_and_bad_layouts_are_refused(tmp_path) -> None:
    game = boardsim.make_game("liberation", num_players=2)
    net = random_network(game)
    path = net.save(tmp_path / "net.npz")
    back = Network.load(path)
    np.testing.assert_array_equal(back.weights, net.weights)
    np.testing.assert_array_equal(back.layout, net.layout)
    assert back.meta["game"] == "liberation" and back.prune
    assert back.observation_size == game.observation_size and back.num_actions == 172
    with pytest.raises(StateFormatError):
        Network.from_bytes(b"not a network")
    layout, size = build_layout([LayerSpec(0, 1, 4, 3), LayerSpec(1, 2, 3, 1, "tanh")], 1, 2)
    check_layout(np.zeros(size, np.float32), layout)
    with pytest.raises(ValueError, match="weights out of range"):
        check_layout(np.zeros(size - 1, np.float32), layout)
    bad = layout.copy()
    bad[2, cnn.L_IN] = 5  # reads 5 values of a slot of 3
    with pytest.raises(ValueError, match="reads 5 values"):
        check_layout(np.zeros(size + 10, np.float32), bad)
    with pytest.raises(ValueError, match="activation"):
        build_layout([LayerSpec(0, 1, 4, 3, "gelu")], 1, 1)


def test_sparse_inputs_cost_their_nonzeros_only() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    net = random_network(game, hidden=(256, 256))
    obs = game_observations(game, n=2)[0]
    nonzero = int(np.count_nonzero(obs))
    dense = net.multiply_adds()
    sparse = net.multiply_adds(nonzero_inputs=nonzero)
    assert sparse < dense / 2 and nonzero < game.observation_size / 4


# ---------------------------------------------------------------- a seat everywhere
def _replayed(game: boardsim.Game, seats: list, seed: int, games: int) -> np.ndarray:
    """The compiled games played again through the State API, each move checked legal."""
    from boardsim.core.header import H_RNG
    from boardsim.core.rng import derive_seed, rng_seed

    out = np.zeros((games, game.num_players))
    for k in range(games):
        s = derive_seed(seed, k)
        st = game.new_initial_state(s)
        prng = np.zeros(2, np.int32)
        rng_seed(prng, 0, derive_seed(s, 1))
        table = boardsim.core.seats.seat_table(game, seats)
        nn = game.engine.net_scratch(*_shape(table))
        mask = np.zeros(game.num_actions, np.uint8)
        while not st.is_terminal():
            a = game.engine.seat_action(st.array.copy(), game.params, table, mask, prng, nn)
            assert st.legal_actions_mask()[a], "a network seat played an illegal move"
            st.apply_action(int(a))
        out[k] = st.returns()
        assert H_RNG == 0
    return out


def _shape(table) -> tuple[int, int]:
    from boardsim.core.engine import seats_scratch_size

    return tuple(int(x) for x in seats_scratch_size(table))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_network_seat_plays_whole_compiled_games_legally(name: str) -> None:
    game = boardsim.make_game(name, max_decisions=3000, **GAMES[name])
    agent = NetworkAgent(game, random_network(game), temperature=1.0)
    seats = [agent] + ["heuristic"] * (game.num_players - 1)
    out = play_games(game, 3, seats, seed=9, threads=1)
    np.testing.assert_array_equal(out["returns"], _replayed(game, seats, 9, 3))


def test_a_network_is_a_batch_and_gym_opponent() -> None:
    game = boardsim.make_game("liberation", num_players=2, max_decisions=150)
    agent = NetworkAgent(game, random_network(game))
    batch = Batch(game, 8, seat=0, seed=3, opponents=["random", agent])
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(200):
        acts = [int(rng.choice(np.flatnonzero(m))) for m in batch.masks]
        batch.step(np.array(acts))
        finished += int((batch.terminated | batch.truncated).sum())
    assert finished > 0 and batch.policies[1] == boardsim.core.header.POLICY_NETWORK
    env = boardsim.make_gym_env("liberation", opponents=agent, num_players=2, max_decisions=150)
    assert env.unwrapped._compiled is not None  # one compiled call a step
    _, info = env.reset(seed=1)
    done = False
    while not done:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, term, trunc, info = env.step(a)
        done = term or trunc
    venv = boardsim.make_vec_env("liberation", 4, opponents=agent, num_players=2, max_decisions=150)
    venv.reset(seed=0)
    venv.step(np.array([int(np.flatnonzero(m)[0]) for m in venv.action_masks()]))


def test_a_network_agent_acts_alike_from_python_and_in_compiled_code() -> None:
    game = boardsim.make_game("farrapos")
    agent = NetworkAgent(game, random_network(game))
    st = game.new_initial_state(4)
    for _ in range(30):
        a = agent.act_state(st)
        assert st.legal_actions_mask()[a]
        b = agent.act(st.observation(st.current_player()), st.legal_actions_mask())
        assert st.legal_actions_mask()[b]
        st.apply_action(a)
    env = boardsim.make_env("farrapos")
    env.reset(seed=0)
    for name in env.agent_iter(max_iter=20):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else agent.act(obs["observation"], obs["action_mask"]))
        assert name in env.possible_agents


# ---------------------------------------------------------------- searching with it
@pytest.mark.parametrize("search", ["puct", "gumbel"])
def test_the_network_search_finds_the_winning_move(search: str) -> None:
    from tests.agents.test_mcts_search import last_space_to_liberate

    st, _ = last_space_to_liberate()
    net = random_network(st.game)
    agent = NetworkSearchAgent(st.game, net, 64, seed=0, search=search, gumbel_m=16)
    a = agent.act_state(st)
    st.apply_action(a)
    assert st.is_terminal() and list(st.returns()) == [1.0, -1.0]
    policy = agent.last_policy
    assert abs(policy.sum() - 1.0) < 1e-5 and policy[a] == policy.max()


@pytest.mark.parametrize("search", ["puct", "gumbel"])
def test_network_searches_play_compiled_games_that_do_not_depend_on_threads(search: str) -> None:
    # a network with random weights can stall: the games are cut
    game = boardsim.make_game("liberation", num_players=2, max_decisions=600)
    agent = NetworkSearchAgent(game, random_network(game), 12, search=search, mix=0.5)
    one = play_games(game, 4, [agent, "heuristic"], seed=2, threads=1)
    two = play_games(game, 4, [agent, "heuristic"], seed=2, threads=2)
    np.testing.assert_array_equal(one["returns"], two["returns"])
    np.testing.assert_array_equal(one["decisions"], two["decisions"])


def test_selfplay_records_the_searched_positions_and_their_targets() -> None:
    from boardsim.core.seats import seat_table

    game = boardsim.make_game("liberation", num_players=2, max_decisions=600)
    agent = NetworkSearchAgent(game, random_network(game), 8, search="gumbel", gumbel_scale=1.0)
    table = seat_table(game, [agent, agent])
    n, cap = 2, 600
    states = np.zeros((n, cap, game.state_size), np.int32)
    targets = np.zeros((n, cap, game.num_actions), np.float32)
    values = np.zeros((n, cap, game.max_players))
    count = np.zeros(n, np.int64)
    rets = np.zeros((n, game.max_players))
    dec = np.zeros(n, np.int64)
    flags = np.zeros(n, np.int32)
    record = np.ones(game.max_players, np.uint8)
    game.mcts.selfplay(
        game.params, table, table, 1.0, record, 0, 1.0, 5, 0, states, targets, values, count,
        rets, dec, flags,
    )  # fmt: skip
    played = play_games(game, n, [agent, agent], seed=5)
    np.testing.assert_array_equal(rets[:, :2], played["returns"])  # the same games
    assert np.all(count > 0) and np.all(count <= dec)
    for k in range(n):
        for i in range(count[k]):
            mask = np.zeros(game.num_actions, np.uint8)
            assert game.kernels.legal_mask(states[k, i], game.params, mask) > 1
            assert abs(targets[k, i].sum() - 1) < 1e-4
            assert np.all(targets[k, i][mask == 0] == 0)  # mass on legal moves only
            assert np.all(np.abs(values[k, i, : game.num_players]) <= 1.0001)


@pytest.mark.parametrize("search", ["uct", "puct"])
def test_stored_positions_are_searched_afresh_as_the_seat_searches_them(search: str) -> None:
    """``search_positions`` (relabelling positions a network reached by itself, DAgger):
    each position's move is the one its seat's search picks there with the same seed; the
    target, visits and values are the root's, whatever the threads."""
    from boardsim.core import header as hd
    from boardsim.core.batch import threads_used
    from boardsim.core.rng import derive_seed
    from boardsim.core.seats import game_uct_seat, seat_table

    game = boardsim.make_game("liberation", num_players=2, max_decisions=600)
    net = random_network(game)
    seat = (
        game_uct_seat(game, 24)
        if search == "uct"
        else NetworkSearchAgent(game, net, 24, search="puct", mix=0.5)
    )
    table = seat_table(game, [seat, seat])
    rng = np.random.default_rng(3)
    states = []
    st = game.new_initial_state(4)
    while len(states) < 12:
        if st.is_terminal():
            st = game.new_initial_state(int(rng.integers(1 << 30)))
        if len(st.legal_actions()) > 1:
            states.append(st.array.copy())
        st.apply_action(int(rng.choice(st.legal_actions())))
    states = np.stack(states)
    before = states.copy()
    n, a_n, p_n = len(states), game.num_actions, game.max_players

    def run(threads: int) -> tuple[np.ndarray, ...]:
        out = (
            np.zeros((n, a_n), np.float32),
            np.zeros((n, p_n)),
            np.zeros((n, a_n)),
            np.zeros((n, a_n), np.int64),
            np.zeros(n, np.int64),
        )
        with threads_used(threads):
            game.mcts.search_positions(game.params, table, states, 11, *out)
        return out

    targets, values, q, visits, actions = run(1)
    for got, want in zip(run(2), (targets, values, q, visits, actions), strict=True):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(states, before)  # the positions are not changed
    ws, nws = game.mcts.game_workspaces(table)
    for i in range(n):
        mask = np.zeros(a_n, np.uint8)
        assert game.kernels.legal_mask(states[i], game.params, mask) > 1
        assert mask[actions[i]] and abs(targets[i].sum() - 1) < 1e-4
        assert np.all(targets[i][mask == 0] == 0) and np.all(visits[i][mask == 0] == 0)
        assert visits[i].sum() > 0 and np.all(np.abs(q[i]) <= 1.0001)
        assert np.all(np.abs(values[i, : game.num_players]) <= 1.0001)
        root_mask = np.zeros(a_n, np.uint8)
        player = int(states[i][hd.H_ACTOR])
        again = game.mcts.seat_search(
            states[i].copy(), game.params, table, player, derive_seed(11, i), ws, nws,
            root_mask, np.zeros(0, np.float32),
        )  # fmt: skip
        assert again == actions[i]


# ---------------------------------------------------------------- the heuristic's hint
def hinted_network(game: boardsim.Game, hidden=(64, 32), seed: int = 0, weight: float = 3.0):
    from boardsim.training.networks import start_from_hint

    torch.manual_seed(seed)
    size = game.observation_size + game.num_actions
    layers, ps, vs = alphazero_layers(
        size, game.num_actions, game.num_players, hidden, 16, skip=True
    )
    model = LayoutNet(layers, ps, vs, prune=True, hint=True, meta={"game": game.name})
    start_from_hint(model, game.observation_size, weight)
    return model


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_hinted_network_reads_the_heuristics_move_after_the_observation(name: str) -> None:
    """The input of a NET_HINT network at a position is the player's observation and a
    one-hot of the compiled heuristic's move there, in play and in training alike."""
    from boardsim.agents.heuristic import HeuristicAgent

    game = boardsim.make_game(name, **GAMES[name])
    net = hinted_network(game).export()
    assert net.hint and net.observation_size == game.observation_size
    assert net.input_size == game.observation_size + game.num_actions
    heuristic = HeuristicAgent(game)
    rng = np.random.default_rng(0)
    st = game.new_initial_state(3)
    positions = []
    while len(positions) < 20 and not st.is_terminal():
        positions.append(st.clone())
        st.apply_action(int(rng.choice(st.legal_actions())))
    states = np.stack([p.array for p in positions])
    x = np.zeros((len(states), net.input_size), np.float32)
    masks = np.zeros((len(states), game.num_actions), np.uint8)
    game.mcts.batch_positions(states, game.params, True, x, masks)
    for row, position in zip(x, positions, strict=True):
        seen = position.observation(position.current_player())
        np.testing.assert_array_equal(row[: game.observation_size], seen)
        hint = row[game.observation_size :]
        move = heuristic.act(seen, position.legal_actions_mask(), state=position)
        assert hint.sum() == 1 and hint[move] == 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_hinted_network_with_its_skip_layer_computes_what_its_torch_twin_computes(
    name: str,
) -> None:
    game = boardsim.make_game(name, **GAMES[name])
    model = hinted_network(game, hidden=(256, 256), seed=4)
    with torch.no_grad():  # the skip's other weights too, as training leaves them
        skip = model.linears[[s.activation for s in model.specs].index("add")]
        skip.weight.add_(0.01 * torch.randn_like(skip.weight))
    net = model.export()
    obs = game_observations(game)
    rng = np.random.default_rng(5)
    hints = np.eye(game.num_actions, dtype=np.float32)[
        rng.integers(game.num_actions, size=len(obs))
    ]
    x = np.concatenate([obs, hints], axis=1)
    with torch.no_grad():
        t_logits, t_values = model(torch.from_numpy(x))
    logits, values = _compiled_outputs(net, x)
    _close(logits, t_logits.numpy())
    _close(values, t_values.numpy())
    back = LayoutNet.from_network(net)
    assert back.hint
    np.testing.assert_array_equal(back.export().weights, net.weights)
    with pytest.raises(ValueError, match="reads"):
        net.evaluate(obs[0])  # the observation alone is not this network's input


def test_an_untrained_hinted_network_plays_as_the_heuristic() -> None:
    """The skip layer starts at the hint: before any training the network's move is the
    heuristic's (its trunk's random logits are far smaller than the hint's weight)."""
    game = boardsim.make_game("liberation", num_players=2)
    net = hinted_network(game, weight=50.0).export()
    agent = NetworkAgent(game, net)
    assert agent.needs_state
    ours = play_games(game, 6, [agent, "random"], seed=11, threads=1)
    theirs = play_games(game, 6, ["heuristic", "random"], seed=11, threads=1)
    np.testing.assert_array_equal(ours["returns"], theirs["returns"])
    np.testing.assert_array_equal(ours["decisions"], theirs["decisions"])
    st = game.new_initial_state(1)
    with pytest.raises(TypeError, match="state="):
        agent.act(st.observation(st.current_player()), st.legal_actions_mask())
    assert st.legal_actions_mask()[agent.act(None, None, state=st)]


def test_an_added_layer_needs_its_slot_written_first() -> None:
    good, size = build_layout(
        [LayerSpec(0, 1, 4, 3), LayerSpec(0, 1, 4, 3, "add"), LayerSpec(1, 2, 3, 1, "tanh")], 1, 2
    )
    check_layout(np.zeros(size, np.float32), good)
    bad, size = build_layout([LayerSpec(0, 1, 4, 3, "add"), LayerSpec(1, 2, 3, 1)], 1, 2)
    with pytest.raises(ValueError, match="adds 3 values to slot 1"):
        check_layout(np.zeros(size, np.float32), bad)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_policy_computed_for_the_legal_actions_only_is_the_full_policy_there(name) -> None:
    game = boardsim.make_game(name, **GAMES[name])
    model = hinted_network(game, hidden=(64, 32), seed=6)
    net = model.export()
    obs = game_observations(game, n=12, seed=3)
    hints = np.eye(game.num_actions, dtype=np.float32)[np.arange(len(obs)) % game.num_actions]
    rng = np.random.default_rng(7)
    for x in np.concatenate([obs, hints], axis=1):
        mask = (rng.random(game.num_actions) < 0.1).astype(np.uint8)
        mask[rng.integers(game.num_actions)] = 1
        full = new_scratch(net.layout)
        cnn.forward(net.weights, net.layout, 0, x, full, cnn.USE_BOTH)
        legal = new_scratch(net.layout)
        cnn.forward_legal(net.weights, net.layout, 0, x, legal, cnn.USE_BOTH, mask)
        slot = int(net.layout[0, cnn.H_POLICY_SLOT])
        on = mask.astype(bool)
        np.testing.assert_allclose(
            legal[slot, : game.num_actions][on], full[slot, :][: game.num_actions][on], rtol=1e-6
        )
        assert np.all(legal[slot, : game.num_actions][~on] == 0)
        vslot = int(net.layout[0, cnn.H_VALUE_SLOT])
        np.testing.assert_array_equal(legal[vslot], full[vslot])

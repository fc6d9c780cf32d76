"""Convolutional networks (``core/nn.py``'s ``conv``): the compiled layer against a
convolution worked by hand and against torch's ``conv2d``, the layouts it refuses, and the
networks saved before convolutions existed (format 1), which still load."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import boardsim
from boardsim.core import nn as cnn
from boardsim.core.errors import OptionError
from boardsim.core.network import (
    LayerSpec,
    Network,
    build_layout,
    check_layout,
    new_scratch,
    upgrade_layout,
)
from boardsim.training.alphazero import AlphaZeroConfig
from boardsim.training.networks import LayoutNet, alphazero_layers, board_planes

PLUGIN = Path(__file__).resolve().parents[2] / "benchmarks" / "connect_four"
BOARD = (2, 6, 7)  # connect four's planes: the player's pieces, the opponent's


def conv_network(conv=(8, 8), hidden=(), seed: int = 0, value_size: int = 2) -> LayoutNet:
    torch.manual_seed(seed)
    size = BOARD[0] * BOARD[1] * BOARD[2]
    layers, ps, vs = alphazero_layers(size, 7, value_size, hidden, 16, conv=conv, board=BOARD)
    return LayoutNet(layers, ps, vs, prune=True, meta={"game": "connect_four"})


def boards(n: int, seed: int = 0) -> np.ndarray:
    """Positions' planes: each cell empty, the player's or the opponent's."""
    rng = np.random.default_rng(seed)
    owner = rng.integers(0, 3, size=(n, BOARD[1] * BOARD[2]))
    return np.concatenate([owner == 1, owner == 2], axis=1).astype(np.float32)


def test_one_stone_seen_through_a_kernel_is_the_kernel_turned_round() -> None:
    """One plane of 3x3 cells, a stone in the centre, a 3x3 kernel numbered 1..9: output
    cell (r, c) sees the stone through the kernel's entry (2 - r, 2 - c); a stone in a
    corner is seen by its four neighbouring cells only (the padding adds nothing)."""
    spec = LayerSpec(0, 1, 9, 9, "none", cnn.USE_BOTH, "conv_planes", (3, 3), 3)
    layout, size = build_layout([spec], 1, 1)
    weights = np.zeros(size, np.float32)
    weights[:9] = np.arange(1, 10)  # [in 1, kernel row, kernel column, out 1]
    weights[9] = 0.5  # the bias
    act = new_scratch(layout)
    centre = np.zeros(9, np.float32)
    centre[4] = 1.0
    cnn.forward(weights, layout, 0, centre, act, cnn.USE_BOTH)
    kernel = np.arange(1, 10, dtype=np.float32).reshape(3, 3)
    np.testing.assert_array_equal(act[1, :9].reshape(3, 3), kernel[::-1, ::-1] + 0.5)
    corner = np.zeros(9, np.float32)
    corner[0] = 2.0
    cnn.forward(weights, layout, 0, corner, act, cnn.USE_BOTH)
    seen = np.full((3, 3), 0.5, np.float32)
    seen[:2, :2] += 2.0 * kernel[::-1, ::-1][1:, 1:]
    np.testing.assert_array_equal(act[1, :9].reshape(3, 3), seen)


@pytest.mark.parametrize("hidden", [(), (32,)])
def test_a_convolutional_network_computes_what_its_torch_twin_computes(hidden, tmp_path) -> None:
    model = conv_network(hidden=hidden, seed=3)
    net = model.export()
    kinds = [int(r[cnn.L_KIND]) for r in net.layout[1:]]
    assert kinds[:2] == [cnn.KIND_CONV_PLANES, cnn.KIND_CONV]
    obs = boards(24, seed=1)
    with torch.no_grad():
        t_logits, t_values = model(torch.from_numpy(obs))
    for x, tl, tv in zip(obs, t_logits.numpy(), t_values.numpy(), strict=True):
        logits, value = net.evaluate(x)
        np.testing.assert_allclose(logits, tl, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(value, tv, rtol=1e-5, atol=1e-5)
        # the policy of the legal moves only is the full policy there
        mask = (np.arange(7) % 2).astype(np.uint8)
        act = new_scratch(net.layout)
        cnn.forward_legal(net.weights, net.layout, 0, x, act, cnn.USE_BOTH, mask)
        slot = int(net.layout[0, cnn.H_POLICY_SLOT])
        np.testing.assert_allclose(act[slot, :7][mask == 1], logits[mask == 1], rtol=1e-6)
    # saved, loaded and brought back into torch: the same function
    back = LayoutNet.from_network(Network.load(net.save(tmp_path / "conv.npz")))
    with torch.no_grad():
        b_logits, b_values = back(torch.from_numpy(obs))
    np.testing.assert_array_equal(b_logits.numpy(), t_logits.numpy())
    np.testing.assert_array_equal(b_values.numpy(), t_values.numpy())
    assert isinstance(back.linears[0], torch.nn.Conv2d)


@pytest.mark.parametrize("depth", [2, 3, 5])
def test_a_fresh_stack_of_convolutions_gives_each_position_its_own_policy_and_value(
    depth: int,
) -> None:
    """Behind 2, 3 or 5 convolutions of 32 channels, as ``boardsim train --conv`` builds
    them, every layer's activations keep their scale and the heads' 1x1 convolutions are
    alive: different positions get different policies and values, so there is a gradient
    to learn from. (Torch's default initialisation shrank the signal threefold a layer:
    behind three convolutions the heads' ReLUs were dead for every position, and a
    connect-four run learnt nothing; at 20 seeds even two convolutions had some.)"""
    for seed in range(20):
        model = conv_network(conv=(32,) * depth, seed=seed)
        seen: list[torch.Tensor] = []  # each convolution's output before its ReLU

        def keep(_module: torch.nn.Module, _input: tuple, out: torch.Tensor, seen=seen) -> None:
            seen.append(out.detach())

        for layer in model.linears:
            if isinstance(layer, torch.nn.Conv2d):
                layer.register_forward_hook(keep)
        with torch.no_grad():
            logits, values = model(torch.from_numpy(boards(64, seed=seed)))
        assert len(seen) == depth + 2  # the trunk's, then the two heads' 1x1
        for out in seen[depth:]:  # the heads' ReLUs pass something (Torch's default: 0)
            assert float((out > 0).float().mean()) > 0.05, (depth, seed)
        scales = [float(out.std()) for out in seen[:depth]]
        assert max(scales) / min(scales) < 3.0, scales  # the default's: 3 to 12
        assert float(logits.std(dim=0).mean()) > 1e-2  # the default's: 0 at some seeds
        assert float(values.std(dim=0).mean()) > 5e-3


def test_a_convolution_costs_its_kernel_over_every_input() -> None:
    net = conv_network(conv=(8,)).export()
    first = net.layout[1]
    assert net.multiply_adds(cnn.USE_POLICY) >= 84 * 9 * 8  # the 3x3 convolution alone
    assert int(first[cnn.L_ROWS]) == 6 and int(first[cnn.L_COLS]) == 7
    assert int(first[cnn.L_KERNEL]) == 3


def test_convolutions_that_do_not_fit_their_board_are_refused() -> None:
    good = [LayerSpec(0, 1, 18, 18, "relu", cnn.USE_BOTH, "conv_planes", (3, 3), 3)]
    layout, size = build_layout(good, 1, 1)
    check_layout(np.zeros(size, np.float32), layout)
    with pytest.raises(ValueError, match="weights out of range"):
        check_layout(np.zeros(size - 1, np.float32), layout)
    even = layout.copy()
    even[1, cnn.L_KERNEL] = 2
    with pytest.raises(ValueError, match="odd kernel"):
        check_layout(np.zeros(size, np.float32), even)
    uneven = [LayerSpec(0, 1, 19, 18, "relu", cnn.USE_BOTH, "conv_planes", (3, 3), 3)]
    layout, size = build_layout(uneven, 1, 1)
    with pytest.raises(ValueError, match="whole channels"):
        check_layout(np.zeros(size, np.float32), layout)
    unknown = build_layout(good, 1, 1)[0]
    unknown[1, cnn.L_KIND] = 7
    with pytest.raises(ValueError, match="unknown kind"):
        check_layout(np.zeros(size, np.float32), unknown)
    with pytest.raises(ValueError, match="kind"):
        build_layout([LayerSpec(0, 1, 9, 9, kind="deconv", board=(3, 3), kernel=3)], 1, 1)


def test_a_network_saved_before_convolutions_loads_as_the_same_network() -> None:
    """Format 1: rows of 8 values, dense layers only (every network shipped before)."""
    torch.manual_seed(0)
    layers, ps, vs = alphazero_layers(10, 4, 2, (8,), 4)
    net = LayoutNet(layers, ps, vs).export()
    old = io.BytesIO()
    layout = net.layout[:, :8].copy()
    layout[0, cnn.H_FORMAT] = 1
    np.savez(
        old,
        format=np.array([1], np.int32),
        weights=net.weights,
        layout=layout,
        meta=np.frombuffer(json.dumps({}).encode(), np.uint8),
    )
    back = Network.from_bytes(old.getvalue())
    np.testing.assert_array_equal(back.layout, net.layout)
    x = np.linspace(-1, 1, 10).astype(np.float32)
    for a, b in zip(back.evaluate(x), net.evaluate(x), strict=True):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="format-1"):
        upgrade_layout(net.layout)


def test_convolutions_need_a_game_whose_observation_is_board_planes() -> None:
    race = boardsim.make_game("liberation", num_players=2)
    with pytest.raises(OptionError, match="no board of planes"):
        board_planes(race, [32])
    assert board_planes(race, []) is None
    with pytest.raises(OptionError, match="hint"):
        AlphaZeroConfig(game="liberation", run_dir="x", conv=[8], hint=True).validate()
    with pytest.raises(OptionError, match="conv"):
        AlphaZeroConfig(game="liberation", run_dir="x", conv=[0]).validate()
    with pytest.raises(OptionError, match="hidden"):
        AlphaZeroConfig(game="liberation", run_dir="x", hidden=[]).validate()
    AlphaZeroConfig(game="liberation", run_dir="x", conv=[8], hidden=[]).validate()
    with pytest.raises(ValueError, match="board planes"):
        alphazero_layers(85, 7, 2, (), conv=(8,), board=BOARD)


def test_connect_four_says_its_observation_is_two_planes_of_its_board() -> None:
    if str(PLUGIN) not in sys.path:
        sys.path.insert(0, str(PLUGIN))
    from boardsim_connect_four import DEFINITION

    from boardsim.core.game import Game

    game = Game(DEFINITION)
    assert DEFINITION.board_planes == BOARD
    state = game.new_initial_state(0)
    state.apply_action(3)  # player 0 drops a piece into the centre column, bottom row
    planes = np.asarray(state.observation(1)).reshape(BOARD)
    assert planes[1, 0, 3] == 1 and planes.sum() == 1  # the opponent's, as player 1 sees it

"""Policy/value networks evaluated inside compiled code, from plain weight arrays.

A network is two arrays, whatever its architecture, so that every compiled function
taking one has a single specialization (and stays in numba's on-disk cache):

- ``weights``: one flat ``float32`` array of every layer's weights and biases;
- ``layout``: an ``int32`` array ``[1 + layers, LAYOUT_WIDTH]``. Row 0 is the header
  (:data:`H_FORMAT` ... below); each following row is one layer: where it reads
  (``src``, a slot; slot 0 is the observation), where it writes (``dst``), its sizes, the
  offsets of its weights (``[n_in, n_out]``, row ``i`` the weights from input ``i``) and
  its biases in ``weights``, its activation (``add``: linear, added to the slot an earlier
  layer wrote, a skip connection), which outputs need it (``use``: bit 1 the
  policy, bit 2 the value), and its kind: dense, or a convolution over a board
  (``L_KIND``, its rows, columns and kernel; :func:`conv`), the structured layer for
  a game whose observation is board planes.

Layers are evaluated in order; every slot is one row of the scratch array ``act``
(:func:`new_scratch`). The policy's logits are slot ``policy_slot`` (``num_actions``
values), the value slot ``value_slot`` (``value_size`` values, already through the last
layer's activation). This covers stable-baselines3's ``MlpPolicy`` (two separate MLPs,
tanh, a linear action head and a linear value head) and the shared-trunk networks of
:mod:`boardsim.training.alphazero` alike.

**Sparsity.** A layer adds ``x[i] * W[i, :]`` only for inputs ``x[i] != 0``, with the
weights stored input-major, so the zeros of an observation (most of it: one-hot board
fields) and of a ReLU layer cost one comparison each and their weight rows are never
read.

**The hint.** With the header flag ``NET_HINT`` the network reads ``observation_size +
num_actions`` values: the observation of the player to move, then a one-hot of the move
the game's compiled heuristic would make there (:func:`boardsim.core.engine.network_input`
writes both). The network can then start from the heuristic and learn where to leave it.

**Values.** ``value_size`` is 1 (the observer's value, stable-baselines3's critic) or
the number of players, *rotated*: output ``k`` is the value of player
``(viewer + k) mod players``, so one network serves every seat. :func:`player_values`
turns either into a value per player.

This module holds the compiled kernels only (the engine's cache is keyed by the sources
it imports); :mod:`boardsim.core.network` is the Python side (:class:`Network`, building,
checking and saving layouts). Nothing here imports torch; the torch twins live in
:mod:`boardsim.training.networks`.
"""

from __future__ import annotations

import math

import numpy as np

from boardsim.core.jit import jit
from boardsim.core.rng import rng_next

NN_FORMAT = 2  # format 1: dense layers, rows of 8 (read: boardsim.core.network.upgrade_layout)
LAYOUT_WIDTH = 12

# header (row 0 of a layout)
H_FORMAT = 0
H_LAYERS = 1
H_POLICY_SLOT = 2
H_VALUE_SLOT = 3
H_VALUE_SIZE = 4
H_SLOTS = 5  # scratch rows needed (slot 0, the observation, included)
H_WIDTH = 6  # the widest layer
H_FLAGS = 7  # NET_PRUNE: the network plays over the search's pruned mask

# a layer row
L_SRC = 0
L_DST = 1
L_IN = 2
L_OUT = 3
L_W = 4
L_B = 5
L_ACT = 6
L_USE = 7
L_KIND = 8  # KIND_DENSE, KIND_CONV (reads cells) or KIND_CONV_PLANES (reads planes)
L_ROWS = 9  # a convolution's board: rows,
L_COLS = 10  # columns,
L_KERNEL = 11  # and its square kernel's side (odd; zero-padded to keep the board's size)

KIND_DENSE = 0
# a convolution over a board of L_ROWS x L_COLS cells: it reads ``n_in / cells`` channels
# and writes ``n_out / cells``, its output cell-major (``[row, column, channel]``, the
# channels of a cell side by side); KIND_CONV reads its input cell-major too (a slot a
# convolution wrote), KIND_CONV_PLANES reads it plane-major (``[channel, row, column]``,
# a game's observation of board planes)
KIND_CONV = 1
KIND_CONV_PLANES = 2
KINDS = {"dense": KIND_DENSE, "conv": KIND_CONV, "conv_planes": KIND_CONV_PLANES}

ACT_NONE = 0
ACT_RELU = 1
ACT_TANH = 2
ACT_ADD = 3  # linear, added to what an earlier layer wrote into ``dst`` (a skip connection)
ACTIVATIONS = {"none": ACT_NONE, "relu": ACT_RELU, "tanh": ACT_TANH, "add": ACT_ADD}

USE_POLICY = 1
USE_VALUE = 2
USE_BOTH = USE_POLICY | USE_VALUE

NET_PRUNE = 1  # flag: play over the mask the game's ``search_prune`` leaves
# flag: the input is the observation followed by the game's heuristic move, one-hot over
# the actions (``core/engine.py``, ``network_input``): a residual policy over the game's
# own knowledge, as in residual policy learning
NET_HINT = 2


# ---------------------------------------------------------------- compiled
@jit
def dense(weights, layout, row, x, y):
    """One layer: ``y = act(x @ W + b)`` (``ACT_ADD``: ``y += x @ W + b``), skipping the
    zeros of ``x``."""
    n_in = layout[row, L_IN]
    n_out = layout[row, L_OUT]
    w_off = layout[row, L_W]
    b_off = layout[row, L_B]
    kind = layout[row, L_ACT]
    # slices, indexed from 0 by range variables: no negative-index fix-up in the inner
    # loop, which LLVM then vectorizes
    bias = weights[b_off : b_off + n_out]
    if kind == ACT_ADD:
        for j in range(n_out):
            y[j] += bias[j]
    else:
        for j in range(n_out):
            y[j] = bias[j]
    for i in range(n_in):
        xi = x[i]
        if xi != 0.0:
            wrow = weights[w_off + i * n_out : w_off + (i + 1) * n_out]
            for j in range(n_out):
                y[j] += xi * wrow[j]
    if kind == ACT_RELU:
        for j in range(n_out):
            if y[j] < 0.0:
                y[j] = 0.0
    elif kind == ACT_TANH:
        for j in range(n_out):
            y[j] = np.tanh(y[j])


@jit
def conv(weights, layout, row, x, y):
    """One convolution (``L_KIND``): ``y = act(conv(x) + b)`` over the layer's board, its
    kernel zero-padded (the output has the input's cells), as torch's ``conv2d`` (a
    cross-correlation): output cell ``(r, c)`` sums ``x[r + kr - pad, c + kc - pad, i] *
    W[i, kr, kc, :]``. The weights are stored ``[in channel, kernel row, kernel column,
    out channel]``; a cell's output channels are summed side by side in ``acc`` (the
    innermost loop, vectorized) and the zeros of ``x`` skipped, as :func:`dense` does."""
    rows = layout[row, L_ROWS]
    cols = layout[row, L_COLS]
    k = layout[row, L_KERNEL]
    cells = rows * cols
    c_in = layout[row, L_IN] // cells
    c_out = layout[row, L_OUT] // cells
    pad = k // 2
    w_off = layout[row, L_W]
    b_off = layout[row, L_B]
    kind = layout[row, L_ACT]
    # where channel i of a cell is: planes ``[i, cell]``, else cell-major ``[cell, i]``
    cell_step, channel_step = (1, cells) if layout[row, L_KIND] == KIND_CONV_PLANES else (c_in, 1)
    bias = weights[b_off : b_off + c_out]
    acc = np.empty(c_out, np.float32)
    for orow in range(rows):
        for ocol in range(cols):
            for j in range(c_out):
                acc[j] = bias[j]
            for kr in range(k):
                r = orow + kr - pad
                if r < 0 or r >= rows:
                    continue
                for kc in range(k):
                    c = ocol + kc - pad
                    if c < 0 or c >= cols:
                        continue
                    at = (r * cols + c) * cell_step
                    for i in range(c_in):
                        xi = x[at + i * channel_step]
                        if xi == 0.0:
                            continue
                        w = w_off + ((i * k + kr) * k + kc) * c_out
                        wrow = weights[w : w + c_out]
                        for j in range(c_out):
                            acc[j] += xi * wrow[j]
            out = y[(orow * cols + ocol) * c_out : (orow * cols + ocol + 1) * c_out]
            if kind == ACT_ADD:
                for j in range(c_out):
                    out[j] += acc[j]
            elif kind == ACT_RELU:
                for j in range(c_out):
                    out[j] = acc[j] if acc[j] > 0.0 else 0.0
            elif kind == ACT_TANH:
                for j in range(c_out):
                    out[j] = np.tanh(acc[j])
            else:
                for j in range(c_out):
                    out[j] = acc[j]


@jit
def layer(weights, layout, row, x, y):
    """Layer ``row`` of a layout, dense or convolution (``L_KIND``)."""
    if layout[row, L_KIND] == KIND_DENSE:
        dense(weights, layout, row, x, y)
    else:
        conv(weights, layout, row, x, y)


@jit
def forward(weights, layout, base, obs, act, want):
    """Evaluate the network whose header is ``layout[base]`` on ``obs``, into ``act``.

    Only the layers some wanted output needs run (``want``: ``USE_POLICY``, ``USE_VALUE``
    or both). Logits: ``act[layout[base, H_POLICY_SLOT], :num_actions]``; value:
    ``act[layout[base, H_VALUE_SLOT], :value_size]``.
    """
    layers = layout[base, H_LAYERS]
    for k in range(layers):
        row = base + 1 + k
        if (layout[row, L_USE] & want) == 0:
            continue
        src = layout[row, L_SRC]
        if src == 0:
            layer(weights, layout, row, obs, act[layout[row, L_DST]])
        else:
            layer(weights, layout, row, act[src], act[layout[row, L_DST]])


@jit
def dense_legal(weights, layout, row, x, y, legal, n_legal):
    """:func:`dense` for the outputs ``legal[:n_legal]`` only (a policy layer: the logits
    of the legal actions); the other outputs are left as they were."""
    n_in = layout[row, L_IN]
    n_out = layout[row, L_OUT]
    w_off = layout[row, L_W]
    b_off = layout[row, L_B]
    if layout[row, L_ACT] == ACT_ADD:
        for k in range(n_legal):
            y[legal[k]] += weights[b_off + legal[k]]
    else:
        for k in range(n_legal):
            y[legal[k]] = weights[b_off + legal[k]]
    for i in range(n_in):
        xi = x[i]
        if xi != 0.0:
            w = w_off + i * n_out
            for k in range(n_legal):
                j = legal[k]
                y[j] += xi * weights[w + j]


@jit
def forward_legal(weights, layout, base, obs, act, want, mask):
    """:func:`forward`, with the policy's logits computed for the actions of ``mask`` only
    (the others are 0): a policy head costs its legal moves, not all the actions. Exactly
    :func:`forward`'s values on ``mask``."""
    policy_slot = layout[base, H_POLICY_SLOT]
    legal = np.empty(mask.shape[0], np.int64)
    n_legal = 0
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            legal[n_legal] = a
            n_legal += 1
    if want & USE_POLICY:
        logits = act[policy_slot]
        for a in range(mask.shape[0]):
            logits[a] = 0.0
    for k in range(layout[base, H_LAYERS]):
        row = base + 1 + k
        if (layout[row, L_USE] & want) == 0:
            continue
        src = layout[row, L_SRC]
        dst = layout[row, L_DST]
        legal_only = dst == policy_slot and layout[row, L_KIND] == KIND_DENSE
        if legal_only and src == 0:
            dense_legal(weights, layout, row, obs, act[dst], legal, n_legal)
        elif legal_only:
            dense_legal(weights, layout, row, act[src], act[dst], legal, n_legal)
        elif src == 0:
            layer(weights, layout, row, obs, act[dst])
        else:
            layer(weights, layout, row, act[src], act[dst])


@jit
def num_outputs(layout, base):
    """The policy's size (the actions), read from the layer writing the policy slot."""
    slot = layout[base, H_POLICY_SLOT]
    n = 0
    for k in range(layout[base, H_LAYERS]):
        row = base + 1 + k
        if layout[row, L_DST] == slot:
            n = layout[row, L_OUT]
    return n


@jit
def masked_log_softmax(logits, mask, out):
    """``out[a]``: log-probability of legal action ``a`` (``-inf`` where masked); returns
    how many are legal. float64 throughout."""
    best = -np.inf
    n = 0
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            n += 1
            if logits[a] > best:
                best = logits[a]
    total = 0.0
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            total += math.exp(logits[a] - best)
    log_total = best + math.log(total) if n > 0 else 0.0
    for a in range(mask.shape[0]):
        out[a] = logits[a] - log_total if mask[a] != 0 else -np.inf
    return n


@jit
def masked_softmax(logits, mask, out):
    """``out[a]``: the probability of legal action ``a`` (0 where masked); returns how many
    are legal."""
    n = masked_log_softmax(logits, mask, out)
    for a in range(mask.shape[0]):
        out[a] = math.exp(out[a]) if mask[a] != 0 else 0.0
    return n


@jit
def uniform01(prng):
    """A uniform number in the open interval (0, 1) from the two words of ``prng``."""
    return (rng_next(prng, 0) + 0.5) * (1.0 / 4294967296.0)


@jit
def pick(weights, mask, temperature, probs, prng):
    """An action of ``mask`` from the logits ``weights``: the most likely one
    (``temperature <= 0``; ties to the lower action), else drawn from
    ``softmax(weights / temperature)`` (``probs``: scratch). -1 when none is legal."""
    if temperature <= 0.0:
        best = -1
        for a in range(mask.shape[0]):
            if mask[a] != 0 and (best < 0 or weights[a] > weights[best]):
                best = a
        return best
    top = -np.inf
    for a in range(mask.shape[0]):
        if mask[a] != 0 and weights[a] > top:
            top = weights[a]
    total = 0.0
    last = -1
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            probs[a] = math.exp((weights[a] - top) / temperature)
            total += probs[a]
            last = a
    r = uniform01(prng) * total
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            r -= probs[a]
            if r < 0.0:
                return a
    return last


@jit
def player_values(act, layout, base, viewer, num_players, teams, out):
    """The network's value as one value a player (``out``), from ``viewer``'s evaluation.

    ``value_size == num_players``: rotated outputs (``k`` is player ``viewer + k``);
    ``value_size == 1``: the viewer's value, shared by his side (``teams``) and negated for
    every other player.
    """
    v = act[layout[base, H_VALUE_SLOT]]
    size = layout[base, H_VALUE_SIZE]
    if size >= num_players:
        for k in range(num_players):
            out[(viewer + k) % num_players] = v[k]
    else:
        for p in range(num_players):
            out[p] = v[0] if teams[p] == teams[viewer] else -v[0]


@jit
def policy_logits(act, layout, base):
    """The logits row of ``act`` after :func:`forward`."""
    return act[layout[base, H_POLICY_SLOT]]


@jit
def network_act(weights, layout, base, obs, mask, temperature, prng, act, probs):
    """The network's action for one observation and legal ``mask`` (:func:`pick`)."""
    forward_legal(weights, layout, base, obs, act, USE_POLICY, mask)
    return pick(policy_logits(act, layout, base), mask, temperature, probs, prng)


@jit
def network_act_batch(weights, layout, base, obs, masks, temperature, prng, act, probs, out):
    """:func:`network_act` for each row of ``obs`` / ``masks``, into ``out``."""
    for i in range(obs.shape[0]):
        out[i] = network_act(weights, layout, base, obs[i], masks[i], temperature, prng, act, probs)


@jit
def network_logits_batch(weights, layout, base, obs, act, out):
    """The policy's logits for each row of ``obs``, into ``out``."""
    n = out.shape[1]
    for i in range(obs.shape[0]):
        forward(weights, layout, base, obs[i], act, USE_POLICY)
        logits = policy_logits(act, layout, base)
        for a in range(n):
            out[i, a] = logits[a]

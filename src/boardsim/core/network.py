"""Compiled networks from Python: :class:`Network` (weights, layout, metadata), building
and checking layouts, files.

The layout and the kernels that read it are :mod:`boardsim.core.nn`; this module is what
Python code holds: a :class:`Network` evaluates one observation (:meth:`Network.evaluate`),
counts its multiply-adds, and saves to / loads from ``.npz`` files (no pickle: the
metadata is JSON); :func:`build_layout` lays out a list of :class:`LayerSpec` and
:func:`concatenate` joins several networks for one seat table.
"""

from __future__ import annotations

import io
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.core.errors import StateFormatError
from boardsim.core.nn import (
    ACTIVATIONS,
    H_FLAGS,
    H_FORMAT,
    H_LAYERS,
    H_POLICY_SLOT,
    H_SLOTS,
    H_VALUE_SIZE,
    H_VALUE_SLOT,
    H_WIDTH,
    KINDS,
    L_ACT,
    L_B,
    L_COLS,
    L_DST,
    L_IN,
    L_KERNEL,
    L_KIND,
    L_OUT,
    L_ROWS,
    L_SRC,
    L_USE,
    L_W,
    LAYOUT_WIDTH,
    NET_HINT,
    NET_PRUNE,
    NN_FORMAT,
    USE_BOTH,
    forward,
    num_outputs,
)
from boardsim.files import atomic_write_bytes


def new_scratch(layout: np.ndarray, base: int = 0) -> np.ndarray:
    """The ``act`` array :func:`forward` needs for the network at ``layout[base]``."""
    return np.zeros((int(layout[base, H_SLOTS]), int(layout[base, H_WIDTH])), np.float32)


@dataclass
class LayerSpec:
    """One layer of a network being built (see :func:`build_layout`): dense, or a
    convolution (``kind`` ``"conv"``, or ``"conv_planes"`` reading board planes) over a
    board of ``board`` = ``(rows, columns)`` cells with a square ``kernel``; ``n_in`` and
    ``n_out`` count every value (cells times channels)."""

    src: int
    dst: int
    n_in: int
    n_out: int
    activation: str = "none"
    use: int = USE_BOTH
    kind: str = "dense"
    board: tuple[int, int] = (0, 0)
    kernel: int = 0

    @property
    def channels(self) -> tuple[int, int]:
        """A convolution's ``(in, out)`` channels."""
        cells = self.board[0] * self.board[1]
        return self.n_in // cells, self.n_out // cells

    def sizes(self) -> tuple[int, int]:
        """``(weights, biases)`` the layer stores."""
        if self.kind == "dense":
            return self.n_in * self.n_out, self.n_out
        c_in, c_out = self.channels
        return c_in * self.kernel * self.kernel * c_out, c_out


def row_spec(row: np.ndarray) -> LayerSpec:
    """The :class:`LayerSpec` of a layout row."""
    kinds = {v: k for k, v in KINDS.items()}
    activations = {v: k for k, v in ACTIVATIONS.items()}
    return LayerSpec(
        int(row[L_SRC]),
        int(row[L_DST]),
        int(row[L_IN]),
        int(row[L_OUT]),
        activations.get(int(row[L_ACT]), "?"),
        int(row[L_USE]),
        kinds.get(int(row[L_KIND]), "?"),
        (int(row[L_ROWS]), int(row[L_COLS])),
        int(row[L_KERNEL]),
    )


def upgrade_layout(layout: np.ndarray) -> np.ndarray:
    """A format-1 layout (dense layers, rows of 8 values) in today's format: the same
    network, its rows padded with the dense kind."""
    old = np.asarray(layout, np.int32)
    if old.ndim != 2 or old.shape[1] != 8 or old.shape[0] < 1 or int(old[0, H_FORMAT]) != 1:
        raise ValueError(f"not a format-1 network layout: shape {old.shape}")
    new = np.zeros((old.shape[0], LAYOUT_WIDTH), np.int32)
    new[:, :8] = old
    new[0, H_FORMAT] = NN_FORMAT  # and every layer's kind 0: KIND_DENSE
    return new


@dataclass
class Network:
    """A compiled network: ``weights`` and ``layout`` (module docstring) and its metadata.

    ``meta`` says what it was made for (``game``, ``observation_size``, ``num_actions``,
    ``options``, ...) and how (``source``: ``"alphazero"``, ``"ppo"``; ``architecture``).
    """

    weights: np.ndarray
    layout: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.weights = np.ascontiguousarray(self.weights, np.float32).reshape(-1)
        self.layout = np.ascontiguousarray(self.layout, np.int32)
        check_layout(self.weights, self.layout)

    # sizes
    @property
    def input_size(self) -> int:
        """The values the network reads: the observation, and the hint when it has one."""
        return int(first_layer(self.layout)[L_IN])

    @property
    def observation_size(self) -> int:
        """The game's observation size the network was made for."""
        n = self.input_size
        return n - self.num_actions if self.hint else n

    @property
    def num_actions(self) -> int:
        return int(num_outputs(self.layout, 0))

    @property
    def value_size(self) -> int:
        return int(self.layout[0, H_VALUE_SIZE])

    @property
    def prune(self) -> bool:
        """Whether the network plays over the search's pruned mask (``NET_PRUNE``)."""
        return bool(self.layout[0, H_FLAGS] & NET_PRUNE)

    @property
    def hint(self) -> bool:
        """Whether the network reads the heuristic's move after the observation
        (``NET_HINT``): it then needs the game state to play, not only an observation."""
        return bool(self.layout[0, H_FLAGS] & NET_HINT)

    def multiply_adds(self, want: int = USE_BOTH, nonzero_inputs: int | None = None) -> int:
        """Multiply-adds of one evaluation (dense; with ``nonzero_inputs``, the first layers
        reading the observation count only that many inputs)."""
        total = 0
        for row in self.layout[1 : 1 + int(self.layout[0, H_LAYERS])]:
            if row[L_USE] & want:
                spec = row_spec(row)
                n_in = spec.n_in
                if row[L_SRC] == 0 and nonzero_inputs is not None:
                    n_in = min(n_in, nonzero_inputs)
                if spec.kind == "dense":
                    total += n_in * spec.n_out
                else:  # every input reaches kernel**2 cells of every output channel
                    total += n_in * spec.kernel**2 * spec.channels[1]
        return total

    # evaluation from Python (one compiled call)
    def evaluate(self, obs: np.ndarray, want: int = USE_BOTH) -> tuple[np.ndarray, np.ndarray]:
        """``(logits, value)`` for one input (copies): the observation, followed by the
        hint for a network that reads one (:attr:`input_size` values)."""
        act = new_scratch(self.layout)
        x = np.ascontiguousarray(obs, np.float32).reshape(-1)
        if x.shape[0] != self.input_size:
            raise ValueError(f"the network reads {self.input_size} values, got {x.shape[0]}")
        forward(self.weights, self.layout, 0, x, act, want)
        logits = act[int(self.layout[0, H_POLICY_SLOT]), : self.num_actions].copy()
        value = act[int(self.layout[0, H_VALUE_SLOT]), : self.value_size].copy()
        return logits, value

    # files
    def to_bytes(self) -> bytes:
        """The network as ``.npz`` bytes (format, weights, layout, JSON metadata)."""
        buffer = io.BytesIO()
        meta = json.dumps(self.meta, sort_keys=True).encode()
        np.savez(
            buffer,
            format=np.array([NN_FORMAT], np.int32),
            weights=self.weights,
            layout=self.layout,
            meta=np.frombuffer(meta, np.uint8),
        )
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, where: str = "network") -> Network:
        """The network of :meth:`to_bytes`'s bytes; :class:`StateFormatError` if they are
        not one (``where`` names them in the message)."""
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                fmt = int(z["format"][0])
                if fmt not in (1, NN_FORMAT):
                    raise StateFormatError(f"{where}: network format {fmt}, expected {NN_FORMAT}")
                meta = json.loads(bytes(z["meta"]).decode()) if "meta" in z.files else {}
                layout = z["layout"] if fmt == NN_FORMAT else upgrade_layout(z["layout"])
                return cls(z["weights"], layout, meta)
        except (OSError, ValueError, KeyError) as exc:
            raise StateFormatError(f"{where} is not a boardsim network: {exc}") from None

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the network to ``path`` (``.npz``) atomically."""
        atomic_write_bytes(path, self.to_bytes())
        return Path(path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Network:
        """The network saved at ``path``."""
        return cls.from_bytes(Path(path).read_bytes(), where=str(path))


def first_layer(layout: np.ndarray) -> np.ndarray:
    """The first layer row reading the observation (slot 0)."""
    for row in layout[1 : 1 + int(layout[0, H_LAYERS])]:
        if row[L_SRC] == 0:
            return row
    raise ValueError("the network reads no observation")


def build_layout(
    layers: list[LayerSpec],
    policy_slot: int,
    value_slot: int,
    prune: bool = False,
    hint: bool = False,
) -> tuple[np.ndarray, int]:
    """The layout of ``layers`` (weights laid out one layer after the other, each layer's
    ``[n_in, n_out]`` weights then its biases); returns ``(layout, weight count)``.
    ``prune`` and ``hint`` set the header's flags ``NET_PRUNE`` and ``NET_HINT``."""
    rows = np.zeros((1 + len(layers), LAYOUT_WIDTH), np.int32)
    offset = 0
    slots = 1
    width = 1
    value_size = 0
    for k, spec in enumerate(layers):
        if spec.activation not in ACTIVATIONS:
            raise ValueError(f"activation {spec.activation!r}: choose {', '.join(ACTIVATIONS)}")
        if spec.kind not in KINDS:
            raise ValueError(f"layer kind {spec.kind!r}: choose {', '.join(KINDS)}")
        n_weights, n_biases = spec.sizes()
        row = rows[1 + k]
        row[:] = (
            spec.src,
            spec.dst,
            spec.n_in,
            spec.n_out,
            offset,
            offset + n_weights,
            ACTIVATIONS[spec.activation],
            spec.use,
            KINDS[spec.kind],
            spec.board[0],
            spec.board[1],
            spec.kernel,
        )
        offset += n_weights + n_biases
        slots = max(slots, spec.dst + 1, spec.src + 1)
        width = max(width, spec.n_out)
        if spec.dst == value_slot:
            value_size = spec.n_out
    rows[0, :8] = (
        NN_FORMAT,
        len(layers),
        policy_slot,
        value_slot,
        value_size,
        slots,
        width,
        (NET_PRUNE if prune else 0) | (NET_HINT if hint else 0),
    )
    return rows, offset


def check_layout(weights: np.ndarray, layout: np.ndarray) -> None:
    """Refuse a layout the compiled code would read out of bounds, saying why."""
    if layout.ndim != 2 or layout.shape[1] != LAYOUT_WIDTH or layout.shape[0] < 2:
        raise ValueError(f"a network layout is [1 + layers, {LAYOUT_WIDTH}], got {layout.shape}")
    head = layout[0]
    if int(head[H_FORMAT]) != NN_FORMAT:
        raise ValueError(f"network format {head[H_FORMAT]}, expected {NN_FORMAT}")
    layers, slots, width = int(head[H_LAYERS]), int(head[H_SLOTS]), int(head[H_WIDTH])
    if layout.shape[0] != 1 + layers:
        raise ValueError(f"the header says {layers} layers, the layout has {layout.shape[0] - 1}")
    sizes = {0: None}  # the width written into each slot so far
    for k, row in enumerate(layout[1:]):
        src, dst, n_in, n_out, w, b = (int(x) for x in row[:6])
        if not (0 <= src < slots and 1 <= dst < slots and n_in >= 1 and 1 <= n_out <= width):
            raise ValueError(f"layer {k}: slots or sizes out of range: {row.tolist()}")
        if src != 0 and sizes.get(src) is None:
            raise ValueError(f"layer {k} reads slot {src} before any layer writes it")
        if src != 0 and sizes[src] != n_in:
            raise ValueError(f"layer {k} reads {n_in} values of a slot holding {sizes[src]}")
        spec = row_spec(row)
        if spec.kind == "?":
            raise ValueError(f"layer {k}: unknown kind {row[L_KIND]}")
        if spec.kind != "dense":
            _check_board(k, spec)
        n_weights, n_biases = spec.sizes()
        if w < 0 or b < w + n_weights or b + n_biases > weights.shape[0]:
            raise ValueError(f"layer {k}: weights out of range ({weights.shape[0]} weights)")
        if int(row[L_ACT]) not in ACTIVATIONS.values():
            raise ValueError(f"layer {k}: unknown activation {row[L_ACT]}")
        if int(row[L_ACT]) == ACTIVATIONS["add"] and sizes.get(dst) != n_out:
            raise ValueError(f"layer {k} adds {n_out} values to slot {dst} before it holds them")
        sizes[dst] = n_out
    for name, slot in (("policy", int(head[H_POLICY_SLOT])), ("value", int(head[H_VALUE_SLOT]))):
        if sizes.get(slot) is None:
            raise ValueError(f"no layer writes the {name} slot {slot}")
    if int(head[H_VALUE_SIZE]) != sizes[int(head[H_VALUE_SLOT])]:
        raise ValueError("the header's value size is not the value layer's")


def _check_board(k: int, spec: LayerSpec) -> None:
    """Refuse a convolution whose board, kernel or channels do not fit its sizes."""
    rows, cols = spec.board
    if rows < 1 or cols < 1 or spec.kernel < 1 or spec.kernel % 2 == 0:
        raise ValueError(
            f"layer {k}: a convolution needs a board of at least 1x1 and an odd kernel, got "
            f"{rows}x{cols}, kernel {spec.kernel}"
        )
    cells = rows * cols
    if spec.n_in % cells or spec.n_out % cells:
        raise ValueError(
            f"layer {k}: {spec.n_in} inputs and {spec.n_out} outputs are not whole channels "
            f"of a {rows}x{cols} board"
        )


def concatenate(networks: list[Network]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Several networks as one ``(weights, layout)`` pair and each one's header row."""
    weights: list[np.ndarray] = []
    layouts: list[np.ndarray] = []
    bases: list[int] = []
    offset = 0
    row = 0
    for net in networks:
        lay = net.layout.copy()
        lay[1:, L_W] += offset
        lay[1:, L_B] += offset
        bases.append(row)
        layouts.append(lay)
        weights.append(net.weights)
        offset += net.weights.shape[0]
        row += lay.shape[0]
    if not networks:
        return np.zeros(0, np.float32), np.zeros((0, LAYOUT_WIDTH), np.int32), []
    return np.concatenate(weights), np.concatenate(layouts), bases

"""``benchmarks/networks.py``'s BLAS bound reads a dense network's matrices, and refuses a
convolutional one rather than reading its kernels as if they were a matrix."""

from __future__ import annotations

import pytest

from tests.agents.test_conv_networks import conv_network
from tests.benchmarks.scripts import load_script


def test_the_blas_bound_measures_a_dense_network_and_refuses_a_convolutional_one() -> None:
    networks = load_script("networks")
    dense = conv_network(conv=(), hidden=(16,)).export()
    bounds = networks.blas_bounds(dense, seconds=0.06)
    assert bounds["blas_batch1_macs_per_second"] > 0
    assert bounds["blas_batch4096_macs_per_second"] > 0
    with pytest.raises(ValueError, match="dense layers only"):
        networks.blas_bounds(conv_network().export(), seconds=0.06)

"""numba's on-disk cache shared by processes that compile side by side
(:mod:`boardsim.core.numba_cache`): no overload is lost, and no overload is ever loaded for
a signature it was not compiled for."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

MODULE = """
import numba

@numba.njit(cache=True)
def bump(x):
    return x + 1
"""

CALL = """
import os, sys, time, boardsim.core.jit  # installs the guard, as every boardsim process does
import numpy as np, kernel
if os.environ.get("SLOW_INDEX"):  # a wide window between reading the index and writing it
    from numba.core import caching
    write = caching.IndexDataCacheFile._save_index
    def slow(self, overloads):
        time.sleep(0.3)
        write(self, overloads)
    caching.IndexDataCacheFile._save_index = slow
kinds = {"i8": np.int64, "i4": np.int32, "i2": np.int16, "u4": np.uint32, "u8": np.uint64,
         "f8": np.float64, "f4": np.float32, "i1": np.int8, "u2": np.uint16, "u1": np.uint8}
for name in sys.argv[1:]:
    value = kinds[name](1)
    got = kernel.bump(value)
    print(name, type(got).__name__, int(got), flush=True)
hits = sum(kernel.bump.stats.cache_hits.values())
misses = sum(kernel.bump.stats.cache_misses.values())
print("hits", hits, "misses", misses)
"""


def _env(tmp_path: Path) -> dict[str, str]:
    return dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(tmp_path / "mod"), os.environ.get("PYTHONPATH", "")]),
        NUMBA_CACHE_DIR=str(tmp_path / "cache"),
    )


def _module(tmp_path: Path) -> None:
    (tmp_path / "mod").mkdir()
    (tmp_path / "mod" / "kernel.py").write_text(MODULE)


def _run(env: dict[str, str], *kinds: str) -> dict[str, tuple[str, ...]]:
    out = subprocess.run(
        [sys.executable, "-c", CALL, *kinds], env=env, capture_output=True, text=True, check=True
    ).stdout
    return {line.split()[0]: tuple(line.split()[1:]) for line in out.splitlines()}


def test_processes_compiling_overloads_side_by_side_lose_none(tmp_path: Path) -> None:
    """Five processes each compile two overloads of one function at once, each save slowed
    down so that they overlap; afterwards a sixth loads all ten from the cache (unlocked,
    numba's index kept two or three)."""
    _module(tmp_path)
    env = _env(tmp_path)
    slow = {**env, "SLOW_INDEX": "1"}
    pairs = [("i8", "f8"), ("i4", "f4"), ("i2", "u4"), ("u8", "i1"), ("u2", "u1")]
    procs = [
        subprocess.Popen([sys.executable, "-c", CALL, *p], env=slow, stdout=subprocess.DEVNULL)
        for p in pairs
    ]
    assert [p.wait(timeout=600) for p in procs] == [0] * len(procs)
    kinds = [k for p in pairs for k in p]
    found = _run(env, *kinds)
    assert found["hits"] == ("10", "misses", "0")
    for kind in kinds:
        assert found[kind][1] == "2"
        assert found[kind][0] == ("float" if kind[0] == "f" else "int")


def test_an_overload_filed_under_another_signature_is_never_loaded(tmp_path: Path) -> None:
    """The index made to point each signature at the other's compiled code (what two
    processes saving at once could leave behind): each call still runs the code of its own
    signature (compiled anew), never the other's."""
    _module(tmp_path)
    env = _env(tmp_path)
    first = _run(env, "i8", "f8")
    assert first["i8"] == ("int", "2") and first["f8"] == ("float", "2")
    [index] = list((tmp_path / "cache").rglob("kernel.bump-*.nbi"))
    raw = index.read_bytes()
    version = pickle.loads(raw)
    body = raw[len(pickle.dumps(version, protocol=-1)) :]
    stamp, overloads = pickle.loads(body)
    keys = list(overloads)
    assert len(keys) == 2
    swapped = {keys[0]: overloads[keys[1]], keys[1]: overloads[keys[0]]}
    index.write_bytes(pickle.dumps(version, protocol=-1) + pickle.dumps((stamp, swapped)))
    found = _run(env, "i8", "f8")
    assert found["i8"] == ("int", "2") and found["f8"] == ("float", "2")
    assert found["hits"] == ("0", "misses", "2")  # both refused and compiled again

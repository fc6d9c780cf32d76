"""Watching numba compile: which functions it compiles (cache misses), and a notice as a
long first compile starts.

Below the build step (:mod:`boardsim.build`, which reports what each part compiled), the
trainers and the commands (a notice before a first run's silence) and the test suite (its
report of what it compiled), so that each of them reads it from one floor down.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from numba.core import event


def listen_compiles(
    on_compiled: Callable[[str, float], None],
    on_start: Callable[[], None] | None = None,
) -> Callable[[], None]:
    """Call ``on_compiled(name, seconds)`` for every function numba compiles from now on
    (a cache miss, at the top level: the callees compiled on its way count in its seconds;
    loads from the cache are not compilations), from any thread, and ``on_start()`` when
    such a top-level compilation begins. Returns the function that stops listening. The
    test suite's report of what it compiled uses it too."""
    local = threading.local()

    class _Listener(event.Listener):
        def on_start(self, e: Any) -> None:
            stack = getattr(local, "stack", None)
            if stack is None:
                stack = local.stack = []
            if not stack and on_start is not None:
                on_start()
            stack.append(time.perf_counter())

        def on_end(self, e: Any) -> None:
            started = local.stack.pop()
            if local.stack:
                return
            py = getattr((e.data or {}).get("dispatcher"), "py_func", None)
            name = f"{getattr(py, '__module__', '?')}.{getattr(py, '__qualname__', '?')}"
            on_compiled(name, time.perf_counter() - started)

    listener = _Listener()
    event.register("numba:compile", listener)
    return lambda: event.unregister("numba:compile", listener)


@contextmanager
def compiling_notice(say: Callable[[str], None], what: str) -> Iterator[None]:
    """Within the block, ``say("compiling WHAT (first run only) ...")`` once, as numba
    starts compiling (a cache miss); nothing when every function loads from the cache.
    For the first run's long silences: ``train --algo alphazero``'s first iteration,
    ``play``'s first move."""
    said = threading.Event()

    def started() -> None:
        if not said.is_set():
            said.set()
            say(f"compiling {what} (first run only) ...")

    stop = listen_compiles(lambda name, seconds: None, started)
    try:
        yield
    finally:
        stop()


@contextmanager
def counting_compiles() -> Iterator[list[tuple[str, float]]]:
    """Within the block, the functions numba compiles (name, seconds), as they happen."""
    found: list[tuple[str, float]] = []
    stop = listen_compiles(lambda name, seconds: found.append((name, seconds)))
    try:
        yield found
    finally:
        stop()

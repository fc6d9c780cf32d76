"""The suite's shared set-up: tiers, worker groups and a report of what numba compiled.

- **Tiers** (registered in ``pyproject.toml``): ``slow`` (strength and long-game tests) and
  ``subprocess`` (tests that start other programs: installs, cold probes, the site build,
  notebooks, Ray, the browser). ``pytest -m "not slow and not subprocess"`` is the
  development loop; CI runs everything (``scripts/test.sh``).
- **Worker groups** for ``pytest-xdist --dist loadgroup``: the tests of one game's folder,
  and the tests parametrized with that game, go to one worker, which then loads that
  game's engine only; tests that share something
  that cannot be shared side by side (a Ray cluster) share a group, so they run one at a
  time on one worker.
- **What numba compiled** during the tests: ``scripts/test.sh`` compiles every game's
  entry points first (``boardsim compile``), so a test should only load from numba's
  cache; the terminal summary lists the tests that compiled anyway (the build step misses
  what they call), with the seconds it cost.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent
GAME_FOLDERS = ("liberation", "hispania", "farrapos")
# tests that need the one Ray cluster of this machine to themselves (group: "ray")
RAY_FILES = (
    "research/test_ray.py",
    "research/test_ray_address.py",
    "training/test_rllib.py",
    "training/test_selfplay_ray.py",
)


def worker_group(item: pytest.Item) -> str | None:
    """The xdist group of a test: ``ray``, its game's folder, the game it is parametrized
    with (a parameter ``game``), or none (any worker)."""
    rel = Path(str(item.fspath)).resolve().relative_to(TESTS).as_posix()
    if rel in RAY_FILES:
        return "ray"
    top = rel.split("/")[0]
    if top in GAME_FOLDERS:
        return top
    params = getattr(getattr(item, "callspec", None), "params", {})
    game = params.get("game")
    return game if isinstance(game, str) and game in GAME_FOLDERS else None


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    """A local Ray of 2 CPUs on 127.0.0.1 for a module's tests, stopped after them (its
    files are in :data:`RAY_FILES`, so one module's Ray runs at a time)."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        group = worker_group(item)
        if group is not None and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(group))


# ------------------------------------------------------------------ numba's compilations
_compiled: dict[str, list[tuple[str, float]]] = {}
_current = {"test": "(collection)"}


def _record(name: str, seconds: float) -> None:
    _compiled.setdefault(_current["test"], []).append((name, seconds))


def pytest_configure(config: pytest.Config) -> None:
    from boardsim.core.compiles import listen_compiles

    listen_compiles(_record)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    _current["test"] = item.nodeid
    yield
    _current["test"] = "(between tests)"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    outcome = yield
    if call.when == "teardown":
        found = _compiled.pop(item.nodeid, [])
        if found:
            report = outcome.get_result()
            text = "\n".join(f"{s:7.1f} s  {name}" for name, s in found)
            report.sections.append(("numba compiled", text))
            report.user_properties.append(("numba_compiled", [list(f) for f in found]))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    rows = []
    for reports in terminalreporter.stats.values():
        for report in reports:
            for name, value in getattr(report, "user_properties", []):
                if name == "numba_compiled":
                    rows.append((sum(s for _, s in value), report.nodeid, value))
    if not rows:
        return
    rows.sort(reverse=True)
    total = sum(r[0] for r in rows)
    terminalreporter.section("numba compiled during the tests")
    terminalreporter.write_line(
        f"{len(rows)} tests compiled numba code, {total:.0f} s in all (boardsim compile, run "
        "first by scripts/test.sh, does not reach what they call); the largest:"
    )
    for seconds, nodeid, found in rows[:15]:
        names = ", ".join(sorted({n.rsplit(".", 1)[-1] for n, _ in found}))
        terminalreporter.write_line(f"{seconds:7.1f} s  {nodeid}  ({names})")

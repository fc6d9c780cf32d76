"""The research board checker, run on the very data the library loads, plus loader tests."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from boardsim.core.errors import DataError
from boardsim.games.hispania import data as hd

from . import board_check as bc


def _run_checker(raw: dict[str, Any]) -> list[tuple[str, bool, str]]:
    bc.results.clear()
    b = bc.Board(raw)
    bc.check_structure(b)
    bc.check_provenance(b)
    bc.check_positions(b)
    bc.check_links(b)
    bc.check_geography(b)
    bc.check_connectivity(b)
    roads0 = bc.check_roads(b)
    bc.check_setup_example(b, roads0)
    bc.check_scenarios(b, roads0)
    bc.check_lethe(b)
    bc.check_time_track(b)
    out = list(bc.results)
    bc.results.clear()
    return out


RESULTS = _run_checker(hd.BOARD.raw)


def test_checker_has_all_57_constraints() -> None:
    assert len(RESULTS) == 57


@pytest.mark.parametrize("name,ok,detail", RESULTS, ids=[r[0][:60] for r in RESULTS])
def test_board_constraint(name: str, ok: bool, detail: str) -> None:
    assert ok, f"{name}: {detail}"


def test_loaded_arrays_match_the_checker_graph() -> None:
    b = bc.Board(hd.BOARD.raw)
    names = hd.SPACE_NAMES
    for s in range(hd.NUM_SPACES):
        got = {names[t] for t in hd.NEIGHBOURS[s, : hd.DEGREE[s]]}
        assert got == b.adj[names[s]], names[s]
    for li in range(hd.NUM_LINKS):
        ln = b.link_by_pair[frozenset((names[hd.LINK_A[li]], names[hd.LINK_B[li]]))]
        assert ln["segments"] == hd.LINK_SEGMENTS[li]
        assert (ln["kind"] == "sea") == bool(hd.LINK_SEA[li])
    roads = {frozenset((r["a"], r["b"])) for r in hd.BOARD.raw["roads"]}
    got = {
        frozenset((names[hd.LINK_A[li]], names[hd.LINK_B[li]]))
        for li in range(hd.NUM_LINKS)
        if hd.INITIAL_ROADS[li]
    }
    assert got == roads


def test_space_order_follows_coordinates() -> None:
    assert hd.SPACE_NAMES[0 * 6 + 5 - 1] == "Ilerda"  # I-5
    assert hd.SPACE_NAMES[5 * 6 + 6 - 1] == "Flaviobriga"  # VI-6
    for p in range(6):
        for n in range(1, 7):
            c = p * 6 + n - 1
            assert hd.CITY_PROVINCE[c] == p and hd.CITY_NUMBER[c] == n == hd.CITY_SHIELD[c]
            assert hd.CITY_CAPITAL[c] == (n == 6)
    assert list(hd.CITY_PROVINCE[36:40]) == [6] * 4 and list(hd.CITY_PROVINCE[40:44]) == [7] * 4
    assert hd.SPACE_NAMES[44:] == (
        "Mare Balearicum",
        "Mare Ibericum",
        "Fretum Gaditanum",
        "Mare Atlanticum",
        "Mare Cantabricum",
    )
    assert np.array_equal(hd.TIME_TRACK_YEARS, np.arange(198, 0, -18))
    assert hd.SPACE_NAMES[hd.PLUS_ONE_CITY[0]] == "Corduba"
    assert hd.SPACE_NAMES[hd.PLUS_ONE_CITY[1]] == "Tarraco"


def test_provenance_tags_kept() -> None:
    for c in hd.BOARD.raw["cities"]:
        for g in ("province", "number", "shield", "geo", "coast", "board"):
            assert c[g + "_src"] in hd.TAGS
    assert set(hd.BOARD.link_src) <= set(hd.TAGS)


def _broken(path: list[Any], value: Any) -> dict[str, Any]:
    raw = copy.deepcopy(hd.BOARD.raw)
    node: Any = raw
    for k in path[:-1]:
        node = node[k]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return raw


@pytest.mark.parametrize(
    "path,value,needle",
    [
        (["cities", 0, "province"], "Narnia", "unknown province"),
        (["cities", 8, "shield"], 5, "shield"),
        (["cities", 8, "capital"], True, "capital"),
        (["cities", 0, "province_src"], "guess", "provenance"),
        (["links", 0, "segments"], 4, "segments"),
        (["links", 0, "b"], "Atlantis", "unknown space"),
        (["plus_one", "Ulterior"], "Tarraco", "+1"),
        (["time_track", "years_bc"], [198, 180], "years"),
        (["cities", 3, "name"], KeyError, "missing field 'name'"),
    ],
)
def test_malformed_board_raises_data_error(path: list[Any], value: Any, needle: str) -> None:
    with pytest.raises(DataError) as info:
        hd.parse_board(_broken(path, value), "board.toml")
    assert needle in str(info.value)
    assert info.value.file == "board.toml"


def test_malformed_rules_and_scenarios() -> None:
    from boardsim.core.data import data_path, load_toml

    raw = load_toml(data_path("hispania", hd.RULES_FILE))
    bad = copy.deepcopy(raw)
    bad["difficulty"]["denarii"] = [7, 6]
    with pytest.raises(DataError, match="three counts"):
        hd.parse_rules(bad)
    sc = load_toml(data_path("hispania", hd.SCENARIOS_FILE))
    bad = copy.deepcopy(sc)
    bad["scenario"][0]["pieces"][0]["city"] = "Atlantis"
    with pytest.raises(DataError, match="unknown city"):
        hd.parse_scenarios(bad, hd.BOARD)
    assert set(hd.SCENARIOS) == {
        "first_repression",
        "numantia",
        "terror",
        "river_of_oblivion",
        "new_empire",
    }


def test_missing_file_is_data_error(tmp_path: Any) -> None:
    from boardsim.core.data import load_toml

    with pytest.raises(DataError, match="not found"):
        load_toml(tmp_path / "board.toml")

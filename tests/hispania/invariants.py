"""Invariants of a Hispania state, checked after every step of random games."""

from __future__ import annotations

import numpy as np

from boardsim.games.hispania import data as hd
from boardsim.games.hispania import layout as hl


def check_invariants(a: np.ndarray, params: np.ndarray) -> None:
    """Raise AssertionError naming the broken invariant."""
    rev = a[hl.REVOLTS : hl.REVOLTS + hd.NUM_SPACES]
    garr = a[hl.GARR : hl.GARR + hd.NUM_CITIES * 3].reshape(hd.NUM_CITIES, 3)
    armies = [int(x) for x in a[hl.ARMY_POS : hl.ARMY_POS + hl.NUM_ARMY_SLOTS]]
    gens = [int(x) for x in a[hl.GEN_POS : hl.GEN_POS + hl.NUM_GENERALS]]
    fleets = a[hl.FLEET : hl.FLEET + hd.NUM_SEAS]
    # the 22 revolts: board + reserve + time track
    assert int(rev.sum()) + int(a[hl.RESERVE]) + int(a[hl.TRACK]) == hd.TOTAL_REVOLTS
    assert int(a[hl.RESERVE]) >= 0 and 0 <= int(a[hl.TRACK]) <= hd.TRACK_SPACES
    for c in range(hd.NUM_CITIES):
        n_garr = int((garr[c] != 0).sum())
        # stacks are packed bottom first
        assert list(garr[c]) == sorted(garr[c], key=lambda x: x == 0), (c, garr[c])
        assert n_garr + int(rev[c]) <= 3, f"{hd.SPACE_NAMES[c]}: more than 3 discs"
        assert not (n_garr and rev[c]), f"{hd.SPACE_NAMES[c]}: garrison on a revolt"
        meeples = sum(1 for x in armies if x == c) + sum(1 for x in gens if x == c)
        shared = int(a[hl.PHASE]) == hl.PH_ROMAN and gens[int(a[hl.TURN])] == c
        assert meeples <= (2 if shared else 1), f"{hd.SPACE_NAMES[c]}: {meeples} meeples"
    # garrisons within each general's supply
    level_g = int(params[hl.P_GARRISONS])
    for g in range(3):
        on_board = int((garr == g + 1).sum())
        assert on_board + int(a[hl.GARR_RESERVE + g]) == level_g, f"general {g} supply"
        assert int(a[hl.GARR_RESERVE + g]) >= 0
    # the Legio Hispana disc: on the board exactly when no reserve holds it
    legio_on = int((garr == hl.LEGIO_COLOUR).sum())
    owner = int(a[hl.LEGIO_OWNER])
    if params[hl.P_LEGIO]:
        assert legio_on == (1 if owner == -1 else 0) and owner in (-1, 0, 1, 2)
    else:
        assert legio_on == 0 and owner == hl.GONE
    assert not (garr == 4).any(), "the proconsul has no garrisons"
    # armies always on revolt, one per province
    provs = [int(hd.CITY_PROVINCE[c]) for c in armies if c >= 0]
    assert len(provs) == len(set(provs)), "two armies in a province"
    for c in armies:
        if c >= 0:
            assert c < hd.NUM_CITIES and rev[c] > 0, f"army off a revolt at {c}"
    # generals never on revolt; at sea only on a fleet; one a space
    on = [s for s in gens if s >= 0]
    if len(on) != len(set(on)):
        # only a general just back on an occupied space, before his first (forced) move
        turn = int(a[hl.TURN])
        assert int(a[hl.PHASE]) == hl.PH_ROMAN and on.count(gens[turn]) == 2, "two generals"
        on = [s for i, s in enumerate(gens) if s >= 0 and i != turn]
    for s in on:
        if s >= hd.FIRST_SEA:
            assert fleets[s - hd.FIRST_SEA] == 1, "general at sea without a fleet"
        else:
            assert rev[s] == 0, f"general on a revolt at {hd.SPACE_NAMES[s]}"
    assert int(fleets.sum()) == int(params[hl.P_FLEETS])
    for s in range(hd.NUM_SEAS):
        assert not (fleets[s] and rev[hd.FIRST_SEA + s]), "fleet on a pirate sea"
    assert 0 <= int(a[hl.DENARII]) <= 7
    # roads: the pre-drawn ones, plus placed and kept ones within the level's count
    placed = int(a[hl.ROADS : hl.ROADS + hd.NUM_LINKS].sum()) - int(hd.INITIAL_ROADS.sum())
    assert int(a[hl.HELD_ROADS]) >= 0
    assert placed + int(a[hl.HELD_ROADS]) <= int(params[hl.P_ROADS])
    assert all(a[hl.ROADS + li] for li in range(hd.NUM_LINKS) if hd.INITIAL_ROADS[li])

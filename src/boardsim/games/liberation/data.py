"""The liberation race's data: the 41-space track and the deck, from ``envs/liberation``.

Everything is validated on load and turned into UPPER_CASE numpy constants that
the compiled rules freeze in. Spaces are 0-based here (space 1 of the rulebook is
index 0). A card *kind* is one (type, force) pair: the deck is a count per kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.core.data import data_path, load_toml, require
from boardsim.core.errors import DataError

FILE = "liberation.toml"
LIBERATION_TYPES = ("Simon Bolivar", "Leader", "Troops", "Battle", "Ideals")
FORCE_MIN, FORCE_MAX = 1, 8


@dataclass(frozen=True)
class LiberationData:
    """The validated contents of the data file."""

    num_spaces: int
    start_space: int  # 0-based
    revolution_spaces: np.ndarray  # 0-based space of each revolution space, track order
    country_names: tuple[str, ...]
    country_first: np.ndarray  # 0-based first space of each country
    country_length: np.ndarray
    space_country: np.ndarray  # country of each space, -1 on a revolution space
    space_revolution: np.ndarray  # revolution index of each space, -1 on a country space
    country_spaces: np.ndarray  # 0-based space of each country space, track order
    space_cspace: np.ndarray  # index into country_spaces, -1 on a revolution space
    type_names: tuple[str, ...]
    kind_type: np.ndarray  # card type of each kind
    kind_force: np.ndarray
    kind_royalist: np.ndarray  # 1 for a Royalist kind
    kind_count: np.ndarray  # cards of each kind in the deck
    min_players: int
    max_players: int
    starting_hand: int
    hand_limit: int
    counters_per_player: int
    closing_card_vt: int
    place_vt: np.ndarray  # VT for the 1st, 2nd, ... highest total in a country
    other_vt: int


def _fail(file: str, entry: str, reason: str) -> DataError:
    return DataError(file, entry, reason)


def _track(raw: dict[str, Any], file: str) -> tuple[Any, ...]:
    track = require(raw, "track", dict, file, "[track]")
    n = require(track, "spaces", int, file, "[track]")
    start = require(track, "start_space", int, file, "[track]")
    revs = require(track, "revolution_spaces", list, file, "[track]")
    countries = require(raw, "country", list, file, "[[country]]")
    if not 1 <= start <= n:
        raise _fail(file, "[track] start_space", f"{start} is not a space of 1..{n}")
    space_country = np.full(n, -1, np.int32)
    space_rev = np.full(n, -1, np.int32)
    for i, s in enumerate(revs):
        if not isinstance(s, int) or not 1 <= s <= n:
            raise _fail(file, "[track] revolution_spaces", f"{s!r} is not a space of 1..{n}")
        if space_rev[s - 1] >= 0:
            raise _fail(file, "[track] revolution_spaces", f"space {s} listed twice")
        space_rev[s - 1] = i
    names, firsts, lengths = [], [], []
    for c, entry in enumerate(countries):
        name = require(entry, "name", str, file, f"[[country]] #{c + 1}")
        where = f"[[country]] {name}"
        first = require(entry, "first", int, file, where)
        last = require(entry, "last", int, file, where)
        length = require(entry, "length", int, file, where)
        if not 1 <= first <= last <= n or last - first + 1 != length:
            raise _fail(file, where, f"spaces {first}-{last} do not make length {length}")
        if length not in (3, 4, 5):
            raise _fail(file, where, f"length {length}; the rulebook allows 3, 4 or 5")
        for s in range(first, last + 1):
            if space_rev[s - 1] >= 0 or space_country[s - 1] >= 0:
                raise _fail(file, where, f"space {s} already belongs to another entry")
            space_country[s - 1] = c
        names.append(name)
        firsts.append(first - 1)
        lengths.append(length)
    uncovered = [s + 1 for s in range(n) if space_country[s] < 0 and space_rev[s] < 0]
    if uncovered:
        raise _fail(file, "[track]", f"spaces {uncovered} are neither country nor revolution")
    # every pair of countries is separated by one revolution space (circular track)
    for s in range(n):
        nxt = (s + 1) % n
        c, d = space_country[s], space_country[nxt]
        if c >= 0 and d >= 0 and c != d:
            raise _fail(
                file, "[track]", f"countries meet at spaces {s + 1}-{nxt + 1} with no revolution"
            )
    if space_rev[start - 1] < 0:
        raise _fail(file, "[track] start_space", "the pawns start on a revolution space")
    cspaces = np.flatnonzero(space_country >= 0).astype(np.int32)
    space_cspace = np.full(n, -1, np.int32)
    space_cspace[cspaces] = np.arange(len(cspaces), dtype=np.int32)
    return (
        n,
        start - 1,
        np.asarray([s - 1 for s in revs], np.int32),
        tuple(names),
        np.asarray(firsts, np.int32),
        np.asarray(lengths, np.int32),
        space_country,
        space_rev,
        cspaces,
        space_cspace,
    )


def _deck(raw: dict[str, Any], file: str) -> tuple[Any, ...]:
    types = require(raw, "card_type", list, file, "[[card_type]]")
    type_names: list[str] = []
    ktype, kforce, kroyal, kcount = [], [], [], []
    for t, entry in enumerate(types):
        name = require(entry, "name", str, file, f"[[card_type]] #{t + 1}")
        where = f"[[card_type]] {name}"
        kind = require(entry, "kind", str, file, where)
        if kind not in ("liberation", "royalist"):
            raise _fail(file, where, f"kind {kind!r}; must be 'liberation' or 'royalist'")
        if kind == "liberation" and name not in LIBERATION_TYPES:
            raise _fail(file, where, f"not one of the Liberation types {LIBERATION_TYPES}")
        count = require(entry, "count", int, file, where)
        forces = require(entry, "force", dict, file, where)
        total = 0
        for f_text, n in sorted(forces.items(), key=lambda kv: int(kv[0])):
            f = int(f_text)
            if not FORCE_MIN <= f <= FORCE_MAX:
                raise _fail(file, where, f"force {f} outside {FORCE_MIN}..{FORCE_MAX}")
            if not isinstance(n, int) or n < 0:
                raise _fail(file, where, f"force {f}: count {n!r} is not a non-negative int")
            if n == 0:
                continue
            ktype.append(t)
            kforce.append(f)
            kroyal.append(1 if kind == "royalist" else 0)
            kcount.append(n)
            total += n
        if total != count:
            raise _fail(file, where, f"forces add up to {total} cards, count says {count}")
        type_names.append(name)
    if not any(kroyal) or all(kroyal):
        raise _fail(file, "[[card_type]]", "the deck needs both Liberation and Royalist cards")
    deck = require(raw, "deck", dict, file, "[deck]")
    if require(deck, "total", int, file, "[deck]") != sum(kcount):
        raise _fail(file, "[deck] total", f"the card types hold {sum(kcount)} cards")
    return (
        tuple(type_names),
        np.asarray(ktype, np.int32),
        np.asarray(kforce, np.int32),
        np.asarray(kroyal, np.int32),
        np.asarray(kcount, np.int32),
    )


def load(path: Path | str | None = None) -> LiberationData:
    """Load and validate the race's data file (default ``envs/liberation/liberation.toml``)."""
    p = Path(path) if path is not None else data_path("liberation", FILE)
    file = str(p)
    raw = load_toml(p)
    track = _track(raw, file)
    deck = _deck(raw, file)
    players = require(raw, "players", dict, file, "[players]")
    lo = require(players, "min", int, file, "[players]")
    hi = require(players, "max", int, file, "[players]")
    hand = require(players, "starting_hand", int, file, "[players]")
    limit = require(players, "hand_limit", int, file, "[players]")
    counters = require(players, "counters_per_player", int, file, "[players]")
    if not 2 <= lo <= hi <= 6:
        raise _fail(file, "[players]", f"min/max {lo}/{hi}: the library supports 2..6")
    if not 0 <= hand <= limit or counters < 1:
        raise _fail(file, "[players]", "starting_hand must be within the hand limit, counters >= 1")
    scoring = require(raw, "scoring", dict, file, "[scoring]")
    closing = require(scoring, "closing_card", int, file, "[scoring]")
    places = require(scoring, "places", list, file, "[scoring]")
    others = require(scoring, "others", int, file, "[scoring]")
    if not places or not all(isinstance(v, int) and v >= 0 for v in places) or closing < 0:
        raise _fail(file, "[scoring]", "awards must be non-negative ints, places non-empty")
    return LiberationData(
        *track, *deck, lo, hi, hand, limit, counters, closing, np.asarray(places, np.int32), others
    )


DATA = load()
# the data files the kernels freeze into numba's cache (GameKernels.from_package)
DATA_FILES = (data_path("liberation", FILE),)

NUM_SPACES = DATA.num_spaces
START_SPACE = DATA.start_space
REVOLUTION_SPACES = DATA.revolution_spaces
NUM_REVOLUTIONS = len(REVOLUTION_SPACES)
NUM_COUNTRIES = len(DATA.country_names)
COUNTRY_FIRST = DATA.country_first
COUNTRY_LENGTH = DATA.country_length
SPACE_COUNTRY = DATA.space_country
SPACE_REVOLUTION = DATA.space_revolution
COUNTRY_SPACES = DATA.country_spaces
NUM_COUNTRY_SPACES = len(COUNTRY_SPACES)
SPACE_CSPACE = DATA.space_cspace
KIND_TYPE = DATA.kind_type
KIND_FORCE = DATA.kind_force
KIND_ROYALIST = DATA.kind_royalist
KIND_COUNT = DATA.kind_count
NUM_KINDS = len(KIND_COUNT)
STARTING_HAND = DATA.starting_hand
HAND_LIMIT = DATA.hand_limit
MIN_PLAYERS = DATA.min_players
MAX_PLAYERS = DATA.max_players
DEFAULT_COUNTERS = DATA.counters_per_player
CLOSING_CARD_VT = DATA.closing_card_vt
PLACE_VT = DATA.place_vt
OTHER_VT = DATA.other_vt

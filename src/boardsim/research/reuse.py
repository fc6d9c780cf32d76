"""Reusing a tournament's pairs already played: the settings a pair's result depends on.

A round robin's pair (a cooperative game's cell: one agent at one level) is a
deterministic function of its *settings*: the game and its options (the decision limit
among them), the game's rules version, the games a pair, the seed, how the tournament
derives the pair's deals (:data:`DEALS`) and, for each agent, its spec and a fingerprint
of what it plays (:func:`agent_fingerprint`). :func:`pair_settings` writes them down;
``boardsim eval`` keeps them per pair in its JSON (``pair_records``), and a later run given
that file (:meth:`PriorResults.load`) reads back every pair whose settings are exactly its
own instead of playing it, so its output is the same as a full replay's. A file written
before records existed can have them written from its own results when its settings can
be vouched for (:mod:`boardsim.research.adopt`); such a record says so (:data:`ADOPTED`).

The deals: in game ``g`` of a pair the first agent of the pair (in the order of the agent
list) takes seat ``g mod players``; the games are seeded by the tournament seed, the seat
and the game's number, never by the pair's index. With two players the pair ``(A, B)``
therefore plays other games than ``(B, A)``: the agents' order is part of the settings. With
more players both arrangements are played whichever comes first, so the order is not.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.api import make_game
from boardsim.core import header as hd
from boardsim.core.errors import DataError, OptionError
from boardsim.core.options import COMMON_OPTIONS, Option, with_later_defaults
from boardsim.research.players import NETWORK_FAMILIES, any_options_maker, seat_family

# How tournament.py derives a pair's (a cell's) games from its settings. Change the
# string whenever that derivation changes: results recorded under another one are
# never reused.
DEALS = "seat g mod players, seeded by seed, seat and game number; independent of the pair index"

POLICY_NAMES = {v: k for k, v in vars(hd).items() if k.startswith("POLICY_") and isinstance(v, int)}
SETTING_NAMES = {
    v: k
    for k, v in vars(hd).items()
    if k.startswith("S_") and isinstance(v, int) and 0 <= v < hd.NUM_SETTINGS
}
RECORDS_KEY = "pair_records"
# a record taken over from a file written before records (boardsim.research.adopt):
# {"from_commit": the commit that wrote the file, "rules_version": the version vouched for}
ADOPTED = "adopted"


# ------------------------------------------------------------------ fingerprints
def network_sha256(network: Any) -> str:
    """SHA-256 of a compiled network's weights and layout (their shapes and bytes): what
    it plays, whichever file it came from."""
    digest = hashlib.sha256()
    for array in (np.ascontiguousarray(network.weights), np.ascontiguousarray(network.layout)):
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def seat_fingerprint(seat: Any) -> dict[str, Any]:
    """What a compiled seat plays: its policy, its settings by name (a search's resolved
    settings, a network's temperature) and its network's :func:`network_sha256`."""
    settings = {
        SETTING_NAMES.get(int(k), str(k)): float(v) for k, v in sorted(seat.settings.items())
    }
    out: dict[str, Any] = {"policy": POLICY_NAMES.get(int(seat.code), str(seat.code))}
    out["settings"] = settings
    if seat.network is not None:
        out["network_sha256"] = network_sha256(seat.network)
    return out


def agent_fingerprint(agent: Any) -> dict[str, Any] | None:
    """What an agent plays, as JSON; None when it cannot be told (never reused).

    An agent's own ``fingerprint()`` if it has one; for the library's agents, their class
    and, when they play in compiled code, their seat (:func:`seat_fingerprint`: the
    heuristic's and the random policy's play is the game's, covered by its version). Any
    other agent has no fingerprint.
    """
    own = getattr(agent, "fingerprint", None)
    if callable(own):
        return _as_json(own())
    cls = type(agent)
    if not cls.__module__.startswith("boardsim."):
        return None
    out: dict[str, Any] = {"class": f"{cls.__module__}.{cls.__qualname__}"}
    if hasattr(agent, "compiled_seat"):
        out["seat"] = seat_fingerprint(agent.compiled_seat())
    return out


def networks_played(
    game_name: str, seats: Sequence[tuple[str, Mapping[str, Any]]]
) -> dict[str, list[str]]:
    """``{spec: [network SHA-256, ...]}`` for the ``(spec, options)`` seats that play a
    network file (``alphazero``, ``alphazero-mcts:N``, ``ppo``, ``net:PATH``; nothing for
    the others, or a spec the library cannot make): what a sweep or a tuning with them
    played, so that a folder played by another network (the shipped one replaced) is told
    apart rather than read back as this one's. A spec can play several networks (one a
    player count in the race)."""
    out: dict[str, set[str]] = {}
    done: set[tuple[str, str]] = set()
    for spec, options in seats:
        key = (spec, json.dumps(options, sort_keys=True, default=str))
        if seat_family(spec) not in NETWORK_FAMILIES or key in done:
            continue
        done.add(key)
        try:  # at any options of the game, as a sweep plays a network at every cell's
            agent = any_options_maker(spec, make_game(game_name, **options), 0)
        except (OptionError, DataError):
            continue  # no network it could play there (the race's at 4 players): none
        seat = (agent_fingerprint(agent) or {}).get("seat", {})
        if "network_sha256" in seat:
            out.setdefault(spec, set()).add(seat["network_sha256"])
    return {spec: sorted(shas) for spec, shas in sorted(out.items())}


def _as_json(value: Any) -> Any:
    """``value`` as it reads back from a JSON file (tuples as lists, ...)."""
    return json.loads(json.dumps(value))


# ------------------------------------------------------------------ settings
def pair_settings(
    game: Any,
    specs: Sequence[str],
    fingerprints: Sequence[dict[str, Any] | None],
    games: int,
    seed: int,
) -> dict[str, Any]:
    """Everything a pair's (a cell's) result depends on (the module docstring): ``specs``
    in the order played, with their :func:`agent_fingerprint`."""
    return _as_json(
        {
            "game": game.name,
            "version": game.definition.version,
            "options": dict(game.options),
            "players": game.num_players,
            "decision_limit": int(game.options.get("max_decisions", 0)),
            "games": int(games),
            "seed": int(seed),
            "deals": DEALS,
            "agents": [{"spec": s, "plays": f} for s, f in zip(specs, fingerprints, strict=True)],
        }
    )


def reusable(settings: Mapping[str, Any]) -> bool:
    """Whether a pair with these settings can be read back later (every agent fingerprinted)."""
    return all(a.get("plays") is not None for a in settings["agents"])


def _key(settings: Mapping[str, Any], declared: tuple[Option, ...]) -> str:
    """The settings compared: options written before one existed take its default
    (:func:`with_later_defaults`); with more than two players the agents' order is not
    part of the key (both arrangements are played either way)."""
    options = with_later_defaults((*COMMON_OPTIONS, *declared), settings["options"])
    agents = list(settings["agents"])
    if settings["players"] > 2:
        agents.sort(key=lambda a: json.dumps(a, sort_keys=True))
    return json.dumps({**settings, "options": options, "agents": agents}, sort_keys=True)


def _differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """The settings' names in which ``old`` and ``new`` differ (for the run's report)."""
    names = [k for k in new if k != "agents" and old.get(k) != new[k]]
    old_agents, new_agents = old.get("agents"), new["agents"]
    if [a.get("spec") for a in old_agents] != [a["spec"] for a in new_agents]:
        names.append("the agents' order")
    elif old_agents != new_agents:
        names.append("what an agent plays")
    return names


# ------------------------------------------------------------------ earlier results
@dataclass
class Reused:
    """A pair (a cell) read back: its recorded entry and the results it refers to."""

    record: dict[str, Any]
    results: list[dict[str, Any]]  # the PairResult (both ways) or SoloResult fields
    source: str  # the file


@dataclass
class PriorResults:
    """An earlier ``boardsim eval`` JSON file's pairs (cells), ready to be read back.

    ``usable`` is False for a file that records no settings per pair (written before
    reuse existed; ``reason`` says so): nothing of it is reused. ``reused``, ``played`` and
    ``replayed`` (played again: the file has the pair with other settings, ``why``) count
    what a tournament took from it.
    """

    path: str
    usable: bool
    reason: str = ""
    records: list[dict[str, Any]] = field(default_factory=list)
    results: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    reused: int = 0
    played: int = 0
    replayed: int = 0
    why: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, path: str | Path) -> PriorResults:
        """Read ``path``; :class:`DataError` naming it if it is not a tournament file."""
        where = str(path)
        try:
            data = json.loads(Path(path).read_text())
        except OSError as exc:
            raise DataError(where, "file", f"cannot be read ({exc.strerror or exc})") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise DataError(where, "file", f"is not JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("mode") not in ("round_robin", "cooperative"):
            raise DataError(
                where, "mode", "is not round_robin or cooperative: not a boardsim eval result"
            )
        if RECORDS_KEY not in data:
            return cls(
                where,
                False,
                f"{where} records no settings per pair (written before they were "
                "recorded), so none of it is reused: every pair is played",
            )
        mode = data["mode"]
        rows = _list(data, "pairs" if mode == "round_robin" else "solo", where)
        results = {}
        for n, row in enumerate(rows):
            name = f"{'pairs' if mode == 'round_robin' else 'solo'}[{n}]"
            _check_result(row, mode, where, name)
            key = (row["agent"], row["opponent"] if mode == "round_robin" else row["level"])
            results[key] = row
        records = _list(data, RECORDS_KEY, where)
        for n, record in enumerate(records):
            _check_record(record, mode, results, where, f"{RECORDS_KEY}[{n}]")
        return cls(where, True, records=records, results=results)

    def take(self, settings: dict[str, Any], declared: tuple[Option, ...]) -> Reused | None:
        """The recorded pair (cell) played with exactly ``settings``, or None (counted:
        played, or replayed with the settings that differ in :attr:`why`)."""
        if self.usable and reusable(settings):
            key = _key(settings, declared)
            for record in self.records:
                old = record["settings"]
                if old.get("game") == settings["game"] and _key(old, declared) == key:
                    self.reused += 1
                    return Reused(
                        record, [self.results[k] for k in _result_keys(record)], self.path
                    )
        self.played += 1
        specs = sorted(a["spec"] for a in settings["agents"])
        level = settings["options"].get("level")
        for record in self.records:
            old = record["settings"]
            same_level = old["options"].get("level") == level
            if sorted(a["spec"] for a in old["agents"]) == specs and same_level:
                self.replayed += 1
                differ = ", ".join(_differences(old, settings)) or "a fingerprint missing"
                self.why.append(f"{' against '.join(specs)}: {differ}")
                break
        return None

    def summary(self, what: str = "pairs") -> str:
        """``reused 13 pairs of FILE, played 8 (2 with other settings: ...)``."""
        text = f"reused {self.reused} {what} of {self.path}, played {self.played}"
        if self.replayed:
            text += f" ({self.replayed} with other settings: {'; '.join(self.why)})"
        return text


def carried(found: Reused | None, record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with what the record read back (``found``) says of where its result came
    from (:data:`ADOPTED`: taken over from a file written before records), so it stays
    visible in every later file that reads the pair back."""
    if found is not None and ADOPTED in found.record:
        record[ADOPTED] = found.record[ADOPTED]
    return record


def _result_keys(record: Mapping[str, Any]) -> list[tuple[str, str]]:
    if "level" in record:
        return [(record["settings"]["agents"][0]["spec"], record["level"])]
    return [(s["agent"], s["opponent"]) for s in record["scores"]]


def _list(data: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise DataError(where, key, f"must be a list, got {type(value).__name__}")
    return value


PAIR_FIELDS = {
    "agent": str,
    "opponent": str,
    "games": int,
    "wins": int,
    "draws": int,
    "losses": int,
    "score": (int, float),
    "win_rate": (int, float),
    "ci_low": (int, float),
    "ci_high": (int, float),
    "truncated": int,
}
SOLO_FIELDS = {
    "agent": str,
    "level": str,
    "games": int,
    "wins": int,
    "win_rate": (int, float),
    "ci_low": (int, float),
    "ci_high": (int, float),
    "truncated": int,
}


# a pair's split by seat (tournament.PairResult.by_seat), absent from files written before it
SEAT_FIELDS = {
    "seat": int,
    "name": str,
    "games": int,
    "score": (int, float),
    "win_rate": (int, float),
    "ci_low": (int, float),
    "ci_high": (int, float),
}


def _check_fields(row: Any, fields: Mapping[str, Any], where: str, name: str) -> None:
    for key, kind in fields.items():
        if not isinstance(row[key], kind) or isinstance(row[key], bool):
            raise DataError(where, f"{name}.{key}", f"has the wrong type: {row[key]!r}")


def _check_result(row: Any, mode: str, where: str, name: str) -> None:
    fields = PAIR_FIELDS if mode == "round_robin" else SOLO_FIELDS
    optional = {"by_seat"} if mode == "round_robin" else set()
    if not isinstance(row, dict) or not set(fields) <= set(row) <= set(fields) | optional:
        raise DataError(where, name, f"must have exactly the fields {', '.join(fields)}")
    _check_fields(row, fields, where, name)
    if "by_seat" in row:
        _check_seats(row, where, f"{name}.by_seat")


def _check_seats(row: Mapping[str, Any], where: str, name: str) -> None:
    """A pair's ``by_seat``: a list of seats whose games and scores add up to the pair's."""
    seats = row["by_seat"]
    if not isinstance(seats, list):
        raise DataError(where, name, f"must be a list, got {type(seats).__name__}")
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict) or set(seat) != set(SEAT_FIELDS):
            raise DataError(
                where, f"{name}[{i}]", f"must have exactly the fields {', '.join(SEAT_FIELDS)}"
            )
        _check_fields(seat, SEAT_FIELDS, where, f"{name}[{i}]")
    if seats and (
        sum(s["games"] for s in seats) != row["games"]
        or abs(sum(s["score"] for s in seats) - row["score"]) > 1e-6 * max(1, row["games"])
    ):
        raise DataError(where, name, "its seats' games and scores do not add up to the pair's")


SETTINGS_FIELDS = ("game", "version", "options", "players", "decision_limit", "games", "seed")


def _check_record(
    record: Any, mode: str, results: Mapping[tuple[str, str], Any], where: str, name: str
) -> None:
    if not isinstance(record, dict) or not isinstance(record.get("settings"), dict):
        raise DataError(where, name, "must be an object with the pair's settings")
    settings = record["settings"]
    missing = [k for k in (*SETTINGS_FIELDS, "deals", "agents") if k not in settings]
    if missing:
        raise DataError(where, f"{name}.settings", f"lacks {', '.join(missing)}")
    if not isinstance(settings["options"], dict) or not all(
        isinstance(settings[k], int) and not isinstance(settings[k], bool)
        for k in ("players", "games", "seed")
    ):
        raise DataError(
            where, f"{name}.settings", "options must be an object; players, games, seed ints"
        )
    agents = settings["agents"]
    size = 2 if mode == "round_robin" else 1
    if (
        not isinstance(agents, list)
        or len(agents) != size
        or not all(isinstance(a, dict) and isinstance(a.get("spec"), str) for a in agents)
    ):
        raise DataError(where, f"{name}.settings.agents", f"must be {size} {{spec, plays}}")
    seconds = record.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
        raise DataError(where, f"{name}.seconds", f"must be a number >= 0, got {seconds!r}")
    if mode == "round_robin":
        _check_scores(record, agents, settings["games"], where, name)
    elif not isinstance(record.get("level"), str):
        raise DataError(where, f"{name}.level", "must be the level's name")
    for key in _result_keys(record):
        if key not in results:
            raise DataError(where, name, f"no result for {' / '.join(key)} in the file")
        if results[key]["games"] != settings["games"]:
            raise DataError(where, name, f"{' / '.join(key)} has other games than its settings")


def _check_scores(
    record: Mapping[str, Any], agents: list[dict[str, Any]], games: Any, where: str, name: str
) -> None:
    scores = record.get("scores")
    a, b = agents[0]["spec"], agents[1]["spec"]
    if (
        not isinstance(scores, list)
        or [(s.get("agent"), s.get("opponent")) for s in scores if isinstance(s, dict)]
        != [(a, b), (b, a)]
        or not all(
            isinstance(s.get("score"), int | float)
            and not isinstance(s.get("score"), bool)
            and math.isfinite(s["score"])
            and 0 <= s["score"] <= games
            for s in scores
        )
    ):
        raise DataError(
            where,
            f"{name}.scores",
            f"must be both ways' exact scores: [{{agent: {a}, opponent: {b}, score}}, "
            f"{{agent: {b}, opponent: {a}, score}}] within 0..games",
        )

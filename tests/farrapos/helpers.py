"""Helpers for the Farrapos tests: names to indices, placing pieces, reading VP."""

from __future__ import annotations

from boardsim.core.game import Game, State
from boardsim.games.farrapos import layout as L
from boardsim.games.farrapos import rules
from boardsim.games.farrapos.data import CITY_IDS, PIECE_IDS


def city(name: str) -> int:
    """City index from its id (``"porto_alegre"``)."""
    return CITY_IDS.index(name)


def piece(pid: str) -> int:
    """Piece index from its id (``"R03"``, ``"EM1"``)."""
    return PIECE_IDS.index(pid)


def place(state: State, pid: str, where: str | int) -> None:
    """Put a piece somewhere (a city id, or LOC_RESERVE / LOC_ELIMINATED) and recount."""
    loc = city(where) if isinstance(where, str) else where
    state.array[L.LOC + piece(pid)] = loc
    rules.recount(state.array, state.game.params)


def legal(state: State) -> list[int]:
    return state.legal_actions()


def act_city(name: str) -> int:
    return L.A_CITY + city(name)


def act_unit(pid: str) -> int:
    return L.A_UNIT + piece(pid)


def fresh(game: Game, seed: int = 0) -> State:
    return game.new_initial_state(seed)


def vp(state: State) -> tuple[int, int]:
    return int(state.array[L.VP]), int(state.array[L.VP + 1])


def pieces_at(state: State, name: str) -> list[str]:
    c = city(name)
    return [PIECE_IDS[u] for u in range(L.P) if int(state.array[L.LOC + u]) == c]

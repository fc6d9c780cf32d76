"""The game flow: ``init``, and ``advance``, which runs the automated steps of each phase.

``advance`` is a dispatcher: one small function per phase either hands the decision to a
player, opens a chance node, or does the phase's automatic work and moves on; it runs
until a decision, a chance node or the end. Also the steps of the game's sequence that
the dice and the decisions trigger: an army placed or moving, the end of a round.
"""

from __future__ import annotations

import numpy as np

from boardsim.core.header import CHANCE, FLAG_TERMINAL, H_ACTOR, H_CHANCE_KIND, H_FLAGS, TERMINAL
from boardsim.core.jit import jit, jit_inline
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.board import (
    NUM_BASE_ARMIES,
    NUM_ROMAN_GENERALS,
    absent_generals,
    garrison_count,
    general_at,
    is_adjacent,
    place_revolt,
    province_army,
    record_start,
    roman_victory,
)
from boardsim.games.hispania.combat import any_hispano_attack
from boardsim.games.hispania.movement import general_can_enter, move_armies_candidates
from boardsim.games.hispania.setup import (
    any_place_legal,
    any_reentry_legal,
    any_road_legal,
    armies_on_board,
    army_die_faces,
    auto_place,
    lay_out,
    road_legal,
)


@jit
def set_chance(state: np.ndarray, kind: int) -> None:
    state[H_ACTOR] = CHANCE
    state[H_CHANCE_KIND] = kind


@jit
def set_actor(state: np.ndarray, p: int) -> None:
    state[H_ACTOR] = p
    state[H_CHANCE_KIND] = 0


@jit
def order_armies(state: np.ndarray) -> None:
    """The armies move by increasing province, I-VI, then Ulterior and Citerior."""
    n = 0
    for p in range(8):
        k = province_army(state, p)
        if k >= 0:
            state[L.ARMY_ORDER + n] = k
            n += 1
    for i in range(n, L.NUM_ARMY_SLOTS):
        state[L.ARMY_ORDER + i] = -1


@jit
def army_try_move(state: np.ndarray, k: int, t: int) -> None:
    """Army ``k`` tries to enter ``t``: a garrison or general blocking it is attacked."""
    if general_at(state, t) >= 0:
        state[L.COMBAT_KIND] = L.CB_ARMY_GENERAL
    elif garrison_count(state, t) > 0:
        state[L.COMBAT_KIND] = L.CB_ARMY_GARRISON
    else:
        # the revolt the army needs comes first: none left is a Hispanic victory
        if state[L.REVOLTS + t] == 0 and not place_revolt(state, t):
            return
        state[L.ARMY_POS + k] = t
        state[L.CUR] += 1
        return
    state[L.COMBAT_TARGET] = t
    state[L.COMBAT_ARMY] = k
    state[L.DIE_H] = 0
    state[L.DIE_R] = 0
    state[L.HISP_BONUS] = 0
    state[L.H_ACCEPTED] = 0
    state[L.PHASE] = L.PH_ARMY_COMBAT


@jit
def ordinary_armies_left(state: np.ndarray) -> tuple[int, int]:
    """Ordinary armies in the reserve, and the first of them (-1 none)."""
    n = 0
    first = -1
    for k in range(NUM_BASE_ARMIES):
        if state[L.ARMY_POS + k] == -1:
            n += 1
            if first < 0:
                first = k
    return n, first


@jit
def place_army(state: np.ndarray, c: int, resume: int) -> None:
    """An army from the reserve onto city ``c``, then phase ``resume``.

    Terror: the special army if it is the only one left; with others left a Hispanic die
    decides (a chance node), 4-6 with one other left, 5-6 with two.
    """
    n, first = ordinary_armies_left(state)
    special = state[L.ARMY_POS + L.SPECIAL] == -1
    state[L.PHASE] = resume
    if special and n > 0:
        state[L.PLACE_CITY] = c
        state[L.RESUME_PHASE] = resume
        state[L.PHASE] = L.PH_TERROR
    elif special:
        state[L.ARMY_POS + L.SPECIAL] = c
    elif first >= 0:
        state[L.ARMY_POS + first] = c


@jit
def army_in_reserve(state: np.ndarray) -> bool:
    for k in range(L.NUM_ARMY_SLOTS):
        if state[L.ARMY_POS + k] == -1:
            return True
    return False


@jit
def end_of_round(state: np.ndarray, params: np.ndarray) -> None:
    """A revolt from the reserve covers the next space of the time track."""
    if state[L.RESERVE] <= 0:
        state[L.WINNER] = L.W_HISPANIA
        return
    state[L.RESERVE] -= 1
    state[L.TRACK] += 1
    if state[L.TRACK] >= D.SCEN_TRACK_LIMIT[params[L.P_SCENARIO]]:
        state[L.WINNER] = L.W_HISPANIA
        return
    state[L.TURN] = 0
    state[L.PHASE] = L.PH_TURN_START


@jit
def free_move_legal(state: np.ndarray, s: int) -> bool:
    """Imperivm: the praetor of Ulterior may end his turn one link away, for free."""
    g0 = state[L.GEN_POS]
    if g0 < 0 or not is_adjacent(g0, s) or general_at(state, s) >= 0:
        return False
    north = state[L.LETHE] != 0 and s < D.NUM_CITIES and D.LETHE_NORTH[s] != 0
    if north and D.LETHE_CROSSINGS[D.ADJ_LINK[g0, s]] == 0:
        return False
    return general_can_enter(state, s, 0)


@jit
def any_free_move(state: np.ndarray) -> bool:
    for s in range(D.NUM_SPACES):
        if free_move_legal(state, s):
            return True
    return False


@jit
def advance(state: np.ndarray, params: np.ndarray) -> None:
    """Run the automated steps until a decision, a chance node or the end.

    One step of the current phase at a time (the functions below, one a phase): each
    returns True while the game runs on by itself, False once a player or the dice
    must act.
    """
    cands = np.zeros(8, np.int32)  # scratch: the set-up armies' die faces, an army's moves
    while not end_if_decided(state):
        ph = state[L.PHASE]
        if ph == L.PH_SETUP_REVOLT:
            going = setup_revolts(state, params)
        elif ph == L.PH_SETUP_ARMY:
            going = setup_armies(state, params, cands)
        elif ph == L.PH_SETUP_ROAD:
            going = setup_roads(state, params)
        elif ph == L.PH_SETUP_PLACE and params[L.P_SCENARIO] != 0:
            going = start_scenario(state, params)
        elif ph == L.PH_SETUP_PLACE:
            going = setup_generals(state, params)
        elif ph == L.PH_TURN_START:
            going = turn_start(state, params)
        elif ph == L.PH_ROMAN:
            going = roman_phase(state, params)
        elif ph == L.PH_ROMAN_COMBAT:
            going = roman_combat_dice(state)
        elif ph in (L.PH_REVOLT_PROV, L.PH_H_REROLL_PROV):
            going = wait_for_chance(state, L.CK_REVOLT_PROV)
        elif ph in (L.PH_REVOLT_CITY, L.PH_H_REROLL_CITY):
            going = wait_for_chance(state, L.CK_REVOLT_CITY)
        elif ph >= L.PH_H_REVOLT and ph != L.PH_H_ATTACK:
            going = wait_for_player(state, L.HISPANO)
        elif ph == L.PH_H_ATTACK:
            going = hispano_attack_step(state)
        elif ph == L.PH_TERROR:
            going = wait_for_chance(state, L.CK_TERROR)
        elif ph == L.PH_MOVE_DIE:
            going = wait_for_chance(state, L.CK_MOVE_DIE)
        elif ph == L.PH_MOVE_START:
            going = start_army_moves(state, params)
        elif ph == L.PH_ARMY_MOVE:
            going = move_next_army(state, params, cands)
        elif ph == L.PH_ARMY_COMBAT:
            going = army_combat_dice(state)
        elif ph == L.PH_TURN_END:
            going = turn_end(state, params)
        elif ph == L.PH_TURN_NEXT:
            going = turn_next(state, params)
        else:
            going = False  # a phase a decision ends (re-entry, free move) waits as it is
        if not going:
            return


@jit
def end_if_decided(state: np.ndarray) -> bool:
    """Rome wins the moment its victory holds (once the turns began); a won game ends."""
    if state[L.WINNER] == L.W_NONE and state[L.PHASE] >= L.PH_TURN_START and roman_victory(state):
        state[L.WINNER] = L.W_ROME
    if state[L.WINNER] == L.W_NONE:
        return False
    state[L.PHASE] = L.PH_OVER
    state[H_ACTOR] = TERMINAL
    state[H_CHANCE_KIND] = 0
    state[H_FLAGS] |= FLAG_TERMINAL
    return True


@jit
def wait_for_chance(state: np.ndarray, kind: int) -> bool:
    """The phase is a die roll: a chance node of ``kind``."""
    set_chance(state, kind)
    return False


@jit
def wait_for_player(state: np.ndarray, p: int) -> bool:
    """The phase is player ``p``'s decision."""
    set_actor(state, p)
    return False


@jit_inline
def setup_revolts(state: np.ndarray, params: np.ndarray) -> bool:
    """The set-up's initial revolts, one a Hispanic province (rolled, or Hispano's choice)
    but for a scenario's provinces, which have theirs; then the initial armies."""
    sc = params[L.P_SCENARIO]
    while state[L.COUNTER] < D.NUM_HISPANIC and D.SCEN_RANDOM[sc, state[L.COUNTER]] == 0:
        state[L.COUNTER] += 1  # a scenario province: no random revolt
    if state[L.COUNTER] < D.NUM_HISPANIC:
        if params[L.P_HISPANO] != 0:
            return wait_for_player(state, L.HISPANO)  # Hispano chooses the initial revolts
        return wait_for_chance(state, L.CK_SETUP_REVOLT)
    state[L.PHASE] = L.PH_SETUP_ARMY
    state[L.COUNTER] = armies_on_board(state)  # a scenario's armies count
    return True


@jit_inline
def setup_armies(state: np.ndarray, params: np.ndarray, faces: np.ndarray) -> bool:
    """The level's initial armies, while a province can take one; then the roads."""
    if state[L.COUNTER] < params[L.P_ARMIES] and army_die_faces(state, params, faces) > 0:
        if params[L.P_HISPANO] != 0:
            return wait_for_player(state, L.HISPANO)  # ... and the initial armies' provinces
        return wait_for_chance(state, L.CK_SETUP_ARMY)
    state[L.PHASE] = L.PH_SETUP_ROAD
    state[L.COUNTER] = 0
    return True


@jit_inline
def setup_roads(state: np.ndarray, params: np.ndarray) -> bool:
    """The level's roads, placed by the generals in turn (``auto_setup``: the first
    legal link) while one is legal; then the generals."""
    if state[L.COUNTER] < params[L.P_ROADS] and any_road_legal(state):
        if params[L.P_AUTO_SETUP] != 0:
            for li in range(D.NUM_LINKS):
                if road_legal(state, li):
                    state[L.ROADS + li] = 1
                    break
            state[L.COUNTER] += 1
            return True
        return wait_for_player(state, state[L.COUNTER] % NUM_ROMAN_GENERALS)
    if params[L.P_INGENIVM] != 0 and state[L.COUNTER] < params[L.P_ROADS]:
        # Ingenivm: roads that cannot be placed now wait beside the board
        state[L.HELD_ROADS] += params[L.P_ROADS] - state[L.COUNTER]
    state[L.PHASE] = L.PH_SETUP_PLACE
    state[L.COUNTER] = 0
    return True


@jit
def start_scenario(state: np.ndarray, params: np.ndarray) -> bool:
    """A scenario's generals stand already: its first turn, or its Hispanic phase first."""
    sc = params[L.P_SCENARIO]
    state[L.TURN] = D.SCEN_TURN[sc]
    if D.SCEN_START_HISPANIC[sc] != 0:
        state[L.HDENARII] = 2 if params[L.P_HISPANO] != 0 else 0
        begin_hispanic_phase(state, params)
    else:
        state[L.PHASE] = L.PH_TURN_START
    return True


@jit_inline
def setup_generals(state: np.ndarray, params: np.ndarray) -> bool:
    """Each general placed by his player (``auto_setup``: ``auto_place``), one who
    has nowhere to stand staying off; then the first turn."""
    g = state[L.COUNTER]
    if g < NUM_ROMAN_GENERALS:
        if not any_place_legal(state, g):
            state[L.COUNTER] += 1
            return True
        if params[L.P_AUTO_SETUP] != 0:
            state[L.GEN_POS + g] = auto_place(state, g)
            state[L.COUNTER] += 1
            return True
        return wait_for_player(state, g)
    state[L.TURN] = 0
    state[L.PHASE] = L.PH_TURN_START
    return True


@jit_inline
def turn_start(state: np.ndarray, params: np.ndarray) -> bool:
    """A general's turn: off the board, he re-enters first if he can (else his Roman phase
    is lost); then his denarii, less 1 for each general off the board."""
    g = state[L.TURN]
    state[L.HDENARII] = 2 if params[L.P_HISPANO] != 0 else 0
    if state[L.GEN_POS + g] < 0:
        if any_reentry_legal(state, params, g):
            state[L.PHASE] = L.PH_REENTER
            return wait_for_player(state, g)
        begin_hispanic_phase(state, params)
        return True
    state[L.DENARII] = params[L.P_DENARII] - absent_generals(state)
    state[L.PEND_KIND] = 0
    state[L.PEND_TARGET] = 0
    state[L.MOVER] = -1
    state[L.PHASE] = L.PH_ROMAN
    return True


@jit
def roman_phase(state: np.ndarray, params: np.ndarray) -> bool:
    """The general acts while he has denarii and stands on the board; then the Hispanic
    phase."""
    if state[L.DENARII] <= 0 or state[L.GEN_POS + state[L.TURN]] < 0:
        state[L.PEND_KIND] = 0
        state[L.MOVER] = -1
        begin_hispanic_phase(state, params)
        return True
    return wait_for_player(state, state[L.TURN])


@jit
def roman_combat_dice(state: np.ndarray) -> bool:
    """A Roman combat's dice: the Roman die first (an assassination has only the Hispanic)."""
    first_hisp = state[L.COMBAT_KIND] == L.CB_ASSASSINATE
    return wait_for_chance(
        state, L.CK_ROMAN_DIE if state[L.DIE_R] == 0 and not first_hisp else L.CK_HISP_DIE
    )


@jit
def hispano_attacks_any_step(params: np.ndarray) -> bool:
    """``hispano_attacks="any_step"``: Hispano's attack step comes before the revolt roll
    and before the move step too, not only after the move step (ledger V17)."""
    return params[L.P_HISPANO] != 0 and params[L.P_HISPANO_ATTACKS] != 0


@jit
def begin_hispanic_phase(state: np.ndarray, params: np.ndarray) -> None:
    """The Hispanic phase begins with the revolt roll, or with Hispano's attack step
    before it (``any_step``)."""
    if hispano_attacks_any_step(params):
        state[L.H_ATTACK] = L.HA_BEFORE_REVOLT
        state[L.PHASE] = L.PH_H_ATTACK
    else:
        state[L.PHASE] = L.PH_REVOLT_PROV


@jit
def hispano_attack_step(state: np.ndarray) -> bool:
    """Hispano may attack with an army while he has denarii and an army has a target; then
    the phase goes on."""
    if state[L.HDENARII] > 0 and any_hispano_attack(state):
        return wait_for_player(state, L.HISPANO)
    end_hispano_attacks(state)
    return True


@jit
def end_hispano_attacks(state: np.ndarray) -> None:
    """Hispano's attack step is over: the revolt roll, the move step or the turn's end,
    after the step it was (H_ATTACK)."""
    step = state[L.H_ATTACK]
    state[L.H_ATTACK] = 0
    if step == L.HA_BEFORE_REVOLT:
        state[L.PHASE] = L.PH_REVOLT_PROV
    elif step == L.HA_BEFORE_MOVE:
        begin_army_moves(state)
    else:
        state[L.PHASE] = L.PH_TURN_END


@jit
def start_army_moves(state: np.ndarray, params: np.ndarray) -> bool:
    """The Hispanic move step, or Hispano's attack step before it (``any_step``)."""
    if hispano_attacks_any_step(params):
        state[L.H_ATTACK] = L.HA_BEFORE_MOVE
        state[L.PHASE] = L.PH_H_ATTACK
    else:
        begin_army_moves(state)
    return True


@jit
def begin_army_moves(state: np.ndarray) -> None:
    """The Hispanic move step: the armies in their moving order, from the first."""
    order_armies(state)
    state[L.CUR] = 0
    state[L.PHASE] = L.PH_ARMY_MOVE


@jit_inline
def move_next_army(state: np.ndarray, params: np.ndarray, cands: np.ndarray) -> bool:
    """The next army moves: to its one alternative, or Hispano's choice, or the die's; with
    none it stays. After the last, Hispano's attacks or the end of the turn."""
    i = state[L.CUR]
    if i >= L.NUM_ARMY_SLOTS or state[L.ARMY_ORDER + i] < 0:
        state[L.PHASE] = L.PH_H_ATTACK if params[L.P_HISPANO] != 0 else L.PH_TURN_END
        return True
    k = state[L.ARMY_ORDER + i]
    if state[L.ARMY_POS + k] < 0:
        state[L.CUR] += 1
        return True
    n = move_armies_candidates(state, k, cands)
    if n == 0:
        state[L.CUR] += 1
    elif n == 1:
        army_try_move(state, k, cands[0])
    elif params[L.P_HISPANO] != 0 and state[L.HDENARII] > 0:
        state[L.PHASE] = L.PH_H_MOVE  # Hispano may choose instead of rolling
    else:
        state[L.PHASE] = L.PH_MOVE_DIE
        return wait_for_chance(state, L.CK_MOVE_DIE)
    return True


@jit
def army_combat_dice(state: np.ndarray) -> bool:
    """An army's attack: the Hispanic die, then (against a general) the Roman one."""
    return wait_for_chance(state, L.CK_HISP_DIE if state[L.DIE_H] == 0 else L.CK_ROMAN_DIE)


@jit
def turn_end(state: np.ndarray, params: np.ndarray) -> bool:
    """The turn ends (Display of Power with the consul's first); Imperivm: the praetor of
    Ulterior's free move after his."""
    state[L.PHASE] = L.PH_TURN_NEXT
    if state[L.TURN] == 2:
        state[L.DISPLAY] = 0  # Display of Power lasts the consul's first turn
    if params[L.P_IMPERIVM] != 0 and state[L.TURN] == 0 and any_free_move(state):
        state[L.PHASE] = L.PH_FREE_MOVE
        return wait_for_player(state, 0)
    return True


@jit_inline
def turn_next(state: np.ndarray, params: np.ndarray) -> bool:
    """The next general's turn, or after the consul's the end of the round."""
    if state[L.TURN] < NUM_ROMAN_GENERALS - 1:
        state[L.TURN] += 1
        state[L.PHASE] = L.PH_TURN_START
    else:
        end_of_round(state, params)
    return True


@jit
def init(state: np.ndarray, params: np.ndarray, seed: int) -> None:
    """Lay out the basic set-up; the first chance node is the revolt of province I."""
    lay_out(state, params)
    state[L.PHASE] = L.PH_SETUP_REVOLT
    state[L.COUNTER] = 0
    advance(state, params)
    record_start(state)

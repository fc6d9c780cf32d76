"""Hispania's rules in plain Python: the oracle the compiled core is compared against.

Written separately from ``rules.py`` (sets, dicts and ``heapq`` instead of array
kernels) over a plain ``list`` with the identical layout and the same draw order, so a
whole game can be compared word by word. Driven by
:class:`boardsim.core.reference.ReferenceEngine`. The board, moves and combats are in
:mod:`boardsim.games.hispania.reference_board`.
"""

from __future__ import annotations

from collections.abc import Callable

from boardsim.core.header import (
    CHANCE,
    FLAG_TERMINAL,
    H_ACTOR,
    H_CHANCE_KIND,
    H_DECISIONS,
    H_FLAGS,
    P_EXPLICIT_CHANCE,
    TERMINAL,
)
from boardsim.core.header import P_NUM_PLAYERS as _P_NUM_PLAYERS
from boardsim.games.hispania import data as D
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.reference_board import (
    BASE_ARMIES,
    CAPITAL,
    CITIES,
    CROSSINGS,
    NBR,
    NORTH,
    PROV,
    ROMAN_GENERALS,
    SEA0,
    SHIELD,
    SPACES,
    Params,
    State,
    army_attack,
    army_of_province,
    army_on,
    attack,
    can_enter,
    fleet,
    fleet_cost,
    gen_pos,
    general_destinations,
    general_on,
    link_of,
    linked,
    n_garrisons,
    province_cities,
    revolts,
    rome_has_won,
    siege,
    stack,
    take_revolt,
)


# ---------------------------------------------------------------- set-up legality
def on_network(s: State, c: int) -> bool:
    return any(s[L.ROADS + link_of(c, v)] for v in NBR[c])


def road_ok(s: State, li: int) -> bool:
    a, b = int(D.LINK_A[li]), int(D.LINK_B[li])
    if D.LINK_SEA[li] or s[L.ROADS + li]:
        return False
    if revolts(s, a) or revolts(s, b) or a in CAPITAL or b in CAPITAL:
        return False
    return on_network(s, a) or on_network(s, b)


def entry_ok(s: State, g: int, x: int) -> bool:
    if general_on(s, x) >= 0:
        return False
    if g < 2:
        return x < D.NUM_CITIES and PROV[x] == 6 + g and not revolts(s, x)
    return fleet(s, x)


def entries(s: State, g: int) -> list[int]:
    return [x for x in SPACES if entry_ok(s, g, x)]


def reentries(s: State, params: Params, g: int) -> list[int]:
    """Where a returning general may enter: an occupied space only if he can then leave."""
    out = []
    for x in SPACES:
        own = x < D.NUM_CITIES and PROV[x] == 6 + g and not revolts(s, x)
        ok = own if g < 2 else fleet(s, x)
        if ok and general_on(s, x) >= 0:
            trial = list(s)
            trial[L.GEN_POS + g] = x
            off = sum(1 for y in range(ROMAN_GENERALS) if trial[L.GEN_POS + y] < 0)
            trial[L.DENARII] = params[L.P_DENARII] - off
            ok = bool(general_destinations(trial, g))
        if ok:
            out.append(x)
    return out


def shares_space(s: State, g: int) -> bool:
    here = gen_pos(s, g)
    return here >= 0 and any(gen_pos(s, x) == here for x in range(L.NUM_GENERALS) if x != g)


def capital_ok(s: State, c: int) -> bool:
    return c not in CAPITAL or all(not revolts(s, x) for x in province_cities(PROV[c]))


# ---------------------------------------------------------------- Hispanic moves
def candidates(s: State, k: int) -> list[int]:
    a = s[L.ARMY_POS + k]
    p = PROV[a]
    full = all(revolts(s, c) for c in province_cities(p))
    out = [
        v
        for v in NBR[a]
        if v < D.NUM_CITIES and (PROV[v] == p or (full and army_of_province(s, PROV[v]) < 0))
    ]
    calm = [v for v in out if not revolts(s, v)]
    return calm if calm and len(calm) < len(out) else out


def nearest(cands: list[int], die: int) -> int:
    dist = sorted(abs(SHIELD[c] - die) for c in cands)
    if len(dist) > 1 and dist[0] == dist[1]:
        return -1
    return min(cands, key=lambda c: abs(SHIELD[c] - die))


def try_enter(s: State, k: int, t: int) -> None:
    if general_on(s, t) >= 0 or n_garrisons(s, t):
        s[L.COMBAT_KIND] = L.CB_ARMY_GENERAL if general_on(s, t) >= 0 else L.CB_ARMY_GARRISON
        s[L.COMBAT_TARGET] = t
        s[L.COMBAT_ARMY] = k
        s[L.DIE_H] = s[L.DIE_R] = s[L.HISP_BONUS] = s[L.H_ACCEPTED] = 0
        s[L.PHASE] = L.PH_ARMY_COMBAT
        return
    if not revolts(s, t) and not take_revolt(s, t):
        return
    s[L.ARMY_POS + k] = t
    s[L.CUR] += 1


def place_army(s: State, c: int, resume: int) -> None:
    ordinary = [k for k in range(BASE_ARMIES) if s[L.ARMY_POS + k] == -1]
    special = s[L.ARMY_POS + L.SPECIAL] == -1
    s[L.PHASE] = resume
    if special and ordinary:
        s[L.PLACE_CITY], s[L.RESUME_PHASE], s[L.PHASE] = c, resume, L.PH_TERROR
    elif special:
        s[L.ARMY_POS + L.SPECIAL] = c
    elif ordinary:
        s[L.ARMY_POS + ordinary[0]] = c


def free_moves(s: State) -> list[int]:
    here = gen_pos(s, 0)
    if here < 0:
        return []
    return [
        v
        for v in NBR[here]
        if general_on(s, v) < 0
        and can_enter(s, v, 0)
        and not (s[L.LETHE] and v in NORTH and link_of(here, v) not in CROSSINGS)
    ]


# ---------------------------------------------------------------- flow
def _chance(s: State, kind: int) -> bool:
    """A die must be rolled: nothing more runs by itself."""
    s[H_ACTOR] = CHANCE
    s[H_CHANCE_KIND] = kind
    return False


def _decide(s: State, p: int) -> bool:
    """Player ``p`` must decide: nothing more runs by itself."""
    s[H_ACTOR] = p
    s[H_CHANCE_KIND] = 0
    return False


def run(s: State, params: Params) -> None:
    """Play the automatic steps until a decision, a die or the end (one step a phase,
    ``_STEPS``; each says whether the game goes on by itself)."""
    while not _game_over(s):
        step = _STEPS.get(s[L.PHASE])
        if step is None or not step(s, params):
            return


def _game_over(s: State) -> bool:
    if s[L.WINNER] == L.W_NONE and s[L.PHASE] >= L.PH_TURN_START and rome_has_won(s):
        s[L.WINNER] = L.W_ROME
    if s[L.WINNER] == L.W_NONE:
        return False
    s[L.PHASE] = L.PH_OVER
    s[H_ACTOR] = TERMINAL
    s[H_CHANCE_KIND] = 0
    s[H_FLAGS] |= FLAG_TERMINAL
    return True


def _setup_revolts(s: State, params: Params) -> bool:
    sc = params[L.P_SCENARIO]
    while s[L.COUNTER] < D.NUM_HISPANIC and not D.SCEN_RANDOM[sc, s[L.COUNTER]]:
        s[L.COUNTER] += 1
    if s[L.COUNTER] < D.NUM_HISPANIC:
        if params[L.P_HISPANO]:
            return _decide(s, L.HISPANO)
        return _chance(s, L.CK_SETUP_REVOLT)
    s[L.PHASE] = L.PH_SETUP_ARMY
    s[L.COUNTER] = sum(1 for k in range(L.NUM_ARMY_SLOTS) if s[L.ARMY_POS + k] >= 0)
    return True


def _setup_armies(s: State, params: Params) -> bool:
    if s[L.COUNTER] < params[L.P_ARMIES] and army_faces(s, params):
        if params[L.P_HISPANO]:
            return _decide(s, L.HISPANO)
        return _chance(s, L.CK_SETUP_ARMY)
    s[L.PHASE], s[L.COUNTER] = L.PH_SETUP_ROAD, 0
    return True


def _setup_roads(s: State, params: Params) -> bool:
    legal = [li for li in range(D.NUM_LINKS) if road_ok(s, li)]
    if s[L.COUNTER] < params[L.P_ROADS] and legal:
        if params[L.P_AUTO_SETUP]:
            s[L.ROADS + legal[0]] = 1
            s[L.COUNTER] += 1
            return True
        return _decide(s, s[L.COUNTER] % ROMAN_GENERALS)
    if params[L.P_INGENIVM]:
        s[L.HELD_ROADS] += max(0, params[L.P_ROADS] - s[L.COUNTER])
    s[L.PHASE], s[L.COUNTER] = L.PH_SETUP_PLACE, 0
    return True


def _setup_place(s: State, params: Params) -> bool:
    sc = params[L.P_SCENARIO]
    if sc:  # a scenario's generals stand already
        s[L.TURN] = int(D.SCEN_TURN[sc])
        if D.SCEN_START_HISPANIC[sc]:
            s[L.HDENARII] = 2 if params[L.P_HISPANO] else 0
            _hispanic_phase(s, params)
        else:
            s[L.PHASE] = L.PH_TURN_START
        return True
    g = s[L.COUNTER]
    if g >= ROMAN_GENERALS:
        s[L.TURN], s[L.PHASE] = 0, L.PH_TURN_START
        return True
    options = entries(s, g)
    if options and not params[L.P_AUTO_SETUP]:
        return _decide(s, g)
    if options:
        plus = int(D.PLUS_ONE_CITY[g]) if g < 2 else -1
        s[L.GEN_POS + g] = plus if plus in options else options[0]
    s[L.COUNTER] += 1
    return True


def _turn_start(s: State, params: Params) -> bool:
    g = s[L.TURN]
    s[L.HDENARII] = 2 if params[L.P_HISPANO] else 0
    if gen_pos(s, g) < 0:
        if reentries(s, params, g):
            s[L.PHASE] = L.PH_REENTER
            return _decide(s, g)
        _hispanic_phase(s, params)
        return True
    off = sum(1 for x in range(ROMAN_GENERALS) if gen_pos(s, x) < 0)
    s[L.DENARII] = params[L.P_DENARII] - off
    s[L.PEND_KIND] = s[L.PEND_TARGET] = 0
    s[L.MOVER] = -1
    s[L.PHASE] = L.PH_ROMAN
    return True


def _roman(s: State, params: Params) -> bool:
    if s[L.DENARII] <= 0 or gen_pos(s, s[L.TURN]) < 0:
        s[L.PEND_KIND] = 0
        s[L.MOVER] = -1
        _hispanic_phase(s, params)
        return True
    return _decide(s, s[L.TURN])


def _roman_combat(s: State, params: Params) -> bool:
    if s[L.COMBAT_KIND] == L.CB_ASSASSINATE or s[L.DIE_R]:
        return _chance(s, L.CK_HISP_DIE)
    return _chance(s, L.CK_ROMAN_DIE)


def _any_step(params: Params) -> bool:
    """hispano_attacks="any_step": attack steps before the revolt roll and the move too."""
    return bool(params[L.P_HISPANO]) and params[L.P_HISPANO_ATTACKS] == 1


def _hispanic_phase(s: State, params: Params) -> None:
    if _any_step(params):
        s[L.H_ATTACK], s[L.PHASE] = L.HA_BEFORE_REVOLT, L.PH_H_ATTACK
    else:
        s[L.PHASE] = L.PH_REVOLT_PROV


def _hispano_attacks(s: State, params: Params) -> bool:
    if s[L.HDENARII] and any(h_targets(s, k) for k in range(L.NUM_ARMY_SLOTS)):
        return _decide(s, L.HISPANO)
    _attacks_over(s)
    return True


def _attacks_over(s: State) -> None:
    """After Hispano's attack step: the roll, the move or the turn's end (H_ATTACK)."""
    step, s[L.H_ATTACK] = s[L.H_ATTACK], 0
    if step == L.HA_BEFORE_REVOLT:
        s[L.PHASE] = L.PH_REVOLT_PROV
    elif step == L.HA_BEFORE_MOVE:
        _armies_move(s)
    else:
        s[L.PHASE] = L.PH_TURN_END


def _move_start(s: State, params: Params) -> bool:
    if _any_step(params):
        s[L.H_ATTACK], s[L.PHASE] = L.HA_BEFORE_MOVE, L.PH_H_ATTACK
    else:
        _armies_move(s)
    return True


def _armies_move(s: State) -> None:
    order = [army_of_province(s, p) for p in range(D.NUM_PROVINCES)]
    order = [k for k in order if k >= 0]
    order += [-1] * (L.NUM_ARMY_SLOTS - len(order))
    s[L.ARMY_ORDER : L.ARMY_ORDER + L.NUM_ARMY_SLOTS] = order
    s[L.CUR] = 0
    s[L.PHASE] = L.PH_ARMY_MOVE


def _army_move(s: State, params: Params) -> bool:
    i = s[L.CUR]
    if i >= L.NUM_ARMY_SLOTS or s[L.ARMY_ORDER + i] < 0:
        s[L.PHASE] = L.PH_H_ATTACK if params[L.P_HISPANO] else L.PH_TURN_END
        return True
    k = s[L.ARMY_ORDER + i]
    if s[L.ARMY_POS + k] < 0:
        s[L.CUR] += 1
        return True
    cands = candidates(s, k)
    if not cands:
        s[L.CUR] += 1
    elif len(cands) == 1:
        try_enter(s, k, cands[0])
    elif params[L.P_HISPANO] and s[L.HDENARII]:
        s[L.PHASE] = L.PH_H_MOVE
    else:
        s[L.PHASE] = L.PH_MOVE_DIE
        return _chance(s, L.CK_MOVE_DIE)
    return True


def _turn_end(s: State, params: Params) -> bool:
    s[L.PHASE] = L.PH_TURN_NEXT
    if s[L.TURN] == 2:
        s[L.DISPLAY] = 0
    if params[L.P_IMPERIVM] and s[L.TURN] == 0 and free_moves(s):
        s[L.PHASE] = L.PH_FREE_MOVE
        return _decide(s, 0)
    return True


def _turn_next(s: State, params: Params) -> bool:
    if s[L.TURN] < ROMAN_GENERALS - 1:
        s[L.TURN] += 1
        s[L.PHASE] = L.PH_TURN_START
    elif s[L.RESERVE] == 0:
        s[L.WINNER] = L.W_HISPANIA
    else:
        s[L.RESERVE] -= 1
        s[L.TRACK] += 1
        if s[L.TRACK] >= D.SCEN_TRACK_LIMIT[params[L.P_SCENARIO]]:
            s[L.WINNER] = L.W_HISPANIA
        else:
            s[L.TURN], s[L.PHASE] = 0, L.PH_TURN_START
    return True


def _rolls(kind: int) -> Callable[[State, Params], bool]:
    return lambda s, params: _chance(s, kind)


def _army_combat(s: State, params: Params) -> bool:
    return _chance(s, L.CK_HISP_DIE if s[L.DIE_H] == 0 else L.CK_ROMAN_DIE)


def _hispano_decides(s: State, params: Params) -> bool:
    return _decide(s, L.HISPANO)


# what each phase does by itself (a phase not here waits for its decision)
_STEPS: dict[int, Callable[[State, Params], bool]] = {
    **{ph: _hispano_decides for ph in range(L.PH_H_REVOLT, L.NUM_PHASES)},
    L.PH_SETUP_REVOLT: _setup_revolts,
    L.PH_SETUP_ARMY: _setup_armies,
    L.PH_SETUP_ROAD: _setup_roads,
    L.PH_SETUP_PLACE: _setup_place,
    L.PH_TURN_START: _turn_start,
    L.PH_ROMAN: _roman,
    L.PH_ROMAN_COMBAT: _roman_combat,
    L.PH_REVOLT_PROV: _rolls(L.CK_REVOLT_PROV),
    L.PH_H_REROLL_PROV: _rolls(L.CK_REVOLT_PROV),
    L.PH_REVOLT_CITY: _rolls(L.CK_REVOLT_CITY),
    L.PH_H_REROLL_CITY: _rolls(L.CK_REVOLT_CITY),
    L.PH_MOVE_DIE: _rolls(L.CK_MOVE_DIE),
    L.PH_H_ATTACK: _hispano_attacks,
    L.PH_TERROR: _rolls(L.CK_TERROR),
    L.PH_MOVE_START: _move_start,
    L.PH_ARMY_MOVE: _army_move,
    L.PH_ARMY_COMBAT: _army_combat,
    L.PH_TURN_END: _turn_end,
    L.PH_TURN_NEXT: _turn_next,
}


# ---------------------------------------------------------------- the reference API
def init(state: State, params: Params, seed: int) -> None:
    s = state
    for k in range(L.NUM_ARMY_SLOTS):
        s[L.ARMY_POS + k] = -1
        s[L.ARMY_ORDER + k] = -1
    if params[L.P_TERROR]:
        s[L.ARMY_POS + 2] = L.GONE
    else:
        s[L.ARMY_POS + L.SPECIAL] = L.GONE
    s[L.MOVER] = -1
    s[L.LEGIO_OWNER] = 2 if params[L.P_LEGIO] else L.GONE
    for g in range(L.NUM_GENERALS):
        s[L.GEN_POS + g] = -1 if g < ROMAN_GENERALS or params[L.P_PROCONSVL] else L.GONE
        s[L.GARR_RESERVE + g] = params[L.P_GARRISONS] if g < ROMAN_GENERALS else 0
    s[L.RESERVE] = D.TOTAL_REVOLTS
    sc = params[L.P_SCENARIO]
    named = [i for i in range(D.NUM_SEAS) if D.SCEN_FLEET_SEAS[sc, i]]
    order = named + [i for i in range(D.NUM_SEAS) if i not in named]
    for i in order[: params[L.P_FLEETS]]:
        s[L.FLEET + i] = 1
    if params[L.P_PIRATES]:
        for i in range(D.NUM_SEAS):
            if not s[L.FLEET + i]:
                take_revolt(s, SEA0 + i)
    for li in range(D.NUM_LINKS):
        s[L.ROADS + li] = int(D.INITIAL_ROADS[li])
    if sc:
        s[L.TRACK] = int(D.SCEN_TRACK[sc])
        s[L.RESERVE] -= s[L.TRACK]
        for p in range(D.NUM_HISPANIC):
            s[L.SETUP_CITY + p] = -1
        for c in CITIES:
            for _ in range(int(D.SCEN_REVOLTS[sc, c])):
                take_revolt(s, c)
            for i, col in enumerate(int(x) for x in D.SCEN_GARRISONS[sc, c]):
                if col:
                    s[L.GARR + c * L.STACK + i] = col
                    s[L.GARR_RESERVE + col - 1] -= 1
            if D.SCEN_REVOLTS[sc, c] and PROV[c] < 6 and s[L.SETUP_CITY + PROV[c]] < 0:
                s[L.SETUP_CITY + PROV[c]] = c
        for g in range(ROMAN_GENERALS):
            s[L.GEN_POS + g] = int(D.SCEN_GENERALS[sc, g])
        for k in range(L.NUM_ARMY_SLOTS):
            if D.SCEN_ARMIES[sc, k] >= 0:
                s[L.ARMY_POS + k] = int(D.SCEN_ARMIES[sc, k])
        s[L.DISPLAY] = int(D.SCEN_DISPLAY[sc])
        s[L.LETHE] = int(D.SCEN_LETHE[sc])
    s[L.PHASE] = L.PH_SETUP_REVOLT
    s[L.COUNTER] = 0
    run(s, params)
    record_start(s)


def h_targets(s: State, k: int) -> list[int]:
    a = s[L.ARMY_POS + k]
    if a < 0:
        return []
    return [t for t in NBR[a] if t < D.NUM_CITIES and (general_on(s, t) >= 0 or n_garrisons(s, t))]


def hispano_legal(s: State, params: Params) -> list[int]:
    ph = s[L.PHASE]
    den = s[L.HDENARII]
    spend = [L.A_H_SPEND + k - 1 for k in (1, 2) if k <= den]
    if ph == L.PH_SETUP_REVOLT:
        return [L.A_H_FACE + f - 1 for f in revolt_faces(s, params)]
    if ph == L.PH_SETUP_ARMY:
        return sorted(L.A_H_FACE + f - 1 for f in army_faces(s, params))
    if ph == L.PH_H_REVOLT:
        return [L.A_H_ACCEPT, L.A_H_REROLL_R, L.A_H_REROLL_H]
    if ph == L.PH_H_COMBAT:
        return [L.A_H_ACCEPT, L.A_H_REROLL_H]
    if ph == L.PH_H_REINFORCE:
        return [L.A_H_ACCEPT, *spend]
    if ph == L.PH_H_MOVE:
        k = s[L.ARMY_ORDER + s[L.CUR]]
        return [L.A_H_ACCEPT, *sorted(L.A_H_CITY + c for c in candidates(s, k))]
    if ph == L.PH_H_ATTACK:
        armies = [L.A_H_ARMY + k for k in range(L.NUM_ARMY_SLOTS) if h_targets(s, k)]
        return [L.A_H_ACCEPT, *armies]
    # an attack begun is made, never cancelled (ledger row 25)
    if ph == L.PH_H_ATTACK_TARGET:
        return sorted(L.A_H_CITY + t for t in h_targets(s, s[L.COMBAT_ARMY]))
    if ph == L.PH_H_ATTACK_SPEND:
        return spend
    return []


def hispano_apply(s: State, params: Params, a: int) -> None:
    ph = s[L.PHASE]
    if ph == L.PH_SETUP_REVOLT:
        setup_revolt(s, a - L.A_H_FACE + 1)
    elif ph == L.PH_SETUP_ARMY:
        setup_army(s, params, a - L.A_H_FACE + 1)
    elif ph == L.PH_H_REVOLT:
        if a == L.A_H_ACCEPT:
            revolt_takes_effect(s, params)
        else:
            s[L.HDENARII] -= 1
            s[L.PHASE] = L.PH_H_REROLL_PROV if a == L.A_H_REROLL_R else L.PH_H_REROLL_CITY
    elif ph == L.PH_H_MOVE:
        if a == L.A_H_ACCEPT:
            s[L.PHASE] = L.PH_MOVE_DIE
        else:
            s[L.HDENARII] -= 1
            s[L.PHASE] = L.PH_ARMY_MOVE
            try_enter(s, s[L.ARMY_ORDER + s[L.CUR]], a - L.A_H_CITY)
    elif ph == L.PH_H_REINFORCE:
        if a != L.A_H_ACCEPT:
            k = a - L.A_H_SPEND + 1
            s[L.HISP_BONUS] = k
            s[L.HDENARII] -= k
        s[L.PHASE] = L.PH_ROMAN_COMBAT
    elif ph == L.PH_H_COMBAT:
        if a == L.A_H_ACCEPT:
            s[L.H_ACCEPTED] = 1
            _combat(s, params)
        else:
            s[L.HDENARII] -= 1
            s[L.DIE_H] = 0
            roman = s[L.COMBAT_KIND] in (L.CB_SIEGE, L.CB_ATTACK)
            s[L.PHASE] = L.PH_ROMAN_COMBAT if roman else L.PH_ARMY_COMBAT
    elif ph == L.PH_H_ATTACK:
        if a == L.A_H_ACCEPT:
            _attacks_over(s)
        else:
            s[L.COMBAT_ARMY] = a - L.A_H_ARMY
            s[L.PHASE] = L.PH_H_ATTACK_TARGET
    elif ph == L.PH_H_ATTACK_TARGET:
        s[L.PEND_TARGET] = a - L.A_H_CITY
        s[L.PHASE] = L.PH_H_ATTACK_SPEND
    else:
        t = s[L.PEND_TARGET]
        k = a - L.A_H_SPEND + 1
        s[L.COMBAT_KIND] = L.CB_ARMY_GENERAL if general_on(s, t) >= 0 else L.CB_ARMY_GARRISON
        s[L.COMBAT_TARGET] = t
        s[L.PEND_TARGET] = 0
        s[L.HISP_BONUS] = k
        s[L.HDENARII] -= k
        s[L.H_ACCEPTED] = 0
        if s[L.H_ATTACK] == L.HA_AFTER_MOVE:
            s[L.H_ATTACK] = L.HA_COMBAT
        s[L.DIE_H] = s[L.DIE_R] = 0
        s[L.PHASE] = L.PH_ARMY_COMBAT


def legal_actions(state: State, params: Params) -> list[int]:
    s = state
    ph = s[L.PHASE]
    g = s[H_ACTOR]
    if g == L.HISPANO:
        return hispano_legal(s, params)
    if ph == L.PH_SETUP_ROAD:
        keep = [L.A_PASS] if params[L.P_INGENIVM] else []
        return keep + [L.A_ROAD + li for li in range(D.NUM_LINKS) if road_ok(s, li)]
    if ph == L.PH_SETUP_PLACE:
        return [L.A_SPACE + x for x in entries(s, g)]
    if ph == L.PH_REENTER:
        return [L.A_SPACE + x for x in reentries(s, params, g)]
    if ph == L.PH_FREE_MOVE:
        return [L.A_PASS, *sorted(L.A_SPACE + x for x in free_moves(s))]
    if ph != L.PH_ROMAN:
        return []
    den = s[L.DENARII]
    if s[L.PEND_KIND]:  # a chosen combat is fought, never cancelled (ledger row 25)
        return [L.A_SPEND + k - 1 for k in (1, 2, 3) if k <= den]
    if shares_space(s, g):
        return sorted(L.A_SPACE + x for x in general_destinations(s, g))
    m = s[L.MOVER]
    if m >= 0:
        return selected_actions(s, m)
    out = [L.A_PASS]
    out += [L.A_SPACE + x for x in sorted(general_destinations(s, g))]
    for a in range(D.NUM_SEAS):
        for b in range(D.NUM_SEAS):
            c = fleet_cost(s, a, b)
            if c is not None and c <= den:
                out.append(L.A_FLEET + a * D.NUM_SEAS + b)
    here = gen_pos(s, g)
    if here < D.NUM_CITIES:
        if (
            s[L.GARR_RESERVE + g] > 0
            and n_garrisons(s, here) + revolts(s, here) < L.STACK
            and capital_ok(s, here)
        ):
            out.append(L.A_GARRISON)
        if g + 1 in stack(s, here):
            out.append(L.A_UNGARRISON)
        room = n_garrisons(s, here) + revolts(s, here) < L.STACK and capital_ok(s, here)
        if s[L.LEGIO_OWNER] == g and room:
            out.append(L.A_LEGIO)
        if L.LEGIO_COLOUR in stack(s, here):
            out.append(L.A_UNLEGIO)
    if s[L.HELD_ROADS] and here < D.NUM_CITIES:
        for v in NBR[here]:
            li = link_of(here, v)
            if road_ok(s, li) and D.LINK_SEGMENTS[li] <= den:
                out.append(L.A_ROAD + li)
    out += targets(s, g)
    for x in range(L.NUM_GENERALS):
        if x == g or gen_pos(s, x) < 0 or not selected_actions(s, x):
            continue  # a selection is never cancelled: only one with something to do
        if (x == L.PROCONSUL and params[L.P_PROCONSVL]) or (
            x < 2 and g == 2 and params[L.P_IMPERIVM]
        ):
            out.append(L.A_SELECT + x)
    if (
        params[L.P_PROCONSVL]
        and gen_pos(s, L.PROCONSUL) == -1
        and den >= 3
        and fleet(s, SEA0)
        and general_on(s, SEA0) < 0
    ):
        out.append(L.A_PROCONSUL)
    special = s[L.ARMY_POS + L.SPECIAL]
    if assassination_left(s, params) and special >= 0 and linked(here, special):
        out.append(L.A_ASSASSINATE)
    return sorted(out)


def assassination_left(s: State, params: Params) -> bool:
    """'Rome does not pay traitors' may be tried: never yet (``once_per_game``), or also
    after a failure (``while_in_game``); never once the special army is out."""
    used = s[L.TRAITORS_USED]
    return bool(params[L.P_TRAITORS]) and (
        used == 0 or (used == 1 and params[L.P_ASSASSINATION] == 1)
    )


def selected_actions(s: State, m: int) -> list[int]:
    """What selected general ``m`` may do: move (the consul a praetor, anyone the
    proconsul), and the proconsul fight."""
    acts = [L.A_SPACE + x for x in general_destinations(s, m)]
    if m == L.PROCONSUL:
        acts += targets(s, m)
    return sorted(acts)


def targets(s: State, g: int) -> list[int]:
    out = []
    for t in NBR[gen_pos(s, g)]:
        if revolts(s, t):
            if t < D.NUM_CITIES and army_on(s, t) >= 0:
                out.append(L.A_ATTACK + t)
            else:
                out.append(L.A_BESIEGE + t)
    return out


def apply_action(state: State, params: Params, action: int) -> None:
    s = state
    ph = s[L.PHASE]
    g = s[H_ACTOR]
    if g == L.HISPANO:
        hispano_apply(s, params, action)
    elif ph in (L.PH_SETUP_ROAD, L.PH_SETUP_PLACE, L.PH_REENTER, L.PH_FREE_MOVE):
        _placing(s, ph, g, action)
    else:
        _roman_apply(s, params, g, action)
    run(s, params)


def _placing(s: State, ph: int, g: int, a: int) -> None:
    """A set-up road or general, a re-entry, Imperivm's free move."""
    if ph == L.PH_SETUP_ROAD:
        if a == L.A_PASS:
            s[L.HELD_ROADS] += 1
        else:
            s[L.ROADS + a - L.A_ROAD] = 1
        s[L.COUNTER] += 1
    elif ph == L.PH_SETUP_PLACE:
        s[L.GEN_POS + g] = a - L.A_SPACE
        s[L.COUNTER] += 1
    elif ph == L.PH_REENTER:
        s[L.GEN_POS + g] = a - L.A_SPACE
        s[L.PHASE] = L.PH_TURN_START
    else:
        if a != L.A_PASS:
            s[L.GEN_POS] = a - L.A_SPACE
            if a - L.A_SPACE in NORTH:
                s[L.LETHE] = 0
        s[L.PHASE] = L.PH_TURN_NEXT


def _roman_apply(s: State, params: Params, g: int, a: int) -> None:
    """One action of the Roman phase, by its range in the action encoding."""
    if a == L.A_PASS:
        s[L.PEND_KIND] = 0
        _hispanic_phase(s, params)
    elif a < L.A_FLEET:
        _move(s, a - L.A_SPACE)
    elif a < L.A_GARRISON:
        _sail(s, *divmod(a - L.A_FLEET, D.NUM_SEAS))
    elif a in (L.A_GARRISON, L.A_UNGARRISON):
        _garrison(s, g, a == L.A_GARRISON)
    elif a < L.A_ATTACK:
        s[L.PEND_KIND], s[L.PEND_TARGET] = L.PK_BESIEGE, a - L.A_BESIEGE
    elif a < L.A_SPEND:
        s[L.PEND_KIND], s[L.PEND_TARGET] = L.PK_ATTACK, a - L.A_ATTACK
    elif a < L.A_CANCEL:
        _fight(s, a - L.A_SPEND + 1)
    elif a < L.A_SELECT:
        li = a - L.A_ROAD
        s[L.ROADS + li] = 1
        s[L.HELD_ROADS] -= 1
        s[L.DENARII] -= int(D.LINK_SEGMENTS[li])
    elif a < L.A_LEGIO:
        s[L.MOVER] = a - L.A_SELECT
    elif a in (L.A_LEGIO, L.A_UNLEGIO):
        _legio(s, g, a == L.A_LEGIO)
    elif a == L.A_PROCONSUL:
        s[L.GEN_POS + L.PROCONSUL] = SEA0
        s[L.DENARII] -= 3
    else:
        s[L.PEND_KIND] = L.PK_ASSASSINATE
        s[L.PEND_TARGET] = s[L.ARMY_POS + L.SPECIAL]


def _move(s: State, x: int) -> None:
    """The acting general (selected, else the turn's) to space ``x``, paying the way."""
    m = s[L.MOVER] if s[L.MOVER] >= 0 else s[L.TURN]
    s[L.DENARII] -= general_destinations(s, m)[x]
    s[L.GEN_POS + m] = x
    s[L.MOVER] = -1
    if m == 0 and x in NORTH:
        s[L.LETHE] = 0


def _sail(s: State, x: int, y: int) -> None:
    """The fleet of sea ``x`` to sea ``y``, with the general aboard."""
    s[L.DENARII] -= fleet_cost(s, x, y) or 0
    s[L.FLEET + x], s[L.FLEET + y] = 0, 1
    rider = general_on(s, SEA0 + x)
    if rider >= 0:
        s[L.GEN_POS + rider] = SEA0 + y


def _garrison(s: State, g: int, place: bool) -> None:
    """One of general ``g``'s garrisons onto his city (``place``), or his top one back."""
    c = gen_pos(s, g)
    if place:
        s[L.GARR + c * L.STACK + n_garrisons(s, c)] = g + 1
        s[L.GARR_RESERVE + g] -= 1
    else:
        st = stack(s, c)
        top = max(i for i in range(L.STACK) if st[i] == g + 1)
        st = st[:top] + st[top + 1 :] + [0]
        s[L.GARR + c * L.STACK : L.GARR + (c + 1) * L.STACK] = st
        s[L.GARR_RESERVE + g] += 1
    s[L.DENARII] -= 1


def _fight(s: State, k: int) -> None:
    """``k`` denarii on the chosen siege, attack or assassination: to the dice (Hispano
    may reinforce first)."""
    s[L.DENARII] -= k
    s[L.COMBAT_KIND] = {
        L.PK_BESIEGE: L.CB_SIEGE,
        L.PK_ATTACK: L.CB_ATTACK,
        L.PK_ASSASSINATE: L.CB_ASSASSINATE,
    }[s[L.PEND_KIND]]
    s[L.COMBAT_TARGET] = s[L.PEND_TARGET]
    s[L.COMBAT_SPENT] = k
    s[L.COMBAT_ARMY] = -1
    s[L.COMBAT_GEN] = s[L.MOVER] if s[L.MOVER] >= 0 else s[L.TURN]
    s[L.DIE_R] = s[L.DIE_H] = 0
    s[L.PEND_KIND] = s[L.PEND_TARGET] = 0
    s[L.MOVER] = -1
    s[L.HISP_BONUS] = s[L.H_ACCEPTED] = 0
    s[L.PHASE] = L.PH_ROMAN_COMBAT
    if s[L.COMBAT_KIND] != L.CB_ASSASSINATE and s[L.HDENARII]:
        s[L.PHASE] = L.PH_H_REINFORCE


def _legio(s: State, g: int, place: bool) -> None:
    """Legio Hispana: its disc onto general ``g``'s city (``place``), or back to him."""
    c = gen_pos(s, g)
    if place:
        s[L.GARR + c * L.STACK + n_garrisons(s, c)] = L.LEGIO_COLOUR
        s[L.LEGIO_OWNER] = -1
    else:
        st = [x for x in stack(s, c) if x != L.LEGIO_COLOUR]
        s[L.GARR + c * L.STACK : L.GARR + (c + 1) * L.STACK] = st + [0] * (3 - len(st))
        s[L.LEGIO_OWNER] = g
    s[L.DENARII] -= 1


def revolt_faces(s: State, params: Params) -> list[int]:
    sc = params[L.P_SCENARIO]
    return [f + 1 for f in range(6) if D.SCEN_FACES[sc, s[L.COUNTER], f]]


def army_faces(s: State, params: Params) -> list[int]:
    sc = params[L.P_SCENARIO]
    if D.SCEN_ARMY_DIE[sc]:
        p = 4 + s[L.COUNTER]
        return [f + 1 for f in range(6) if revolts(s, p * 6 + f) and army_on(s, p * 6 + f) < 0]
    return [
        p + 1
        for p in range(D.NUM_HISPANIC)
        if s[L.SETUP_CITY + p] >= 0 and army_of_province(s, p) < 0 and not D.SCEN_NO_ARMY[sc, p]
    ]


def chance_weights(state: State, params: Params) -> tuple[list[int], list[int]]:
    kind = state[H_CHANCE_KIND]
    if kind == L.CK_SETUP_ARMY:
        faces = army_faces(state, params)
    elif kind == L.CK_SETUP_REVOLT:
        faces = revolt_faces(state, params)
    else:
        faces = [1, 2, 3, 4, 5, 6]
    return faces, [1] * len(faces)


def apply_chance(state: State, params: Params, outcome: int) -> None:
    s = state
    kind = s[H_CHANCE_KIND]
    s[H_CHANCE_KIND] = 0
    if kind == L.CK_SETUP_REVOLT:
        setup_revolt(s, outcome)
    elif kind == L.CK_SETUP_ARMY:
        setup_army(s, params, outcome)
    elif kind == L.CK_TERROR:
        ordinary = [k for k in range(BASE_ARMIES) if s[L.ARMY_POS + k] == -1]
        special = outcome >= (4 if len(ordinary) == 1 else 5)
        s[L.ARMY_POS + (L.SPECIAL if special else ordinary[0])] = s[L.PLACE_CITY]
        s[L.PHASE] = s[L.RESUME_PHASE]
    elif kind == L.CK_REVOLT_PROV:
        s[L.REVOLT_PROV] = outcome - 1
        if D.SCEN_GUERRILLA[params[L.P_SCENARIO]]:
            s[L.REVOLT_PROV] = 4 if outcome % 2 else 5
        if s[L.PHASE] == L.PH_REVOLT_PROV:
            s[L.PHASE] = L.PH_REVOLT_CITY
        else:
            dice_known(s, params)
    elif kind == L.CK_REVOLT_CITY:
        s[L.REVOLT_NUM] = outcome
        dice_known(s, params)
    elif kind == L.CK_MOVE_DIE:
        k = s[L.ARMY_ORDER + s[L.CUR]]
        t = nearest(candidates(s, k), outcome)
        s[L.PHASE] = L.PH_ARMY_MOVE
        if t < 0:
            s[L.CUR] += 1
        else:
            try_enter(s, k, t)
    else:
        s[L.DIE_R if kind == L.CK_ROMAN_DIE else L.DIE_H] = outcome
        _combat(s, params)
    run(s, params)
    if params[P_EXPLICIT_CHANCE] == 0 and s[H_DECISIONS] == 0:
        record_start(s)  # drawn inside new_game: still the first position


def setup_revolt(s: State, face: int) -> None:
    p = s[L.COUNTER]
    c = p * 6 + face - 1
    s[L.SETUP_CITY + p] = c
    for _ in range(int(D.SETUP_REVOLTS_BY_DIE[face - 1])):
        take_revolt(s, c)
    s[L.COUNTER] += 1


def setup_army(s: State, params: Params, numeral: int) -> None:
    if D.SCEN_ARMY_DIE[params[L.P_SCENARIO]]:
        p = 4 + s[L.COUNTER]
        s[L.ARMY_POS + (0 if s[L.COUNTER] == 0 else L.SPECIAL)] = p * 6 + numeral - 1
        s[L.COUNTER] += 1
        return
    s[L.COUNTER] += 1
    place_army(s, s[L.SETUP_CITY + numeral - 1], L.PH_SETUP_ARMY)


def dice_known(s: State, params: Params) -> None:
    if s[L.HDENARII]:
        s[L.PHASE] = L.PH_H_REVOLT
    else:
        revolt_takes_effect(s, params)


def revolt_takes_effect(s: State, params: Params) -> None:
    resume = s[L.REVOLT_RESUME] or L.PH_MOVE_START
    s[L.REVOLT_RESUME] = 0
    s[L.PHASE] = resume
    p = s[L.REVOLT_PROV]
    c = p * 6 + s[L.REVOLT_NUM] - 1
    if n_garrisons(s, c) or general_on(s, c) >= 0:
        return
    in_reserve = any(s[L.ARMY_POS + k] == -1 for k in range(L.NUM_ARMY_SLOTS))
    if not revolts(s, c):
        take_revolt(s, c)
    elif army_of_province(s, p) < 0 and in_reserve:
        place_army(s, c, resume)
    elif revolts(s, c) < L.STACK:
        take_revolt(s, c)


def _reroll_pending(s: State) -> bool:
    if s[L.HDENARII] and not s[L.H_ACCEPTED]:
        s[L.PHASE] = L.PH_H_COMBAT
        return True
    return False


def _combat(s: State, params: Params) -> None:
    cb = s[L.COMBAT_KIND]
    t = s[L.COMBAT_TARGET]
    g = s[L.COMBAT_GEN]
    if cb == L.CB_SIEGE:
        bonus = 1 if params[L.P_IMPERIVM] and g == 1 else 0
        siege(s, params, g, t, s[L.COMBAT_SPENT], s[L.DIE_R] + bonus)
        s[L.PHASE] = L.PH_ROMAN
    elif cb == L.CB_ASSASSINATE:
        if s[L.DIE_H] <= s[L.COMBAT_SPENT]:
            c = s[L.ARMY_POS + L.SPECIAL]
            s[L.ARMY_POS + L.SPECIAL] = L.GONE
            s[L.ARMY_POS + 2] = c
            s[L.TRAITORS_USED] = 2
            s[L.PHASE] = L.PH_ROMAN
        else:
            s[L.TRAITORS_USED] = 1
            s[L.REVOLT_RESUME] = L.PH_ROMAN
            s[L.PHASE] = L.PH_REVOLT_PROV
    elif cb == L.CB_ATTACK:
        if not s[L.DIE_H] or _reroll_pending(s):
            return
        won = attack(s, params, g, t, s[L.COMBAT_SPENT], s[L.DIE_R], s[L.DIE_H])
        if won:
            s[L.PHASE] = L.PH_ROMAN
        else:
            _hispanic_phase(s, params)  # a lost attack ends the Roman phase
    else:
        if cb == L.CB_ARMY_GENERAL and not s[L.DIE_R]:
            return
        if _reroll_pending(s):
            return
        army_attack(s, params, cb, s[L.COMBAT_ARMY], t, s[L.DIE_H], s[L.DIE_R])
        if s[L.H_ATTACK]:
            if s[L.H_ATTACK] == L.HA_COMBAT:
                s[L.H_ATTACK] = L.HA_AFTER_MOVE
            s[L.PHASE] = L.PH_H_ATTACK
        else:
            s[L.CUR] += 1
            s[L.PHASE] = L.PH_ARMY_MOVE
    s[L.COMBAT_KIND] = s[L.DIE_R] = s[L.DIE_H] = s[L.HISP_BONUS] = 0


def rome_standing(state: State, params: Params) -> float:
    """Rome's standing in [0, 1]: the ``STANDING_*`` weights (layout.py) on the capitals'
    share, the reserve's share and 1 / (1 + revolts in the Roman provinces), over their
    sum, as the compiled ``rome_standing``."""
    return standing_of(*aim_counts(state))


def aim_counts(state: State) -> tuple[int, int, int]:
    """The capitals garrisoned, the reserve and the Roman provinces' revolts."""
    capitals = sum(1 for p in range(D.NUM_HISPANIC) if state[L.GARR + (p * 6 + 5) * L.STACK] != 0)
    roman_revolts = sum(
        state[L.REVOLTS + c] for c in range(D.NUM_CITIES) if D.CITY_PROVINCE[c] >= D.NUM_HISPANIC
    )
    return capitals, state[L.RESERVE], roman_revolts


def record_start(s: State) -> None:
    """Rome's aims at the first position, the progress reward's zero (version 4)."""
    s[L.START_AIMS], s[L.START_AIMS + 1], s[L.START_AIMS + 2] = aim_counts(s)


def start_standing(state: State) -> float:
    """Rome's standing at the first position (``START_AIMS``)."""
    return standing_of(*(state[L.START_AIMS + i] for i in range(3)))


def standing_of(capitals: int, reserve_count: int, roman_revolts: int) -> float:
    """The ``STANDING_*`` weights on the scaled aims of these counts, over their sum."""
    reserve = min(max(reserve_count, 0) / D.TOTAL_REVOLTS, 1.0)
    clear = 1.0 / (1.0 + roman_revolts)
    weights = (L.STANDING_CAPITALS, L.STANDING_RESERVE, L.STANDING_CLEAR)
    aims = (capitals / D.NUM_HISPANIC, reserve, clear)
    return sum(w * a for w, a in zip(weights, aims, strict=True)) / sum(weights)


def returns(state: State, params: Params) -> list[float]:
    w = state[L.WINNER]
    v = 1.0 if w == L.W_ROME else -1.0 if w == L.W_HISPANIA else 0.0
    if params[L.P_REWARD] == 1:
        v += L.PROGRESS_WEIGHT * (rome_standing(state, params) - start_standing(state))
    out = [v if p < params[_P_NUM_PLAYERS] else 0.0 for p in range(L.MAX_PLAYERS)]
    if params[L.P_HISPANO]:
        out[L.HISPANO] = -v
    return out

"""Hispania's rules in plain Python: the oracle the compiled core is compared against.

Written separately from ``rules.py`` (sets, dicts and ``heapq`` instead of array
kernels) over a plain ``list`` with the identical layout and the same draw order, so a
whole game can be compared word by word. Driven by
:class:`boardsim.core.reference.ReferenceEngine`. The board, moves and combats are in
:mod:`boardsim.games.hispania.reference_board`.
"""

from __future__ import annotations

from collections.abc import Callable

from boardsim.core.header import CHANCE, FLAG_TERMINAL, H_ACTOR, H_CHANCE_KIND, H_FLAGS, TERMINAL
from boardsim.core.header import P_NUM_PLAYERS as _P_NUM_PLAYERS
from boardsim.games.hispania import data as hd
from boardsim.games.hispania import layout as hl
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
    return any(s[hl.ROADS + link_of(c, v)] for v in NBR[c])


def road_ok(s: State, li: int) -> bool:
    a, b = int(hd.LINK_A[li]), int(hd.LINK_B[li])
    if hd.LINK_SEA[li] or s[hl.ROADS + li]:
        return False
    if revolts(s, a) or revolts(s, b) or a in CAPITAL or b in CAPITAL:
        return False
    return on_network(s, a) or on_network(s, b)


def entry_ok(s: State, g: int, x: int) -> bool:
    if general_on(s, x) >= 0:
        return False
    if g < 2:
        return x < hd.NUM_CITIES and PROV[x] == 6 + g and not revolts(s, x)
    return fleet(s, x)


def entries(s: State, g: int) -> list[int]:
    return [x for x in SPACES if entry_ok(s, g, x)]


def reentries(s: State, params: Params, g: int) -> list[int]:
    """Where a returning general may enter: an occupied space only if he can then leave."""
    out = []
    for x in SPACES:
        own = x < hd.NUM_CITIES and PROV[x] == 6 + g and not revolts(s, x)
        ok = own if g < 2 else fleet(s, x)
        if ok and general_on(s, x) >= 0:
            trial = list(s)
            trial[hl.GEN_POS + g] = x
            off = sum(1 for y in range(ROMAN_GENERALS) if trial[hl.GEN_POS + y] < 0)
            trial[hl.DENARII] = params[hl.P_DENARII] - off
            ok = bool(general_destinations(trial, g))
        if ok:
            out.append(x)
    return out


def shares_space(s: State, g: int) -> bool:
    here = gen_pos(s, g)
    return here >= 0 and any(gen_pos(s, x) == here for x in range(hl.NUM_GENERALS) if x != g)


def capital_ok(s: State, c: int) -> bool:
    return c not in CAPITAL or all(not revolts(s, x) for x in province_cities(PROV[c]))


# ---------------------------------------------------------------- Hispanic moves
def candidates(s: State, k: int) -> list[int]:
    a = s[hl.ARMY_POS + k]
    p = PROV[a]
    full = all(revolts(s, c) for c in province_cities(p))
    out = [
        v
        for v in NBR[a]
        if v < hd.NUM_CITIES and (PROV[v] == p or (full and army_of_province(s, PROV[v]) < 0))
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
        s[hl.COMBAT_KIND] = hl.CB_ARMY_GENERAL if general_on(s, t) >= 0 else hl.CB_ARMY_GARRISON
        s[hl.COMBAT_TARGET] = t
        s[hl.COMBAT_ARMY] = k
        s[hl.DIE_H] = s[hl.DIE_R] = s[hl.HISP_BONUS] = s[hl.H_ACCEPTED] = 0
        s[hl.PHASE] = hl.PH_ARMY_COMBAT
        return
    if not revolts(s, t) and not take_revolt(s, t):
        return
    s[hl.ARMY_POS + k] = t
    s[hl.CUR] += 1


def place_army(s: State, c: int, resume: int) -> None:
    ordinary = [k for k in range(BASE_ARMIES) if s[hl.ARMY_POS + k] == -1]
    special = s[hl.ARMY_POS + hl.SPECIAL] == -1
    s[hl.PHASE] = resume
    if special and ordinary:
        s[hl.PLACE_CITY], s[hl.RESUME_PHASE], s[hl.PHASE] = c, resume, hl.PH_TERROR
    elif special:
        s[hl.ARMY_POS + hl.SPECIAL] = c
    elif ordinary:
        s[hl.ARMY_POS + ordinary[0]] = c


def free_moves(s: State) -> list[int]:
    here = gen_pos(s, 0)
    if here < 0:
        return []
    return [
        v
        for v in NBR[here]
        if general_on(s, v) < 0
        and can_enter(s, v, 0)
        and not (s[hl.LETHE] and v in NORTH and link_of(here, v) not in CROSSINGS)
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
        step = _STEPS.get(s[hl.PHASE])
        if step is None or not step(s, params):
            return


def _game_over(s: State) -> bool:
    if s[hl.WINNER] == hl.W_NONE and s[hl.PHASE] >= hl.PH_TURN_START and rome_has_won(s):
        s[hl.WINNER] = hl.W_ROME
    if s[hl.WINNER] == hl.W_NONE:
        return False
    s[hl.PHASE] = hl.PH_OVER
    s[H_ACTOR] = TERMINAL
    s[H_CHANCE_KIND] = 0
    s[H_FLAGS] |= FLAG_TERMINAL
    return True


def _setup_revolts(s: State, params: Params) -> bool:
    sc = params[hl.P_SCENARIO]
    while s[hl.COUNTER] < hd.NUM_HISPANIC and not hd.SCEN_RANDOM[sc, s[hl.COUNTER]]:
        s[hl.COUNTER] += 1
    if s[hl.COUNTER] < hd.NUM_HISPANIC:
        if params[hl.P_HISPANO]:
            return _decide(s, hl.HISPANO)
        return _chance(s, hl.CK_SETUP_REVOLT)
    s[hl.PHASE] = hl.PH_SETUP_ARMY
    s[hl.COUNTER] = sum(1 for k in range(hl.NUM_ARMY_SLOTS) if s[hl.ARMY_POS + k] >= 0)
    return True


def _setup_armies(s: State, params: Params) -> bool:
    if s[hl.COUNTER] < params[hl.P_ARMIES] and army_faces(s, params):
        if params[hl.P_HISPANO]:
            return _decide(s, hl.HISPANO)
        return _chance(s, hl.CK_SETUP_ARMY)
    s[hl.PHASE], s[hl.COUNTER] = hl.PH_SETUP_ROAD, 0
    return True


def _setup_roads(s: State, params: Params) -> bool:
    legal = [li for li in range(hd.NUM_LINKS) if road_ok(s, li)]
    if s[hl.COUNTER] < params[hl.P_ROADS] and legal:
        if params[hl.P_AUTO_SETUP]:
            s[hl.ROADS + legal[0]] = 1
            s[hl.COUNTER] += 1
            return True
        return _decide(s, s[hl.COUNTER] % ROMAN_GENERALS)
    if params[hl.P_INGENIVM]:
        s[hl.HELD_ROADS] += max(0, params[hl.P_ROADS] - s[hl.COUNTER])
    s[hl.PHASE], s[hl.COUNTER] = hl.PH_SETUP_PLACE, 0
    return True


def _setup_place(s: State, params: Params) -> bool:
    sc = params[hl.P_SCENARIO]
    if sc:  # a scenario's generals stand already
        s[hl.TURN] = int(hd.SCEN_TURN[sc])
        if hd.SCEN_START_HISPANIC[sc]:
            s[hl.HDENARII] = 2 if params[hl.P_HISPANO] else 0
            _hispanic_phase(s, params)
        else:
            s[hl.PHASE] = hl.PH_TURN_START
        return True
    g = s[hl.COUNTER]
    if g >= ROMAN_GENERALS:
        s[hl.TURN], s[hl.PHASE] = 0, hl.PH_TURN_START
        return True
    options = entries(s, g)
    if options and not params[hl.P_AUTO_SETUP]:
        return _decide(s, g)
    if options:
        plus = int(hd.PLUS_ONE_CITY[g]) if g < 2 else -1
        s[hl.GEN_POS + g] = plus if plus in options else options[0]
    s[hl.COUNTER] += 1
    return True


def _turn_start(s: State, params: Params) -> bool:
    g = s[hl.TURN]
    s[hl.HDENARII] = 2 if params[hl.P_HISPANO] else 0
    if gen_pos(s, g) < 0:
        if reentries(s, params, g):
            s[hl.PHASE] = hl.PH_REENTER
            return _decide(s, g)
        _hispanic_phase(s, params)
        return True
    off = sum(1 for x in range(ROMAN_GENERALS) if gen_pos(s, x) < 0)
    s[hl.DENARII] = params[hl.P_DENARII] - off
    s[hl.PEND_KIND] = s[hl.PEND_TARGET] = 0
    s[hl.MOVER] = -1
    s[hl.PHASE] = hl.PH_ROMAN
    return True


def _roman(s: State, params: Params) -> bool:
    if s[hl.DENARII] <= 0 or gen_pos(s, s[hl.TURN]) < 0:
        s[hl.PEND_KIND] = 0
        s[hl.MOVER] = -1
        _hispanic_phase(s, params)
        return True
    return _decide(s, s[hl.TURN])


def _roman_combat(s: State, params: Params) -> bool:
    if s[hl.COMBAT_KIND] == hl.CB_ASSASSINATE or s[hl.DIE_R]:
        return _chance(s, hl.CK_HISP_DIE)
    return _chance(s, hl.CK_ROMAN_DIE)


def _any_step(params: Params) -> bool:
    """hispano_attacks="any_step": attack steps before the revolt roll and the move too."""
    return bool(params[hl.P_HISPANO]) and params[hl.P_HISPANO_ATTACKS] == 1


def _hispanic_phase(s: State, params: Params) -> None:
    if _any_step(params):
        s[hl.H_ATTACK], s[hl.PHASE] = hl.HA_BEFORE_REVOLT, hl.PH_H_ATTACK
    else:
        s[hl.PHASE] = hl.PH_REVOLT_PROV


def _hispano_attacks(s: State, params: Params) -> bool:
    if s[hl.HDENARII] and any(h_targets(s, k) for k in range(hl.NUM_ARMY_SLOTS)):
        return _decide(s, hl.HISPANO)
    _attacks_over(s)
    return True


def _attacks_over(s: State) -> None:
    """After Hispano's attack step: the roll, the move or the turn's end (H_ATTACK)."""
    step, s[hl.H_ATTACK] = s[hl.H_ATTACK], 0
    if step == hl.HA_BEFORE_REVOLT:
        s[hl.PHASE] = hl.PH_REVOLT_PROV
    elif step == hl.HA_BEFORE_MOVE:
        _armies_move(s)
    else:
        s[hl.PHASE] = hl.PH_TURN_END


def _move_start(s: State, params: Params) -> bool:
    if _any_step(params):
        s[hl.H_ATTACK], s[hl.PHASE] = hl.HA_BEFORE_MOVE, hl.PH_H_ATTACK
    else:
        _armies_move(s)
    return True


def _armies_move(s: State) -> None:
    order = [army_of_province(s, p) for p in range(hd.NUM_PROVINCES)]
    order = [k for k in order if k >= 0]
    order += [-1] * (hl.NUM_ARMY_SLOTS - len(order))
    s[hl.ARMY_ORDER : hl.ARMY_ORDER + hl.NUM_ARMY_SLOTS] = order
    s[hl.CUR] = 0
    s[hl.PHASE] = hl.PH_ARMY_MOVE


def _army_move(s: State, params: Params) -> bool:
    i = s[hl.CUR]
    if i >= hl.NUM_ARMY_SLOTS or s[hl.ARMY_ORDER + i] < 0:
        s[hl.PHASE] = hl.PH_H_ATTACK if params[hl.P_HISPANO] else hl.PH_TURN_END
        return True
    k = s[hl.ARMY_ORDER + i]
    if s[hl.ARMY_POS + k] < 0:
        s[hl.CUR] += 1
        return True
    cands = candidates(s, k)
    if not cands:
        s[hl.CUR] += 1
    elif len(cands) == 1:
        try_enter(s, k, cands[0])
    elif params[hl.P_HISPANO] and s[hl.HDENARII]:
        s[hl.PHASE] = hl.PH_H_MOVE
    else:
        s[hl.PHASE] = hl.PH_MOVE_DIE
        return _chance(s, hl.CK_MOVE_DIE)
    return True


def _turn_end(s: State, params: Params) -> bool:
    s[hl.PHASE] = hl.PH_TURN_NEXT
    if s[hl.TURN] == 2:
        s[hl.DISPLAY] = 0
    if params[hl.P_IMPERIVM] and s[hl.TURN] == 0 and free_moves(s):
        s[hl.PHASE] = hl.PH_FREE_MOVE
        return _decide(s, 0)
    return True


def _turn_next(s: State, params: Params) -> bool:
    if s[hl.TURN] < ROMAN_GENERALS - 1:
        s[hl.TURN] += 1
        s[hl.PHASE] = hl.PH_TURN_START
    elif s[hl.RESERVE] == 0:
        s[hl.WINNER] = hl.W_HISPANIA
    else:
        s[hl.RESERVE] -= 1
        s[hl.TRACK] += 1
        if s[hl.TRACK] >= hd.SCEN_TRACK_LIMIT[params[hl.P_SCENARIO]]:
            s[hl.WINNER] = hl.W_HISPANIA
        else:
            s[hl.TURN], s[hl.PHASE] = 0, hl.PH_TURN_START
    return True


def _rolls(kind: int) -> Callable[[State, Params], bool]:
    return lambda s, params: _chance(s, kind)


def _army_combat(s: State, params: Params) -> bool:
    return _chance(s, hl.CK_HISP_DIE if s[hl.DIE_H] == 0 else hl.CK_ROMAN_DIE)


def _hispano_decides(s: State, params: Params) -> bool:
    return _decide(s, hl.HISPANO)


# what each phase does by itself (a phase not here waits for its decision)
_STEPS: dict[int, Callable[[State, Params], bool]] = {
    **{ph: _hispano_decides for ph in range(hl.PH_H_REVOLT, hl.NUM_PHASES)},
    hl.PH_SETUP_REVOLT: _setup_revolts,
    hl.PH_SETUP_ARMY: _setup_armies,
    hl.PH_SETUP_ROAD: _setup_roads,
    hl.PH_SETUP_PLACE: _setup_place,
    hl.PH_TURN_START: _turn_start,
    hl.PH_ROMAN: _roman,
    hl.PH_ROMAN_COMBAT: _roman_combat,
    hl.PH_REVOLT_PROV: _rolls(hl.CK_REVOLT_PROV),
    hl.PH_H_REROLL_PROV: _rolls(hl.CK_REVOLT_PROV),
    hl.PH_REVOLT_CITY: _rolls(hl.CK_REVOLT_CITY),
    hl.PH_H_REROLL_CITY: _rolls(hl.CK_REVOLT_CITY),
    hl.PH_MOVE_DIE: _rolls(hl.CK_MOVE_DIE),
    hl.PH_H_ATTACK: _hispano_attacks,
    hl.PH_TERROR: _rolls(hl.CK_TERROR),
    hl.PH_MOVE_START: _move_start,
    hl.PH_ARMY_MOVE: _army_move,
    hl.PH_ARMY_COMBAT: _army_combat,
    hl.PH_TURN_END: _turn_end,
    hl.PH_TURN_NEXT: _turn_next,
}


# ---------------------------------------------------------------- the reference API
def init(state: State, params: Params, seed: int) -> None:
    s = state
    for k in range(hl.NUM_ARMY_SLOTS):
        s[hl.ARMY_POS + k] = -1
        s[hl.ARMY_ORDER + k] = -1
    if params[hl.P_TERROR]:
        s[hl.ARMY_POS + 2] = hl.GONE
    else:
        s[hl.ARMY_POS + hl.SPECIAL] = hl.GONE
    s[hl.MOVER] = -1
    s[hl.LEGIO_OWNER] = 2 if params[hl.P_LEGIO] else hl.GONE
    for g in range(hl.NUM_GENERALS):
        s[hl.GEN_POS + g] = -1 if g < ROMAN_GENERALS or params[hl.P_PROCONSVL] else hl.GONE
        s[hl.GARR_RESERVE + g] = params[hl.P_GARRISONS] if g < ROMAN_GENERALS else 0
    s[hl.RESERVE] = hd.TOTAL_REVOLTS
    sc = params[hl.P_SCENARIO]
    named = [i for i in range(hd.NUM_SEAS) if hd.SCEN_FLEET_SEAS[sc, i]]
    order = named + [i for i in range(hd.NUM_SEAS) if i not in named]
    for i in order[: params[hl.P_FLEETS]]:
        s[hl.FLEET + i] = 1
    if params[hl.P_PIRATES]:
        for i in range(hd.NUM_SEAS):
            if not s[hl.FLEET + i]:
                take_revolt(s, SEA0 + i)
    for li in range(hd.NUM_LINKS):
        s[hl.ROADS + li] = int(hd.INITIAL_ROADS[li])
    if sc:
        s[hl.TRACK] = int(hd.SCEN_TRACK[sc])
        s[hl.RESERVE] -= s[hl.TRACK]
        for p in range(hd.NUM_HISPANIC):
            s[hl.SETUP_CITY + p] = -1
        for c in CITIES:
            for _ in range(int(hd.SCEN_REVOLTS[sc, c])):
                take_revolt(s, c)
            for i, col in enumerate(int(x) for x in hd.SCEN_GARRISONS[sc, c]):
                if col:
                    s[hl.GARR + c * hl.STACK + i] = col
                    s[hl.GARR_RESERVE + col - 1] -= 1
            if hd.SCEN_REVOLTS[sc, c] and PROV[c] < 6 and s[hl.SETUP_CITY + PROV[c]] < 0:
                s[hl.SETUP_CITY + PROV[c]] = c
        for g in range(ROMAN_GENERALS):
            s[hl.GEN_POS + g] = int(hd.SCEN_GENERALS[sc, g])
        for k in range(hl.NUM_ARMY_SLOTS):
            if hd.SCEN_ARMIES[sc, k] >= 0:
                s[hl.ARMY_POS + k] = int(hd.SCEN_ARMIES[sc, k])
        s[hl.DISPLAY] = int(hd.SCEN_DISPLAY[sc])
        s[hl.LETHE] = int(hd.SCEN_LETHE[sc])
    s[hl.PHASE] = hl.PH_SETUP_REVOLT
    s[hl.COUNTER] = 0
    run(s, params)


def h_targets(s: State, k: int) -> list[int]:
    a = s[hl.ARMY_POS + k]
    if a < 0:
        return []
    return [t for t in NBR[a] if t < hd.NUM_CITIES and (general_on(s, t) >= 0 or n_garrisons(s, t))]


def hispano_legal(s: State, params: Params) -> list[int]:
    ph = s[hl.PHASE]
    den = s[hl.HDENARII]
    spend = [hl.A_H_SPEND + k - 1 for k in (1, 2) if k <= den]
    if ph == hl.PH_SETUP_REVOLT:
        return [hl.A_H_FACE + f - 1 for f in revolt_faces(s, params)]
    if ph == hl.PH_SETUP_ARMY:
        return sorted(hl.A_H_FACE + f - 1 for f in army_faces(s, params))
    if ph == hl.PH_H_REVOLT:
        return [hl.A_H_ACCEPT, hl.A_H_REROLL_R, hl.A_H_REROLL_H]
    if ph == hl.PH_H_COMBAT:
        return [hl.A_H_ACCEPT, hl.A_H_REROLL_H]
    if ph == hl.PH_H_REINFORCE:
        return [hl.A_H_ACCEPT, *spend]
    if ph == hl.PH_H_MOVE:
        k = s[hl.ARMY_ORDER + s[hl.CUR]]
        return [hl.A_H_ACCEPT, *sorted(hl.A_H_CITY + c for c in candidates(s, k))]
    if ph == hl.PH_H_ATTACK:
        armies = [hl.A_H_ARMY + k for k in range(hl.NUM_ARMY_SLOTS) if h_targets(s, k)]
        return [hl.A_H_ACCEPT, *armies]
    # an attack begun is made, never cancelled (ledger row 25)
    if ph == hl.PH_H_ATTACK_TARGET:
        return sorted(hl.A_H_CITY + t for t in h_targets(s, s[hl.COMBAT_ARMY]))
    if ph == hl.PH_H_ATTACK_SPEND:
        return spend
    return []


def hispano_apply(s: State, params: Params, a: int) -> None:
    ph = s[hl.PHASE]
    if ph == hl.PH_SETUP_REVOLT:
        setup_revolt(s, a - hl.A_H_FACE + 1)
    elif ph == hl.PH_SETUP_ARMY:
        setup_army(s, params, a - hl.A_H_FACE + 1)
    elif ph == hl.PH_H_REVOLT:
        if a == hl.A_H_ACCEPT:
            revolt_takes_effect(s, params)
        else:
            s[hl.HDENARII] -= 1
            s[hl.PHASE] = hl.PH_H_REROLL_PROV if a == hl.A_H_REROLL_R else hl.PH_H_REROLL_CITY
    elif ph == hl.PH_H_MOVE:
        if a == hl.A_H_ACCEPT:
            s[hl.PHASE] = hl.PH_MOVE_DIE
        else:
            s[hl.HDENARII] -= 1
            s[hl.PHASE] = hl.PH_ARMY_MOVE
            try_enter(s, s[hl.ARMY_ORDER + s[hl.CUR]], a - hl.A_H_CITY)
    elif ph == hl.PH_H_REINFORCE:
        if a != hl.A_H_ACCEPT:
            k = a - hl.A_H_SPEND + 1
            s[hl.HISP_BONUS] = k
            s[hl.HDENARII] -= k
        s[hl.PHASE] = hl.PH_ROMAN_COMBAT
    elif ph == hl.PH_H_COMBAT:
        if a == hl.A_H_ACCEPT:
            s[hl.H_ACCEPTED] = 1
            _combat(s, params)
        else:
            s[hl.HDENARII] -= 1
            s[hl.DIE_H] = 0
            roman = s[hl.COMBAT_KIND] in (hl.CB_SIEGE, hl.CB_ATTACK)
            s[hl.PHASE] = hl.PH_ROMAN_COMBAT if roman else hl.PH_ARMY_COMBAT
    elif ph == hl.PH_H_ATTACK:
        if a == hl.A_H_ACCEPT:
            _attacks_over(s)
        else:
            s[hl.COMBAT_ARMY] = a - hl.A_H_ARMY
            s[hl.PHASE] = hl.PH_H_ATTACK_TARGET
    elif ph == hl.PH_H_ATTACK_TARGET:
        s[hl.PEND_TARGET] = a - hl.A_H_CITY
        s[hl.PHASE] = hl.PH_H_ATTACK_SPEND
    else:
        t = s[hl.PEND_TARGET]
        k = a - hl.A_H_SPEND + 1
        s[hl.COMBAT_KIND] = hl.CB_ARMY_GENERAL if general_on(s, t) >= 0 else hl.CB_ARMY_GARRISON
        s[hl.COMBAT_TARGET] = t
        s[hl.PEND_TARGET] = 0
        s[hl.HISP_BONUS] = k
        s[hl.HDENARII] -= k
        s[hl.H_ACCEPTED] = 0
        if s[hl.H_ATTACK] == hl.HA_AFTER_MOVE:
            s[hl.H_ATTACK] = hl.HA_COMBAT
        s[hl.DIE_H] = s[hl.DIE_R] = 0
        s[hl.PHASE] = hl.PH_ARMY_COMBAT


def legal_actions(state: State, params: Params) -> list[int]:
    s = state
    ph = s[hl.PHASE]
    g = s[H_ACTOR]
    if g == hl.HISPANO:
        return hispano_legal(s, params)
    if ph == hl.PH_SETUP_ROAD:
        keep = [hl.A_PASS] if params[hl.P_INGENIVM] else []
        return keep + [hl.A_ROAD + li for li in range(hd.NUM_LINKS) if road_ok(s, li)]
    if ph == hl.PH_SETUP_PLACE:
        return [hl.A_SPACE + x for x in entries(s, g)]
    if ph == hl.PH_REENTER:
        return [hl.A_SPACE + x for x in reentries(s, params, g)]
    if ph == hl.PH_FREE_MOVE:
        return [hl.A_PASS, *sorted(hl.A_SPACE + x for x in free_moves(s))]
    if ph != hl.PH_ROMAN:
        return []
    den = s[hl.DENARII]
    if s[hl.PEND_KIND]:  # a chosen combat is fought, never cancelled (ledger row 25)
        return [hl.A_SPEND + k - 1 for k in (1, 2, 3) if k <= den]
    if shares_space(s, g):
        return sorted(hl.A_SPACE + x for x in general_destinations(s, g))
    m = s[hl.MOVER]
    if m >= 0:
        return selected_actions(s, m)
    out = [hl.A_PASS]
    out += [hl.A_SPACE + x for x in sorted(general_destinations(s, g))]
    for a in range(hd.NUM_SEAS):
        for b in range(hd.NUM_SEAS):
            c = fleet_cost(s, a, b)
            if c is not None and c <= den:
                out.append(hl.A_FLEET + a * hd.NUM_SEAS + b)
    here = gen_pos(s, g)
    if here < hd.NUM_CITIES:
        if (
            s[hl.GARR_RESERVE + g] > 0
            and n_garrisons(s, here) + revolts(s, here) < hl.STACK
            and capital_ok(s, here)
        ):
            out.append(hl.A_GARRISON)
        if g + 1 in stack(s, here):
            out.append(hl.A_UNGARRISON)
        room = n_garrisons(s, here) + revolts(s, here) < hl.STACK and capital_ok(s, here)
        if s[hl.LEGIO_OWNER] == g and room:
            out.append(hl.A_LEGIO)
        if hl.LEGIO_COLOUR in stack(s, here):
            out.append(hl.A_UNLEGIO)
    if s[hl.HELD_ROADS] and here < hd.NUM_CITIES:
        for v in NBR[here]:
            li = link_of(here, v)
            if road_ok(s, li) and hd.LINK_SEGMENTS[li] <= den:
                out.append(hl.A_ROAD + li)
    out += targets(s, g)
    for x in range(hl.NUM_GENERALS):
        if x == g or gen_pos(s, x) < 0 or not selected_actions(s, x):
            continue  # a selection is never cancelled: only one with something to do
        if (x == hl.PROCONSUL and params[hl.P_PROCONSVL]) or (
            x < 2 and g == 2 and params[hl.P_IMPERIVM]
        ):
            out.append(hl.A_SELECT + x)
    if (
        params[hl.P_PROCONSVL]
        and gen_pos(s, hl.PROCONSUL) == -1
        and den >= 3
        and fleet(s, SEA0)
        and general_on(s, SEA0) < 0
    ):
        out.append(hl.A_PROCONSUL)
    special = s[hl.ARMY_POS + hl.SPECIAL]
    if assassination_left(s, params) and special >= 0 and linked(here, special):
        out.append(hl.A_ASSASSINATE)
    return sorted(out)


def assassination_left(s: State, params: Params) -> bool:
    """'Rome does not pay traitors' may be tried: never yet (``once_per_game``), or also
    after a failure (``while_in_game``); never once the special army is out."""
    used = s[hl.TRAITORS_USED]
    return bool(params[hl.P_TRAITORS]) and (
        used == 0 or (used == 1 and params[hl.P_ASSASSINATION] == 1)
    )


def selected_actions(s: State, m: int) -> list[int]:
    """What selected general ``m`` may do: move (the consul a praetor, anyone the
    proconsul), and the proconsul fight."""
    acts = [hl.A_SPACE + x for x in general_destinations(s, m)]
    if m == hl.PROCONSUL:
        acts += targets(s, m)
    return sorted(acts)


def targets(s: State, g: int) -> list[int]:
    out = []
    for t in NBR[gen_pos(s, g)]:
        if revolts(s, t):
            if t < hd.NUM_CITIES and army_on(s, t) >= 0:
                out.append(hl.A_ATTACK + t)
            else:
                out.append(hl.A_BESIEGE + t)
    return out


def apply_action(state: State, params: Params, action: int) -> None:
    s = state
    ph = s[hl.PHASE]
    g = s[H_ACTOR]
    if g == hl.HISPANO:
        hispano_apply(s, params, action)
    elif ph in (hl.PH_SETUP_ROAD, hl.PH_SETUP_PLACE, hl.PH_REENTER, hl.PH_FREE_MOVE):
        _placing(s, ph, g, action)
    else:
        _roman_apply(s, params, g, action)
    run(s, params)


def _placing(s: State, ph: int, g: int, a: int) -> None:
    """A set-up road or general, a re-entry, Imperivm's free move."""
    if ph == hl.PH_SETUP_ROAD:
        if a == hl.A_PASS:
            s[hl.HELD_ROADS] += 1
        else:
            s[hl.ROADS + a - hl.A_ROAD] = 1
        s[hl.COUNTER] += 1
    elif ph == hl.PH_SETUP_PLACE:
        s[hl.GEN_POS + g] = a - hl.A_SPACE
        s[hl.COUNTER] += 1
    elif ph == hl.PH_REENTER:
        s[hl.GEN_POS + g] = a - hl.A_SPACE
        s[hl.PHASE] = hl.PH_TURN_START
    else:
        if a != hl.A_PASS:
            s[hl.GEN_POS] = a - hl.A_SPACE
            if a - hl.A_SPACE in NORTH:
                s[hl.LETHE] = 0
        s[hl.PHASE] = hl.PH_TURN_NEXT


def _roman_apply(s: State, params: Params, g: int, a: int) -> None:
    """One action of the Roman phase, by its range in the action encoding."""
    if a == hl.A_PASS:
        s[hl.PEND_KIND] = 0
        _hispanic_phase(s, params)
    elif a < hl.A_FLEET:
        _move(s, a - hl.A_SPACE)
    elif a < hl.A_GARRISON:
        _sail(s, *divmod(a - hl.A_FLEET, hd.NUM_SEAS))
    elif a in (hl.A_GARRISON, hl.A_UNGARRISON):
        _garrison(s, g, a == hl.A_GARRISON)
    elif a < hl.A_ATTACK:
        s[hl.PEND_KIND], s[hl.PEND_TARGET] = hl.PK_BESIEGE, a - hl.A_BESIEGE
    elif a < hl.A_SPEND:
        s[hl.PEND_KIND], s[hl.PEND_TARGET] = hl.PK_ATTACK, a - hl.A_ATTACK
    elif a < hl.A_CANCEL:
        _fight(s, a - hl.A_SPEND + 1)
    elif a < hl.A_SELECT:
        li = a - hl.A_ROAD
        s[hl.ROADS + li] = 1
        s[hl.HELD_ROADS] -= 1
        s[hl.DENARII] -= int(hd.LINK_SEGMENTS[li])
    elif a < hl.A_LEGIO:
        s[hl.MOVER] = a - hl.A_SELECT
    elif a in (hl.A_LEGIO, hl.A_UNLEGIO):
        _legio(s, g, a == hl.A_LEGIO)
    elif a == hl.A_PROCONSUL:
        s[hl.GEN_POS + hl.PROCONSUL] = SEA0
        s[hl.DENARII] -= 3
    else:
        s[hl.PEND_KIND] = hl.PK_ASSASSINATE
        s[hl.PEND_TARGET] = s[hl.ARMY_POS + hl.SPECIAL]


def _move(s: State, x: int) -> None:
    """The acting general (selected, else the turn's) to space ``x``, paying the way."""
    m = s[hl.MOVER] if s[hl.MOVER] >= 0 else s[hl.TURN]
    s[hl.DENARII] -= general_destinations(s, m)[x]
    s[hl.GEN_POS + m] = x
    s[hl.MOVER] = -1
    if m == 0 and x in NORTH:
        s[hl.LETHE] = 0


def _sail(s: State, x: int, y: int) -> None:
    """The fleet of sea ``x`` to sea ``y``, with the general aboard."""
    s[hl.DENARII] -= fleet_cost(s, x, y) or 0
    s[hl.FLEET + x], s[hl.FLEET + y] = 0, 1
    rider = general_on(s, SEA0 + x)
    if rider >= 0:
        s[hl.GEN_POS + rider] = SEA0 + y


def _garrison(s: State, g: int, place: bool) -> None:
    """One of general ``g``'s garrisons onto his city (``place``), or his top one back."""
    c = gen_pos(s, g)
    if place:
        s[hl.GARR + c * hl.STACK + n_garrisons(s, c)] = g + 1
        s[hl.GARR_RESERVE + g] -= 1
    else:
        st = stack(s, c)
        top = max(i for i in range(hl.STACK) if st[i] == g + 1)
        st = st[:top] + st[top + 1 :] + [0]
        s[hl.GARR + c * hl.STACK : hl.GARR + (c + 1) * hl.STACK] = st
        s[hl.GARR_RESERVE + g] += 1
    s[hl.DENARII] -= 1


def _fight(s: State, k: int) -> None:
    """``k`` denarii on the chosen siege, attack or assassination: to the dice (Hispano
    may reinforce first)."""
    s[hl.DENARII] -= k
    s[hl.COMBAT_KIND] = {
        hl.PK_BESIEGE: hl.CB_SIEGE,
        hl.PK_ATTACK: hl.CB_ATTACK,
        hl.PK_ASSASSINATE: hl.CB_ASSASSINATE,
    }[s[hl.PEND_KIND]]
    s[hl.COMBAT_TARGET] = s[hl.PEND_TARGET]
    s[hl.COMBAT_SPENT] = k
    s[hl.COMBAT_ARMY] = -1
    s[hl.COMBAT_GEN] = s[hl.MOVER] if s[hl.MOVER] >= 0 else s[hl.TURN]
    s[hl.DIE_R] = s[hl.DIE_H] = 0
    s[hl.PEND_KIND] = s[hl.PEND_TARGET] = 0
    s[hl.MOVER] = -1
    s[hl.HISP_BONUS] = s[hl.H_ACCEPTED] = 0
    s[hl.PHASE] = hl.PH_ROMAN_COMBAT
    if s[hl.COMBAT_KIND] != hl.CB_ASSASSINATE and s[hl.HDENARII]:
        s[hl.PHASE] = hl.PH_H_REINFORCE


def _legio(s: State, g: int, place: bool) -> None:
    """Legio Hispana: its disc onto general ``g``'s city (``place``), or back to him."""
    c = gen_pos(s, g)
    if place:
        s[hl.GARR + c * hl.STACK + n_garrisons(s, c)] = hl.LEGIO_COLOUR
        s[hl.LEGIO_OWNER] = -1
    else:
        st = [x for x in stack(s, c) if x != hl.LEGIO_COLOUR]
        s[hl.GARR + c * hl.STACK : hl.GARR + (c + 1) * hl.STACK] = st + [0] * (3 - len(st))
        s[hl.LEGIO_OWNER] = g
    s[hl.DENARII] -= 1


def revolt_faces(s: State, params: Params) -> list[int]:
    sc = params[hl.P_SCENARIO]
    return [f + 1 for f in range(6) if hd.SCEN_FACES[sc, s[hl.COUNTER], f]]


def army_faces(s: State, params: Params) -> list[int]:
    sc = params[hl.P_SCENARIO]
    if hd.SCEN_ARMY_DIE[sc]:
        p = 4 + s[hl.COUNTER]
        return [f + 1 for f in range(6) if revolts(s, p * 6 + f) and army_on(s, p * 6 + f) < 0]
    return [
        p + 1
        for p in range(hd.NUM_HISPANIC)
        if s[hl.SETUP_CITY + p] >= 0 and army_of_province(s, p) < 0 and not hd.SCEN_NO_ARMY[sc, p]
    ]


def chance_weights(state: State, params: Params) -> tuple[list[int], list[int]]:
    kind = state[H_CHANCE_KIND]
    if kind == hl.CK_SETUP_ARMY:
        faces = army_faces(state, params)
    elif kind == hl.CK_SETUP_REVOLT:
        faces = revolt_faces(state, params)
    else:
        faces = [1, 2, 3, 4, 5, 6]
    return faces, [1] * len(faces)


def apply_chance(state: State, params: Params, outcome: int) -> None:
    s = state
    kind = s[H_CHANCE_KIND]
    s[H_CHANCE_KIND] = 0
    if kind == hl.CK_SETUP_REVOLT:
        setup_revolt(s, outcome)
    elif kind == hl.CK_SETUP_ARMY:
        setup_army(s, params, outcome)
    elif kind == hl.CK_TERROR:
        ordinary = [k for k in range(BASE_ARMIES) if s[hl.ARMY_POS + k] == -1]
        special = outcome >= (4 if len(ordinary) == 1 else 5)
        s[hl.ARMY_POS + (hl.SPECIAL if special else ordinary[0])] = s[hl.PLACE_CITY]
        s[hl.PHASE] = s[hl.RESUME_PHASE]
    elif kind == hl.CK_REVOLT_PROV:
        s[hl.REVOLT_PROV] = outcome - 1
        if hd.SCEN_GUERRILLA[params[hl.P_SCENARIO]]:
            s[hl.REVOLT_PROV] = 4 if outcome % 2 else 5
        if s[hl.PHASE] == hl.PH_REVOLT_PROV:
            s[hl.PHASE] = hl.PH_REVOLT_CITY
        else:
            dice_known(s, params)
    elif kind == hl.CK_REVOLT_CITY:
        s[hl.REVOLT_NUM] = outcome
        dice_known(s, params)
    elif kind == hl.CK_MOVE_DIE:
        k = s[hl.ARMY_ORDER + s[hl.CUR]]
        t = nearest(candidates(s, k), outcome)
        s[hl.PHASE] = hl.PH_ARMY_MOVE
        if t < 0:
            s[hl.CUR] += 1
        else:
            try_enter(s, k, t)
    else:
        s[hl.DIE_R if kind == hl.CK_ROMAN_DIE else hl.DIE_H] = outcome
        _combat(s, params)
    run(s, params)


def setup_revolt(s: State, face: int) -> None:
    p = s[hl.COUNTER]
    c = p * 6 + face - 1
    s[hl.SETUP_CITY + p] = c
    for _ in range(int(hd.SETUP_REVOLTS_BY_DIE[face - 1])):
        take_revolt(s, c)
    s[hl.COUNTER] += 1


def setup_army(s: State, params: Params, numeral: int) -> None:
    if hd.SCEN_ARMY_DIE[params[hl.P_SCENARIO]]:
        p = 4 + s[hl.COUNTER]
        s[hl.ARMY_POS + (0 if s[hl.COUNTER] == 0 else hl.SPECIAL)] = p * 6 + numeral - 1
        s[hl.COUNTER] += 1
        return
    s[hl.COUNTER] += 1
    place_army(s, s[hl.SETUP_CITY + numeral - 1], hl.PH_SETUP_ARMY)


def dice_known(s: State, params: Params) -> None:
    if s[hl.HDENARII]:
        s[hl.PHASE] = hl.PH_H_REVOLT
    else:
        revolt_takes_effect(s, params)


def revolt_takes_effect(s: State, params: Params) -> None:
    resume = s[hl.REVOLT_RESUME] or hl.PH_MOVE_START
    s[hl.REVOLT_RESUME] = 0
    s[hl.PHASE] = resume
    p = s[hl.REVOLT_PROV]
    c = p * 6 + s[hl.REVOLT_NUM] - 1
    if n_garrisons(s, c) or general_on(s, c) >= 0:
        return
    in_reserve = any(s[hl.ARMY_POS + k] == -1 for k in range(hl.NUM_ARMY_SLOTS))
    if not revolts(s, c):
        take_revolt(s, c)
    elif army_of_province(s, p) < 0 and in_reserve:
        place_army(s, c, resume)
    elif revolts(s, c) < hl.STACK:
        take_revolt(s, c)


def _reroll_pending(s: State) -> bool:
    if s[hl.HDENARII] and not s[hl.H_ACCEPTED]:
        s[hl.PHASE] = hl.PH_H_COMBAT
        return True
    return False


def _combat(s: State, params: Params) -> None:
    cb = s[hl.COMBAT_KIND]
    t = s[hl.COMBAT_TARGET]
    g = s[hl.COMBAT_GEN]
    if cb == hl.CB_SIEGE:
        bonus = 1 if params[hl.P_IMPERIVM] and g == 1 else 0
        siege(s, params, g, t, s[hl.COMBAT_SPENT], s[hl.DIE_R] + bonus)
        s[hl.PHASE] = hl.PH_ROMAN
    elif cb == hl.CB_ASSASSINATE:
        if s[hl.DIE_H] <= s[hl.COMBAT_SPENT]:
            c = s[hl.ARMY_POS + hl.SPECIAL]
            s[hl.ARMY_POS + hl.SPECIAL] = hl.GONE
            s[hl.ARMY_POS + 2] = c
            s[hl.TRAITORS_USED] = 2
            s[hl.PHASE] = hl.PH_ROMAN
        else:
            s[hl.TRAITORS_USED] = 1
            s[hl.REVOLT_RESUME] = hl.PH_ROMAN
            s[hl.PHASE] = hl.PH_REVOLT_PROV
    elif cb == hl.CB_ATTACK:
        if not s[hl.DIE_H] or _reroll_pending(s):
            return
        won = attack(s, params, g, t, s[hl.COMBAT_SPENT], s[hl.DIE_R], s[hl.DIE_H])
        if won:
            s[hl.PHASE] = hl.PH_ROMAN
        else:
            _hispanic_phase(s, params)  # a lost attack ends the Roman phase
    else:
        if cb == hl.CB_ARMY_GENERAL and not s[hl.DIE_R]:
            return
        if _reroll_pending(s):
            return
        army_attack(s, params, cb, s[hl.COMBAT_ARMY], t, s[hl.DIE_H], s[hl.DIE_R])
        if s[hl.H_ATTACK]:
            if s[hl.H_ATTACK] == hl.HA_COMBAT:
                s[hl.H_ATTACK] = hl.HA_AFTER_MOVE
            s[hl.PHASE] = hl.PH_H_ATTACK
        else:
            s[hl.CUR] += 1
            s[hl.PHASE] = hl.PH_ARMY_MOVE
    s[hl.COMBAT_KIND] = s[hl.DIE_R] = s[hl.DIE_H] = s[hl.HISP_BONUS] = 0


def rome_standing(state: State, params: Params) -> float:
    """Rome's standing in [0, 1]: the ``STANDING_*`` weights (layout.py) on the capitals'
    share, the reserve's share and 1 / (1 + revolts in the Roman provinces), over their
    sum, as the compiled ``rome_standing``."""
    capitals = sum(
        1 for p in range(hd.NUM_HISPANIC) if state[hl.GARR + (p * 6 + 5) * hl.STACK] != 0
    )
    roman_revolts = sum(
        state[hl.REVOLTS + c]
        for c in range(hd.NUM_CITIES)
        if hd.CITY_PROVINCE[c] >= hd.NUM_HISPANIC
    )
    reserve = min(max(state[hl.RESERVE], 0) / hd.TOTAL_REVOLTS, 1.0)
    clear = 1.0 / (1.0 + roman_revolts)
    weights = (hl.STANDING_CAPITALS, hl.STANDING_RESERVE, hl.STANDING_CLEAR)
    aims = (capitals / hd.NUM_HISPANIC, reserve, clear)
    return sum(w * a for w, a in zip(weights, aims, strict=True)) / sum(weights)


def returns(state: State, params: Params) -> list[float]:
    w = state[hl.WINNER]
    v = 1.0 if w == hl.W_ROME else -1.0 if w == hl.W_HISPANIA else 0.0
    if params[hl.P_REWARD] == 1:
        v += hl.PROGRESS_WEIGHT * rome_standing(state, params)
    out = [v if p < params[_P_NUM_PLAYERS] else 0.0 for p in range(hl.MAX_PLAYERS)]
    if params[hl.P_HISPANO]:
        out[hl.HISPANO] = -v
    return out

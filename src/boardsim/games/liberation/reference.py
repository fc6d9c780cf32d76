"""The liberation race in plain, readable Python: the oracle for differential tests.

It works on a plain ``list`` laid out exactly as the compiled state
(``layout.py``) and draws in the same order, so a whole game can be compared
with the compiled core word by word. It is written for reading, not speed:
one class, one method per rule. Driven by :class:`boardsim.core.reference.ReferenceEngine`.
"""

from __future__ import annotations

from collections.abc import Sequence

from boardsim.core import header as H
from boardsim.games.liberation import data as D
from boardsim.games.liberation import layout as L


class Race:
    """One position of the race, as a view over the flat state list."""

    def __init__(self, state: list[int], params: Sequence[int]) -> None:
        self.s = state
        self.params = params
        self.n = params[H.P_NUM_PLAYERS]

    # ------------------------------------------------------------ views
    def hand(self, p: int) -> list[int]:
        return self.s[L.HAND + p * L.K : L.HAND + (p + 1) * L.K]

    def add_hand(self, p: int, k: int, delta: int) -> None:
        self.s[L.HAND + p * L.K + k] += delta

    def pile_size(self) -> int:
        return sum(self.s[L.PILE : L.PILE + L.K])

    def discards(self) -> int:
        return sum(self.s[L.DISCARD : L.DISCARD + L.K])

    def country_spaces(self, c: int) -> range:
        first = int(D.COUNTRY_FIRST[c])
        return range(first, first + int(D.COUNTRY_LENGTH[c]))

    def independent(self, space: int) -> bool:
        c = int(D.SPACE_COUNTRY[space])
        return c >= 0 and self.s[L.INDEP + c] == 1

    # ------------------------------------------------------------ flow
    def decide(self, phase: int) -> None:
        self.s[L.PHASE] = phase
        self.s[H.H_ACTOR] = self.s[L.MOVER]
        self.s[H.H_CHANCE_KIND] = 0

    def chance(self, kind: int) -> None:
        self.s[H.H_ACTOR] = H.CHANCE
        self.s[H.H_CHANCE_KIND] = kind

    def begin_draw(self, kind: int) -> bool:
        """A draw; an empty pile takes the reshuffled discards; no cards at all: no draw."""
        if self.pile_size() == 0:
            for k in range(L.K):
                self.s[L.PILE + k] += self.s[L.DISCARD + k]
                self.s[L.DISCARD + k] = 0
        if self.pile_size() == 0:
            return False
        self.chance(kind)
        return True

    def start_turn(self) -> None:
        self.s[L.TURN] += 1
        self.s[L.JUMPED] = 0
        if not self.begin_draw(L.CH_TURN_DRAW):
            self.decide(L.PH_MOVE)

    def stalled(self) -> bool:
        """Empty supplies, and the Royalists left cannot clear any liberated space."""
        if any(self.s[L.SUPPLY + p] > 0 for p in range(self.n)):
            return False
        royal_force = sum(
            (int(D.KIND_COUNT[k]) - self.s[L.REMOVED + k]) * int(D.KIND_FORCE[k])
            for k in range(L.K)
            if D.KIND_ROYALIST[k]
        )
        defended = [
            self.s[L.COUNTERS + sp]
            for sp in range(D.NUM_SPACES)
            if self.s[L.OWNER + sp] >= 0 and not self.independent(sp)
        ]
        return all(c > royal_force for c in defended)

    def game_over(self, stalled: bool) -> None:
        self.s[L.STALLED] = int(stalled)
        self.s[L.PHASE] = L.PH_OVER
        self.s[H.H_FLAGS] |= H.FLAG_TERMINAL
        self.s[H.H_ACTOR] = H.TERMINAL
        self.s[H.H_CHANCE_KIND] = 0

    def all_independent(self) -> bool:
        return all(self.s[L.INDEP : L.INDEP + D.NUM_COUNTRIES])

    def pass_turn(self) -> None:
        if self.all_independent():  # game_end="end_of_round": play the round out (L13)
            if self.s[L.MOVER] == self.n - 1:
                self.game_over(False)
                return
        elif self.stalled():
            self.game_over(True)
            return
        self.s[L.MOVER] = (self.s[L.MOVER] + 1) % self.n
        self.start_turn()

    def end_turn(self) -> None:
        if sum(self.hand(self.s[L.MOVER])) > D.HAND_LIMIT:
            self.decide(L.PH_HAND_LIMIT)
        else:
            self.pass_turn()

    def move(self, p: int, steps: int) -> None:
        """Independent spaces are skipped over; with independent_spaces="counted" each
        uses a pip and a move ending on one goes on past them (L4)."""
        counted = self.params[L.PR_INDEPENDENT_SPACES] == L.INDEPENDENT_COUNTED
        space = self.s[L.POS + p]
        while steps > 0:
            space = (space + 1) % D.NUM_SPACES
            if counted or not self.independent(space):
                steps -= 1
        while counted and self.independent(space):
            space = (space + 1) % D.NUM_SPACES
        self.s[L.POS + p] = space

    def land(self) -> None:
        p = self.s[L.MOVER]
        space = self.s[L.POS + p]
        owner = self.s[L.OWNER + space]
        if D.SPACE_REVOLUTION[space] >= 0:
            self.decide(L.PH_REVOLUTION)
        elif owner < 0:
            self.decide(L.PH_EMPTY)
        elif owner == p:
            self.decide(L.PH_OWN)
        else:
            self.s[L.SELECTED : L.SELECTED + L.K] = [0] * L.K
            self.decide(L.PH_ENEMY)

    # ------------------------------------------------------------ independence
    def score_independence(self, c: int, placer: int) -> None:
        s = self.s
        s[L.INDEP + c] = 1
        s[L.LAST_SCORER] = placer
        s[L.VT + placer] += D.CLOSING_CARD_VT
        totals: dict[int, int] = {}
        for sp in self.country_spaces(c):
            if s[L.COUNTERS + sp] > 0:
                owner = s[L.OWNER + sp]
                force = int(D.KIND_FORCE[s[L.CARD + sp]])
                totals[owner] = totals.get(owner, 0) + s[L.COUNTERS + sp] + force
        for p in range(self.n):
            if p not in totals:
                continue
            higher = sum(1 for q, t in totals.items() if q != p and t > totals[p])
            tied = sum(1 for q, t in totals.items() if q != p and t == totals[p])
            place = higher + tied if self.params[L.PR_TIE_RULE] == L.TIE_DEMOTE else higher
            award = int(D.PLACE_VT[place]) if place < len(D.PLACE_VT) else D.OTHER_VT
            s[L.VT + p] += award
        if self.params[L.PR_RETURN_COUNTERS]:
            for sp in self.country_spaces(c):
                s[L.SUPPLY + s[L.OWNER + sp]] += s[L.COUNTERS + sp]
                s[L.COUNTERS + sp] = 0

    def liberate(self, p: int, space: int, k: int) -> None:
        s = self.s
        self.add_hand(p, k, -1)
        s[L.CARD + space], s[L.OWNER + space], s[L.COUNTERS + space] = k, p, 1
        s[L.SUPPLY + p] -= 1
        c = int(D.SPACE_COUNTRY[space])
        if all(s[L.OWNER + sp] >= 0 for sp in self.country_spaces(c)):
            self.score_independence(c, p)
            if self.all_independent() and self.params[L.PR_GAME_END] == L.GAME_END_AT_ONCE:
                self.game_over(False)
                return
        self.end_turn()

    def royalist_attack(self, p: int, space: int) -> None:
        s = self.s
        for k in range(L.K):
            used = s[L.SELECTED + k]
            self.add_hand(p, k, -used)
            s[L.REMOVED + k] += used
            s[L.SELECTED + k] = 0
        s[L.SUPPLY + s[L.OWNER + space]] += s[L.COUNTERS + space]
        s[L.DISCARD + s[L.CARD + space]] += 1
        s[L.OWNER + space], s[L.CARD + space], s[L.COUNTERS + space] = -1, -1, 0

    def after_attack(self, p: int) -> None:
        """cleared_space="tuck": the attacker may tuck on the cleared space, if he can (L7)."""
        can_tuck = self.s[L.SUPPLY + p] > 0 and any(
            n > 0 and not D.KIND_ROYALIST[k] for k, n in enumerate(self.hand(p))
        )
        if self.params[L.PR_CLEARED_SPACE] == L.CLEARED_TUCK and can_tuck:
            self.decide(L.PH_EMPTY)
        else:
            self.end_turn()


# ---------------------------------------------------------------- the reference API


def init(state: list[int], params: Sequence[int], seed: int) -> None:
    race = Race(state, params)
    state[L.PILE : L.PILE + L.K] = [int(c) for c in D.KIND_COUNT]
    state[L.OWNER : L.OWNER + D.NUM_SPACES] = [-1] * D.NUM_SPACES
    state[L.CARD : L.CARD + D.NUM_SPACES] = [-1] * D.NUM_SPACES
    for p in range(race.n):
        state[L.POS + p] = D.START_SPACE
        state[L.SUPPLY + p] = params[L.PR_COUNTERS]
    state[L.LAST_SCORER] = -1
    state[L.MOVER] = 0
    state[L.DEAL_LEFT] = race.n * D.STARTING_HAND
    if state[L.DEAL_LEFT] == 0 or not race.begin_draw(L.CH_DEAL):
        state[L.DEAL_LEFT] = 0
        race.start_turn()


def chance_weights(state: list[int], params: Sequence[int]) -> tuple[list[int], list[int]]:
    if state[H.H_CHANCE_KIND] in (L.CH_MOVE_DIE, L.CH_REVOLUTION_DIE):
        return list(range(1, L.DIE_FACES + 1)), [1] * L.DIE_FACES
    kinds = [k for k in range(L.K) if state[L.PILE + k] > 0]
    return kinds, [state[L.PILE + k] for k in kinds]


def apply_chance(state: list[int], params: Sequence[int], outcome: int) -> None:
    race = Race(state, params)
    kind = state[H.H_CHANCE_KIND]
    p = state[L.MOVER]
    if kind in (L.CH_MOVE_DIE, L.CH_REVOLUTION_DIE):
        race.move(p, outcome)
        race.land()
        return
    if kind == L.CH_DEAL:
        dealt = race.n * D.STARTING_HAND - state[L.DEAL_LEFT]
        state[L.PILE + outcome] -= 1
        race.add_hand(dealt % race.n, outcome, 1)
        state[L.DEAL_LEFT] -= 1
        if state[L.DEAL_LEFT] == 0 or not race.begin_draw(L.CH_DEAL):
            state[L.DEAL_LEFT] = 0
            race.start_turn()
        return
    state[L.PILE + outcome] -= 1
    race.add_hand(p, outcome, 1)
    if kind == L.CH_TURN_DRAW:
        race.decide(L.PH_MOVE)
    elif kind == L.CH_REVOLUTION_DRAW:
        race.end_turn()
    else:
        race.decide(L.PH_DRAW_DISCARD)


def legal_actions(state: list[int], params: Sequence[int]) -> list[int]:
    race = Race(state, params)
    p = state[H.H_ACTOR]
    space = state[L.POS + p]
    hand = race.hand(p)
    supply = state[L.SUPPLY + p]
    liberation_in_hand = [k for k in range(L.K) if hand[k] > 0 and not D.KIND_ROYALIST[k]]
    phase = state[L.PHASE]
    acts: list[int] = []
    at_once = params[L.PR_HAND_LIMIT] == L.HAND_LIMIT_AT_ONCE  # L6's option
    if phase == L.PH_MOVE and at_once and sum(hand) > D.HAND_LIMIT:
        acts += [L.A_DISCARD + k for k in range(L.K) if hand[k] > 0]  # down to 5, then move
    elif phase == L.PH_MOVE:
        acts.append(L.A_ROLL)
        royal_ok = params[L.PR_ROYALIST_MOVES] != 0
        acts += [
            L.A_MOVE_CARD + k
            for k in range(L.K)
            if hand[k] > 0 and (not D.KIND_ROYALIST[k] or royal_ok)
        ]
    elif phase == L.PH_REVOLUTION:
        acts += [L.A_PASS, L.A_REV_ROLL]
        if race.pile_size() + race.discards() > 0:
            acts.append(L.A_REV_DRAW)
        if not state[L.JUMPED]:  # revolution_jump="triggers": one jump a turn (L2)
            acts += [L.A_JUMP + r for r, t in enumerate(D.REVOLUTION_SPACES) if t != space]
        if supply > 0:
            acts += [
                L.A_COUNTER + cs
                for cs, t in enumerate(D.COUNTRY_SPACES)
                if state[L.OWNER + t] == p and not race.independent(int(t))
            ]
    elif phase == L.PH_EMPTY:
        acts.append(L.A_PASS)
        if supply > 0:
            acts += [L.A_TUCK + k for k in liberation_in_hand]
    elif phase == L.PH_OWN:
        acts.append(L.A_PASS)
        acts += [L.A_EXCHANGE + k for k in liberation_in_hand if k != state[L.CARD + space]]
        if supply > 0:
            acts.append(L.A_COUNTER + int(D.SPACE_CSPACE[space]))
        if race.pile_size() + race.discards() > 0:
            acts.append(L.A_DRAW_DISCARD)
    elif phase == L.PH_ENEMY:
        acts.append(L.A_PASS)
        chosen = sum(state[L.SELECTED + k] * int(D.KIND_FORCE[k]) for k in range(L.K))
        if chosen >= state[L.COUNTERS + space]:
            acts.append(L.A_CONFIRM)
        else:
            acts += [
                L.A_ROYALIST + k
                for k in range(L.K)
                if D.KIND_ROYALIST[k] and hand[k] > state[L.SELECTED + k]
            ]
    elif phase in (L.PH_DRAW_DISCARD, L.PH_HAND_LIMIT):
        acts += [L.A_DISCARD + k for k in range(L.K) if hand[k] > 0]
    return sorted(acts)


def apply_action(state: list[int], params: Sequence[int], action: int) -> None:
    race = Race(state, params)
    p = state[H.H_ACTOR]
    space = state[L.POS + p]
    if action == L.A_ROLL:
        race.chance(L.CH_MOVE_DIE)
    elif L.A_MOVE_CARD <= action < L.A_PASS:
        k = action - L.A_MOVE_CARD
        race.add_hand(p, k, -1)
        state[L.DISCARD + k] += 1
        race.move(p, int(D.KIND_FORCE[k]))
        race.land()
    elif action == L.A_PASS:
        state[L.SELECTED : L.SELECTED + L.K] = [0] * L.K
        race.end_turn()
    elif action == L.A_REV_ROLL:
        race.chance(L.CH_REVOLUTION_DIE)
    elif action == L.A_REV_DRAW:
        race.begin_draw(L.CH_REVOLUTION_DRAW)
    elif action == L.A_DRAW_DISCARD:
        race.begin_draw(L.CH_OWN_DRAW)
    elif action == L.A_CONFIRM:
        race.royalist_attack(p, space)
        race.after_attack(p)
    elif L.A_JUMP <= action < L.A_COUNTER:
        state[L.POS + p] = int(D.REVOLUTION_SPACES[action - L.A_JUMP])
        if params[L.PR_REVOLUTION_JUMP] == L.REVOLUTION_JUMP_TRIGGERS:  # L2
            state[L.JUMPED] = 1
            race.land()  # the revolution space offers its actions again, but no jump
        else:
            race.end_turn()
    elif L.A_COUNTER <= action < L.A_TUCK:
        state[L.COUNTERS + int(D.COUNTRY_SPACES[action - L.A_COUNTER])] += 1
        state[L.SUPPLY + p] -= 1
        race.end_turn()
    elif L.A_TUCK <= action < L.A_EXCHANGE:
        race.liberate(p, space, action - L.A_TUCK)
    elif L.A_EXCHANGE <= action < L.A_DISCARD:
        k = action - L.A_EXCHANGE
        old = state[L.CARD + space]
        state[L.CARD + space] = k
        race.add_hand(p, k, -1)
        race.add_hand(p, old, 1)
        race.end_turn()
    elif L.A_DISCARD <= action < L.A_ROYALIST:
        k = action - L.A_DISCARD
        race.add_hand(p, k, -1)
        state[L.DISCARD + k] += 1
        if state[L.PHASE] == L.PH_DRAW_DISCARD:
            race.end_turn()
        elif state[L.PHASE] == L.PH_MOVE:
            pass  # hand_limit="at_once": still the move to decide
        elif sum(race.hand(p)) <= D.HAND_LIMIT:
            race.pass_turn()
    else:
        state[L.SELECTED + action - L.A_ROYALIST] += 1


def returns(state: list[int], params: Sequence[int]) -> list[float]:
    n = params[H.P_NUM_PLAYERS]
    out = [0.0] * D.MAX_PLAYERS
    vt = state[L.VT : L.VT + n]
    if params[L.PR_REWARD] == L.REWARD_VT:
        out[:n] = [float(v) for v in vt]
        return out
    if not state[H.H_FLAGS] & H.FLAG_TERMINAL or state[H.H_FLAGS] & H.FLAG_TRUNCATED:
        return out
    best = max(vt)
    winners = vt.count(best)
    for p in range(n):
        out[p] = (1.0 if winners == 1 else 0.0) if vt[p] == best else -1.0
    return out

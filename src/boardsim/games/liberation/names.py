"""Human words for the race: action names, and a text picture of the track."""

from __future__ import annotations

import numpy as np

from boardsim.core import header as H
from boardsim.games.liberation import data as D
from boardsim.games.liberation import layout as L

PHASE_WORDS = {
    L.PH_SETUP: "set-up",
    L.PH_MOVE: "move",
    L.PH_REVOLUTION: "revolution space",
    L.PH_EMPTY: "empty country space",
    L.PH_OWN: "own liberated space",
    L.PH_ENEMY: "space liberated by another player",
    L.PH_DRAW_DISCARD: "discard after drawing",
    L.PH_HAND_LIMIT: "hand limit",
    L.PH_OVER: "game over",
}
CHANCE_WORDS = {
    L.CH_DEAL: "deal a card",
    L.CH_TURN_DRAW: "draw a card",
    L.CH_MOVE_DIE: "roll the move die",
    L.CH_REVOLUTION_DIE: "roll again",
    L.CH_REVOLUTION_DRAW: "draw a card",
    L.CH_OWN_DRAW: "draw a card",
}


# the country names as a player spells them, where the source page (and so the data file,
# which keeps the source's words) spells them otherwise
SPELLINGS = {"Columbia": "Colombia"}


def country_name(c: int) -> str:
    """Country ``c``'s name as it is spelt: "Colombia" (the source page writes "Columbia")."""
    name = str(D.DATA.country_names[c])
    return SPELLINGS.get(name, name)


def card_name(k: int) -> str:
    """'Leader 6', 'Royalist 2'."""
    return f"{D.DATA.type_names[int(D.KIND_TYPE[k])]} {int(D.KIND_FORCE[k])}"


def space_name(space: int) -> str:
    """'space 7 (Venezuela)', 'space 5 (revolution)' for a 0-based space."""
    c = int(D.SPACE_COUNTRY[space])
    where = country_name(c) if c >= 0 else "revolution"
    return f"space {space + 1} ({where})"


def describe_action(params: np.ndarray, state: np.ndarray, action: int) -> str:
    """The action in a player's words."""
    a = int(action)
    K = L.K
    if a == L.A_ROLL:
        return "roll the die and move"
    if L.A_MOVE_CARD <= a < L.A_PASS:
        k = a - L.A_MOVE_CARD
        return f"discard {card_name(k)} and move {int(D.KIND_FORCE[k])}"
    fixed = {
        L.A_PASS: "do nothing",
        L.A_REV_ROLL: "roll the die and move again",
        L.A_REV_DRAW: "draw 1 card",
        L.A_DRAW_DISCARD: "draw 1 card, then discard 1",
        L.A_CONFIRM: "attack with the chosen Royalist cards",
    }
    if a in fixed:
        return fixed[a]
    if L.A_JUMP <= a < L.A_COUNTER:
        return f"move to {space_name(int(D.REVOLUTION_SPACES[a - L.A_JUMP]))}"
    if L.A_COUNTER <= a < L.A_TUCK:
        return f"place a counter on {space_name(int(D.COUNTRY_SPACES[a - L.A_COUNTER]))}"
    groups = (
        (L.A_TUCK, "tuck {} here and place a counter"),
        (L.A_EXCHANGE, "exchange the tucked card for {}"),
        (L.A_DISCARD, "discard {}"),
        (L.A_ROYALIST, "add {} to the attack"),
    )
    for start, words in groups:
        if start <= a < start + K:
            return words.format(card_name(a - start))
    return f"action {a} (out of range 0..{L.NUM_ACTIONS - 1})"


TEXT_LEGEND = """\
the board, country by country, space by space:
  38:P1/Ideals 4/x1[1]   space 38, liberated by player 1: the card Ideals
                         (force 4) tucked under it, 1 of his counters on it;
                         [1]: player 1's pawn stands there ([02]: players 0, 2)
  4:--                   space 4 has no card yet (33:--[3]: pawn 3 on it)
  INDEPENDENT            every space of the country is liberated, VT scored
revolution spaces: the spaces between the countries, pawns in []
P0: VT 0, counters 24, 2 cards: a player's victory points, counters in
  supply and hand size (your own hand is listed under the board)"""


def move_events(params: np.ndarray, before: np.ndarray, after: np.ndarray) -> list[str]:
    """What a move brought about beyond its words: each country that became independent
    and the VT each player scored by it."""
    n = int(params[H.P_NUM_PLAYERS])
    out = []
    for c in range(len(D.DATA.country_names)):
        if after[L.INDEP + c] and not before[L.INDEP + c]:
            out.append(f"{country_name(c)} is independent")
    if out:
        gains = [
            f"player {p} +{int(after[L.VT + p]) - int(before[L.VT + p])} VT "
            f"(now {int(after[L.VT + p])})"
            for p in range(n)
            if int(after[L.VT + p]) != int(before[L.VT + p])
        ]
        out[-1] += ": " + (", ".join(gains) if gains else "nobody scores")
    return out


def render_text(params: np.ndarray, state: np.ndarray) -> str:
    """The track, pawns, hands (sizes), supplies and VT, as plain text."""
    n = int(params[H.P_NUM_PLAYERS])
    s = state
    lines = [f"turn {int(s[L.TURN])}, player {int(s[L.MOVER])} to play"]
    if int(s[H.H_ACTOR]) == H.CHANCE:
        lines[0] += f" (chance: {CHANCE_WORDS.get(int(s[H.H_CHANCE_KIND]), '?')})"
    else:
        lines[0] += f" ({PHASE_WORDS.get(int(s[L.PHASE]), '?')})"
    for c in range(len(D.DATA.country_names)):
        name = country_name(c)
        first = int(D.COUNTRY_FIRST[c])
        cells = []
        for sp in range(first, first + int(D.COUNTRY_LENGTH[c])):
            owner = int(s[L.OWNER + sp])
            cell = f"{sp + 1}:"
            cell += (
                "--"
                if owner < 0
                else f"P{owner}/{card_name(int(s[L.CARD + sp]))}/x{int(s[L.COUNTERS + sp])}"
            )
            pawns = "".join(str(p) for p in range(n) if int(s[L.POS + p]) == sp)
            cells.append(cell + (f"[{pawns}]" if pawns else ""))
        flag = " INDEPENDENT" if s[L.INDEP + c] else ""
        lines.append(f"  {name:<10}{flag}: " + "  ".join(cells))
    revs = []
    for sp in D.REVOLUTION_SPACES:
        pawns = "".join(str(p) for p in range(n) if int(s[L.POS + p]) == int(sp))
        revs.append(f"{int(sp) + 1}" + (f"[{pawns}]" if pawns else ""))
    lines.append("  revolution spaces: " + " ".join(revs))
    for p in range(n):
        hand = sum(int(s[L.HAND + p * L.K + k]) for k in range(L.K))
        lines.append(
            f"  P{p}: VT {int(s[L.VT + p])}, counters {int(s[L.SUPPLY + p])}, "
            f"{hand} card{'' if hand == 1 else 's'}, on {space_name(int(s[L.POS + p]))}"
        )
    pile = sum(int(v) for v in s[L.PILE : L.PILE + L.K])
    disc = sum(int(v) for v in s[L.DISCARD : L.DISCARD + L.K])
    gone = sum(int(v) for v in s[L.REMOVED : L.REMOVED + L.K])
    lines.append(f"  draw pile {pile}, discards {disc}, Royalist cards out of the game {gone}")
    return "\n".join(lines)


def evaluate(params: np.ndarray, state: np.ndarray, player: int) -> float:
    """A player's standing: VT first, then what it holds on the board and in hand."""
    s = state
    board = 0.0
    for sp in range(D.NUM_SPACES):
        if int(s[L.OWNER + sp]) == player and not s[L.INDEP + int(D.SPACE_COUNTRY[sp])]:
            board += int(s[L.COUNTERS + sp]) + int(D.KIND_FORCE[int(s[L.CARD + sp])]) / 4
    hand = sum(int(s[L.HAND + player * L.K + k]) for k in range(L.K))
    return 10.0 * int(s[L.VT + player]) + board + 0.2 * hand


def describe_chance(params: np.ndarray, state: np.ndarray, outcome: int, viewer: int) -> str:
    """What ``viewer`` sees of the chance outcome about to happen in ``state``: a roll is
    public ("you rolled 4", "player 2 rolled 4"); a card drawn is seen by its taker only
    ("you drew Leader 5", "player 2 drew a card")."""
    kind = int(state[H.H_CHANCE_KIND])
    mover = int(state[L.MOVER])
    if kind in (L.CH_MOVE_DIE, L.CH_REVOLUTION_DIE):
        who = "you" if viewer == mover else f"player {mover}"
        again = " (roll again)" if kind == L.CH_REVOLUTION_DIE else ""
        return f"{who} rolled {int(outcome)}{again}"
    taker = mover
    verb = "drew"
    if kind == L.CH_DEAL:
        n = int(params[H.P_NUM_PLAYERS])
        taker = (n * D.STARTING_HAND - int(state[L.DEAL_LEFT])) % n
        verb = "were dealt" if viewer == taker else "was dealt"
    if viewer == taker:
        return f"you {verb} {card_name(int(outcome))}"
    return f"player {taker} {verb} a card"

"""The race's mechanics for restricted play (``GameDefinition.action_families``): every
action id in exactly one family, named after what a player does with it.

Python-side only (no kernel reads it), so declaring or renaming a family compiles nothing
anew."""

from __future__ import annotations

from boardsim.games.liberation import layout as L

ACTION_FAMILIES = {
    "roll": (L.A_ROLL,),
    "move_card": tuple(range(L.A_MOVE_CARD, L.A_PASS)),
    "pass": (L.A_PASS,),
    "revolution_roll": (L.A_REV_ROLL,),
    "revolution_draw": (L.A_REV_DRAW,),
    "draw_discard": (L.A_DRAW_DISCARD,),
    "confirm": (L.A_CONFIRM,),
    "jump": tuple(range(L.A_JUMP, L.A_COUNTER)),
    "counter": tuple(range(L.A_COUNTER, L.A_TUCK)),
    "tuck": tuple(range(L.A_TUCK, L.A_EXCHANGE)),
    "exchange": tuple(range(L.A_EXCHANGE, L.A_DISCARD)),
    "discard": tuple(range(L.A_DISCARD, L.A_ROYALIST)),
    "royalist": tuple(range(L.A_ROYALIST, L.NUM_ACTIONS)),
}

"""Hispania's mechanics for restricted play (``GameDefinition.action_families``): every
action id in exactly one family, named after what a player does with it (the Roman's
first, then the Hispano player's of the Hispano variant).

Python-side only (no kernel reads it), so declaring or renaming a family compiles nothing
anew."""

from __future__ import annotations

from boardsim.games.hispania import layout as L

ACTION_FAMILIES = {
    "pass": (L.A_PASS,),
    "general": tuple(range(L.A_SPACE, L.A_FLEET)),
    "fleet": tuple(range(L.A_FLEET, L.A_GARRISON)),
    "garrison": (L.A_GARRISON, L.A_UNGARRISON),
    "besiege": tuple(range(L.A_BESIEGE, L.A_ATTACK)),
    "attack": tuple(range(L.A_ATTACK, L.A_SPEND)),
    "spend": tuple(range(L.A_SPEND, L.A_CANCEL)),
    "cancel": (L.A_CANCEL,),
    "road": tuple(range(L.A_ROAD, L.A_SELECT)),
    "select_general": tuple(range(L.A_SELECT, L.A_LEGIO)),
    "legio_hispana": (L.A_LEGIO, L.A_UNLEGIO),
    "proconsul": (L.A_PROCONSUL,),
    "assassination": (L.A_ASSASSINATE,),
    "hispano_accept": (L.A_H_ACCEPT,),
    "hispano_setup": tuple(range(L.A_H_FACE, L.A_H_REROLL_R)),
    "hispano_reroll": (L.A_H_REROLL_R, L.A_H_REROLL_H),
    "hispano_army": tuple(range(L.A_H_CITY, L.A_H_SPEND)),
    "hispano_spend": tuple(range(L.A_H_SPEND, L.NUM_ACTIONS)),
}

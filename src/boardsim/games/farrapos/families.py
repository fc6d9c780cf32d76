"""Farrapos's mechanics for restricted play (``GameDefinition.action_families``): every
action id in exactly one family, named after what a player does with it.

Farrapos's action ids are modal: a city's id is a reinforcement's city, a militia's
city, a move's destination or an attack's target by the decision it answers (rules.py,
``legal_mask``), so the rulebook's four actions (l.58-63: attack, invade, move, take no
action) do not split into families of ids. What does split:

- ``pass``: take no action (l.63 "d) Take no action"), and place no militia;
- ``continue`` and ``stop``: after a round of battle, press the attack or break it off
  (l.105 "Continue the attack ... or stop it");
- ``city``, ``unit``, ``confirm``: naming cities and units and confirming them, the
  steps of every other decision; ``cancel`` is never legal (ruling 25).

Forbidding ``pass`` makes a player act whenever he can; forbidding ``continue``, fight one
round only; forbidding ``stop``, fight every battle to its end.

Python-side only (no kernel reads it), so declaring or renaming a family compiles nothing
anew."""

from __future__ import annotations

from boardsim.games.farrapos import layout as L

ACTION_FAMILIES = {
    "city": tuple(range(L.A_CITY, L.A_UNIT)),
    "unit": tuple(range(L.A_UNIT, L.A_CONFIRM)),
    "confirm": (L.A_CONFIRM,),
    "cancel": (L.A_CANCEL,),
    "pass": (L.A_PASS,),
    "continue": (L.A_CONTINUE,),
    "stop": (L.A_STOP,),
}

"""Farrapos state layout, params layout and action encoding.

One flat ``int32`` array (after the engine header of ``core/header.py``)::

    PHASE        1..11 (1835..1845)
    TURN         1..4 within the phase (sides alternate: Republic, Empire, ...)
    SIDE         the side whose turn it is (the actor may differ: chance, a loser)
    MODE         what is being decided (M_*)
    TARGET       city attacked or moved to (-1 none)
    ROUND        battle rounds fought in the current attack
    DIE_A/DIE_D  the last attack / defence die (0 none)
    STR_A/STR_D  the last attack / defence strength
    IDX_A/IDX_D  the last battle-table indices read
    LOSS_A/LOSS_D 1 while the attacker / defender still has to flip a unit
    SEA_USED     units carried by sea (port transport) in the move being composed
    WINNER       -1 playing, 0 Republic, 1 Empire, 2 draw
    VP[2]        victory points (Republic, Empire)
    OWNER[C]     side possessing each city (-1 none): the last side to have had a piece
                 in it; it changes only when the other side moves in (with
                 empty_city="neutral", also to -1 when a turn ends with the city empty)
    OCC[C]       side occupying each city (-1 empty): the side with a unit or militia in
                 it. Only occupied cities score ("a city left empty is not recorded")
    LOC[P]       city of each piece; LOC_RESERVE not yet in play, LOC_ELIMINATED
    STEP[P]      0 full face, 1 reduced face
    SEL[P]       0, or SEL_LAND / SEL_SEA: chosen for the attack or move being composed
                 (in a battle: attacking; in an advance, M_MOVE with ROUND >= 1: a
                 survivor that may still advance); SEL_MOVED_LAND / SEL_MOVED_SEA: moved
                 already in this action (move_destinations="several")

Pieces are the 48 MU then the 8 militia (data order). ``rules.py`` and
``reference.py`` use only these names.
"""

from __future__ import annotations

from boardsim.core.header import HEADER_SIZE, PARAMS_HEADER
from boardsim.games.farrapos.data import NUM_CITIES, NUM_PIECES, NUM_UNITS

C = NUM_CITIES
P = NUM_PIECES
MAX_PLAYERS = 2

# ---------------------------------------------------------------- state
PHASE = HEADER_SIZE
TURN = PHASE + 1
SIDE = PHASE + 2
MODE = PHASE + 3
TARGET = PHASE + 4
ROUND = PHASE + 5
DIE_A = PHASE + 6
DIE_D = PHASE + 7
STR_A = PHASE + 8
STR_D = PHASE + 9
IDX_A = PHASE + 10
IDX_D = PHASE + 11
LOSS_A = PHASE + 12
LOSS_D = PHASE + 13
SEA_USED = PHASE + 14
WINNER = PHASE + 15
VP = PHASE + 16
OWNER = VP + MAX_PLAYERS
OCC = OWNER + C
LOC = OCC + C
STEP = LOC + P
SEL = STEP + P
STATE_SIZE = SEL + P

VP_SLICE = slice(VP, VP + MAX_PLAYERS)
OWNER_SLICE = slice(OWNER, OWNER + C)
OCC_SLICE = slice(OCC, OCC + C)
LOC_SLICE = slice(LOC, LOC + P)
STEP_SLICE = slice(STEP, STEP + P)
SEL_SLICE = slice(SEL, SEL + P)

LOC_RESERVE = -1  # not yet arrived (MU) or not yet placed (militia)
LOC_ELIMINATED = -2
SEL_LAND = 1
SEL_SEA = 2  # carried between two held ports (advanced rule)
SEL_MOVED = 2  # added to SEL_LAND / SEL_SEA once the unit has moved (several destinations)
SEL_MOVED_LAND = SEL_LAND + SEL_MOVED  # moved by land in this action, may not move again
SEL_MOVED_SEA = SEL_SEA + SEL_MOVED  # carried by sea in this action, may not move again
NO_WINNER = -1
DRAW = 2

# modes: what the actor decides
M_REINFORCE = 0  # place the next arriving unit, CITY c (turn start; with arrivals="after", set-up)
M_MILITIA = 1  # turn end (set-up step): place a militia (CITY c) or PASS (done)
M_MAIN = 2  # CITY c (attack an enemy-occupied city / move or invade to another), or PASS
M_ATTACK = 3  # add attacking units (UNIT u), CONFIRM; ROUND >= 1: re-chosen for a round
M_MOVE = 4  # add moving units (UNIT u), CONFIRM; ROUND >= 1: the advance into a taken city
M_DICE = 5  # chance nodes: the attack die, then the defence die
M_LOSS = 6  # the loser (actor) picks a unit to flip or eliminate: UNIT u
M_CONTINUE = 7  # the attacker: CONTINUE or STOP (or UNIT u: re-choose, round_attackers)
M_OVER = 8
MODE_NAMES = (
    "reinforce", "militia", "main", "attack", "move", "dice", "loss", "continue", "over",
)  # fmt: skip

CHANCE_ATTACK_DIE = 1
CHANCE_DEFENCE_DIE = 2

# ---------------------------------------------------------------- params (after the header)
P_SIEGE = PARAMS_HEADER  # 1: advanced rule, a city surrounded by the enemy loses its extra defence
P_PORT_TRANSPORT = PARAMS_HEADER + 1  # 1: advanced rule, carry 2 MU a turn between held ports
P_REWARD = PARAMS_HEADER + 2  # 0: +1/-1/0 at the end; 1: also the VP difference / 24, dense
P_FINAL_TIE = PARAMS_HEADER + 3  # 0: equal VP at the end is a draw; 1: the Empire wins it
P_VICTORY_VP = PARAMS_HEADER + 4  # sudden-death VP before the last phase (24)
P_ARRIVALS = PARAMS_HEADER + 5  # ARRIVALS_*: when arriving MU are placed in a turn (ruling 3)
P_EMPTY_CITY = PARAMS_HEADER + 6  # EMPTY_*: whose a city left with no piece is (ruling 5)
P_MOVE_DESTINATIONS = PARAMS_HEADER + 7  # MOVES_*: destinations of one move action (ruling 8)
P_ROUND_ATTACKERS = PARAMS_HEADER + 8  # ATTACKERS_*: who attacks in later rounds (ruling 14)
P_ADVANCE = PARAMS_HEADER + 9  # ADVANCE_*: which survivors enter a taken city (ruling 12)
P_REPUBLIC_MU = PARAMS_HEADER + 10  # the Republic's MU in the game (20); its latest withheld
P_EMPIRE_MU = PARAMS_HEADER + 11  # the Empire's MU in the game (28); P_REPUBLIC_MU + EMPIRE
P_PORTS_BONUS = PARAMS_HEADER + 12  # VP for holding every port (3)
P_REGION_BONUS_SHIFT = PARAMS_HEADER + 13  # added to each colour region's bonus (0), floor 0
P_SEA_PORTS = PARAMS_HEADER + 14  # SEA_PORTS_*: which ports port transport counts (ruling 19)
P_EMPTY_ORIGIN = PARAMS_HEADER + 15  # ORIGIN_*: whether a move may empty a city (ruling 10)
PARAMS_SIZE = PARAMS_HEADER + 16

ARRIVALS_BEFORE = 0  # at the start of the turn, before the action (l.79)
ARRIVALS_AFTER = 1  # in the set-up step after the action, before the militia (l.63)
EMPTY_POSSESSED = 0  # it stays its last holder's until the enemy enters
EMPTY_NEUTRAL = 1  # it is no one's once the turn ends with it empty (l.60 "considered empty")
MOVES_ONE = 0  # a move action goes to one city (l.59-60 "into a city")
MOVES_SEVERAL = 1  # ... or to several, one after the other (l.61 "as many MU as desired")
ATTACKERS_SAME = 0  # a continued attack goes on with the same surviving units (l.105)
ATTACKERS_RECHOSEN = 1  # the attacker may name the attacking units anew for each round
ADVANCE_ALL = 0  # every surviving attacker enters the taken city
ADVANCE_CHOSEN = 1  # the attacker chooses which survivors enter (at least one)
SEA_PORTS_POSSESSED = 0  # port transport between any ports the side possesses (l.134)
SEA_PORTS_CONQUERED = 1  # ... only between ports it did not hold at the start ("conquered")
ORIGIN_MAY_EMPTY = 0  # a move may leave its city of origin empty (l.60, the consequence)
ORIGIN_KEEPS_ONE = 1  # a move must leave one MU or militia in each city of origin (l.60-61)

# ---------------------------------------------------------------- actions
A_CITY = 0  # A_CITY + c: city c
A_UNIT = A_CITY + C  # A_UNIT + u: piece u
A_CONFIRM = A_UNIT + P  # confirm the action being composed
A_CANCEL = A_CONFIRM + 1  # drop it: never legal since version 2 (ruling 25)
A_PASS = A_CONFIRM + 2
A_CONTINUE = A_CONFIRM + 3
A_STOP = A_CONFIRM + 4
NUM_ACTIONS = A_CONFIRM + 5

MAX_CHANCE_OUTCOMES = 6  # a die: outcomes 1..6

# ---------------------------------------------------------------- observation
# Seen from ``player`` ("mine" / "theirs"); everything in Farrapos is public.
OBS_CITY = 0  # C rows of CITY_FEATURES
CITY_FEATURES = 9  # mine, theirs, vp/4, my full MU, my reduced MU, my militia, theirs x3
OBS_PIECE = OBS_CITY + C * CITY_FEATURES  # P rows of PIECE_FEATURES
PIECE_FEATURES = 6  # mine, on board, reduced, eliminated, selected, loc/(C-1)
OBS_GLOBAL = OBS_PIECE + P * PIECE_FEATURES
GLOBAL_FEATURES = 8 + len(MODE_NAMES)  # phase, turn, my turn, my decision, vp x2, strengths
OBS_TARGET = OBS_GLOBAL + GLOBAL_FEATURES  # one-hot target city
OBS_SIZE = OBS_TARGET + C

assert NUM_UNITS < P

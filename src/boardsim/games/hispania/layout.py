"""Hispania's state layout, params layout and action encoding.

One flat ``int32`` array (after the engine header of ``core/header.py``)::

    PHASE        the step of the game sequence (PH_*)
    TURN         whose turn: 0 praetor of Ulterior (I), 1 praetor of Citerior (II), 2 consul (III)
    DENARII      denarii left in the current Roman phase
    PEND_KIND    a Besiege (1) or Attack (2) chosen, waiting for the denarii (0 none)
    PEND_TARGET  its target space
    COUNTER      set-up progress (province, army, road or general being placed)
    WINNER       0 none, 1 Rome, 2 Hispania
    TRACK        revolts on the time track (spaces covered)
    RESERVE      revolts in the reserve (22 = board + reserve + track)
    REVOLT_PROV  province picked by the Roman die of the revolt roll
    CUR          index into ARMY_ORDER of the army moving now
    COMBAT_KIND  CB_* of the combat being resolved (0 none)
    COMBAT_TARGET, COMBAT_ARMY, COMBAT_SPENT, DIE_R, DIE_H
    HELD_ROADS, MOVER, COMBAT_GEN, LEGIO_OWNER, TRAITORS_USED, PLACE_CITY, RESUME_PHASE,
    HDENARII, HISP_BONUS, REVOLT_NUM, REVOLT_RESUME, H_ACCEPTED, H_ATTACK, DISPLAY, LETHE
                 variant fields (see their comments)
    ARMY_ORDER[4]  army slots in moving order for this Hispanic move step (-1 padded)
    SETUP_CITY[6]  the initial revolt city of each Hispanic province
    REVOLTS[49]    revolt discs on each space (seas only hold pirates)
    GARR[44*3]     garrison stack of each city, bottom first: 0 empty, else colour + 1
    GARR_RESERVE[4]  garrisons in each general's reserve
    ARMY_POS[4]    city of each Hispanic army (-1 in the reserve)
    GEN_POS[4]     space of each general (-1 off the board)
    FLEET[5]       1 where a Roman fleet is
    ROADS[L]       1 where a road lies on link L

Sizes come from the data; ``rules.py`` uses only these names.
"""

from __future__ import annotations

from boardsim.core.header import HEADER_SIZE, PARAMS_HEADER
from boardsim.games.hispania.data import (
    FIRST_SEA,
    NUM_CITIES,
    NUM_HISPANIC,
    NUM_LINKS,
    NUM_SEAS,
    NUM_SPACES,
)

NUM_GENERALS = 4  # praetor Ulterior, praetor Citerior, consul, proconsul (variant)
NUM_ARMY_SLOTS = 4  # 3 armies + the special army (variant)
STACK = 3  # discs a city holds
MAX_PLAYERS = 5  # the generals, plus the Hispano player under that variant
MAX_CHANCE_OUTCOMES = 8
FIRST_SEA_SPACE = FIRST_SEA

# ---------------------------------------------------------------- state
PHASE = HEADER_SIZE
TURN = PHASE + 1
DENARII = PHASE + 2
PEND_KIND = PHASE + 3
PEND_TARGET = PHASE + 4
COUNTER = PHASE + 5
WINNER = PHASE + 6
TRACK = PHASE + 7
RESERVE = PHASE + 8
REVOLT_PROV = PHASE + 9
CUR = PHASE + 10
COMBAT_KIND = PHASE + 11
COMBAT_TARGET = PHASE + 12
COMBAT_ARMY = PHASE + 13
COMBAT_SPENT = PHASE + 14
DIE_R = PHASE + 15
DIE_H = PHASE + 16
HELD_ROADS = PHASE + 17  # Ingenivm: roads kept aside at set-up, placeable in play
MOVER = PHASE + 18  # the general chosen to act with (Imperivm, Proconsvl); -1: the turn's
COMBAT_GEN = PHASE + 19  # the general fighting the Roman combat being resolved
LEGIO_OWNER = PHASE + 20  # Legio Hispana: the general whose reserve holds the disc, -1 placed
TRAITORS_USED = PHASE + 21  # "Rome does not pay traitors" tried (once a game)
PLACE_CITY = PHASE + 22  # Terror: the city an army is being placed on
RESUME_PHASE = PHASE + 23  # the phase to continue with after a placement or an extra roll
HDENARII = PHASE + 24  # Hispano: his denarii this turn
HISP_BONUS = PHASE + 25  # Hispano: denarii added to the Hispanic side of this combat
REVOLT_NUM = PHASE + 26  # the Hispanic die of the revolt roll (kept for Hispano's rerolls)
REVOLT_RESUME = PHASE + 27  # phase after the revolt roll (0: the move step; PH_ROMAN: extra)
H_ACCEPTED = PHASE + 28  # Hispano has accepted this combat's dice
H_ATTACK = PHASE + 29  # Hispano's attack step: HA_* (0 after the move, outside a combat)
DISPLAY = PHASE + 30  # scenario "Display of Power" in force (the consul's first turn)
LETHE = PHASE + 31  # scenario "Lethe River": the road along the Durius still lies
ARMY_ORDER = PHASE + 32
SETUP_CITY = ARMY_ORDER + NUM_ARMY_SLOTS
REVOLTS = SETUP_CITY + NUM_HISPANIC
GARR = REVOLTS + NUM_SPACES
GARR_RESERVE = GARR + NUM_CITIES * STACK
ARMY_POS = GARR_RESERVE + NUM_GENERALS
GEN_POS = ARMY_POS + NUM_ARMY_SLOTS
FLEET = GEN_POS + NUM_GENERALS
ROADS = FLEET + NUM_SEAS
# Rome's aims at the first position (version 4): the capitals garrisoned, the revolt
# counters in the reserve and the revolts in the Roman provinces, from which the
# ``progress`` reward measures Rome's standing (returns start at 0, docs/rules/hispania.md)
START_AIMS = ROADS + NUM_LINKS
STATE_SIZE = START_AIMS + 3

# phases
PH_SETUP_REVOLT = 1
PH_SETUP_ARMY = 2
PH_SETUP_ROAD = 3
PH_SETUP_PLACE = 4
PH_TURN_START = 5
PH_REENTER = 6
PH_ROMAN = 7
PH_ROMAN_COMBAT = 8
PH_REVOLT_PROV = 9
PH_REVOLT_CITY = 10
PH_MOVE_START = 11
PH_ARMY_MOVE = 12
PH_MOVE_DIE = 13
PH_ARMY_COMBAT = 14
PH_TURN_END = 15
PH_OVER = 16
PH_FREE_MOVE = 17  # Imperivm: the praetor of Ulterior's free move after his Hispanic phase
PH_TERROR = 18  # Terror: the die deciding whether the special army is the one placed
PH_TURN_NEXT = 19  # pass the turn (after PH_TURN_END's Imperivm free move)
PH_H_REVOLT = 20  # Hispano: accept the revolt dice or reroll one (1 denarius)
PH_H_REROLL_PROV = 21  # the Roman die rerolled
PH_H_REROLL_CITY = 22  # the Hispanic die rerolled
PH_H_MOVE = 23  # Hispano: choose an army's destination (1 denarius) or roll
PH_H_REINFORCE = 24  # Hispano: add 0-2 denarii to the Hispanic side of a Roman combat
PH_H_COMBAT = 25  # Hispano: accept a combat's dice or reroll the Hispanic die (1 denarius)
PH_H_ATTACK = 26  # Hispano: attack with an army (choose it) or pass
PH_H_ATTACK_TARGET = 27  # ... the garrison or general it attacks
PH_H_ATTACK_SPEND = 28  # ... 1-2 denarii added to the die
NUM_PHASES = 29

# H_ATTACK: which of Hispano's attack steps (hispano_attacks="any_step": three a Hispanic
# phase); in the combat of an attack made after the move HA_COMBAT, in the others their step
HA_AFTER_MOVE = 0  # after the move step (the only one under "after_move"): then the turn ends
HA_COMBAT = 1  # the combat of an attack made after the move: back to that step
HA_BEFORE_REVOLT = 2  # before the revolt roll: then the roll
HA_BEFORE_MOVE = 3  # between the revolt roll and the move step: then the move

# chance kinds (state[H_CHANCE_KIND])
CK_SETUP_REVOLT = 1  # Hispanic die: the initial revolt city of province COUNTER
CK_SETUP_ARMY = 2  # Roman die: the province of an initial army (occupied ones rerolled)
CK_ROMAN_DIE = 3  # Roman die of a combat
CK_HISP_DIE = 4  # Hispanic die of a combat
CK_REVOLT_PROV = 5  # Roman die of the Hispanic revolt roll
CK_REVOLT_CITY = 6  # Hispanic die of the Hispanic revolt roll
CK_MOVE_DIE = 7  # Hispanic die choosing an army's destination
CK_TERROR = 8  # Terror: Hispanic die, the special army is placed on 4-6 (2 left) or 5-6 (3 left)

# combat kinds
CB_SIEGE = 1  # a general besieges a revolt
CB_ATTACK = 2  # a general attacks an army
CB_ARMY_GARRISON = 3  # an army attacks a garrisoned city
CB_ARMY_GENERAL = 4  # an army attacks a general
CB_ASSASSINATE = 5  # "Rome does not pay traitors": the attempt on the special army's leader

# pending composite choice
PK_BESIEGE = 1
PK_ATTACK = 2
PK_ASSASSINATE = 3

# pieces
LEGIO_COLOUR = 5  # the purple disc in a garrison stack (colours 1-4 are the generals')
PROCONSUL = 3
SPECIAL = 3  # the special army's slot
GONE = -2  # a proconsul dead, a special army assassinated: out of the game

# winner
W_NONE = 0
W_ROME = 1
W_HISPANIA = 2

# ---------------------------------------------------------------- params
P_DENARII = PARAMS_HEADER
P_GARRISONS = PARAMS_HEADER + 1
P_FLEETS = PARAMS_HEADER + 2
P_ROADS = PARAMS_HEADER + 3
P_ARMIES = PARAMS_HEADER + 4
P_AUTO_SETUP = PARAMS_HEADER + 5
P_AGENTS_ROME = PARAMS_HEADER + 6
P_INGENIVM = PARAMS_HEADER + 7
P_IMPERIVM = PARAMS_HEADER + 8
P_PROCONSVL = PARAMS_HEADER + 9
P_LEGIO = PARAMS_HEADER + 10
P_PIRATES = PARAMS_HEADER + 11
P_TERROR = PARAMS_HEADER + 12
P_TRAITORS = PARAMS_HEADER + 13
P_HISPANO = PARAMS_HEADER + 14
P_SCENARIO = PARAMS_HEADER + 15  # 0 none, 1.. the scenarios in scenarios.toml order
P_REWARD = PARAMS_HEADER + 16  # 0 win_loss, 1 progress (REWARDS in __init__)
# readings the rulebook leaves open (docs/rules/hispania.md rows 10, 11, 19)
P_COMBAT_TIES = PARAMS_HEADER + 17  # 0 a tie goes to the defender, 1 to the attacker
P_HISPANIC_REVOLTS = PARAMS_HEADER + 18  # 0 the army's connected revolt group, 1 its city's
P_BEATEN_ARMY = PARAMS_HEADER + 19  # 0 a beaten army's revolts stay, 1 one goes with it
P_ASSASSINATION = PARAMS_HEADER + 20  # 0 one attempt a game, 1 any while the special army plays
P_HISPANO_ATTACKS = PARAMS_HEADER + 21  # 0 Hispano attacks after the move, 1 at any step
PROGRESS_WEIGHT = 0.5  # reward="progress": the weight of Rome's standing (0-1) in the return
# Rome's standing (rules.rome_standing; its sum of weights scaled to 1) and progress
# (rules.rome_progress, MCTS's position value: the standing's weights and the time left)
STANDING_CAPITALS = 0.45  # x the share of the Hispanic capitals garrisoned
STANDING_RESERVE = 0.25  # x the share of all revolt counters in the reserve
STANDING_CLEAR = 0.15  # x 1 / (1 + revolts in the Roman provinces)
PROGRESS_TIME = 0.15  # x the share of the track's time left
P_BEATEN_GARRISON = PARAMS_HEADER + 22  # 0 a beaten garrison goes to its reserve, 1 it is lost
P_DISPLAY_OF_POWER = PARAMS_HEADER + 23  # 0 the bare die, 1 only revolts and links' x2 dropped
PARAMS_SIZE = PARAMS_HEADER + 24

# ---------------------------------------------------------------- actions
A_PASS = 0  # end the Roman phase
A_SPACE = 1  # [49] move the general to / place a general on space s
A_FLEET = A_SPACE + NUM_SPACES  # [5*5] move the fleet of sea a to sea b: A_FLEET + a*5 + b
A_GARRISON = A_FLEET + NUM_SEAS * NUM_SEAS  # place a garrison in the general's city
A_UNGARRISON = A_GARRISON + 1  # remove one of his garrisons there
A_BESIEGE = A_UNGARRISON + 1  # [49] choose a revolt to besiege
A_ATTACK = A_BESIEGE + NUM_SPACES  # [44] choose an army (by its city) to attack
A_SPEND = A_ATTACK + NUM_CITIES  # [3] spend 1-3 denarii on the chosen combat (confirms it)
A_CANCEL = A_SPEND + 3  # drop the chosen combat: never legal since version 2 (ruling 25)
A_ROAD = A_CANCEL + 1  # [L] place a road on link L (set-up; Ingenivm in play)
A_SELECT = A_ROAD + NUM_LINKS  # [4] act next with general g (Imperivm consul, Proconsvl)
A_LEGIO = A_SELECT + NUM_GENERALS  # Legio Hispana: place the purple disc here
A_UNLEGIO = A_LEGIO + 1  # Legio Hispana: take the purple disc from here
A_PROCONSUL = A_UNLEGIO + 1  # Proconsvl: 3 denarii, the proconsul onto the Balearicum fleet
A_ASSASSINATE = A_PROCONSUL + 1  # Terror: try to have the special army's leader murdered
A_H_ACCEPT = A_ASSASSINATE + 1  # Hispano: accept / roll / pass
A_H_FACE = A_H_ACCEPT + 1  # [6] Hispano set-up: city number 1-6, or province I-VI
A_H_REROLL_R = A_H_FACE + 6  # Hispano: reroll the Roman die of the revolt roll
A_H_REROLL_H = A_H_REROLL_R + 1  # Hispano: reroll the Hispanic die (revolt roll or combat)
A_H_CITY = A_H_REROLL_H + 1  # [44] Hispano: an army's destination, or the city it attacks
A_H_ARMY = A_H_CITY + NUM_CITIES  # [4] Hispano: the army that attacks
A_H_SPEND = A_H_ARMY + NUM_ARMY_SLOTS  # [2] Hispano: spend 1-2 denarii
NUM_ACTIONS = A_H_SPEND + 2
HISPANO = 3  # the Hispano player's index

# ---------------------------------------------------------------- observation
# per space: revolts/3, garrisons of each colour/3, army, general one-hot (4), fleet
OBS_PER_SPACE = 1 + NUM_GENERALS + 1 + NUM_GENERALS + 1
OBS_SPACES = 0
OBS_ROADS = OBS_SPACES + NUM_SPACES * OBS_PER_SPACE
OBS_PHASE = OBS_ROADS + NUM_LINKS
OBS_TURN = OBS_PHASE + NUM_PHASES
OBS_SCALARS = OBS_TURN + NUM_GENERALS  # denarii/8, track/11, reserve/22, pending kind, target,
# own garrisons in reserve, Hispano's denarii/2, Hispano's bonus/2, Display of Power, Lethe
OBS_PLAYER = OBS_SCALARS + 10
# the decision's context: per space, the combat / chosen target, the acting army's city and the
# revolt roll's city; then the dice, denarii spent, kept roads, the assassination's use, combat
# kind (6), the selected general (4), the Legio Hispana disc's holder (3), special army and
# proconsul out of the game
OBS_CONTEXT = OBS_PLAYER + MAX_PLAYERS
OBS_EXTRA = OBS_CONTEXT + 3 * NUM_SPACES
OBS_SIZE = OBS_EXTRA + 5 + 6 + NUM_GENERALS + 3 + 2

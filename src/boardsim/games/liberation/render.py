"""The liberation race drawn: the 41-space circular track, pawns, liberated spaces, scores.

The data file numbers the track but gives no drawing positions, so the spaces are
placed on a ring (space 1 at the top, clockwise), evenly spaced; revolution
spaces are white, country spaces tinted by country. Hands are hidden unless the
picture is drawn for that player (``viewer``) or with ``show_hands``.
"""

from __future__ import annotations

import math

import numpy as np

from boardsim.core import header as H
from boardsim.core.game import Game
from boardsim.games.liberation import data as D
from boardsim.games.liberation import layout as L
from boardsim.games.liberation.names import (
    CHANCE_WORDS,
    PHASE_WORDS,
    card_name,
    country_name,
    describe_chance,
)
from boardsim.render.common import (
    FAINT,
    INK,
    Panel,
    panel_background,
    player_colour,
)
from boardsim.render.scene import Circle, Polyline, Rect, Scene, Text

BOARD = 680.0
PANEL_WIDTH = 340.0
CENTRE = BOARD / 2
RING = 280.0
SPACE_R = 19.0
PAWN_R = 7.0
COUNTRY_RING = RING - 130  # where the country names sit, inside the pawns
COUNTRY_TINTS = (
    "#f5cba7", "#d6eaf8", "#d5f5e3", "#fcf3cf", "#e8daef", "#fadbd8", "#d1f2eb", "#ebdef0",
)  # fmt: skip


def space_xy(space: int, radius: float = RING) -> tuple[float, float]:
    """Where 0-based ``space`` sits on the ring (space 0 at the top, clockwise)."""
    angle = -math.pi / 2 + 2 * math.pi * space / D.NUM_SPACES
    return CENTRE + radius * math.cos(angle), CENTRE + radius * math.sin(angle)


def _static(scene: Scene) -> None:
    out = scene.static
    ring = [space_xy(s) for s in range(D.NUM_SPACES)]
    out.append(Polyline((*ring, ring[0]), "#9c8f74", 3.0))
    for s in range(D.NUM_SPACES):
        x, y = ring[s]
        c = int(D.SPACE_COUNTRY[s])
        fill = "#ffffff" if c < 0 else COUNTRY_TINTS[c % len(COUNTRY_TINTS)]
        out.append(Circle(x, y, SPACE_R, fill, "#5d5446", 1.2, {"space": str(s + 1)}))
        nx, ny = space_xy(s, RING + SPACE_R + 12)
        out.append(Text(nx, ny, str(s + 1), 11.0, FAINT, "middle"))
        if c < 0:
            out.append(Text(x, y, "R", 12.0, "#7b241c", "middle", True))
    for c in range(len(D.DATA.country_names)):
        first, length = int(D.COUNTRY_FIRST[c]), int(D.COUNTRY_LENGTH[c])
        x, y = space_xy(first + (length - 1) / 2, COUNTRY_RING)
        out.append(Text(x, y, country_name(c), 13.0, "#4a4236", "middle", True))
    out.append(Text(CENTRE, CENTRE - 12, "Liberation", 22.0, "#4a4236", "middle", True))
    out.append(Text(CENTRE, CENTRE + 14, "1809-1826", 13.0, FAINT, "middle"))
    out.append(panel_background(BOARD, BOARD, PANEL_WIDTH))


def _spaces(scene: Scene, s: np.ndarray) -> None:
    out = scene.dynamic
    for sp in range(D.NUM_SPACES):
        owner = int(s[L.OWNER + sp])
        if owner < 0:
            continue
        x, y = space_xy(sp)
        kind = int(s[L.CARD + sp])
        force = int(D.KIND_FORCE[kind]) if kind >= 0 else 0
        counters = int(s[L.COUNTERS + sp])
        data = {"kind": "owned", "space": str(sp + 1), "player": str(owner)}
        out.append(Circle(x, y, SPACE_R - 2, "#fffdf7", player_colour(owner), 4.0, data))
        out.append(Text(x, y - 5, str(force), 12.0, INK, "middle", True))
        out.append(Text(x, y + 7, f"×{counters}", 12.0, INK, "middle"))
    for c in range(len(D.DATA.country_names)):
        if s[L.INDEP + c]:
            first, length = int(D.COUNTRY_FIRST[c]), int(D.COUNTRY_LENGTH[c])
            x, y = space_xy(first + (length - 1) / 2, COUNTRY_RING)
            out.append(Text(x, y + 16, "independent", 11.0, "#196f3d", "middle", True))


def _pawns(scene: Scene, s: np.ndarray, n: int) -> None:
    by_space: dict[int, list[int]] = {}
    for p in range(n):
        by_space.setdefault(int(s[L.POS + p]), []).append(p)
    for sp, players in by_space.items():
        for j, p in enumerate(players):
            x, y = pawn_xy(sp, j, len(players))
            data = {"kind": "pawn", "player": str(p), "space": str(sp + 1)}
            scene.dynamic.append(Circle(x, y, PAWN_R, player_colour(p), "#000000", 1.0, data))


def pawn_xy(space: int, j: int, n: int) -> tuple[float, float]:
    """Where the ``j``-th of ``n`` pawns on ``space`` stands: inside the ring, in rows of two
    across the track."""
    row, col = divmod(j, 2)
    across = 0.0 if n - 2 * row == 1 else (col - 0.5) * (2 * PAWN_R + 2)
    radius = RING - SPACE_R - PAWN_R - 3 - row * (2 * PAWN_R + 2)
    cx, cy = space_xy(space, radius)
    angle = -math.pi / 2 + 2 * math.pi * space / D.NUM_SPACES
    return cx - math.sin(angle) * across, cy + math.cos(angle) * across


def _hand_words(s: np.ndarray, p: int) -> list[str]:
    return [
        card_name(k) + (f" x{int(s[L.HAND + p * L.K + k])}" if s[L.HAND + p * L.K + k] > 1 else "")
        for k in range(L.K)
        if s[L.HAND + p * L.K + k] > 0
    ]


CARD_W, CARD_H, CARD_GAP = 30.0, 40.0, 4.0


def type_initials(kind: int) -> str:
    """``"SB"`` for Simon Bolivar, ``"L"`` for Leader: the card type's initials."""
    name = D.DATA.type_names[int(D.KIND_TYPE[kind])]
    return "".join(word[0] for word in name.split()).upper()


def _hand_cards(panel: Panel, s: np.ndarray, p: int) -> None:
    """Player ``p``'s hand as small cards (type initials, force; Royalists in red)."""
    kinds = [k for k in range(L.K) for _ in range(int(s[L.HAND + p * L.K + k]))]
    if not kinds:
        panel.line("   (no cards)", 12.0, fill=FAINT)
        return
    per_row = int((panel.width - 16) // (CARD_W + CARD_GAP))
    for row in range(0, len(kinds), per_row):
        top = panel.y - 6
        for j, k in enumerate(kinds[row : row + per_row]):
            x = panel.x + 16 + j * (CARD_W + CARD_GAP)
            royalist = bool(D.KIND_ROYALIST[k])
            data = {"kind": "card", "player": str(p), "card": card_name(k)}
            edge = "#922b21" if royalist else "#1b4f72"
            panel.out.append(Rect(x, top, CARD_W, CARD_H, "#ffffff", edge, 1.4, data))
            panel.out.append(Text(x + CARD_W / 2, top + 10, type_initials(k), 12.0, edge,
                                  "middle", True))  # fmt: skip
            panel.out.append(Text(x + CARD_W / 2, top + 27, str(int(D.KIND_FORCE[k])), 14.0,
                                  INK, "middle", True))  # fmt: skip
        panel.gap(CARD_H + CARD_GAP)


def _panel(scene: Scene, s: np.ndarray, n: int, viewer: int | None, show_hands: bool) -> None:
    panel = Panel(BOARD + 14, 22, PANEL_WIDTH - 28, scene.dynamic)
    mover = int(s[L.MOVER])
    panel.line(f"Turn {int(s[L.TURN])}", 15.0, True)
    if int(s[L.PHASE]) == L.PH_OVER:
        panel.line("Game over", 13.0, True, data={"kind": "turn", "player": "-1"})
    else:
        if int(s[H.H_ACTOR]) == H.CHANCE:
            doing = "chance: " + CHANCE_WORDS.get(int(s[H.H_CHANCE_KIND]), "?")
        else:
            doing = PHASE_WORDS.get(int(s[L.PHASE]), "?")
        panel.line(
            f"Player {mover} to play",
            13.0,
            True,
            swatch=player_colour(mover),
            data={"kind": "turn", "player": str(mover)},
        )
        panel.line(f"({doing})", 12.0, fill=FAINT)
    panel.gap()
    if show_hands:
        panel.line("all hands shown (replay view)", 12.0, fill="#7b241c")
    for p in range(n):
        hand = int(sum(int(v) for v in s[L.HAND + p * L.K : L.HAND + (p + 1) * L.K]))
        panel.line(
            f"P{p}  VT {int(s[L.VT + p])}   counters {int(s[L.SUPPLY + p])}   cards {hand}",
            12.0,
            p == mover,
            swatch=player_colour(p),
            data={"kind": "score", "player": str(p), "vt": str(int(s[L.VT + p]))},
        )
        if show_hands or viewer == p:
            _hand_cards(panel, s, p)
    panel.gap()
    pile = int(sum(int(v) for v in s[L.PILE : L.PILE + L.K]))
    disc = int(sum(int(v) for v in s[L.DISCARD : L.DISCARD + L.K]))
    gone = int(sum(int(v) for v in s[L.REMOVED : L.REMOVED + L.K]))
    panel.line(f"draw pile {pile}   discards {disc}", 12.0)
    panel.line(f"Royalist cards out of the game {gone}", 12.0)
    chosen = [card_name(k) for k in range(L.K) for _ in range(int(s[L.SELECTED + k]))]
    if chosen and (show_hands or viewer == mover):
        panel.line("attack: " + ", ".join(chosen), 12.0, fill="#7b241c")
    # the legend, as the other boards have one
    panel.gap()
    panel.line("R: revolution space (draw a card, or roll again)", 11.0, fill=FAINT)
    panel.line("small numbers: the track's spaces, 1 to 41", 11.0, fill=FAINT)
    panel.line("liberated space: the tucked card's force over ×N, the", 11.0, fill=FAINT)
    panel.line("  counters on it; ring: the player who liberated it", 11.0, fill=FAINT)
    panel.line("dots beside a space: the players' pawns, in their colours", 11.0, fill=FAINT)


def draw(game: Game, state: np.ndarray, viewer: int | None, show_hands: bool) -> Scene:
    """The race as a scene (see the module docstring)."""
    n = int(game.params[H.P_NUM_PLAYERS])
    scene = Scene(
        int(BOARD + PANEL_WIDTH),
        int(BOARD),
        title="Liberation race",
        static_key="liberation",
        board_width=int(BOARD),
    )
    _static(scene)
    _spaces(scene, state)
    _pawns(scene, state, n)
    _panel(scene, state, n, viewer, show_hands)
    return scene


def private_text(game: Game, state: np.ndarray, player: int) -> str:
    """What only ``player`` sees: their hand."""
    words = _hand_words(state, player)
    return f"your hand (player {player}): " + (", ".join(words) if words else "no cards")


def chance_text(game: Game, state: np.ndarray, outcome: int, player: int) -> str:
    """What ``player`` may see of the chance outcome about to happen (a roll, a draw)."""
    return describe_chance(game.params, state, outcome, player)

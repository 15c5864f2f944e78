"""The hub screen's colours: high contrast on a dark background; every table state has a
band colour (and always its word too, never colour alone)."""

from __future__ import annotations

from typing import Final

from hub.hall import State

Colour = tuple[int, int, int]

BG: Final[Colour] = (9, 11, 15)
HEADER_BG: Final[Colour] = (24, 28, 36)
CELL_BG: Final[Colour] = (33, 39, 49)
CELL_OFFLINE: Final[Colour] = (22, 22, 24)
PANEL_BG: Final[Colour] = (22, 26, 33)
ZEBRA: Final[Colour] = (28, 33, 42)
TEXT: Final[Colour] = (246, 246, 246)
MUTED: Final[Colour] = (160, 168, 180)
DIM: Final[Colour] = (105, 108, 114)
ACTIVE_BG: Final[Colour] = (255, 214, 10)
ACTIVE_FG: Final[Colour] = (0, 0, 0)
URGENT: Final[Colour] = (255, 82, 82)
JUDGE: Final[Colour] = (255, 149, 0)
SLOW: Final[Colour] = (255, 214, 10)
LAST_LAP_BG: Final[Colour] = (150, 40, 170)
GOLD: Final[Colour] = (255, 200, 40)

STATE_COLOURS: Final[dict[State, tuple[Colour, Colour]]] = {
    State.PLAYING: ((20, 128, 62), TEXT),
    State.LAST_LAP: (LAST_LAP_BG, TEXT),
    State.TIME: ((215, 28, 44), TEXT),
    State.PAUSED_JUDGE: (JUDGE, ACTIVE_FG),
    State.JUDGE_CALLED: (JUDGE, ACTIVE_FG),
    State.PAUSED_RESTART: (JUDGE, ACTIVE_FG),
    State.ENTERING_RESULT: ((36, 104, 230), TEXT),
    State.RESULT_IN: ((210, 214, 222), ACTIVE_FG),
    State.RESULT_REFUSED: (URGENT, ACTIVE_FG),
    State.RESULT_MISSING: (URGENT, ACTIVE_FG),
    State.ROUND_FINISHED: ((0, 118, 100), TEXT),
    State.GAME_OVER: ((92, 78, 150), TEXT),
    State.READY: ((72, 82, 98), TEXT),
    State.OFFLINE: ((70, 70, 72), TEXT),
    State.NO_DATA: ((52, 54, 58), MUTED),
}
"""Each table state's band: background and text colour."""

"""The hub screen's colours: high contrast on a dark background. A table state's band
takes the state's colours from the table-status model (:func:`tablekit.core.status.look`),
which the table units use too, and always shows its word as well (never colour alone)."""

from __future__ import annotations

from typing import Final

from tablekit.core.status import TableState, look

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
JUDGE: Final[Colour] = look(TableState.PAUSED_JUDGE).bg
"""The judge panel's colour: the judge states' own (:mod:`tablekit.core.status`)."""
SLOW: Final[Colour] = (255, 214, 10)
GOLD: Final[Colour] = (255, 200, 40)
PODIUM: Final[Colour] = (64, 52, 18)
"""The rows of the first three places in the final standings."""


"""The table unit's display, the hub screen and the organizer's command line tell every
table state with the same word and colours, because all three read them from the
table-status model (tablekit.core.status): each front end's own rendering is driven here
(the unit's scene drawn by its pygame renderer, the hub's wall drawn by its renderer, both
with SDL's dummy driver; the CLI's ``round status`` grid as a terminal gets it, its state
painted in 24-bit colour) and the picture checked. Changing a word or a colour in the
model changes all three."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from test_cli_support import Cli, school_round_playing

from hub.cli.common import render, wants_colour
from hub.cli.status import status_grid
from hub.hall import HallView, Page, PageKind, ResultState, TableCell
from hub.live import LiveView
from hub.screen.render import HallScreen
from tablekit.core.clock import Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.errors import Phrase
from tablekit.core.messages import (
    PROTOCOL_VERSION,
    RoundInfo,
    StatusReason,
    TableSnapshot,
    UnitStatus,
)
from tablekit.core.seats import Seat
from tablekit.core.status import (
    LOOKS,
    WORDS,
    Colour,
    Look,
    TableState,
    look,
    short_word,
    word,
)
from tablekit.display import Renderer, render_surface
from tablekit.layout.compose import compose
from tablekit.layout.scene import Box, Fill, Panel, Text, layout_for
from tablekit.samples import sample_views
from tablekit.shared.i18n import words
from tablekit.view import TableView

NOW = 1_800_000_000.0
UNIT_SIZE = (480, 320)
HUB_SIZE = (1280, 720)
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "status"

# --- the table unit's display ---------------------------------------------------------------

UNIT_SAMPLES = {
    TableState.READY: "ready",
    TableState.PLAYING: "playing",
    TableState.LAST_LAP: "last-lap",
    TableState.TIME: "time",
    TableState.PAUSED_JUDGE: "paused-judge",
    TableState.JUDGE_CALLED: "judge-called",
    TableState.PAUSED_RESTART: "restarted",
    TableState.GAME_OVER: "game-over",
    TableState.ENTERING_RESULT: "entry-tiles",
    TableState.CONFIRMING_RESULT: "entry-confirm",
    TableState.RESULT_SENT: "entry-sent",
    TableState.RESULT_IN: "entry-accepted",
    TableState.RESULT_REFUSED: "entry-rejected",
    TableState.OFFLINE: "offline",
    TableState.HALL_CHECK: "check-start",
    TableState.HALL_CHECK_FAULT: "check-fault",
    TableState.HALL_CHECK_READY: "check-done",
    TableState.RESULT_CONFIRMED: "entry-confirmed",
}
"""The display's sample views (``python -m tablekit.display --png``), one per state it shows."""

EN = words("en")
"""The tests check the English words (the Polish: tests/test_cli_polish.py)."""


@dataclass(frozen=True)
class Shown:
    """What a front end showed for a table: its text, and the colours where the state is
    drawn (pixels of each colour in a screen's band or box; a terminal's cell: its
    background and text colour, once each)."""

    text: str
    colours: dict[Colour, int]
    area: int

    def covers(self, colour: Colour, share: float) -> bool:
        return self.colours.get(colour, 0) >= share * self.area

    def has(self, colour: Colour) -> bool:
        return self.colours.get(colour, 0) > 0


def _colours(surface: pygame.Surface, rect: pygame.Rect) -> dict[Colour, int]:
    counts: dict[Colour, int] = {}
    sub = surface.subsurface(rect)
    for x in range(sub.get_width()):
        for y in range(sub.get_height()):
            r, g, b, _ = sub.get_at((x, y))
            counts[(r, g, b)] = counts.get((r, g, b), 0) + 1
    return counts


def _rect(box: Box) -> pygame.Rect:
    return pygame.Rect(box.x, box.y, box.w, box.h)


@pytest.fixture(scope="module")
def renderer() -> Iterator[Renderer]:
    pygame.display.init()
    pygame.font.init()
    yield Renderer()
    pygame.display.quit()


def unit_view(state: TableState) -> TableView:
    view = sample_views(NOW, "en")[UNIT_SAMPLES[state]]
    assert state is TableState.OFFLINE or view.state is state, (state, view.state)
    return view


def unit_shows(state: TableState, renderer: Renderer, *, png: bool = True) -> Shown:
    """The unit's display drawn to a picture: the band across its top (the offline box
    when the unit has lost the hub)."""
    view = unit_view(state)
    scene = compose(view, NOW, layout_for(*UNIT_SIZE))
    surface = render_surface(view, NOW, UNIT_SIZE, renderer)
    if png:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, str(ARTIFACTS / f"unit-{state.value}.png"))
    name = "offline" if state is TableState.OFFLINE else "band"
    (panel,) = [p for p in scene if p.name == name]
    box = _box_of(panel, state)
    text = next(i.text for i in panel.items if isinstance(i, Text))
    rect = _rect(box)
    return Shown(text, _colours(surface, rect), rect.w * rect.h)


def _box_of(panel: Panel, state: TableState) -> Box:
    """Where the state's background is drawn: the whole band, or the offline box's fill."""
    if state is not TableState.OFFLINE:
        return panel.box
    (fill,) = [i for i in panel.items if isinstance(i, Fill)]
    return fill.box


# --- the hub screen -----------------------------------------------------------------------------

_CELL = TableCell(
    number=7,
    seats=("Nowak Anna", "Kowalski Jan", "Wójcik Ewa", "Mazur Adam"),
    stage="R1",
    game=2,
    games=3,
    phase=Phase.RUNNING,
    active=Seat.B,
    remaining=30.0,
    measured_at=NOW - 1.0,
    move=12,
    timeouts=(0, 1, 0, 0),
)
_GAME_OVER = {"phase": Phase.GAME_OVER, "active": None}
HUB_CELLS: dict[TableState, TableCell] = {
    TableState.READY: replace(_CELL, phase=Phase.READY, active=None, move=0),
    TableState.PLAYING: _CELL,
    TableState.LAST_LAP: replace(_CELL, last_lap_left=3),
    TableState.TIME: replace(_CELL, phase=Phase.TIME_UP, remaining=0.0),
    TableState.PAUSED_JUDGE: replace(_CELL, paused=PauseReason.JUDGE, paused_since=NOW - 5),
    TableState.JUDGE_CALLED: replace(
        _CELL, paused=PauseReason.PLAYER_CALL, paused_since=NOW - 5
    ),
    TableState.PAUSED_RESTART: replace(
        _CELL, paused=PauseReason.RECOVERED, paused_since=NOW - 5
    ),
    TableState.GAME_OVER: replace(_CELL, **_GAME_OVER),
    TableState.ENTERING_RESULT: replace(_CELL, **_GAME_OVER, result=ResultState.ENTERING),
    TableState.RESULT_IN: replace(_CELL, **_GAME_OVER, result=ResultState.IN),
    TableState.RESULT_REFUSED: replace(
        _CELL, **_GAME_OVER, result=ResultState.REFUSED, refused=Phrase("seat B: 3 jokers")
    ),
    TableState.RESULT_MISSING: replace(_CELL, game=3, missing=1),
    TableState.ROUND_FINISHED: replace(
        _CELL, **_GAME_OVER, game=3, result=ResultState.IN, finished=True
    ),
    TableState.OFFLINE: replace(_CELL, online=False, offline_since=NOW - 42.0),
    TableState.BEHIND: replace(_CELL, unstored=3, unstored_since=NOW - 14.0),
    TableState.NO_DATA: replace(_CELL, known=False),
}
"""A table of the hub's wall in each state it shows."""


def hub_shows(state: TableState, *, png: bool = True) -> Shown:
    """The hub screen's wall with the table drawn to a picture: the state band of its cell."""
    cell = HUB_CELLS[state]
    info = RoundInfo(v=PROTOCOL_VERSION, stage="Eliminations", round=1, games=3)
    hall = HallView(tables=(cell,), round=info, title="Cup", language="en")
    screen = HallScreen(pygame.Surface(HUB_SIZE), cycle=0)
    screen.draw_page(hall, Page(PageKind.WALL, 0, 1), NOW)
    if png:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        pygame.image.save(screen.surface, str(ARTIFACTS / f"hub-{state.value}.png"))
    grid = screen._grid
    assert grid is not None
    region = f"cell:{grid.cells.index(screen.cells[cell.number])}"
    placed = screen.placed[region]
    # The whole word, or the short one where the cell is too narrow for it.
    band = [p for p in placed if word(state) in p.text or p.text == short_word(state)]
    assert len(band) == 1, [p.text for p in placed]
    return Shown(band[0].text, _colours(screen.surface, band[0].box), band[0].box.w * band[0].box.h)


# --- the organizer's command line ---------------------------------------------------------------


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    """A school contest in round 1 (4 tables of 4); table 1's game 1 is in at the hub."""
    return school_round_playing(tmp_path_factory.mktemp("status") / "event.sqlite3")


def _snapshot(table: int, **changes: object) -> TableSnapshot:
    fields: dict[str, object] = {
        "v": PROTOCOL_VERSION,
        "table": table,
        "unit": f"table-{table:02d}",
        "game": 1,
        "move": 7,
        "phase": Phase.RUNNING,
        "active": Seat.B,
        "remaining": 30.0,
        "measured_at": NOW - 65.0,
        "paused": None,
        "last_lap_left": None,
        "timeouts": (0, 0, 0, 0),
        "seats": 4,
        "move_seconds": 40.0,
    }
    fields.update(changes)
    return TableSnapshot(**fields)  # type: ignore[arg-type]


def _status(table: int, online: bool) -> UnitStatus:
    reason = StatusReason.CONNECTED if online else StatusReason.SHUTDOWN
    return UnitStatus(
        v=PROTOCOL_VERSION, unit=f"table-{table:02d}", table=table, online=online,
        reason=reason, ts=NOW - 65.0,
    )


_GAME_OVER_SNAP = {"phase": Phase.GAME_OVER, "active": None}
CLI_TABLES: dict[TableState, tuple[int, Callable[[LiveView, int], LiveView]]] = {
    TableState.READY: (2, lambda v, t: v.with_snapshot(
        _snapshot(t, phase=Phase.READY, active=None, move=0), NOW)),
    TableState.PLAYING: (2, lambda v, t: v.with_snapshot(_snapshot(t), NOW)),
    TableState.LAST_LAP: (2, lambda v, t: v.with_snapshot(_snapshot(t, last_lap_left=3), NOW)),
    TableState.TIME: (2, lambda v, t: v.with_snapshot(
        _snapshot(t, phase=Phase.TIME_UP, remaining=0.0), NOW)),
    TableState.PAUSED_JUDGE: (2, lambda v, t: v.with_snapshot(
        _snapshot(t, paused=PauseReason.JUDGE), NOW)),
    TableState.JUDGE_CALLED: (2, lambda v, t: v.with_snapshot(
        _snapshot(t, paused=PauseReason.PLAYER_CALL), NOW)),
    TableState.PAUSED_RESTART: (2, lambda v, t: v.with_snapshot(
        _snapshot(t, paused=PauseReason.RECOVERED), NOW)),
    TableState.ENTERING_RESULT: (2, lambda v, t: v.with_snapshot(
        _snapshot(t, **_GAME_OVER_SNAP), NOW)),
    TableState.RESULT_IN: (1, lambda v, t: v.with_snapshot(
        _snapshot(t, **_GAME_OVER_SNAP), NOW)),
    TableState.OFFLINE: (2, lambda v, t: v.with_status(_status(t, False), NOW)),
    TableState.NO_DATA: (2, lambda v, t: v.with_status(_status(t, True), NOW)),
}
"""A table of the event's round as the live view (the units' retained messages) shows
it in each state the command line tells."""


_PAINTED = re.compile(
    r"\x1b\[38;2;(\d+);(\d+);(\d+)m\x1b\[48;2;(\d+);(\d+);(\d+)m(.*)\x1b\[0m"
)


def cli_shows(state: TableState, event: Cli) -> Shown:
    """``round status`` with the live view, on a terminal: the table's Live column, its
    text and the colours it is painted in."""
    table, make = CLI_TABLES[state]
    live = make(LiveView(), table)
    grid = status_grid(event.competition(), NOW, EN, live, colour=True)
    out = render(grid, EN)
    column = grid.headers.index("Live")
    (row,) = [r for r in grid.rows if r[0] == str(table)]
    assert row[column] in out
    painted = _PAINTED.fullmatch(row[column])
    assert painted is not None, row[column]
    numbers = [int(n) for n in painted.groups()[:6]]
    fg, bg = (numbers[0], numbers[1], numbers[2]), (numbers[3], numbers[4], numbers[5])
    return Shown(painted.group(7), {bg: 1, fg: 1} if bg != fg else {bg: 1}, 1)


# --- they agree ------------------------------------------------------------------------------


def test_every_state_is_shown_by_some_front_end() -> None:
    assert set(UNIT_SAMPLES) | set(HUB_CELLS) | set(CLI_TABLES) == set(TableState)


def _check_screen(shown: Shown, state: TableState, want: Look) -> None:
    assert word(state) in shown.text or shown.text == short_word(state), shown.text
    # The state's background fills most of its band or box (the rest is its word and icon),
    # and its word is drawn in the state's text colour.
    assert shown.covers(want.bg, 0.4), (state, want.bg)
    assert shown.has(want.fg), (state, want.fg)


@pytest.mark.parametrize("state", list(TableState), ids=str)
def test_the_unit_the_hub_screen_and_the_cli_show_the_same_word_and_colour(
    state: TableState, renderer: Renderer, event: Cli
) -> None:
    want = look(state)
    shown = 0
    if state in UNIT_SAMPLES:
        _check_screen(unit_shows(state, renderer), state, want)
        shown += 1
    if state in HUB_CELLS:
        _check_screen(hub_shows(state), state, want)
        shown += 1
    if state in CLI_TABLES:
        _check_screen(cli_shows(state, event), state, want)
        shown += 1
    assert shown or state not in UNIT_SAMPLES | HUB_CELLS | CLI_TABLES


@pytest.mark.parametrize(
    "state",
    [s for s in TableState if s in UNIT_SAMPLES or s in HUB_CELLS or s in CLI_TABLES],
    ids=str,
)
def test_changing_a_word_or_a_colour_in_the_model_changes_every_front_end(
    state: TableState, renderer: Renderer, event: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    new = Look((3, 141, 159), (255, 250, 205))
    monkeypatch.setitem(WORDS, state, "ZMIANA")
    monkeypatch.setitem(LOOKS, state, new)
    if state in UNIT_SAMPLES:
        _check_screen(unit_shows(state, renderer, png=False), state, new)
    if state in HUB_CELLS:
        _check_screen(hub_shows(state, png=False), state, new)
    if state in CLI_TABLES:
        _check_screen(cli_shows(state, event), state, new)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_cli_paints_only_on_a_terminal_that_wants_colours(event: Cli) -> None:
    assert wants_colour(_Terminal(), {"TERM": "xterm-256color"})
    assert not wants_colour(io.StringIO(), {"TERM": "xterm-256color"})
    assert not wants_colour(_Terminal(), {"TERM": "xterm", "NO_COLOR": "1"})
    assert not wants_colour(_Terminal(), {"TERM": "dumb"})
    table, make = CLI_TABLES[TableState.PLAYING]
    plain = render(status_grid(event.competition(), NOW, EN, make(LiveView(), table)), EN)
    live = make(LiveView(), table)
    painted = render(status_grid(event.competition(), NOW, EN, live, colour=True), EN)
    assert "\x1b[" not in plain
    # Painting changes no column's width: the lines are as long on screen as the plain ones.
    visible = re.sub(r"\x1b\[[0-9;]*m", "", painted)
    assert visible == plain

"""What the table display shows, as plain values (no pygame): layout and scene.

:func:`layout_for` cuts a screen of any size into regions; :func:`compose` turns a
:class:`~tablekit.view.TableView` and the time into a *scene*: a tuple of
:class:`Panel` values that tile the screen without overlap. Each panel names its
rectangle, its background and what is drawn in it (text in boxes, filled
rectangles, icons). The pygame shell in :mod:`tablekit.display` draws a panel only
when it differs from the panel drawn at the same place last time, so a frame in
which nothing visible changed costs no drawing at all.

Text items give a *box*; the renderer picks the largest font that fits it, so a
long name gets smaller instead of running over its neighbour. Every state has a
word and an icon shape as well as a colour (never colour alone).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Any

import msgspec

from tablekit.clock import ClockRules, ClockState, GameEndReason, PauseReason, Phase
from tablekit.controls import JudgeAction, JudgeMenu
from tablekit.seats import Seat, next_seat
from tablekit.view import TableView

Colour = tuple[int, int, int]

BACKGROUND: Colour = (14, 16, 20)
PANEL_EDGE: Colour = (44, 48, 56)
WHITE: Colour = (244, 244, 240)
BLACK: Colour = (0, 0, 0)
DIM: Colour = (150, 154, 162)
GREY: Colour = (120, 124, 132)
AMBER: Colour = (255, 184, 0)
RED: Colour = (236, 28, 36)
RED_TEXT: Colour = (255, 72, 60)
GREEN: Colour = (0, 120, 60)
BLUE: Colour = (0, 84, 166)
PURPLE: Colour = (150, 40, 160)
SLATE: Colour = (48, 64, 92)
DARK_GREY: Colour = (64, 66, 74)
BAR_TRACK: Colour = (40, 43, 50)

WARN_SECONDS = 10
"""At or below this many whole seconds the digits turn amber (the buzzer's first beep)."""
CRITICAL_SECONDS = 5
"""At or below this many whole seconds the digits turn red (one beep per second)."""


class Align(enum.StrEnum):
    LEFT = "left"
    CENTER = "center"
    RIGHT = "right"


class IconKind(enum.StrEnum):
    PLAY = "play"
    PAUSE = "pause"
    ALERT = "alert"
    STOP = "stop"
    LAP = "lap"
    FLAG = "flag"
    READY = "ready"
    OFFLINE = "offline"
    POINTER = "pointer"
    """The ▶ that marks the selected judge-menu item."""


@dataclass(frozen=True, slots=True)
class Box:
    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def area(self) -> int:
        return self.w * self.h

    def inset(self, dx: int, dy: int | None = None) -> Box:
        dy = dx if dy is None else dy
        return Box(self.x + dx, self.y + dy, max(0, self.w - 2 * dx), max(0, self.h - 2 * dy))

    def contains(self, other: Box) -> bool:
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.right <= self.right
            and other.bottom <= self.bottom
        )

    def overlaps(self, other: Box) -> bool:
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.w, self.h)


@dataclass(frozen=True, slots=True)
class Text:
    text: str
    box: Box
    colour: Colour
    align: Align = Align.CENTER
    tight: bool = False
    """Fit the glyphs' ink (digits, capital words) rather than the font's line height."""
    template: str = ""
    """Size the font for this text instead, so that e.g. 9 and 10 get the same digit size."""
    shrink: float = 0.7
    """Too wide text gets smaller down to this fraction of the box height, then is cut (…)."""


@dataclass(frozen=True, slots=True)
class Fill:
    box: Box
    colour: Colour
    radius: int = 0
    width: int = 0
    """0 = filled; otherwise the outline's thickness."""


@dataclass(frozen=True, slots=True)
class Icon:
    kind: IconKind
    box: Box
    colour: Colour


Item = Text | Fill | Icon


@dataclass(frozen=True, slots=True)
class Panel:
    name: str
    box: Box
    bg: Colour
    items: tuple[Item, ...] = ()


Scene = tuple[Panel, ...]


@dataclass(frozen=True, slots=True)
class Layout:
    """The regions of one screen size; ``portrait`` when taller than wide."""

    width: int
    height: int
    portrait: bool
    pad: int
    band: Box
    seat: Box
    clock: Box
    footer: Box
    message: Box

    @property
    def screen(self) -> Box:
        return Box(0, 0, self.width, self.height)

    @property
    def main(self) -> Box:
        """Seat and clock together (GAME OVER uses the whole of it)."""
        return _union(self.seat, self.clock)

    @property
    def below_band(self) -> Box:
        """Everything under the status band (the judge menu covers it)."""
        return Box(0, self.band.bottom, self.width, self.height - self.band.bottom)

    def offline_split(self) -> tuple[Box, Box]:
        """The band with the OFFLINE marker cut from its right end."""
        ow = round(self.width * (0.5 if self.portrait else 0.32))
        b = self.band
        return Box(b.x, b.y, b.w - ow, b.h), Box(b.right - ow, b.y, ow, b.h)


def layout_for(width: int, height: int) -> Layout:
    """Cut a ``width`` × ``height`` screen into regions (any size from 160×120 up)."""
    if width < 160 or height < 120:
        raise ValueError(f"display size: at least 160x120 is needed, got {width}x{height}")
    if width >= height:
        pad = max(2, round(height * 0.0125))
        band_h = round(height * 0.14)
        footer_h = round(height * 0.125)
        message_h = round(height * 0.095)
        main_h = height - band_h - footer_h - message_h
        seat_w = round(min(width * 0.30, height * 0.5))
        band = Box(0, 0, width, band_h)
        seat = Box(0, band_h, seat_w, main_h)
        clock = Box(seat_w, band_h, width - seat_w, main_h)
        footer = Box(0, band_h + main_h, width, footer_h)
        message = Box(0, height - message_h, width, message_h)
        return Layout(width, height, False, pad, band, seat, clock, footer, message)
    pad = max(2, round(width * 0.0125))
    band_h = round(height * 0.09)
    seat_h = round(height * 0.16)
    footer_h = round(height * 0.15)
    message_h = round(height * 0.08)
    clock_h = height - band_h - seat_h - footer_h - message_h
    band = Box(0, 0, width, band_h)
    seat = Box(0, band_h, width, seat_h)
    clock = Box(0, band_h + seat_h, width, clock_h)
    footer = Box(0, clock.bottom, width, footer_h)
    message = Box(0, height - message_h, width, message_h)
    return Layout(width, height, True, pad, band, seat, clock, footer, message)


# --- what changes with time --------------------------------------------------------


def shown_seconds(remaining: float) -> int:
    """Whole seconds as shown: rounded up, so 0 appears only when time is up."""
    return max(0, math.ceil(remaining - 1e-9))


def format_seconds(seconds: int) -> str:
    """``40`` up to 99 s (players count in seconds), ``1:40`` / ``1:00:00`` above."""
    if seconds < 100:
        return str(seconds)
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}:{secs:02d}"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


def _digit_template(text: str) -> str:
    """Same-width stand-in so the digits keep one size as the value counts down."""
    shape = "".join("0" if ch.isdigit() else ch for ch in text)
    return shape if len(shape) >= 2 else "00"


def _duration(secs: int) -> str:
    if secs < 60:
        return f"{secs}s"
    if secs < 3600:
        return f"{secs // 60}:{secs % 60:02d}"
    return f"{secs // 3600}h{secs % 3600 // 60:02d}"


def offline_for(view: TableView, now: float) -> int | None:
    """Whole seconds the unit has been offline, or None when not offline / unknown."""
    if view.online is not False or view.offline_since is None:
        return None
    return max(0, int(now - view.offline_since))


def time_key(view: TableView, now: float) -> tuple[int, int | None]:
    """Everything in a scene that depends on ``now``: equal keys give equal scenes."""
    return shown_seconds(view.remaining(now)), offline_for(view, now)


# --- composing a scene ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Style:
    word: str
    icon: IconKind
    bg: Colour
    fg: Colour


def _style(view: TableView) -> _Style:
    c = view.clock
    word = view.state_word
    if c.paused is PauseReason.JUDGE or c.paused is PauseReason.RECOVERED:
        return _Style(word, IconKind.PAUSE, AMBER, BLACK)
    if c.paused is PauseReason.PLAYER_CALL:
        return _Style(word, IconKind.ALERT, PURPLE, WHITE)
    if c.phase is Phase.TIME_UP:
        seat = f" — SEAT {c.active} {view.name(c.active)}" if c.active else ""
        return _Style(f"TIME{seat}", IconKind.STOP, RED, WHITE)
    if c.phase is Phase.GAME_OVER:
        return _Style(word, IconKind.FLAG, DARK_GREY, WHITE)
    if c.phase is Phase.READY:
        return _Style(word, IconKind.READY, SLATE, WHITE)
    if c.last_lap_left is not None:
        left = c.last_lap_left
        return _Style(
            f"{word} — {left} MOVE{'S' if left != 1 else ''} LEFT", IconKind.LAP, BLUE, WHITE
        )
    return _Style(word, IconKind.PLAY, GREEN, WHITE)


def _band(lay: Layout, view: TableView, style: _Style, box: Box, with_table: bool) -> Panel:
    p = lay.pad
    icon = Box(box.x + p * 2, box.y + p * 2, box.h - p * 4, box.h - p * 4)
    text_x = icon.right + p * 2
    table_w = round(box.w * 0.2) if with_table and view.table is not None else 0
    word = Box(text_x, box.y + p, box.right - text_x - table_w - p * 2, box.h - p * 2)
    items: list[Item] = [
        Icon(style.icon, icon, style.fg),
        Text(style.word, word.inset(0, p), style.fg, Align.LEFT, shrink=0.45),
    ]
    if table_w:
        table = Box(box.right - table_w - p * 2, box.y + p, table_w, box.h - p * 2)
        items.append(Text(f"TABLE {view.table}", table.inset(0, p * 2), style.fg, Align.RIGHT))
    return Panel("band", box, style.bg, tuple(items))


def _offline(lay: Layout, view: TableView, box: Box, now: float) -> Panel:
    p = lay.pad
    frame = box.inset(p * 2, p * 2)
    icon = Box(frame.x + p * 2, frame.y + p, frame.h - p * 2, frame.h - p * 2)
    text = Box(icon.right + p * 2, frame.y, frame.right - icon.right - p * 4, frame.h)
    secs = offline_for(view, now)
    words = "OFFLINE" if secs is None else f"OFFLINE {_duration(secs)}"
    return Panel(
        "offline",
        box,
        BLACK,
        (
            Fill(frame, AMBER, radius=p * 2),
            Icon(IconKind.OFFLINE, icon, BLACK),
            Text(words, text, BLACK, Align.LEFT, shrink=0.4),
        ),
    )


def _seat_panel(lay: Layout, view: TableView, label: str, seat: Seat | None) -> Panel:
    box, p = lay.seat, lay.pad
    name = view.name(seat)
    letter = str(seat) if seat is not None else "–"
    if lay.portrait:
        side = box.h - p * 4
        tile = Box(box.x + p * 4, box.y + p * 2, side, side)
        tx = tile.right + p * 4
        lbl = Box(tx, box.y + p * 2, box.right - tx - p * 4, round(side * 0.3))
        who = Box(tx, lbl.bottom + p, lbl.w, tile.bottom - lbl.bottom - p)
    else:
        label_h = round(box.h * 0.13)
        name_h = round(box.h * 0.19)
        lbl = Box(box.x + p * 2, box.y + p * 2, box.w - p * 4, label_h)
        side = min(box.w - p * 8, box.h - label_h - name_h - p * 8)
        tile = Box(box.x + (box.w - side) // 2, lbl.bottom + p * 2, side, side)
        who = Box(box.x + p * 2, tile.bottom + p * 2, box.w - p * 4, name_h)
    letter_box = tile.inset(round(side * 0.16))
    items: tuple[Item, ...] = (
        Text(label, lbl, DIM, Align.LEFT if lay.portrait else Align.CENTER),
        Fill(tile, WHITE, radius=max(2, side // 10)),
        Text(letter, letter_box, BLACK, tight=True, template="W"),
        Text(name, who, WHITE, Align.LEFT if lay.portrait else Align.CENTER, shrink=0.5),
    )
    return Panel("seat", box, BACKGROUND, items)


def _clock_panel(lay: Layout, view: TableView, now: float) -> Panel:
    box, p = lay.clock, lay.pad
    c = view.clock
    inner = box.inset(p * 4, p * 3)
    bar_h = max(3, round(box.h * 0.045))
    digits = Box(inner.x, inner.y, inner.w, inner.h - bar_h - p * 3)
    bar = Box(inner.x, inner.bottom - bar_h, inner.w, bar_h)
    if c.phase is Phase.TIME_UP:
        paused = c.paused is not None
        bg = BACKGROUND if paused else RED
        fg = GREY if paused else WHITE
        big = Box(inner.x, inner.y + inner.h // 8, inner.w, inner.h * 3 // 4)
        return Panel("clock", box, bg, (Text("TIME", big, fg, tight=True),))
    if c.phase is Phase.READY:
        secs = shown_seconds(c.rules.move_seconds)
    else:
        secs = shown_seconds(c.remaining_at(now))
    if c.paused is not None:
        fg = GREY
    elif c.phase is Phase.RUNNING and secs <= CRITICAL_SECONDS:
        fg = RED_TEXT
    elif c.phase is Phase.RUNNING and secs <= WARN_SECONDS:
        fg = AMBER
    else:
        fg = WHITE
    text = format_seconds(secs)
    filled = round(bar.w * min(1.0, secs / c.rules.move_seconds))
    items: list[Item] = [
        Text(text, digits, fg, tight=True, template=_digit_template(text)),
        Fill(bar, BAR_TRACK),
    ]
    if filled > 0:
        items.append(Fill(Box(bar.x, bar.y, filled, bar.h), fg))
    return Panel("clock", box, BACKGROUND, tuple(items))


def _footer(lay: Layout, view: TableView, deck: Seat | None, right: str) -> Panel:
    box, p = lay.footer, lay.pad
    items: list[Item] = [Fill(Box(box.x, box.y, box.w, max(1, p // 2)), PANEL_EDGE)]
    if lay.portrait:
        row_h = (box.h - p * 4) // 2
        left = Box(box.x + p * 4, box.y + p * 2, box.w - p * 8, row_h)
        right_box = Box(left.x, left.bottom + p, left.w, row_h)
        right_align = Align.LEFT
    else:
        half = box.w // 2
        left = Box(box.x + p * 4, box.y + p * 2, half + half // 5 - p * 4, box.h - p * 3)
        right_box = Box(left.right + p * 2, left.y, box.right - left.right - p * 6, left.h)
        right_align = Align.RIGHT
    if deck is not None:
        label_w = round(left.h * 3.1)
        items.append(
            Text("ON DECK", Box(left.x, left.y, label_w, left.h).inset(0, p), DIM, Align.LEFT)
        )
        who = Box(left.x + label_w + p * 2, left.y, left.w - label_w - p * 2, left.h)
        items.append(Text(f"{deck}  {view.name(deck)}", who, WHITE, Align.LEFT))
    items.append(Text(right, right_box.inset(0, p), DIM, right_align))
    return Panel("footer", box, BACKGROUND, tuple(items))


def _hint(view: TableView) -> str:
    c = view.clock
    if c.paused is PauseReason.PLAYER_CALL:
        return "Judge called — the judge key resumes"
    if c.paused is PauseReason.RECOVERED:
        return "Unit restarted — the judge key resumes"
    if c.paused is PauseReason.JUDGE:
        return "Stopped by the judge — judge key resumes"
    if c.phase is Phase.TIME_UP:
        return f"Seat {c.active}: take the penalty, then press"
    if c.phase is Phase.READY:
        return f"Game {c.game} — seat {c.upcoming_starter} starts — press to start"
    if c.phase is Phase.GAME_OVER:
        return "Judge: hold the key for the next game"
    if c.last_lap_left is not None:
        return "Every seat makes one more move"
    return ""


def _message(lay: Layout, view: TableView) -> Panel:
    box, p = lay.message, lay.pad
    if view.message:
        icon = Box(box.x + p * 4, box.y + p * 2, box.h - p * 4, box.h - p * 4)
        text = Box(icon.right + p * 3, box.y + p, box.right - icon.right - p * 7, box.h - p * 2)
        items: tuple[Item, ...] = (
            Icon(IconKind.ALERT, icon, AMBER),
            Text(view.message, text, AMBER, Align.LEFT, shrink=0.45),
        )
    else:
        items = (Text(_hint(view), box.inset(p * 4, p), DIM, shrink=0.45),)
    return Panel("message", box, BACKGROUND, items)


def _game_over(lay: Layout, view: TableView) -> Panel:
    box, p = lay.main, lay.pad
    c = view.clock
    inner = box.inset(p * 6, p * 4)
    word = Box(inner.x, inner.y + inner.h // 10, inner.w, round(inner.h * 0.42))
    how = (
        {
            GameEndReason.WENT_OUT: "Went out: empty rack",
            GameEndReason.LAST_LAP_DONE: "Last lap complete",
        }.get(c.ended_by, "")
        if c.ended_by is not None
        else ""
    )
    sub = Box(inner.x, word.bottom + p * 6, inner.w, min(round(inner.h * 0.18), word.h // 3))
    return Panel(
        "main",
        box,
        BACKGROUND,
        (Text("GAME OVER", word, WHITE, tight=True), Text(how, sub, DIM)),
    )


def _menu(lay: Layout, menu: JudgeMenu) -> Panel:
    box, p = lay.below_band, lay.pad
    rows = len(menu.actions) + 2
    row_h = min((box.h - p * 4) // rows, round(box.w * 0.085))
    title = Box(box.x + p * 4, box.y + p * 2, box.w - p * 8, row_h)
    items: list[Item] = [Text("JUDGE MENU", title.inset(0, p), WHITE, Align.LEFT)]
    for i, action in enumerate(menu.actions):
        row = Box(title.x, title.bottom + i * row_h, title.w, row_h - max(1, p // 2))
        selected = i == menu.selected
        fg = BLACK if selected else WHITE
        if selected:
            items.append(Fill(row, WHITE, radius=p))
            marker = Box(row.x + p * 2, row.y + row.h // 4, row.h // 2, row.h // 2)
            items.append(Icon(IconKind.POINTER, marker, BLACK))
        num = Box(row.x + p * 4 + row.h // 2, row.y, row.h, row.h)
        items.append(Text(str(i + 1), num.inset(0, p), fg))
        label = Box(num.right + p * 2, row.y, row.right - num.right - p * 4, row.h)
        items.append(Text(action.value, label.inset(0, p), fg, Align.LEFT))
    hint = Box(title.x, title.bottom + len(menu.actions) * row_h + p, title.w, row_h - p)
    items.append(
        Text("Pass button: next  ·  judge key: choose", hint.inset(0, p), DIM, shrink=0.45)
    )
    return Panel("menu", box, BACKGROUND, tuple(items))


def compose(view: TableView, now: float, lay: Layout) -> Scene:
    """The panels that show ``view`` at ``now`` on a screen cut by ``lay``."""
    c = view.clock
    style = _style(view)
    panels: list[Panel] = []
    if view.online is False:
        band_box, off_box = lay.offline_split()
        panels += [_band(lay, view, style, band_box, False), _offline(lay, view, off_box, now)]
    else:
        panels.append(_band(lay, view, style, lay.band, True))
    if view.menu is not None:
        panels.append(_menu(lay, view.menu))
        return tuple(panels)
    if c.phase is Phase.GAME_OVER:
        panels.append(_game_over(lay, view))
        moves = max(0, c.move)
        panels.append(
            _footer(lay, view, None, f"GAME {c.game} · {moves} MOVE{'S' if moves != 1 else ''}")
        )
    elif c.phase is Phase.READY:
        starter = c.upcoming_starter
        panels.append(_seat_panel(lay, view, "STARTS", starter))
        panels.append(_clock_panel(lay, view, now))
        panels.append(_footer(lay, view, next_seat(starter, c.rules.seats), f"GAME {c.game}"))
    else:
        label = "TIME UP" if c.phase is Phase.TIME_UP else "TO MOVE"
        panels.append(_seat_panel(lay, view, label, c.active))
        panels.append(_clock_panel(lay, view, now))
        panels.append(_footer(lay, view, c.on_deck, f"GAME {c.game} · MOVE {c.move}"))
    panels.append(_message(lay, view))
    return tuple(panels)


def _union(a: Box, b: Box) -> Box:
    x, y = min(a.x, b.x), min(a.y, b.y)
    return Box(x, y, max(a.right, b.right) - x, max(a.bottom, b.bottom) - y)


# --- sample views: every state, for the PNG command and the tests ---------------------

SAMPLE_NAMES: dict[Seat, str] = {
    Seat.A: "Anna Kowalska",
    Seat.B: "Bartłomiej Wiśniewski",
    Seat.C: "Celina Żak",
    Seat.D: "Dariusz Lewandowski-Grabowski",
}


def sample_views(now: float) -> dict[str, TableView]:
    """One view per state the display can show, as seen at ``now``."""
    rules = ClockRules(seats=4, move_seconds=40)
    running = ClockState(
        rules=rules,
        phase=Phase.RUNNING,
        game=2,
        move=14,
        starter=Seat.B,
        active=Seat.C,
        remaining=37.3,
        since=now,
    )

    def at(remaining: float, **changes: Any) -> ClockState:
        return msgspec.structs.replace(running, remaining=remaining, **changes)

    def view(clock: ClockState, menu: JudgeMenu | None = None, message: str = "") -> TableView:
        return TableView(
            clock, table=7, names=SAMPLE_NAMES, menu=menu, message=message, online=True
        )

    actions = (
        JudgeAction.RESUME,
        JudgeAction.RESTART_MOVE,
        JudgeAction.UNDO_PASS,
        JudgeAction.LAST_LAP,
        JudgeAction.END_GAME,
        JudgeAction.CLOSE,
    )
    game_over = ClockState(
        rules=rules, phase=Phase.GAME_OVER, game=2, move=57, ended_by=GameEndReason.WENT_OUT
    )
    return {
        "ready": view(ClockState(rules=rules, game=2)),
        "playing": view(running),
        "last-10s": view(at(8.4)),
        "last-5s": view(at(3.2)),
        "time": view(at(0.0, phase=Phase.TIME_UP, expired_at=now - 2)),
        "paused-judge": view(at(23.6, paused=PauseReason.JUDGE, paused_at=now - 5)),
        "judge-called": view(at(31.0, paused=PauseReason.PLAYER_CALL, paused_at=now - 3)),
        "restarted": view(at(12.0, paused=PauseReason.RECOVERED, paused_at=now)),
        "last-lap": view(at(28.7, last_lap_left=3)),
        "game-over": view(game_over),
        "judge-menu": view(
            at(19.2, paused=PauseReason.JUDGE, paused_at=now), menu=JudgeMenu(actions, selected=2)
        ),
        "offline": TableView(
            running, table=7, names=SAMPLE_NAMES, online=False, offline_since=now - 135.0
        ),
        "message": view(at(30.0), message="undo pass: there is no pass to undo in this game"),
        "no-names": TableView(running),
    }

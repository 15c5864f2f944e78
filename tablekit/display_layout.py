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
import functools
import itertools
import math
from dataclasses import dataclass, replace
from typing import Any

import msgspec

from tablekit.controls import JudgeAction, JudgeMenu, TableAsk
from tablekit.core.clock import (
    ClockRules,
    ClockState,
    GameEndReason,
    PauseReason,
    Phase,
    StarterSource,
)
from tablekit.core.hallcheck import STEP_WORDS, STEPS, CheckResult, CheckStep, CheckView, HallCheck
from tablekit.core.rulesets import Ruleset, get_ruleset
from tablekit.core.scoring import GameEnding, Opening, SeatScore
from tablekit.core.seats import Seat, next_seat
from tablekit.result_entry import EntryView, Key, RackEntry, ResultEntry, Step
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
BRIGHT_GREEN: Colour = (70, 210, 120)
KEYCAP: Colour = (206, 210, 216)
DARK_AMBER: Colour = (150, 90, 0)
ROW_LINE: Colour = (34, 37, 44)

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
    KEYPAD = "keypad"
    """A grid of keys: a result is being typed on the keypad."""
    CHECK = "check"
    """✓: a seat's values are in, a seat confirmed, the hub accepted the result."""
    STAR = "star"
    """★: the winner of the game (the game's top place)."""
    HOURGLASS = "hourglass"
    """Waiting for the hub's answer."""


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
    if view.check is not None:
        if view.check.step is not CheckStep.DONE:
            return _Style("HALL CHECK", IconKind.KEYPAD, SLATE, WHITE)
        if any(r is CheckResult.FAILED for _, r in view.check.results):
            return _Style("HALL CHECK: FAULT", IconKind.ALERT, AMBER, BLACK)
        return _Style("HALL CHECK: READY", IconKind.CHECK, GREEN, WHITE)
    word = view.state_word
    if c.paused is PauseReason.JUDGE or c.paused is PauseReason.RECOVERED:
        return _Style(word, IconKind.PAUSE, AMBER, BLACK)
    if c.paused is PauseReason.PLAYER_CALL:
        return _Style(word, IconKind.ALERT, PURPLE, WHITE)
    if c.phase is Phase.TIME_UP:
        seat = f" — SEAT {c.active} {view.name(c.active)}" if c.active else ""
        return _Style(f"TIME{seat}", IconKind.STOP, RED, WHITE)
    if c.phase is Phase.GAME_OVER and view.entry is not None:
        return _entry_style(view, view.entry)
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


_CHOSEN = {StarterSource.HUB: "organizer's choice", StarterSource.TABLE: "chosen here"}


def _hint(view: TableView) -> str:
    c = view.clock
    if view.ask is not None:
        return "The move's clock runs on until the answer"
    if c.paused is PauseReason.PLAYER_CALL:
        return "Judge called — the judge key resumes"
    if c.paused is PauseReason.RECOVERED:
        return "Unit restarted — the judge key resumes"
    if c.paused is PauseReason.JUDGE:
        return "Stopped by the judge — judge key resumes"
    if c.phase is Phase.TIME_UP:
        return f"Seat {c.active}: take the penalty, then press"
    if c.phase is Phase.READY:
        seat = c.upcoming_starter
        if c.starter_from is StarterSource.ROTATION:
            return f"Seat {seat} starts — press to start · 1–{c.rules.seats}: other seat"
        return f"Seat {seat} starts ({_CHOSEN[c.starter_from]}) — press to start"
    if c.phase is Phase.GAME_OVER:
        return "Judge: hold the key for the next game"
    if c.last_lap_left is not None:
        return "Every seat makes one more move · * empty rack"
    return "Keypad: * empty rack · − bank empty"


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


def _ask(lay: Layout, view: TableView, ask: TableAsk) -> Panel:
    """A table action asked once more, large, with the keys that answer it."""
    box, p = lay.main, lay.pad
    c = view.clock
    inner = box.inset(p * 6, p * 4)
    title_h = round(inner.h * 0.34)
    keys_h = round(inner.h * 0.22)
    title = Box(inner.x, inner.y, inner.w, title_h)
    sub = Box(inner.x, title.bottom + p * 2, inner.w, inner.bottom - keys_h - title.bottom - p * 4)
    keys = Box(inner.x, inner.bottom - keys_h, inner.w, keys_h)
    if ask is TableAsk.END_GAME:
        question = "EMPTY RACK?"
        who = f"Seat {c.active} {view.name(c.active)}" if c.active is not None else "A player"
        detail = f"{who} shows an empty rack: game {c.game} is over, then the result"
        yes = "yes, game over"
    else:
        question = "BANK EMPTY?"
        detail = f"Every seat makes one more move, then game {c.game} is over"
        yes = "yes, last lap"
    items: list[Item] = [Text(question, title, AMBER, tight=True)]
    items += wrap(detail, sub, WHITE, max_lines=4 if lay.portrait else 2)
    items += key_hints(keys, (("ENTER", yes), ("any other key", "no")), keys.h)
    return Panel("main", box, BACKGROUND, tuple(items))


_CHECK_ASK = {
    CheckStep.PASS: "Press the pass button",
    CheckStep.JUDGE: "Press the judge key",
    CheckStep.LEDS: "Do the lights sweep up and change colour? Pass button: yes · judge key: no",
    CheckStep.BUZZER: "Do you hear a beep every second? Pass button: yes · judge key: no",
}


_SHORT_STEP_WORDS = {
    CheckStep.PASS: "pass",
    CheckStep.JUDGE: "judge",
    CheckStep.LEDS: "lights",
    CheckStep.BUZZER: "beep",
    CheckStep.KEYPAD: "keys",
}
"""The steps' names on a narrow (portrait) screen."""


def _check_panels(lay: Layout, view: TableView, check: CheckView) -> list[Panel]:
    """The hall check: the table's number very large, what to do now, and every step's
    answer so far (a check, a warning sign or "skipped")."""
    r, p = lay.below_band, lay.pad
    number_h = round(r.h * 0.36)
    steps_h = round(r.h * 0.26)
    number = Box(r.x, r.y, r.w, number_h)
    ask = Box(r.x, number.bottom, r.w, r.h - number_h - steps_h)
    steps = Box(r.x, ask.bottom, r.w, steps_h)
    table = "?" if check.table is None else str(check.table)
    number_items = (Text(f"TABLE {table}", number.inset(p * 6, p * 3), WHITE, tight=True),)
    if check.step is CheckStep.KEYPAD:
        question = f"Type {table} on the keypad, then ENTER · no keypad: judge key"
        if check.typed:
            question = f"Typed {check.typed} — ENTER when it says {table}"
    elif check.step is CheckStep.DONE:
        faults = [STEP_WORDS[s] for s, res in check.results if res is CheckResult.FAILED]
        question = (
            f"Fault: {', '.join(faults)} — call the technician"
            if faults
            else "Checked: this table is ready · any press goes back"
        )
    else:
        question = _CHECK_ASK[check.step]
    inner = ask.inset(p * 6, p * 2)
    colour = AMBER if check.message else WHITE
    ask_items = wrap(check.message or question, inner, colour, max_lines=3)
    results = dict(check.results)
    cell_w = (steps.w - p * 8) // len(STEPS)
    step_items: list[Item] = [Fill(Box(steps.x, steps.y, steps.w, max(1, p // 2)), PANEL_EDGE)]
    for i, step in enumerate(STEPS):
        cell = Box(steps.x + p * 4 + i * cell_w, steps.y + p * 2, cell_w - p * 2, steps.h - p * 4)
        current = step is check.step
        if current:
            step_items.append(Fill(cell, SLATE, radius=p * 2))
        label = Box(cell.x + p, cell.y + p, cell.w - p * 2, round(cell.h * 0.4))
        mark = Box(cell.x + p, label.bottom, cell.w - p * 2, cell.bottom - label.bottom - p)
        words = _SHORT_STEP_WORDS[step] if lay.portrait else STEP_WORDS[step]
        colour = WHITE if current else DIM
        template = "lights" if lay.portrait else "pass button"
        step_items.append(Text(words, label, colour, template=template, shrink=0.3))
        result = results.get(step)
        side = min(mark.w, mark.h)
        icon = Box(mark.x + (mark.w - side) // 2, mark.y, side, side)
        if result is CheckResult.OK:
            step_items.append(Icon(IconKind.CHECK, icon, BRIGHT_GREEN))
        elif result is CheckResult.FAILED:
            step_items.append(Icon(IconKind.ALERT, icon, AMBER))
        elif result is CheckResult.SKIPPED:
            step_items.append(Text("skipped", mark.inset(0, mark.h // 4), DIM, shrink=0.5))
    return [
        Panel("check-table", number, BACKGROUND, number_items),
        Panel("check-ask", ask, BACKGROUND, tuple(ask_items)),
        Panel("check-steps", steps, BACKGROUND, tuple(step_items)),
    ]


def _menu(lay: Layout, menu: JudgeMenu, view: TableView) -> Panel:
    box, p = lay.below_band, lay.pad
    rows = len(menu.actions) + 2
    row_h = min((box.h - p * 4) // rows, round(box.w * 0.085))
    title = Box(box.x + p * 4, box.y + p * 2, box.w - p * 8, row_h)
    entry = view.entry
    if entry is not None and entry.seat is not None and view.clock.phase is Phase.GAME_OVER:
        # "This seat could have opened" etc. act on the seat the flow is at: name it.
        heading = f"JUDGE MENU — SEAT {entry.seat}  {view.name(entry.seat)}"
    else:
        heading = "JUDGE MENU"
    items: list[Item] = [Text(heading, title.inset(0, p), WHITE, Align.LEFT)]
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
        panels.append(_menu(lay, view.menu, view))
        return tuple(panels)
    if view.check is not None:
        panels += _check_panels(lay, view, view.check)
        return tuple(panels)
    if c.phase is Phase.GAME_OVER and view.entry is not None:
        panels += _entry_panels(lay, view, view.entry)
        return tuple(panels)
    if view.ask is not None and c.phase in (Phase.RUNNING, Phase.TIME_UP):
        panels.append(_ask(lay, view, view.ask))
        panels.append(_footer(lay, view, None, f"GAME {c.game} · MOVE {c.move}"))
    elif c.phase is Phase.GAME_OVER:
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


# --- result entry ------------------------------------------------------------------------
#
# After a game the unit walks the seats with a numeric keypad (tablekit.result_entry).
# Three screens share the space under the band: typing (whose turn, what to type, the
# typed number, the seats so far), the score table to confirm, and the hub's answer. The
# typed number has a panel of its own, so a key press redraws only that panel.

_ENTRY_LOOK: dict[Step, tuple[IconKind, Colour, Colour]] = {
    Step.TILES: (IconKind.KEYPAD, SLATE, WHITE),
    Step.CONFIRM: (IconKind.CHECK, SLATE, WHITE),
    Step.READY: (IconKind.HOURGLASS, DARK_GREY, WHITE),
    Step.SUBMITTED: (IconKind.HOURGLASS, DARK_GREY, WHITE),
    Step.ACCEPTED: (IconKind.CHECK, GREEN, WHITE),
    Step.REJECTED: (IconKind.ALERT, AMBER, BLACK),
}
"""Band icon, background and text colour of each step (word and shape, not colour alone)."""

_PLACES = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
_OPENING_TAGS = {
    Opening.NOT_OPENED: "NEVER OPENED",
    Opening.COULD_HAVE_OPENED: "COULD HAVE OPENED",
    Opening.WAIVED: "NEVER OPENED · 200 WAIVED",
}


def _entry_style(view: TableView, entry: EntryView) -> _Style:
    icon, bg, fg = _ENTRY_LOOK[entry.step]
    return _Style(view.state_word, icon, bg, fg)


def text_width(text: str, h: int) -> int:
    """About how wide ``text`` comes out in a box ``h`` high (bold DejaVu Sans, line
    height 1.17 em), a little generous; the layout shares rows with it. The renderer
    still fits every text to its own box, so an estimate off by a little only costs a
    little size."""
    em = 0.0
    for ch in text:
        if ch == " ":
            em += 0.36
        elif ch.isdigit():
            em += 0.72
        elif ch.isupper():
            em += 0.80
        elif ch.islower():
            em += 0.66
        elif ch in ".,:;·|!()'":
            em += 0.45
        elif ch == "⌫":
            em += 1.4
        else:
            em += 0.88
    return math.ceil(em * h / 1.17)


@functools.lru_cache(maxsize=512)
def _split(text: str, lines: int) -> tuple[str, ...]:
    """``text`` broken at spaces into ``lines`` lines with the narrowest widest line."""
    words = text.split()
    if lines <= 1 or len(words) < lines:
        return (" ".join(words),)
    best: tuple[str, ...] = (text,)
    best_w = math.inf
    for cuts in itertools.combinations(range(1, len(words)), lines - 1):
        bounds = (0, *cuts, len(words))
        candidate = tuple(" ".join(words[a:b]) for a, b in itertools.pairwise(bounds))
        widest = max(text_width(line, 100) for line in candidate)
        if widest < best_w:
            best, best_w = candidate, widest
    return best


def wrap(
    text: str,
    box: Box,
    colour: Colour,
    align: Align = Align.CENTER,
    *,
    max_lines: int = 3,
    line_cap: int | None = None,
) -> list[Text]:
    """``text`` as up to ``max_lines`` lines filling ``box`` as large as they fit
    (a line more only when it makes the text clearly larger), centred vertically."""
    if not text or box.w <= 0 or box.h <= 0:
        return []
    size = 0.0
    lines: tuple[str, ...] = (text,)
    for n in range(1, max_lines + 1):
        candidate = _split(text, n)
        if len(candidate) < n:
            break
        line_h = box.h // n if line_cap is None else min(box.h // n, line_cap)
        widest = max(text_width(line, line_h) for line in candidate)
        fitted = line_h * min(1.0, box.w / max(1, widest))
        if fitted > size * 1.12:
            size, lines = fitted, candidate
    h = max(1, min(box.h // len(lines), round(size)))
    top = box.y + (box.h - h * len(lines)) // 2
    return [
        Text(line, Box(box.x, top + i * h, box.w, h), colour, align, shrink=0.6)
        for i, line in enumerate(lines)
    ]


def key_hints(box: Box, hints: tuple[tuple[str, str], ...], cap: int) -> list[Item]:
    """Keycaps with what they do — ``[ENTER] next  [−] back`` — in one row (two if one
    would be too small), as large as fits ``box`` up to ``cap`` high, centred."""
    rows_options = [hints] if len(hints) < 2 else [hints, hints[: (len(hints) + 1) // 2]]
    best: tuple[int, list[tuple[tuple[str, str], ...]]] = (0, [hints])
    for first in rows_options:
        rows = [first, hints[len(first) :]] if len(first) < len(hints) else [first]
        h = min(cap, box.h // len(rows))
        widest = max(_hints_width(row, h) for row in rows)
        if widest > box.w:
            h = int(h * box.w / widest)
            while h > 4 and max(_hints_width(row, h) for row in rows) > box.w:
                h -= 1
        if h > best[0] * 1.15:
            best = (h, rows)
    h, rows = best
    items: list[Item] = []
    top = box.y + (box.h - h * len(rows)) // 2
    for r, row in enumerate(rows):
        x = box.x + (box.w - _hints_width(row, h)) // 2
        y = top + r * h
        for i, (key, label) in enumerate(row):
            kh, lh = round(h * 0.56), round(h * 0.62)
            chip = Box(
                x, y + max(1, h // 12), text_width(key, kh) + h // 2, h - 2 * max(1, h // 12)
            )
            items.append(Fill(chip, KEYCAP, radius=max(2, h // 6)))
            items.append(
                Text(key, Box(chip.x + h // 4, y + (h - kh) // 2, chip.w - h // 2, kh), BLACK)
            )
            x = chip.right + round(h * 0.2)
            if label:
                lw = text_width(label, lh)
                items.append(Text(label, Box(x, y + (h - lh) // 2, lw, lh), WHITE, Align.LEFT))
                x += lw
            if i < len(row) - 1:
                x += round(h * 0.55)
    return items


def _hints_width(row: tuple[tuple[str, str], ...], h: int) -> int:
    kh, lh = round(h * 0.56), round(h * 0.62)
    width = 0
    for key, label in row:
        width += text_width(key, kh) + h // 2 + round(h * 0.2)
        width += text_width(label, lh) if label else 0
    return width + round(h * 0.55) * (len(row) - 1)


def _signed(points: int) -> str:
    """Small points with their sign: +57, −23 (a real minus, as wide as the plus), 0."""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"−{-points}"
    return "0"


def _rack_words(rack: RackEntry, current: bool) -> str:
    if rack.tiles is None:
        return "typing…" if current else "—"
    if rack.jokers:
        return f"{rack.tiles} {_jokers_words(rack.jokers)}"
    return str(rack.tiles)


def _jokers_words(jokers: int) -> str:
    return f"+{jokers} joker{'s' if jokers > 1 else ''}"


def _opening_note(rack: RackEntry, ruleset: Ruleset) -> str:
    """What a not-opened mark means for the seat, or "" when it opened."""
    match rack.opening:
        case Opening.NOT_OPENED:
            return f"NEVER OPENED — scores {ruleset.not_opened_penalty} · * undoes"
        case Opening.COULD_HAVE_OPENED:
            return f"JUDGE: COULD HAVE OPENED — scores {ruleset.could_have_opened_penalty}"
        case Opening.WAIVED:
            return f"JUDGE: 200 WAIVED — scores {ruleset.not_opened_penalty}"
    return ""


def _entry_regions(lay: Layout, step: Step) -> dict[str, Box]:
    """Where each entry panel goes: they tile the space under the band."""
    r = lay.below_band
    hint_h = round(r.h * (0.17 if lay.portrait else 0.22 if step is Step.TILES else 0.2))
    body = Box(r.x, r.y, r.w, r.h - hint_h)
    hint = Box(r.x, body.bottom, r.w, hint_h)
    if step is Step.TILES:
        if lay.portrait:
            seat_h, ask_h, buf_h = (round(body.h * f) for f in (0.16, 0.14, 0.26))
            seat = Box(r.x, body.y, r.w, seat_h)
            ask = Box(r.x, seat.bottom, r.w, ask_h)
            buffer = Box(r.x, ask.bottom, r.w, buf_h)
            seats = Box(r.x, buffer.bottom, r.w, body.bottom - buffer.bottom)
        else:
            list_w = round(r.w * 0.4)
            left_w = r.w - list_w
            seat_h, ask_h = round(body.h * 0.3), round(body.h * 0.19)
            seat = Box(r.x, body.y, left_w, seat_h)
            ask = Box(r.x, seat.bottom, left_w, ask_h)
            buffer = Box(r.x, ask.bottom, left_w, body.bottom - ask.bottom)
            seats = Box(r.x + left_w, body.y, list_w, body.h)
        return {"seat": seat, "ask": ask, "buffer": buffer, "seats": seats, "hint": hint}
    if step is Step.CONFIRM:
        table_h = round(body.h * (0.66 if lay.portrait else 0.7))
        table = Box(r.x, body.y, r.w, table_h)
        prompt = Box(r.x, table.bottom, r.w, body.bottom - table.bottom)
        return {"table": table, "prompt": prompt, "hint": hint}
    status_h = round(body.h * (0.5 if step is Step.REJECTED else 0.4))
    status = Box(r.x, body.y, r.w, status_h)
    table = Box(r.x, status.bottom, r.w, body.bottom - status.bottom)
    return {"status": status, "table": table, "hint": hint}


def _entry_panels(lay: Layout, view: TableView, e: EntryView) -> list[Panel]:
    boxes = _entry_regions(lay, e.step)
    panels: list[Panel] = []
    if e.step is Step.TILES:
        panels += [
            _entry_seat(lay, view, e, boxes["seat"]),
            _entry_ask(lay, e, boxes["ask"]),
            _entry_buffer(lay, e, boxes["buffer"]),
            _entry_seats(lay, view, e, boxes["seats"]),
        ]
    elif e.step is Step.CONFIRM:
        panels += [
            Panel(
                "entry-table",
                boxes["table"],
                BACKGROUND,
                _score_table(lay, view, e, boxes["table"], e.seat),
            ),
            _entry_prompt(lay, view, e, boxes["prompt"]),
        ]
    else:
        panels += [
            _entry_status(lay, view, e, boxes["status"]),
            Panel(
                "entry-table",
                boxes["table"],
                BACKGROUND,
                _score_table(lay, view, e, boxes["table"], None),
            ),
        ]
    panels.append(_entry_hint(lay, view, e, boxes["hint"]))
    return panels


def _entry_seat(lay: Layout, view: TableView, e: EntryView, box: Box) -> Panel:
    """Whose rack is being entered: the seat letter on a tile and the name, huge."""
    p = lay.pad
    side = box.h - p * 4
    tile = Box(box.x + p * 4, box.y + p * 2, side, side)
    text_x = tile.right + p * 4
    width = box.right - text_x - p * 4
    label = Box(text_x, tile.y, width, round(side * 0.3))
    name = Box(text_x, label.bottom + p, width, tile.bottom - label.bottom - p)
    seats = [r.seat for r in e.racks]
    assert e.seat is not None
    number = seats.index(e.seat) + 1
    items: tuple[Item, ...] = (
        Fill(tile, WHITE, radius=max(2, side // 10)),
        Text(str(e.seat), tile.inset(round(side * 0.16)), BLACK, tight=True, template="W"),
        Text(f"SEAT {e.seat} · {number} OF {len(seats)}", label, DIM, Align.LEFT),
        Text(view.name(e.seat), name, WHITE, Align.LEFT, shrink=0.55),
    )
    return Panel("entry-seat", box, BACKGROUND, items)


def _entry_ask(lay: Layout, e: EntryView, box: Box) -> Panel:
    """What to type, and what a bare ENTER does (or the seat's never-opened mark)."""
    p = lay.pad
    inner = box.inset(p * 4, p)
    ask_h = round(inner.h * 0.58)
    ask = Box(inner.x, inner.y, inner.w, ask_h)
    sub = Box(inner.x, ask.bottom, inner.w, inner.h - ask_h)
    rack = next(r for r in e.racks if r.seat == e.seat)
    question = "Tiles left on the rack (sum)"
    if rack.tiles is None:
        keeps = "0 = empty rack · + for each joker"
    else:
        keeps = f"ENTER alone keeps {_rack_words(rack, False)}"
    note = _opening_note(rack, e.ruleset)
    items: tuple[Item, ...] = (
        Text(question, ask, WHITE, Align.LEFT, shrink=0.6),
        Text(note or keeps, sub, AMBER if note else DIM, Align.LEFT, shrink=0.6),
    )
    return Panel("entry-ask", box, BACKGROUND, items)


def _entry_buffer(lay: Layout, e: EntryView, box: Box) -> Panel:
    """The number typed so far, very large in a frame, with the jokers typed beside it in
    words ("+1 joker"); greyed, what ENTER alone keeps."""
    p = lay.pad
    rack = next(r for r in e.racks if r.seat == e.seat)
    typed = bool(e.buffer or e.jokers_typed)
    if typed:
        shown, jokers, colour = e.buffer, e.jokers_typed, WHITE
    else:
        shown = "" if rack.tiles is None else str(rack.tiles)
        jokers, colour = rack.jokers or 0, GREY
    frame = box.inset(p * 4, p * 2)
    if not lay.portrait and not jokers:
        frame = Box(frame.x, frame.y, min(frame.w, round(frame.h * 2.6)), frame.h)
    digits = frame.inset(max(p * 2, frame.h // 10))
    items: list[Item] = [Fill(frame, WHITE, radius=p * 3, width=max(2, p))]
    if jokers:
        split = digits.x + round(digits.w * 0.55)
        label = Box(split + p * 2, digits.y, digits.right - split - p * 2, digits.h)
        label = label.inset(0, label.h // 4)
        words = _jokers_words(jokers)
        items.append(Text(words, label, AMBER if typed else GREY, Align.LEFT, shrink=0.3))
        digits = Box(digits.x, digits.y, split - digits.x, digits.h)
    items.append(Text(shown, digits, colour, tight=True, template="000"))
    return Panel("entry-buffer", box, BACKGROUND, tuple(items))


def _entry_seats(lay: Layout, view: TableView, e: EntryView, box: Box) -> Panel:
    """Every seat with its values so far: ✓ when both are in; the seat being typed is
    lit and says "typing…" (or shows its values when they are being corrected)."""
    p = lay.pad
    items: list[Item] = [Fill(Box(box.x, box.y, max(1, p // 2), box.h), PANEL_EDGE)]
    inner = box.inset(p * 3, p * 2)
    row_h = inner.h // len(e.racks)
    for i, rack in enumerate(e.racks):
        current = rack.seat == e.seat
        row = Box(inner.x, inner.y + i * row_h, inner.w, row_h - p)
        if current:
            items.append(Fill(row, SLATE, radius=p * 2))
        side = round(row.h * 0.72)
        tile = Box(row.x + p * 2, row.y + (row.h - side) // 2, side, side)
        items.append(Fill(tile, WHITE, radius=max(2, side // 8)))
        items.append(
            Text(str(rack.seat), tile.inset(round(side * 0.16)), BLACK, tight=True, template="W")
        )
        mark = round(row.h * 0.4)
        check = Box(row.right - mark - p * 2, row.y + (row.h - mark) // 2, mark, mark)
        text_x = tile.right + p * 2
        text_w = check.x - p - text_x
        name = Box(text_x, row.y + p, text_w, round(row.h * 0.4))
        value = Box(text_x, name.bottom, text_w, row.bottom - name.bottom - p)
        tag = _OPENING_TAGS.get(rack.opening)
        if tag:
            items.append(Text(tag, name, AMBER, Align.LEFT, shrink=0.8))
        else:
            first_name = view.name(rack.seat).split()[0]
            items.append(Text(first_name, name, WHITE if current else DIM, Align.LEFT, shrink=0.8))
        words = _rack_words(rack, current)
        colour = WHITE if rack.tiles is not None else GREY
        items.append(Text(words, value, colour, Align.LEFT, shrink=0.7))
        if rack.complete:
            items.append(Icon(IconKind.CHECK, check, BRIGHT_GREEN))
    return Panel("entry-seats", box, BACKGROUND, tuple(items))


def _score_table(
    lay: Layout, view: TableView, e: EntryView, box: Box, highlight: Seat | None
) -> tuple[Item, ...]:
    """The whole table: seat, player, rack value, small and big points, place (★ for the
    winner) and ✓ for each confirmation; the seat to confirm on a white row."""
    p = lay.pad
    inner = box.inset(p * 3, p * 2)
    n = len(e.racks)
    head_h = round(inner.h / (n + 0.6) * 0.6)
    row_h = (inner.h - head_h) // n
    fractions = (
        (0.08, 0.37, 0.12, 0.14, 0.08, 0.14, 0.07)
        if not lay.portrait
        else (0.1, 0.24, 0.14, 0.17, 0.09, 0.16, 0.1)
    )
    edges = [inner.x + round(inner.w * sum(fractions[:i])) for i in range(len(fractions) + 1)]
    edges[-1] = inner.right

    def cell(col: int, y: int, h: int) -> Box:
        return Box(edges[col] + p, y, edges[col + 1] - edges[col] - p * 2, h)

    items: list[Item] = []
    head = ("", "PLAYER", "RACK", "SMALL", "BIG", "PLACE", "OK")
    align = (Align.CENTER, Align.LEFT, *[Align.RIGHT] * 3, Align.RIGHT, Align.CENTER)
    for col, word in enumerate(head):
        if word:
            items.append(
                Text(
                    word,
                    cell(col, inner.y, head_h).inset(0, head_h // 6),
                    DIM,
                    align[col],
                    shrink=0.3,
                )
            )
    for i, rack in enumerate(e.racks):
        y = inner.y + head_h + i * row_h
        row = Box(inner.x, y + 1, inner.w, row_h - 2)
        lit = rack.seat == highlight
        fg = BLACK if lit else WHITE
        if lit:
            items.append(Fill(row, WHITE, radius=p * 2))
        else:
            items.append(Fill(Box(inner.x, y, inner.w, 1), ROW_LINE))
        tile_cell = cell(0, row.y, row.h)
        side = min(row.h - p, tile_cell.w)
        tile = Box(tile_cell.x + (tile_cell.w - side) // 2, row.y + (row.h - side) // 2, side, side)
        items.append(Fill(tile, BLACK if lit else WHITE, radius=max(2, side // 8)))
        letter = Text(
            str(rack.seat),
            tile.inset(round(side * 0.16)),
            WHITE if lit else BLACK,
            tight=True,
            template="W",
        )
        items.append(letter)
        name_cell = cell(1, row.y, row.h)
        name_h = round(row.h * 0.58)
        tag = _OPENING_TAGS.get(rack.opening)
        tag_h = round(row.h * 0.34) if tag else 0
        top = row.y + (row.h - name_h - tag_h) // 2
        name = Box(name_cell.x, top, name_cell.w, name_h)
        who = view.name(rack.seat)
        if lay.portrait:
            who = who.split()[0]
        items.append(Text(who, name, fg, Align.LEFT, shrink=0.8))
        if tag:
            tag_box = Box(name_cell.x, name.bottom, name_cell.w, tag_h)
            items.append(Text(tag, tag_box, DARK_AMBER if lit else AMBER, Align.LEFT, shrink=0.8))
        score = _seat_score(e, rack.seat)
        number_h = round(row.h * 0.62)
        ny = row.y + (row.h - number_h) // 2
        if score is None:
            values = ("—", "—", "—", "—")
        else:
            values = (
                str(score.rack_value),
                _signed(score.small),
                str(score.big),
                _PLACES.get(score.place, str(score.place)),
            )
        templates = ("000", "−000", "0", "2nd")
        for col, (text, template) in enumerate(zip(values, templates, strict=True), start=2):
            box_ = cell(col, ny, number_h)
            if col == 5 and score is not None and score.winner:
                mark = min(number_h, box_.w // 3)
                star = Box(box_.x, row.y + (row.h - mark) // 2, mark, mark)
                items.append(Icon(IconKind.STAR, star, BLACK if lit else AMBER))
                box_ = Box(star.right + p, ny, box_.right - star.right - p, number_h)
            items.append(Text(text, box_, fg, Align.RIGHT, template=template, shrink=0.3))
        ok = cell(6, row.y, row.h)
        if rack.seat in e.confirmed:
            mark = min(ok.w, number_h)
            items.append(
                Icon(
                    IconKind.CHECK,
                    Box(ok.x + (ok.w - mark) // 2, row.y + (row.h - mark) // 2, mark, mark),
                    GREEN if lit else BRIGHT_GREEN,
                )
            )
    return tuple(items)


def _seat_score(e: EntryView, seat: Seat) -> SeatScore | None:
    if e.score is None:
        return None
    try:
        return e.score.for_seat(seat)
    except KeyError:
        return None


def _entry_prompt(lay: Layout, view: TableView, e: EntryView, box: Box) -> Panel:
    """The seat whose player confirms now, large."""
    p = lay.pad
    assert e.seat is not None
    text = f"Seat {e.seat} — {view.name(e.seat)}: press ENTER to confirm"
    items = wrap(text, box.inset(p * 4, p * 2), WHITE, max_lines=2)
    return Panel("entry-prompt", box, BACKGROUND, tuple(items))


def _entry_status(lay: Layout, view: TableView, e: EntryView, box: Box) -> Panel:
    """The hub's side: sent and waiting, accepted, or rejected with the hub's reason."""
    p = lay.pad
    inner = box.inset(p * 4, p * 2)
    items: list[Item] = []
    if e.step is Step.REJECTED:
        # The reason is what the players must read: it gets the whole width.
        label_h = round(inner.h * 0.24)
        icon = Box(inner.x, inner.y, label_h, label_h)
        items.append(Icon(IconKind.ALERT, icon, AMBER))
        label = Box(icon.right + p * 3, inner.y, inner.right - icon.right - p * 3, label_h)
        items += wrap("THE HUB DID NOT ACCEPT IT:", label, AMBER, Align.LEFT, max_lines=2)
        reason = Box(inner.x, inner.y + label_h + p, inner.w, inner.h - label_h - p)
        items += wrap(e.rejection or "no reason given", reason, WHITE, Align.LEFT, max_lines=3)
        return Panel("entry-status", box, BACKGROUND, tuple(items))
    side = min(round(inner.h * 0.8), round(inner.w * 0.2))
    icon = Box(inner.x, inner.y + (inner.h - side) // 2, side, side)
    text = Box(icon.right + p * 4, inner.y, inner.right - icon.right - p * 4, inner.h)
    if e.step is Step.ACCEPTED:
        items.append(Icon(IconKind.CHECK, icon, BRIGHT_GREEN))
        title, sub = "Result in", f"Game {e.game} is recorded at the hub"
    else:
        items.append(Icon(IconKind.HOURGLASS, icon, WHITE))
        title = "Sent to the hub"
        if view.online is False:
            sub = "offline: it goes when the link is back"
        elif e.judge_override:
            sub = "accepted by the judge — waiting for the hub…"
        else:
            sub = "waiting for its answer…"
    title_h = round(text.h * 0.6)
    items += wrap(title, Box(text.x, text.y, text.w, title_h), WHITE, Align.LEFT, max_lines=2)
    sub_box = Box(text.x, text.y + title_h, text.w, text.h - title_h)
    items += wrap(sub, sub_box, DIM, Align.LEFT, max_lines=2)
    return Panel("entry-status", box, BACKGROUND, tuple(items))


def _entry_message(e: EntryView, view: TableView) -> str:
    """The problem to show: the entry's own (validation, keys), else the unit's message."""
    if e.message and not (e.rejection and e.message == f"rejected by the hub: {e.rejection}"):
        return e.message
    return view.message


def _entry_hint(lay: Layout, view: TableView, e: EntryView, box: Box) -> Panel:
    """The keys for this step, or — in amber, with a warning sign — what went wrong."""
    p = lay.pad
    items: list[Item] = [Fill(Box(box.x, box.y, box.w, max(1, p // 2)), PANEL_EDGE)]
    message = _entry_message(e, view)
    inner = box.inset(p * 3, p * 2)
    last = e.racks[-1].seat
    seats = f"1–{len(e.racks)}"
    if message:
        items.append(Fill(inner, AMBER, radius=p * 2))
        side = min(inner.h - p * 2, round(inner.w * 0.1))
        icon = Box(inner.x + p * 3, inner.y + (inner.h - side) // 2, side, side)
        items.append(Icon(IconKind.ALERT, icon, BLACK))
        text = Box(
            icon.right + p * 3, inner.y + p, inner.right - icon.right - p * 6, inner.h - p * 2
        )
        items += wrap(message, text, BLACK, Align.LEFT, max_lines=2)
    elif e.step is Step.TILES:
        items += key_hints(
            inner,
            (("ENTER", "next"), ("+", "joker"), ("−", "back"), ("*", "never opened")),
            inner.h,
        )
    elif e.step is Step.CONFIRM:
        items += key_hints(
            inner, (("ENTER", "confirm"), (seats, f"correct seat A–{last}"), ("−", "back")), inner.h
        )
    elif e.step is Step.REJECTED:
        items += key_hints(
            inner, (("−", "or"), (seats, "correct"), ("ENTER", "send again")), inner.h
        )
    elif e.step is Step.ACCEPTED:
        items += wrap("Judge: hold the key for the next game", inner, DIM, max_lines=2)
    else:
        waiting = "Waiting for the hub · corrections now by the judge"
        items += wrap(waiting, inner, DIM, max_lines=2)
    return Panel("entry-hint", box, BACKGROUND, tuple(items))


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
        "ready-chosen": view(
            ClockState(rules=rules, game=2, starter=Seat.D, starter_from=StarterSource.TABLE)
        ),
        **_check_samples(now, rules),
        "ask-empty-rack": replace(view(at(21.5)), ask=TableAsk.END_GAME),
        "ask-bank-empty": replace(view(at(33.0)), ask=TableAsk.LAST_LAP),
        "no-names": TableView(running),
        **_entry_samples(game_over),
    }


def _check_samples(now: float, rules: ClockRules) -> dict[str, TableView]:
    """The hall check's screens, each reached by real presses on a HallCheck."""
    ready = ClockState(rules=rules, game=1)

    def view(check: HallCheck) -> TableView:
        return TableView(ready, table=7, online=True, check=check.view)

    leds = HallCheck(7, 1, now)
    leds.pass_button(now)
    leds.judge_key(now)
    keypad = HallCheck(7, 1, now)
    for press in (keypad.pass_button, keypad.judge_key, keypad.pass_button, keypad.judge_key):
        press(now)  # the buzzer was not heard
    keypad.key("7", now)
    done = HallCheck(7, 1, now)
    for press in (done.pass_button, done.judge_key, done.pass_button, done.pass_button):
        press(now)
    for key in ("7", "enter"):
        done.key(key, now)
    return {
        "check-start": view(HallCheck(7, 1, now)),
        "check-leds": view(leds),
        "check-keypad": view(keypad),
        "check-done": view(done),
    }


def _typed(entry: ResultEntry, keys: str) -> ResultEntry:
    """``entry`` after ``keys``: digits, + - * / . and the words ENTER, BACKSPACE."""
    for word in keys.split():
        for key in [word] if word in ("ENTER", "BACKSPACE") else list(word):
            entry.press(Key(key))
    return entry


def _entry_samples(game_over: ClockState) -> dict[str, TableView]:
    """The result-entry screens, each reached by real key presses on a ResultEntry."""
    seats = game_over.seats

    def entry(keys: str, ruleset: str = "000") -> ResultEntry:
        flow = ResultEntry(game_over.game, seats, get_ruleset(ruleset), GameEnding.WENT_OUT)
        return _typed(flow, keys)

    def view(flow: ResultEntry, menu: JudgeMenu | None = None) -> TableView:
        return TableView(
            game_over, table=7, names=SAMPLE_NAMES, menu=menu, online=True, entry=flow.view
        )

    # A 23; B went out; C 17 and a joker; D 31 and never opened.
    typed = "23 ENTER 0 ENTER 17+ ENTER * 31 ENTER"

    def confirming(ruleset: str) -> ResultEntry:
        return entry(f"{typed} ENTER ENTER", ruleset)

    def sent() -> ResultEntry:
        flow = entry(f"{typed} ENTER ENTER ENTER ENTER")
        flow.mark_submitted()
        return flow

    accepted = sent()
    accepted.mark_accepted()
    rejected = sent()
    rejected.mark_rejected("table 7, game 2: the judge already entered this result at the hub")
    judge = entry("23 ENTER 0 ENTER 17+ ENTER")
    actions = (
        JudgeAction.ACCEPT_RESULT,
        JudgeAction.COULD_HAVE_OPENED,
        JudgeAction.WAIVE_PENALTY,
        JudgeAction.SWITCH_ENDING,
        JudgeAction.START_GAME,
        JudgeAction.CLOSE,
    )
    return {
        "entry-tiles": view(entry("23 ENTER 0 ENTER 17")),
        "entry-jokers": view(entry("23 ENTER 0 ENTER 17+")),
        "entry-not-opened": view(entry("23 ENTER 0 ENTER 17+ ENTER * 31")),
        "entry-error": view(entry("23 ENTER 0 ENTER 999 ENTER")),
        "entry-empty-joker": view(entry("23 ENTER 0+")),
        "entry-confirm": view(confirming("000")),
        "entry-confirm-002": view(confirming("002")),
        "entry-sent": view(sent()),
        "entry-accepted": view(accepted),
        "entry-rejected": view(rejected),
        "entry-judge-menu": view(judge, JudgeMenu(actions, selected=1)),
    }

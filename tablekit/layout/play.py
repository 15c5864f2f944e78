"""The panels of a game being played: whose move it is, the move's clock, who is on deck,
the hint or message line, GAME OVER, and a table action asked once more (empty rack?
bank empty?)."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache

from tablekit.controls import TableAsk
from tablekit.core import status
from tablekit.core.clock import Phase
from tablekit.core.clock_events import GameEndReason, PauseReason, StarterSource
from tablekit.core.seats import Seat
from tablekit.core.status import TableState
from tablekit.layout.scene import (
    AMBER,
    BACKGROUND,
    BAR_TRACK,
    BLACK,
    CRITICAL_SECONDS,
    DIM,
    GREY,
    PANEL_EDGE,
    RED_TEXT,
    WARN_SECONDS,
    WHITE,
    Align,
    Box,
    Fill,
    Icon,
    IconKind,
    Item,
    Layout,
    Panel,
    QrCode,
    Text,
)
from tablekit.layout.text import key_hints, line_height, said_by, said_with_name, wrap
from tablekit.shared.i18n import Words
from tablekit.shared.qr import qr_modules
from tablekit.view import TableView

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


ENTER = "ENTER"
"""The keypad's ENTER key as its cap says it (a key's name, not a word to translate)."""


def seat_panel(lay: Layout, view: TableView, label: str, seat: Seat | None) -> Panel:
    box, p = lay.seat, lay.pad
    letter = str(seat) if seat is not None else "–"
    if lay.portrait:
        side = box.h - p * 4
        tile = Box(box.x + p * 4, box.y + p * 2, side, side)
        tx = tile.right + p * 4
        lbl = Box(tx, box.y + p * 2, box.right - tx - p * 4, round(side * 0.3))
        who = Box(tx, lbl.bottom + p, lbl.w, tile.bottom - lbl.bottom - p)
    else:
        label_h = round(box.h * 0.13)
        name_h = _name_room(lay, view.name(seat), box.w - p * 4, round(box.h * 0.19))
        lbl = Box(box.x + p * 2, box.y + p * 2, box.w - p * 4, label_h)
        side = min(box.w - p * 8, box.h - label_h - name_h - p * 8)
        tile = Box(box.x + (box.w - side) // 2, lbl.bottom + p * 2, side, side)
        who = Box(box.x + p * 2, tile.bottom + p * 2, box.w - p * 4, name_h)
    letter_box = tile.inset(round(side * 0.16))
    align = Align.LEFT if lay.portrait else Align.CENTER
    items: tuple[Item, ...] = (
        Text(label, lbl, DIM, align),
        Fill(tile, WHITE, radius=max(2, side // 10)),
        Text(letter, letter_box, BLACK, tight=True, template="W"),
        *_name_lines(lay, view, seat, who, align),
    )
    return Panel("seat", box, BACKGROUND, items)


NAME_LINES = 3
"""Lines a player's name may take under the seat's letter: a given name, a double
surname broken after its hyphen."""


def _breakable(name: str) -> str:
    """``name`` with a double surname breakable after its hyphen (a space the lines of
    :func:`_name_lines` take out again)."""
    return name.replace("-", "- ")


def _name_room(lay: Layout, name: str, width: int, usual: int) -> int:
    """The height the name needs under the seat's letter to be whole at the smallest
    legible size, in as few lines as it can (``usual`` at least; the tile above gives
    up the rest)."""
    for lines in range(1, NAME_LINES + 1):
        height = max(usual, lines * math.ceil(lay.min_line))
        room = Box(0, 0, width, height)
        if line_height(_breakable(name), room, max_lines=lines) >= lay.min_line:
            return height
    return usual


def _name_lines(
    lay: Layout, view: TableView, seat: Seat | None, box: Box, align: Align
) -> list[Item]:
    """The player's name under the seat's letter: one line where it is legible from the
    chairs, else up to three (a given name, a surname, a double surname's second part),
    whole; cut only when even three lines would be too small."""
    name = view.name(seat)
    breakable = _breakable(name)
    if line_height(name, box, max_lines=1) < lay.min_line and " " in breakable.strip():
        lines = wrap(breakable, box, WHITE, align, max_lines=NAME_LINES)
        if len(lines) > 1 and min(t.box.h for t in lines) >= lay.min_line:
            return [
                replace(t, text=t.text.replace("- ", "-"), shrink=lay.min_line / t.box.h)
                for t in lines
            ]
    floor = min(1.0, lay.min_line / box.h)
    return [Text(said_with_name(str, view, seat, box, floor), box, WHITE, align, shrink=floor)]


def clock_panel(lay: Layout, view: TableView, w: Words, now: float) -> Panel:
    box, p = lay.clock, lay.pad
    c = view.clock
    inner = box.inset(p * 4, p * 3)
    bar_h = max(3, round(box.h * 0.045))
    digits = Box(inner.x, inner.y, inner.w, inner.h - bar_h - p * 3)
    bar = Box(inner.x, inner.bottom - bar_h, inner.w, bar_h)
    if c.phase is Phase.TIME_UP:
        return time_up_panel(box, inner, c.paused is not None, w)
    code: list[Item] = []
    if c.phase is Phase.READY and view.table_page:
        # between games there is room: the code of the table's page on the console
        side = min(inner.h, inner.w * 2 // 5)
        code = [QrCode(table_code(view.table_page), Box(inner.right - side, inner.y, side, side))]
        digits = Box(inner.x, inner.y, inner.w - side - p * 3, inner.h - bar_h - p * 3)
        bar = Box(inner.x, inner.bottom - bar_h, digits.w, bar_h)
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
    return Panel("clock", box, BACKGROUND, (*items, *code))


def time_up_panel(box: Box, inner: Box, paused: bool, w: Words) -> Panel:
    """The move's time ran out (RULES.md §2): stop and keep hands off; what was laid
    validly stays, and only an unfinished move puts the table back and takes a tile."""
    time = status.look(TableState.TIME)
    bg = BACKGROUND if paused else time.bg
    fg = GREY if paused else time.fg
    stop = Box(inner.x, inner.y, inner.w, round(inner.h * 0.36))
    gap = inner.h // 12
    rest = Box(inner.x, stop.bottom + gap, inner.w, inner.bottom - stop.bottom - gap)
    # Translators: the time-out's first word, in the red clock panel (one word, large).
    said = w.gettext("STOP!")
    rule = w.gettext(
        "Hands off the table. What you laid correctly stays. Move not finished? Put the "
        "table back and take 1 tile."
    )
    return Panel(
        "clock", box, bg, (Text(said, stop, fg, tight=True), *wrap(rule, rest, fg, max_lines=4))
    )


@cache
def table_code(url: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code's modules of ``url`` (made once per address)."""
    return qr_modules(url)


def footer_panel(lay: Layout, view: TableView, w: Words, deck: Seat | None, right: str) -> Panel:
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
    if deck is None and view.clock.final_move:
        # Translators: the footer in the last lap's final move, in place of who moves next.
        last = w.gettext("LAST MOVE OF THE GAME")
        items.append(Text(last, left.inset(0, p), AMBER, Align.LEFT))
    if deck is not None:
        label_w = round(left.h * 3.1)
        # Translators: the footer's label of the player who moves next (glossary: next player).
        on_deck = w.gettext("ON DECK")
        items.append(
            Text(on_deck, Box(left.x, left.y, label_w, left.h).inset(0, p), DIM, Align.LEFT)
        )
        who = Box(left.x + label_w + p * 2, left.y, left.w - label_w - p * 2, left.h)
        said = said_with_name(lambda name: f"{deck}  {name}", view, deck, who, 0.7)
        items.append(Text(said, who, WHITE, Align.LEFT))
    items.append(Text(right, right_box.inset(0, p), DIM, right_align))
    return Panel("footer", box, BACKGROUND, tuple(items))


def _chosen(source: StarterSource, w: Words) -> str:
    """Who chose the starting seat, when it was not the rotation's."""
    if source is StarterSource.HUB:
        return w.gettext("organizer's choice")
    return w.gettext("chosen here")


def _hint(view: TableView, w: Words) -> str:
    c = view.clock
    if view.ask is not None:
        return w.gettext("The move's clock runs on until the answer")
    if c.paused is PauseReason.PLAYER_CALL:
        return w.gettext("Judge called — the judge key resumes")
    if c.paused is PauseReason.RECOVERED:
        return w.gettext("Unit restarted — the judge key resumes")
    if c.paused is PauseReason.JUDGE:
        return w.gettext("Stopped by the judge — judge key resumes")
    if c.phase is Phase.TIME_UP:
        return w.gettext("Seat {seat}: then press the pass button").format(seat=c.active)
    if c.phase is Phase.READY:
        seat = c.upcoming_starter
        if c.starter_from is StarterSource.ROTATION:
            return w.gettext("Seat {seat} starts — press to start · 1–{n}: other seat").format(
                seat=seat, n=c.rules.seats
            )
        return w.gettext("Seat {seat} starts ({chosen}) — press to start").format(
            seat=seat, chosen=_chosen(c.starter_from, w)
        )
    if c.phase is Phase.GAME_OVER:
        return next_game_hint(view, w)
    if c.last_lap_left is not None:
        return w.gettext("Every seat makes one more move · * empty rack")
    return w.gettext("Keypad: * empty rack · − bank empty")


def next_game_hint(view: TableView, w: Words) -> str:
    """What comes after a game: the judge starts the next one, or the round is over here."""
    if view.games.done:
        return w.gettext("Every game of this round is played: wait for the next round")
    return w.gettext("Judge: hold the key for the next game")


def message_panel(lay: Layout, view: TableView, w: Words) -> Panel:
    """The line under the footer: what the unit tells the table (in amber, with a sign),
    else the hint for the state. A message that would be too small to read from the chairs
    there takes the footer's room too (it lasts until the next press)."""
    box, p = lay.message, lay.pad
    said = said_by(view, w)
    # (the estimate of the width is a little generous: a tenth more room is asked)
    if said and line_height(said, _said_box(lay, box), max_lines=2) < lay.min_line * 1.1:
        box = lay.footer_and_message
    if said:
        side = min(box.h, lay.message.h) - p * 4
        icon = Box(box.x + p * 4, box.y + (box.h - side) // 2, side, side)
        said_box = _said_box(lay, box)
        lines = max(2, int(said_box.h // lay.min_line))  # as many as are legible there
        items: tuple[Item, ...] = (
            Icon(IconKind.ALERT, icon, AMBER),
            *wrap(said, said_box, AMBER, Align.LEFT, max_lines=lines),
        )
    else:  # one line where it fits, two where it does not (a narrow screen)
        items = tuple(wrap(_hint(view, w), box.inset(p * 4, p // 2), DIM, max_lines=2))
    return Panel("message", box, BACKGROUND, items)


def _said_box(lay: Layout, box: Box) -> Box:
    """Where a message's words go in ``box``: right of its warning sign."""
    p = lay.pad
    left = box.x + p * 4 + min(box.h, lay.message.h) - p * 4 + p * 3
    return Box(left, box.y + p, box.right - left - p * 4, box.h - p * 2)


def game_over_panel(lay: Layout, view: TableView, w: Words) -> Panel:
    box, p = lay.main, lay.pad
    c = view.clock
    inner = box.inset(p * 6, p * 4)
    word = Box(inner.x, inner.y + inner.h // 10, inner.w, round(inner.h * 0.42))
    if c.ended_by is GameEndReason.WENT_OUT:
        how = w.gettext("Went out: empty rack")
    elif c.ended_by is GameEndReason.LAST_LAP_DONE:
        how = w.gettext("Last lap complete")
    else:
        how = ""
    sub = Box(inner.x, word.bottom + p * 6, inner.w, min(round(inner.h * 0.18), word.h // 3))
    return Panel(
        "main",
        box,
        BACKGROUND,
        (
            Text(w.gettext(status.word(TableState.GAME_OVER)), word, WHITE, tight=True),
            *wrap(how, sub, DIM, max_lines=2),
        ),
    )


def ask_panel(lay: Layout, view: TableView, w: Words, ask: TableAsk) -> Panel:
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
        question = w.gettext("EMPTY RACK?")
        if c.active is not None:
            # Translators: a seat and its player in a question to the table: C (Celina Żak)
            who = w.gettext("{seat} ({name})").format(seat=c.active, name=view.name(c.active))
        else:
            who = w.gettext("A player")
        detail = w.gettext("{who} shows an empty rack: game {game} is over, then the result")
        detail = detail.format(who=who, game=c.game)
        yes = w.gettext("yes, game over")
    else:
        question = w.gettext("BANK EMPTY?")
        detail = w.gettext("Every seat makes one more move, then game {game} is over")
        detail = detail.format(game=c.game)
        yes = w.gettext("yes, last lap")
    items: list[Item] = [Text(question, title, AMBER, tight=True)]
    items += wrap(detail, sub, WHITE, max_lines=4 if lay.portrait else 2)
    hints = ((ENTER, yes), (w.gettext("any other key"), w.gettext("no")))
    items += key_hints(keys, hints, keys.h)
    return Panel("main", box, BACKGROUND, tuple(items))

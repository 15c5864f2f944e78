"""A table display's whole scene: :func:`compose` turns a :class:`~tablekit.view.TableView`
and the time into the panels that show it, choosing the screen (game in play, hall check,
judge menu, result entry) and topping it with the status band (its word, icon and colour
for the table's state) and, when the unit is offline, how long it has been.

The pygame shell in :mod:`tablekit.display` draws a panel only when it differs from the
panel drawn at the same place last time, so a frame in which nothing visible changed
costs no drawing at all; :func:`time_key` is everything in a scene that depends on the
time.
"""

from __future__ import annotations

from typing import Final

from tablekit.core.clock import Phase
from tablekit.core.seats import next_seat
from tablekit.core.status import (
    TableState,
    duration_text,
    last_lap_text,
    lasting_text,
    look,
    time_text,
    word,
)
from tablekit.layout.check import check_panels, menu_panel
from tablekit.layout.entry import entry_panels
from tablekit.layout.play import (
    ask_panel,
    clock_panel,
    footer_panel,
    game_over_panel,
    message_panel,
    seat_panel,
    shown_seconds,
)
from tablekit.layout.scene import (
    BLACK,
    Align,
    BandStyle,
    Box,
    Fill,
    Icon,
    IconKind,
    Item,
    Layout,
    Panel,
    Scene,
    Text,
)
from tablekit.layout.text import wrap
from tablekit.shared.i18n import Words, words
from tablekit.view import TableView


def offline_for(view: TableView, now: float) -> int | None:
    """Whole seconds the unit has been offline, or None when not offline / unknown."""
    if view.online is not False or view.offline_since is None:
        return None
    return max(0, int(now - view.offline_since))


def time_key(view: TableView, now: float) -> tuple[int, int | None]:
    """Everything in a scene that depends on ``now``: equal keys give equal scenes."""
    return shown_seconds(view.remaining(now)), offline_for(view, now)


_ICONS: Final = {
    TableState.READY: IconKind.READY,
    TableState.PLAYING: IconKind.PLAY,
    TableState.LAST_LAP: IconKind.LAP,
    TableState.TIME: IconKind.STOP,
    TableState.PAUSED_JUDGE: IconKind.PAUSE,
    TableState.JUDGE_CALLED: IconKind.ALERT,
    TableState.PAUSED_RESTART: IconKind.PAUSE,
    TableState.GAME_OVER: IconKind.FLAG,
    TableState.ENTERING_RESULT: IconKind.KEYPAD,
    TableState.CONFIRMING_RESULT: IconKind.CHECK,
    TableState.RESULT_CONFIRMED: IconKind.HOURGLASS,
    TableState.RESULT_SENT: IconKind.HOURGLASS,
    TableState.RESULT_IN: IconKind.CHECK,
    TableState.RESULT_REFUSED: IconKind.ALERT,
    TableState.HALL_CHECK: IconKind.KEYPAD,
    TableState.HALL_CHECK_FAULT: IconKind.ALERT,
    TableState.HALL_CHECK_READY: IconKind.CHECK,
}
"""The band's icon for each state the unit shows (a shape as well as a word and colour)."""


def state_words(view: TableView, w: Words) -> str:
    """The table's state in ``w``'s language as the band says it: the word of the
    table-status model, with who ran out of time or the moves left in the last lap."""
    state = view.state
    c = view.clock
    if state is TableState.TIME:
        return time_text(c.active, view.name(c.active), w)
    if state is TableState.LAST_LAP and c.last_lap_left is not None:
        return last_lap_text(c.last_lap_left, w)
    return w.gettext(word(state))


def band_style(view: TableView, w: Words) -> BandStyle:
    """The band for the table's state: its word (:func:`state_words`) and colours from
    the table-status model, and its icon."""
    colours = look(view.state)
    return BandStyle(state_words(view, w), _ICONS[view.state], colours.bg, colours.fg)


def band_panel(
    lay: Layout, view: TableView, w: Words, style: BandStyle, box: Box, *, with_table: bool
) -> Panel:
    p = lay.pad
    icon = Box(box.x + p * 2, box.y + p * 2, box.h - p * 4, box.h - p * 4)
    text_x = icon.right + p * 2
    table_w = round(box.w * 0.2) if with_table and view.table is not None else 0
    word = Box(text_x, box.y + p, box.right - text_x - table_w - p * 2, box.h - p * 2)
    items: list[Item] = [
        Icon(style.icon, icon, style.fg),
        # A long word (Polish, or beside the offline marker) takes two lines.
        *wrap(style.word, word.inset(0, p), style.fg, Align.LEFT, max_lines=2),
    ]
    if table_w:
        table = Box(box.right - table_w - p * 2, box.y + p, table_w, box.h - p * 2)
        number = w.gettext("TABLE {number}").format(number=view.table)
        items.append(Text(number, table.inset(0, p * 2), style.fg, Align.RIGHT))
    return Panel("band", box, style.bg, tuple(items))


def offline_panel(lay: Layout, view: TableView, w: Words, box: Box, now: float) -> Panel:
    p = lay.pad
    frame = box.inset(p * 2, p * 2)
    icon = Box(frame.x + p * 2, frame.y + p, frame.h - p * 2, frame.h - p * 2)
    text = Box(icon.right + p * 2, frame.y, frame.right - icon.right - p * 4, frame.h)
    secs = offline_for(view, now)
    state = TableState.OFFLINE
    said = (
        w.gettext(word(state)) if secs is None
        else lasting_text(state, duration_text(secs, w), w)
    )
    colours = look(state)
    return Panel(
        "offline",
        box,
        BLACK,
        (
            Fill(frame, colours.bg, radius=p * 2),
            Icon(IconKind.OFFLINE, icon, colours.fg),
            *wrap(said, text, colours.fg, Align.LEFT, max_lines=2),
        ),
    )


def compose(view: TableView, now: float, lay: Layout) -> Scene:
    """The panels that show ``view`` at ``now`` on a screen cut by ``lay``."""
    c = view.clock
    w = words(view.language)
    style = band_style(view, w)
    panels: list[Panel] = []
    if view.online is False:
        band_box, off_box = lay.offline_split()
        panels += [
            band_panel(lay, view, w, style, band_box, with_table=False),
            offline_panel(lay, view, w, off_box, now),
        ]
    else:
        panels.append(band_panel(lay, view, w, style, lay.band, with_table=True))
    if view.menu is not None:
        panels.append(menu_panel(lay, view.menu, view, w))
        return tuple(panels)
    if view.check is not None:
        panels += check_panels(lay, view, w, view.check)
        return tuple(panels)
    if c.phase is Phase.GAME_OVER and view.entry is not None:
        panels += entry_panels(lay, view, w, view.entry)
        return tuple(panels)
    game_and_move = w.gettext("GAME {game} · MOVE {move}").format(game=c.game, move=c.move)
    if view.ask is not None and c.phase in (Phase.RUNNING, Phase.TIME_UP):
        panels.append(ask_panel(lay, view, w, view.ask))
        panels.append(footer_panel(lay, view, w, None, game_and_move))
    elif c.phase is Phase.GAME_OVER:
        panels.append(game_over_panel(lay, view, w))
        moves = max(0, c.move)
        played = w.ngettext("GAME {game} · {n} MOVE", "GAME {game} · {n} MOVES", moves)
        panels.append(footer_panel(lay, view, w, None, played.format(game=c.game, n=moves)))
    elif c.phase is Phase.READY:
        starter = c.upcoming_starter
        # Translators: above the seat that starts the next game.
        panels.append(seat_panel(lay, view, w.gettext("STARTS"), starter))
        panels.append(clock_panel(lay, view, w, now))
        deck = next_seat(starter, c.rules.seats)
        game = w.gettext("GAME {game}").format(game=c.game)
        panels.append(footer_panel(lay, view, w, deck, game))
    else:
        # Translators: TO MOVE is above the seat whose move it is (its clock runs, or its
        # time ran out and its press ends the move).
        panels.append(seat_panel(lay, view, w.gettext("TO MOVE"), c.active))
        panels.append(clock_panel(lay, view, w, now))
        panels.append(footer_panel(lay, view, w, c.on_deck, game_and_move))
    message = message_panel(lay, view, w)
    if message.box != lay.message:  # a message too long for its line covers the footer
        panels = [p for p in panels if p.name != "footer"]
    panels.append(message)
    return tuple(panels)

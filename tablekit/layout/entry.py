"""The result entry's screens.

After a game the unit walks the seats with a numeric keypad (:mod:`tablekit.result_entry`).
Three screens share the space under the band: typing (whose turn, what to type, the typed
number, the seats so far), the score table to confirm, and the hub's answer. The typed
number has a panel of its own, so a key press redraws only that panel.
"""

from __future__ import annotations

from tablekit.core.rulesets import Ruleset
from tablekit.core.scoring import Opening, SeatScore
from tablekit.core.seats import Seat
from tablekit.core.topics import reason_words
from tablekit.core.words import N_
from tablekit.layout.play import ENTER, next_game_hint
from tablekit.layout.scene import (
    AMBER,
    BACKGROUND,
    BLACK,
    BRIGHT_GREEN,
    DARK_AMBER,
    DIM,
    GREEN,
    GREY,
    PANEL_EDGE,
    ROW_LINE,
    SLATE,
    WHITE,
    Align,
    Box,
    Fill,
    Icon,
    IconKind,
    Item,
    Layout,
    Panel,
    Text,
)
from tablekit.layout.text import (
    key_hints,
    line_height,
    name_fitting,
    said_by,
    said_with_name,
    short_names,
    wrap,
)
from tablekit.result_entry import EntryView, RackEntry, Step
from tablekit.shared.i18n import Words
from tablekit.view import TableView

_OPENING_TAGS = {
    Opening.NOT_OPENED: N_("NEVER OPENED"),
    Opening.COULD_HAVE_OPENED: N_("COULD HAVE OPENED"),
    Opening.WAIVED: N_("NEVER OPENED · 200 WAIVED"),
}


def _place(place: int, w: Words) -> str:
    """A place at the table as the score table's column shows it: 1st, 2nd (Polish 1., 2.)."""
    places = (
        w.pgettext("place at the table", "1st"),
        w.pgettext("place at the table", "2nd"),
        w.pgettext("place at the table", "3rd"),
        w.pgettext("place at the table", "4th"),
    )
    return places[place - 1] if 1 <= place <= len(places) else str(place)


def _tag(rack: RackEntry, w: Words) -> str:
    """The seat's not-opened mark, or "" when it opened."""
    tag = _OPENING_TAGS.get(rack.opening)
    return w.gettext(tag) if tag else ""


def _signed(points: int) -> str:
    """Small points with their sign: +57, −23 (a real minus, as wide as the plus), 0."""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"−{-points}"
    return "0"


def _rack_words(rack: RackEntry, current: bool, w: Words) -> str:
    if rack.tiles is None:
        return w.gettext("typing…") if current else "—"
    if rack.jokers:
        return f"{rack.tiles} {_jokers_words(rack.jokers, w)}"
    return str(rack.tiles)


def _jokers_words(jokers: int, w: Words) -> str:
    return w.ngettext("+{n} joker", "+{n} jokers", jokers).format(n=jokers)


def _opening_note(rack: RackEntry, ruleset: Ruleset, w: Words) -> str:
    """What a not-opened mark means for the seat, or "" when it opened."""
    match rack.opening:
        case Opening.NOT_OPENED:
            note = w.gettext("NEVER OPENED — scores {points} · * undoes")
            return note.format(points=ruleset.not_opened_penalty)
        case Opening.COULD_HAVE_OPENED:
            note = w.gettext("JUDGE: COULD HAVE OPENED — scores {points}")
            return note.format(points=ruleset.could_have_opened_penalty)
        case Opening.WAIVED:
            note = w.gettext("JUDGE: 200 WAIVED — scores {points}")
            return note.format(points=ruleset.not_opened_penalty)
    return ""


def _entry_regions(lay: Layout, step: Step, message: str = "") -> dict[str, Box]:
    """Where each entry panel goes: they tile the space under the band. A ``message`` too
    long to read from the chairs in the hint's usual room gets nearly twice as much."""
    r = lay.below_band
    hint_h = round(r.h * (0.2 if lay.portrait else 0.22 if step is Step.TILES else 0.2))
    said = _hint_text_box(lay, Box(r.x, r.bottom - hint_h, r.w, hint_h))
    lines = max(2, int(said.h // lay.min_line))
    if message and line_height(message, said, lines) < lay.min_line * 1.1:
        hint_h = round(hint_h * 1.8)
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


def entry_panels(lay: Layout, view: TableView, w: Words, e: EntryView) -> list[Panel]:
    boxes = _entry_regions(lay, e.step, _entry_message(e, view, w))
    panels: list[Panel] = []
    if e.step is Step.TILES:
        panels += [
            _entry_seat(lay, view, w, e, boxes["seat"]),
            _entry_ask(lay, w, e, boxes["ask"]),
            _entry_buffer(lay, w, e, boxes["buffer"]),
            _entry_seats(lay, view, w, e, boxes["seats"]),
        ]
    elif e.step is Step.CONFIRM:
        panels += [
            Panel(
                "entry-table",
                boxes["table"],
                BACKGROUND,
                _score_table(lay, view, w, e, boxes["table"], highlight=e.seat),
            ),
            _entry_prompt(lay, view, w, e, boxes["prompt"]),
        ]
    else:
        panels += [
            _entry_status(lay, view, w, e, boxes["status"]),
            Panel(
                "entry-table",
                boxes["table"],
                BACKGROUND,
                _score_table(lay, view, w, e, boxes["table"], highlight=None),
            ),
        ]
    panels.append(_entry_hint(lay, view, w, e, boxes["hint"]))
    return panels


def _entry_seat(lay: Layout, view: TableView, w: Words, e: EntryView, box: Box) -> Panel:
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
        Text(
            w.gettext("SEAT {seat} · {number} OF {count}").format(
                seat=e.seat, number=number, count=len(seats)
            ),
            label,
            DIM,
            Align.LEFT,
        ),
        Text(said_with_name(str, view, e.seat, name, 0.55), name, WHITE, Align.LEFT, shrink=0.55),
    )
    return Panel("entry-seat", box, BACKGROUND, items)


def _entry_ask(lay: Layout, w: Words, e: EntryView, box: Box) -> Panel:
    """What to type, and what a bare ENTER does (or the seat's never-opened mark)."""
    p = lay.pad
    inner = box.inset(p * 4, p)
    ask_h = round(inner.h * 0.58)
    ask = Box(inner.x, inner.y, inner.w, ask_h)
    sub = Box(inner.x, ask.bottom, inner.w, inner.h - ask_h)
    rack = next(r for r in e.racks if r.seat == e.seat)
    question = w.gettext("Tiles left on the rack (sum)")
    if rack.tiles is None:
        keeps = w.gettext("0 = empty rack · + for each joker")
    else:
        keeps = w.gettext("ENTER alone keeps {value}").format(value=_rack_words(rack, False, w))
    note = _opening_note(rack, e.ruleset, w)
    items: tuple[Item, ...] = (
        Text(question, ask, WHITE, Align.LEFT, shrink=0.6),
        Text(note or keeps, sub, AMBER if note else DIM, Align.LEFT, shrink=0.6),
    )
    return Panel("entry-ask", box, BACKGROUND, items)


def _entry_buffer(lay: Layout, w: Words, e: EntryView, box: Box) -> Panel:
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
    if e.selected:  # refused: shown selected, the next digit replaces it
        items.append(Fill(frame.inset(max(2, p) + p), AMBER, radius=p * 2))
        colour = BLACK
    if jokers:
        split = digits.x + round(digits.w * 0.55)
        label = Box(split + p * 2, digits.y, digits.right - split - p * 2, digits.h)
        label = label.inset(0, label.h // 4)
        said = _jokers_words(jokers, w)
        joker_colour = BLACK if e.selected else AMBER if typed else GREY
        items.append(Text(said, label, joker_colour, Align.LEFT, shrink=0.3))
        digits = Box(digits.x, digits.y, split - digits.x, digits.h)
    items.append(Text(shown, digits, colour, tight=True, template="000"))
    return Panel("entry-buffer", box, BACKGROUND, tuple(items))


def _entry_seats(lay: Layout, view: TableView, w: Words, e: EntryView, box: Box) -> Panel:
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
        tag = _tag(rack, w)
        if tag:
            items.append(Text(tag, name, AMBER, Align.LEFT, shrink=0.45))
        else:
            short = short_names(view.names).get(rack.seat, view.name(rack.seat))
            items.append(Text(short, name, WHITE if current else DIM, Align.LEFT, shrink=0.8))
        said = _rack_words(rack, current, w)
        colour = WHITE if rack.tiles is not None else GREY
        items.append(Text(said, value, colour, Align.LEFT, shrink=0.7))
        if rack.complete:
            items.append(Icon(IconKind.CHECK, check, BRIGHT_GREEN))
    return Panel("entry-seats", box, BACKGROUND, tuple(items))


def _score_table(
    lay: Layout, view: TableView, w: Words, e: EntryView, box: Box, *, highlight: Seat | None
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
        else (0.1, 0.32, 0.12, 0.15, 0.08, 0.13, 0.1)
    )
    edges = [inner.x + round(inner.w * sum(fractions[:i])) for i in range(len(fractions) + 1)]
    edges[-1] = inner.right

    def cell(col: int, y: int, h: int) -> Box:
        return Box(edges[col] + p, y, edges[col + 1] - edges[col] - p * 2, h)

    items: list[Item] = []
    head = (
        "",
        # Translators: the score table's columns: the player, the value left on the rack,
        # small and big points, the place at the table, the confirmations (glossary).
        w.pgettext("score table", "PLAYER"),
        w.pgettext("score table", "RACK"),
        w.pgettext("score table", "SMALL"),
        w.pgettext("score table", "BIG"),
        w.pgettext("score table", "PLACE"),
        w.pgettext("score table", "OK"),
    )
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
        tag = _tag(rack, w)
        tag_h = round(row.h * 0.34) if tag else 0
        top = row.y + (row.h - name_h - tag_h) // 2
        name = Box(name_cell.x, top, name_cell.w, name_h)
        who = view.name(rack.seat)
        short = short_names(view.names).get(rack.seat, who)
        who = short if lay.portrait else name_fitting(who, short, name, 0.5)
        items.append(Text(who, name, fg, Align.LEFT, shrink=0.5))
        if tag:
            tag_box = Box(name_cell.x, name.bottom, name_cell.w, tag_h)
            tag_colour = DARK_AMBER if lit else AMBER
            items.append(Text(tag, tag_box, tag_colour, Align.LEFT, shrink=0.45))
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
                _place(score.place, w),
            )
        templates = ("000", "−000", "0", _place(2, w))
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


def _entry_prompt(lay: Layout, view: TableView, w: Words, e: EntryView, box: Box) -> Panel:
    """The seat whose player confirms now, large."""
    p = lay.pad
    assert e.seat is not None
    text = w.gettext("Seat {seat} — {name}: press ENTER to confirm")
    text = text.format(seat=e.seat, name=view.name(e.seat))
    items = wrap(text, box.inset(p * 4, p * 2), WHITE, max_lines=2)
    return Panel("entry-prompt", box, BACKGROUND, tuple(items))


def _entry_status(lay: Layout, view: TableView, w: Words, e: EntryView, box: Box) -> Panel:
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
        refused = w.gettext("THE HUB DID NOT ACCEPT IT:")
        items += wrap(refused, label, AMBER, Align.LEFT, max_lines=2)
        reason = Box(inner.x, inner.y + label_h + p, inner.w, inner.h - label_h - p)
        # The hub's reason in the reader's language: the words it sent, else its English
        # read back into one of the protocol's templates where one fits.
        if e.why:
            why = e.why.say(w.gettext)
        else:
            why = reason_words(e.rejection).message(w.gettext) if e.rejection else ""
        why = why or w.gettext("no reason given")
        items += wrap(why, reason, WHITE, Align.LEFT, max_lines=3)
        return Panel("entry-status", box, BACKGROUND, tuple(items))
    side = min(round(inner.h * 0.8), round(inner.w * 0.2))
    icon = Box(inner.x, inner.y + (inner.h - side) // 2, side, side)
    text = Box(icon.right + p * 4, inner.y, inner.right - icon.right - p * 4, inner.h)
    if e.step is Step.ACCEPTED:
        items.append(Icon(IconKind.CHECK, icon, BRIGHT_GREEN))
        title = w.gettext("Result in")
        sub = w.gettext("Game {game} is recorded at the hub").format(game=e.game)
    elif e.step is Step.READY:  # confirmed, the unit is about to send it
        items.append(Icon(IconKind.HOURGLASS, icon, WHITE))
        title = w.gettext("Confirmed by the table")
        sub = w.gettext("about to be sent to the hub…")
    else:
        items.append(Icon(IconKind.HOURGLASS, icon, WHITE))
        title = w.gettext("Sent to the hub")
        if view.online is False:
            sub = w.gettext("offline: it goes when the link is back")
        elif e.judge_override:
            sub = w.gettext("accepted by the judge — waiting for the hub…")
        else:
            sub = w.gettext("waiting for its answer…")
    title_h = round(text.h * 0.6)
    items += wrap(title, Box(text.x, text.y, text.w, title_h), WHITE, Align.LEFT, max_lines=2)
    sub_box = Box(text.x, text.y + title_h, text.w, text.h - title_h)
    items += wrap(sub, sub_box, DIM, Align.LEFT, max_lines=2)
    return Panel("entry-status", box, BACKGROUND, tuple(items))


def _entry_message(e: EntryView, view: TableView, w: Words) -> str:
    """The problem to show: the entry's own (validation, keys), else the unit's message;
    in ``w``'s language (an entry journaled by an older unit says it in English)."""
    rejected = e.rejection and (
        e.said.template == N_("rejected by the hub: {reason}")
        or e.message == f"rejected by the hub: {e.rejection}"
    )
    if e.message and not rejected:
        return e.said.say(w.gettext) if e.said else e.message
    return said_by(view, w)


def _sign_side(lay: Layout, inner: Box) -> int:
    """The warning sign's side in the hint's amber box."""
    return min(inner.h - lay.pad * 2, round(inner.w * 0.1), lay.below_band.h // 6)


def _hint_text_box(lay: Layout, box: Box) -> Box:
    """Where a message's words go in the hint's ``box``: right of the warning sign."""
    p = lay.pad
    inner = box.inset(p * 3, p * 2)
    left = inner.x + p * 3 + _sign_side(lay, inner) + p * 3
    return Box(left, inner.y + p, inner.right - left - p * 3, inner.h - p * 2)


def _entry_hint(lay: Layout, view: TableView, w: Words, e: EntryView, box: Box) -> Panel:
    """The keys for this step, or — in amber, with a warning sign — what went wrong."""
    p = lay.pad
    items: list[Item] = [Fill(Box(box.x, box.y, box.w, max(1, p // 2)), PANEL_EDGE)]
    message = _entry_message(e, view, w)
    inner = box.inset(p * 3, p * 2)
    last = e.racks[-1].seat
    seats = f"1–{len(e.racks)}"
    if message:
        items.append(Fill(inner, AMBER, radius=p * 2))
        side = _sign_side(lay, inner)
        icon = Box(inner.x + p * 3, inner.y + (inner.h - side) // 2, side, side)
        items.append(Icon(IconKind.ALERT, icon, BLACK))
        room = _hint_text_box(lay, box)
        lines = max(2, int(room.h // lay.min_line))  # as many as are legible there
        items += wrap(message, room, BLACK, Align.LEFT, max_lines=lines)
    elif e.step is Step.TILES:
        hints: tuple[tuple[str, str], ...] = (
            (ENTER, w.gettext("next")),
            ("+", w.pgettext("key", "joker")),
            ("−", w.gettext("back")),
            ("*", w.pgettext("key", "never opened")),
        )
        items += key_hints(inner, hints, inner.h)
    elif e.step is Step.CONFIRM:
        correct = w.gettext("correct seat A–{last}").format(last=last)
        hints = ((ENTER, w.gettext("confirm")), (seats, correct), ("−", w.gettext("back")))
        items += key_hints(inner, hints, inner.h)
    elif e.step is Step.REJECTED and e.final:  # sending again cannot change it
        if view.games.done:
            said = w.gettext("The judge corrects it at the hub; this round's games are played")
        else:
            said = w.gettext("The judge corrects it at the hub; play on")
        items += wrap(said, inner, WHITE, max_lines=2)
    elif e.step is Step.REJECTED:
        hints = (
            ("−", w.pgettext("key", "or")),
            (seats, w.pgettext("key", "correct")),
            (ENTER, w.gettext("send again")),
        )
        items += key_hints(inner, hints, inner.h)
    elif e.step is Step.ACCEPTED:
        items += wrap(next_game_hint(view, w), inner, DIM, max_lines=2)
    else:
        waiting = w.gettext("Waiting for the hub · corrections now by the judge")
        items += wrap(waiting, inner, DIM, max_lines=2)
    return Panel("entry-hint", box, BACKGROUND, tuple(items))

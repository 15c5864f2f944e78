"""The hall check's screen (the table's number, what to do now, every step's answer) and
the judge menu."""

from __future__ import annotations

from tablekit.controls import JudgeMenu, action_words
from tablekit.core.clock import Phase
from tablekit.core.hallcheck import STEP_WORDS, STEPS, CheckResult, CheckStep, CheckView
from tablekit.core.words import N_
from tablekit.layout.scene import (
    AMBER,
    BACKGROUND,
    BLACK,
    BRIGHT_GREEN,
    DIM,
    PANEL_EDGE,
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
from tablekit.layout.text import said_with_name, text_width, wrap
from tablekit.shared.i18n import Words
from tablekit.view import TableView

_CHECK_ASK = {
    CheckStep.PASS: N_("Press the pass button"),
    CheckStep.JUDGE: N_("Turn the judge key"),
    CheckStep.LEDS: N_(
        "Do the lights sweep up and change colour? Pass button: yes · judge key: no"
    ),
    CheckStep.BUZZER: N_("Do you hear a beep every second? Pass button: yes · judge key: no"),
}


_SHORT_STEP_WORDS = {
    CheckStep.PASS: N_("pass"),
    CheckStep.JUDGE: N_("judge"),
    CheckStep.LEDS: N_("lights"),
    CheckStep.BUZZER: N_("beep"),
    CheckStep.KEYPAD: N_("keys"),
}
"""The steps' names on a narrow (portrait) screen."""


def check_panels(lay: Layout, view: TableView, w: Words, check: CheckView) -> list[Panel]:
    """The hall check: the table's number very large, what to do now, and every step's
    answer so far (a check, a warning sign or "skipped")."""
    r, p = lay.below_band, lay.pad
    number_h = round(r.h * 0.36)
    steps_h = round(r.h * 0.26)
    number = Box(r.x, r.y, r.w, number_h)
    ask = Box(r.x, number.bottom, r.w, r.h - number_h - steps_h)
    steps = Box(r.x, ask.bottom, r.w, steps_h)
    table = "?" if check.table is None else str(check.table)
    said = w.gettext("TABLE {number}").format(number=table)
    number_items = (Text(said, number.inset(p * 6, p * 3), WHITE, tight=True),)
    if check.step is CheckStep.KEYPAD:
        question = w.gettext("Type {table} on the keypad, then ENTER · no keypad: judge key")
        question = question.format(table=table)
        if check.typed:
            question = w.gettext("Typed {typed} — ENTER when it says {table}")
            question = question.format(typed=check.typed, table=table)
    elif check.step is CheckStep.DONE:
        faults = [w.gettext(STEP_WORDS[s]) for s, r in check.results if r is CheckResult.FAILED]
        if faults:
            question = w.gettext("Fault: {faults} — call the technician")
            question = question.format(faults=", ".join(faults))
        else:
            question = w.gettext("Checked: this table is ready · any press goes back")
    else:
        question = w.gettext(_CHECK_ASK[check.step])
    inner = ask.inset(p * 6, p * 2)
    said = check.said.message(w.gettext)
    colour = AMBER if said else WHITE
    ask_items = wrap(said or question, inner, colour, max_lines=3)
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
        names = _SHORT_STEP_WORDS if lay.portrait else STEP_WORDS
        colour = WHITE if current else DIM
        # Every step's name at one size, the size of the widest in this language.
        template = max((w.gettext(n) for n in names.values()), key=lambda n: text_width(n, 100))
        name = w.gettext(names[step])
        step_items.append(Text(name, label, colour, template=template, shrink=0.3))
        result = results.get(step)
        side = min(mark.w, mark.h)
        icon = Box(mark.x + (mark.w - side) // 2, mark.y, side, side)
        if result is CheckResult.OK:
            step_items.append(Icon(IconKind.CHECK, icon, BRIGHT_GREEN))
        elif result is CheckResult.FAILED:
            step_items.append(Icon(IconKind.ALERT, icon, AMBER))
        elif result is CheckResult.SKIPPED:
            skipped = w.gettext("skipped")
            step_items.append(Text(skipped, mark.inset(0, mark.h // 4), DIM, shrink=0.5))
    return [
        Panel("check-table", number, BACKGROUND, number_items),
        Panel("check-ask", ask, BACKGROUND, tuple(ask_items)),
        Panel("check-steps", steps, BACKGROUND, tuple(step_items)),
    ]


def menu_panel(lay: Layout, menu: JudgeMenu, view: TableView, w: Words) -> Panel:
    box, p = lay.below_band, lay.pad
    note_rows = 2 if menu.note else 0
    rows = len(menu.actions) + 2 + note_rows
    row_h = min((box.h - p * 4) // rows, round(box.w * 0.085))
    title = Box(box.x + p * 4, box.y + p * 2, box.w - p * 8, row_h)
    entry = view.entry
    if entry is not None and entry.seat is not None and view.clock.phase is Phase.GAME_OVER:
        # "This seat could have opened" etc. act on the seat the flow is at: name it.
        template = w.gettext("JUDGE MENU — SEAT {seat}  {name}")
        heading = said_with_name(
            lambda name: template.format(seat=entry.seat, name=name),
            view,
            entry.seat,
            title.inset(0, p),
            0.7,
        )
    else:
        heading = w.gettext("JUDGE MENU")
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
        items.append(Text(w.gettext(action_words(action)), label.inset(0, p), fg, Align.LEFT))
    below = title.bottom + len(menu.actions) * row_h
    if menu.note:  # why an action looked for is not there: in the judge's words
        note = Box(title.x, below + p, title.w, row_h * note_rows - p)
        items += wrap(menu.note.say(w.gettext), note, AMBER, Align.LEFT, max_lines=2)
        below = note.bottom
    hint = Box(title.x, below + p, title.w, row_h - p)
    keys = w.gettext("Pass button: next  ·  judge key: choose")
    items.append(Text(keys, hint.inset(0, p), DIM, shrink=0.45))
    return Panel("menu", box, BACKGROUND, tuple(items))

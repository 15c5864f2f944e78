"""The headless unit's lines: what the display shows, in words."""

from __future__ import annotations

import io

from tablekit.printer import TerminalPrinter, describe
from tablekit.samples import sample_views

VIEWS = sample_views(100.0)


def test_the_table_s_questions_checks_and_jokers_are_in_the_line() -> None:
    assert "asks: Empty rack: end the game? ENTER yes" in describe(VIEWS["ask-empty-rack"], 100.0)
    assert "seat D starts (table)" in describe(VIEWS["ready-chosen"], 100.0)
    assert "seat B starts (rotation)" in describe(VIEWS["ready"], 100.0)
    line = describe(VIEWS["check-keypad"], 100.0)
    assert "hall check table 7: keypad [7] pass:ok judge:ok leds:ok buzzer:failed" in line
    assert "result tiles seat C [17 +1 joker(s)]" in describe(VIEWS["entry-jokers"], 100.0)


def test_one_line_per_change() -> None:
    out = io.StringIO()
    printer = TerminalPrinter(out)
    for _ in range(3):
        printer.show(VIEWS["check-start"], 100.0)
    printer.show(VIEWS["check-leds"], 100.0)
    assert len(out.getvalue().splitlines()) == 2

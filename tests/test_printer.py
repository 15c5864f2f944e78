"""The headless unit's lines: what the display shows, in words, in the unit's language."""

from __future__ import annotations

import dataclasses
import io

from tablekit.printer import TerminalPrinter, describe
from tablekit.samples import sample_views
from tablekit.view import TableView

VIEWS = sample_views(100.0)


def english(name: str) -> TableView:
    return dataclasses.replace(VIEWS[name], language="en")


def test_the_table_s_questions_checks_and_jokers_are_in_the_line() -> None:
    assert "asks: Empty rack: end the game? ENTER yes" in describe(english("ask-empty-rack"), 100.0)
    assert "seat D starts (chosen here)" in describe(english("ready-chosen"), 100.0)
    assert "seat B starts (rotation)" in describe(english("ready"), 100.0)
    line = describe(english("check-keypad"), 100.0)
    assert (
        "hall check table 7: keypad [7] pass button:ok judge key:ok lights:ok buzzer:failed"
        in line
    )
    assert "result: tiles seat C [17 +1 joker]" in describe(english("entry-jokers"), 100.0)
    assert "last lap: 3 moves" in describe(english("last-lap"), 100.0)


def test_the_line_speaks_polish_by_default() -> None:
    """The unit's language is Polish until its config, --lang or the hall says otherwise."""
    line = describe(VIEWS["ask-empty-rack"], 100.0)
    assert line.startswith("[stolik 7 gra 2 ruch 14]  GRA TRWA  miejsce C Celina Żak")
    assert "czas biegnie (40 s na ruch)  następny D" in line
    assert "pyta: Pusta tabliczka: koniec gry? ENTER tak, inny klawisz nie" in line
    assert "zaczyna miejsce D (wybrane przy stoliku)" in describe(VIEWS["ready-chosen"], 100.0)
    line = describe(VIEWS["check-keypad"], 100.0)
    assert (
        "test sali, stolik 7: klawiatura [7] przycisk ruchu:ok kluczyk sędziego:ok diody:ok "
        "brzęczyk:usterka" in line
    )
    assert "wynik: kostki miejsce C [17 +1 joker]" in describe(VIEWS["entry-jokers"], 100.0)
    line = describe(VIEWS["judge-menu"], 100.0)
    assert "PAUZA — SĘDZIA" in line and "zostało 19 s" in line
    menu = "menu sędziego:  1 Wznów czas |  2 Ten ruch od nowa | ▶3 Cofnij ostatnie naciśnięcie"
    assert menu in line
    assert "ostatnia kolejka: 3 ruchy" in describe(VIEWS["last-lap"], 100.0)
    assert describe(VIEWS["offline"], 100.0).endswith("BRAK POŁĄCZENIA")


def test_one_line_per_change() -> None:
    out = io.StringIO()
    printer = TerminalPrinter(out)
    for _ in range(3):
        printer.show(VIEWS["check-start"], 100.0)
    printer.show(VIEWS["check-leds"], 100.0)
    printer.show(dataclasses.replace(VIEWS["check-leds"], language="en"), 100.0)
    lines = out.getvalue().splitlines()
    assert len(lines) == 3  # a switch of language is a change: the line is said again
    assert "test sali" in lines[1] and "hall check" in lines[2]

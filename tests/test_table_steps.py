"""Every step at the table right: the last lap's final move names nobody next, a key
pressed in a judge pause lists no key the pause refuses, an implausible rack total is asked
once, a refused value is replaced by the next digit, and the time-out says what the rules
say. The pure controls and result entry, and the display's scene as the unit draws it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_unit import make_unit, press

from tablekit.config import ConfigError, parse_config
from tablekit.controls import Button, ButtonEdge
from tablekit.core.clock import Phase
from tablekit.core.rulesets import get_ruleset
from tablekit.core.scoring import GameEnding
from tablekit.core.seats import SEATS, Seat
from tablekit.layout.compose import compose
from tablekit.layout.scene import Text, layout_for
from tablekit.result_entry import Key, ResultEntry, Step
from tablekit.samples import sample_views
from tablekit.unit import KeyPress
from tablekit.view import TableView


def words_on(view: TableView, language: str = "en", size: tuple[int, int] = (480, 320)) -> str:
    """Every word the display draws for ``view``."""
    scene = compose(replace(view, language=language), 1000.0, layout_for(*size))
    return " | ".join(i.text for p in scene for i in p.items if isinstance(i, Text))


def typed(entry: ResultEntry, keys: str) -> ResultEntry:
    for word in keys.split():
        for key in [word] if word in ("ENTER", "BACKSPACE") else list(word):
            entry.press(Key(key))
    return entry


def test_the_last_laps_final_move_names_nobody_to_move_next() -> None:
    unit, _, _, _ = make_unit(seats=3)
    press(unit, 100.0)
    unit.handle(KeyPress("-", 101.0))
    unit.handle(KeyPress("enter", 101.1))  # the bank is empty: 4 moves left (seats + 1)
    for at in (105.0, 110.0, 115.0):
        assert unit.view.clock.on_deck is not None
        press(unit, at)
    state = unit.view.clock
    assert (state.last_lap_left, state.active) == (1, Seat.A)
    assert state.on_deck is None  # nobody moves after A: the game ends with A's move
    shown = words_on(unit.view)
    assert "ON DECK" not in shown and "LAST MOVE OF THE GAME" in shown
    assert "OSTATNI RUCH GRY" in words_on(unit.view, "pl")


def test_a_key_in_a_judge_pause_lists_no_key_the_pause_refuses() -> None:
    unit, _, _, _ = make_unit()
    press(unit, 100.0)
    unit.handle(ButtonEdge(Button.JUDGE, True, 102.0))  # the judge stops the clock
    unit.handle(ButtonEdge(Button.JUDGE, False, 102.2))
    assert unit.view.clock.paused is not None
    unit.handle(KeyPress("5", 103.0))
    said = unit.view.message
    assert said == "The clock is stopped: the keys work again when the judge resumes"
    assert "*" not in words_on(unit.view) and "bank" not in words_on(unit.view)
    unit.handle(ButtonEdge(Button.JUDGE, True, 104.0))  # resumed
    unit.handle(ButtonEdge(Button.JUDGE, False, 104.2))
    unit.handle(KeyPress("5", 105.0))
    assert unit.view.message == "Keys: * empty rack (game over) · - bank empty (last lap)"
    unit.handle(KeyPress("-", 106.0))
    unit.handle(KeyPress("enter", 106.1))
    unit.handle(KeyPress("5", 107.0))  # in the last lap the bank is empty already
    assert unit.view.message == "Keys: * empty rack (game over)"


def test_an_implausible_rack_total_is_asked_once_and_the_real_maximum_stays_the_limit() -> None:
    entry = ResultEntry(1, SEATS[:3], get_ruleset("000"), GameEnding.WENT_OUT, ask_above=150)
    typed(entry, "0 ENTER 350 ENTER")
    view = entry.view
    assert (view.step, view.seat, view.buffer) == (Step.TILES, Seat.B, "350")
    assert str(view.said) == "seat B: 350 — sure? ENTER yes, or type the right value"
    typed(entry, "ENTER")  # yes: taken
    assert entry.view.racks[1].tiles == 350 and entry.view.seat is Seat.C
    typed(entry, "400 ENTER 4 ENTER")  # a digit answers no: the value typed replaces it
    assert entry.view.racks[2].tiles == 4 and entry.view.step is Step.CONFIRM
    typed(entry, "2 999 ENTER")  # above the real maximum: refused, not asked
    assert "728" in str(entry.view.said) and entry.view.racks[1].tiles == 350
    quiet = ResultEntry(1, SEATS[:3], get_ruleset("000"), GameEnding.WENT_OUT)
    typed(quiet, "0 ENTER 350 ENTER")
    assert quiet.view.racks[1].tiles == 350  # 0: never asked
    assert parse_config("[unit]\nask_rack_above = 200\n").unit.ask_rack_above == 200
    with pytest.raises(ConfigError, match="ask_rack_above: must be 0"):
        parse_config("[unit]\nask_rack_above = 800\n")


def test_a_unit_asks_about_an_implausible_rack_by_default() -> None:
    unit, _, _, _ = make_unit(seats=3)
    press(unit, 100.0)
    unit.handle(KeyPress("*", 101.0))
    unit.handle(KeyPress("enter", 101.1))
    for key in "0", "enter", "3", "5", "0", "enter":
        unit.handle(KeyPress(key, 102.0))
    entry = unit.view.entry
    assert entry is not None and entry.asked == 350 and entry.seat is Seat.B
    assert "350 — na pewno? ENTER tak" in words_on(unit.view, "pl").replace(" | ", " ")


def test_after_a_refused_value_the_next_digit_replaces_it() -> None:
    entry = ResultEntry(1, SEATS[:4], get_ruleset("000"), GameEnding.WENT_OUT)
    typed(entry, "0 ENTER 12 ENTER 9 ENTER 0 ENTER")  # two empty racks: refused at D
    view = entry.view
    assert (view.seat, view.buffer, view.selected) == (Seat.D, "0", True)
    typed(entry, "30")
    assert (entry.view.buffer, entry.view.selected) == ("30", False)
    entry = ResultEntry(1, SEATS[:4], get_ruleset("000"), GameEnding.WENT_OUT)
    typed(entry, "0 ENTER 12 ENTER 9 ENTER 999 ENTER")  # too much: refused, selected
    typed(entry, "2")  # replaces it: 2, not 9992
    assert entry.view.buffer == "2"
    typed(entry, "BACKSPACE")
    typed(entry, "9 ENTER 30 ENTER")
    assert entry.view.step is not Step.TILES or entry.view.seat is not Seat.D
    after_error = ResultEntry(1, SEATS[:4], get_ruleset("000"), GameEnding.WENT_OUT)
    typed(after_error, "0 ENTER 12 ENTER 9 ENTER 0 ENTER BACKSPACE")  # clears the selection
    assert (after_error.view.buffer, after_error.view.selected) == ("", False)


def test_the_time_out_says_what_the_rule_says() -> None:
    time_up = sample_views(1000.0)["time"]
    assert time_up.clock.phase is Phase.TIME_UP
    english = words_on(time_up)
    assert "penalty" not in english.lower()
    for said in (
        "STOP!", "Hands off the table.", "What you laid correctly stays.",
        "Move not finished? Put the table back and take 1 tile.",
        "Seat C: then press the pass button",
    ):
        assert said in english.replace(" | ", " "), said
    polish = words_on(time_up, "pl")
    assert "karn" not in polish  # no penalty tile, unconditionally
    assert polish.count("CZAS MINĄŁ") == 1  # the band says it; the rest says what to do
    assert "Ruch niedokończony?" in polish.replace(" | ", " ")



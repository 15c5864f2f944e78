"""The table unit's language: its config's until the hall's setting says otherwise, switched
at run time through one entry point (:meth:`TableUnit.set_language`), in the middle of a
game too, on the display at once."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Iterator

import pygame
import pytest

from tablekit.config import ConfigError, parse_config
from tablekit.controls import Button, ButtonEdge, JudgeAction, JudgeMenu
from tablekit.core.clock import ClockRules, MoveClock, Phase
from tablekit.display import TableScreen
from tablekit.layout.compose import compose
from tablekit.layout.scene import Text, layout_for
from tablekit.unit import KeyPress, MenuChoice, TableUnit
from tablekit.view import TableView


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Shown:
    """An output that keeps the views it was shown."""

    def __init__(self) -> None:
        self.views: list[TableView] = []

    def show(self, view: TableView, now: float) -> None:
        self.views.append(view)

    def close(self) -> None:
        pass


def band_words(view: TableView, now: float) -> list[str]:
    scene = compose(view, now, layout_for(480, 320))
    band = next(p for p in scene if p.name == "band")
    return [i.text for i in band.items if isinstance(i, Text)]


def test_the_config_names_the_language_polish_by_default() -> None:
    assert parse_config("").unit.language == "pl"
    assert parse_config('[unit]\nlanguage = "en"\n').unit.language == "en"
    assert parse_config('[unit]\nlanguage = "pl_PL.UTF-8"\n').unit.language == "pl"
    with pytest.raises(ConfigError) as refused:
        parse_config('[unit]\nlanguage = "de"\n', "unit.toml")
    assert str(refused.value) == (
        "unit.toml: unit.language: no language 'de': the kit speaks Polish (pl), English (en)"
    )


def test_a_unit_speaks_polish_until_told_then_switches_mid_game() -> None:
    now = Clock()
    shown = Shown()
    unit = TableUnit(MoveClock(ClockRules(seats=4)), table=3, outputs=[shown], monotonic=now)
    assert unit.language == "pl"
    unit.put(ButtonEdge(Button.PASS, True, now.now))
    unit.put(ButtonEdge(Button.PASS, False, now.now + 0.05))
    unit.step()
    assert unit.clock.state.phase is Phase.RUNNING
    assert band_words(shown.views[-1], now.now) == ["GRA TRWA", "STOLIK 3"]
    clock_before = unit.clock.state
    now.now += 2.0
    unit.set_language("en")
    unit.step()
    assert unit.language == "en"
    assert band_words(shown.views[-1], now.now) == ["PLAYING", "TABLE 3"]
    assert unit.clock.state == clock_before  # the game goes on untouched
    now.now += 1.0
    unit.set_language("de")  # a language the kit does not speak: it keeps its own
    unit.step()
    assert unit.language == "en"
    unit.set_language("pl_PL.UTF-8")
    unit.step()
    assert band_words(shown.views[-1], now.now) == ["GRA TRWA", "STOLIK 3"]


def test_a_unit_starts_in_its_configured_language() -> None:
    unit = TableUnit(MoveClock(), table=1, language="en")
    assert unit.view.language == "en"
    assert band_words(unit.view, 0.0) == ["READY", "TABLE 1"]


@pytest.fixture
def screen() -> Iterator[TableScreen]:
    s = TableScreen(480, 320)
    yield s
    s.close()


def test_the_screen_redraws_its_words_when_the_language_changes(screen: TableScreen) -> None:
    now = Clock()
    unit = TableUnit(MoveClock(), table=5, outputs=[screen], monotonic=now)
    unit.step()
    polish = pygame.image.tobytes(screen.snapshot(), "RGB")
    assert pygame.display.get_caption()[0] == "Rummikub — stolik"
    unit.step()
    assert screen.last_update_rects == []  # nothing changed, nothing drawn
    unit.set_language("en")
    unit.step()
    band = pygame.Rect(screen.layout.band.as_tuple())
    assert band in screen.last_update_rects
    assert pygame.image.tobytes(screen.snapshot(), "RGB") != polish
    assert pygame.display.get_caption()[0] == "Rummikub table"


def message_words(view: TableView, now: float) -> str:
    scene = compose(view, now, layout_for(800, 480))
    line = next(p for p in scene if p.name == "message")
    return " ".join(i.text for i in line.items if isinstance(i, Text))


def playing() -> tuple[TableUnit, Clock, Shown]:
    """A unit whose game has started (a press), speaking Polish."""
    now = Clock()
    shown = Shown()
    unit = TableUnit(MoveClock(ClockRules(seats=4)), table=3, outputs=[shown], monotonic=now)
    unit.put(ButtonEdge(Button.PASS, True, now.now))
    unit.put(ButtonEdge(Button.PASS, False, now.now + 0.05))
    unit.step()
    return unit, now, shown


def test_what_the_unit_tells_the_table_is_said_again_in_the_new_language() -> None:
    unit, now, shown = playing()
    unit.put(KeyPress("7", now.now + 1))  # no table action on 7: the keys that have one
    unit.step()
    assert unit.view.message == "Keys: * empty rack (game over) · - bank empty (last lap)"
    assert message_words(shown.views[-1], now.now) == (
        "Klawisze: * pusta tabliczka (koniec gry) · - pusty bank (ostatnia kolejka)"
    )
    unit.set_language("en")
    unit.step()
    assert message_words(shown.views[-1], now.now) == (
        "Keys: * empty rack (game over) · - bank empty (last lap)"
    )


def test_a_judge_action_the_clock_refuses_is_said_in_polish() -> None:
    unit, now, shown = playing()
    unit.controls.menu = JudgeMenu((JudgeAction.UNDO_PASS,))
    unit.put(MenuChoice(JudgeAction.UNDO_PASS, now.now + 1))
    unit.step()
    assert unit.view.message == "undo pass: there is no pass to undo in this game"
    assert message_words(shown.views[-1], now.now) == (
        "Nie ma czego cofnąć — to pierwszy ruch gry"
    )

"""The hub screen in the hall's language: Polish by default, English on request, switched
at run time from the model (``HallView.language``, set through
``HallTracker.set_language``), every page drawn in it.
"""

from __future__ import annotations

import os
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from hub.hall import Page, PageKind
from hub.samples import sample_hall
from hub.screen import main
from hub.screen.feed import HallTracker
from hub.screen.render import HallScreen
from tablekit.shared.i18n import LanguageError

NOW = 1_800_000_000.0


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield
    pygame.quit()


def texts(screen: HallScreen, region: str) -> list[str]:
    return [p.text for p in screen.placed.get(region, [])]


def test_the_screen_speaks_polish_unless_told_and_switches_at_run_time():
    hall = sample_hall(9, NOW)
    assert hall.language == "pl"
    screen = HallScreen(pygame.Surface((1280, 720)), cycle=0)
    screen.frame(hall, NOW)
    header = texts(screen, "header")
    assert "STOLIKI 1–9" in header and "DO KOŃCA RUNDY" in header
    assert "SĘDZIA · 2" in texts(screen, "sidebar")
    assert "GRA TRWA" in texts(screen, "cell:0")
    # The same instant in English: the whole screen is redrawn, in English.
    english = replace(hall, language="en")
    assert screen.frame(english, NOW) == [screen.surface.get_rect()]
    header = texts(screen, "header")
    assert "TABLES 1–9" in header and "ROUND ENDS IN" in header
    assert "JUDGE · 2" in texts(screen, "sidebar")
    assert "PLAYING" in texts(screen, "cell:0")
    assert screen.frame(english, NOW) == []  # nothing changed since
    screen.frame(hall, NOW)
    assert "STOLIKI 1–9" in texts(screen, "header")


def test_the_trackers_language_is_the_screens_one_entry_point():
    tracker = HallTracker(title="Puchar")
    assert tracker.view(NOW).language == "pl"
    first = tracker.view(NOW)
    tracker.set_language("en_GB.UTF-8")
    assert tracker.view(NOW).language == "en" and tracker.view(NOW) is not first
    tracker.set_language("PL")
    assert tracker.view(NOW).language == "pl"
    with pytest.raises(LanguageError, match="no language 'de'"):
        tracker.set_language("de")
    assert tracker.view(NOW).language == "pl"  # a refused language changes nothing
    assert HallTracker(language="en").view(NOW).language == "en"


@pytest.mark.parametrize(
    ("lang", "env", "expected"),
    [
        (None, {}, "STOLIKI 1–9"),
        ("en", {}, "TABLES 1–9"),
        (None, {"LANG": "en_US.UTF-8"}, "TABLES 1–9"),
    ],
)
def test_the_lang_option_and_lang_choose_the_screens_language(
    lang, env, expected, tmp_path, monkeypatch
):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in env.items():
        monkeypatch.setenv(variable, value)
    drawn: list[str] = []
    real = HallScreen.draw_page

    def draw_page(self: HallScreen, hall, page: Page, now: float) -> None:
        real(self, hall, page, now)
        if page.kind is PageKind.WALL:
            drawn.extend(texts(self, "header"))

    monkeypatch.setattr(HallScreen, "draw_page", draw_page)
    argv = ["--demo", "9", "--size", "1280x720", "--png", str(tmp_path)]
    assert main([*argv, "--lang", lang] if lang else argv) == 0
    assert expected in drawn


def test_a_language_the_kit_does_not_speak_is_refused_by_name(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--demo", "9", "--lang", "de", "--png", "/nonexistent-never-written"])
    assert exit_info.value.code == 2
    assert "no language 'de': the kit speaks Polish (pl), English (en)" in capsys.readouterr().err

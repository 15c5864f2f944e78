"""The hub screen in the hall's language: Polish by default, English on request, switched
at run time from the model (``HallView.language``, set through
``HallTracker.set_language``), every page drawn in it.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import msgspec
import paho.mqtt.client as mqtt
import pygame
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from hub.hall import HallView, Page, PageKind, state_of
from hub.samples import sample_hall
from hub.screen import main
from hub.screen.feed import HallTracker, ScreenFeed
from hub.screen.render import HallScreen
from tablekit.core.clock_events import PauseReason
from tablekit.core.codec import encode
from tablekit.core.messages import PROTOCOL_VERSION, HallLanguage
from tablekit.core.status import TableState, missing_text, short_word, word
from tablekit.core.topics import Topics
from tablekit.shared import i18n
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


# --- fit: every page, every table state, both languages, 720p and 1080p ------------------------

SIZES = [(1920, 1080), (1280, 720)]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "hub-screen"


def every_state_hall(count: int, language: str) -> HallView:
    """The sample hall with the states it lacks as well (a unit restarted mid-move, a
    table behind at the hub, one never heard from) and two players of one surname."""
    hall = sample_hall(count, NOW)
    tables = list(hall.tables)
    extra = {
        15: lambda t: replace(t, paused=PauseReason.RECOVERED, paused_since=NOW - 20.0),
        16: lambda t: replace(t, unstored=3, unstored_since=NOW - 14.0),
        17: lambda t: replace(t, known=False),
    }
    for number, change in extra.items():
        if number <= len(tables):
            tables[number - 1] = change(tables[number - 1])
    return replace(hall, tables=tuple(tables), language=language)


def allowed_cut(hall: HallView) -> set[str]:
    """Texts that are data, not the kit's words, and may be shortened: the event's title,
    the hub's reason for refusing a result."""
    allowed = {hall.title}
    for t in hall.tables:
        if t.refused:
            allowed |= {
                f"refused: {t.refused.message(i18n.words('en').gettext)}",
                f"odrzucony: {t.refused.message(i18n.words('pl').gettext)}",
            }
    return allowed


def check_fit(screen: HallScreen, hall: HallView, where: str) -> None:
    """Every text inside its box and on screen, at the minimum size or more; no word of
    the kit cut; a name cut only where it is longer than its column, and never so that
    two players on the page look the same."""
    bounds = screen.surface.get_rect()
    placed = screen.all_placed()
    assert placed, where
    allowed = allowed_cut(hall)
    shown: dict[str, set[str]] = {}
    for p in placed:
        assert p.box.contains(p.rect), f"{where}: {p.text!r} overflows its box"
        assert bounds.contains(p.rect), f"{where}: {p.text!r} is off screen"
        assert p.size >= screen.layout.text, f"{where}: {p.text!r} at {p.size} px"
        if p.name:
            shown.setdefault(p.text, set()).add(p.wanted)
            if p.text != p.wanted:
                wide = screen.texts.width("cond", p.size, p.wanted)
                assert wide > p.box.width, f"{where}: {p.wanted!r} cut though it fits"
        elif p.wanted not in allowed:
            assert p.text == p.wanted, f"{where}: {p.wanted!r} cut to {p.text!r}"
    same = {text: names for text, names in shown.items() if len(names) > 1}
    assert not same, f"{where}: different players drawn alike: {same}"


def pages_of(screen: HallScreen, hall: HallView) -> list[Page]:
    pages = screen.sequence(hall)
    if not any(p.kind is PageKind.STANDINGS for p in pages):
        pages.append(Page(PageKind.STANDINGS, 0, 0))
    return pages


@pytest.mark.parametrize("language", ["pl", "en"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("count", [1, 9, 24, 60])
def test_every_page_fits_in_both_languages(count, size, language):
    hall = every_state_hall(count, language)
    screen = HallScreen(pygame.Surface(size))
    out = ARTIFACTS / language / f"{size[0]}x{size[1]}" / f"{count}-tables"
    out.mkdir(parents=True, exist_ok=True)
    for page in pages_of(screen, hall):
        screen.draw_page(hall, page, NOW)
        name = f"{page.kind.value}-{page.index + 1}"
        pygame.image.save(screen.surface, str(out / f"{name}.png"))
        check_fit(screen, hall, f"{language} {size} {count} {name}")


@pytest.mark.parametrize("language", ["pl", "en"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_table_state_is_worded_whole_on_the_wall(size, language):
    hall = every_state_hall(24, language)
    screen = HallScreen(pygame.Surface(size))
    screen.draw_page(hall, Page(PageKind.WALL), NOW)
    words = i18n.words(language)
    for t in hall.tables:
        state = state_of(t)
        cell = texts(screen, f"cell:{t.number - 1}")
        if state is TableState.RESULT_MISSING:
            expected = {missing_text(t.missing, words)}
        else:
            expected = {words.gettext(word(state)), words.gettext(short_word(state))}
        assert any(
            text in expected or text.startswith(words.gettext(word(state)) + " ")
            for text in cell
        ), (t.number, state, cell)
        slow = words.pgettext("tag on a table's cell", "SLOW") in cell  # drawn instead
        if t.known and t.games and not slow:  # the game within the round, the books' word
            game = {"pl": f"gra {t.game}/{t.games}", "en": f"G{t.game}/{t.games}"}[language]
            assert game in cell, (t.number, cell)


def test_the_halls_language_setting_switches_the_tracker() -> None:
    tracker = HallTracker()
    tracker.apply(HallLanguage(v=PROTOCOL_VERSION, language="en"), NOW, retained=True)
    assert tracker.view(NOW).language == "en"
    tracker.apply(HallLanguage(v=PROTOCOL_VERSION, language="xx"), NOW + 1)  # a newer hub's
    assert tracker.view(NOW + 1).language == "en"  # kept the one it speaks
    tracker.apply(HallLanguage(v=PROTOCOL_VERSION, language="pl"), NOW + 2)
    assert tracker.view(NOW + 2).language == "pl"


@pytest.mark.mqtt
def test_a_language_change_reaches_the_live_screen_through_the_broker(
    mosquitto, wait_until
) -> None:
    broker = mosquitto()
    topics = Topics("hall", "lang")
    hub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="hub-lang")
    hub.connect(broker.host, broker.port)
    hub.loop_start()
    feed = ScreenFeed(broker.client_settings(), topics, title="Puchar", language="pl")

    def say(code: str) -> None:
        payload = encode(HallLanguage(v=PROTOCOL_VERSION, language=code))
        hub.publish(topics.language, payload, qos=1, retain=True).wait_for_publish(5)

    try:
        say("en")  # retained before the screen connects: it speaks it from the start
        feed.start()
        assert feed.connected.wait(10)
        wait_until(lambda: feed.hall(time.time()).language == "en", what="English")
        screen = HallScreen(pygame.Surface((1280, 720)), cycle=0)
        screen.frame(feed.hall(time.time()), time.time())
        assert "TABLES" in texts(screen, "header")
        say("pl")  # mid-event: the next frame is Polish, no restart
        wait_until(lambda: feed.hall(time.time()).language == "pl", what="Polish")
        screen.frame(feed.hall(time.time()), time.time())
        assert "STOLIKI" in texts(screen, "header")
    finally:
        hub.loop_stop()
        hub.disconnect()
        feed.stop()


def test_the_options_and_refusals_speak_the_asked_language(capsys, monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    with pytest.raises(SystemExit):
        main(["--help"])
    help_pl = capsys.readouterr().out
    assert "Ekran sali: ściana stolików, wezwania sędziego" in help_pl
    assert "rozmiar okna albo PNG (domyślnie 1920x1080)" in help_pl
    with pytest.raises(SystemExit):
        main(["--lang", "en", "--help"])
    assert "window or PNG size (default 1920x1080)" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        main(["--size", "100x100", "--demo", "2"])
    assert exit_info.value.code == 2
    assert "rozmiar musi być od 640x360 do 7680x4320, podano 100x100" in capsys.readouterr().err
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    with pytest.raises(SystemExit):
        main(["--cycle", "-3"])
    assert "seconds must be 0-3600, got '-3'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--cycle", "-3", "--lang=pl"])
    assert "liczba sekund musi być od 0 do 3600, podano -3" in capsys.readouterr().err


def test_a_bad_setting_is_one_line_in_the_screens_language(capsys, monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    argv = ["--venue", "no spaces", "--png", "/nonexistent-never-written"]
    assert main(argv) == 2
    polish = capsys.readouterr().err
    assert main([*argv, "--lang", "en"]) == 2
    english = capsys.readouterr().err
    assert polish.startswith("rummikub-screen: błąd: ") and polish.count("\n") == 1, polish
    assert english.startswith("rummikub-screen: error: ") and "venue" in english


@pytest.mark.parametrize(
    ("language", "band", "corner"),
    [("pl", "BRAK POŁĄCZENIA", ["42 s"]), ("en", "OFFLINE for 42 s", [])],
)
def test_an_offline_table_says_for_how_long_in_either_language(language, band, corner):
    hall = replace(sample_hall(9, NOW), language=language)
    screen = HallScreen(pygame.Surface((1280, 720)))
    screen.draw_page(hall, Page(PageKind.WALL), NOW)
    cell = texts(screen, "cell:3")  # table 4, offline for 42 s
    assert band in cell
    assert [t for t in cell if t == "42 s"] == corner  # where the band has no room for it


@pytest.mark.parametrize(
    ("stage", "line"),
    [("round-2", "Runda 2 · 3 gry"), ("final", "Runda 2 · finał · 3 gry")],
)
def test_the_header_names_the_presets_stage_in_the_halls_language(stage, line):
    hall = sample_hall(9, NOW)
    assert hall.round is not None
    hall = replace(hall, round=msgspec.structs.replace(hall.round, stage=stage))
    screen = HallScreen(pygame.Surface((1920, 1080)))
    screen.draw_page(hall, Page(PageKind.WALL), NOW)
    assert texts(screen, "header")[1].startswith(line + " · "), texts(screen, "header")


@pytest.mark.parametrize("language", ["pl", "en"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("count", [9, 60])
def test_how_long_a_table_is_offline_reads_as_a_duration(count, size, language):
    hall = every_state_hall(count, language)
    offline = [t for t in hall.tables if state_of(t) is TableState.OFFLINE]
    assert offline
    tables = tuple(
        replace(t, offline_since=NOW - 135.0) if t in offline else t for t in hall.tables
    )
    hall = replace(hall, tables=tables)
    screen = HallScreen(pygame.Surface(size))
    screen.draw_page(hall, Page(PageKind.WALL), NOW)
    check_fit(screen, hall, f"{language} {size} {count} offline 2 min 15 s")
    cell = texts(screen, f"cell:{offline[0].number - 1}")
    said = {"pl": "BRAK POŁĄCZENIA od 2 min 15 s", "en": "OFFLINE for 2 min 15 s"}[language]
    assert said in cell or "2 min" in cell, cell  # the whole line, or its corner's minutes
    assert not any("2:15" in text for text in cell), cell

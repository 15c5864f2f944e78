"""Colours and sounds everyone can tell apart: the table states' colours (the unit's
display, the hub screen, the web console and the command line all take them from
``tablekit.core.status``) as people with protanopia and deuteranopia see them, the status
light's meanings, and the buzzer's rhythms — each pair computed apart. The bands as each
of them sees them are drawn to ``artifacts/palette/``."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import itertools
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from colour_vision import VISIONS, back_to_srgb, ciede2000, contrast, distance

from tablekit.config import BuzzerSettings
from tablekit.core.clock import ClockState, Phase
from tablekit.core.hallcheck import CheckStep, HallCheck
from tablekit.core.status import LOOKS, TableState, word
from tablekit.fonts import font_path
from tablekit.samples import sample_views
from tablekit.signals import LIGHTS, Light, Signals, render_signals
from tablekit.view import TableView

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "palette"
BANDS_APART = 10.0
"""CIEDE2000 between any two states' bands, for every kind of eyes (about 2 is the least
difference one notices side by side)."""
AT_A_TABLE = (
    {TableState.PLAYING, TableState.LAST_LAP, TableState.TIME, TableState.PAUSED_JUDGE},
    {TableState.RESULT_IN, TableState.RESULT_REFUSED},
)
"""States one after the other at a table, whose bands must be further apart still."""
TABLE_APART = 20.0
LIGHTS_APART = 15.0
"""The same between two meanings of the status light that flash alike (a light is seen
alone, not beside the other)."""
RATIO = 1.5
"""Two flashing or beeping rhythms differ when their periods or lengths are this far apart."""
NOW = 1000.0


def to_255(rgb: tuple[float, float, float]) -> tuple[int, int, int]:
    r, g, b = (round(c * 255) for c in rgb)
    return r, g, b


def test_the_colour_difference_is_ciede2000() -> None:
    """Reference pairs of Sharma, Wu and Dalal (2005)."""
    pairs = [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ]
    for one, other, expected in pairs:
        assert ciede2000(one, other) == pytest.approx(expected, abs=1e-4)


def test_every_state_looks_unlike_every_other_to_every_eye() -> None:
    """Today's PLAYING and TIME bands turned the same olive for protanopes; no two bands
    may come closer than BANDS_APART for anyone, and each word keeps WCAG AA contrast."""
    states: dict[tuple[int, int, int], list[TableState]] = {}
    for state, look in LOOKS.items():
        states.setdefault(look.bg, []).append(state)
        assert contrast(look.bg, look.fg) >= 4.5, state
    too_close = []
    for (one, first), (other, second) in itertools.combinations(states.items(), 2):
        together = any(first[0] in group and second[0] in group for group in AT_A_TABLE)
        least = TABLE_APART if together else BANDS_APART
        for vision, see in VISIONS.items():
            apart = distance(one, other, see)
            if apart < least:
                too_close.append(f"{first[0]} and {second[0]} for {vision}: {apart:.1f}")
    for vision, see in VISIONS.items():
        draw_bands(ARTIFACTS / f"bands-{vision}.png", see)
    assert not too_close, too_close


def draw_bands(path: Path, see: Callable[[tuple[int, int, int]], tuple[float, float, float]]
               ) -> None:
    """Every state's band and word as ``see``'s eyes see them."""
    pygame.font.init()
    font = pygame.font.Font(str(font_path("DejaVuSans-Bold.ttf")), 22)
    width, height = 420, 40
    surface = pygame.Surface((width, height * len(LOOKS)))
    for row, (state, look) in enumerate(LOOKS.items()):
        rect = pygame.Rect(0, row * height, width, height)
        surface.fill(back_to_srgb(see(look.bg)), rect)
        text = font.render(word(state), True, back_to_srgb(see(look.fg)))
        surface.blit(text, (12, row * height + (height - text.get_height()) // 2))
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(path))


def flashes_alike(one: Light, other: Light) -> bool:
    if one.period is None or other.period is None:
        return one.period == other.period
    return max(one.period, other.period) / min(one.period, other.period) < RATIO


def test_every_meaning_of_the_status_light_is_told_apart() -> None:
    """Two meanings flash differently, or their colours are LIGHTS_APART for every eye."""
    too_close = []
    for (first, one), (second, other) in itertools.combinations(LIGHTS.items(), 2):
        if not flashes_alike(one, other):
            continue
        for vision, see in VISIONS.items():
            apart = distance(to_255(one.colour), to_255(other.colour), see)
            if apart < LIGHTS_APART:
                too_close.append(f"{first} and {second} for {vision}: {apart:.1f}")
    assert not too_close, too_close


def light_of(view: TableView, start: float, seconds: float = 3.2) -> Light:
    """The status light a view shows from ``start``: its colour, and its period if it
    flashes (from the moments it goes on)."""
    samples = [render_signals(view, start + k / 100, BuzzerSettings(), 10).status
               for k in range(round(seconds * 100))]
    colours = {s for s in samples if s != (0.0, 0.0, 0.0)}
    assert len(colours) == 1, colours
    ons = [k for k in range(1, len(samples)) if samples[k] != samples[k - 1]
           and samples[k] in colours]
    period = (ons[1] - ons[0]) / 100 if len(ons) > 1 else None
    return Light(colours.pop(), period)


def test_the_units_light_says_each_meaning_as_listed() -> None:
    views = sample_views(NOW, "en")
    playing = views["playing"]
    deadline = playing.clock.deadline()
    assert deadline is not None
    shown = {
        "ready": light_of(views["ready"], NOW),
        "going": light_of(playing, deadline - 30),
        "hurry": light_of(playing, deadline - 9, 3.0),
        "last seconds": light_of(playing, deadline - 4.2, 3.0),
        "time": light_of(views["time"], NOW),
        "paused": light_of(views["paused-judge"], NOW),
        "called": light_of(views["judge-called"], NOW),
        "fault": light_of(views["check-fault"], NOW),
    }
    assert shown == LIGHTS
    assert light_of(views["restarted"], NOW) == LIGHTS["paused"]  # the judge resumes both
    assert light_of(views["check-done"], NOW) == LIGHTS["going"]  # all is well


Rhythm = tuple[float | None, float]
"""The time from one beep's start to the next (None: a single sound) and a beep's length."""


def rhythm(view: TableView, start: float, seconds: float) -> Rhythm:
    """How the buzzer sounds for ``seconds`` from ``start`` (sampled every 5 ms)."""
    sounding = [render_signals(view, start + k / 200, BuzzerSettings(), 10).buzzer
                for k in range(round(seconds * 200))]
    onsets = [k for k in range(len(sounding)) if sounding[k] and (k == 0 or not sounding[k - 1])]
    assert onsets, "silent"
    lengths = []
    for onset in onsets:
        end = onset
        while end < len(sounding) and sounding[end]:
            end += 1
        lengths.append((end - onset) / 200)
    gaps = [(b - a) / 200 for a, b in itertools.pairwise(onsets)]
    return (min(gaps) if gaps else None), min(lengths)


def sounds_alike(one: Rhythm, other: Rhythm) -> bool:
    (gap_one, length_one), (gap_two, length_two) = one, other
    if (gap_one is None) != (gap_two is None):
        return False
    if gap_one is not None and gap_two is not None and max(gap_one, gap_two) / min(
        gap_one, gap_two
    ) >= RATIO:
        return False
    return max(length_one, length_two) / min(length_one, length_two) < RATIO


def test_every_state_that_sounds_has_a_rhythm_of_its_own() -> None:
    """The countdown's beeps, the last lap's doubled ones, the long tone of TIME, the three
    quick beeps of a judge call and the hall check's beeps: no two alike. The states that
    wait (ready, the judge's pause, a game over, the result's steps) are silent."""
    views = sample_views(NOW, "en")
    playing, last_lap = views["playing"], views["last-lap"]
    deadlines = [v.clock.deadline() for v in (playing, last_lap)]
    assert None not in deadlines
    called = views["judge-called"]
    check = HallCheck(7, 1, NOW)
    for press in (check.pass_button, check.judge_key, check.pass_button):
        press(NOW)  # the buttons work, the lights were seen: now the buzzer
    assert check.view.step is CheckStep.BUZZER
    buzzer_step = replace(views["check-leds"], check=check.view)
    time_view = views["time"]
    rhythms = {
        "countdown": rhythm(playing, deadlines[0] - 5.5, 5.0),  # type: ignore[operator]
        "last lap": rhythm(last_lap, deadlines[1] - 5.5, 5.0),  # type: ignore[operator]
        "time": rhythm(time_view, time_view.clock.expired_at, 3.0),
        "judge called": rhythm(called, called.clock.paused_at, 3.0),
        "hall check": rhythm(buzzer_step, check.view.since, 3.0),
    }
    alike = [(a, b) for (a, one), (b, other) in itertools.combinations(rhythms.items(), 2)
             if sounds_alike(one, other)]
    assert not alike, rhythms
    for name in ("ready", "paused-judge", "restarted", "game-over"):
        waiting = views[name]
        assert not any(render_signals(waiting, NOW + k / 100, BuzzerSettings(), 10).buzzer
                       for k in range(300)), name


def test_quiet_mode_keeps_every_light_and_no_sound() -> None:
    views = sample_views(NOW, "en")
    quiet = BuzzerSettings(mode="quiet")
    called = views["judge-called"]
    at = called.clock.paused_at + 0.01
    loud: Signals = render_signals(called, at, BuzzerSettings(), 10)
    hushed = render_signals(called, at, quiet, 10)
    assert loud.buzzer and not hushed.buzzer and loud.status == hushed.status
    assert render_signals(views["ready"], NOW, quiet, 10).status == LIGHTS["ready"].colour
    assert ClockState().phase is Phase.READY

"""The simulator shows and sounds what a unit's LEDs and buzzer do: in its window the LED bar
and the status light beside the display, driven exactly as the GPIO outputs are (the same
view, the same timings), the buzzer through the computer's sound (``M`` and ``--mute``
silence it, no sound device is said once); headless, a line per change of pattern. It runs
from a script (no terminal) until it is stopped, and keeps its journal where the config
says. Real processes: a private X server (Xvfb) with its screenshot, SDL's dummy sound."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
from running import Running
from test_app import SIM, HeadlessSim
from xwd import screenshot

from tablekit.config import UnitConfig
from tablekit.core.clock import ClockRules, ClockState, MoveClock, Phase
from tablekit.signals import TURQUOISE, Signals, render_signals
from tablekit.simulator import LED_OFF, LED_ON, SimSound, SimWindow, bar_levels
from tablekit.unit import TableUnit
from tablekit.view import TableView


def journalled(journal: Path) -> int:
    """Events the simulator's journal holds, read while it writes."""
    if not journal.exists():
        return 0
    with closing(sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=5)) as db:
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'last_seq'").fetchone()
        except sqlite3.OperationalError:  # made, its tables not yet
            return 0
    return int(row[0]) if row else 0


def test_the_window_shows_the_led_bar_and_the_status_light_beside_the_display(
    tmp_path: Path, xvfb: Callable[[int, int], str]
) -> None:
    display = xvfb(800, 400)
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    journal = tmp_path / "journal.sqlite3"
    sim = Running(
        [*SIM, "--window", "--lang", "en", "--journal", str(journal), "--bot", "--pace",
         "0.3", "--seed", "4"],
        {**env, "DISPLAY": display, "SDL_AUDIODRIVER": "dummy"},
        stdin=subprocess.DEVNULL,
    )
    turquoise = tuple(round(255 * c) for c in TURQUOISE)

    def seen(shot: pygame.Surface, colour: tuple[int, ...]) -> int:  # SDL centres the window
        return sum(
            1 for x in range(0, 800, 2) for y in range(0, 400, 2)
            if tuple(shot.get_at((x, y)))[:3] == colour
        )

    try:
        deadline = time.monotonic() + 90  # a slow CPU takes seconds to start the sim
        while True:
            shot = screenshot(display)  # taken by the X server, not by pygame
            if seen(shot, LED_ON) > 40 and seen(shot, turquoise) > 20 and journalled(journal) >= 2:
                break  # a move running: LEDs of the bar lit, the status light turquoise
            assert sim.proc.poll() is None, sim.output
            assert time.monotonic() < deadline, "no lit LED bar beside the display in 90 s"
            time.sleep(0.2)
    finally:
        sim.proc.send_signal(signal.SIGTERM)
        assert sim.stopped_within(30) is not None
    pygame.image.save(shot, str(tmp_path / "sim-window-leds.png"))
    artifacts = Path(__file__).resolve().parents[1] / "artifacts" / "simulator"
    artifacts.mkdir(parents=True, exist_ok=True)
    pygame.image.save(shot, str(artifacts / "window-leds.png"))
    assert sim.proc.returncode == 0, sim.output
    assert "no sound device" not in sim.output


def test_the_leds_follow_the_gpio_outputs_and_the_buzzer_sounds_until_muted() -> None:
    config = UnitConfig()
    unit = TableUnit(MoveClock(config.clock_rules()))
    said: list[str] = []
    window = SimWindow(config, unit, muted=False, say=said.append)
    try:
        rules = ClockRules(move_seconds=40)
        running = ClockState(rules=rules, phase=Phase.RUNNING, active=None, remaining=5.0,
                             since=100.0, move=3)
        view = TableView(running)
        window.show(view, 100.0)  # 5 s left: a beep, as the buzzer pin would sound
        assert window.signals == render_signals(view, 100.0, config.buzzer, 10)
        assert window.signals is not None and window.signals.buzzer
        assert window.sound is not None and window.sound.available and not said
        assert pygame.mixer.get_busy()  # played through the computer's sound
        strip = window.strip
        surface = window.screen.window
        leds = [
            tuple(surface.get_at((strip.centerx, y)))[:3] for y in range(strip.y, strip.bottom)
        ]
        assert leds.count(LED_ON) > 0 and leds.count(LED_OFF) > 0  # 5 of 40 s: one LED lit
        window.toggle_mute()  # M
        window.show(view, 100.01)
        assert not pygame.mixer.get_busy()
        window.toggle_mute()
        window.show(view, 100.02)
        assert pygame.mixer.get_busy()
        window.show(view, 100.5)  # between two beeps: silent
        assert not pygame.mixer.get_busy()
    finally:
        window.close()
    assert bar_levels(0.25, 10)[:3] == [1.0, 1.0, 0.5]  # as LEDBarGraph(pwm=True) drives them


def test_without_a_sound_device_the_simulator_says_so_once_and_goes_on() -> None:
    said: list[str] = []
    os.environ["SDL_AUDIODRIVER"] = "no-such-driver"
    try:
        sound = SimSound(muted=False, say=said.append)
    finally:
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    assert not sound.available and len(said) == 1
    for sounding in (True, False, True):  # nothing to play it on: nothing more is said
        sound.play(Signals(bar=1.0, status=TURQUOISE, buzzer=sounding))
    assert len(said) == 1


def test_headless_the_lights_and_the_buzzer_are_a_line_per_change(tmp_path: Path) -> None:
    config = tmp_path / "unit.toml"
    config.write_text("[clock]\nmove_seconds = 7\n")
    sim = HeadlessSim(tmp_path, "--config", str(config))
    sim.wait_for("status light: dim white · LED bar: 10 of 10 · buzzer: silent", 60)
    sim.keys(" ")
    sim.wait_for("status light: yellow · LED bar: 10 of 10 · buzzer: silent", 30)  # 7 s: yellow
    sim.wait_for("status light: red, flashing · LED bar: 8 of 10 · buzzer: a beep, 5 s left", 30)
    sim.wait_for("buzzer: a beep, 1 s left", 30)
    sim.wait_for("status light: red · LED bar: 10 of 10 · buzzer: the long tone", 30)
    sim.wait_for("status light: red · LED bar: 10 of 10 · buzzer: silent", 30)
    lines = [line for line in sim.quit().splitlines() if line.startswith("status light:")]
    assert len(lines) == len(set(lines)) <= 12  # per change, never per frame


def test_a_simulator_started_by_a_script_runs_until_stopped_with_its_journal_where_written(
    tmp_path: Path, wait_until: Any
) -> None:
    folder = tmp_path / "rehearsal" / "journals"
    folder.mkdir(parents=True)
    config = tmp_path / "unit.toml"
    config.write_text(f'[unit]\njournal = "{folder / "table-01.sqlite3"}"\n')
    sim = subprocess.Popen(
        [*SIM, "--headless", "--config", str(config), "--bot", "--pace", "0.02"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"}, cwd=tmp_path,
    )
    try:
        journal = folder / "table-01.sqlite3"
        wait_until(lambda: journalled(journal) >= 5 or sim.poll() is not None, 60, "moves")
        assert sim.poll() is None, "the simulator quit without a terminal to read"
        assert not (tmp_path / "table-01.sqlite3").exists()  # not its name in the cwd
    finally:
        sim.send_signal(signal.SIGTERM)
        _, err = sim.communicate(timeout=30)
    assert sim.returncode == 0, err.decode()


"""tablekit-unit, the program a table's Pi runs: GPIO (mock pins here), display, systemd."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from hub.broker import MosquittoBroker
from hub.service import HubService
from hub.store_rows import StoredEvent
from tablekit.core.clock_events import ClockPaused, PauseReason
from tablekit.core.topics import Topics
from tablekit.journal import Journal
from tablekit.unit import BEAT_CHARGE

UNIT = [sys.executable, "-c", "from tablekit.app import unit_main; unit_main()"]
MOCK_PINS = {"GPIOZERO_PIN_FACTORY": "mock", "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin"}


def test_the_unit_runs_on_pins_tells_systemd_and_stops_cleanly(tmp_path: Path) -> None:
    config = tmp_path / "unit.toml"
    config.write_text("[unit]\ntable = 4\n[clock]\nmove_seconds = 2\nlockout = 0.1\n")
    journal = tmp_path / "journal.sqlite3"
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(address)
        systemd.settimeout(30)
        unit = subprocess.Popen(
            [*UNIT, "--config", str(config), "--journal", str(journal), "--bot", "--pace",
             "0.05", "--seed", "2"],
            env={**os.environ, **MOCK_PINS, "SDL_VIDEODRIVER": "dummy",
                 "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "1000000"},
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        try:
            assert systemd.recv(100) == b"READY=1\nSTATUS=table 4"
            assert systemd.recv(100) == b"WATCHDOG=1"  # the loop is turning
            time.sleep(3)  # the bot plays a few moves
        finally:
            unit.send_signal(signal.SIGTERM)
            _, err = unit.communicate(timeout=20)
    assert unit.returncode == 0, err.decode()
    assert Journal(journal, "table-04").last_seq >= 3  # started, passes …


def test_without_gpio_the_unit_says_what_to_do(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPIOZERO")}
    proc = subprocess.run(
        [*UNIT, "--lang", "en", "--journal", str(tmp_path / "j.sqlite3"), "--no-display"],
        capture_output=True, text=True, timeout=30, check=False,
        env={**env, "SDL_VIDEODRIVER": "dummy"},
    )
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "no GPIO on this computer" in proc.stderr and "tablekit-sim" in proc.stderr
    hint = "GPIOZERO_PIN_FACTORY=mock GPIOZERO_MOCK_PIN_CLASS=mockpwmpin"
    assert hint in proc.stderr  # every setting needed, not one
    assert not (tmp_path / "j.sqlite3").exists()  # checked before any file is made
    # only the first setting, as the old hint said: no traceback, the other one named
    half = subprocess.run(
        [*UNIT, "--lang", "en", "--journal", str(tmp_path / "j.sqlite3"), "--no-display"],
        capture_output=True, text=True, timeout=30, check=False,
        env={**env, "SDL_VIDEODRIVER": "dummy", "GPIOZERO_PIN_FACTORY": "mock"},
    )
    assert half.returncode != 0 and "Traceback" not in half.stderr, half.stderr
    assert "need pins with PWM: set " + hint in half.stderr
    assert not (tmp_path / "j.sqlite3").exists()


def test_a_unit_killed_mid_move_resumes_paused_with_the_moves_used_time(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker]
) -> None:
    """kill -9 while a move runs: the restarted unit records clock_paused (recovered) with
    the time that move had used (up to its last save, at most a second before the kill,
    and charged ahead to the next save), so the player gets no time back, and the hub's
    stream shows it."""
    broker = mosquitto()
    service = HubService(broker.client_settings(), tmp_path / "hub.db", Topics("hall", "kill"))
    service.start()
    config = tmp_path / "unit.toml"
    config.write_text(
        "[unit]\ntable = 4\n[clock]\nmove_seconds = 600\nlockout = 0.1\n"
        f'[link]\nhost = "{broker.host}"\nport = {broker.port}\nvenue = "hall"\n'
        'event = "kill"\n'
    )
    journal = tmp_path / "journal.sqlite3"
    env = {**os.environ, **MOCK_PINS, "SDL_VIDEODRIVER": "dummy"}

    def start(*extra: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [*UNIT, "--config", str(config), "--journal", str(journal), *extra],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )

    def passes() -> list[StoredEvent]:
        return service.store.events(source="table-04", kind="move_passed")

    try:
        assert service.wait_online(10)
        unit = start("--bot", "--pace", "0.3", "--seed", "5")
        def quiet_for() -> float:
            """Seconds since the newest event reached the hub: the move running that long."""
            stream = service.store.events(source="table-04")
            if not stream or stream[-1].kind not in ("move_passed", "game_started"):
                return 0.0  # not a running move (a judge pause, say)
            return time.time() - stream[-1].received

        deadline = time.monotonic() + 60
        while (len(passes()) < 3 or quiet_for() < 2.5) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(passes()) >= 3, "the bot plays moves that reach the hub"
        unit.send_signal(signal.SIGKILL)  # 2.5 s into a move
        killed = time.time()
        unit.wait(10)
        unit = start()  # nobody presses now: the unit waits for the judge
        deadline = time.monotonic() + 60
        recovered: list[StoredEvent] = []
        while not recovered and time.monotonic() < deadline:
            recovered = [
                e for e in service.store.events(source="table-04", kind="clock_paused")
                if e.event().reason is PauseReason.RECOVERED  # type: ignore[union-attr]
            ]
            time.sleep(0.05)
        unit.send_signal(signal.SIGTERM)
        unit.wait(20)
        [stored] = recovered
        pause = stored.event()
        assert isinstance(pause, ClockPaused)
        stream = service.store.events(source="table-04")
        before = [e for e in stream if e.seq < stored.seq]
        started = max(e.ts for e in before if e.kind in ("move_passed", "game_started"))
        ran = killed - started  # the move's time on the wall clock until the kill
        assert pause.used > 0 and abs(pause.used + pause.remaining - 600.0) < 0.01
        # about never less than it ran (no time back: a busy machine may save late), a beat's
        # charge more at the most
        assert ran - 0.5 <= pause.used <= ran + BEAT_CHARGE + 0.2, (pause.used, ran)
        assert not [e for e in stream if e.seq > stored.seq and e.kind == "clock_resumed"]
    finally:
        service.stop()

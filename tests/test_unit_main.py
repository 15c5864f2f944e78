"""tablekit-unit, the program a table's Pi runs: GPIO (mock pins here), display, systemd."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from tablekit.journal import Journal

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
        [*UNIT, "--journal", str(tmp_path / "j.sqlite3"), "--no-display"],
        capture_output=True, text=True, timeout=30, check=False,
        env={**env, "SDL_VIDEODRIVER": "dummy"},
    )
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "no GPIO on this computer" in proc.stderr and "tablekit-sim" in proc.stderr

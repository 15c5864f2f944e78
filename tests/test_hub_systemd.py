"""The hub service under systemd: READY once started, watchdog pings while its writer lives."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from hub.broker import MosquittoBroker


def test_hub_reports_ready_and_feeds_the_watchdog(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker]
) -> None:
    broker = mosquitto()
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(address)
        systemd.settimeout(30)  # a cold start imports and opens the store first
        config = tmp_path / "hub.toml"  # as the systemd unit runs it: all from the file
        config.write_text(
            f'venue = "hall"\nevent = "cup"\ndb = "{tmp_path / "hub.sqlite3"}"\n'
            f"[broker]\nport = {broker.port}\n"
        )
        hub = subprocess.Popen(
            [sys.executable, "-m", "hub.serve", "serve", "--config", str(config)],
            env={**os.environ, "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "2000000"},
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        try:
            first = systemd.recv(200).decode()
            assert first.startswith("READY=1") and "rummikub/v1/hall/cup" in first
            assert systemd.recv(200) == b"WATCHDOG=1"
            assert systemd.recv(200) == b"WATCHDOG=1"  # again within the 2 s period
        finally:
            hub.send_signal(signal.SIGTERM)
            _, err = hub.communicate(timeout=15)
    assert hub.returncode == 0, err.decode()

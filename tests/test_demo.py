"""The README's main command, headless: a tournament played by simulated tables."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from hub.store import EventStore


@pytest.mark.parametrize("broker", ["mosquitto", "embedded"])
def test_demo_plays_on_every_table_and_draws_the_hub_screen(tmp_path: Path, broker: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "from hub.demo import main; raise SystemExit(main())",
         "--headless", "--broker", broker, "--players", "10", "--pace", "0.05",
         "--move-seconds", "6", "--round-minutes", "1", "--duration", "12", "--every", "3",
         "--png-every", "5", "--seed", "3", "--dir", str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "round-1 drawn" in out and "hub view:" in out and "Traceback" not in proc.stderr
    for table in (1, 2, 3):  # 10 players: tables of 4, 3 and 3
        assert f"table  {table} G1/2" in out
    wall = tmp_path / "screen" / "wall-1.png"
    assert wall.stat().st_size > 10_000
    store = EventStore(tmp_path / "hub.sqlite3")
    passes = Counter(e.table for e in store.events(kind="move_passed"))
    assert set(passes) == {1, 2, 3} and min(passes.values()) >= 3
    assert store.integrity_check() == "ok"

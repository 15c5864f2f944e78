"""The README's main command, headless: a tournament played by simulated tables."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from running import Running, session_left

from hub.broker import wait_for_port
from hub.demo import Demo, build_parser, demo_ruleset
from hub.organizer import Organizer
from hub.store import EventStore
from tablekit.rulesets import BUILTIN, BigPointScheme


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


def brokers_in(workdir: Path) -> list[int]:
    """Pids of the Mosquitto processes whose command line names ``workdir``."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if "mosquitto" in cmd and str(workdir) in cmd:
                pids.append(int(entry.name))
    return pids


def test_an_event_that_cannot_start_is_refused_in_one_line_and_leaves_no_broker(
    tmp_path: Path,
) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "from hub.demo import main; raise SystemExit(main())",
         "--headless", "--broker", "mosquitto", "--preset", "championship", "--dir",
         str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
    )
    left = brokers_in(tmp_path)
    for pid in left:  # only the broker this demo started, so later tests are not disturbed
        os.kill(pid, signal.SIGTERM)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr == "rummikub-demo: format 'championship': 14 players, it needs 16–36\n"
    assert left == []


@pytest.mark.parametrize("broker", ["mosquitto", "embedded"])
def test_a_demo_failing_half_way_stops_what_it_started(
    tmp_path: Path, broker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = build_parser().parse_args(
        ["--broker", broker, "--players", "10", "--seed", "1", "--dir", str(tmp_path)]
    )
    demo = Demo(args)
    started: list[int] = []
    start_table = Demo._start_table

    def one_table_then_fail(self: Demo, number: int) -> None:
        if started:
            raise OSError("table 2: no room for its journal")
        start_table(self, number)
        started.append(number)

    monkeypatch.setattr(Demo, "_start_table", one_table_then_fail)
    with pytest.raises(OSError, match="table 2"):
        demo.start()
    assert started == [1]  # the broker, the hub and table 1 were running
    assert demo.broker is not None and not demo.broker.running
    assert not wait_for_port(demo.host, demo.port, 0.5)
    assert brokers_in(tmp_path) == []
    assert not any(thread.is_alive() for thread in demo.threads)
    assert demo.director is None


@pytest.mark.parametrize(
    ("preset", "players", "base"),
    [("championship", 16, "002"), ("league", 14, "003"), ("school", 14, "004"),
     ("winter", 14, "000")],
)
def test_the_demo_plays_the_presets_own_ruleset_with_its_clock(
    preset: str, players: int, base: str
) -> None:
    rules = demo_ruleset(preset, players, 20.0)
    builtin = BUILTIN[base]
    assert rules.name == "demo" and rules.move_seconds == 20.0
    assert rules.title == f"{builtin.title}, 20 s a move (demo)"
    same = msgspec.structs.replace(
        rules, name=builtin.name, title=builtin.title, move_seconds=builtin.move_seconds
    )
    assert same == builtin


def test_the_demo_championship_scores_and_shows_points_the_002_way(tmp_path: Path) -> None:
    args = build_parser().parse_args(
        ["--preset", "championship", "--players", "16", "--seed", "1", "--dir", str(tmp_path)]
    )
    demo = Demo(args)
    demo.organizer = Organizer(EventStore(tmp_path / "hub.sqlite3"), by="demo")
    demo._create_event()
    competition = demo.organizer.competition
    stage = competition.open_stage()
    assert stage is not None
    rules = competition.ruleset(stage)
    assert (rules.name, rules.big_points) == ("demo", BigPointScheme.PLACEMENT)
    assert rules.placement_points_4 == (4, 2, 1, 0)
    assert rules.move_seconds == args.move_seconds
    assert len(competition.tables()) == 4


DEMO = [sys.executable, "-c", "from hub.demo import main; raise SystemExit(main())"]


@pytest.mark.parametrize(
    ("mode", "how"),
    [
        ("headless", "timeout"),  # `timeout` signals the whole group: the broker dies too
        ("headless", "SIGTERM"),
        ("headless", "SIGINT"),
        ("window", "SIGTERM"),
    ],
)
def test_the_demo_stops_on_sigterm_and_sigint_within_seconds_leaving_nothing(
    tmp_path: Path, mode: str, how: str, xvfb: Callable[[int, int], str]
) -> None:
    env = {**os.environ}
    if mode == "window":
        env["DISPLAY"] = xvfb(1280, 720)
        env.pop("SDL_VIDEODRIVER", None)
        env.pop("WAYLAND_DISPLAY", None)
    else:
        env["SDL_VIDEODRIVER"] = "dummy"
    demo = Running(
        [*DEMO, f"--{mode}", "--broker", "mosquitto", "--players", "10", "--pace", "0.05",
         "--every", "1", "--seed", "3", "--dir", str(tmp_path)],
        env,
    )
    demo.wait_for("round-1 drawn", 60)
    if mode == "headless":
        demo.wait_for("hub view:", 30)
    else:
        time.sleep(3)  # the hub screen's window is up and polling
    assert brokers_in(tmp_path), demo.output
    if how == "timeout":
        os.killpg(demo.proc.pid, signal.SIGTERM)
    else:
        demo.proc.send_signal(getattr(signal, how))
    took = demo.stopped_within(15)
    assert took is not None, f"still running 15 s after {how}:\n{demo.output}"
    assert demo.proc.returncode == 0, demo.output
    name = "SIGTERM" if how == "timeout" else how
    assert f"demo: stopping ({name})" in demo.output and "demo: stopped" in demo.output
    assert "Traceback" not in demo.output, demo.output
    assert brokers_in(tmp_path) == []
    assert session_left(demo.proc.pid) == []

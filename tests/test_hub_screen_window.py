"""The hub screen in a real X window (Xvfb), fed by simulated tables through real Mosquitto.

The screenshot comes from the X server (``xwd -root``), not from pygame, and is saved
under ``artifacts/hub-screen/xvfb/``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import paho.mqtt.client as mqtt
import pygame
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from running import Running, session_left
from xwd import screenshot

from hub.broker import MosquittoBroker
from hub.hall import Page, PageKind, countdown_text, remaining_at
from hub.samples import sample_names
from hub.screen.geometry import CELL_GAP_FRAC, cell_geometry, plan_wall, screen_layout
from hub.screen.render import HallScreen
from hub.screen.theme import CELL_BG, TEXT, URGENT
from tablekit.core.clock import Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.codec import encode
from tablekit.core.messages import (
    Assignment,
    RoundInfo,
    SeatAssignment,
    SeatingBoard,
    SeatingLine,
    StatusReason,
    TableSnapshot,
    UnitStatus,
)
from tablekit.core.seats import Seat
from tablekit.core.status import TableState, look
from tablekit.core.topics import Topics

pytestmark = pytest.mark.mqtt

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts" / "hub-screen" / "xvfb"
SIZE = (1280, 720)
TABLES = 9
PAUSED_TABLE = 2
OFFLINE_TABLE = 4
TIME_TABLE = 7


def grab(display: str, path: Path) -> pygame.Surface:
    """A screenshot of the whole X screen, taken by the X server, saved as ``path``."""
    image = screenshot(display)
    pygame.image.save(image, str(path))
    return image


def share(image: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int]) -> float:
    """Fraction of the pixels of ``rect`` within a small distance of ``colour``."""
    hits = total = 0
    for y in range(rect.top + 2, rect.bottom - 2, 2):
        for x in range(rect.left + 2, rect.right - 2, 2):
            r, g, b, *_ = image.get_at((x, y))
            total += 1
            if abs(r - colour[0]) + abs(g - colour[1]) + abs(b - colour[2]) <= 24:
                hits += 1
    return hits / max(1, total)


def snapshot(table: int, now: float, **kw: object) -> TableSnapshot:
    fields: dict[str, object] = {
        "v": 1,
        "table": table,
        "unit": f"table-{table:02d}",
        "game": 1,
        "move": 10 + table,
        "phase": Phase.RUNNING,
        "active": Seat("ABCD"[table % 4]),
        "remaining": 38.0,
        "measured_at": now,
        "paused": None,
        "last_lap_left": None,
        "timeouts": (0, 1, 0, 0),
        "seats": 4,
        "move_seconds": 40.0,
    }
    fields.update(kw)
    return TableSnapshot(**fields)  # type: ignore[arg-type]


def test_live_wall_in_a_real_window(mosquitto, xvfb, wait_until):
    display = xvfb(*SIZE)
    broker = mosquitto()
    topics = Topics("hall", "xvfb")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="simulated-tables")
    client.connect(broker.host, broker.port)
    client.loop_start()
    now = time.time()
    names = sample_names(TABLES * 4)

    def publish(topic: str, payload: bytes) -> None:
        client.publish(topic, payload, qos=1, retain=True).wait_for_publish(5)

    publish(
        topics.round,
        encode(RoundInfo(v=1, stage="Eliminations", round=1, games=2, deadline=now + 1800)),
    )
    publish(
        topics.seating,
        encode(
            SeatingBoard(
                v=1, stage="Final", round=2, rows=(SeatingLine(name=names[0], table=1, seat="A"),)
            )
        ),
    )
    for n in range(1, TABLES + 1):
        seats = tuple(
            SeatAssignment(seat=Seat(s), name=names[(n - 1) * 4 + i]) for i, s in enumerate("ABCD")
        )
        publish(topics.assign(n), encode(Assignment(v=1, table=n, game=1, seats=seats, round=1)))
        online = n != OFFLINE_TABLE
        status = UnitStatus(
            v=1,
            unit=f"table-{n:02d}",
            table=n,
            online=online,
            reason=StatusReason.CONNECTED if online else StatusReason.LOST,
            ts=now,
        )
        publish(topics.status(n), encode(status))
        paused = PauseReason.JUDGE if n == PAUSED_TABLE else None
        # Ten minutes on the clock: no band turns TIME while a loaded machine starts the screen.
        state = snapshot(n, now, paused=paused, remaining=600.0)
        publish(topics.state(n), encode(state))

    env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11", SDL_AUDIODRIVER="dummy")
    log_path = ARTIFACTS / "screen.log"
    with log_path.open("wb") as log:
        screen = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hub.screen",
                "--broker",
                f"{broker.host}:{broker.port}",
                "--venue",
                "hall",
                "--event",
                "xvfb",
                "--size",
                f"{SIZE[0]}x{SIZE[1]}",
                "--cycle",
                "0",
                "--title",
                "Xvfb test",
            ],
            env=env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        layout = screen_layout(*SIZE)
        gap = max(4, round(SIZE[1] * CELL_GAP_FRAC))
        grid = plan_wall(TABLES, layout.wall, layout.min_unit, gap)
        bands = {n: cell_geometry(grid.cells[n - 1], grid.unit).band for n in range(1, 10)}
        shot = ARTIFACTS / "wall.png"
        playing_bg = look(TableState.PLAYING).bg

        def wall_is_live() -> pygame.Surface | None:
            assert screen.poll() is None, log_path.read_text(errors="replace")
            image = grab(display, shot)
            ok = share(image, bands[1], playing_bg) > 0.5
            ok = (
                ok and share(image, bands[PAUSED_TABLE], look(TableState.PAUSED_JUDGE).bg) > 0.3
            )
            ok = ok and share(image, bands[OFFLINE_TABLE], look(TableState.OFFLINE).bg) > 0.5
            return image if ok else None

        image = wait_until(wall_is_live, timeout=30, what="the live wall on the X screen")
        colours = {
            image.get_at((x, y))[:3] for x in range(0, SIZE[0], 7) for y in range(0, SIZE[1], 7)
        }
        assert len(colours) > 50  # not a uniform image
        first = grid.cells[0]
        assert share(image, first, CELL_BG) > 0.2  # the cell's background
        assert share(image, first, TEXT) > 0.005  # with text on it

        # A table's time runs out: the unit publishes a new snapshot, the wall follows.
        publish(
            topics.state(TIME_TABLE),
            encode(snapshot(TIME_TABLE, time.time(), phase=Phase.TIME_UP, remaining=0.0)),
        )
        time_bg = look(TableState.TIME).bg
        wait_until(
            lambda: (
                share(grab(display, ARTIFACTS / "wall-after-timeout.png"), bands[TIME_TABLE],
                      time_bg) > 0.5
            ),
            timeout=15,
            what="table 7's TIME band on the X screen",
        )
        print(f"\n  X server screenshots: {shot} and {ARTIFACTS / 'wall-after-timeout.png'}")
    finally:
        screen.terminate()
        try:
            screen.wait(5)
        except subprocess.TimeoutExpired:
            screen.kill()
            screen.wait()
        client.loop_stop()
        client.disconnect()


def test_feed_ignores_bad_payloads_and_keeps_the_good_ones(mosquitto, wait_until):
    from hub.screen.feed import ScreenFeed

    broker = mosquitto()
    topics = Topics("hall", "feed")
    feed = ScreenFeed(broker.client_settings(), topics)
    feed.start()
    try:
        assert feed.connected.wait(10)
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bad-unit")
        client.connect(broker.host, broker.port)
        client.loop_start()
        now = time.time()
        for topic, payload in (
            (topics.state(1), b"{not json"),
            (topics.state(2), encode(snapshot(3, now))),  # names another table
            (topics.round, b'{"v":9,"stage":"x","round":1}'),
            (topics.state(5), encode(snapshot(5, now))),
        ):
            # Retained, as the units and the hub publish them: the feed may be connected
            # but not yet subscribed when they arrive.
            client.publish(topic, payload, qos=1, retain=True).wait_for_publish(5)
        wait_until(
            lambda: [t.number for t in feed.hall(time.time()).tables] == [5],
            what="table 5 in the hall",
        )
        wait_until(lambda: feed.counters["rejected"] == 3, what="three rejections")
        client.loop_stop()
        client.disconnect()
    finally:
        feed.stop()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_screen_collecting_for_pngs_stops_on_a_signal_within_seconds(
    mosquitto: Callable[..., MosquittoBroker], tmp_path: Path, sig: signal.Signals
) -> None:
    """With --png it waits for the retained messages before drawing: SDL's display is
    up already, and SDL's own handlers used to swallow SIGTERM until the wait was over."""
    broker = mosquitto()
    screen = Running(
        [sys.executable, "-c", "from hub.screen import main; raise SystemExit(main())",
         "--broker", f"127.0.0.1:{broker.port}", "--png", str(tmp_path / "png"),
         "--wait", "120"],
        {**os.environ, "SDL_VIDEODRIVER": "dummy"},
    )
    screen.wait_for("screen feed: connected", 30)
    screen.proc.send_signal(sig)
    assert screen.stopped_within(10) is not None, screen.output
    assert screen.proc.returncode == 0 and "Traceback" not in screen.output, screen.output
    assert session_left(screen.proc.pid) == []


def test_the_screen_says_when_it_has_lost_the_broker_and_stops_its_clocks(
    mosquitto: Callable[..., MosquittoBroker], wait_until: Callable[..., object]
) -> None:
    from hub.screen.feed import ScreenFeed

    broker = mosquitto()
    topics = Topics("hall", "lost")
    feed = ScreenFeed(broker.client_settings(), topics, title="Lost cup")
    before = feed.hall(time.time()).link_lost
    assert before is not None and not before.ever  # not connected yet, and it says so
    feed.start()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="unit-lost")
    try:
        assert feed.connected.wait(10)
        client.connect(broker.host, broker.port)
        client.loop_start()
        client.publish(topics.state(1), encode(snapshot(1, time.time())), qos=1,
                       retain=True).wait_for_publish(5)
        wait_until(lambda: [t.number for t in feed.hall(time.time()).tables] == [1],
                   what="table 1 on the wall")
        assert feed.hall(time.time()).link_lost is None
        client.loop_stop()
        broker.kill()  # kill -9 the real Mosquitto the test started
        wait_until(lambda: feed.hall(time.time()).link_lost is not None, what="the loss seen")
        hall = feed.hall(time.time())
        lost = hall.link_lost
        assert lost is not None and lost.ever and lost.broker == f"{broker.host}:{broker.port}"
        cell = hall.table(1)
        frozen = countdown_text(remaining_at(cell, lost.since))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        where = f"{broker.host}:{broker.port}"
        for size, language in (((1280, 720), "en"), ((1920, 1080), "pl")):
            screen = HallScreen(pygame.Surface(size))
            hall = replace(hall, language=language)
            screen.draw_page(hall, Page(PageKind.WALL), lost.since + 25.0)
            header = [p.text for p in screen.placed["header"]]
            if language == "en":
                assert header[0] == "HUB LOST THE BROKER · 25 s", header
                assert header[1].startswith(f"{where}: reconnecting. Clocks stopped at "), header
                assert header[1].endswith(", not live")
            else:
                assert header[0] == "BRAK NOWYCH DANYCH · 25 s", header
                assert header[1].startswith("Ekran nie ma nowych danych od "), header
                assert header[1].endswith(f" — łączę ponownie z serwerem {where}")
            cells = [p.text for p in screen.placed["cell:0"]]
            running_on = countdown_text(remaining_at(cell, lost.since + 25.0))
            assert frozen in cells and running_on not in cells, cells  # the clock stood still
            for p in screen.all_placed():
                assert p.box.contains(p.rect), f"{p.text!r} overflows {p.box}"
            path = ARTIFACTS / f"broker-lost-{size[0]}x{size[1]}.png"
            pygame.image.save(screen.surface, str(path))
        assert screen.surface.get_at((5, 5))[:3] == URGENT  # the header is the red banner
        broker.restart()
        wait_until(lambda: feed.hall(time.time()).link_lost is None, timeout=30,
                   what="the banner gone after the broker is back")
    finally:
        client.disconnect()
        feed.stop()

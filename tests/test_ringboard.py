"""The ring board's host driver against a simulated board on a real pseudo-terminal.

The simulator holds the master side of ``os.openpty()`` (raw) and speaks the
firmware's protocol through ``tablekit/ringproto.py``; the driver opens the
slave through pyserial, by a symlink that plays ``/dev/serial/by-id/...`` and
is pointed at a new pty when the "board" is plugged in again.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tablekit.config import BuzzerSettings
from tablekit.controls import Button, ButtonEdge
from tablekit.core.clock import ClockState, MoveClock, Phase
from tablekit.ringboard import (
    DARK,
    SILENT,
    Buzz,
    RingBoard,
    RingFrame,
    buzz,
    find_port,
    proto,
    ring_frame,
)
from tablekit.signals import TICK_LENGTH, Signals
from tablekit.view import TableView

FAST = {"ping_interval": 0.1, "silence": 0.5, "retry_min": 0.05, "retry_max": 0.2}


def wait_for(condition: Callable[[], Any], timeout: float = 10.0) -> Any:
    """Until ``condition()`` is true (it returns at once then; the timeout only bounds a
    failure, generous for a loaded or slow machine)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("condition not met in time")


class SimBoard:
    """A ring board on the master side of a pty: answers like firmware/main.py."""

    def __init__(self, link: Path, answer: bool = True) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        self.path = os.ttyname(self.slave)
        if link.is_symlink():
            link.unlink()
        link.symlink_to(self.path)
        self.answer = answer
        self.received: list[tuple[int, str, list[str]]] = []
        self.decoder = proto.Decoder()
        self.seq = 0
        self.host_seen = False
        self.ring_seq = 0
        self.buzz_seq = 0
        self.mask = 0
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopping.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                continue  # no slave open at the moment
            for seq, kind, fields in self.decoder.feed(data):
                with self.lock:
                    self.received.append((seq, kind, fields))
                if not self.answer:
                    continue
                if kind == "R":
                    self.ring_seq = seq
                elif kind == "B":
                    self.buzz_seq = seq
                if not self.host_seen:
                    self.host_seen = True
                    self.send("H", 1, "1.0.0", 16, "PJC")
                if kind == "P":
                    self.heartbeat()

    def send(self, kind: str, *fields: object) -> None:
        self.raw(proto.encode(self.seq, kind, fields))
        self.seq = (self.seq + 1) % 256

    def raw(self, data: bytes) -> None:
        os.write(self.master, data)

    def heartbeat(self, mask: int | None = None, ring_seq: int | None = None) -> None:
        self.send(
            "K",
            int(time.monotonic() * 1000),
            self.mask if mask is None else mask,
            self.ring_seq if ring_seq is None else ring_seq,
            self.buzz_seq,
            0,
        )

    def edge(self, code: str, pressed: bool) -> None:
        bit = 1 << "PJC".index(code)
        self.mask = self.mask | bit if pressed else self.mask & ~bit
        self.send("E", code, 1 if pressed else 0, int(time.monotonic() * 1000))

    def frames(self, kind: str) -> list[list[str]]:
        with self.lock:
            return [f for _, k, f in self.received if k == kind]

    def unplug(self) -> None:
        self.stopping.set()
        self.thread.join()
        os.close(self.master)
        os.close(self.slave)


class Inbox:
    def __init__(self) -> None:
        self.items: list[object] = []
        self.lock = threading.Lock()

    def put(self, item: object) -> None:
        with self.lock:
            self.items.append(item)

    def edges(self) -> list[tuple[Button, bool]]:
        with self.lock:
            return [(e.button, e.pressed) for e in self.items if isinstance(e, ButtonEdge)]


@pytest.fixture
def link(tmp_path: Path) -> Path:
    return tmp_path / "usb-MicroPython_Board_in_FS_mode_e6614c-if00"


@pytest.fixture
def sims(link: Path) -> Iterator[list[SimBoard]]:
    boards: list[SimBoard] = []
    yield boards
    for board in boards:
        if not board.stopping.is_set():
            board.unplug()


@pytest.fixture
def inbox() -> Inbox:
    return Inbox()


@pytest.fixture
def drivers() -> Iterator[list[RingBoard]]:
    made: list[RingBoard] = []
    yield made
    for driver in made:
        driver.close()


@pytest.fixture
def connected(
    link: Path, sims: list[SimBoard], inbox: Inbox, drivers: list[RingBoard]
) -> tuple[SimBoard, RingBoard]:
    """A simulated board on the pty and a driver that has had its hello."""
    sim = SimBoard(link)
    sims.append(sim)
    board = RingBoard(str(link), inbox.put, **FAST)
    drivers.append(board)
    wait_for(lambda: board.device is not None)
    return sim, board


def ready_view() -> TableView:
    return TableView(clock=ClockState())


# --- over the pty ---------------------------------------------------------------------


def test_hello_and_button_edges_arrive_as_button_edges(
    connected: tuple[SimBoard, RingBoard], inbox: Inbox
) -> None:
    sim, board = connected
    assert board.device is not None
    assert (board.device.firmware, board.device.leds, board.device.buttons) == ("1.0.0", 16, "PJC")
    assert board.connected
    before = time.monotonic()
    sim.edge("P", True)
    sim.edge("P", False)
    sim.edge("J", True)
    wait_for(lambda: len(inbox.edges()) == 3)
    assert inbox.edges() == [(Button.PASS, True), (Button.PASS, False), (Button.JUDGE, True)]
    stamps = [e.at for e in inbox.items if isinstance(e, ButtonEdge)]
    assert all(before <= at <= time.monotonic() for at in stamps)  # stamped on receipt
    assert board.lost == 0


def test_show_sends_a_frame_only_when_the_ring_changes(
    connected: tuple[SimBoard, RingBoard], inbox: Inbox
) -> None:
    sim, board = connected
    now = time.monotonic()
    for i in range(20):
        board.show(ready_view(), now + i * 0.05)
    wait_for(lambda: sim.frames("R") and sim.frames("R")[-1][0] == "1000")
    time.sleep(0.3)
    assert sim.frames("R")[-1] == ["1000", "38", "38", "38", "0", "0"]  # full, dim white
    sent = len(sim.frames("R"))
    clock = MoveClock()
    clock.press(now)  # the game starts: 40 s, 16 LEDs x 8 steps -> a step every 0.31 s
    running = TableView(clock=clock.state)
    for i in range(10):  # after the press's tick, all within the first bar step
        board.show(running, now + TICK_LENGTH + i * 0.02)
    wait_for(lambda: len(sim.frames("R")) == sent + 1)
    assert sim.frames("R")[-1] == ["1000", "0", "255", "204", "0", "0"]  # full, turquoise
    board.show(running, now + 20.0)  # half the time gone
    wait_for(lambda: len(sim.frames("R")) == sent + 2)
    assert sim.frames("R")[-1][:2] == ["500", "0"]
    time.sleep(0.3)
    assert len(sim.frames("R")) == sent + 2
    assert sim.frames("B") == [["0", "0"]]  # silent from the start, no repeats


def test_garbage_and_cut_frames_on_the_line_are_skipped(
    connected: tuple[SimBoard, RingBoard], inbox: Inbox
) -> None:
    sim, board = connected
    sim.raw(b"\x00\xff\x03 Traceback (most recent call last):\r\n")
    sim.raw(proto.encode(200, "E", ["J", 1, 5])[:7])  # cut short
    sim.raw(b"$9 E P 1 5*00\n")  # bad checksum
    sim.raw(b"$9 E X 1 5*" + b"%02X\n" % proto.crc8(b"9 E X 1 5"))  # unknown button
    sim.edge("C", True)
    wait_for(inbox.edges)
    time.sleep(0.1)
    assert inbox.edges() == [(Button.CALL, True)]
    assert board.bad_frames == 2


def test_a_lost_release_is_put_from_the_heartbeat(
    connected: tuple[SimBoard, RingBoard], inbox: Inbox
) -> None:
    sim, board = connected
    sim.edge("P", True)
    wait_for(lambda: inbox.edges() == [(Button.PASS, True)])
    sim.mask = 0
    sim.seq += 1  # the release frame never made it
    sim.heartbeat()
    wait_for(lambda: inbox.edges() == [(Button.PASS, True), (Button.PASS, False)])
    assert board.lost == 1
    sim.mask = 0b10
    sim.heartbeat()  # held, but its press was lost: not replayed late
    time.sleep(0.2)
    assert len(inbox.edges()) == 2


def test_a_ring_frame_the_board_missed_is_sent_again(
    link: Path, sims: list[SimBoard], inbox: Inbox, drivers: list[RingBoard]
) -> None:
    sim = SimBoard(link)
    sims.append(sim)
    board = RingBoard(str(link), inbox.put, resend_after=0.05, **FAST)
    drivers.append(board)
    wait_for(lambda: board.device is not None)
    board.show(ready_view(), time.monotonic())
    wait_for(lambda: sim.frames("R") and sim.frames("R")[-1][0] == "1000")
    time.sleep(0.1)
    count = len(sim.frames("R"))
    sim.heartbeat(ring_seq=(sim.ring_seq - 1) % 256)  # "I still show an older frame"
    wait_for(lambda: len(sim.frames("R")) == count + 1)
    assert sim.frames("R")[-1] == sim.frames("R")[-2]


def test_unplug_and_replug_does_not_crash_and_resumes(
    link: Path, sims: list[SimBoard], connected: tuple[SimBoard, RingBoard], inbox: Inbox
) -> None:
    sim, board = connected
    board.show(ready_view(), time.monotonic())
    wait_for(lambda: sim.frames("R") and sim.frames("R")[-1][0] == "1000")
    sim.edge("P", True)
    wait_for(lambda: inbox.edges() == [(Button.PASS, True)])

    sim.unplug()
    # The held button must not stay held (that would become a judge call).
    wait_for(lambda: inbox.edges() == [(Button.PASS, True), (Button.PASS, False)])
    wait_for(lambda: not board.connected)
    link.unlink()
    time.sleep(0.3)  # a few failed attempts with nothing at the path
    assert board._thread.is_alive()

    again = SimBoard(link)
    sims.append(again)
    wait_for(lambda: board.connections == 2)
    wait_for(lambda: again.frames("R"))  # the ring is restored without a new show()
    assert again.frames("R")[-1] == ["1000", "38", "38", "38", "0", "0"]
    again.edge("J", True)
    wait_for(lambda: inbox.edges()[-1:] == [(Button.JUDGE, True)])
    assert board.connected


def test_a_silent_port_is_pinged_and_not_connected(
    link: Path, sims: list[SimBoard], inbox: Inbox, drivers: list[RingBoard]
) -> None:
    sim = SimBoard(link, answer=False)
    sims.append(sim)
    board = RingBoard(str(link), inbox.put, **FAST)
    drivers.append(board)
    wait_for(lambda: len(sim.frames("P")) >= 3)
    assert not board.connected and board.device is None
    sim.answer = True
    wait_for(lambda: board.connected)


def test_close_darkens_and_silences_the_board(
    link: Path, sims: list[SimBoard], inbox: Inbox, drivers: list[RingBoard]
) -> None:
    sim = SimBoard(link)
    sims.append(sim)
    board = RingBoard(str(link), inbox.put, buzzer=BuzzerSettings(), tone=2000, **FAST)
    wait_for(lambda: board.device is not None)
    clock = MoveClock()
    start = time.monotonic()
    clock.press(start)
    board.show(TableView(clock=clock.state), start + 40.5)  # time is up: the long tone
    wait_for(lambda: sim.frames("B")[-1:] == [["1", "2000"]])
    board.close()
    assert not board._thread.is_alive()
    wait_for(lambda: sim.frames("B")[-1:] == [["0", "0"]])
    assert sim.frames("R")[-1] == ["0", "0", "0", "0", "0", "0"]
    board.close()  # twice is harmless


def test_a_missing_port_is_retried_until_it_appears(
    link: Path, sims: list[SimBoard], inbox: Inbox, drivers: list[RingBoard]
) -> None:
    board = RingBoard(str(link), inbox.put, **FAST)
    drivers.append(board)
    time.sleep(0.3)
    assert not board.connected
    sim = SimBoard(link)
    sims.append(sim)
    wait_for(lambda: board.connected)


# --- pure parts -----------------------------------------------------------------------


def test_ring_frame_from_signals() -> None:
    assert ring_frame(Signals(bar=1.0, status=(0.15, 0.15, 0.15), buzzer=False)) == RingFrame(
        1000, (38, 38, 38)
    )
    assert ring_frame(Signals(bar=0.5, status=(1.0, 0.45, 0.0), buzzer=False)) == RingFrame(
        500, (255, 115, 0)
    )
    assert ring_frame(Signals(bar=0.0001, status=(1.0, 0.0, 0.0), buzzer=False)).level == 1
    # Dark either way: a bar moving under an unlit colour is no change.
    assert ring_frame(Signals(bar=0.7, status=(0.0, 0.0, 0.0), buzzer=False)) == DARK
    assert ring_frame(Signals(bar=0.0, status=(1.0, 0.0, 0.0), buzzer=False)) == DARK


def test_buzz_from_signals() -> None:
    assert buzz(Signals(0.0, (0.0, 0.0, 0.0), buzzer=False, tone=None), 2000) == SILENT
    assert buzz(Signals(0.0, (0.0, 0.0, 0.0), buzzer=True, tone=440.0), 2000) == Buzz(True, 440)
    assert buzz(Signals(0.0, (0.0, 0.0, 0.0), buzzer=True), 2000) == Buzz(True, 2000)
    assert buzz(Signals(0.0, (0.0, 0.0, 0.0), buzzer=True)) == Buzz(True, 0)


def test_ready_and_game_over_views() -> None:
    over = ClockState(phase=Phase.GAME_OVER)
    board = RingBoard("/nonexistent", lambda item: None, start=False)
    board.show(TableView(clock=over), 0.0)
    assert board._want_ring == DARK
    board.show(ready_view(), 0.0)
    assert board._want_ring == RingFrame(1000, (38, 38, 38))
    board.close()


def test_find_port_prefers_by_id(tmp_path: Path) -> None:
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    acm = tmp_path / "ttyACM1"
    acm.touch()
    pico = SimpleNamespace(device=str(acm), vid=0x2E8A, pid=0x0005)
    other = SimpleNamespace(device=str(tmp_path / "ttyUSB0"), vid=0x0403, pid=0x6001)
    assert find_port(str(by_id), list) is None
    assert find_port(str(by_id), lambda: [other]) is None
    assert find_port(str(by_id), lambda: [other, pico]) == str(acm)
    (by_id / "usb-Raspberry_Pi_Pico_E6614C-if00").symlink_to(acm)
    assert find_port(str(by_id), lambda: [other, pico]) == str(
        by_id / "usb-Raspberry_Pi_Pico_E6614C-if00"
    )
    (by_id / "usb-2E8A_0005_ring-if00").symlink_to(tmp_path / "elsewhere")
    assert find_port(str(by_id), list) == str(by_id / "usb-2E8A_0005_ring-if00")

"""The table unit's loop: the single owner of a table's state.

Inputs (GPIO callbacks, keyboard, terminal, the MQTT link, bots) only ``put``
values on :attr:`TableUnit.inbox`; this loop takes them one at a time, applies
them to the pure controls and clock, records the resulting events in the
journal *before* the link publishes them, and renders every output device from
one immutable :class:`~tablekit.view.TableView`.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import msgspec

from tablekit.clock import AnyClockEvent, ClockRules, LastLapSource, MoveClock, Phase
from tablekit.controls import ButtonEdge, JudgeAction, TableControls
from tablekit.seats import Seat
from tablekit.view import TableView

log = logging.getLogger(__name__)


class Output(Protocol):
    """Anything that renders the table: display, LEDs and buzzer, terminal."""

    def show(self, view: TableView, now: float) -> None: ...

    def close(self) -> None: ...


class Recorder(Protocol):
    """Durable event journal: events and the state they led to, in one commit."""

    def record(self, events: Sequence[AnyClockEvent], state: bytes) -> None: ...


class Uplink(Protocol):
    """The link to the hub; every method is thread-safe and returns at once."""

    def notify(self) -> None: ...

    def publish_state(self, view: TableView, now: float) -> None: ...


# --- inputs that are not button edges ----------------------------------------------


@dataclass(frozen=True)
class MenuChoice:
    """A judge-menu action chosen directly (a number key in the simulator)."""

    action: JudgeAction
    at: float


@dataclass(frozen=True)
class LinkStatus:
    online: bool
    at: float


@dataclass(frozen=True)
class Seating:
    """The hub's assignment for this table: who sits where, and the next game."""

    names: dict[Seat, str]
    game: int
    rules: ClockRules
    starter: Seat | None = None


@dataclass(frozen=True)
class RoundTimeOver:
    """The hub's broadcast: every table still playing starts its last lap."""

    at: float


@dataclass(frozen=True)
class Quit:
    pass


class TableUnit:
    def __init__(
        self,
        clock: MoveClock,
        *,
        table: int | None = None,
        outputs: Sequence[Output] = (),
        recorder: Recorder | None = None,
        uplink: Uplink | None = None,
        judge_hold: float = 1.5,
        call_hold: float = 3.0,
        fps: float = 15.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        self.clock = clock
        self.controls = TableControls(clock, judge_hold=judge_hold, call_hold=call_hold)
        self.outputs = list(outputs)
        self.recorder = recorder
        self.uplink = uplink
        self.frame = 1.0 / fps
        self.monotonic = monotonic
        online = None if uplink is None else False
        self.view = TableView(clock=clock.state, table=table, online=online)
        self.pending: Seating | None = None
        """An assignment that arrived mid-game; applied when the game is over."""
        self.running = True

    def put(self, item: object) -> None:
        """Thread-safe: hand an input to the loop."""
        self.inbox.put(item)

    # -- the loop ------------------------------------------------------------------

    def run(self) -> None:
        """Run until a :class:`Quit` arrives."""
        self.refresh(self.monotonic())
        while self.running:
            self.step()

    def step(self) -> None:
        """Wait for one input or the next frame/deadline, then update everything."""
        now = self.monotonic()
        timeout = self.frame
        deadline = self.clock.state.deadline()
        if deadline is not None:
            timeout = max(0.0, min(timeout, deadline - now))
        try:
            item: object | None = self.inbox.get(timeout=timeout)
        except queue.Empty:
            item = None
        while item is not None:
            self.handle(item)
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                item = None
        now = self.monotonic()
        self.apply(self.controls.tick(now), now)
        for output in self.outputs:
            output.show(self.view, now)

    def handle(self, item: object) -> None:
        """Apply one input."""
        now = self.monotonic()
        events: list[AnyClockEvent] = []
        match item:
            case ButtonEdge():
                events = self.controls.edge(item)
            case MenuChoice(action=action, at=at):
                events = self.controls.choose(action, at)
            case LinkStatus(online=online, at=at):
                offline_since = None if online else (self.view.offline_since or at)
                self.view = replace(self.view, online=online, offline_since=offline_since)
            case Seating():
                self.pending = item
            case RoundTimeOver(at=at):
                events = self.clock.start_last_lap(at, LastLapSource.HUB)
            case Quit():
                self.running = False
            case _:
                log.warning("ignored unknown input %r", item)
        self.apply(events, now)

    def apply(self, events: list[AnyClockEvent], now: float) -> None:
        """Record events durably, then refresh the view and tell the link."""
        self._take_pending_seating()
        if events:
            if self.recorder is not None:
                self.recorder.record(events, state=msgspec.json.encode(self.clock.state))
            if self.uplink is not None:
                self.uplink.notify()
            for event in events:
                log.info("%s", event)
        self.refresh(now, changed=bool(events))

    def refresh(self, now: float, changed: bool = True) -> None:
        view = replace(
            self.view,
            clock=self.clock.state,
            menu=self.controls.menu,
            message=self.controls.message,
        )
        if view != self.view or changed:
            self.view = view
            if self.uplink is not None:
                self.uplink.publish_state(view, now)

    def _take_pending_seating(self) -> None:
        """Apply the hub's seating between games, never in the middle of one.

        A retained assignment is delivered again after every reconnect and
        reboot: it starts a game only if it is not behind the clock.
        """
        seating = self.pending
        state = self.clock.state
        if seating is None or state.phase in (Phase.RUNNING, Phase.TIME_UP):
            return
        self.pending = None
        self.view = replace(self.view, names=dict(seating.names))
        ahead = seating.game > state.game
        if ahead or (state.phase is Phase.READY and seating.game == state.game):
            self.clock.prepare(seating.rules, seating.game, seating.starter)

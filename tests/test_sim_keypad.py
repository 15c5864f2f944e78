"""The result keypad end to end in the simulator: pygame key events → the unit → the screen.

A real :class:`~tablekit.unit.TableUnit` with the simulator's window output
(:class:`tablekit.app.WindowOutput`: a real ``TableScreen`` and real ``WindowKeys``) on
the dummy video driver. Keys are posted as pygame events and reach the unit only the way
they do in the simulator: the loop's ``show`` pumps them through ``WindowKeys``. A fake
journal records the events, a fake uplink stands in for the hub, whose seating and verdicts
are put on the unit's queue as the link puts them. Each step is saved as a PNG under
artifacts/display/sim-keypad/ and the window must show exactly what a fresh drawing of the
unit's view shows.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pygame
import pytest

from tablekit.app import WindowOutput
from tablekit.config import DisplaySettings, UnitConfig
from tablekit.controls import JudgeAction
from tablekit.core.clock import ClockRules, MoveClock, Phase
from tablekit.core.clock_events import GameOver, GameStarted, MovePassed
from tablekit.core.messages import AssignedRules, Assignment, ResultAck, SeatAssignment
from tablekit.core.result import ResultSubmitted
from tablekit.core.seats import Seat
from tablekit.display import render_surface
from tablekit.layout.compose import compose
from tablekit.layout.scene import Text
from tablekit.result_entry import Step
from tablekit.unit import LinkStatus, TableUnit, UnitEvent
from tablekit.view import TableView

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "artifacts" / "display" / "sim-keypad"
SIZE = (480, 320)
JUDGE_HOLD = 0.2
NAMES = {
    Seat.A: "Anna Kowalska",
    Seat.B: "Bartłomiej Wiśniewski",
    Seat.C: "Celina Żak",
    Seat.D: "Dariusz Lewandowski",
}
KEYS = {
    **{str(n): getattr(pygame, f"K_KP{n}") for n in range(10)},
    "ENTER": pygame.K_KP_ENTER,
    "BACKSPACE": pygame.K_BACKSPACE,
    "-": pygame.K_KP_MINUS,
    "*": pygame.K_KP_MULTIPLY,
    "+": pygame.K_KP_PLUS,
}


class Journal:
    def __init__(self) -> None:
        self.events: list[UnitEvent] = []

    def record(self, events: Sequence[UnitEvent], state: bytes) -> None:
        self.events += events

    def results(self) -> list[ResultSubmitted]:
        return [e for e in self.events if isinstance(e, ResultSubmitted)]


class Hub:
    """The uplink: the unit tells it about new events and publishes its state."""

    def __init__(self) -> None:
        self.notified = 0
        self.views: list[TableView] = []

    def notify(self) -> None:
        self.notified += 1

    def publish_state(self, view: TableView, now: float) -> None:
        self.views.append(view)


class Sim:
    """The unit and its window; the test drives the loop's steps itself."""

    def __init__(self) -> None:
        self.journal = Journal()
        self.hub = Hub()
        rules = ClockRules(seats=4, move_seconds=40, lockout=0.0)
        self.unit = TableUnit(
            MoveClock(rules),
            table=7,
            recorder=self.journal,
            uplink=self.hub,
            judge_hold=JUDGE_HOLD,
            fps=200,
            language="en",
        )
        config = UnitConfig(display=DisplaySettings(width=SIZE[0], height=SIZE[1]))
        self.window = WindowOutput(config, self.unit, keys=True)
        self.unit.outputs = [self.window]
        self.shots: list[Path] = []
        self.unit.put(LinkStatus(online=True, at=time.monotonic()))
        seats = tuple(SeatAssignment(seat=seat, name=name) for seat, name in NAMES.items())
        rules_000 = AssignedRules(move_seconds=rules.move_seconds, ruleset="000")
        self.unit.put(Assignment(v=1, table=7, game=1, seats=seats, rules=rules_000))
        self.settle()

    def settle(self) -> None:
        """Run the loop until the posted keys went through WindowKeys, the unit and the
        screen: one step pumps them into the queue, the next handles and draws them."""
        for _ in range(3):
            self.unit.step()
        assert pygame.event.peek((pygame.KEYDOWN, pygame.KEYUP)) is False
        assert self.unit.inbox.empty()

    def key(self, key: int, down: bool = True) -> None:
        kind = pygame.KEYDOWN if down else pygame.KEYUP
        assert pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))

    def tap(self, key: int) -> None:
        self.key(key, True)
        self.key(key, False)

    def type(self, keys: str) -> None:
        """Keypad keys, e.g. ``"23 + ENTER"`` (digits one by one), then settle."""
        for word in keys.split():
            for name in [word] if word in KEYS and len(word) > 1 else list(word):
                self.tap(KEYS[name])
        self.settle()

    def press_pass(self) -> None:
        self.key(pygame.K_SPACE, True)
        self.settle()
        self.key(pygame.K_SPACE, False)
        self.settle()
        time.sleep(0.06)  # the next press must not look like this release bouncing

    def hold_judge_key(self) -> None:
        self.key(pygame.K_j, True)
        self.settle()
        time.sleep(JUDGE_HOLD + 0.1)
        self.settle()  # the loop's tick sees the key held past judge_hold
        self.key(pygame.K_j, False)
        self.settle()

    @property
    def view(self) -> TableView:
        return self.unit.view

    @property
    def entry_step(self) -> Step:
        assert self.view.entry is not None
        return self.view.entry.step

    def shot(self, name: str) -> pygame.Surface:
        """Save what the window shows; it must equal a fresh drawing of the unit's view."""
        picture = self.window.screen.snapshot()
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{len(self.shots):02d}-{name}.png"
        pygame.image.save(picture, str(path))
        self.shots.append(path)
        fresh = render_surface(self.view, time.monotonic(), SIZE)
        assert pygame.image.tobytes(picture, "RGB") == pygame.image.tobytes(fresh, "RGB"), name
        return picture

    def panel_texts(self, name: str) -> list[str]:
        scene = compose(self.view, time.monotonic(), self.window.screen.layout)
        [found] = [p for p in scene if p.name == name]
        return [i.text for i in found.items if isinstance(i, Text) and i.text]

    def close(self) -> None:
        self.window.close()


@pytest.fixture
def sim() -> Iterator[Sim]:
    for path in SHOTS.glob("*.png"):
        path.unlink()
    s = Sim()
    yield s
    s.close()


def test_keypad_result_entry_end_to_end(sim: Sim) -> None:
    started = time.monotonic()
    assert sim.view.name(Seat.C) == "Celina Żak" and sim.view.online is True

    # --- a short game: four passes, then the judge ends it through the menu ----------
    for _ in range(4):
        sim.press_pass()
    assert sim.view.clock.phase is Phase.RUNNING and sim.view.clock.move == 4
    sim.shot("playing")
    sim.hold_judge_key()
    menu = sim.view.menu
    assert menu is not None and JudgeAction.END_GAME in menu.actions
    sim.shot("judge-menu")
    sim.type(str(menu.actions.index(JudgeAction.END_GAME) + 1))  # a digit chooses in the menu
    assert sim.view.menu is None
    assert sim.view.clock.phase is Phase.GAME_OVER
    assert sim.entry_step is Step.TILES and sim.view.state_word == "ENTERING RESULT"
    kinds = [type(e) for e in sim.journal.events]
    assert kinds.count(GameStarted) == 1 and kinds.count(MovePassed) == 3
    assert kinds[-1] is GameOver
    sim.shot("enter-seat-a")

    # --- every seat on the keypad; C mistyped (71 for 17), D mistyped then erased -----
    sim.type("23")
    assert sim.panel_texts("entry-buffer") == ["23"]
    sim.shot("a-typed")
    sim.type("ENTER 0 ENTER")  # A: 23, no joker; B went out
    sim.type("71 +")  # C: 71 and a joker, in the same step
    assert sim.entry_step is Step.TILES and sim.view.entry is not None
    assert sim.view.entry.seat is Seat.C
    assert sim.panel_texts("entry-buffer") == ["+1 joker", "71"]
    sim.shot("c-jokers")
    sim.type("ENTER 318")
    assert sim.panel_texts("entry-buffer") == ["318"]
    sim.shot("d-mistyped")
    sim.type("BACKSPACE")
    assert sim.panel_texts("entry-buffer") == ["31"]
    sim.type("ENTER")
    assert sim.entry_step is Step.CONFIRM
    entry = sim.view.entry
    assert entry is not None and entry.score is not None
    assert entry.score.for_seat(Seat.C).rack_value == 71 + 50  # the mistyped value, for now
    sim.shot("confirm-mistyped")

    # The table sees C's 71 on the score screen and corrects it before confirming.
    sim.type("3")
    assert sim.entry_step is Step.TILES and sim.view.entry is not None
    assert sim.view.entry.seat is Seat.C
    assert "ENTER alone keeps 71 +1 joker" in sim.panel_texts("entry-ask")
    sim.type("17 +")
    sim.shot("c-corrected")
    sim.type("ENTER")
    assert sim.entry_step is Step.CONFIRM

    # --- every seat confirms in turn --------------------------------------------------
    for seat in (Seat.A, Seat.B):
        assert sim.view.entry is not None and sim.view.entry.seat is seat
        sim.type("ENTER")
    assert sim.view.entry is not None and sim.view.entry.confirmed == (Seat.A, Seat.B)
    assert " ".join(sim.panel_texts("entry-prompt")) == (
        "Seat C — Celina Żak: press ENTER to confirm"
    )
    sim.shot("confirm-c")
    assert sim.journal.results() == []  # nothing goes before the whole table confirmed
    sim.type("ENTER ENTER")
    assert sim.entry_step is Step.SUBMITTED
    [first] = sim.journal.results()
    assert first.game == 1 and first.move == 4 and not first.judge_override
    racks = first.report.racks
    assert [(r.seat, r.tiles, r.jokers) for r in racks] == [
        (Seat.A, 23, 0),
        (Seat.B, 0, 0),
        (Seat.C, 17, 1),  # the corrected value, not the mistyped 71
        (Seat.D, 31, 0),
    ]
    assert sim.view.state_word == "RESULT SENT"
    sim.shot("sent")

    # --- the hub rejects it; the table corrects seat D and sends again -----------------
    reason = "table 7: seat D's rack was counted as 13 by the judge"
    sim.unit.put(ResultAck(v=1, unit="table-07", game=1, accepted=False, reason=reason))
    sim.settle()
    assert sim.entry_step is Step.REJECTED and sim.view.state_word == "RESULT REFUSED"
    assert reason in " ".join(sim.panel_texts("entry-status"))
    sim.shot("rejected")
    sim.type("4 13 ENTER")
    assert sim.entry_step is Step.CONFIRM
    assert sim.view.entry is not None and sim.view.entry.confirmed == ()
    sim.type("ENTER ENTER ENTER ENTER")
    assert sim.entry_step is Step.SUBMITTED
    first_again, second = sim.journal.results()
    assert first_again == first
    assert [(r.seat, r.tiles, r.jokers) for r in second.report.racks] == [
        (Seat.A, 23, 0),
        (Seat.B, 0, 0),
        (Seat.C, 17, 1),
        (Seat.D, 13, 0),
    ]
    sim.shot("sent-again")

    # --- accepted ------------------------------------------------------------------------
    sim.unit.put(ResultAck(v=1, unit="table-07", game=1, accepted=True))
    sim.settle()
    final = sim.view
    assert final.state_word == "RESULT IN"
    assert final.entry is not None and final.entry.step is Step.ACCEPTED
    assert final.entry.confirmed == (Seat.A, Seat.B, Seat.C, Seat.D)
    score = final.entry.score
    assert score is not None and score.winners == (Seat.B,)
    # A 23, C 17 + a joker (50), D 13: B scores their sum, the others minus their racks
    assert [(s.seat, s.small, s.big) for s in score.scores] == [
        (Seat.A, -23, 0),
        (Seat.B, 103, 1),
        (Seat.C, -67, 0),
        (Seat.D, -13, 0),
    ]
    assert sim.panel_texts("entry-status") == ["Result in", "Game 1 is recorded at the hub"]
    table = sim.panel_texts("entry-table")
    assert "+103" in table and "−13" in table
    sim.shot("accepted")
    assert sim.hub.views[-1] == final  # the hub heard the last state
    # keys after the hub accepted change nothing that was sent
    sim.type("2 ENTER")
    assert sim.entry_step is Step.ACCEPTED and len(sim.journal.results()) == 2
    assert [p.name for p in sim.shots] == [
        "00-playing.png",
        "01-judge-menu.png",
        "02-enter-seat-a.png",
        "03-a-typed.png",
        "04-c-jokers.png",
        "05-d-mistyped.png",
        "06-confirm-mistyped.png",
        "07-c-corrected.png",
        "08-confirm-c.png",
        "09-sent.png",
        "10-rejected.png",
        "11-sent-again.png",
        "12-accepted.png",
    ]
    print(f"\nkeypad PNGs: {SHOTS}/")
    assert time.monotonic() - started < 10

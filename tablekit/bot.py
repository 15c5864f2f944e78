"""Simulated players: press the unit's buttons at human-like random intervals.

Used by the demo and the tests. A bot only puts button edges on the unit's
inbox, exactly like the GPIO callbacks, and reads the unit's latest view to
decide what a person at the table would do next: the hall check before the first
round, the moves, the table's own keys (``*`` empty rack, ``-`` bank empty) and the
result, one step per seat.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from tablekit.controls import Button, ButtonEdge, JudgeAction
from tablekit.core.clock import Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.hallcheck import CheckStep, CheckView
from tablekit.core.scoring import GameEnding
from tablekit.core.seats import Seat
from tablekit.result_entry import EntryView, Step
from tablekit.unit import KeyPress, MenuChoice
from tablekit.view import TableView


@dataclass(frozen=True)
class BotStyle:
    """How a table of simulated players behaves; ``pace`` scales every duration."""

    pace: float = 1.0
    median_move: float = 12.0
    """Median seconds a move takes (log-normal spread)."""
    timeout_chance: float = 0.04
    judge_chance: float = 0.01
    """Chance per move that the judge is called and pauses the clock."""
    moves_per_game: tuple[int, int] = (40, 90)
    last_lap_chance: float = 0.3
    """Chance that a game ends by the bank running empty instead of a player going out."""
    judge_hold: float = 1.5
    """The unit's judge-key hold time: the bot holds a little longer to open the menu."""
    games: int | None = None
    """Stop after this many games (None: play on until stopped)."""
    start_games: bool = True
    """Start the next game from the judge menu; False when the hub's assignments do (and
    nobody presses before the hub has seated the table)."""


_TYPING = frozenset({Step.TILES, Step.CONFIRM, Step.REJECTED})


class TableBot:
    def __init__(
        self,
        put: Callable[[object], None],
        view: Callable[[], TableView],
        style: BotStyle | None = None,
        seed: int | None = None,
    ) -> None:
        self.put = put
        self.view = view
        self.style = style or BotStyle()
        self.rng = random.Random(seed)
        self.stop_event = threading.Event()
        self.presses = 0
        self.games_started = 0
        self._racks: dict[Seat, tuple[int, int]] = {}
        """The racks left at the end of the game whose result is being typed."""
        self._thread = threading.Thread(target=self._run, name="table-bot", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.stop_event.set()
        self._thread.join(timeout=5)

    # -- behaviour ---------------------------------------------------------------------

    def _run(self) -> None:
        moves_left = self._game_length()
        while not self.stop_event.is_set():
            v = self.view()
            c = v.clock
            if v.check is not None:
                self._hall_check(v.check)
            elif c.paused is not None:
                self._sleep(self._human(3.0, 12.0))
                self._tap(Button.JUDGE)  # the judge settles it and resumes
            elif c.phase is Phase.READY:
                if self.style.games is not None and self.games_started >= self.style.games:
                    return
                if not self.style.start_games and not v.names:
                    self._sleep(0.2)  # no seating yet: the players wait for the draw
                    continue
                self._sleep(self._human(1.0, 3.0))
                self._press_pass()
                self.games_started += 1
                moves_left = self._game_length()
            elif c.phase is Phase.GAME_OVER:
                entry = v.entry
                if entry is not None and entry.step in _TYPING and not entry.final:
                    self._enter_result(v)
                    continue
                if entry is not None and entry.step is not Step.ACCEPTED and not entry.final:
                    self._sleep(0.2)  # waiting for the hub's answer
                    continue
                if self.style.games is not None and self.games_started >= self.style.games:
                    return
                if not self.style.start_games or v.games.done:
                    self._sleep(0.2)  # the hub's next assignment starts the next game
                    continue
                self._sleep(self._human(3.0, 6.0))
                self._judge_action(JudgeAction.START_GAME)
                self.games_started += 1
                moves_left = self._game_length()
            elif c.phase is Phase.TIME_UP:
                self._sleep(self._human(2.0, 8.0))  # carrying out the penalty
                self._press_pass()
            else:
                moves_left -= 1
                self._play_move(v, moves_left)

    def _hall_check(self, check: CheckView) -> None:
        """Go through the unit's hall check as the person setting up the hall would."""
        self._sleep(self._human(0.3, 1.0))
        if check.step is CheckStep.JUDGE:
            self._tap(Button.JUDGE)
        elif check.step is CheckStep.KEYPAD:
            self._type(str(check.table or 0))
            self._key("enter")
        else:  # the pass button: "here", "I see the lights", "I hear it", "done"
            self._tap(Button.PASS)

    def _play_move(self, v: TableView, moves_left: int) -> None:
        style, rng = self.style, self.rng
        move_seconds = v.clock.rules.move_seconds
        if moves_left <= 0 and v.clock.last_lap_left is None:
            if rng.random() < style.last_lap_chance:
                self._table_key("-")  # the bank is empty: the last lap
            else:
                self._sleep(self._human(3.0, 10.0))
                self._table_key("*")  # the rack is empty: the game is over
                return
        if rng.random() < style.timeout_chance:
            think = move_seconds + 0.3
        else:
            think = min(
                rng.lognormvariate(0.0, 0.6) * style.median_move * style.pace, move_seconds * 0.9
            )
        if not self._sleep(think):
            return
        state = self.view().clock
        if state.phase is Phase.RUNNING and state.paused is None:
            self._press_pass()
            if rng.random() < style.judge_chance:
                self._sleep(self._human(0.5, 2.0))
                self._tap(Button.JUDGE)

    def _enter_result(self, v: TableView) -> None:
        """Type on the keypad the rack of the seat the display asks for (or confirm the
        score), as the players would, then wait until the display has moved on: a busy
        unit may show the step before for a while, and typing again from what it showed
        would run two seats' digits together."""
        entry = v.entry
        assert entry is not None
        if entry.step is Step.CONFIRM or entry.step is Step.REJECTED:
            self._key("enter")
            self._wait_for_entry(lambda e: e != entry)
            return
        seat = entry.seat
        if seat is None:
            return
        fresh = all(r.tiles is None for r in entry.racks)  # a new result
        if fresh or not self._racks_fit(entry):  # or one typed before a restart
            self._racks = self._racks_for(entry)
        tiles, jokers = self._racks[seat]
        for _ in range(len(entry.buffer) + entry.jokers_typed):
            self._key("backspace")  # what the display still shows from before
        if self.rng.random() < 0.05 and tiles > 9:  # a slip of the finger, corrected
            self._type(str(tiles + 1))
            self._key("backspace")
            self._key("backspace")
        self._type(str(tiles))
        for _ in range(jokers):
            self._key("+")
        self._key("enter")
        self._wait_for_entry(lambda e: e.step is not Step.TILES or e.seat != seat)
        self._sleep(self._human(1.0, 3.0))

    def _racks_fit(self, entry: EntryView) -> bool:
        """The racks the bot holds are the ones the entry shows typed so far."""
        return bool(self._racks) and all(
            self._racks.get(r.seat) == (r.tiles, r.jokers or 0)
            for r in entry.racks
            if r.tiles is not None
        )

    def _racks_for(self, entry: EntryView) -> dict[Seat, tuple[int, int]]:
        """The racks left: those the entry has typed (a unit restarted mid-entry asks for
        the rest), the others dealt so that the game's ending holds (one empty rack when a
        player went out, if none typed is) and the table's two jokers are not exceeded."""
        seats = tuple(r.seat for r in entry.racks)
        typed = {
            r.seat: (r.tiles, r.jokers or 0)
            for r in entry.racks
            if r.tiles is not None and r.seat != entry.seat  # the one asked for is dealt
        }
        if not typed:
            return self._deal_racks(seats, entry.ending)
        left = [s for s in seats if s not in typed]
        racks: dict[Seat, tuple[int, int]] = {s: (self.rng.randint(1, 45), 0) for s in left}
        went_out = entry.ending is GameEnding.WENT_OUT
        if went_out and left and not any(tiles == 0 for tiles, _ in typed.values()):
            racks[self.rng.choice(left)] = (0, 0)
        return {**racks, **typed}

    def _deal_racks(
        self, seats: tuple[Seat, ...], ending: GameEnding
    ) -> dict[Seat, tuple[int, int]]:
        """(tiles, jokers) each seat has left: one empty rack when a player went out."""
        rng = self.rng
        winner = rng.randrange(len(seats)) if ending is GameEnding.WENT_OUT else -1
        racks: dict[Seat, tuple[int, int]] = {}
        for i, seat in enumerate(seats):
            tiles = 0 if i == winner else rng.randint(1, 45)
            racks[seat] = (tiles, 0 if tiles == 0 else int(rng.random() < 0.08))
        return racks

    def _wait_for_entry(self, moved_on: Callable[[EntryView], bool], timeout: float = 10.0) -> None:
        """Until the unit shows the result entry moved on (or gone), at most ``timeout``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self.stop_event.is_set():
            entry = self.view().entry
            if entry is None or moved_on(entry):
                return
            self._sleep(0.02)

    def _table_key(self, key: str) -> None:
        """A table action on the keypad, confirmed with ENTER once the display asks."""
        self._key(key)
        self._sleep(self._human(0.5, 1.5))
        self._key("enter")

    def _type(self, digits: str) -> None:
        for digit in digits:
            self._key(digit)

    def _key(self, key: str) -> None:
        self.put(KeyPress(key, time.monotonic()))
        self._sleep(0.03)

    def _game_length(self) -> int:
        low, high = self.style.moves_per_game
        return self.rng.randint(low, high)

    def _human(self, low: float, high: float) -> float:
        """A person's pause of between low and high seconds, scaled by the pace."""
        return self.rng.uniform(low, high) * self.style.pace

    # -- button helpers ------------------------------------------------------------------

    def _sleep(self, seconds: float) -> bool:
        """False when the bot is being stopped."""
        return not self.stop_event.wait(seconds)

    def _edge(self, button: Button, pressed: bool) -> None:
        self.put(ButtonEdge(button, pressed, time.monotonic()))

    def _tap(self, button: Button) -> None:
        self._edge(button, True)
        self._sleep(0.05)
        self._edge(button, False)
        self._sleep(0.05)  # let the unit take it before the bot looks again

    def _press_pass(self) -> None:
        self.presses += 1
        self._tap(Button.PASS)

    def _judge_action(self, action: JudgeAction) -> None:
        """Hold the judge key to open the menu, choose (or close it when the action is not
        offered), then resume the clock."""
        self._edge(Button.JUDGE, True)
        self._sleep(self.style.judge_hold + 0.1)
        self._edge(Button.JUDGE, False)
        menu = self.view().menu
        offered = menu is None or action in menu.actions
        self.put(MenuChoice(action if offered else JudgeAction.CLOSE, time.monotonic()))
        self._sleep(0.1)
        if self.view().clock.paused is PauseReason.JUDGE:
            self._tap(Button.JUDGE)

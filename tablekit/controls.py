"""What the table's buttons mean: raw edges in, clock commands out (pure).

The pass button, the judge key and the optional call-judge button only report
edges with their timestamps; this module turns them into clock commands:

* pass press: end the move (the clock applies the lockout against double slams);
  held for ``call_hold`` seconds right after a pass: a player's judge call.
* judge key press: pauses at once; a short press while paused resumes.
  Held for ``judge_hold`` seconds: opens the judge menu. In the menu the pass
  button steps to the next action and a judge-key press carries it out.
* call-judge button: a player's judge call.

The keypad (when no result is being typed) gives the table its own game actions, each
asked once more on the display and carried out by ENTER (any other key or a button
press answers no): ``*`` a player shows an empty rack — the game is over and result
entry opens; ``-`` the bank is empty — the last lap starts. The judge menu keeps both
for disputes. Before a game (READY) a digit 1–4 chooses the seat that starts it (1 = A);
the judge menu's "Starting seat: next" does the same on a unit without a keypad.

While a hall check runs (:mod:`tablekit.core.hallcheck`) every press and key goes to it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Final

import msgspec

from tablekit.core.clock import ClockError, MoveClock, Phase
from tablekit.core.clock_events import AnyClockEvent, LastLapSource, MovePassed, PauseReason
from tablekit.core.hallcheck import HallCheck, HallChecked
from tablekit.core.roundgames import RoundGames
from tablekit.core.scoring import GameEnding, Opening
from tablekit.core.seats import next_seat
from tablekit.core.words import N_
from tablekit.notes import NOTHING, Note
from tablekit.result_entry import EntryView, Key, ResultEntry, Step

ControlEvent = AnyClockEvent | HallChecked
"""What the controls produce: the clock's events and a hall check's outcome."""

_JUDGED_STEPS = frozenset({Step.TILES, Step.CONFIRM, Step.REJECTED})
"""Result-entry steps where the judge's decisions still apply."""

DEFAULT_SETTLE = 0.05
"""A press this soon after the same button's release is contact bounce, not a press."""
DEFAULT_JUDGE_HOLD = 1.5
DEFAULT_CALL_HOLD = 3.0


class Button(enum.StrEnum):
    PASS = "pass"
    JUDGE = "judge"
    CALL = "call"
    """The optional small call-judge button."""


class ButtonEdge(msgspec.Struct, frozen=True):
    button: Button
    pressed: bool
    at: float


class TableAsk(enum.StrEnum):
    """A game action the players took at the table, waiting for their ENTER."""

    END_GAME = N_("Empty rack: end the game")
    LAST_LAP = N_("Bank empty: start the last lap")


_LAST_LAP_PLAYED: Final = Note.of(N_("The last lap is already being played"))

_NOT_DONE: Final = {
    TableAsk.END_GAME: N_("Not done: empty rack: end the game"),
    TableAsk.LAST_LAP: N_("Not done: bank empty: start the last lap"),
}
"""What the display says when the players answer "no" to a table action."""

TABLE_KEYS: Final = {"*": TableAsk.END_GAME, "-": TableAsk.LAST_LAP}
"""Keypad keys (as :class:`tablekit.unit.KeyPress` names them) of the table's actions."""


class JudgeAction(enum.StrEnum):
    """A judge-menu action; its value is its words in English, marked for the catalogs
    (the display shows them translated: :func:`action_words`)."""

    RESUME = N_("Resume the clock")
    RESTART_MOVE = N_("Restart this move")
    UNDO_PASS = N_("Undo last pass")
    LAST_LAP = N_("Start last lap")
    END_GAME = N_("End game: empty rack")
    START_GAME = N_("Start next game")
    NEXT_STARTER = N_("Starting seat: next")
    """Before a game: the following seat starts it instead (a unit without a keypad)."""
    HALL_CHECK = N_("Hall check: test this unit")
    ACCEPT_RESULT = N_("Accept result for the table")
    COULD_HAVE_OPENED = N_("This seat could have opened: penalty")
    """The could-have-opened penalty of the ruleset (200 in every source document)."""
    WAIVE_PENALTY = N_("This seat announced opening: waive")
    SWITCH_ENDING = N_("Switch: went out / nobody out")
    CLOSE = N_("Close menu")


def _keys_that_work(paused: bool, last_lap: bool) -> Note:
    """What the keypad does now, for a key that does nothing: only what works (a pause takes
    no key; in the last lap the bank is empty already)."""
    if paused:
        return Note.of(N_("The clock is stopped: the keys work again when the judge resumes"))
    if last_lap:
        return Note.of(N_("Keys: * empty rack (game over)"))
    return Note.of(N_("Keys: * empty rack (game over) · - bank empty (last lap)"))


def action_words(action: JudgeAction | TableAsk) -> str:
    """The action's words in English as marked for the catalogs (the shell translates)."""
    return action.value


@dataclass(frozen=True)
class JudgeMenu:
    actions: tuple[JudgeAction, ...]
    selected: int = 0
    note: Note = NOTHING
    """Why an action the judge may look for is not offered (the game's result is with the
    hub; the round's games are played)."""

    @property
    def current(self) -> JudgeAction:
        return self.actions[self.selected]

    def step(self) -> JudgeMenu:
        return JudgeMenu(self.actions, (self.selected + 1) % len(self.actions), self.note)


@dataclass
class _Held:
    since: float
    passed: bool = False
    """The press that began this hold was an accepted pass."""
    fired: bool = False


@dataclass
class TableControls:
    """Interprets button edges for one table; owns the judge menu state."""

    clock: MoveClock
    judge_hold: float = DEFAULT_JUDGE_HOLD
    call_hold: float = DEFAULT_CALL_HOLD
    settle: float = DEFAULT_SETTLE
    menu: JudgeMenu | None = None
    entry: ResultEntry | None = None
    """The result being typed after the game, if any (its one owner: the unit loop opens,
    resumes and closes it here): the keypad types it, the judge decides its 200s."""
    said: Note = NOTHING
    """A short line for the display, e.g. why a judge action was refused (the display
    says it in the reader's language; :attr:`message` is the English)."""
    ask: TableAsk | None = None
    """A table action asked on the display: ENTER carries it out, anything else drops it."""
    table: int | None = None
    """The unit's table number (the hall check asks for it on the keypad)."""
    check: HallCheck | None = None
    """The hall check in progress or just done (its results shown until a press)."""
    held: Note = NOTHING
    """The unit holds the table for the judge, saying this (put back from an older copy of
    its journal): the pass button and the keys only say it, a judge-key press ends it."""
    round_games: RoundGames = field(default_factory=RoundGames)
    """The round's games and the results the hub holds (the hub's assignment): a game
    whose result is at the hub is never reopened, a game the round does not have (or one
    already recorded) never started."""
    _down: dict[Button, _Held] = field(default_factory=dict)
    _judge_paused_now: bool = False
    _released: dict[Button, float] = field(default_factory=dict)

    def edge(self, e: ButtonEdge) -> list[ControlEvent]:
        # Holds and expiry up to the edge's own time first: a loop that ticked late
        # must not turn a long hold into a short press.
        events: list[ControlEvent] = list(self.tick(e.at))
        if self.check is not None:
            if e.pressed:
                events += self._check_press(self.check, e.button, e.at)
            else:
                self._released[e.button] = e.at
            return events
        if e.pressed and self.held:
            if e.button is Button.JUDGE:
                self.held = self.said = NOTHING  # the judge has come: the table goes on
            else:
                self.said = self.held
            return events
        if e.pressed:
            self.said = NOTHING  # a new press: the table has seen the last message
            self.ask = None  # a button answers "no" to a table action asked
            if e.button is Button.PASS and e.at - self._released.get(e.button, -1e9) < self.settle:
                return events  # the release of a long press bouncing (the lockout is over)
            return events + self._press(e.button, e.at)
        self._released[e.button] = e.at
        held = self._down.pop(e.button, None)
        if e.button is Button.JUDGE and held is not None and not held.fired:
            if self.menu is not None:
                return events + self._choose(self.menu.current, e.at)
            if not self._judge_paused_now:
                return events + self.clock.resume(e.at)
        return events

    @property
    def message(self) -> str:
        """What :attr:`said` says, in English."""
        return str(self.said)

    @property
    def entry_view(self) -> EntryView | None:
        """What the display shows of the result being typed (None: none is)."""
        return None if self.entry is None else self.entry.view

    def key(self, key: str, now: float) -> list[ControlEvent]:
        """A keypad key: the result being typed after a game, else the table's own game
        actions; :class:`ValueError` for a key the keypad does not have."""
        if self.held:
            self.said = self.held
            return []
        if self.entry is not None:
            self.entry.press(Key(key.upper()))
            return []
        events: list[ControlEvent] = list(self.tick(now))
        self.said = NOTHING
        if self.check is not None:
            if self.check.done:
                self.check = None  # the results were seen
            else:
                done = self.check.key(key, now)
                events += [done] if done is not None else []
            return events
        ask, self.ask = self.ask, None
        if self.menu is not None:
            return events  # the judge's: a digit chooses an action (the key readers)
        if ask is not None:
            if key != "enter":
                self.said = Note.of(_NOT_DONE[ask])
                return events
            try:
                return [*events, *self._table_action(ask, now)]
            except ClockError as err:
                self.said = Note.of_words(err)
                return events
        wanted = TABLE_KEYS.get(key)
        s = self.clock.state
        if s.phase is Phase.READY and key.isdigit():
            self._choose_starter(int(key))
        elif wanted is None:
            if s.phase in (Phase.RUNNING, Phase.TIME_UP):
                self.said = _keys_that_work(s.paused is not None, s.last_lap_left is not None)
        elif s.phase not in (Phase.RUNNING, Phase.TIME_UP):
            self.said = Note.of(
                N_("{action}: no game is in progress"), action=Note.of(wanted.value)
            )
        elif s.paused is not None:
            self.said = Note.of(
                N_("{action}: the clock is paused — the judge decides"),
                action=Note.of(wanted.value),
            )
        elif wanted is TableAsk.LAST_LAP and s.last_lap_left is not None:
            self.said = _LAST_LAP_PLAYED
        else:
            self.ask = wanted
        return events

    def tick(self, now: float) -> list[AnyClockEvent]:
        events = self.clock.tick(now)
        judge = self._down.get(Button.JUDGE)
        if judge is not None and not judge.fired and now - judge.since >= self.judge_hold:
            judge.fired = True
            events += self.clock.pause(now)
            if self.menu is None:  # held again with the menu open: keep the selection
                self.menu = JudgeMenu(self.available_actions(), note=self.menu_note())
        s = self.clock.state
        if self.ask is not None and (
            s.phase not in (Phase.RUNNING, Phase.TIME_UP) or s.paused is not None
        ):
            self.ask = None  # the game ended or paused meanwhile: nothing left to ask
        held = self._down.get(Button.PASS)
        if (
            held is not None
            and held.passed
            and not held.fired
            and now - held.since >= self.call_hold
        ):
            held.fired = True
            events += self.clock.call_judge(now, since=held.since)
        return events

    def start_check(self, now: float) -> None:
        """Begin the hall check (between games only: the clock must be READY)."""
        state = self.clock.state
        if state.phase is not Phase.READY:
            self.said = Note.of(N_("Hall check: only before a game starts"))
            return
        self.ask = None
        self.check = HallCheck(self.table, state.game, now)

    def choose(self, action: JudgeAction, now: float) -> list[AnyClockEvent]:
        """Carry out a judge action directly (the simulator's number keys)."""
        if self.menu is None or action not in self.menu.actions:
            return []
        return self._choose(action, now)

    def available_actions(self) -> tuple[JudgeAction, ...]:
        s = self.clock.state
        actions: list[JudgeAction] = []
        if s.phase in (Phase.RUNNING, Phase.TIME_UP):
            actions += [JudgeAction.RESUME, JudgeAction.RESTART_MOVE]
            if s.undo:
                actions.append(JudgeAction.UNDO_PASS)
            if s.last_lap_left is None:
                actions.append(JudgeAction.LAST_LAP)
            actions.append(JudgeAction.END_GAME)
        else:
            entry = self.entry_view
            if entry is not None and entry.step in _JUDGED_STEPS and not entry.final:
                actions += [
                    JudgeAction.ACCEPT_RESULT,
                    JudgeAction.COULD_HAVE_OPENED,
                    JudgeAction.WAIVE_PENALTY,
                    JudgeAction.SWITCH_ENDING,
                ]
            if s.phase is Phase.GAME_OVER and s.undo and not self.result_with_hub():
                actions.append(JudgeAction.UNDO_PASS)
            playable = self.next_game() is not None
            if s.phase is Phase.READY:
                actions += [JudgeAction.NEXT_STARTER] if playable else []
                actions.append(JudgeAction.HALL_CHECK)
            if playable:
                actions.append(JudgeAction.START_GAME)
        actions.append(JudgeAction.CLOSE)
        return tuple(actions)

    def result_with_hub(self) -> bool:
        """The game over is closed at the table: its result is at the hub (the table's or
        a judge's), on its way there, or refused for good; a correction is the hub's."""
        s = self.clock.state
        if s.phase is not Phase.GAME_OVER:
            return False
        entry = self.entry_view
        return self.round_games.holds(s.game) or (entry is not None and entry.closed)

    def next_game(self) -> int | None:
        """The game the table may start now: the one it is ready for, or after a game the
        next one the round has without a result at the hub; None: none (every game of the
        round is played, or in play)."""
        s = self.clock.state
        if s.phase is Phase.READY:
            return s.game if self.round_games.playable(s.game) else None
        if s.phase is Phase.GAME_OVER:
            return self.round_games.next_after(s.game)
        return None

    def menu_note(self) -> Note:
        """Why the judge menu offers no undo or no next game, when it does not."""
        s = self.clock.state
        if s.phase in (Phase.RUNNING, Phase.TIME_UP):
            return NOTHING
        if self.round_games.done:
            return Note.of(
                N_("All {games} games of this round are played; corrections are made at the "
                   "hub"),
                games=self.round_games.games,
            )
        if self.result_with_hub():
            return Note.of(
                N_("Game {game}: its result is with the hub; corrections are made at the hub"),
                game=s.game,
            )
        if self.next_game() is None:
            return Note.of(N_("Game {game}: its result is at the hub already"), game=s.game)
        return NOTHING

    # -- internals ------------------------------------------------------------------

    def _press(self, button: Button, now: float) -> list[AnyClockEvent]:
        if button is Button.JUDGE:
            self._down[Button.JUDGE] = _Held(since=now)
            events = [] if self.menu is not None else self.clock.pause(now)
            self._judge_paused_now = bool(events)
            return events
        if button is Button.CALL:
            return self.clock.call_judge(now)
        if self.menu is not None:
            self.menu = self.menu.step()
            return []
        s = self.clock.state
        if s.phase is Phase.READY and s.paused is None and self.next_game() is None:
            self.said = self.menu_note()  # the round has no game left to start here
            return []
        events = self.clock.press(now)
        self._down[Button.PASS] = _Held(
            since=now, passed=any(isinstance(e, MovePassed) for e in events)
        )
        return events

    def _check_press(self, check: HallCheck, button: Button, now: float) -> list[ControlEvent]:
        if check.done:
            self.check = None  # a press after the results: back to the table's screen
            return []
        if button is Button.PASS:
            done = check.pass_button(now)
        elif button is Button.JUDGE:
            done = check.judge_key(now)
        else:
            return []
        return [done] if done is not None else []

    def _choose_starter(self, number: int) -> None:
        seats = self.clock.state.seats
        if not 1 <= number <= len(seats):
            self.said = Note.of(
                N_("Starting seat: press 1–{n} for seat A–{last}"), n=len(seats), last=seats[-1]
            )
            return
        self.clock.choose_starter(seats[number - 1])
        self.said = NOTHING

    def _table_action(self, ask: TableAsk, now: float) -> list[AnyClockEvent]:
        if ask is TableAsk.END_GAME:
            return self.clock.end_game(now)
        events = self.clock.start_last_lap(now, LastLapSource.TABLE)
        if not events:
            self.said = _LAST_LAP_PLAYED
        return events

    def _choose(self, action: JudgeAction, now: float) -> list[AnyClockEvent]:
        self.menu = None
        self.said = NOTHING
        try:
            return self._carry_out(action, now)
        except ClockError as err:
            self.said = Note.of_words(err)
            return []

    def _carry_out(self, action: JudgeAction, now: float) -> list[AnyClockEvent]:
        clock = self.clock
        match action:
            case JudgeAction.RESUME:
                return clock.resume(now)
            case JudgeAction.RESTART_MOVE:
                return clock.restart_move(now)
            case JudgeAction.UNDO_PASS:
                events = clock.undo_pass(now)
                if clock.state.paused is None and clock.state.phase is not Phase.READY:
                    events += clock.pause(now, PauseReason.JUDGE)
                return events
            case JudgeAction.LAST_LAP:
                return clock.start_last_lap(now, LastLapSource.TABLE)
            case JudgeAction.END_GAME:
                return clock.end_game(now)
            case JudgeAction.START_GAME:
                game = self.next_game()
                if game is None:
                    self.said = self.menu_note()
                    return []
                return clock.start_game(now, game)
            case JudgeAction.NEXT_STARTER:
                s = clock.state
                clock.choose_starter(next_seat(s.upcoming_starter, s.rules.seats))
                return []
            case JudgeAction.HALL_CHECK:
                self.start_check(now)
                return []
            case JudgeAction.CLOSE:
                return []
        entry = self.entry
        if entry is None:
            return []
        seat = entry.view.seat
        match action:
            case JudgeAction.ACCEPT_RESULT:
                entry.judge_override()
            case JudgeAction.COULD_HAVE_OPENED | JudgeAction.WAIVE_PENALTY if seat is not None:
                opening = (
                    Opening.COULD_HAVE_OPENED
                    if action is JudgeAction.COULD_HAVE_OPENED
                    else Opening.WAIVED
                )
                entry.judge_set_opening(seat, opening)
            case JudgeAction.SWITCH_ENDING:
                ending = entry.view.ending
                entry.judge_set_ending(
                    GameEnding.NOBODY_OUT if ending is GameEnding.WENT_OUT else GameEnding.WENT_OUT
                )
            case _:
                self.said = Note.of(N_("choose a seat first: the flow is not at a seat"))
        return []

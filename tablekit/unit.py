"""The table unit's loop: the single owner of a table's state.

Inputs (GPIO callbacks, keyboard, terminal, the MQTT link, bots) only ``put``
values on :attr:`TableUnit.inbox`; this loop takes them one at a time, applies
them to the pure controls and clock, records the resulting events in the
journal *before* the link publishes them, and renders every output device from
one immutable :class:`~tablekit.view.TableView`.

A unit plays one event at a time, the one its venue's hub announces
(:class:`~tablekit.core.messages.CurrentEvent`): when the hub names another, the loop
hands it to its follower (:class:`tablekit.app.EventFollower`), which gives the unit the
new event's journal and link (:meth:`TableUnit.begin`); everything of the event before
stays in that event's journal.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final, Protocol

import msgspec

from tablekit.controls import ButtonEdge, JudgeAction, TableControls
from tablekit.core.clock import ClockRules, ClockState, MoveClock, Phase
from tablekit.core.clock_events import (
    AnyClockEvent,
    GameEndReason,
    GameOver,
    GameStarted,
    LastLapSource,
)
from tablekit.core.hallcheck import HallChecked
from tablekit.core.messages import (
    Ack,
    Assignment,
    Broadcast,
    BroadcastKind,
    ConsoleLink,
    CurrentEvent,
    HallLanguage,
    HubStatus,
    Refusal,
    ResultAck,
)
from tablekit.core.result import ResultSubmitted
from tablekit.core.roundgames import RoundGames
from tablekit.core.rulesets import Ruleset, RulesetError, decode_with_retired_keys, get_ruleset
from tablekit.core.scoring import GameEnding
from tablekit.core.seats import Seat
from tablekit.core.topics import Cleared, Kind, reason_words
from tablekit.core.words import N_
from tablekit.notes import NOTHING, Note
from tablekit.result_entry import ASK_ABOVE, EntryView, ResultEntry, Step
from tablekit.shared import i18n
from tablekit.shared.i18n import DEFAULT_LANGUAGE
from tablekit.view import TableView

UnitEvent = AnyClockEvent | ResultSubmitted | HallChecked
"""Everything a unit journals and sends to the hub."""

log = logging.getLogger(__name__)


class Output(Protocol):
    """Anything that renders the table: display, LEDs and buzzer, terminal."""

    def show(self, view: TableView, now: float) -> None: ...

    def close(self) -> None: ...


class Recorder(Protocol):
    """Durable event journal: events and the state they led to, in one commit."""

    def record(self, events: Sequence[UnitEvent], state: bytes) -> object: ...


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
class KeyPress:
    """A key of the numeric keypad ("0"–"9", "enter", "backspace", "+", "-", "*", "/", "."):
    result entry after a game, the table's own actions (:data:`controls.TABLE_KEYS`) before."""

    key: str
    at: float


@dataclass(frozen=True)
class LinkStatus:
    online: bool
    at: float


class TableAssignment(msgspec.Struct, frozen=True):
    """The hub's assignment for this table: who sits where, and the next game."""

    names: dict[Seat, str]
    game: int
    rules: ClockRules
    starter: Seat | None = None
    round: int = 0
    ruleset: Ruleset | None = None
    """Scoring rules for result entry; None keeps the unit's own."""
    games: RoundGames = RoundGames()
    """The round's games and which results the hub holds: learnt at once from every
    assignment of the round, not only between games."""


class SavedUnit(msgspec.Struct, frozen=True):
    """What the journal keeps of the unit with every event, to resume after a restart."""

    clock: ClockState
    seating: TableAssignment | None = None
    broadcasts: tuple[int, ...] = ()
    """Ids of the hub broadcasts already applied (the latest few): each applies once."""
    entry: EntryView | None = None
    """The result being typed after the game, so a restart keeps what the players typed."""
    time_over: int = 0
    """The round whose time is over (the hub's last-lap broadcast): a game started in it
    plays only its last lap."""
    language: str = ""
    """The hall's language as the hub last set it ("": not yet, the config's counts), so a
    unit restarted while the hub is out of reach goes on in the event's language."""


BROADCASTS_KEPT = 32
RESULT_SHOWN = 3.0
"""Seconds the table sees that the hub accepted its result before the next game's screen
takes its place (a key or a button press goes on at once)."""
BEAT_INTERVAL = 1.0
"""Seconds between two saves of the clock while a move runs."""
BEAT_CHARGE = 1.5
"""Seconds a save charges the running move ahead of time: one beat, and half a beat more
for a loop that saves late (a busy Pi). A crash before the next save then never gives time
back — the restored move has at most what the player really had; the time the unit was
down is not charged (it resumes paused)."""

_saved_decoder = msgspec.json.Decoder(SavedUnit)


@dataclass(frozen=True)
class Unassigned:
    """No game at this table: the hub's idle assignment (or its assignment deleted)."""

    at: float


@dataclass(frozen=True)
class Language:
    """Speak ``code`` (``pl``, ``en``) from now on: the hall's language setting."""

    code: str


@dataclass(frozen=True)
class Heard:
    """``message``, as the link of ``event`` heard it: once the unit follows another event,
    what the old link had queued is dropped (it speaks of the event the unit left)."""

    event: str
    message: object


@dataclass(frozen=True)
class OlderCopy:
    """The hub holds seq ``held`` of the unit's journal, which has only numbered up to
    ``had``: the journal was put back from an older copy (the link tells the loop once)."""

    held: int
    had: int


@dataclass(frozen=True)
class Quit:
    pass


class Follower(Protocol):
    """What moves the unit to another event, or to a new journal of its event: its journal
    and link (:class:`tablekit.app.EventFollower`)."""

    def follow(self, event: str) -> None: ...

    def renew(self) -> None: ...


RESTORED: Final = Note.of(
    N_("This unit was put back from an older copy of its journal: the judge checks the "
       "table's game, then presses the judge key")
)
"""What a unit restored from an older copy of its journal says until the judge comes."""


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
        ruleset: Ruleset | None = None,
        language: str = DEFAULT_LANGUAGE,
        ask_rack_above: int = ASK_ABOVE,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """``ask_rack_above``: a rack total typed above it is asked once more (0: never)."""
        self.inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        self.clock = clock
        self.outputs = list(outputs)
        self.recorder = recorder
        self.uplink = uplink
        self.frame = 1.0 / fps
        self.monotonic = monotonic
        self._table = table
        self._holds = (judge_hold, call_hold)
        self._rules = clock.rules
        """The clock's rules before any seating (a new event starts with them)."""
        self._language = i18n.language(language)
        """The unit's own language (its config's), until the hall's is set."""
        self._ruleset = ruleset or get_ruleset("000")
        self.ask_rack_above = ask_rack_above
        self.event = ""
        """The event the unit plays, its journal's ("": none, a unit without a hub or one
        the hub has not told its event yet)."""
        self.follower: Follower | None = None
        self.next_event = ""
        """The event the hub announced, until the unit follows it."""
        self.running = True
        self._start_over()

    def _start_over(self) -> None:
        """Everything the unit knows of an event forgotten: the state of a new unit."""
        judge_hold, call_hold = self._holds
        self.controls = TableControls(
            self.clock, judge_hold=judge_hold, call_hold=call_hold, table=self._table
        )
        online = None if self.uplink is None else False
        self.view = TableView(
            clock=self.clock.state, table=self._table, online=online, language=self._language
        )
        self.pending: TableAssignment | None = None
        """An assignment that arrived mid-game; applied when the game is over."""
        self.seating: TableAssignment | None = None
        self.broadcasts: tuple[int, ...] = ()
        self.time_over = 0
        self.hall_language = ""
        """The hall's language as the hub last set it ("": not yet); journalled."""
        self.ruleset = self._ruleset
        self._saved_entry: EntryView | None = None
        self.unsaved: list[UnitEvent] = []
        """Events the journal could not take yet (kept in order, retried every frame)."""
        self._last_save = -BEAT_INTERVAL
        self._shown_until = 0.0
        """Until then the accepted result stays on screen (a pending seating waits)."""

    def begin(self, event: str, recorder: Recorder, saved: bytes | None) -> None:
        """Play ``event`` from now on, journalling in ``recorder`` (that event's journal,
        whose last saved state is ``saved``): the unit resumes from that state, or starts
        as a new unit (no seating; the hall check once a link is attached), with nothing
        of the event it played before. The link is :meth:`attach`'s."""
        self.event = event
        self.recorder = recorder
        self.uplink = None
        self.clock.state = ClockState(rules=self._rules)
        self._start_over()
        if saved is not None:
            self.restore(saved, self.monotonic())

    def put(self, item: object) -> None:
        """Thread-safe: hand an input to the loop."""
        self.inbox.put(item)

    def set_language(self, code: str) -> None:
        """Thread-safe: speak ``code`` (``pl``, ``en`` or a locale name) from the next
        frame on, in the middle of a game too; nothing else changes. The loop applies it
        (:class:`Language`); a language the kit does not speak is logged and the unit
        keeps its own."""
        self.put(Language(code))

    @property
    def language(self) -> str:
        """The language the unit speaks now (``pl`` or ``en``)."""
        return self.view.language

    def attach(self, uplink: Uplink) -> None:
        """Connect the hub link (made after the unit: it needs :meth:`put`).

        A unit the hub has never seated (a hall before its first round) starts the hall
        check; the first seating from the hub takes its place.
        """
        self.uplink = uplink
        if self.seating is None and self.pending is None and not self.controls.held:
            self.controls.start_check(self.monotonic())
        self.view = replace(self.view, online=False)

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
            try:
                self.handle(item)
            except Exception:  # one bad input must never stop a table's clock
                log.exception("input %r failed", item)
                self.controls.said = Note.of(
                    N_("could not apply {input}; see the log"), input=type(item).__name__
                )
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                item = None
        self._follow_next_event()
        now = self.monotonic()
        self.apply(self.controls.tick(now), now)
        self._beat(now)
        for output in self.outputs:
            output.show(self.view, now)

    def handle(self, item: object) -> None:
        """Apply one input."""
        now = self.monotonic()
        events: list[UnitEvent] = []
        match item:
            case Heard(event=event, message=message):
                if event == self.event:  # else it speaks of an event the unit left
                    self.handle(message)
                return
            case CurrentEvent(event=event):
                self.next_event = event
            case OlderCopy():
                self._restored(item)
            case ButtonEdge(pressed=True) | KeyPress() if self._showing_result(now):
                self._shown_until = 0.0  # seen: the next game's screen may come
            case ButtonEdge():
                events = list(self.controls.edge(item))
            case MenuChoice(action=action, at=at):
                events = list(self.controls.choose(action, at))
            case KeyPress(key=key, at=at):
                events = list(self.controls.key(key, at))
            case Assignment(idle=True) | Unassigned():
                self.pending = None
                self.view = replace(self.view, names={})
                self.controls.said = Note.of(N_("No game at this table"))
            case Assignment():
                seating = self._seating_of(item)
                self._learn_games(seating, now)
                self.pending = seating
            case ResultAck():
                self._verdict(item, now)
            case Broadcast():
                events = self._broadcast(item, now)
            case Ack() | HubStatus():
                pass  # the link's business
            case Refusal(seq=seq, code=code, reason=reason):
                # the link has set the event aside in the journal; the judge must see it
                self.controls.said = Note.of(
                    N_("The hub refused event #{seq} — kept for the judge ({code}: {reason})"),
                    seq=seq,
                    code=code,
                    reason=Note.of_words(reason_words(reason)),
                )
            case Language(code=code):
                self._use_language(code)
            case ConsoleLink(url=url):
                self.view = replace(self.view, console_url=url)
            case Cleared(kind=Kind.CONSOLE):
                self.view = replace(self.view, console_url="")
            case HallLanguage(language=code):
                # the hub's setting (the event's language) takes the config's place
                if self._use_language(code) and code != self.hall_language:
                    self.hall_language = code
                    self._save(now, "the hall's language is not saved")
            case LinkStatus(online=online, at=at):
                offline_since = None if online else (self.view.offline_since or at)
                self.view = replace(self.view, online=online, offline_since=offline_since)
            case Quit():
                self.running = False
            case _:
                log.warning("ignored unknown input %r", item)
        self.apply(events, now)

    def _restored(self, older: OlderCopy) -> None:
        """The journal was an older copy: its clock and game are stale too. The unit goes
        on in a new journal epoch (nothing numbered again), with nothing of the old copy's
        state, held for the judge; the hub's retained assignment seats it again."""
        log.warning("put back from an older copy (the hub holds seq %d, it had %d)",
                    older.held, older.had)
        if self.follower is not None:
            self.follower.renew()
        self.hold_for_judge(RESTORED)

    def hold_for_judge(self, note: Note) -> None:
        """Nothing goes on at the table (the pass button and the keys only say ``note``)
        until the judge presses the judge key."""
        self.controls.held = note
        self.controls.check = None
        self.controls.said = note
        self.refresh(self.monotonic())

    def _follow_next_event(self) -> None:
        """Move to the event the hub announced, once the journal has every event of this
        one (a failing journal keeps the unit where it is until it is written again)."""
        event = self.next_event
        if not event or self.follower is None or self.unsaved:
            return
        self.next_event = ""
        if event != self.event:
            self.follower.follow(event)

    def apply(self, events: Sequence[UnitEvent], now: float) -> None:
        """Record events durably, then refresh the view and tell the link."""
        self._take_pending_seating(now)
        if self.time_over and any(isinstance(e, GameStarted) for e in events):
            current_round = self.seating.round if self.seating is not None else 0
            if self.time_over == current_round:  # started after the round's time: one lap
                events = [*events, *self.clock.start_last_lap(now, LastLapSource.HUB)]
        events = [*events, *self._follow_result_entry(events)]
        for event in events:
            log.info("%s", event)
        self._record(events)
        self.refresh(now, changed=bool(events))

    def _record(self, events: Sequence[UnitEvent]) -> None:
        """Journal the events (and the state they led to) before the link hears of them.

        If the journal cannot be written (a failing SD card, a full disk) the table plays
        on: the events wait here, in order, and go in with the next successful write.
        """
        pending = [*self.unsaved, *events]
        entry = self.controls.entry_view
        if self.recorder is None or not (pending or entry != self._saved_entry):
            self._saved_entry = entry
            return
        try:
            self.recorder.record(pending, state=self._saved(self.monotonic()))
            self._last_save = self.monotonic()
        except Exception as err:
            if not self.unsaved:
                log.exception("the journal cannot be written; %d events wait", len(pending))
            self.unsaved = pending
            self.controls.said = Note.of(
                N_("Journal write failed ({error}); retrying — call the judge"), error=str(err)
            )
            return
        if self.unsaved:
            log.warning("the journal is written again; %d waiting events saved", len(pending))
            self.controls.said = NOTHING
        self.unsaved = []
        self._saved_entry = entry
        if pending and self.uplink is not None:
            self.uplink.notify()

    def _saved(self, now: float) -> bytes:
        """What the journal keeps of the unit, the running move's time as of ``now``."""
        saved = SavedUnit(
            clock=self.clock.saved_at(now, charge=BEAT_CHARGE),
            seating=self.seating,
            broadcasts=self.broadcasts,
            entry=self.controls.entry_view,
            time_over=self.time_over,
            language=self.hall_language,
        )
        return msgspec.json.encode(saved)

    def _beat(self, now: float) -> None:
        """While a move runs, save the clock at least every :data:`BEAT_INTERVAL`, charged
        :data:`BEAT_CHARGE` ahead: a crash then never gives time back
        (:meth:`MoveClock.recover`)."""
        state = self.clock.state
        if self.recorder is None or self.unsaved or now - self._last_save < BEAT_INTERVAL:
            return
        if state.phase is not Phase.RUNNING or state.paused is not None:
            return
        self._last_save = now
        self._save(now, "the move's time is not saved")

    def _save(self, now: float, lost: str) -> None:
        """Save the unit's state with no event (``lost``: what a failing journal loses)."""
        if self.recorder is None or self.unsaved:
            return  # saved with the events waiting for the journal
        try:
            self.recorder.record([], state=self._saved(now))
        except Exception:
            log.exception("the journal cannot be written; %s", lost)

    def refresh(self, now: float, changed: bool = True) -> None:
        view = replace(
            self.view,
            clock=self.clock.state,
            menu=self.controls.menu,
            ask=self.controls.ask,
            check=None if self.controls.check is None else self.controls.check.view,
            message=self.controls.message,
            said=self.controls.said,
            entry=self.controls.entry_view,
            games=self.controls.round_games,
            held=bool(self.controls.held),
        )
        if view != self.view or changed:
            self.view = view
            if self.uplink is not None:
                self.uplink.publish_state(view, now)

    def _take_pending_seating(self, now: float) -> None:
        """Apply the hub's seating between games, never in the middle of one, nor while
        the table's result is on its way to the hub or its acceptance is being shown.

        A retained assignment is delivered again after every reconnect and
        reboot: it starts a game only if it is not behind the clock. A new seating (a new
        round, other players, after no game at the table) clears what the unit had said
        about the old one.
        """
        seating = self.pending
        state = self.clock.state
        if seating is None or state.phase in (Phase.RUNNING, Phase.TIME_UP):
            return
        entry = self.controls.entry_view
        previous = self.seating
        same_round = previous is not None and seating.round == previous.round
        waiting = entry is not None and entry.step is Step.SUBMITTED
        if (same_round and waiting) or self._showing_result(now):
            return
        self.pending = None
        self.controls.check = None  # seated: the hall is past its check
        was_idle = not self.view.names
        self.view = replace(self.view, names=dict(seating.names))
        if seating.ruleset is not None:
            self.ruleset = seating.ruleset
        self.seating = seating
        self.controls.round_games = seating.games
        if previous is not None and seating == previous:
            return
        if was_idle or not same_round or previous is None or seating.names != previous.names:
            # what was said belonged to the old seating (a hold for the judge stays)
            self.controls.said = self.controls.held
        later_round = previous is not None and seating.round > previous.round
        ahead = later_round or seating.game > state.game
        if not seating.games.playable(seating.game):
            return  # every game of the round has its result: none to set up
        if ahead or (state.phase is Phase.READY and seating.game == state.game):
            self.clock.prepare(seating.rules, seating.game, seating.starter)
            self.controls.entry = None

    def _showing_result(self, now: float) -> bool:
        """The table is being shown that the hub accepted its result."""
        entry = self.controls.entry_view
        accepted = entry is not None and entry.step is Step.ACCEPTED
        return accepted and now < self._shown_until

    def _learn_games(self, seating: TableAssignment, now: float) -> None:
        """What an assignment of the round being played says of its games, at once: the
        results the hub holds. A result the table sent is accepted; one a judge entered at
        the hub for the game the table is playing ends that game here (and one for a later
        game is said)."""
        current = self.seating
        if current is None or seating.round != current.round:
            return  # a new round: learnt with its seating, between games
        before = current.games
        self.seating = msgspec.structs.replace(current, games=seating.games)
        self.controls.round_games = seating.games
        state = self.clock.state
        entry = self.controls.entry
        for game in seating.games.newly_recorded(before):
            if game < state.game:
                continue  # played here already
            if entry is not None and entry.view.game == game and entry.view.step in (
                Step.SUBMITTED, Step.ACCEPTED,
            ):
                if entry.view.step is Step.SUBMITTED:
                    self._accepted(entry, now)
                continue
            said = Note.of(N_("The judge entered the result of game {game} at the hub"), game=game)
            if game == state.game and state.phase in (Phase.RUNNING, Phase.TIME_UP):
                self.clock.close(now)
                said = Note.of(
                    N_("The judge entered the result of game {game} at the hub: this game is "
                       "over"),
                    game=game,
                )
            elif game == state.game and state.phase is Phase.GAME_OVER:
                self.controls.entry = None  # nothing to type: the hub has it
            self.controls.said = said
        self._save(now, "the results the hub holds are not saved")

    def _accepted(self, entry: ResultEntry, now: float) -> None:
        """The hub holds the table's result: shown for :data:`RESULT_SHOWN` seconds."""
        entry.mark_accepted()
        self._shown_until = now + RESULT_SHOWN

    def restore(self, saved: bytes, now: float) -> None:
        """Resume from the journal's last state: the clock waits for the judge."""
        unit = decode_with_retired_keys(_saved_decoder, saved)
        self.clock.state = unit.clock
        recovered = self.clock.recover(now)
        self.seating = unit.seating
        self.broadcasts = unit.broadcasts
        self.time_over = unit.time_over
        if unit.language and self._use_language(unit.language):
            self.hall_language = unit.language
        if unit.seating is not None:
            self.view = replace(self.view, names=dict(unit.seating.names))
            self.ruleset = unit.seating.ruleset or self.ruleset
            self.controls.round_games = unit.seating.games
        state = self.clock.state
        if state.phase is Phase.GAME_OVER and unit.entry is not None:
            self.controls.entry = ResultEntry.resume(unit.entry, ask_above=self.ask_rack_above)
        elif state.phase is Phase.GAME_OVER and state.ended_by is not None:
            self._open_entry(state.game, state.ended_by)
        self._saved_entry = unit.entry
        self.apply(recovered, now)

    # -- messages from the hub --------------------------------------------------------------

    def _use_language(self, code: str) -> bool:
        """Speak ``code`` from now on; False (and logged) when the kit does not speak it."""
        try:
            language = i18n.language(code)
        except i18n.LanguageError as err:
            log.warning("kept %s: %s", self.view.language, err)
            return False
        if language != self.view.language:
            log.info("language: %s", language)
            self.view = replace(self.view, language=language)
        return True

    def _seating_of(self, a: Assignment) -> TableAssignment:
        ruleset = a.rules.scoring
        if ruleset is None and a.rules.ruleset:
            try:
                ruleset = get_ruleset(a.rules.ruleset)
            except RulesetError:
                log.warning("assignment names ruleset %r this unit does not know", a.rules.ruleset)
        move_seconds = a.rules.move_seconds
        lockout = min(self.clock.rules.lockout, move_seconds / 2)  # a very short clock still runs
        rules = ClockRules(seats=len(a.seats), move_seconds=move_seconds, lockout=lockout)
        assert a.game is not None  # only an idle assignment has none
        return TableAssignment(
            names=a.names(), game=a.game, rules=rules, starter=a.starter, round=a.round,
            ruleset=ruleset, games=a.round_games(),
        )

    def _broadcast(self, b: Broadcast, now: float) -> list[UnitEvent]:
        current_round = self.seating.round if self.seating is not None else b.round
        if b.id in self.broadcasts or b.round not in (0, current_round):
            return []  # applied before, or a retained broadcast of an earlier round
        self.broadcasts = (*self.broadcasts, b.id)[-BROADCASTS_KEPT:]
        match b.kind:
            case BroadcastKind.LAST_LAP:
                self.time_over = current_round
                return list(self.clock.start_last_lap(now, LastLapSource.HUB))
            case BroadcastKind.START_ROUND:
                # The organizer's own text is shown as written.
                self.controls.said = (
                    Note(b.text)
                    if b.text
                    else Note.of(N_("Round {round} has started"), round=b.round)
                )
            case BroadcastKind.MESSAGE:
                self.controls.said = Note(b.text)
        return []

    # -- result entry -----------------------------------------------------------------------

    def _follow_result_entry(self, events: Sequence[UnitEvent]) -> list[UnitEvent]:
        """Open the entry when a game ends; submit it once the table has confirmed."""
        for event in events:
            if isinstance(event, GameOver):
                self._open_entry(event.game, event.reason)
        if self.clock.state.phase is not Phase.GAME_OVER:
            self.controls.entry = None  # a new game, or an undo took the game back
        entry = self.controls.entry
        if entry is None or entry.view.step is not Step.READY or entry.report is None:
            return []
        submitted = ResultSubmitted(
            game=entry.view.game,
            move=self.clock.state.move,
            report=entry.report,
            judge_override=entry.view.judge_override,
            round=self.seating.round if self.seating is not None else 0,
        )
        entry.mark_submitted()
        if self.uplink is None:
            entry.mark_accepted()  # no hub: the journal is the record
        return [submitted]

    def _open_entry(self, game: int, reason: GameEndReason) -> None:
        ending = GameEnding.WENT_OUT if reason is GameEndReason.WENT_OUT else GameEnding.NOBODY_OUT
        self.controls.entry = ResultEntry(
            game, self.clock.state.seats, self.ruleset, ending, ask_above=self.ask_rack_above
        )

    def _verdict(self, verdict: ResultAck, now: float) -> None:
        """The hub's answer to the table's submitted result for ``game`` of ``round``."""
        entry = self.controls.entry
        current_round = self.seating.round if self.seating is not None else 0
        if entry is None or (verdict.round, verdict.game) != (current_round, entry.view.game):
            return  # an answer about another game (a retained one of an earlier round, say)
        step = entry.view.step
        if verdict.accepted and step is not Step.ACCEPTED:
            if step is not Step.SUBMITTED:
                # Entered by the judge at the hub, or sent before this unit restarted.
                self.controls.entry = None
                self.controls.said = Note.of(
                    N_("game {game}: result recorded at the hub"), game=verdict.game
                )
                return
            self._accepted(entry, now)
        elif not verdict.accepted and step is Step.SUBMITTED:
            entry.mark_rejected(verdict.reason, _why(verdict), final=verdict.final)
        elif not verdict.accepted and step is not Step.ACCEPTED and not entry.view.final:
            # Sent before this unit restarted: show why, the table is entering it again.
            self.controls.said = Note.of(
                N_("the hub refused game {game}: {reason}"),
                game=verdict.game,
                reason=_why(verdict) or Note.of_words(reason_words(verdict.reason)),
            )


def _why(verdict: ResultAck) -> Note:
    """Why the hub refused a result, as words to say in the display's language (a hub of a
    release before them sends the English ``reason`` alone: nothing here)."""
    return Note.of_words(verdict.why.phrase()) if verdict.why is not None else NOTHING

"""The hub screen's MQTT feed: retained table and hub messages folded into a HallView.

Two parts, like the rest of the kit:

* :class:`HallTracker` — pure. Folds decoded messages, each with the hub wall time it
  arrived, into the screen's model (:class:`hub.hall.HallView`). Snapshots and statuses
  go through :class:`hub.live.LiveView` (which also estimates a unit's clock skew);
  the tracker adds what only the screen needs: names from the assignments, the game
  within the round, since when a table is paused, the pace of its game, whether
  its result is in, and whether the hub has stored what the unit sent (the units'
  events against the hub's acks: a table whose events wait longer than
  :data:`hub.hall.BEHIND_AFTER` is behind).
* :class:`ScreenFeed` — the shell. A paho client whose network thread only decodes
  and queues; the screen's loop drains the queue into the tracker (one owner of
  state). Bad payloads are logged and counted, never raised. At a venue it logs in
  with a read-only account (``screen``, see :mod:`hub.credentials`); a refused login
  is logged with the broker's reason, counted (``refused``) and retried, never raised.

Topics (``{base}`` = ``rummikub/v1/{venue}/{event}``), all retained, all defined in
:mod:`tablekit.core.topics` (:meth:`~tablekit.core.topics.Topics.screen_filters`):
``{base}/table/+/state`` and ``…/status`` (units), ``{base}/hub/table/+/assign`` and
``…/result`` (hub → units), and the four hub → screen messages ``{base}/hub/round``
(:class:`~tablekit.core.messages.RoundInfo`), ``{base}/hub/progress``
(:class:`~tablekit.core.messages.RoundProgress`: the tables that have finished the round),
``{base}/hub/standings`` (:class:`~tablekit.core.messages.StandingsBoard`) and
``{base}/hub/seating`` (:class:`~tablekit.core.messages.SeatingBoard`), and the hall's
language ``{base}/hub/language`` (:class:`~tablekit.core.messages.HallLanguage`: it sets the
screen's language, :meth:`HallTracker.set_language`) and the web console's address
``{base}/hub/console`` (:class:`~tablekit.core.messages.ConsoleLink`: the list pages' QR
code). Not retained:
``{base}/table/+/events`` and ``{base}/hub/table/+/ack``
(:meth:`~tablekit.core.topics.Topics.delivery_filters`), to see which tables are behind.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final

import paho.mqtt.client as mqtt

from hub.hall import BEHIND_AFTER, HallView, LinkLost, ResultState, TableCell
from hub.live import LiveView
from tablekit.core.clock import Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.codec import DecodeError
from tablekit.core.errors import Phrase
from tablekit.core.messages import (
    Ack,
    Assignment,
    ConsoleLink,
    EventEnvelope,
    HallLanguage,
    ResultAck,
    RoundInfo,
    RoundProgress,
    SeatingBoard,
    StandingsBoard,
    TableSnapshot,
    UnitStatus,
)
from tablekit.core.topics import Cleared, Kind, Topics, decode_retained, reason_words
from tablekit.shared import i18n
from tablekit.shared.broker import BrokerSettings, connect, disconnect, make_client
from tablekit.shared.i18n import DEFAULT_LANGUAGE

log = logging.getLogger("hub.screen.feed")

_FOLDED: Final = frozenset(
    {
        Kind.STATE, Kind.STATUS, Kind.ASSIGN, Kind.RESULT, Kind.ROUND, Kind.STANDINGS,
        Kind.SEATING, Kind.PROGRESS, Kind.EVENTS, Kind.ACK, Kind.LANGUAGE, Kind.CONSOLE,
    }
)
"""The topic kinds the screen folds into its view (it subscribes to nothing else)."""


def screen_client_id(username: str | None) -> str:
    """``rummikub-screen-{username}``: stable, so a reconnect replaces its own session;
    without a username a random one (the broker assigns it)."""
    return f"rummikub-screen-{username}" if username else ""


# --- the pure fold ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Pause:
    game: int
    reason: PauseReason
    since: float


@dataclass(frozen=True)
class _Pace:
    game: int
    since: float
    moves: int


@dataclass
class _Delivery:
    """One journal's events as the screen saw them sent, and the hub's acks of them."""

    sent: int = 0
    """The highest seq seen sent."""
    acked: int = 0
    waiting: deque[tuple[int, float]] = field(default_factory=deque)
    """(seq, wall time first seen) of the events sent and not acked, oldest first."""

    def send(self, seq: int, at: float) -> None:
        if seq > self.sent:  # a resend of an earlier seq keeps its first time
            self.sent = seq
            if seq > self.acked:
                self.waiting.append((seq, at))
        while len(self.waiting) > _WAITING_KEPT:
            self.waiting.popleft()

    def ack(self, upto: int) -> None:
        self.acked = upto  # below the earlier ack: a hub that lost events
        while self.waiting and self.waiting[0][0] <= upto:
            self.waiting.popleft()


_WAITING_KEPT: Final = 2000
"""Unacked events remembered per journal (the oldest one's time is what counts)."""


class HallTracker:
    """Folds decoded messages into a :class:`HallView` (pure; ``at`` = hub wall time)."""

    def __init__(
        self, title: str = "", hide_standings: bool = False, language: str = DEFAULT_LANGUAGE
    ) -> None:
        self.title = title
        self.hide_standings = hide_standings
        self.language = i18n.language(language)
        """The language the screen speaks (:meth:`set_language`)."""
        self.live = LiveView()
        self.assignments: dict[int, Assignment] = {}
        self.results: dict[int, ResultAck] = {}
        self.pauses: dict[int, _Pause] = {}
        self.paces: dict[int, _Pace] = {}
        self.deliveries: dict[int, dict[tuple[str, str], _Delivery]] = {}
        """Per table, per (unit, journal epoch): its events against the hub's acks."""
        self.seated_rounds: dict[int, int] = {}
        """Per table, the round of the latest assignment seen (kept when it is cleared)."""
        self.earlier_round: set[int] = set()
        """Tables seated for a new round whose clock still shows an earlier round's game:
        no game of the new round has ended there yet."""
        self.round: RoundInfo | None = None
        self.progress: RoundProgress | None = None
        self.standings: StandingsBoard | None = None
        self.seating: SeatingBoard | None = None
        self.console_url = ""
        """The web console's address (``hub/console``; "": none)."""
        self._view: HallView | None = None
        self._built_at = 0.0

    def apply(
        self, message: object, at: float, table: int | None = None, retained: bool = False
    ) -> None:
        """One decoded message; ``table`` is the topic's table (for a ResultAck);
        ``retained``: delivered because we subscribed, so possibly old."""
        self._view = None
        match message:
            case TableSnapshot():
                self._snapshot(message, at, retained)
            case UnitStatus():
                self.live = self.live.with_status(message, at)
            case Assignment(idle=True):
                self.assignments.pop(message.table, None)  # no game at this table
                self.seated_rounds[message.table] = message.round
            case Assignment():
                self._seat(message)
            case ResultAck() if table is not None:
                self.results[table] = message
            case EventEnvelope():
                journals = self.deliveries.setdefault(message.table, {})
                delivery = journals.setdefault((message.unit, message.epoch), _Delivery())
                delivery.send(message.seq, at)
            case Ack() if table is not None:
                acked = self.deliveries.get(table, {}).get((message.unit, message.epoch))
                if acked is not None:
                    acked.ack(message.upto)
            case Cleared(kind=Kind.ASSIGN, table=int(number)):
                self.assignments.pop(number, None)  # nobody plays there this round
            case Cleared(kind=Kind.RESULT, table=int(number)):
                self.results.pop(number, None)
            case Cleared(kind=Kind.ROUND):
                self.round = None  # the draw was taken back
            case Cleared(kind=Kind.PROGRESS):
                self.progress = None
            case Cleared(kind=Kind.STANDINGS):
                self.standings = None
            case Cleared(kind=Kind.SEATING):
                self.seating = None
            case RoundInfo():
                self.round = message
            case RoundProgress():
                self.progress = message
            case StandingsBoard():
                self.standings = message
            case SeatingBoard():
                self.seating = message
            case ConsoleLink():
                self.console_url = message.url
            case Cleared(kind=Kind.CONSOLE):
                self.console_url = ""
            case HallLanguage():
                try:
                    self.set_language(message.language)
                except i18n.LanguageError:  # a newer hub's language: keep the one we speak
                    log.warning("screen feed: the hall speaks %r, kept %s", message.language,
                                self.language)
            case _:
                pass

    def set_language(self, code: str) -> None:
        """Speak ``code`` (``pl``, ``en`` or a locale name such as ``pl_PL``) from the next
        frame on: the screen's one entry point for its language, called with the screen's
        ``--lang`` at the start and with the hall's language setting whenever it arrives.
        Raises :class:`tablekit.shared.i18n.LanguageError` for a language the kit does
        not speak (the screen keeps the one it has)."""
        code = i18n.language(code)
        if code != self.language:
            self.language = code
            self._view = None

    def _seat(self, assignment: Assignment) -> None:
        """A table's seating; one for a later round than its clock shows until the unit
        shows a game of it (a unit takes a new round's seating between games only)."""
        number = assignment.table
        before = self.seated_rounds.get(number)
        if before is not None and before != assignment.round:
            self.earlier_round.add(number)
        self.seated_rounds[number] = assignment.round
        self.assignments[number] = assignment
        self._take_round(number)

    def _take_round(self, number: int) -> None:
        """The table shows a game of its seating's round once its clock is at or before
        the hub's next game (a unit moving on to the round starts at that game)."""
        snap = self.live.table(number).snapshot
        assignment = self.assignments.get(number)
        if (
            number in self.earlier_round and snap is not None and assignment is not None
            and assignment.game is not None and snap.game <= assignment.game
        ):
            self.earlier_round.discard(number)

    def _snapshot(self, snap: TableSnapshot, at: float, retained: bool) -> None:
        self.live = self.live.with_snapshot(snap, at, retained=retained)
        self._take_round(snap.table)
        measured = snap.measured_at + self.live.table(snap.table).skew
        number = snap.table
        if snap.paused is None:
            self.pauses.pop(number, None)
        else:
            old = self.pauses.get(number)
            if old is None or (old.game, old.reason) != (snap.game, snap.paused):
                self.pauses[number] = _Pause(snap.game, snap.paused, min(measured, at))
        pace = self.paces.get(number)
        if snap.phase in (Phase.RUNNING, Phase.TIME_UP):
            if pace is None or pace.game != snap.game or snap.move < pace.moves:
                self.paces[number] = _Pace(snap.game, min(measured, at), snap.move)
        elif pace is not None and pace.game != snap.game:
            del self.paces[number]

    def view(self, now: float | None = None) -> HallView:
        """The view; with ``now``, built again when a table has become behind since."""
        if now is not None and self._view is not None:
            due = [at + BEHIND_AFTER for at in self._oldest_waiting().values()]
            if any(self._built_at < d <= now for d in due):
                self._view = None
        if self._view is None:
            self._built_at = time.time() if now is None else now
            self._view = self._build(self._built_at)
        return self._view

    def _oldest_waiting(self) -> dict[int, float]:
        """Per table, the wall time of the oldest event sent and not acked."""
        oldest: dict[int, float] = {}
        for number, journals in self.deliveries.items():
            times = [d.waiting[0][1] for d in journals.values() if d.waiting]
            if times:
                oldest[number] = min(times)
        return oldest

    def _unstored(self, number: int, now: float) -> tuple[int, float | None]:
        """Events of table ``number`` sent more than BEHIND_AFTER before ``now`` and not
        acked, and when the oldest was sent."""
        late = [
            at
            for d in self.deliveries.get(number, {}).values()
            for _, at in d.waiting
            if now - at >= BEHIND_AFTER
        ]
        return len(late), min(late, default=None)

    def _build(self, now: float) -> HallView:
        # With a tournament running the wall shows the tables seated this round; without
        # one (clocks only) every table heard from.
        numbers = set(self.assignments) or set(self.live.tables)
        tables = tuple(self._table(n, now) for n in sorted(numbers))
        return HallView(
            tables=tables,
            round=self.round,
            standings=self.standings,
            seating=self.seating,
            hide_standings=self.hide_standings,
            title=self.title,
            language=self.language,
            console_url=self.console_url,
        )

    def _table(self, number: int, now: float) -> TableCell:
        live = self.live.table(number)
        snap = live.snapshot
        assignment = self.assignments.get(number)
        info = self.round
        names: tuple[str, ...] = ()
        if assignment is not None:
            names = tuple(s.name for s in assignment.seats)
        if snap is not None and len(names) != snap.seats:
            names = tuple(names[i] if i < len(names) else "" for i in range(snap.seats))
        round_no = info.round if info is not None else (assignment.round if assignment else 0)
        stage = f"R{round_no}" if round_no else ""
        games = info.games if info is not None else 0
        first = info.first_game if info is not None else 1
        online = live.online is not False
        offline_since = live.status_at if not online else None
        kit = None if live.status is None else live.status.kit
        if snap is None:
            game = first if assignment is None or assignment.game is None else assignment.game
            return TableCell(
                number=number,
                seats=names,
                stage=stage,
                game=max(1, game - first + 1),
                games=games,
                online=online,
                offline_since=offline_since,
                known=False,
                kit=kit,
            )
        result, refused = ResultState.NONE, Phrase("")
        ack = self.results.get(number)
        # a table still at an earlier round's game shows that game's answer
        same_round = ack is not None and (
            number in self.earlier_round or info is None or ack.round in (0, info.round)
        )
        answered = ack is not None and same_round and ack.game == snap.game
        if ack is not None and answered and ack.accepted:
            result = ResultState.IN
        elif ack is not None and answered and snap.phase is Phase.GAME_OVER:
            result = ResultState.REFUSED
            # the hub's words, else its English read back into a protocol's template
            refused = ack.why.phrase() if ack.why is not None else reason_words(ack.reason)
        elif snap.phase is Phase.GAME_OVER:
            result = ResultState.ENTERING
        progress = self.progress
        finished = (
            info is not None
            and progress is not None
            and progress.round == info.round
            and number in progress.finished
        )
        missing = 0
        if (
            number not in self.earlier_round
            and assignment is not None and assignment.game is not None
            and info is not None and assignment.round == info.round
        ):
            last = games > 0 and snap.game - first + 1 >= games
            missing = _missing(snap.game, assignment.game, result, finished, last)
        pause = self.pauses.get(number)
        pace = self.paces.get(number)
        unstored, unstored_since = self._unstored(number, now)
        return TableCell(
            number=number,
            seats=names,
            stage=stage,
            game=max(1, snap.game - first + 1),
            games=games,
            phase=snap.phase,
            active=snap.active,
            remaining=snap.remaining,
            measured_at=snap.measured_at + live.skew,
            move_seconds=snap.move_seconds,
            paused=snap.paused,
            paused_since=pause.since if pause is not None else None,
            last_lap_left=snap.last_lap_left,
            timeouts=snap.timeouts,
            move=snap.move,
            online=online,
            offline_since=offline_since,
            result=result,
            refused=refused,
            missing=missing,
            finished=finished,
            pace_since=pace.since if pace is not None and pace.game == snap.game else None,
            pace_moves=pace.moves if pace is not None else 0,
            unstored=unstored,
            unstored_since=unstored_since,
            kit=kit,
        )


def _missing(game: int, next_game: int, result: ResultState, finished: bool, last: bool) -> int:
    """Earlier games of the round whose result the hub does not have, for a table in
    ``game`` whose assignment names ``next_game`` (the hub's next game: after the results
    it has, at most the round's last). A table at its round's last game with that
    result in and the round not ``finished`` lacks at least one earlier result (the hub
    publishes the round's progress before its answers: ``finished`` is never behind)."""
    if finished:
        return 0
    missing = max(0, game - next_game)
    if last and result is ResultState.IN:
        missing = max(missing, 1)
    return missing


# --- the MQTT shell ------------------------------------------------------------------------------


class ScreenFeed:
    """Subscribes to the hall's retained messages; :meth:`hall` returns the current view."""

    def __init__(
        self,
        broker: BrokerSettings,
        topics: Topics,
        *,
        title: str = "",
        hide_standings: bool = False,
        notify: Callable[[], None] | None = None,
        language: str = DEFAULT_LANGUAGE,
    ) -> None:
        """``broker``: where and how to log in (:mod:`tablekit.shared.broker`); the client
        id is :func:`screen_client_id` of its username unless it names one. ``notify`` is
        called from paho's thread after each message is queued and when the connection
        comes or goes (it must only wake the loop that calls :meth:`hall`, as the web
        console's does). ``language``: the screen's until the hall's setting arrives
        (:meth:`HallTracker.set_language`)."""
        self.broker, self.topics = broker, topics
        self.username = broker.username
        self.refusal: str | None = None
        """The broker's reason for refusing the latest login (None: not refused)."""
        self.tracker = HallTracker(title, hide_standings, language)
        self.inbox: queue.SimpleQueue[tuple[object, float, int | None, bool]] = queue.SimpleQueue()
        self.counters: Counter[str] = Counter()
        self._lock = threading.Lock()
        self.connected = threading.Event()
        self.subscribed = threading.Event()
        """The broker has acknowledged the subscriptions of the latest connection."""
        self.ever_connected = False
        self.lost_since = time.time()
        """Wall time the connection was lost (at first: since the feed was made)."""
        self._stopping = False
        self._notify = notify
        self.client_id = broker.client_id or screen_client_id(broker.username)
        self.client = make_client(broker, self.client_id)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe

    def start(self) -> None:
        """Connect in the background (retrying forever; the screen shows what it has
        and, while there is no connection, says so)."""
        self.lost_since = time.time()
        connect(self.client, self.broker)
        self.client.loop_start()

    def stop(self) -> None:
        self._stopping = True
        disconnect(self.client)

    def hall(self, now: float) -> HallView:
        """Apply everything that arrived, then the current view as of ``now``."""
        while True:
            try:
                message, at, table, retained = self.inbox.get_nowait()
            except queue.Empty:
                break
            self.tracker.apply(message, at, table, retained)
        view = self.tracker.view(now)
        if self.connected.is_set():
            return view
        lost = LinkLost(
            f"{self.broker.host}:{self.broker.port}",
            self.lost_since,
            self.ever_connected,
            self.refusal,
        )
        return replace(view, link_lost=lost)

    # paho callbacks: decode and queue only, never raise

    def _on_connect(
        self, client: mqtt.Client, userdata: object, flags: Any, rc: Any, properties: Any = None
    ) -> None:
        if getattr(rc, "is_failure", False):
            self.refusal = str(rc)
            self._count("refused")
            who = f"as {self.username!r}" if self.username is not None else "anonymously"
            log.warning(
                "screen feed: %s refused the login %s: %s (check --username and "
                "--password-file); retrying",
                self.broker.where, who, rc,
            )
            return
        self.refusal = None
        self.subscribed.clear()
        client.subscribe(
            [(topic, 1) for topic in self.topics.screen_filters()]
            + [(topic, 0) for topic in self.topics.delivery_filters()]
        )
        self.ever_connected = True
        self.connected.set()
        log.info("screen feed: connected to %s", self.broker.where)
        self._wake()

    def _on_subscribe(
        self, client: mqtt.Client, userdata: object, mid: int, codes: Any, properties: Any = None
    ) -> None:
        self.subscribed.set()

    def _on_disconnect(
        self, client: mqtt.Client, userdata: object, flags: Any, rc: Any, properties: Any = None
    ) -> None:
        was_connected = self.connected.is_set()
        if was_connected:
            self.lost_since = time.time()
        self.connected.clear()
        self._wake()
        if self._stopping:
            log.info("screen feed: disconnected")
        elif was_connected or self.refusal is None:
            log.warning("screen feed: disconnected (%s); retrying", rc)
        else:  # the refusal was logged with its reason
            log.debug("screen feed: disconnected after a refused login (%s)", rc)

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        at = time.time()
        try:
            ref, message = decode_retained(self.topics, msg.topic, msg.payload)
            if ref.kind in _FOLDED:
                self.inbox.put((message, at, ref.table, bool(msg.retain)))
                self._count(ref.kind.value)
                self._wake()
        except DecodeError as err:
            self._count("rejected")
            log.warning("screen feed: ignored %s: %s", msg.topic, err.reason)
        except Exception:
            self._count("error")
            log.exception("screen feed: error on %s (ignored)", msg.topic)

    def _wake(self) -> None:
        if self._notify is not None:
            self._notify()

    def _count(self, name: str) -> None:
        with self._lock:
            self.counters[name] += 1

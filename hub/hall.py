"""What the hub screen shows: a pure model of the hall (no pygame, no I/O, no clock).

Everything here takes ``now`` (wall time, Unix seconds, on the hub's clock) from the
caller. The MQTT shell (:mod:`hub.screen.feed`) builds a :class:`HallView` from the
retained table snapshots, statuses, assignments and the hub's round, standings and
seating messages (all defined in :mod:`tablekit.core.messages`); the renderer
(:mod:`hub.screen`) draws it. RULES.md §5: nothing here knows anything about tiles —
clocks, names, states and scores only.

Rules defined here (and documented in the screen's guide):

* **Countdown**: ``remaining − (now − measured_at)``, clamped to ``[0, remaining]``,
  frozen while the table is paused, in TIME, between games or offline. Shown as whole
  seconds rounded **up** (40 at the start of a move, 0 only when the time is gone).
* **Judge queue**: tables paused by the judge key, paused by a player's judge call, or
  paused after a unit restart (the judge resumes those), oldest first (ties by table
  number), with how long they have waited. A table waiting longer than
  :data:`JUDGE_FLASH_AFTER` seconds flashes.
* **Slow tables** (:func:`slow_tables`): evaluated only while the round clock runs (no
  round deadline yet, or before it, and no last lap), among online tables, when at
  least :data:`SLOW_MIN_TABLES` are in play. A table is slow when

  1. **games**: it has finished fewer games than the hall's lower quartile (nearest
     rank) *and* at least one whole game fewer than the hall median, or
  2. **pace**: its moves per minute in the current game, observed over at least
     :data:`SLOW_MIN_OBSERVED` seconds, are below :data:`SLOW_PACE_RATIO` × the median
     pace of the tables with an observed pace (at least :data:`SLOW_MIN_TABLES` of
     them), and it has not finished more games than the hall median.
"""

from __future__ import annotations

import enum
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from tablekit.core.clock import Phase, time_left
from tablekit.core.clock_events import PauseReason
from tablekit.core.errors import Phrase
from tablekit.core.messages import (
    RoundInfo,
    SeatingBoard,
    StandingsBoard,
)
from tablekit.core.seats import Seat
from tablekit.core.status import (
    JUDGE_STATES,
    TableState,
    duration_text,
    lasting_text,
    missing_text,
    paused_state,
    short_word,
    word,
)
from tablekit.shared import forms, i18n
from tablekit.shared.i18n import DEFAULT_LANGUAGE, Words

JUDGE_FLASH_AFTER: Final = 120.0
"""Seconds a table may wait for the judge before its queue entry and cell flash."""
FLASH_PERIOD: Final = 1.0
"""Seconds of one flash cycle (half on, half off)."""
SLOW_MIN_TABLES: Final = 3
SLOW_PACE_RATIO: Final = 0.6
SLOW_MIN_OBSERVED: Final = 180.0
BEHIND_AFTER: Final = 10.0
"""Seconds an event a unit sent may wait for the hub's ack before its table shows BEHIND:
a unit sends again what is not acked after 5 s, so a lost message alone never shows."""

# --- the model ------------------------------------------------------------------------------


NO_REASON: Final = Phrase("")
"""A refused result's reason when there is none (nothing said)."""


class ResultState(enum.StrEnum):
    NONE = "none"
    ENTERING = "entering"
    """The game is over and the table is entering its result on the keypad."""
    IN = "in"
    """The hub has accepted the result of the table's current game."""
    REFUSED = "refused"
    """The hub refused the result the table sent for its current game (it enters it again)."""


@dataclass(frozen=True)
class TableCell:
    """One table as the screen knows it."""

    number: int
    seats: tuple[str, ...] = ()
    """Player names in seat order A, B, C(, D); empty names when not assigned."""
    stage: str = ""
    game: int = 1
    """Game number within the round (1-based)."""
    games: int = 0
    """Games per table in the round (0: unknown)."""
    phase: Phase = Phase.READY
    active: Seat | None = None
    """The seat to move."""
    remaining: float = 0.0
    measured_at: float = 0.0
    """Wall time at which ``remaining`` was measured."""
    move_seconds: float = 40.0
    paused: PauseReason | None = None
    paused_since: float | None = None
    last_lap_left: int | None = None
    timeouts: tuple[int, ...] = ()
    move: int = 0
    online: bool = True
    offline_since: float | None = None
    result: ResultState = ResultState.NONE
    refused: Phrase = NO_REASON
    """The hub's reason when it refused the current game's result, to say in the reader's
    language."""
    missing: int = 0
    """Earlier games of the round whose result the hub does not have (the table played on)."""
    finished: bool = False
    """Every game of the round has its result in at the hub."""
    known: bool = True
    """False until a state snapshot has arrived (only an assignment or status so far)."""
    pace_since: float | None = None
    """Wall time from which the current game's pace is observed."""
    pace_moves: int = 0
    """Moves already made at ``pace_since``."""
    unstored: int = 0
    """Events the unit sent more than :data:`BEHIND_AFTER` ago that the hub has not
    acknowledged (stored) yet: the table is behind at the hub."""
    unstored_since: float | None = None
    """Wall time the oldest of them was sent."""
    kit: str | None = None
    """The kit's version its unit reported; "" from a unit too old to say, None before
    its status arrived."""

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    @property
    def games_done(self) -> int:
        """Games finished at this table in the round."""
        return self.game - 1 + (1 if self.phase is Phase.GAME_OVER else 0)

    @property
    def game_label(self) -> str:
        """``G2/3``: the game within the round (see :func:`game_label`)."""
        return game_label(self)


def _words(words: Words | None) -> Words:
    """``words``, or the English catalog (the words as the code writes them)."""
    return words if words is not None else i18n.words("en")


def game_label(t: TableCell, words: Words | None = None) -> str:
    """The game within the round, ``G2/3`` (``G2`` when the games are unknown), in
    ``words``' language (default English)."""
    w = _words(words)
    if t.games:
        # Translators: the game within the round on a table's cell: G = game (gra).
        return w.gettext("G{game}/{games}").format(game=t.game, games=t.games)
    return w.gettext("G{game}").format(game=t.game)


@dataclass(frozen=True)
class LinkLost:
    """The hub screen has no connection to the broker: what it shows is not live."""

    broker: str
    """``host:port``."""
    since: float
    """Wall time the connection was lost (or the screen started trying)."""
    ever: bool
    """It was connected before: the tables shown are as they were at ``since``."""
    refused: str | None = None
    """The broker's reason for refusing the login, if it did."""


@dataclass(frozen=True)
class HallView:
    tables: tuple[TableCell, ...] = ()
    """Sorted by table number."""
    round: RoundInfo | None = None
    standings: StandingsBoard | None = None
    seating: SeatingBoard | None = None
    hide_standings: bool = False
    """The operator's option (``--hide-standings``), or-ed with the round's flag."""
    title: str = ""
    link_lost: LinkLost | None = None
    """Set while the screen has no connection to the broker."""
    language: str = DEFAULT_LANGUAGE
    """The language the screen speaks (``pl`` or ``en``, :mod:`tablekit.shared.i18n`):
    the screen's ``--lang`` until the hall's language setting says otherwise
    (:meth:`hub.screen.feed.HallTracker.set_language`); every frame is drawn in it."""
    console_url: str = ""
    """Where phones open the web console (the hub's ``hub/console``); the list pages show
    it as a QR code. "": none."""
    first_start: str = ""
    """The web console's first start's code while it has no organizer's account
    (:mod:`hub.web.first_start`): the header says where to make the accounts. "": none."""

    def other_kits(self, hub_kit: str) -> list[tuple[int, str]]:
        """Tables whose unit runs another kit version than ``hub_kit``: (table, its
        version, "" when it is too old to say), by table."""
        return [(t.number, t.kit) for t in self.tables if t.kit is not None and t.kit != hub_kit]

    def table(self, number: int) -> TableCell:
        for t in self.tables:
            if t.number == number:
                return t
        raise KeyError(number)

    @property
    def standings_hidden(self) -> bool:
        """Standings stay off the screen until the round is closed."""
        hide = self.hide_standings or (self.round is not None and self.round.hide_standings)
        return hide and not (self.round is not None and self.round.closed)


# --- countdowns --------------------------------------------------------------------------


def remaining_at(t: TableCell, now: float) -> float:
    """Extrapolated seconds left for the active seat at ``now`` (frozen while offline)."""
    return time_left(t.phase, t.paused, t.remaining, t.measured_at, now, live=t.online)


def countdown_text(seconds: float) -> str:
    """Whole seconds rounded up: ``"34"``; a minute or more as ``"1:40"``."""
    s = max(0, math.ceil(seconds - 1e-9))
    if s < 100:
        return str(s)
    return f"{s // 60}:{s % 60:02d}"


def clock_text(seconds: float) -> str:
    """A duration rounded up: ``"42:13"`` or ``"1:02:13"``."""
    s = max(0, math.ceil(seconds - 1e-9))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def wait_text(seconds: float, words: Words) -> str:
    """A waiting time, whole seconds rounded down, as every duration is written:
    ``"45 s"``, ``"3 min 5 s"`` (never ``3:05``, which reads as a time of day)."""
    return duration_text(seconds, words)


def round_left(info: RoundInfo | None, now: float) -> float | None:
    """Seconds left in the round, or None without a round clock."""
    if info is None or info.deadline is None:
        return None
    return max(0.0, info.deadline - now)


def round_over(info: RoundInfo | None, now: float) -> bool:
    """The round's time has run out (or the hub called the last lap)."""
    if info is None:
        return False
    return info.last_lap or (info.deadline is not None and now >= info.deadline)


def round_running(info: RoundInfo | None, now: float) -> bool:
    return not round_over(info, now) and not (info is not None and info.closed)


# --- state words -------------------------------------------------------------------------


def state_of(t: TableCell) -> TableState:
    """The table's state (:mod:`tablekit.core.status`) as the hub knows it."""
    if not t.online:
        return TableState.OFFLINE
    if not t.known:
        return TableState.NO_DATA
    if t.paused is not None and t.phase in (Phase.RUNNING, Phase.TIME_UP):
        return paused_state(t.paused)
    if t.unstored > 0:  # the clock state still shows: the countdown and the seat to move
        return TableState.BEHIND
    if t.finished and t.phase in (Phase.GAME_OVER, Phase.READY):
        return TableState.ROUND_FINISHED
    if t.phase is Phase.TIME_UP:
        return TableState.TIME
    if t.phase is Phase.GAME_OVER and t.result is ResultState.REFUSED:
        return TableState.RESULT_REFUSED
    if t.missing > 0:  # the clock state still shows: the countdown and the seat to move
        return TableState.RESULT_MISSING
    if t.phase is Phase.GAME_OVER:
        if t.result is ResultState.IN:
            return TableState.RESULT_IN
        if t.result is ResultState.ENTERING:
            return TableState.ENTERING_RESULT
        return TableState.GAME_OVER
    if t.phase is Phase.RUNNING:
        return TableState.LAST_LAP if t.last_lap_left is not None else TableState.PLAYING
    return TableState.READY


def state_text(
    t: TableCell, now: float, *, short: bool = False, words: Words | None = None
) -> str:
    """The state word as shown, in ``words``' language (default English): ``"OFFLINE for
    42 s"`` carries its duration; ``short``: the state's short word, for a cell too narrow
    for the whole of it."""
    w = _words(words)
    state = state_of(t)
    if state is TableState.RESULT_MISSING:
        return missing_text(t.missing, w)
    if short:
        return w.gettext(short_word(state))
    since = None
    if state is TableState.OFFLINE:
        since = t.offline_since
    elif state is TableState.BEHIND:
        since = t.unstored_since
    if since is not None:
        return lasting_text(state, duration_text(now - since, w), w)
    return w.gettext(word(state))


def link_lost_text(lost: LinkLost, now: float, words: Words | None = None) -> tuple[str, str]:
    """The banner of a screen without its broker: a headline and what it means, in
    ``words``' language (default English). The broker's own reason stays as it gave it."""
    w = _words(words)
    if lost.refused is not None:
        return (
            w.gettext("BROKER REFUSED THE SCREEN'S LOGIN"),
            w.gettext("{broker}: {reason}; retrying. Nothing shown is live").format(
                broker=lost.broker, reason=lost.refused
            ),
        )
    waited = duration_text(now - lost.since, w)
    if not lost.ever:
        return (
            w.gettext("NO CONNECTION TO THE BROKER · {time}").format(time=waited),
            w.gettext("trying {broker}; the tables appear once it answers").format(
                broker=lost.broker
            ),
        )
    stopped = forms.clock_time(forms.local(lost.since), seconds=True)
    return (
        w.gettext("HUB LOST THE BROKER · {time}").format(time=waited),
        w.gettext("{broker}: reconnecting. Clocks stopped at {time}, not live").format(
            broker=lost.broker, time=stopped
        ),
    )


def shown_at(hall: HallView, now: float) -> float:
    """The time the wall is drawn for: ``now``, or the moment the connection was lost
    (the clocks then stand still rather than run on from stale values)."""
    lost = hall.link_lost
    return lost.since if lost is not None and lost.ever else now


def finished_tables(hall: HallView) -> tuple[int, int]:
    """(tables that have finished the round, tables seated in it)."""
    seated = [t for t in hall.tables if t.seats]
    return sum(1 for t in seated if t.finished), len(seated)


# --- judge queue ----------------------------------------------------------------------------


@dataclass(frozen=True)
class JudgeCall:
    table: int
    state: TableState
    since: float
    waiting: float
    flashing: bool


def judge_queue(
    hall: HallView, now: float, flash_after: float = JUDGE_FLASH_AFTER
) -> list[JudgeCall]:
    """Tables waiting for the judge, oldest first, with their waiting time."""
    calls = []
    for t in hall.tables:
        state = state_of(t)
        if state not in JUDGE_STATES:
            continue
        since = t.paused_since if t.paused_since is not None else t.measured_at
        waiting = max(0.0, now - since)
        calls.append(JudgeCall(t.number, state, since, waiting, waiting >= flash_after))
    calls.sort(key=lambda c: (c.since, c.table))
    return calls


def flash_on(now: float, period: float = FLASH_PERIOD) -> bool:
    """The phase of every flashing element (all flash in step)."""
    return (now % period) < period / 2


# --- slow tables --------------------------------------------------------------------------


def pace(t: TableCell, now: float, min_observed: float = SLOW_MIN_OBSERVED) -> float | None:
    """Moves per minute in the current game, or None when not observed long enough."""
    if t.pace_since is None or t.phase not in (Phase.RUNNING, Phase.TIME_UP):
        return None
    span = now - t.pace_since
    if span < min_observed:
        return None
    return max(0, t.move - t.pace_moves) * 60.0 / span


@dataclass(frozen=True)
class SlowTable:
    table: int
    behind: int = 0
    """Whole games behind the hall's median (0: slow by its pace)."""
    pace: float = 0.0
    """Its moves per minute in the current game (when slow by its pace)."""
    hall_pace: float = 0.0
    """The hall's median moves per minute (when slow by its pace)."""

    def reason(self, words: Words | None = None) -> str:
        """Short words for the judge panel, in ``words``' language (default English):
        "1 game behind", "pace 9 vs 22/min"."""
        w = _words(words)
        if self.behind:
            return w.ngettext("{n} game behind", "{n} games behind", self.behind).format(
                n=self.behind
            )
        return w.gettext("pace {pace} vs {hall}/min").format(
            pace=f"{self.pace:.0f}", hall=f"{self.hall_pace:.0f}"
        )


def _lower_quartile(values: Sequence[int]) -> int:
    ordered = sorted(values)
    return ordered[math.ceil(len(ordered) / 4) - 1]


def slow_tables(hall: HallView, now: float) -> list[SlowTable]:
    """Tables whose games run far behind the hall (rule in the module docstring)."""
    if not round_running(hall.round, now):
        return []
    playing = [t for t in hall.tables if t.online and t.known and t.seats]
    if len(playing) < SLOW_MIN_TABLES:
        return []
    done = [t.games_done for t in playing]
    median_done = statistics.median(done)
    quartile = _lower_quartile(done)
    paces = {t.number: p for t in playing if (p := pace(t, now)) is not None}
    median_pace = statistics.median(paces.values()) if len(paces) >= SLOW_MIN_TABLES else None
    slow = []
    for t in playing:
        behind = median_done - t.games_done
        if t.games_done < quartile and behind >= 1:
            slow.append(SlowTable(t.number, behind=math.floor(behind)))
            continue
        own = paces.get(t.number)
        if (
            median_pace is not None
            and own is not None
            and own < SLOW_PACE_RATIO * median_pace
            and t.games_done <= median_done
        ):
            slow.append(SlowTable(t.number, pace=own, hall_pace=median_pace))
    return slow


# --- standings and seating -----------------------------------------------------------------


# --- pages --------------------------------------------------------------------------------


class PageKind(enum.StrEnum):
    WALL = "wall"
    STANDINGS = "standings"
    SEATING = "seating"


@dataclass(frozen=True)
class Page:
    kind: PageKind
    index: int = 0
    """Sub-page of that kind (0-based)."""
    count: int = 1


def page_ranges(total: int, per_page: int) -> list[range]:
    """Split ``total`` items into balanced pages of at most ``per_page``."""
    if total <= 0:
        return [range(0)]
    pages = math.ceil(total / max(1, per_page))
    size = math.ceil(total / pages)
    return [range(i * size, min(total, (i + 1) * size)) for i in range(pages)]


def page_sequence(wall_pages: int, standings_pages: int, seating_pages: int) -> list[Page]:
    """The rotation: every wall page, then standings, then seating (0 pages: skipped)."""
    seq: list[Page] = []
    for kind, n in (
        (PageKind.WALL, wall_pages),
        (PageKind.STANDINGS, standings_pages),
        (PageKind.SEATING, seating_pages),
    ):
        seq.extend(Page(kind, i, n) for i in range(n))
    return seq or [Page(PageKind.WALL)]


@dataclass
class Pager:
    """Which page is on screen: rotates every ``cycle`` seconds; keys jump (pure, mutable).

    ``cycle`` 0 disables the rotation. A jump restarts the page's timer.
    """

    cycle: float
    started: float = 0.0
    current: Page = field(default_factory=lambda: Page(PageKind.WALL))

    def update(self, sequence: Sequence[Page], now: float) -> Page:
        """The page at ``now`` given the current sequence (which may have changed)."""
        placeholder = self.current.count == 0  # chosen by key, nothing to show: a notice
        if self.current not in sequence and not placeholder:
            same_kind = [p for p in sequence if p.kind is self.current.kind]
            if same_kind:
                self.current = same_kind[min(self.current.index, len(same_kind) - 1)]
            else:
                self.current, self.started = sequence[0], now
        if self.cycle > 0 and now - self.started >= self.cycle:
            steps = int((now - self.started) // self.cycle)
            i = sequence.index(self.current) if self.current in sequence else -1
            self.current = sequence[(i + steps) % len(sequence)]
            self.started += steps * self.cycle
        return self.current

    def next(self, sequence: Sequence[Page], now: float, step: int = 1) -> Page:
        i = sequence.index(self.current) if self.current in sequence else -1
        self.current = sequence[(i + step) % len(sequence)]
        self.started = now
        return self.current

    def select(self, sequence: Sequence[Page], kind: PageKind, now: float) -> Page:
        """Jump to the first page of ``kind`` (or its next sub-page if already there)."""
        pages = [p for p in sequence if p.kind is kind]
        if not pages:
            self.current = Page(kind, 0, 0)
        elif self.current.kind is kind and self.current in pages:
            self.current = pages[(pages.index(self.current) + 1) % len(pages)]
        else:
            self.current = pages[0]
        self.started = now
        return self.current

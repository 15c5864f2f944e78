"""``rummikub``: the organizer's command line for the whole tournament day.

Every command works on one event file (``--db``, default ``$RUMMIKUB_DB`` or
``./rummikub-event.sqlite3``), the hub's event store: each command is checked against
the event as it stands and stored in one transaction, so a refused command changes
nothing and a restarted hub (or this command in a new terminal) carries on exactly
where the event was. ``--by`` names who runs the command (default ``$USER``); it is
recorded with every record. Every error is one line on stderr and exit code 2.

``round status`` also reads the tables' live clocks from the MQTT broker when it has
one: ``--broker``, ``--venue``, ``--event``, ``--username`` and ``--password-file``
default to ``$RUMMIKUB_BROKER``, ``$RUMMIKUB_VENUE`` (else ``hall``),
``$RUMMIKUB_EVENT`` (else ``demo``), ``$RUMMIKUB_USERNAME`` and
``$RUMMIKUB_PASSWORD_FILE``.

::

    rummikub event create --preset school --name "Konkurs szkolny" [--round-minutes 50]
    rummikub event show
    rummikub event backup
    rummikub players add "Anna Nowak" --club "SP 3" [--rating 12] [--check-in]
    rummikub players import players.csv [--check-in]
    rummikub players list | check-in ID… | check-in --all | late ID | withdraw ID --reason …
    rummikub players seeds ID…
    rummikub round draw [--seed N] | start [--minutes N] | close [--force --why …]
    rummikub round consolation --promote N | --none --why …
    rummikub round undo --why …
    rummikub result enter --stage round-1 --table 2 --game 1 --racks "…" --why … [--yes]
    rummikub round status [--broker HOST:PORT --venue V --event E [--username U --password-file F]]
    rummikub result enter --table 2 --game 1 --racks "A=0 B=23 C=12j D=85np" [--why …]
    rummikub result history --table 2 --game 1 | result corrections
    rummikub sanction warn ID --why … | deduct ID --big N --why … | disqualify ID --why …
    rummikub sanction list | lift N --why …
    rummikub tie list | decide ID… --scope S --why … [--shared] | lot [ID…] [--scope S]
    rummikub players history ID
    rummikub standings [--stage NAME] [--table N] [--overall]
    rummikub ranking
    rummikub export csv DIR [--semicolon] | export html DIR | export pdf DIR
    rummikub export archive FILE.zip [--semicolon]
    rummikub season table EVENT.sqlite3… | season seeds EVENT.sqlite3… [--declare]
    rummikub season export DIR EVENT.sqlite3… [--semicolon]

Rack syntax (``--racks``): one ``SEAT=VALUE`` per player, separated by spaces or
commas (or the values alone, in seat order A, B, C, D). VALUE is the sum of the tile
numbers left on the rack, then one ``j`` per joker left, then optionally ``np`` (never
opened: the flat 100), ``cho`` (the judge finds the player could have opened: 200) or
``waived`` (could have opened, but had announced the opening: 100)::

    0        went out (an empty rack)
    23       tiles worth 23 left
    12j      tiles worth 12 and one joker; jj = two jokers; j alone = one joker only
    85np     never opened (tiles worth 85, scored as the flat penalty)

The ending is "went out" when a rack is 0, else "nobody out" (bank empty or round time
over after the last lap); ``--ending`` states it explicitly.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import os
import re
import secrets
import sys
import time
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NoReturn, TextIO

import msgspec
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from hub import archive, exports, printing
from hub.backup import read_status, status_lines
from hub.competition import (
    Change,
    ChangeKind,
    Competition,
    CompetitionError,
    OrganizerFact,
    ResultRecorded,
    ResultVersion,
    TableProgress,
)
from hub.exports import Grid, signed
from hub.hall import State, countdown_text, wait_text
from hub.hall_board import expected_tables, hall_board, latest_checks, unchecked_warning
from hub.live import LiveView, TableLive
from hub.organizer import Organizer
from hub.players_csv import (
    MAX_NAME,
    PlayersCsvError,
    clean,
    new_players,
    player_key,
    rating_of,
    read_players_csv,
)
from hub.season import (
    SeasonError,
    SeasonEvent,
    SeasonLine,
    open_competition,
    season_csv,
    season_event,
    season_grid,
    season_html,
    season_legend,
    season_lines,
    seeding_text,
    seeds_for,
)
from hub.season import match_key as season_match_key
from hub.service import parse_broker
from hub.store import MAX_REFUSAL_LOG, EventStore, StoreError
from hub.tournament import (
    PRESET_NAMES,
    RANKING_SCOPE,
    ConsolationError,
    Everyone,
    Phase,
    Player,
    PlayerSanctioned,
    Rest,
    RoundSeated,
    RoundUndone,
    SanctionKind,
    Stage,
    TablePlaces,
    Tie,
    TieAtCutError,
    TieHow,
    TopAcrossTables,
    TopOverall,
    TournamentError,
    league_scheme_for,
    preset_name,
)
from tablekit.core.clock import PauseReason
from tablekit.core.clock import Phase as ClockPhase
from tablekit.core.errors import KitError
from tablekit.core.names import check_surname
from tablekit.core.protocol import (
    DecodeError,
    Kind,
    TableSnapshot,
    Topics,
    UnitStatus,
    decode_topic,
)
from tablekit.core.rulesets import Ruleset, RulesetError, load_rulesets
from tablekit.core.scoring import GameEnding, GameReport, Opening, RackReport, ScoreError
from tablekit.core.seats import SEATS, Seat, SeatCountError, seats_for
from tablekit.link import read_secret

PROG = "rummikub"
DEFAULT_DB = "rummikub-event.sqlite3"
ENDINGS = {"went-out": GameEnding.WENT_OUT, "nobody-out": GameEnding.NOBODY_OUT}
_FLAGS = {
    "": Opening.OPENED,
    "np": Opening.NOT_OPENED,
    "cho": Opening.COULD_HAVE_OPENED,
    "waived": Opening.WAIVED,
}
_RACK = re.compile(r"(?P<tiles>\d{1,4})?(?P<jokers>j{0,2})(?P<flag>np|cho|waived)?")
_RACK_HELP = "tiles, then j per joker, then np/cho/waived: e.g. 0, 23, 12j, jj, 85np"


RACK_SYNTAX = """\
rack syntax (result enter --racks): "A=0 B=23 C=12j D=85np", or the values alone in
seat order. A value is the sum of the tiles left, then j per joker left, then np
(never opened: 100), cho (could have opened: 200) or waived (announced: 100).
0 = went out. The ending is "went out" if a rack is 0, else "nobody out".
"""


class CliError(KitError):
    """Bad input on the command line: the message is the one line the user sees."""


# --- output -------------------------------------------------------------------------------


def render(grid: Grid) -> str:
    """An aligned plain-text table with its title (and note)."""
    rows = [grid.headers, *grid.rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(grid.headers))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if i in grid.numeric else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    out = [grid.title, line(grid.headers), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in grid.rows]
    if not grid.rows:
        out.append("(none)")
    if grid.note:
        out.append(grid.note)
    return "\n".join(out)


def when(at: float) -> str:
    return dt.datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M:%S")


def clock_text(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


# --- live clock states (round status --broker) ------------------------------------------

LIVE_QUIET: Final = 0.3
"""Seconds without a new retained message after which the gathering stops."""
LIVE_LIMIT: Final = 2.0
"""Seconds at most spent gathering retained messages once subscribed."""
CONNECT_TIMEOUT: Final = 3.0
LIVE_HINT: Final = (
    "Live clock states (playing, paused, judge calls, offline) need --broker HOST:PORT "
    "(or RUMMIKUB_BROKER)"
)
_PAUSED: Final = {
    PauseReason.JUDGE: State.PAUSED_JUDGE,
    PauseReason.PLAYER_CALL: State.JUDGE_CALLED,
    PauseReason.RECOVERED: State.PAUSED_RESTART,
}
_JUDGE_STATES: Final = frozenset(_PAUSED.values())
_RUNNING_STATES: Final = frozenset({State.PLAYING, State.LAST_LAP, State.TIME})
_NO_SEAT_STATES: Final = frozenset(
    {
        State.OFFLINE,
        State.NO_DATA,
        State.READY,
        State.GAME_OVER,
        State.ENTERING_RESULT,
        State.RESULT_IN,
    }
)


@dataclass(frozen=True)
class LiveSource:
    """Where the tables publish: the broker and the event's topic tree."""

    host: str
    port: int
    topics: Topics
    username: str | None = None
    password: str | None = None


def fold_retained(
    topics: Topics, messages: Iterable[tuple[str, bytes]], at: float
) -> tuple[LiveView, int]:
    """The live view of the tables' retained state and status messages gathered at hub
    time ``at`` (pure), and how many messages were not valid protocol messages."""
    live = LiveView()
    ignored = 0
    for topic, payload in messages:
        if not payload:
            continue  # a cleared retained message
        try:
            _, message = decode_topic(topics, topic, payload)
        except DecodeError:
            ignored += 1
            continue
        if isinstance(message, TableSnapshot):
            live = live.with_snapshot(message, at, retained=True)
        elif isinstance(message, UnitStatus):
            live = live.with_status(message, at)
    return live, ignored


class _Gather:
    """paho callbacks of :func:`gather_retained`, run in the caller's thread by
    ``client.loop``: retained messages by topic, the last one kept."""

    def __init__(self, filters: Sequence[str]) -> None:
        self.filters = filters
        self.refused: str | None = None
        self.connected = False
        self.subscribed_at: float | None = None
        self.last_at = 0.0
        self.messages: dict[str, bytes] = {}

    def on_connect(
        self, client: mqtt.Client, userdata: object, flags: Any, reason: Any, props: Any = None
    ) -> None:
        if getattr(reason, "is_failure", False):
            self.refused = f"refused the connection ({reason})"
            return
        self.connected = True
        client.subscribe([(topic, 1) for topic in self.filters])

    def on_subscribe(
        self, client: mqtt.Client, userdata: object, mid: int, reasons: Any, props: Any = None
    ) -> None:
        if any(getattr(r, "is_failure", False) for r in reasons):
            self.refused = "refused the subscription to the tables' topics"
            return
        self.subscribed_at = self.last_at = time.monotonic()

    def on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        if msg.retain:
            self.messages[msg.topic] = bytes(msg.payload)
            self.last_at = time.monotonic()


def gather_retained(
    source: LiveSource,
    *,
    quiet: float = LIVE_QUIET,
    limit: float = LIVE_LIMIT,
    connect_timeout: float = CONNECT_TIMEOUT,
) -> list[tuple[str, bytes]]:
    """Connect (MQTT 3.1.1, a fresh client id, a clean session), subscribe to every
    table's state and status, collect the retained messages until none has come for
    ``quiet`` seconds (at most ``limit`` seconds), disconnect. CliError when the broker
    cannot be reached, refuses, or does not answer within ``connect_timeout``."""
    where = f"the MQTT broker at {source.host}:{source.port}"
    topics = source.topics
    gather = _Gather(
        [f"{topics.base}/table/+/{Kind.STATE}", f"{topics.base}/table/+/{Kind.STATUS}"]
    )
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=f"rk-status-{secrets.token_hex(6)}",
        protocol=mqtt.MQTTv311,
        clean_session=True,
    )
    client.connect_timeout = connect_timeout
    if source.username is not None:
        client.username_pw_set(source.username, source.password)
    client.on_connect = gather.on_connect
    client.on_subscribe = gather.on_subscribe
    client.on_message = gather.on_message
    try:
        client.connect(source.host, source.port, keepalive=30)
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise CliError(f"round status: cannot reach {where}: {reason}") from None
    try:
        deadline = time.monotonic() + connect_timeout
        while gather.subscribed_at is None:
            if gather.refused is not None:
                raise CliError(f"round status: {where} {gather.refused}")
            if time.monotonic() > deadline:
                step = "subscription" if gather.connected else "connection"
                raise CliError(
                    f"round status: {where} did not confirm the {step} within {connect_timeout:g} s"
                )
            if client.loop(0.05) != mqtt.MQTT_ERR_SUCCESS and gather.refused is None:
                raise CliError(f"round status: {where} closed the connection")
        stop_at = gather.subscribed_at + limit
        while True:
            now = time.monotonic()
            if now - gather.last_at >= quiet or now >= stop_at:
                break
            if client.loop(0.05) != mqtt.MQTT_ERR_SUCCESS:
                raise CliError(f"round status: {where} closed the connection")
    finally:
        client.disconnect()
    return sorted(gather.messages.items())


def _live_state(comp: Competition, stage: str, table: TableLive) -> State:
    """A table's clock state in the hall screen's words (``hub.hall.State``); whether a
    finished game's result is in comes from the event store."""
    snap = table.snapshot
    word = table.state_word()
    if word == "OFFLINE":
        return State.OFFLINE
    if snap is None:
        return State.NO_DATA
    if snap.paused is not None:
        return _PAUSED[snap.paused]
    if snap.phase is ClockPhase.GAME_OVER:
        if (table.table, snap.game) in comp.event.results(stage):
            return State.RESULT_IN
        return State.ENTERING_RESULT
    return State(word)


def _since_text(seconds: float) -> str:
    return wait_text(max(0.0, seconds))


def _live_text(state: State, table: TableLive, now: float) -> str:
    """The state word with how long it has lasted (or the last lap's moves left)."""
    snap = table.snapshot
    if state is State.OFFLINE:
        went = table.went_offline_at
        if went is not None:
            return f"OFFLINE for {_since_text(now - went)}"
        alive = table.last_alive_at
        if alive is not None:
            return f"OFFLINE (connection lost; last heard {_since_text(now - alive)} ago)"
        return State.OFFLINE.value
    if snap is None:
        return state.value
    if state in _JUDGE_STATES:
        # A snapshot is republished on every change: a paused one was taken at the pause.
        return f"{state.value} for {_since_text(now - (snap.measured_at + table.skew))}"
    if state is State.LAST_LAP and snap.last_lap_left is not None:
        moves = snap.last_lap_left
        return f"LAST LAP ({moves} move{'' if moves == 1 else 's'} left)"
    return state.value


def _seat_text(comp: Competition, progress: TableProgress, table: TableLive, state: State) -> str:
    snap = table.snapshot
    if snap is None or snap.active is None or state in _NO_SEAT_STATES:
        return "-"
    position = snap.active.position
    if position >= len(progress.players):
        return str(snap.active)
    return f"{snap.active} {comp.event.players[progress.players[position]].name}"


def status_grid(comp: Competition, now: float, live: LiveView | None = None) -> Grid:
    """Progress of every table of the open (or last) round; with the tables' live view
    (``hub.live``), also each table's clock state (since when), game, the seat to move
    and that seat's time left, extrapolated to ``now``."""
    progress = comp.tables()
    players = comp.event.players
    stage = comp.event.stages_played[-1] if comp.event.stages_played else "-"
    headers: tuple[str, ...] = ("Table", "Players", "Games", "State")
    if live is not None:
        headers = (*headers, "Live", "Game", "Seat", "Left")
    rows = []
    for t in progress:
        state = "done" if t.finished else f"playing game {t.next_game}"
        names = ", ".join(players[pid].name for pid in t.players)
        cells: tuple[str, ...] = (str(t.table), names, f"{t.games_done}/{t.games}", state)
        if live is not None:
            table = live.table(t.table)
            snap = table.snapshot
            word = _live_state(comp, stage, table)
            left = table.remaining(now)
            show_left = left is not None and word in _RUNNING_STATES | _JUDGE_STATES
            cells = (
                *cells,
                _live_text(word, table, now),
                "-" if snap is None else str(snap.game),
                _seat_text(comp, t, table, word),
                countdown_text(left) if show_left and left is not None else "-",
            )
        rows.append(cells)
    done = sum(t.finished for t in progress)
    return Grid(
        f"{stage}: {done} of {len(progress)} tables done",
        headers,
        rows,
        numeric=frozenset({0, 7} if live is not None else {0}),
    )


def live_summary(comp: Competition, live: LiveView, now: float) -> list[str]:
    """The round's tables counted by live state (a finished table counts as done
    whatever its unit shows), then the tables waiting for the judge, oldest first."""
    progress = comp.tables()
    stage = comp.event.stages_played[-1] if comp.event.stages_played else "-"
    counts = {"done": 0, "playing": 0, "paused": 0, "judge": 0, "offline": 0}
    extra = {"entering result": 0, "between games": 0, "no data": 0}
    calls: list[tuple[float, int, str]] = []
    for t in progress:
        table = live.table(t.table)
        state = _live_state(comp, stage, table)
        snap = table.snapshot
        if state in _JUDGE_STATES and snap is not None:
            since = snap.measured_at + table.skew
            seat = _seat_text(comp, t, table, state)
            text = f"  table {t.table}: {_live_text(state, table, now)}"
            calls.append((since, t.table, text if seat == "-" else f"{text}, seat {seat}"))
        if t.finished:
            counts["done"] += 1
        elif state in _RUNNING_STATES:
            counts["playing"] += 1
        elif state in (State.PAUSED_JUDGE, State.PAUSED_RESTART):
            counts["paused"] += 1
        elif state is State.JUDGE_CALLED:
            counts["judge"] += 1
        elif state is State.OFFLINE:
            counts["offline"] += 1
        elif state is State.ENTERING_RESULT:
            extra["entering result"] += 1
        elif state is State.NO_DATA:
            extra["no data"] += 1
        else:
            extra["between games"] += 1
    judge = counts["judge"]
    parts = [
        f"{counts['done']} done",
        f"{counts['playing']} playing",
        f"{counts['paused']} paused",
        f"{judge} judge call{'' if judge == 1 else 's'}",
        f"{counts['offline']} offline",
        *(f"{n} {what}" for what, n in extra.items() if n),
    ]
    lines = [f"Tables: {', '.join(parts)}"]
    if calls:
        calls.sort()
        lines.append("Waiting for the judge, oldest first:")
        lines += [line for _, _, line in calls]
    return lines


def round_clock_text(comp: Competition, now: float) -> str:
    stage = comp.open_stage()
    if stage is None:
        return ""
    started = comp.started.get(stage.name)
    if started is None:
        return f"{stage.name} is drawn, not started (rummikub round start)"
    text = f"{stage.name} started {when(started.at)} by {started.by or '-'}"
    deadline = comp.round_deadline()
    if deadline is None:
        return text + "; no round time limit"
    left = deadline[1] - now
    if stage.name in comp.time_over or left <= 0:
        return text + f"; round time over at {when(deadline[1])}: last lap"
    return text + f"; round time left {clock_text(left)} (ends {when(deadline[1])})"


# --- parsing helpers ----------------------------------------------------------------------


def parse_rack(value: str, seat: Seat) -> RackReport:
    """One seat's rack in the rack syntax (module docstring)."""
    text = value.strip().lower()
    match = _RACK.fullmatch(text)
    if text and text in _FLAGS:
        raise CliError(
            f"seat {seat}: {value.strip()!r} needs the tiles left too, e.g. "
            f"85{text} (the penalty replaces them, but they are recorded and checked)"
        )
    if not text or match is None or (match["tiles"] is None and not match["jokers"]):
        raise CliError(f"seat {seat}: {value.strip()!r} is not a rack ({_RACK_HELP})")
    tiles = int(match["tiles"] or 0)
    return RackReport(
        seat=seat, tiles=tiles, jokers=len(match["jokers"]), opening=_FLAGS[match["flag"] or ""]
    )


def parse_racks(text: str, count: int) -> tuple[RackReport, ...]:
    """Every seat of a table of ``count`` players from ``--racks``."""
    seats = seats_for(count)
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    named = [t for t in tokens if "=" in t]
    if named and len(named) != len(tokens):
        raise CliError("--racks: give every seat as SEAT=VALUE, or only the values in seat order")
    values: dict[Seat, str] = {}
    if named:
        for token in tokens:
            letter, _, value = token.partition("=")
            try:
                seat = Seat(letter.strip().upper())
            except ValueError:
                raise CliError(f"--racks: {letter!r} is not a seat (A, B, C or D)") from None
            if seat not in seats:
                raise CliError(
                    f"--racks: seat {seat} is not at this table ({count} players: "
                    f"{', '.join(seats)})"
                )
            if seat in values:
                raise CliError(f"--racks: seat {seat} is given twice")
            values[seat] = value
    else:
        if len(tokens) != count:
            raise CliError(
                f"--racks: {count} players sit at this table (seats {', '.join(seats)}), "
                f"got {len(tokens)} values"
            )
        values = dict(zip(seats, tokens, strict=True))
    missing = [s for s in seats if s not in values]
    if missing:
        raise CliError(f"--racks: no value for seat {', '.join(missing)}")
    try:
        return tuple(parse_rack(values[s], s) for s in seats)
    except CliError as err:
        raise CliError(f"--racks: {err}") from None


def ending_for(racks: Sequence[RackReport], ending: str | None) -> GameEnding:
    if ending is not None:
        return ENDINGS[ending]
    return GameEnding.WENT_OUT if any(r.empty for r in racks) else GameEnding.NOBODY_OUT


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _preset(text: str) -> str:
    try:
        return preset_name(text)
    except TournamentError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _seat(text: str) -> str:
    seat = text.strip().upper()
    if seat not in ("A", "B", "C", "D"):
        raise argparse.ArgumentTypeError(f"a seat is A, B, C or D, got {text!r}")
    return seat


def _minutes(text: str) -> float:
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes") from None
    if not 0 < value <= 24 * 60:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 1440, got {text}")
    return value


def _rating(text: str) -> float | None:
    """--rating: what a players CSV accepts as a rating (a finite number; blank: none)."""
    try:
        return rating_of(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


# --- the context ----------------------------------------------------------------------------


@dataclass
class Ctx:
    db: Path
    by: str
    out: TextIO
    clock: Callable[[], float] = time.time
    _organizer: Organizer | None = None

    def organizer(self, *, create: bool = False) -> Organizer:
        if self._organizer is None:
            if not create and not self.db.is_file():
                raise CliError(
                    f"no event file {self.db}: create the event first (rummikub event create) "
                    "or give --db / RUMMIKUB_DB"
                )
            self._organizer = Organizer(EventStore(self.db), by=self.by, clock=self.clock)
        return self._organizer

    def competition(self) -> Competition:
        return self.organizer().competition

    def print(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def close(self) -> None:
        if self._organizer is not None:
            self._organizer.store.close()


def resolve_player(comp: Competition, text: str) -> str:
    """A player id from ``P007``, ``p7`` or ``7``."""
    players = comp.event.players
    key = text.strip()
    if key in players:
        return key
    digits = key[1:] if key[:1] in "pP" else key
    if digits.isdigit() and f"P{int(digits):03d}" in players:
        return f"P{int(digits):03d}"
    raise CliError(f"unknown player {text!r} (see rummikub players list)")


# --- commands: event ------------------------------------------------------------------------


def cmd_event_create(ctx: Ctx, args: argparse.Namespace) -> int:
    custom: dict[str, Ruleset] = {}
    if args.rulesets is not None:
        if not Path(args.rulesets).is_file():
            raise CliError(f"--rulesets: no such file {args.rulesets}")
        custom = load_rulesets(args.rulesets)
    try:
        name = clean(args.name, "--name")
    except ValueError as err:
        raise CliError(f"event create: {err}") from None
    if not name:
        raise CliError("event create: --name is empty")
    org = ctx.organizer(create=True)
    existing = org.competition.created
    if existing is not None:
        raise CliError(
            f"{ctx.db} already holds the event {existing.name!r}; for a new event give "
            "another file: --db FILE (or RUMMIKUB_DB)"
        )
    org.create_event(
        name,
        args.preset,
        semifinal=args.semifinal,
        ruleset=args.ruleset,
        rulesets=custom,
        round_minutes=args.round_minutes,
    )
    ctx.print(f"Created event {name!r} in {ctx.db}")
    return cmd_event_show(ctx, args)


def _entry_text(stage: Stage) -> str:
    parts = []
    for group in stage.groups:
        entry = group.entry
        if isinstance(entry, Everyone):
            who = "everyone present"
        elif isinstance(entry, TopOverall):
            who = f"top {entry.k} of {entry.of}"
        elif isinstance(entry, TablePlaces):
            who = f"places {entry.first}–{entry.last} at each table of {entry.of}"
        elif isinstance(entry, TopAcrossTables):
            who = f"{'all' if entry.k is None else f'best {entry.k}'} of {entry.of} by table place"
            if entry.group is not None:
                who += f" ({entry.group} tables)"
        elif isinstance(entry, Rest):
            who = f"everyone else of {entry.of} (consolation games, 2 or 5: asked)"
        else:
            who = str(entry)
        label = "" if group.name in ("all", stage.name) else f"{group.name}: "
        parts.append(f"{label}{who}, {group.seating.value}")
    return "; ".join(parts)


def cmd_event_backup(ctx: Ctx, args: argparse.Namespace) -> int:
    status = read_status(ctx.db)
    ctx.print(*status_lines(status, ctx.clock()))
    return 1 if status is not None and status.error else 0


def cmd_event_show(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    created = comp.created
    assert created is not None  # competition() raised otherwise
    event = comp.event
    fmt = event.format
    lines = [f"Event:    {created.name}", f"Preset:   {created.preset}"]
    if comp.fixed:
        lines.append(f"Format:   {fmt.description or fmt.name}")
    else:
        count = len(event.present)
        try:
            scheme = f"now league-{league_scheme_for(count)}"
        except TournamentError:
            scheme = "8–32 players needed"
        lines.append(
            f"Format:   league scheme chosen at the first draw by the players present "
            f"({count} present: {scheme})"
        )
    lines.append(
        f"Players:  {len(event.players)} registered, "
        f"{len(event.present)} present, {len(event.withdrawn)} withdrawn "
        f"(format takes {fmt.min_players}–{fmt.max_players})"
    )
    phase = event.phase
    open_stage = comp.open_stage()
    if phase is Phase.PLAYING and open_stage is not None:
        lines.append(
            f"Phase:    playing {open_stage.name} "
            f"(round {comp.round_number(open_stage.name)} of {len(fmt.stages)})"
        )
    elif phase is Phase.BETWEEN_ROUNDS and event.current_stage is not None:
        lines.append(f"Phase:    between rounds; next {event.current_stage.name}")
    else:
        lines.append(f"Phase:    {phase.value}")
    minutes = f"{created.round_minutes:g} min" if created.round_minutes else "no limit"
    lines.append(f"Round time: {minutes}")
    corrections = sum(len(v) - 1 for v in comp.results.values())
    if corrections or comp.sanctions or comp.undone:
        lines.append(
            f"Judges:   {corrections} correction(s), {len(comp.sanctions)} sanction(s), "
            f"{len(comp.undone)} draw(s) undone (rummikub result corrections, "
            "rummikub sanction list)"
        )
    if not event.stages_played and event.present:  # before the first draw: the hall check
        board = hall_board(expected_tables(comp), latest_checks(ctx.organizer().store))
        ready = sum(r.ready for r in board)
        warning = unchecked_warning(board)
        lines.append(
            f"Hall:     {ready} of {len(board)} tables checked and ready"
            + (f"; {warning.removeprefix('Hall check: ')}" if warning else "")
        )
    lines.extend(replaced_lines(ctx.organizer().store, prefix="Units:    "))
    ctx.print(*lines)
    if comp.fixed:
        rows = []
        for i, stage in enumerate(fmt.stages, start=1):
            rules = comp.ruleset(stage)
            rows.append(
                (
                    str(i),
                    stage.name,
                    str(stage.games),
                    f"{rules.name} ({rules.move_seconds:g} s, {rules.big_points.value})",
                    _entry_text(stage),
                )
            )
        ctx.print(
            "",
            render(
                Grid(
                    "Stages",
                    ("#", "Stage", "Games", "Ruleset", "Players"),
                    rows,
                    numeric=frozenset({0, 2}),
                )
            ),
        )
    ties = ties_lines(comp)
    if ties:
        ctx.print("", *ties)
    return 0


# --- ties at a cut --------------------------------------------------------------------------


def tie_text(comp: Competition, tie: Tie) -> str:
    """Level players at a cut, with names, and how the head judge records the decision."""
    players = comp.event.players
    names = ", ".join(
        f"{pid} {players[pid].name}" if pid in players else pid for pid in tie.players
    )
    ids = " ".join(tie.players)
    return (
        f"Level in {tie.scope} ({tie.big} BP, {signed(tie.small)} SP): {names}. The head "
        f"judge decides: rummikub tie decide --scope {tie.scope} {ids} --why … (best first)"
        + (", or --shared to keep the shared place" if tie.scope == RANKING_SCOPE else "")
        + f"; or a lot the judge orders: rummikub tie lot --scope {tie.scope} {ids}"
    )


def ties_lines(comp: Competition) -> list[str]:
    """Ties the head judge must decide now, then every decision recorded."""
    pending = comp.event.pending_ties()
    lines = [tie_text(comp, tie) for tie in pending]
    if pending:
        lines.insert(0, f"Ties at a cut to decide ({len(pending)}):")
    consolation = comp.event.pending_consolation()
    if consolation is not None:
        lines.insert(0, f"To decide: {consolation} (rummikub round consolation)")
    lines += [exports.tie_decision_text(comp, record) for record in comp.ties]
    lines += [exports.consolation_text(record) for record in comp.consolations]
    return lines


def _tie_target(
    comp: Competition, ids: Sequence[str], scope: str | None
) -> tuple[str, tuple[str, ...]]:
    """The scope and players of a decision: as given, else the pending tie they name."""
    players = tuple(resolve_player(comp, text) for text in ids)
    pending = comp.event.pending_ties()
    if scope is not None and players:
        return scope, players
    matching = [
        t
        for t in pending
        if (scope is None or t.scope == scope) and set(players) <= set(t.players)
    ]
    if len(matching) != 1:
        listed = "; ".join(f"{t.scope}: {' '.join(t.players)}" for t in pending) or "none"
        raise CliError(
            f"tie: give --scope and the players (best first); ties to decide now: {listed}"
        )
    tie = matching[0]
    return tie.scope, players or tie.players


def cmd_tie_list(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    lines = ties_lines(comp)
    ctx.print(*(lines or ["No tie at a cut to decide, none decided"]))
    return 0


def cmd_tie_decide(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    scope, players = _tie_target(org.competition, args.ids, args.scope)
    how = TieHow.SHARED if args.shared else TieHow.JUDGE
    record = org.decide_tie(scope, players, how, why=args.why or "")
    ctx.print(exports.tie_decision_text(org.competition, record))
    return 0


def cmd_tie_lot(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    scope, players = _tie_target(org.competition, args.ids, args.scope)
    record = org.decide_tie(scope, players, TieHow.LOT, why=args.why or "", seed=args.seed)
    ctx.print(exports.tie_decision_text(org.competition, record))
    return 0


def refusals_summary(store: EventStore) -> list[str]:
    """One line when the hub has refused anything from the tables (for ``round status``)."""
    counts = store.refusal_counts()
    if not counts:
        return []
    aside = len(store.set_aside())
    total = sum(c.count for c in counts)
    return [
        f"The hub refused {total} message(s) from the tables; {aside} event(s) set aside "
        "for the judge: rummikub event refusals"
    ]


def replaced_lines(store: EventStore, *, table: int | None = None, prefix: str = "") -> list[str]:
    """One line per table unit replaced (or journal wiped) during the event: a new journal
    epoch, whose events the hub keeps beside the earlier ones."""
    return [
        f"{prefix}table {item.table}'s unit was replaced at {when(item.at)} (a new journal, "
        f"epoch {item.epoch or '-'}; its events are kept as {item.source} beside the earlier "
        "unit's)"
        for item in store.replacements(table=table)
    ]


def cmd_event_refusals(ctx: Ctx, args: argparse.Namespace) -> int:
    store = ctx.organizer().store
    replaced = replaced_lines(store, table=args.table, prefix="  ")
    if replaced:
        ctx.print("Units replaced:", *replaced, "")
    aside = store.set_aside(table=args.table)
    counts = [c for c in store.refusal_counts() if args.table is None or c.table == args.table]
    if not aside and not counts:
        ctx.print("The hub has refused nothing from the tables.")
        return 0
    if aside:
        ctx.print("Set aside for the judge (the unit keeps its copy too):")
        for item in aside:
            ctx.print(
                f"  table {item.table} {item.source} seq {item.seq} at {when(item.received)}: "
                f"{item.code}: {item.reason}",
                f"    sent:   {item.payload.decode('utf-8', 'replace')}",
            )
            if item.stored is not None:
                ctx.print(f"    stored: {item.stored.decode('utf-8', 'replace')}")
    if counts:
        rows = [
            (
                "?" if c.table is None else str(c.table),
                c.code,
                str(c.count),
                when(c.first),
                when(c.last),
            )
            for c in counts
        ]
        ctx.print(
            "",
            render(
                Grid(
                    "Refused by the hub",
                    ("Table", "Why", "Count", "First", "Last"),
                    rows,
                    numeric=frozenset({0, 2}),
                )
            ),
        )
    logged = [r for r in store.refusal_log(args.last) if args.table in (None, r.table)]
    if logged:
        ctx.print("", f"Latest refusals (of the last {MAX_REFUSAL_LOG} kept):")
        for r in logged:
            ctx.print(f"  {when(r.at)} {r.topic}: {r.reason}")
    return 0


# --- commands: players ----------------------------------------------------------------------


def cmd_players_add(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    comp = org.competition
    try:
        name = clean(args.name)
        surname = clean(args.surname) if args.surname else ""
        club = clean(args.club, "club") if args.club else None
        check_surname(name, surname)
    except ValueError as err:
        raise CliError(f"players add: {err}") from None
    if not name:
        raise CliError("players add: the name is empty")
    if len(name) > MAX_NAME:
        raise CliError(f"players add: the name is longer than {MAX_NAME} characters")
    key = player_key(name, club)
    for player in comp.event.players.values():
        if player_key(player.name, player.club) == key:
            raise CliError(
                f"players add: duplicate player {name!r}"
                + (f" ({club})" if club else "")
                + f": already registered as {player.id}"
            )
    player = Player(org.next_player_id(), name, club, args.rating, surname=surname)
    late = org.register([player], check_in=args.check_in)
    ctx.print(
        f"{player.id}  {name}"
        + (f" ({club})" if club else "")
        + (
            " registered, a late arrival: plays from the next draw"
            if late
            else " registered and checked in"
            if args.check_in
            else " registered"
        )
    )
    return 0


def cmd_players_import(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    source = args.file.absolute()
    parsed = read_players_csv(source, args.encoding)
    players = new_players(
        parsed.players, org.competition.event.players, org.next_player_id, str(source)
    )
    late = org.register(players, check_in=args.check_in)
    ctx.print(
        f"Imported {len(players)} players from {args.file.absolute()} "
        f"({players[0].id}–{players[-1].id})"
        + (
            ", late arrivals: they play from the next draw"
            if late
            else ", checked in"
            if args.check_in
            else ""
        )
    )
    how = "as given" if args.encoding else "detected; --encoding ENCODING to read it otherwise"
    ctx.print(f"Read as {parsed.encoding_label} ({how})")
    if parsed.ignored_columns:
        ctx.print(f"Ignored columns: {', '.join(parsed.ignored_columns)}")
    if parsed.surname_comma:
        ctx.print(
            "Names written 'Surname, Given' were read surname first ('Kowalski, Jan' is "
            f"Jan Kowalski): {_lines_text(parsed.surname_comma)}"
        )
    if parsed.long_rows:
        ctx.print(
            f"More cells than the header's {parsed.columns}, the extra ones left out: "
            f"{_lines_text(parsed.long_rows)}; check these players (a comma in a name "
            "splits it in a comma-separated file unless the name is in quotes)"
        )
    return 0


def _lines_text(lines: Sequence[int], shown: int = 12) -> str:
    """``line 4`` or ``lines 2, 5, 9`` (the first ``shown``, then how many more)."""
    more = f" and {len(lines) - shown} more" if len(lines) > shown else ""
    listed = ", ".join(str(n) for n in lines[:shown])
    return f"line{'s' if len(lines) > 1 else ''} {listed}{more}"


def cmd_players_list(ctx: Ctx, args: argparse.Namespace) -> int:
    ctx.print(render(exports.players_grid(ctx.competition())))
    return 0


def cmd_players_check_in(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    comp = org.competition
    event = comp.event
    if args.all:
        if args.ids:
            raise CliError("players check-in: give player ids or --all, not both")
        ids = [
            pid
            for pid in sorted(event.players)
            if pid not in event.present and pid not in event.withdrawn
        ]
        if not ids:
            ctx.print("Everyone registered is already checked in")
            return 0
    elif not args.ids:
        raise CliError("players check-in: give player ids or --all")
    else:
        ids = [resolve_player(comp, text) for text in args.ids]
    org.check_in(ids)
    ctx.print(
        f"Checked in {len(ids)}: {', '.join(ids)}; {len(org.competition.event.present)} present"
    )
    return 0


def cmd_players_late(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    pid = resolve_player(org.competition, args.id)
    org.late_arrival(pid)
    ctx.print(f"{pid} arrived late: joins the next round drawn for everyone present")
    return 0


def cmd_players_withdraw(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    pid = resolve_player(org.competition, args.id)
    reason = args.reason.strip()
    if not reason:
        raise CliError("players withdraw: --reason is empty")
    org.withdraw(pid, reason)
    ctx.print(f"{pid} withdrawn ({reason}): not drawn again; results already played stay")
    return 0


def cmd_players_seeds(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    comp = org.competition
    ids = [resolve_player(comp, text) for text in args.ids]
    org.declare_seeds(ids)
    names = ", ".join(f"{pid} {comp.event.players[pid].name}" for pid in ids)
    ctx.print(f"Seeds (best first): {names}")
    ctx.print(f"Seeding: {seeding_text(org.competition, len(ids))}")
    return 0


# --- commands: rounds -----------------------------------------------------------------------


def seating_text(comp: Competition, seated: RoundSeated) -> str:
    grid = exports.seating_grid(comp, seated.stage)
    three = sum(len(t.players) == 3 for t in seated.tables)
    games = comp.format.stages[comp.format.stage_index(seated.stage)].games
    starts = ", ".join(f"game {g}: seat {SEATS[(g - 1) % 4]}" for g in range(1, games + 1))
    return "\n".join(
        [
            f"Round {comp.round_number(seated.stage)} ({seated.stage}): {len(seated.tables)} "
            f"tables ({three} of 3 players), seed {seated.seed}, repeated pairs: "
            f"{seated.repeats}",
            render(grid),
            f"Starting seat by rotation — {starts}"
            + (" (3-player tables wrap after C)" if three and games > 3 else ""),
        ]
    )


def cmd_round_draw(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    try:
        seated = org.draw(args.seed)
    except ConsolationError as err:
        options = " | ".join(f"--promote {k}" for k in err.options)
        ctx.print(
            "The draw stops: " + str(err),
            f"Record the organizer's decision: rummikub round consolation {options} | --none "
            "--why …, then draw again.",
        )
        raise CliError(
            f"round draw: {len(err.players)} player(s) for consolation games cannot sit at "
            "tables of 3 or 4; the organizer decides; nothing drawn"
        ) from None
    except TieAtCutError as err:
        comp = org.competition
        ctx.print(
            f"The draw stops at a cut: players level on big and small points reach different "
            f"things ({err.what}); the head judge decides (002, RULES.md §3.5).",
            *(tie_text(comp, tie) for tie in err.ties),
        )
        raise CliError(
            f"round draw: {len(err.ties)} tie(s) at a cut for the head judge; nothing drawn"
        ) from None
    comp = org.competition
    ctx.print(seating_text(comp, seated))
    if comp.event.stages_played == (seated.stage,):  # the event's first draw
        rows = hall_board(expected_tables(comp), latest_checks(org.store))
        warning = unchecked_warning(rows)
        if warning is not None:
            ctx.print(warning)
    return 0


def cmd_event_hall(ctx: Ctx, args: argparse.Namespace) -> int:
    source = live_source(args, os.environ)
    comp = ctx.competition()
    live = None
    if source is not None:
        live, _ = fold_retained(source.topics, gather_retained(source), ctx.clock())
    rows = hall_board(expected_tables(comp), latest_checks(ctx.organizer().store), live)
    if not rows:
        ctx.print("No tables yet: check players in (rummikub players check-in) or draw")
        return 0
    lines = []
    for row in rows:
        online = {True: "yes", False: "NO", None: "?"}[row.online]
        at = when(row.checked_at) if row.checked_at is not None else ""
        lines.append((str(row.table), online, row.status, at))
    title = "Hall check before the first round"
    headers = ("Table", "Online", "Hall check", "Checked at")
    ctx.print(render(Grid(title, headers, lines, numeric=frozenset({0}))))
    ready = sum(r.ready for r in rows)
    ctx.print(f"{ready} of {len(rows)} tables checked and ready")
    warning = unchecked_warning(rows)
    if warning is not None:
        ctx.print(warning.removesuffix(" (rummikub event hall)"))
    if live is None:
        ctx.print("Online: ? — with --broker HOST:PORT the board shows which units are online")
    return 0


def cmd_round_consolation(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    record = org.decide_consolation(promote=args.promote or 0, none=args.none, why=args.why)
    ctx.print(exports.consolation_text(record), "Next: rummikub round draw")
    return 0


def cmd_round_start(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    started = org.start_round(args.minutes)
    comp = org.competition
    ctx.print(f"Started {started.stage} at {when(started.at)}")
    deadline = comp.round_deadline()
    if deadline is not None:
        ctx.print(
            f"Round time ends at {when(deadline[1])}: then every table still playing "
            "gets the last lap"
        )
    return 0


def cmd_round_starter(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    chosen = org.choose_starter(args.table, Seat(args.seat), game=args.game, why=args.why)
    ctx.print(
        f"Table {chosen.table}, game {chosen.game} of {chosen.stage}: seat {chosen.seat} "
        "starts (sent to the table with its seating; the table can still choose before the "
        "first press)"
    )
    return 0


def live_source(args: argparse.Namespace, env: Mapping[str, str]) -> LiveSource | None:
    """The broker and topics of ``round status`` from its options, else from the
    environment (RUMMIKUB_BROKER, _VENUE, _EVENT, _USERNAME, _PASSWORD_FILE); None
    without a broker."""
    broker: tuple[str, int] | None = args.broker
    if broker is None and env.get("RUMMIKUB_BROKER"):
        try:
            broker = parse_broker(env["RUMMIKUB_BROKER"])
        except argparse.ArgumentTypeError as err:
            raise CliError(f"RUMMIKUB_BROKER: {err}") from None
    if broker is None:
        given = [
            option
            for option, value in (
                ("--venue", args.venue),
                ("--event", args.event),
                ("--username", args.username),
                ("--password-file", args.password_file),
            )
            if value is not None
        ]
        if given:
            raise CliError(f"round status: {', '.join(given)} needs --broker HOST:PORT")
        return None
    venue = args.venue or env.get("RUMMIKUB_VENUE") or "hall"
    event = args.event or env.get("RUMMIKUB_EVENT") or "demo"
    username = args.username or env.get("RUMMIKUB_USERNAME") or None
    password_file = args.password_file or env.get("RUMMIKUB_PASSWORD_FILE") or None
    if password_file is not None and username is None:
        raise CliError("round status: --password-file needs --username")
    try:
        topics = Topics(venue, event)
    except ValueError as err:
        raise CliError(f"round status: {err} (--venue/--event)") from None
    try:
        password = None if password_file is None else read_secret(password_file, "--password-file")
    except ValueError as err:
        raise CliError(f"round status: {err}") from None
    return LiveSource(broker[0], broker[1], topics, username, password)


def _live_options(p: argparse.ArgumentParser) -> None:
    """The broker options of the commands that read the tables' retained messages."""
    p.add_argument(
        "--broker",
        type=parse_broker,
        metavar="HOST:PORT",
        help="MQTT broker the tables publish to (default $RUMMIKUB_BROKER)",
    )
    p.add_argument("--venue", help="topic level: the venue (default $RUMMIKUB_VENUE or hall)")
    p.add_argument("--event", help="topic level: the event (default $RUMMIKUB_EVENT or demo)")
    p.add_argument("--username", help="broker account (default $RUMMIKUB_USERNAME)")
    p.add_argument(
        "--password-file",
        type=Path,
        help="file holding the account's password (default $RUMMIKUB_PASSWORD_FILE)",
    )


def cmd_round_status(ctx: Ctx, args: argparse.Namespace) -> int:
    source = live_source(args, os.environ)
    comp = ctx.competition()
    if not comp.event.stages_played:
        ctx.print(
            f"Nothing drawn yet: {len(comp.event.present)} players present (rummikub round draw)"
        )
        return 0
    live: LiveView | None = None
    ignored = 0
    messages: list[tuple[str, bytes]] = []
    if source is not None:
        messages = gather_retained(source)
    now = ctx.clock()
    if source is not None:
        live, ignored = fold_retained(source.topics, messages, now)
    clock_line = round_clock_text(comp, now)
    if clock_line:
        ctx.print(clock_line)
    ctx.print(render(status_grid(comp, now, live)))
    if source is not None and live is not None:
        ctx.print(*live_summary(comp, live, now))
        if not live.tables:
            ctx.print(
                f"No table unit has published under {source.topics.base}/table/ on "
                f"{source.host}:{source.port}: check --venue and --event"
            )
        if ignored:
            ctx.print(f"Ignored {ignored} retained message(s) that are not valid protocol messages")
    missing = comp.event.missing_results()
    if missing and comp.open_stage() is not None:
        ctx.print("Missing: " + ", ".join(f"table {m.table} game {m.game}" for m in missing))
    for rejected in comp.rejected[-5:]:
        ctx.print(
            f"Rejected at {when(rejected.at)}: table {rejected.table} game "
            f"{rejected.game} from {rejected.unit or rejected.by}: {rejected.reason}"
        )
    ctx.print(*refusals_summary(ctx.organizer().store))
    ctx.print(*replaced_lines(ctx.organizer().store, prefix="Units: "))
    backup = read_status(ctx.db)
    if backup is not None:
        ctx.print(*status_lines(backup, now))
    if live is None:
        ctx.print(LIVE_HINT)
    return 0


def cmd_round_undo(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    undone = org.undo_draw(args.why)
    comp = org.competition
    ctx.print(
        f"Draw of {undone.stage} undone: its tables are told they have no assignment; "
        "draw it again with rummikub round draw"
    )
    if comp.event.phase is Phase.REGISTRATION:
        ctx.print(f"{len(comp.event.present)} players present; check-in is open again")
    return 0


def cmd_round_close(ctx: Ctx, args: argparse.Namespace) -> int:
    if args.why and not args.force:
        raise CliError("round close: --why goes with --force")
    org = ctx.organizer()
    closed = org.close_round(force=args.force, why=args.why or "")
    comp = org.competition
    ctx.print(
        f"Closed {closed.stage}"
        + (" (forced: missing games count as not played)" if closed.forced else "")
    )
    ctx.print(render(exports.standings_grid(comp, closed.stage)))
    nxt = comp.event.current_stage
    if comp.event.phase is Phase.FINISHED:
        ctx.print("The event is finished: rummikub ranking")
    elif nxt is not None:
        ctx.print(f"Next: {nxt.name} (rummikub round draw)")
    return 0


# --- commands: results ----------------------------------------------------------------------


def _table_seats(comp: Competition, stage: str, table: int) -> tuple[str, ...]:
    seating = comp.event.seating(stage)
    if not 1 <= table <= len(seating):
        raise CliError(f"table {table}: {stage} has tables 1–{len(seating)}")
    return seating[table - 1].players


def _stage_arg(comp: Competition, stage: str | None) -> str:
    played = comp.event.stages_played
    if not played:
        raise CliError("nothing is drawn yet: rummikub round draw")
    if stage is None:
        return played[-1]
    if stage not in played:
        raise CliError(f"--stage: {stage!r} is not drawn (drawn: {', '.join(played)})")
    return stage


def _prompt_racks(
    comp: Competition, players: Sequence[str], table: int, ask: Callable[[str], str]
) -> tuple[RackReport, ...]:
    racks = []
    for seat, pid in zip(seats_for(len(players)), players, strict=True):
        while True:
            text = ask(f"{table}{seat} {comp.event.players[pid].name}: ")
            try:
                racks.append(parse_rack(text, seat))
                break
            except CliError as err:
                print(err, file=sys.stderr)
    return tuple(racks)


def cmd_result_enter(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    comp = org.competition
    stage = _stage_arg(comp, args.stage)
    players = _table_seats(comp, stage, args.table)
    interactive = args.racks is None
    if interactive:
        if not sys.stdin.isatty():
            raise CliError("result enter: give --racks (stdin is not a terminal to ask on)")
        racks = _prompt_racks(comp, players, args.table, input)
    else:
        racks = parse_racks(args.racks, len(players))
    why = args.why or ""
    if interactive and not why:
        open_stage = comp.open_stage()
        if comp.history(stage, args.table, args.game):
            why = input("A result is recorded: reason for the correction: ")
        elif open_stage is None or open_stage.name != stage:
            why = input(f"{stage} is not the round being played: reason for the late result: ")
    report = GameReport(game=args.game, ending=ending_for(racks, args.ending), racks=racks)
    record = org.result_record(args.table, report, why=why, stage=stage)
    confirmed = confirm(
        ctx, org, record, f"result enter: table {args.table} game {args.game} of {stage}", args.yes
    )
    if confirmed is None:
        return 1
    version = org.enter_result(args.table, report, why=why, stage=stage, confirmed=confirmed)
    versions = org.competition.history(stage, args.table, args.game)
    ctx.print(_version_header(len(versions), version))
    grid = exports.version_grid(org.competition, stage, args.table, [version], len(versions))
    ctx.print(render(grid))
    return 0


CHANGE_WORDS: Final[Mapping[ChangeKind, str]] = {
    ChangeKind.QUALIFIES: "would now qualify",
    ChangeKind.DROPS: "would no longer qualify",
    ChangeKind.SEATING: "seating already drawn",
    ChangeKind.DRAW: "draw already made",
    ChangeKind.PLACE: "final place",
    ChangeKind.TITLE: "title",
    ChangeKind.LEAGUE: "league points",
    ChangeKind.STANDINGS: "place in the standings",
}


def confirm(
    ctx: Ctx, org: Organizer, record: ResultRecorded | OrganizerFact, what: str, yes: bool
) -> bool | None:
    """Whether ``record`` may be stored: True once confirmed (or when it changes nothing
    weighty: False, nothing to confirm), None when the person declined. What it changes
    is printed first; without a terminal to ask on, only ``--yes`` confirms."""
    changes = org.effects(record)
    if not any(c.weighty for c in changes):
        return False
    ctx.print(f"{what.split(': ', 1)[-1]}: this changes", "")
    ctx.print(render(changes_grid(org.competition, changes)), "")
    if yes:
        return True
    if not sys.stdin.isatty():
        raise CliError(
            f"{what} changes what is listed above; nothing recorded: run again with --yes "
            "to record it"
        )
    answer = input("Record it? [y/N] ").strip().casefold()
    if answer not in ("y", "yes", "t", "tak"):
        ctx.print("Nothing recorded")
        return None
    return True


def changes_grid(comp: Competition, changes: Sequence[Change]) -> Grid:
    """What a correction changes, for whom: the weighty first, then the standings."""
    ordered = sorted(changes, key=lambda c: not c.weighty)
    rows = [
        (
            c.stage or "-",
            CHANGE_WORDS[c.kind],
            c.player_id,
            comp.event.players[c.player_id].name if c.player_id else "",
            c.before,
            c.after,
        )
        for c in ordered
    ]
    return Grid(
        "What changes",
        ("Stage", "Change", "ID", "Player", "Before", "After"),
        rows,
        note="The rounds already drawn keep their tables: undo a draw no table has started "
        "(rummikub round undo), or decide at the tables.",
    )


def _version_header(number: int, version: ResultVersion) -> str:
    record = version.record
    kind = "correction" if number > 1 else "result"
    text = (
        f"Version {number} ({kind}, {record.source.value}) recorded {when(record.at)} by "
        f"{record.by or '-'}, ending {record.report.ending.value}"
    )
    return text + (f"; why: {record.why}" if record.why else "")


def cmd_result_history(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    stage = _stage_arg(comp, args.stage)
    _table_seats(comp, stage, args.table)
    comp.table_playing(stage, args.table, args.game)
    versions = comp.history(stage, args.table, args.game)
    if not versions:
        ctx.print(f"Table {args.table} game {args.game} ({stage}): no result yet")
        return 0
    for number, version in enumerate(versions, start=1):
        ctx.print(_version_header(number, version))
    ctx.print(render(exports.version_grid(comp, stage, args.table, versions)))
    return 0


def cmd_result_corrections(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    grid = exports.corrections_grid(comp)
    ctx.print(render(grid) if grid.rows else "No corrections recorded")
    for record, tables in comp.undone:
        stage = record.fact.stage if isinstance(record.fact, RoundUndone) else "?"
        ctx.print(
            f"Draw of {stage} undone {when(record.at)} by {record.by or '-'} "
            f"({len(tables)} tables); why: {record.why}"
        )
    return 0


# --- commands: sanctions, a player's history -------------------------------------------------


def _sanction(ctx: Ctx, args: argparse.Namespace, kind: SanctionKind, big: int = 0) -> int:
    org = ctx.organizer()
    comp = org.competition
    pid = resolve_player(comp, args.id)
    stage = None if args.stage is None else _stage_arg(comp, args.stage)
    draft = org.sanction_record(pid, kind, why=args.why, big=big, stage=stage)
    confirmed = confirm(ctx, org, draft, f"sanction {args.command}: {pid}", args.yes)
    if confirmed is None:
        return 1
    record = org.sanction(draft, confirmed=confirmed)
    comp = org.competition
    name = comp.event.players[pid].name
    where = f" in {record.fact.stage}" if isinstance(record.fact, PlayerSanctioned) else ""
    what = {
        SanctionKind.WARNING: "warned",
        SanctionKind.DEDUCTION: f"{big} big point{'s' if big > 1 else ''} deducted",
        SanctionKind.DISQUALIFICATION: "disqualified: not seated in any later round",
    }[kind]
    ctx.print(f"{pid} {name}: {what}{where}; recorded {when(record.at)} by {record.by or '-'}")
    if kind is SanctionKind.DEDUCTION and comp.event.stages_played:
        ctx.print(render(exports.standings_grid(comp, _stage_arg(comp, None))))
    return 0


def cmd_sanction_warn(ctx: Ctx, args: argparse.Namespace) -> int:
    return _sanction(ctx, args, SanctionKind.WARNING)


def cmd_sanction_deduct(ctx: Ctx, args: argparse.Namespace) -> int:
    return _sanction(ctx, args, SanctionKind.DEDUCTION, args.big)


def cmd_sanction_disqualify(ctx: Ctx, args: argparse.Namespace) -> int:
    return _sanction(ctx, args, SanctionKind.DISQUALIFICATION)


def cmd_sanction_lift(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    draft = org.lift_record(args.number, why=args.why)
    confirmed = confirm(ctx, org, draft, f"sanction lift: sanction {args.number}", args.yes)
    if confirmed is None:
        return 1
    record = org.sanction(draft, confirmed=confirmed)
    comp = org.competition
    _, given, _ = comp.numbered_sanctions()[args.number - 1]
    fact = given.fact
    assert isinstance(fact, PlayerSanctioned)
    ctx.print(
        f"Sanction {args.number} lifted ({fact.kind} of {fact.player_id} "
        f"{comp.event.players[fact.player_id].name}); recorded {when(record.at)} by "
        f"{record.by or '-'}"
    )
    return 0


def cmd_sanction_list(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    if not comp.sanctions:
        ctx.print("No sanctions recorded")
        return 0
    ctx.print(render(exports.sanctions_grid(comp)))
    return 0


def cmd_players_history(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    pid = resolve_player(comp, args.id)
    event = comp.event
    player = event.players[pid]
    status = (
        "disqualified" if pid in event.disqualified
        else "withdrawn" if pid in event.withdrawn
        else "present" if pid in event.present
        else "registered"
    )
    ctx.print(f"{pid} {player.name}" + (f", {player.club}" if player.club else "") + f": {status}")
    ctx.print(render(exports.player_stages_grid(comp, pid)))
    ctx.print(render(exports.player_games_grid(comp, pid)))
    if comp.numbered_sanctions(pid):
        ctx.print(render(exports.sanctions_grid(comp, pid)))
    else:
        ctx.print("No sanctions")
    if comp.changes_of(pid):
        ctx.print(render(exports.player_changes_grid(comp, pid)))
    return 0


def cmd_players_rename(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    pid = resolve_player(org.competition, args.id)
    if args.club is not None and args.no_club:
        raise CliError("players rename: give --club or --no-club, not both")
    change = org.change_player(
        pid,
        why=args.why,
        name=args.name,
        given=args.given,
        surname=args.surname,
        club=args.club,
        clear_club=args.no_club,
    )
    before, after = change.before, change.after
    ctx.print(f"{pid}: {exports.player_details(before)} → {exports.player_details(after)}")
    ctx.print(
        f"Surname {after.family_name!r}, given name {after.given_name!r}; "
        f"recorded {when(change.record.at)} by {change.record.by or '-'}: {change.record.why}"
    )
    return 0


# --- commands: standings, ranking, exports --------------------------------------------------


def cmd_standings(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    stage = _stage_arg(comp, args.stage)
    if args.table is not None:
        _table_seats(comp, stage, args.table)
    ctx.print(render(exports.standings_grid(comp, stage, args.table, overall=args.overall)))
    closed = exports.last_closed(comp)
    if args.stage is None and exports.in_play(comp, stage) and closed and not args.overall:
        ctx.print(f"The last closed round: rummikub standings --stage {closed}")
    return 0


def cmd_ranking(ctx: Ctx, args: argparse.Namespace) -> int:
    ctx.print(render(exports.ranking_grid(ctx.competition())))
    return 0


def _folder(path: Path) -> Path:
    """``path`` as a folder to write files in, made if it is not there; a file there is
    refused by name (a folder is needed)."""
    for part in (path, *path.parents):
        if part.exists() and not part.is_dir():
            raise CliError(f"{part.absolute()} is a file; give a folder to write the files in")
    path.mkdir(parents=True, exist_ok=True)
    return path


def _write(directory: Path, name: str, data: bytes) -> Path:
    path = directory.absolute() / name
    tmp = path.with_name(f".{name}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return path


def cmd_export_csv(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    _stage_arg(comp, None)
    files = exports.csv_files(comp, ";" if args.semicolon else ",")
    _folder(args.dir)
    for name, text in files.items():
        ctx.print(str(_write(args.dir, name, text.encode("utf-8-sig"))))
    return 0


def cmd_export_html(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    docs = exports.printouts(comp, _stage_arg(comp, args.stage))
    _folder(args.dir)
    for stem, doc in docs.items():
        ctx.print(str(_write(args.dir, f"{stem}.html", doc.encode("utf-8"))))
    return 0


def cmd_export_pdf(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    docs = exports.printouts(comp, _stage_arg(comp, args.stage))
    pdfs = {f"{stem}.pdf": printing.pdf(doc) for stem, doc in docs.items()}
    _folder(args.dir)
    for name, data in pdfs.items():
        ctx.print(str(_write(args.dir, name, data)))
    return 0


def cmd_export_archive(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    _stage_arg(comp, None)
    data = archive.event_archive(
        comp, pdf=printing.pdf, at=ctx.clock(), delimiter=";" if args.semicolon else ","
    )
    target: Path = args.file
    if target.is_dir():
        target = target / f"{archive.slug(exports.event_name(comp))}.zip"
    _folder(target.parent)
    path = _write(target.parent, target.name, data)
    with zipfile.ZipFile(io.BytesIO(data)) as made:
        count = len(made.namelist())
    ctx.print(f"{path} ({count} files, {len(data) // 1024 + 1} kB)")
    return 0


# --- commands: season -----------------------------------------------------------------------


def _season(args: argparse.Namespace) -> tuple[list[SeasonEvent], list[SeasonLine]]:
    events = [season_event(open_competition(p), str(p)) for p in args.events]
    lines, _ = season_lines(events)
    return events, lines


def cmd_season_table(ctx: Ctx, args: argparse.Namespace) -> int:
    events, lines = _season(args)
    ctx.print(render(season_grid(events, lines)))
    ctx.print(*season_legend(events))
    return 0


def cmd_season_export(ctx: Ctx, args: argparse.Namespace) -> int:
    events, lines = _season(args)
    doc = season_html(events, lines)
    files = {
        "season.csv": season_csv(events, lines, ";" if args.semicolon else ",").encode(
            "utf-8-sig"
        ),
        "season.html": doc.encode("utf-8"),
        "season.pdf": printing.pdf(doc),
    }
    _folder(args.dir)
    for name, data in files.items():
        ctx.print(str(_write(args.dir, name, data)))
    return 0


def cmd_season_seeds(ctx: Ctx, args: argparse.Namespace) -> int:
    events = [season_event(open_competition(p), str(p)) for p in args.events]
    _, rows = season_lines(events)
    org = ctx.organizer()
    event = org.competition.event
    seeds = seeds_for(rows, event.players, event.withdrawn)
    if not seeds:
        raise CliError("season seeds: no registered player of this event is in the season table")
    points = {r.player_id: r.points for r in rows}
    for i, player in enumerate(seeds, start=1):
        key = season_match_key(player.name)
        ctx.print(f"{i}. {player.id}  {player.name}  ({points[key]} season points)")
    statement = seeding_text(org.competition, len(seeds))
    if args.declare:
        org.declare_seeds([p.id for p in seeds])
        ctx.print(f"Declared as seeds: {statement}")
    else:
        ctx.print(f"Not declared yet (add --declare to seed them): {statement}")
    return 0


# --- the parser -----------------------------------------------------------------------------


def yes_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--yes",
        action="store_true",
        help="record it without asking when it changes who qualified, a seating drawn, "
        "places, titles or league points (scripts); what it changes is still printed",
    )


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError(f"{self.prog}: {message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument(
        "--db",
        type=Path,
        default=argparse.SUPPRESS,
        help="the event file (default $RUMMIKUB_DB or ./" + DEFAULT_DB + ")",
    )
    common.add_argument(
        "--by",
        default=argparse.SUPPRESS,
        help="who runs the command, recorded with it (default $USER)",
    )
    parser = _Parser(
        prog=PROG,
        description="Rummikub tournament organizer: the whole day.",
        epilog=RACK_SYNTAX,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        help=f"the event file (default $RUMMIKUB_DB or ./{DEFAULT_DB}); also after COMMAND",
    )
    parser.add_argument(
        "--by", default=None, help="who runs the command, recorded with it (default $USER)"
    )
    groups = parser.add_subparsers(dest="group", metavar="COMMAND", parser_class=_Parser)
    groups.required = True

    def leaf(
        sub: argparse._SubParsersAction[_Parser],
        name: str,
        func: Callable[..., int],
        help_text: str,
    ) -> _Parser:
        p = sub.add_parser(name, help=help_text, description=help_text, parents=[common])
        p.set_defaults(func=func)
        return p

    def group(name: str, help_text: str) -> argparse._SubParsersAction[_Parser]:
        p = groups.add_parser(name, help=help_text, description=help_text)
        sub = p.add_subparsers(dest="command", metavar="ACTION", parser_class=_Parser)
        sub.required = True
        return sub

    event = group("event", "create the event from a preset, show it")
    p = leaf(event, "create", cmd_event_create, "create the event from a preset")
    p.add_argument(
        "--preset", required=True, type=_preset, metavar="PRESET",
        help=f"one of {', '.join(PRESET_NAMES)}, or a rule book's number (000, 002, 003, 004)",
    )
    p.add_argument("--name", required=True)
    p.add_argument(
        "--semifinal", type=int, choices=(6, 8), default=8,
        help="championship: players in the semifinal (8, or 6)"
    )
    p.add_argument("--ruleset", help="one ruleset for every stage (built-in or custom name)")
    p.add_argument("--rulesets", type=Path, help="TOML file with custom rulesets")
    p.add_argument(
        "--round-minutes",
        type=_minutes,
        help="round time; when it runs out the tables play the last lap",
    )
    leaf(event, "show", cmd_event_show, "the event: preset, stages, phase, players")
    leaf(
        event,
        "backup",
        cmd_event_backup,
        "the hub's copy of this event file (rummikub-hub serve --backup): when it was last "
        "made, whether copying fails",
    )
    p = leaf(
        event,
        "hall",
        cmd_event_hall,
        "the hall check: which tables are checked and ready (with --broker: online)",
    )
    _live_options(p)
    p = leaf(
        event,
        "refusals",
        cmd_event_refusals,
        "what the hub refused from the tables: events set aside (conflicts), counts, the log",
    )
    p.add_argument("--table", type=_positive_int, help="only this table")
    p.add_argument("--last", type=_positive_int, default=20, help="log lines (default 20)")

    players = group("players", "register, import, check in, late arrivals, withdrawals")
    p = leaf(players, "add", cmd_players_add, "register one player")
    p.add_argument("name", help="given name first, e.g. 'Anna Nowak'")
    p.add_argument("--surname", help="when it is not the last word of the name ('de Lange')")
    p.add_argument("--club")
    p.add_argument("--rating", type=_rating, help="rating or league points (for seeding)")
    p.add_argument("--check-in", action="store_true")
    p = leaf(players, "import", cmd_players_import, "register every player of a CSV file")
    p.add_argument("file", type=Path)
    p.add_argument("--check-in", action="store_true")
    p.add_argument(
        "--encoding",
        help="the file's text encoding (default: detected), e.g. utf-8, cp1250, iso8859-2",
    )
    leaf(players, "list", cmd_players_list, "every registered player and their status")
    p = leaf(players, "check-in", cmd_players_check_in, "mark players present before the draw")
    p.add_argument("ids", nargs="*", metavar="ID")
    p.add_argument("--all", action="store_true", help="everyone registered")
    p = leaf(players, "late", cmd_players_late, "a player arrived after the first draw")
    p.add_argument("id", metavar="ID")
    p = leaf(players, "withdraw", cmd_players_withdraw, "a player leaves the event")
    p.add_argument("id", metavar="ID")
    p.add_argument("--reason", required=True)
    p = leaf(
        players,
        "seeds",
        cmd_players_seeds,
        "declare seeds kept at different first-stage tables (league), best first",
    )
    p.add_argument("ids", nargs="+", metavar="ID")
    p = leaf(
        players,
        "history",
        cmd_players_history,
        "one player's stages, games (as they count), sanctions and name changes",
    )
    p.add_argument("id", metavar="ID")
    p = leaf(
        players,
        "rename",
        cmd_players_rename,
        "correct a player's name, surname or club (recorded with who, when and why)",
    )
    p.add_argument("id", metavar="ID")
    p.add_argument(
        "name", nargs="?", help="the whole name, given name first (its last word the surname)"
    )
    p.add_argument("--given", help="the given name(s) only")
    p.add_argument(
        "--surname",
        help="the surname, when it is not the last word (e.g. 'de Lange', 'Maria Kowalska')",
    )
    p.add_argument("--club", help="the new club or school")
    p.add_argument("--no-club", action="store_true", help="remove the club")
    p.add_argument("--why", required=True, help="the reason, recorded with it")

    rounds = group("round", "draw, start, follow and close a round")
    p = leaf(rounds, "draw", cmd_round_draw, "seat the next round")
    p.add_argument("--seed", type=int, help="the draw's seed (default: random, recorded)")
    p = leaf(
        rounds,
        "consolation",
        cmd_round_consolation,
        "league TOP 20/32: seat 2 or 5 players left for consolation games (003 §10e)",
    )
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument(
        "--promote", type=_positive_int, metavar="N", help="the best N of them play on"
    )
    how.add_argument("--none", action="store_true", help="they play no more games")
    p.add_argument("--why", required=True, help="the reason, recorded")
    p = leaf(rounds, "start", cmd_round_start, "start the round (and its timer)")
    p.add_argument("--minutes", type=_minutes, help="this round's time (default: the event's)")
    p = leaf(
        rounds,
        "starter",
        cmd_round_starter,
        "the seat that starts a table's game (default: rotation, or the table's choice)",
    )
    p.add_argument("--table", type=_positive_int, required=True)
    p.add_argument("--seat", required=True, type=_seat, help="A, B, C or D")
    p.add_argument("--game", type=_positive_int, help="the game (default: the table's next)")
    p.add_argument("--why", default="", help="how it was chosen, e.g. 'highest tile'")
    p = leaf(
        rounds,
        "status",
        cmd_round_status,
        "progress of every table; with --broker also each table's live clock state",
    )
    _live_options(p)
    p = leaf(
        rounds,
        "undo",
        cmd_round_undo,
        "take back the latest draw while no table has started it (then draw again)",
    )
    p.add_argument("--why", required=True, help="why the draw is taken back (recorded)")
    p = leaf(rounds, "close", cmd_round_close, "close the round when every result is in")
    p.add_argument("--force", action="store_true", help="close with games missing")
    p.add_argument("--why", help="why the missing games are not played (with --force)")

    results = group("result", "enter or correct a game's result, show its history")
    p = leaf(results, "enter", cmd_result_enter, "enter (or correct) a game's result")
    p.add_argument("--table", type=_positive_int, required=True)
    p.add_argument("--game", type=_positive_int, required=True)
    p.add_argument("--racks", help='e.g. "A=0 B=23 C=12j D=85np" (see rummikub --help)')
    p.add_argument("--ending", choices=sorted(ENDINGS))
    p.add_argument(
        "--why", help="reason for a correction or a late result (required for them)"
    )
    p.add_argument("--stage", help="any round drawn (default: the latest)")
    yes_option(p)
    leaf(
        results,
        "corrections",
        cmd_result_corrections,
        "every correction of the event (who, when, why) and every draw undone",
    )
    p = leaf(results, "history", cmd_result_history, "every version of a game's result")
    p.add_argument("--table", type=_positive_int, required=True)
    p.add_argument("--game", type=_positive_int, required=True)
    p.add_argument("--stage")

    sanction = group(
        "sanction", "a judge's sanctions (002 §3): warning, big points deducted, disqualification"
    )
    for name, func, help_text in (
        ("warn", cmd_sanction_warn, "record a warning (ostrzeżenie)"),
        ("deduct", cmd_sanction_deduct, "deduct big points (odjęcie dużych punktów)"),
        (
            "disqualify",
            cmd_sanction_disqualify,
            "disqualify (dyskwalifikacja): never seated again, ranked after everyone",
        ),
    ):
        p = leaf(sanction, name, func, help_text)
        p.add_argument("id", metavar="ID")
        if name == "deduct":
            p.add_argument("--big", type=_positive_int, required=True, help="big points")
        p.add_argument("--why", required=True, help="the reason, recorded with it")
        p.add_argument(
            "--stage", help="the stage it is given in (default: the latest the player plays in)"
        )
        yes_option(p)
    p = leaf(
        sanction,
        "lift",
        cmd_sanction_lift,
        "take back a sanction given by mistake (its number in sanction list)",
    )
    p.add_argument("number", type=_positive_int, metavar="N")
    p.add_argument("--why", required=True, help="the reason, recorded with it")
    yes_option(p)
    leaf(sanction, "list", cmd_sanction_list, "every sanction with who, when and why")

    p = leaf(groups, "standings", cmd_standings, "standings of a round, a table or overall")
    p.add_argument("--stage")
    p.add_argument("--table", type=_positive_int)
    p.add_argument("--overall", action="store_true", help="every game of the event so far")
    leaf(groups, "ranking", cmd_ranking, "final ranking with titles (and league points)")

    export = group("export", "CSV for spreadsheets, HTML and PDF to print")
    p = leaf(
        export,
        "csv",
        cmd_export_csv,
        "every stage's standings, results, corrections, seating, sanctions, players (ranking)",
    )
    p.add_argument("dir", type=Path)
    p.add_argument("--semicolon", action="store_true", help="';' delimiter (Polish Excel)")
    p = leaf(
        export,
        "archive",
        cmd_export_archive,
        "one zip file: every stage's standings, games, corrections, sanctions, seatings, "
        "as CSV and printable HTML/PDF (for the league's website)",
    )
    p.add_argument("file", type=Path, help="the .zip to write (a folder: EVENT-NAME.zip in it)")
    p.add_argument("--semicolon", action="store_true", help="';' in the CSV files")
    for name, func, what in (
        ("html", cmd_export_html, "seating, find-your-table, score sheets, standings, ranking"),
        ("pdf", cmd_export_pdf, "the same documents as export html, as A4 PDF files"),
    ):
        p = leaf(export, name, func, what)
        p.add_argument("dir", type=Path)
        p.add_argument("--stage", help="default: the latest round")

    tie = group(
        "tie", "ties at a cut: the head judge's decision, or a lot the judge orders (recorded)"
    )
    leaf(tie, "list", cmd_tie_list, "ties to decide now and every decision recorded")
    p = leaf(tie, "decide", cmd_tie_decide, "the head judge's order of level players")
    p.add_argument("ids", nargs="+", metavar="ID", help="the level players, best first")
    p.add_argument("--scope", help="the ranking (as rummikub tie list shows it)")
    p.add_argument("--why", help="the reason (required)")
    p.add_argument(
        "--shared", action="store_true", help="final places only: they keep the shared place"
    )
    p = leaf(tie, "lot", cmd_tie_lot, "a lot the head judge orders for level players")
    p.add_argument("ids", nargs="*", metavar="ID", help="default: the one tie to decide")
    p.add_argument("--scope", help="the ranking (as rummikub tie list shows it)")
    p.add_argument("--seed", type=int, help="the lot's seed (default: random, recorded)")
    p.add_argument("--why", help="an optional note")

    season = group("season", "league season across tournaments")
    p = leaf(season, "table", cmd_season_table, "season table over finished league events")
    p.add_argument("events", nargs="+", type=Path, metavar="EVENT.sqlite3")
    p = leaf(
        season, "export", cmd_season_export, "the season table as season.csv, .html and .pdf"
    )
    p.add_argument("dir", type=Path)
    p.add_argument("events", nargs="+", type=Path, metavar="EVENT.sqlite3")
    p.add_argument("--semicolon", action="store_true", help="';' delimiter (Polish Excel)")
    p = leaf(
        season,
        "seeds",
        cmd_season_seeds,
        "the season's top 4 among this event's players (matched by name)",
    )
    p.add_argument("events", nargs="+", type=Path, metavar="EVENT.sqlite3")
    p.add_argument("--declare", action="store_true", help="record them as this event's seeds")
    return parser


ERRORS: tuple[type[BaseException], ...] = (
    CliError,
    CompetitionError,
    TournamentError,
    ScoreError,
    RulesetError,
    PlayersCsvError,
    SeasonError,
    printing.PrintError,
    StoreError,
    SeatCountError,
    msgspec.ValidationError,
    OSError,
)


def main(
    argv: Sequence[str] | None = None,
    *,
    out: TextIO | None = None,
    clock: Callable[[], float] = time.time,
) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    ctx: Ctx | None = None
    try:
        try:
            args = parser.parse_args(args_list)
        except SystemExit as stop:  # --help
            return int(stop.code or 0)
        # Absolute, so every message names the file wherever the command was typed.
        db = (args.db or Path(os.environ.get("RUMMIKUB_DB") or DEFAULT_DB)).absolute()
        by = args.by or os.environ.get("USER") or "organizer"
        ctx = Ctx(db=db, by=by, out=out or sys.stdout, clock=clock)
        result: int = args.func(ctx, args)
        return result
    except BrokenPipeError:
        # The reader went away (``rummikub standings | head``): what it wanted it has.
        if out is None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except ERRORS as err:
        message = str(err).strip() or type(err).__name__
        if isinstance(err, OSError) and err.filename is not None:
            message = f"{err.filename}: {err.strerror or message}"
        message = " ".join(message.split())
        if not message.startswith(PROG):
            message = f"{PROG}: {message}"
        print(message, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted, nothing more recorded", file=sys.stderr)
        return 130
    finally:
        if ctx is not None:
            ctx.close()


if __name__ == "__main__":
    sys.exit(main())

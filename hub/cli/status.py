"""``round status``: every table's progress, the round's time, and with the tables' live view
each table's state in the words of the table-status model."""

from __future__ import annotations

import argparse
import os
from typing import Final

from hub.backup import read_status, status_lines
from hub.cli.common import Ctx, paint, render, wants_colour, when
from hub.cli.live import fold_retained, gather_retained, live_source
from hub.cli.refusals import refusals_summary, replaced_lines
from hub.competition import Competition, TableProgress
from hub.exports.grid import Grid
from hub.hall import countdown_text, wait_text
from hub.live import LiveView, TableLive
from tablekit.core.status import (
    JUDGE_STATES,
    TableState,
    last_lap_text,
    lasting_text,
    look,
    lost_text,
    word,
)

LIVE_HINT: Final = (
    "Live clock states (playing, paused, judge calls, offline) need --broker HOST:PORT "
    "(or RUMMIKUB_BROKER)"
)
_RUNNING_STATES: Final = frozenset({TableState.PLAYING, TableState.LAST_LAP, TableState.TIME})
_NO_SEAT_STATES: Final = frozenset(
    {
        TableState.OFFLINE,
        TableState.NO_DATA,
        TableState.READY,
        TableState.GAME_OVER,
        TableState.ENTERING_RESULT,
        TableState.RESULT_IN,
    }
)


def _live_state(comp: Competition, stage: str, table: TableLive) -> TableState:
    """A table's state (:mod:`tablekit.core.status`) from its live view; whether a
    finished game's result is in comes from the event store."""
    state = table.state()
    snap = table.snapshot
    if state is TableState.GAME_OVER and snap is not None:
        if (table.table, snap.game) in comp.event.results(stage):
            return TableState.RESULT_IN
        return TableState.ENTERING_RESULT
    return state


def _since_text(seconds: float) -> str:
    return wait_text(max(0.0, seconds))


def _live_text(state: TableState, table: TableLive, now: float) -> str:
    """The state word with how long it has lasted (or the last lap's moves left)."""
    snap = table.snapshot
    if state is TableState.OFFLINE:
        went = table.went_offline_at
        if went is not None:
            return lasting_text(state, _since_text(now - went))
        alive = table.last_alive_at
        if alive is not None:
            return lost_text(_since_text(now - alive))
        return word(state)
    if snap is None:
        return word(state)
    if state in JUDGE_STATES:
        # A snapshot is republished on every change: a paused one was taken at the pause.
        return lasting_text(state, _since_text(now - (snap.measured_at + table.skew)))
    if state is TableState.LAST_LAP and snap.last_lap_left is not None:
        return last_lap_text(snap.last_lap_left)
    return word(state)


def _painted(text: str, state: TableState, colour: bool) -> str:
    if not colour:
        return text
    colours = look(state)
    return paint(text, colours.fg, colours.bg)


def _seat_text(
    comp: Competition, progress: TableProgress, table: TableLive, state: TableState
) -> str:
    snap = table.snapshot
    if snap is None or snap.active is None or state in _NO_SEAT_STATES:
        return "-"
    position = snap.active.position
    if position >= len(progress.players):
        return str(snap.active)
    return f"{snap.active} {comp.event.players[progress.players[position]].name}"


def status_grid(
    comp: Competition, now: float, live: LiveView | None = None, *, colour: bool = False
) -> Grid:
    """Progress of every table of the open (or last) round; with the tables' live view
    (``hub.live``), also each table's clock state (since when), game, the seat to move
    and that seat's time left, extrapolated to ``now``; ``colour``: the state painted in
    its colours (those of the table units and the hub screen) for a terminal."""
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
            live_state = _live_state(comp, stage, table)
            left = table.remaining(now)
            show_left = left is not None and live_state in _RUNNING_STATES | JUDGE_STATES
            cells = (
                *cells,
                _painted(_live_text(live_state, table, now), live_state, colour),
                "-" if snap is None else str(snap.game),
                _seat_text(comp, t, table, live_state),
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
        if state in JUDGE_STATES and snap is not None:
            since = snap.measured_at + table.skew
            seat = _seat_text(comp, t, table, state)
            text = f"  table {t.table}: {_live_text(state, table, now)}"
            calls.append((since, t.table, text if seat == "-" else f"{text}, seat {seat}"))
        if t.finished:
            counts["done"] += 1
        elif state in _RUNNING_STATES:
            counts["playing"] += 1
        elif state in (TableState.PAUSED_JUDGE, TableState.PAUSED_RESTART):
            counts["paused"] += 1
        elif state is TableState.JUDGE_CALLED:
            counts["judge"] += 1
        elif state is TableState.OFFLINE:
            counts["offline"] += 1
        elif state is TableState.ENTERING_RESULT:
            extra["entering result"] += 1
        elif state is TableState.NO_DATA:
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


def clock_text(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


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
    colour = wants_colour(ctx.out, os.environ)
    ctx.print(render(status_grid(comp, now, live, colour=colour)))
    if source is not None and live is not None:
        ctx.print(*live_summary(comp, live, now))
        if not live.tables:
            ctx.print(
                f"No table unit has published under {source.topics.base}/table/ on "
                f"{source.broker.host}:{source.broker.port}: check --venue and --event"
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

"""``round status``: every table's progress, the round's time, and with the tables' live view
each table's state in the words of the table-status model."""

from __future__ import annotations

import argparse
import os
from typing import Final

from hub.backup import read_status, status_lines
from hub.cli.common import Ctx, paint, render, wants_colour, when
from hub.cli.live import live_source
from hub.cli.refusals import refusals_summary, replaced_lines
from hub.competition import Competition, TableProgress
from hub.exports.grid import Grid
from hub.exports.words import stage_label
from hub.hall import countdown_text
from hub.live import LiveView, TableLive
from hub.retained import fold_retained, gather_retained
from tablekit.core.status import (
    JUDGE_STATES,
    TableState,
    duration_text,
    last_lap_text,
    lasting_text,
    look,
    word,
)
from tablekit.core.words import N_
from tablekit.shared.i18n import Words

LIVE_HINT: Final = N_(
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


def _since_text(seconds: float, words: Words) -> str:
    """How long a state has lasted, as a duration (``2 min 5 s``: after *for*, Polish
    *od*, ``2:05`` would read as a time of day)."""
    return duration_text(max(0.0, seconds), words)


def _live_text(state: TableState, table: TableLive, now: float, words: Words) -> str:
    """The state word with how long it has lasted (or the last lap's moves left), in
    ``words``' language (the status model's templates, filled in here)."""
    _ = words.gettext
    snap = table.snapshot
    name = _(word(state))
    if state is TableState.OFFLINE:
        went = table.went_offline_at
        if went is not None:
            return lasting_text(state, _since_text(now - went, words), words)
        alive = table.last_alive_at
        if alive is not None:
            return _("{word} (connection lost; last heard {time} ago)").format(
                word=name, time=_since_text(now - alive, words)
            )
        return name
    if snap is None:
        return name
    if state in JUDGE_STATES:
        # A snapshot is republished on every change: a paused one was taken at the pause.
        return lasting_text(state, _since_text(now - (snap.measured_at + table.skew), words), words)
    if state is TableState.LAST_LAP and snap.last_lap_left is not None:
        return last_lap_text(snap.last_lap_left, words)
    return name


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
    comp: Competition,
    now: float,
    words: Words,
    live: LiveView | None = None,
    *,
    colour: bool = False,
) -> Grid:
    """Progress of every table of the open (or last) round; with the tables' live view
    (``hub.live``), also each table's clock state (since when), game, the seat to move
    and that seat's time left, extrapolated to ``now``; ``colour``: the state painted in
    its colours (those of the table units and the hub screen) for a terminal. In
    ``words``' language."""
    _ = words.gettext
    progress = comp.tables()
    players = comp.event.players
    stage = comp.event.stages_played[-1] if comp.event.stages_played else "-"
    headers: tuple[str, ...] = (_("Table"), _("Players"), _("Games"), _("State"))
    if live is not None:
        headers = (*headers, _("Live"), _("Game"), _("Seat"), _("Left"))
    rows = []
    for t in progress:
        state = _("done") if t.finished else _("playing game {game}").format(game=t.next_game)
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
                _painted(_live_text(live_state, table, now, words), live_state, colour),
                "-" if snap is None else str(snap.game),
                _seat_text(comp, t, table, live_state),
                countdown_text(left) if show_left and left is not None else "-",
            )
        rows.append(cells)
    done = sum(t.finished for t in progress)
    return Grid(
        _("{stage}: {done} of {tables} tables done").format(
            stage=stage_label(stage, words), done=done, tables=len(progress)
        ),
        headers,
        rows,
        numeric=frozenset({0, 7} if live is not None else {0}),
    )


def live_summary(comp: Competition, live: LiveView, now: float, words: Words) -> list[str]:
    """The round's tables counted by live state (a finished table counts as done
    whatever its unit shows), then the tables waiting for the judge, oldest first."""
    _ = words.gettext
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
            text = "  " + _("table {table}: {state}").format(
                table=t.table, state=_live_text(state, table, now, words)
            )
            if seat != "-":
                text += _(", seat {seat}").format(seat=seat)
            calls.append((since, t.table, text))
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
    # Translators: each count is a number and what it counts; a count after its word
    # ("gra trwa: 2") reads right for every number where the plural would need three forms.
    count_words = {
        "done": _("{n} done"),
        "playing": _("{n} playing"),
        "paused": _("{n} paused"),
        "judge": words.ngettext("{n} judge call", "{n} judge calls", counts["judge"]),
        "offline": _("{n} offline"),
        "entering result": _("{n} entering result"),
        "between games": _("{n} between games"),
        "no data": _("{n} no data"),
    }
    parts = [count_words[what].format(n=n) for what, n in counts.items()]
    parts += [count_words[what].format(n=n) for what, n in extra.items() if n]
    lines = [_("Tables: {counts}").format(counts=", ".join(parts))]
    if calls:
        calls.sort()
        lines.append(_("Waiting for the judge, oldest first:"))
        lines += [line for _since, _table, line in calls]
    return lines


def clock_text(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def round_clock_text(comp: Competition, now: float, words: Words) -> str:
    _ = words.gettext
    stage = comp.open_stage()
    if stage is None:
        return ""
    started = comp.started.get(stage.name)
    if started is None:
        return _("{stage} is drawn, not started (rummikub round start)").format(
            stage=stage_label(stage.name, words)
        )
    text = _("{stage} started {at} by {by}").format(
        stage=stage_label(stage.name, words), at=when(started.at), by=started.by or "-"
    )
    deadline = comp.round_deadline()
    if deadline is None:
        return text + _("; no round time limit")
    left = deadline[1] - now
    if stage.name in comp.time_over or left <= 0:
        return text + _("; round time over at {at}: last lap").format(at=when(deadline[1]))
    return text + _("; round time left {left} (ends {at})").format(
        left=clock_text(left), at=when(deadline[1])
    )


def cmd_round_status(ctx: Ctx, args: argparse.Namespace) -> int:
    source = live_source(args, os.environ)
    comp = ctx.competition()
    w = ctx.words
    _ = w.gettext
    if not comp.event.stages_played:
        ctx.print(
            _("Nothing drawn yet: {present} players present (rummikub round draw)").format(
                present=len(comp.event.present)
            )
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
    clock_line = round_clock_text(comp, now, w)
    if clock_line:
        ctx.print(clock_line)
    colour = wants_colour(ctx.out, os.environ)
    ctx.print(render(status_grid(comp, now, w, live, colour=colour), w))
    if source is not None and live is not None:
        ctx.print(*live_summary(comp, live, now, w))
        if not live.tables:
            ctx.print(
                _("No table unit has published under {base}/table/ on {host}:{port}: check "
                  "--venue and --event").format(
                    base=source.topics.base, host=source.broker.host, port=source.broker.port
                )
            )
        if ignored:
            ctx.print(
                _("Ignored {n} retained message(s) that are not valid protocol "
                  "messages").format(n=ignored)
            )
    missing = comp.event.missing_results()
    if missing and comp.open_stage() is not None:
        ctx.print(
            _("Missing: {games}").format(
                games=", ".join(
                    _("table {table} game {game}").format(table=m.table, game=m.game)
                    for m in missing
                )
            )
        )
    for rejected in comp.rejected[-5:]:
        ctx.print(
            _("Rejected at {at}: table {table} game {game} from {source}: {reason}").format(
                at=when(rejected.at),
                table=rejected.table,
                game=rejected.game,
                source=rejected.unit or rejected.by,
                reason=rejected.why_words().message(_),
            )
        )
    store = ctx.organizer().store
    ctx.print(*refusals_summary(store, w))
    ctx.print(*replaced_lines(store, w, prefix=_("Units: ")))
    backup = read_status(ctx.db)
    if backup is not None:
        ctx.print(*status_lines(backup, now, w))
    if live is None:
        ctx.print(_(LIVE_HINT))
    return 0

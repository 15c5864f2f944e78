"""What the command line prints and writes for others to read: standings, the ranking, the
exports (CSV, HTML, PDF, the archive) and the league season."""

from __future__ import annotations

import argparse
import io
import zipfile
from collections.abc import Sequence
from pathlib import Path

from hub import archive, printing
from hub.cli.common import CliError, Ctx, render, stage_arg, table_seats
from hub.cli.live import live_source
from hub.competition import Competition
from hub.exports.files import csv_files
from hub.exports.grid import Sheet, event_name
from hub.exports.notes import last_closed, round_progress
from hub.exports.printouts import printouts
from hub.exports.standings import ranking_grid, standings_grid
from hub.league.season import Season, SeasonLine
from hub.league.wire import BoardLine, SeasonBoard
from hub.privacy import published
from hub.retained import season_board
from hub.season import (
    SeasonEvent,
    exported_season,
    ordered_events,
    question_lines,
    read_decisions,
    same_names,
    season_csv,
    season_event,
    season_grid,
    season_html,
    season_legend,
    season_of,
    season_stem,
    seeding_text,
    seeds_for,
    write_decisions,
)
from tablekit.core.words import N_
from tablekit.shared.commandline import os_reason
from tablekit.shared.i18n import Words


def cmd_standings(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    stage = stage_arg(comp, args.stage, ctx.words)
    if args.table is not None:
        table_seats(comp, stage, args.table)
    ctx.print(render(
            standings_grid(comp, stage, args.table, overall=args.overall, words=ctx.words),
            ctx.words,
        ))
    closed = last_closed(comp)
    if args.stage is None and round_progress(comp, stage) and closed and not args.overall:
        ctx.print(
            ctx.words.gettext("The last closed round: rummikub standings --stage {stage}").format(
                stage=comp.round_number(closed)
            )
        )
    return 0


def cmd_ranking(ctx: Ctx, args: argparse.Namespace) -> int:
    ctx.print(render(ranking_grid(ctx.competition(), ctx.words), ctx.words))
    return 0


def _folder(path: Path, words: Words) -> Path:
    """``path`` as a folder to write files in, made if it is not there; a file there is
    refused by name (a folder is needed)."""
    for part in (path, *path.parents):
        if part.exists() and not part.is_dir():
            raise CliError(
                N_("{path} is a file; give a folder to write the files in"),
                path=part.absolute(),
            )
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise CliError(
            N_("cannot make the folder {path}: {reason}"),
            path=path.absolute(),
            reason=os_reason(err, words),
        ) from None
    return path


def _write(directory: Path, name: str, data: bytes, words: Words) -> Path:
    path = directory.absolute() / name
    tmp = path.with_name(f".{name}.tmp")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError as err:
        raise CliError(
            N_("cannot write the file {path}: {reason}"), path=path, reason=os_reason(err, words)
        ) from None
    return path


def _exported(ctx: Ctx, args: argparse.Namespace) -> Competition:
    """The event as an export shows it: for publication (``--public``), every player named
    as the event's privacy setting says (:mod:`hub.privacy`)."""
    comp = ctx.competition()
    return published(comp) if args.public else comp


def cmd_export_csv(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = _exported(ctx, args)
    stage_arg(comp, None, ctx.words)
    files = csv_files(comp, Sheet(ctx.words, ";" if args.semicolon else None))
    _folder(args.dir, ctx.words)
    for name, text in files.items():
        ctx.print(str(_write(args.dir, name, text.encode("utf-8-sig"), ctx.words)))
    return 0


def cmd_export_html(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = _exported(ctx, args)
    docs = printouts(comp, ctx.words, stage_arg(comp, args.stage, ctx.words), ctx.console_url)
    _folder(args.dir, ctx.words)
    for stem, doc in docs.items():
        ctx.print(str(_write(args.dir, f"{stem}.html", doc.encode("utf-8"), ctx.words)))
    return 0


def cmd_export_pdf(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = _exported(ctx, args)
    docs = printouts(comp, ctx.words, stage_arg(comp, args.stage, ctx.words), ctx.console_url)
    pdfs = {f"{stem}.pdf": printing.pdf(doc) for stem, doc in docs.items()}
    _folder(args.dir, ctx.words)
    for name, data in pdfs.items():
        ctx.print(str(_write(args.dir, name, data, ctx.words)))
    return 0


def cmd_export_archive(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = _exported(ctx, args)
    stage_arg(comp, None, ctx.words)
    sheet = Sheet(ctx.words, ";" if args.semicolon else None)
    data = archive.event_archive(comp, pdf=printing.pdf, at=ctx.clock(), sheet=sheet)
    target: Path = args.file
    if target.is_dir():
        target = target / f"{archive.slug(event_name(comp))}.zip"
    _folder(target.parent, ctx.words)
    path = _write(target.parent, target.name, data, ctx.words)
    with zipfile.ZipFile(io.BytesIO(data)) as made:
        count = len(made.namelist())
    ctx.print(
        ctx.words.ngettext("{path} ({n} file, {size} kB)", "{path} ({n} files, {size} kB)",
                           count).format(path=path, n=count, size=len(data) // 1024 + 1)
    )
    return 0


def _season(ctx: Ctx, args: argparse.Namespace) -> tuple[list[SeasonEvent], Season]:
    """The season over the files given, with the identities file's decisions; with
    ``--same-names`` every open name question answered "the same person" (kept in the
    identities file when one is named)."""
    events = [season_event(p) for p in args.events]
    decisions = read_decisions(args.identities)
    season = season_of(events, decisions)
    if args.same_names and season.identities.questions:
        decisions += same_names(season.identities.questions, ctx.by, ctx.clock())
        if args.identities is not None:
            write_decisions(args.identities, decisions)
        season = season_of(events, decisions)
    return ordered_events(events, season), season


def cmd_season_table(ctx: Ctx, args: argparse.Namespace) -> int:
    events, season = _season(ctx, args)
    ctx.print(render(season_grid(season, ctx.words), ctx.words))
    ctx.print(*season_legend(events, ctx.words))
    ctx.print(*question_lines(season, ctx.words))
    return 0


def cmd_season_export(ctx: Ctx, args: argparse.Namespace) -> int:
    events, season = _season(ctx, args)
    season = exported_season(season, events, args.internal)
    doc = season_html(season, events, ctx.words, internal=args.internal)
    sheet = Sheet(ctx.words, ";" if args.semicolon else None)
    stem = season_stem(args.internal)
    files = {
        f"{stem}.csv": season_csv(season, sheet).encode("utf-8-sig"),
        f"{stem}.html": doc.encode("utf-8"),
        f"{stem}.pdf": printing.pdf(doc),
    }
    _folder(args.dir, ctx.words)
    for name, data in files.items():
        ctx.print(str(_write(args.dir, name, data, ctx.words)))
    return 0


def league_board(ctx: Ctx, args: argparse.Namespace) -> SeasonBoard:
    """The season table the central league service keeps at the venue's broker."""
    source = live_source(args, ctx.environ)
    if source is None:
        raise CliError(N_("season seeds --league: no broker named (the hub's config file, "
                          "RUMMIKUB_BROKER or --broker)"))
    return season_board(source)


def cmd_season_seeds(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    event = org.competition.event
    if args.league:
        board = league_board(ctx, args)
        lines: Sequence[SeasonLine | BoardLine] = board.lines
        questions: list[str] = []
    else:
        if not args.events:
            raise CliError(N_("season seeds: name the season's event files, or --league"))
        _, season = _season(ctx, args)
        lines, questions = season.lines, question_lines(season, ctx.words)
    seeds = seeds_for(lines, event.players, event.withdrawn)
    if not seeds:
        raise CliError(
            N_("season seeds: no registered player of this event is in the season table")
        )
    _ = ctx.words.gettext
    for i, (player, points) in enumerate(seeds, start=1):
        ctx.print(
            _("{number}. {id}  {name}  ({points} season points)").format(
                number=i, id=player.id, name=player.name, points=points
            )
        )
    ctx.print(*questions)
    statement = seeding_text(org.competition, len(seeds)).message(_)
    if args.declare:
        org.declare_seeds([p.id for p, _ in seeds])
        ctx.print(_("Declared as seeds: {statement}").format(statement=statement))
    else:
        ctx.print(
            _("Not declared yet (add --declare to seed them): {statement}").format(
                statement=statement
            )
        )
    return 0

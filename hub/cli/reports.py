"""What the command line prints and writes for others to read: standings, the ranking, the
exports (CSV, HTML, PDF, the archive) and the league season."""

from __future__ import annotations

import argparse
import io
import zipfile
from pathlib import Path

from hub import archive, printing
from hub.cli.common import CliError, Ctx, render, stage_arg, table_seats
from hub.exports.files import csv_files
from hub.exports.grid import event_name
from hub.exports.notes import in_play, last_closed
from hub.exports.printouts import printouts
from hub.exports.standings import ranking_grid, standings_grid
from hub.season import (
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


def cmd_standings(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    stage = stage_arg(comp, args.stage)
    if args.table is not None:
        table_seats(comp, stage, args.table)
    ctx.print(render(standings_grid(comp, stage, args.table, overall=args.overall)))
    closed = last_closed(comp)
    if args.stage is None and in_play(comp, stage) and closed and not args.overall:
        ctx.print(f"The last closed round: rummikub standings --stage {closed}")
    return 0


def cmd_ranking(ctx: Ctx, args: argparse.Namespace) -> int:
    ctx.print(render(ranking_grid(ctx.competition())))
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
    stage_arg(comp, None)
    files = csv_files(comp, ";" if args.semicolon else ",")
    _folder(args.dir)
    for name, text in files.items():
        ctx.print(str(_write(args.dir, name, text.encode("utf-8-sig"))))
    return 0


def cmd_export_html(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    docs = printouts(comp, stage_arg(comp, args.stage))
    _folder(args.dir)
    for stem, doc in docs.items():
        ctx.print(str(_write(args.dir, f"{stem}.html", doc.encode("utf-8"))))
    return 0


def cmd_export_pdf(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    docs = printouts(comp, stage_arg(comp, args.stage))
    pdfs = {f"{stem}.pdf": printing.pdf(doc) for stem, doc in docs.items()}
    _folder(args.dir)
    for name, data in pdfs.items():
        ctx.print(str(_write(args.dir, name, data)))
    return 0


def cmd_export_archive(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    stage_arg(comp, None)
    data = archive.event_archive(
        comp, pdf=printing.pdf, at=ctx.clock(), delimiter=";" if args.semicolon else ","
    )
    target: Path = args.file
    if target.is_dir():
        target = target / f"{archive.slug(event_name(comp))}.zip"
    _folder(target.parent)
    path = _write(target.parent, target.name, data)
    with zipfile.ZipFile(io.BytesIO(data)) as made:
        count = len(made.namelist())
    ctx.print(f"{path} ({count} files, {len(data) // 1024 + 1} kB)")
    return 0


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

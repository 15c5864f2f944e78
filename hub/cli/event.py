"""Commands on the event itself: create it from a preset, show it, the hall check before the
first round, the hub's backup copy."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from hub.backup import read_status, status_lines
from hub.cli.common import CliError, Ctx, render, when
from hub.cli.judges import ties_lines
from hub.cli.live import fold_retained, gather_retained, live_source
from hub.cli.refusals import replaced_lines
from hub.exports.grid import Grid
from hub.hall_board import expected_tables, hall_board, latest_checks, unchecked_warning
from hub.players_csv import clean
from hub.tournament import (
    Everyone,
    Phase,
    Rest,
    Stage,
    TablePlaces,
    TopAcrossTables,
    TopOverall,
    TournamentError,
    league_scheme_for,
)
from tablekit.core.rulesets import Ruleset, load_rulesets


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
        language=args.lang,
    )
    ctx.print(f"Created event {name!r} in {ctx.db}")
    return cmd_event_show(ctx, args)


LANGUAGE_NAMES = {"pl": "Polish (pl)", "en": "English (en)"}


def language_name(code: str) -> str:
    """A language as the organizer reads it: ``Polish (pl)``."""
    return LANGUAGE_NAMES.get(code, code)


def cmd_event_language(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    if ctx.competition().created is None:
        raise CliError("no event yet: create one first (rummikub event create)")
    if args.language is None:
        ctx.print(f"Language: {language_name(org.language)}")
        return 0
    before = org.language
    org.choose_language(args.language, why=args.why or "")
    now = org.language
    if now == before:
        ctx.print(f"Language: {language_name(now)} already")
    else:
        ctx.print(
            f"Language: {language_name(now)} (was {language_name(before)}); the hub tells "
            "every table and the hub screen at once"
        )
    return 0


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
    lines = [
        f"Event:    {created.name}",
        f"Preset:   {created.preset}",
        f"Language: {language_name(comp.language)}",
    ]
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

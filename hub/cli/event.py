"""Commands on the event itself: create it from a preset, show it, the hall check before the
first round, the hub's backup copy."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from hub.backup import read_status, status_lines
from hub.cli.common import CliError, Ctx, phase_word, render, seating_word, when
from hub.cli.judges import ties_lines
from hub.cli.live import live_source
from hub.cli.refusals import replaced_lines
from hub.competition import Competition
from hub.exports.grid import Grid
from hub.exports.words import stage_label
from hub.hall_board import (
    expected_tables,
    hall_board,
    hall_grid,
    latest_checks,
    unchecked_parts,
)
from hub.players_csv import clean
from hub.privacy import NAME_SHOWN_WORDS
from hub.retained import fold_retained, gather_retained
from hub.store_report import over_limit_lines
from hub.tournament import (
    EventPhase,
    Everyone,
    Rest,
    Stage,
    TablePlaces,
    TopAcrossTables,
    TopOverall,
    TournamentError,
    league_scheme_for,
)
from hub.tournament.format_words import describe
from tablekit.core.errors import KitError, quoted
from tablekit.core.rulesets import BigPointScheme, Ruleset
from tablekit.core.words import N_
from tablekit.shared.i18n import Words
from tablekit.shared.tomlfile import load_rulesets


def cmd_event_create(ctx: Ctx, args: argparse.Namespace) -> int:
    custom: dict[str, Ruleset] = {}
    if args.rulesets is not None:
        if not Path(args.rulesets).is_file():
            raise CliError(N_("--rulesets: no such file {file}"), file=args.rulesets)
        custom = load_rulesets(args.rulesets)
    try:
        name = clean(args.name, "--name")
    except ValueError as err:
        raise CliError(
            N_("event create: {error}"), error=err if isinstance(err, KitError) else str(err)
        ) from None
    if not name:
        raise CliError(N_("event create: --name is empty"))
    org = ctx.organizer(create=True)
    existing = org.competition.created
    if existing is not None:
        raise CliError(
            N_("{file} already holds the event {name}; for a new event give another file: "
               "--db FILE (or RUMMIKUB_DB)"),
            file=ctx.db,
            name=quoted(existing.name),
        )
    org.create_event(
        name,
        args.preset,
        semifinal=args.semifinal,
        ruleset=args.ruleset,
        rulesets=custom,
        round_minutes=args.round_minutes,
        language=args.event_lang,
        privacy=args.privacy,
    )
    ctx.print(ctx.words.gettext("Created event {name} in {file}").format(
        name=quoted(name).message(ctx.words.gettext), file=ctx.db
    ))
    return cmd_event_show(ctx, args)


LANGUAGE_NAMES = {"pl": N_("Polish (pl)"), "en": N_("English (en)")}


def language_name(code: str, words: Words) -> str:
    """A language as the organizer reads it: ``Polish (pl)``, in ``words``' language."""
    name = LANGUAGE_NAMES.get(code)
    return code if name is None else words.gettext(name)


def cmd_event_language(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    if ctx.competition().created is None:
        raise CliError(N_("no event yet: create one first (rummikub event create)"))
    if args.language is None:
        w = ctx.words
        ctx.print(w.gettext("Language: {language}").format(language=language_name(org.language, w)))
        return 0
    before = org.language
    org.choose_language(args.language, why=args.why or "")
    now = org.language
    w = ctx.words  # the new language, unless --lang asks for another
    _ = w.gettext
    if now == before:
        ctx.print(_("Language: {language} already").format(language=language_name(now, w)))
    else:
        ctx.print(
            _("Language: {language} (was {before}); the hub tells every table and the hub "
              "screen at once").format(
                language=language_name(now, w), before=language_name(before, w)
            )
        )
    return 0


def privacy_text(comp: Competition, words: Words) -> str:
    """The event's privacy setting as the organizer reads it."""
    return words.gettext(NAME_SHOWN_WORDS[comp.names_shown])


def cmd_event_privacy(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    if ctx.competition().created is None:
        raise CliError(N_("no event yet: create one first (rummikub event create)"))
    w = ctx.words
    _ = w.gettext
    if args.names is None:
        ctx.print(_("Names on public pages: {setting}").format(
            setting=privacy_text(org.competition, w)))
        return 0
    before = org.competition.names_shown
    org.choose_privacy(args.names, why=args.why or "")
    setting = privacy_text(org.competition, w)
    if org.competition.names_shown is before:
        ctx.print(_("Names on public pages: {setting} already").format(setting=setting))
    else:
        ctx.print(
            _("Names on public pages: {setting}; the web console, the hub screen and the "
              "exports for publication (--public) show them so from now on").format(
                setting=setting)
        )
    return 0


def cmd_event_erase(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    done = org.erase_personal_data(confirm=args.confirm)
    w = ctx.words
    ctx.print(
        w.ngettext(
            "Personal data of {n} player erased: every name and club is the player's id now, "
            "results and standings stay ({rewritten} stored records rewritten)",
            "Personal data of {n} players erased: every name and club is the player's id now, "
            "results and standings stay ({rewritten} stored records rewritten)",
            done.record.players,
        ).format(n=done.record.players, rewritten=done.rewritten)
    )
    if done.compacted:
        ctx.print(w.gettext("The event file was copied anew: no page of it keeps a name"))
    else:
        ctx.print(
            w.gettext("Another program (the hub, the web console) was reading the event file: "
                      "stop it and run rummikub event erase again to copy the file anew")
        )
    ctx.print(
        w.gettext("Files made before (exports, archives, backup copies on other disks) still "
                  "hold the names: delete them")
    )
    return 0


def _entry_text(stage: Stage, words: Words) -> str:
    _ = words.gettext
    parts = []
    for group in stage.groups:
        entry = group.entry
        if isinstance(entry, Everyone):
            who = _("everyone present")
        elif isinstance(entry, TopOverall):
            who = _("top {k} of {stage}").format(k=entry.k, stage=stage_label(entry.of, words))
        elif isinstance(entry, TablePlaces):
            who = _("places {first}–{last} at each table of {stage}").format(
                first=entry.first, last=entry.last, stage=stage_label(entry.of, words)
            )
        elif isinstance(entry, TopAcrossTables):
            if entry.k is None:
                who = _("all of {stage} by table place").format(
                    stage=stage_label(entry.of, words)
                )
            else:
                who = _("best {k} of {stage} by table place").format(
                    k=entry.k, stage=stage_label(entry.of, words)
                )
            if entry.group is not None:
                who += _(" ({group} tables)").format(group=entry.group)
        elif isinstance(entry, Rest):
            who = _("everyone else of {stage} (consolation games, 2 or 5: asked)").format(
                stage=stage_label(entry.of, words)
            )
        else:
            who = str(entry)
        label = "" if group.name in ("all", stage.name) else f"{group.name}: "
        parts.append(f"{label}{who}, {seating_word(group.seating, words)}")
    return "; ".join(parts)


def cmd_event_backup(ctx: Ctx, args: argparse.Namespace) -> int:
    status = read_status(ctx.db)
    ctx.print(*status_lines(status, ctx.clock(), ctx.words))
    return 1 if status is not None and status.error else 0


def cmd_event_show(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    w = ctx.words
    _ = w.gettext
    created = comp.created
    assert created is not None  # competition() raised otherwise
    event = comp.event
    fmt = event.format
    lines = [
        _("Event:    {name}").format(name=created.name),
        _("Preset:   {preset}").format(preset=created.preset),
        _("Language: {language}").format(language=language_name(comp.language, w)),
        _("Names:    {setting} on public pages").format(setting=privacy_text(comp, w)),
    ]
    minors = [pid for pid in event.players if comp.is_minor(pid)]
    if minors:
        lines.append(
            _("Minors:   {minors}, a guardian's written consent recorded for {consent}").format(
                minors=len(minors), consent=sum(1 for pid in minors if comp.minors[pid].consent))
        )
    if comp.fixed:
        lines.append(_("Format:   {format}").format(format=describe(fmt).message(_)))
    else:
        count = len(event.present)
        try:
            scheme = _("now league-{scheme}").format(scheme=league_scheme_for(count))
        except TournamentError:
            scheme = _("8–32 players needed")
        lines.append(
            _("Format:   league scheme chosen at the first draw by the players present "
              "({count} present: {scheme})").format(count=count, scheme=scheme)
        )
    least, most = comp.player_range()
    lines.append(
        _("Players:  {registered} registered, {present} present, {withdrawn} withdrawn "
          "(format takes {least}–{most})").format(
            registered=len(event.players),
            present=len(event.present),
            withdrawn=len(event.withdrawn),
            least=least,
            most=most,
        )
    )
    phase = event.phase
    open_stage = comp.open_stage()
    if phase is EventPhase.PLAYING and open_stage is not None:
        lines.append(
            _("Phase:    playing {stage} (round {number} of {rounds})").format(
                stage=stage_label(open_stage.name, w),
                number=comp.round_number(open_stage.name),
                rounds=len(fmt.stages),
            )
        )
    elif phase is EventPhase.BETWEEN_ROUNDS and event.current_stage is not None:
        lines.append(
            _("Phase:    between rounds; next {stage}").format(
                stage=stage_label(event.current_stage.name, w)
            )
        )
    else:
        lines.append(_("Phase:    {phase}").format(phase=phase_word(phase, w)))
    if created.round_minutes:
        minutes = _("{minutes} min").format(minutes=f"{created.round_minutes:g}")
    else:
        minutes = _("no limit")
    lines.append(_("Round time: {time}").format(time=minutes))
    corrections = sum(len(v) - 1 for v in comp.results.values())
    if corrections or comp.sanctions or comp.undone:
        lines.append(
            _("Judges:   {corrections} correction(s), {sanctions} sanction(s), {undone} draw(s) "
              "undone (rummikub result corrections, rummikub sanction list)").format(
                corrections=corrections, sanctions=len(comp.sanctions), undone=len(comp.undone)
            )
        )
    if not event.stages_played and event.present:  # before the first draw: the hall check
        board = hall_board(expected_tables(comp), latest_checks(ctx.organizer().store))
        ready = sum(r.ready for r in board)
        parts = unchecked_parts(board, w)
        lines.append(
            _("Hall:     {ready} of {tables} tables checked and ready").format(
                ready=ready, tables=len(board)
            )
            + "".join(f"; {part}" for part in parts)
        )
    store = ctx.organizer().store
    lines.extend(replaced_lines(store, w, prefix=_("Units:    ")))
    lines.extend(_("Units:    ") + line for line in over_limit_lines(store.refusal_counts(), w))
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
                    _("{name} ({seconds} s, {scheme})").format(
                        name=rules.name,
                        seconds=f"{rules.move_seconds:g}",
                        scheme=_(SCHEME_WORDS[rules.big_points]),
                    ),
                    _entry_text(stage, w),
                )
            )
        ctx.print(
            "",
            render(
                Grid(
                    _("Stages"),
                    ("#", _("Stage"), _("Games"), _("Ruleset"), _("Players")),
                    rows,
                    numeric=frozenset({0, 2}),
                ),
                w,
            ),
        )
    ties = ties_lines(comp, w)
    if ties:
        ctx.print("", *ties)
    return 0


SCHEME_WORDS = {
    BigPointScheme.WIN_ONLY: N_("big points to the winner only"),
    BigPointScheme.PLACEMENT: N_("big points by place"),
}
"""How a ruleset awards big points (RULES.md §3.4), as ``event show`` says it."""


def cmd_event_hall(ctx: Ctx, args: argparse.Namespace) -> int:
    source = live_source(args, os.environ)
    comp = ctx.competition()
    w = ctx.words
    _ = w.gettext
    live = None
    if source is not None:
        live, _ignored = fold_retained(source.topics, gather_retained(source), ctx.clock())
    rows = hall_board(expected_tables(comp), latest_checks(ctx.organizer().store), live)
    if not rows:
        ctx.print(_("No tables yet: check players in (rummikub players check-in) or draw"))
        return 0
    ctx.print(render(hall_grid(rows, w, when), w))
    ready = sum(r.ready for r in rows)
    ctx.print(_("{ready} of {tables} tables checked and ready").format(ready=ready,
                                                                      tables=len(rows)))
    parts = unchecked_parts(rows, w)
    if parts:
        ctx.print(_("Hall check: {what}").format(what="; ".join(parts)))
    if live is None:
        ctx.print(
            _("Online: ? — with --broker HOST:PORT the board shows which units are online")
        )
    return 0

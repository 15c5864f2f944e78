"""A league season (003) across tournaments, each one its own event file.

Players are matched across tournaments by name (case, accents and repeated spaces
ignored: "Łukasz  Nowak" = "lukasz nowak"); the club may change between tournaments.
The season table sums the league tournament points of each finished league event;
ties are broken by the number of starts (more starts ranks higher, RULES.md §4), and
players still level share the place.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from hub.competition import Competition
from hub.exports.grid import Grid, Sheet
from hub.exports.pages import document, grid_html
from hub.organizer import Organizer
from hub.players_csv import fold
from hub.store import EventStore
from hub.tournament import (
    Phase,
    Player,
    PlayerCountError,
    SeasonRow,
    SeatingMethod,
    TieAtCutError,
    TournamentFormat,
    player_order,
    preset,
    season_seeds,
    season_table,
    seeding_statement,
    table_sizes,
)
from hub.tournament.standings import place_labels
from tablekit.core.errors import KitError, Phrase
from tablekit.core.words import N_
from tablekit.shared.i18n import Words


class SeasonError(KitError, ValueError):
    """An event file that cannot count for the season; the message names the file."""


@dataclass(frozen=True)
class SeasonEvent:
    source: str
    name: str
    points: dict[str, int]
    """League tournament points per player name key."""
    players: dict[str, Player]
    """The event's player per name key."""


@dataclass(frozen=True)
class SeasonLine:
    place: int
    name: str
    club: str | None
    points: int
    starts: int
    per_event: tuple[int | None, ...]
    """Points in each event, in the order given (None: did not start)."""


def match_key(name: str) -> str:
    """How a player is recognised across tournaments (not an order: see
    :func:`hub.tournament.player_order`)."""
    return fold(name)


def by_name(players: Iterable[Player], source: str | None = None) -> dict[str, Player]:
    """``players`` by :func:`match_key`; two of the same name are an error (``source``:
    the event file they are in, None: the registered players)."""
    out: dict[str, Player] = {}
    for player in players:
        key = match_key(player.name)
        if key in out:
            values = {"name": player.name, "first": out[key].id, "second": player.id}
            if source is None:
                raise SeasonError(
                    N_(
                        "two registered players named {name!r} ({first}, {second}); "
                        "the season matches players by name"
                    ),
                    **values,
                )
            raise SeasonError(
                N_(
                    "{source}: two players named {name!r} ({first}, {second}); "
                    "the season matches players by name"
                ),
                source=source,
                **values,
            )
        out[key] = player
    return out


def open_competition(path: str | Path) -> Competition:
    """The event stored in ``path`` (which must exist: nothing is created)."""
    path = Path(path)
    if not path.is_file():
        raise SeasonError(N_("{file}: no such event file"), file=path)
    store = EventStore(path)
    try:
        return Organizer(store).competition
    finally:
        store.close()


def season_event(comp: Competition, source: str) -> SeasonEvent:
    """One finished league tournament's points, keyed by player name."""
    created = comp.created
    if created is None or comp.state is None:
        raise SeasonError(N_("{source}: no event in this file"), source=source)
    event = comp.event
    if not event.format.league:
        raise SeasonError(
            N_("{source}: {name!r} is not a league event ({preset})"),
            source=source,
            name=created.name,
            preset=created.preset,
        )
    if event.phase is not Phase.FINISHED:
        raise SeasonError(
            N_("{source}: {name!r} is not finished ({phase})"),
            source=source,
            name=created.name,
            phase=event.phase,
        )
    try:
        league_points = event.league_points()
    except TieAtCutError as err:
        raise SeasonError(
            N_(
                "{source}: {name!r} has shared places the head judge has not decided "
                "({error}); decide them in that event (rummikub tie list)"
            ),
            source=source,
            name=created.name,
            error=err,
        ) from None
    players = by_name((event.players[pid] for pid in league_points), source)
    points = {key: league_points[player.id] for key, player in players.items()}
    return SeasonEvent(source, created.name, points, players)


def season_lines(events: Sequence[SeasonEvent]) -> tuple[list[SeasonLine], tuple[SeasonRow, ...]]:
    """The season table (and the core's rows, keyed by name) over ``events``."""
    latest: dict[str, Player] = {}
    for event in events:
        latest.update(event.players)
    rows = season_table(
        [e.points for e in events], order=lambda key: player_order(latest[key])[0]
    )
    lines = [
        SeasonLine(
            row.place,
            latest[row.player_id].name,
            latest[row.player_id].club,
            row.points,
            row.starts,
            tuple(e.points.get(row.player_id) for e in events),
        )
        for row in rows
    ]
    return lines, rows


def season_grid(
    events: Sequence[SeasonEvent], lines: Sequence[SeasonLine], words: Words
) -> Grid:
    """The season table: place, player, club, points, starts, then each tournament's
    points (``T1``… in the order given; ``-``: did not start)."""
    labels = place_labels([line.place for line in lines])
    rows = [
        (
            label,
            line.name,
            line.club or "",
            str(line.points),
            str(line.starts),
            *("-" if p is None else str(p) for p in line.per_event),
        )
        for label, line in zip(labels, lines, strict=True)
    ]
    headers = (
        words.pgettext("column", "Place"),
        words.pgettext("column", "Player"),
        words.pgettext("column", "Club"),
        # Translators: league tournament points over the season (003)
        words.pgettext("column", "Points"),
        # Translators: tournaments played (003: liczba startów)
        words.pgettext("column", "Starts"),
    )
    title = words.ngettext(
        "Season table ({n} tournament)", "Season table ({n} tournaments)", len(events)
    ).format(n=len(events))
    return Grid(
        title,
        (*headers, *(f"T{i}" for i in range(1, len(events) + 1))),
        rows,
        numeric=frozenset(range(3, len(headers) + len(events))),
        club=2,
    )


def season_legend(events: Sequence[SeasonEvent]) -> list[str]:
    """``T1: Liga 1 (liga-1.sqlite3)`` per tournament (the file's name, not its folder)."""
    return [f"T{i}: {e.name} ({Path(e.source).name})" for i, e in enumerate(events, start=1)]


def season_csv(events: Sequence[SeasonEvent], lines: Sequence[SeasonLine], sheet: Sheet) -> str:
    """The season table for ``sheet``'s spreadsheet: a tournament's column is headed
    ``T1 Liga 1``; an empty cell: did not start."""
    w = sheet.words
    headers = [
        w.pgettext("CSV column", "place"),
        w.pgettext("CSV column", "name"),
        w.pgettext("CSV column", "club"),
        w.pgettext("CSV column", "points"),
        w.pgettext("CSV column", "starts"),
    ]
    headers += [f"T{i} {e.name}" for i, e in enumerate(events, start=1)]
    rows = [
        (
            str(line.place),
            line.name,
            line.club or "",
            str(line.points),
            str(line.starts),
            *("" if p is None else str(p) for p in line.per_event),
        )
        for line in lines
    ]
    return sheet.text(headers, rows)


def season_html(
    events: Sequence[SeasonEvent], lines: Sequence[SeasonLine], words: Words
) -> str:
    """The season table to print (A4), with which tournament each column is."""
    grid = season_grid(events, lines, words)
    legend = "".join(f"<li>{html.escape(text)}</li>\n" for text in season_legend(events))
    body = f'{grid_html(grid, "h1")}<ul class="note">\n{legend}</ul>\n'
    return document(grid.title, body, words)


def seeds_for(
    rows: Sequence[SeasonRow],
    players: Mapping[str, Player],
    withdrawn: frozenset[str] = frozenset(),
) -> list[Player]:
    """The season's best four among ``players`` (by id, matched by name), best first."""
    present = (player for pid, player in players.items() if pid not in withdrawn)
    by_key = by_name(present)
    return [by_key[key] for key in season_seeds(rows, set(by_key))]


def first_stage_tables(comp: Competition) -> int | None:
    """Tables of the event's first stage, or None while the automatic league scheme
    cannot be chosen yet (fewer than 8 or more than 32 players present)."""
    event = comp.event
    fmt: TournamentFormat = event.format
    count = len(event.present)
    if not comp.fixed:
        try:
            fmt = preset("league", players=count)
        except PlayerCountError:
            return None
    group = fmt.stages[0].groups[0]
    if group.tables is not None:
        return group.tables
    try:
        return len(table_sizes(count))
    except PlayerCountError:
        return None


def seeding_text(comp: Competition, seeds: int) -> Phrase:
    """What declaring ``seeds`` seeds achieves in this event (003 §10a), honestly: words to
    say in the reader's language (``.message(gettext)``)."""
    if comp.fixed and all(
        g.seating is not SeatingMethod.LEAGUE_SEEDED for g in comp.event.format.stages[0].groups
    ):
        return Phrase(
            N_("the first round of {format!r} is not a seeded draw, so the seeds do not "
               "change who sits where (only league events keep seeds apart)"),
            format=comp.event.format.name,
        )  # fmt: skip
    tables = first_stage_tables(comp)
    if tables is None:
        return Phrase(
            N_("the number of first-stage tables is not known yet ({present} present): "
               "whether the seeds can all sit apart is shown once the players are checked "
               "in"),
            present=len(comp.event.present),
        )  # fmt: skip
    return seeding_statement(seeds, tables)

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
from hub.exports.grid import Grid, csv_text
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
from tablekit.core.errors import KitError
from tablekit.shared.i18n import words


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


def by_name(players: Iterable[Player], what: str) -> dict[str, Player]:
    """``players`` by :func:`match_key`; two of the same name are an error (``what``
    says who: "two registered players")."""
    out: dict[str, Player] = {}
    for player in players:
        key = match_key(player.name)
        if key in out:
            raise SeasonError(
                f"{what} named {player.name!r} ({out[key].id}, {player.id}); "
                "the season matches players by name"
            )
        out[key] = player
    return out


def open_competition(path: str | Path) -> Competition:
    """The event stored in ``path`` (which must exist: nothing is created)."""
    path = Path(path)
    if not path.is_file():
        raise SeasonError(f"{path}: no such event file")
    store = EventStore(path)
    try:
        return Organizer(store).competition
    finally:
        store.close()


def season_event(comp: Competition, source: str) -> SeasonEvent:
    """One finished league tournament's points, keyed by player name."""
    created = comp.created
    if created is None or comp.state is None:
        raise SeasonError(f"{source}: no event in this file")
    event = comp.event
    if not event.format.league:
        raise SeasonError(f"{source}: {created.name!r} is not a league event ({created.preset})")
    if event.phase is not Phase.FINISHED:
        raise SeasonError(f"{source}: {created.name!r} is not finished ({event.phase})")
    try:
        league_points = event.league_points()
    except TieAtCutError as err:
        raise SeasonError(
            f"{source}: {created.name!r} has shared places the head judge has not decided "
            f"({err}); decide them in that event (rummikub tie list)"
        ) from None
    players = by_name((event.players[pid] for pid in league_points), f"{source}: two players")
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


def season_grid(events: Sequence[SeasonEvent], lines: Sequence[SeasonLine]) -> Grid:
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
    headers = ("Place", "Player", "Club", "Points", "Starts")
    return Grid(
        f"Season table ({len(events)} tournaments)",
        (*headers, *(f"T{i}" for i in range(1, len(events) + 1))),
        rows,
        numeric=frozenset(range(3, len(headers) + len(events))),
    )


def season_legend(events: Sequence[SeasonEvent]) -> list[str]:
    """``T1: Liga 1 (liga-1.sqlite3)`` per tournament (the file's name, not its folder)."""
    return [f"T{i}: {e.name} ({Path(e.source).name})" for i, e in enumerate(events, start=1)]


def season_csv(
    events: Sequence[SeasonEvent], lines: Sequence[SeasonLine], delimiter: str = ","
) -> str:
    """The season table for spreadsheets: a tournament's column is headed ``T1 Liga 1``;
    an empty cell: did not start."""
    headers = ["place", "name", "club", "points", "starts"]
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
    return csv_text(headers, rows, delimiter)


def season_html(events: Sequence[SeasonEvent], lines: Sequence[SeasonLine]) -> str:
    """The season table to print (A4), with which tournament each column is."""
    grid = season_grid(events, lines)
    legend = "".join(f"<li>{html.escape(text)}</li>\n" for text in season_legend(events))
    body = f'{grid_html(grid, "h1")}<ul class="note">\n{legend}</ul>\n'
    # The season table's words are not in the catalogs yet: its page says it is English.
    return document(grid.title, body, words("en"))


def seeds_for(
    rows: Sequence[SeasonRow],
    players: Mapping[str, Player],
    withdrawn: frozenset[str] = frozenset(),
) -> list[Player]:
    """The season's best four among ``players`` (by id, matched by name), best first."""
    present = (player for pid, player in players.items() if pid not in withdrawn)
    by_key = by_name(present, "two registered players")
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


def seeding_text(comp: Competition, seeds: int) -> str:
    """What declaring ``seeds`` seeds achieves in this event (003 §10a), honestly."""
    if comp.fixed and all(
        g.seating is not SeatingMethod.LEAGUE_SEEDED for g in comp.event.format.stages[0].groups
    ):
        return (
            f"the first round of {comp.event.format.name!r} is not a seeded draw, so the seeds "
            "do not change who sits where (only league events keep seeds apart)"
        )
    tables = first_stage_tables(comp)
    if tables is None:
        return (
            f"the number of first-stage tables is not known yet ({len(comp.event.present)} "
            "present): whether the seeds can all sit apart is shown once the players are "
            "checked in"
        )
    return seeding_statement(seeds, tables)

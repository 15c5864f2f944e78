"""A league season (003) across tournaments, each one its own event file.

The people behind the tournaments' players are :mod:`hub.league.identity`'s: a league
number is the person; a name that matches an earlier tournament's player (case, accents
and repeated spaces ignored) is a question the organizer answers — the same person, or
somebody else — never a silent match. Until it is answered the two count apart, and the
table says so. The answers are kept in an identities file (``--identities``), the one the
central league service exports, so the table over files and the central's are the same.
The season table sums the league tournament points of each finished league event; ties
are broken by the number of starts (more starts ranks higher, RULES.md §4), and players
still level share the place (:mod:`hub.league.season`).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import msgspec

from hub.competition import Competition
from hub.exports.grid import Grid, Sheet
from hub.exports.pages import document, grid_html
from hub.league.identity import (
    Decision,
    Entry,
    Question,
    decisions_decoder,
    decisions_json,
    tournament_key,
)
from hub.league.season import Counted, Season, SeasonLine, fold_season
from hub.league.wire import BoardLine
from hub.organizer import Organizer
from hub.privacy import published_season
from hub.store import HUB_SOURCE, EventStore
from hub.tournament import (
    EventPhase,
    Player,
    PlayerCountError,
    SeatingMethod,
    TieAtCutError,
    TournamentFormat,
    preset,
    seeding_statement,
    table_sizes,
)
from hub.tournament.format_words import describe
from hub.tournament.standings import place_labels
from tablekit.core.errors import KitError, Phrase
from tablekit.core.names import match_key
from tablekit.core.words import N_
from tablekit.shared.i18n import Words


class SeasonError(KitError, ValueError):
    """An event file that cannot count for the season; the message names the file."""


@dataclass(frozen=True)
class SeasonEvent:
    """A finished league tournament, and where it was read from."""

    source: str
    counted: Counted
    competition: Competition
    """The event as stored (its privacy setting names the players for publication)."""

    @property
    def name(self) -> str:
        return self.counted.name


def open_event(path: str | Path) -> tuple[Competition, bytes]:
    """The event stored in ``path`` (which must exist: nothing is created) and the
    payload of the record that created it (its tournament's key)."""
    path = Path(path)
    if not path.is_file():
        raise SeasonError(N_("{file}: no such event file"), file=path)
    store = EventStore(path)
    try:
        created = store.events(source=HUB_SOURCE, kind="event-created")
        return Organizer(store).competition, created[0].payload if created else b""
    finally:
        store.close()


def open_competition(path: str | Path) -> Competition:
    """The event stored in ``path`` (which must exist: nothing is created)."""
    return open_event(path)[0]


def entry_of(key: str, player: Player) -> Entry:
    return Entry(key, player.id, player.name, player.club, player.surname, player.league_number)


def counted(comp: Competition, created: bytes, source: str) -> Counted:
    """One finished league tournament as the season counts it; SeasonError naming
    ``source`` when it cannot count (not a league event, not finished, places undecided)."""
    made = comp.created
    if made is None or comp.state is None or not created:
        raise SeasonError(N_("{source}: no event in this file"), source=source)
    event = comp.event
    if not event.format.league:
        raise SeasonError(
            N_("{source}: {name!r} is not a league event ({preset})"),
            source=source,
            name=made.name,
            preset=describe(event.format),
        )
    if event.phase is not EventPhase.FINISHED:
        raise SeasonError(
            N_("{source}: {name!r} is not finished ({phase})"),
            source=source,
            name=made.name,
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
            name=made.name,
            error=err,
        ) from None
    key = tournament_key(created)
    entries = tuple(entry_of(key, event.players[pid]) for pid in league_points)
    return Counted(key, made.name, made.at, entries, dict(league_points))


def season_event(path: str | Path, source: str | None = None) -> SeasonEvent:
    """The finished league tournament of the event file ``path``."""
    comp, created = open_event(path)
    name = str(path) if source is None else source
    return SeasonEvent(name, counted(comp, created, name), comp)


def read_decisions(path: Path | None) -> list[Decision]:
    """The identities file's decisions (none when ``path`` is None or does not exist)."""
    if path is None or not path.exists():
        return []
    try:
        return decisions_decoder.decode(path.read_bytes())
    except (OSError, msgspec.DecodeError, ValueError) as err:
        raise SeasonError(
            N_("{file}: not an identities file of the league ({error})"), file=path, error=str(err)
        ) from None


def write_decisions(path: Path, decisions: Iterable[Decision]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(decisions_json(decisions))
    tmp.replace(path)


def same_names(questions: Sequence[Question], by: str, at: float) -> list[Decision]:
    """The organizer's answer "the same person" to every question listed (each with its
    earliest candidate), given after reading them."""
    return [Decision(q.entry.ref, q.candidates[0].ref, by, at) for q in questions]


def season_of(events: Sequence[SeasonEvent], decisions: Sequence[Decision] = ()) -> Season:
    """The season over ``events`` with the organizer's ``decisions``."""
    return fold_season([e.counted for e in events], decisions)


def ordered_events(events: Sequence[SeasonEvent], season: Season) -> list[SeasonEvent]:
    """``events`` in the season's order (when each tournament was created)."""
    by_key = {e.counted.key: e for e in events}
    return [by_key[t.key] for t in season.tournaments]


def for_publication(season: Season, events: Sequence[SeasonEvent]) -> Season:
    """The season named as the public reads it: for publication."""
    return published_season(season, {e.counted.key: e.competition for e in events})


def question_lines(season: Season, words: Words) -> list[str]:
    """The open name questions, one line each, in the reader's language, each player
    named as the season's lines name them."""
    names = {t.key: t.name for t in season.tournaments}
    shown = {line.person: line.name for line in season.lines}

    def name(entry: Entry) -> str:
        return shown.get(season.identities.person(entry), entry.name)

    return [
        words.gettext(
            "{name} ({tournament}) has the name of {earlier} ({earlier_tournament}): counted "
            "apart until the organizer says whether it is the same person"
        ).format(
            name=name(q.entry), tournament=names[q.entry.tournament],
            earlier=name(q.candidates[0]), earlier_tournament=names[q.candidates[0].tournament],
        )
        for q in season.identities.questions
    ]


def tournament_column(number: int, words: Words) -> str:
    """The season table's column of its ``number``-th tournament: "Turniej 1"."""
    # Translators: the season table's column of the league points of one tournament
    return words.pgettext("column", "Tournament {n}").format(n=number)


def season_grid(season: Season, words: Words) -> Grid:
    """The season table: place, player, club, points, starts, then each tournament's
    points (:func:`tournament_column`, in the season's order; ``-``: did not start)."""
    lines = season.lines
    labels = place_labels([line.place for line in lines])
    rows = [
        (
            label,
            line.name,
            line.club or "",
            str(line.points),
            str(line.starts),
            *("-" if p is None else str(p) for p in line.per_tournament),
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
    count = len(season.tournaments)
    title = words.ngettext(
        "Season table ({n} tournament)", "Season table ({n} tournaments)", count
    ).format(n=count)
    return Grid(
        title,
        (*headers, *(tournament_column(i, words) for i in range(1, count + 1))),
        rows,
        numeric=frozenset(range(3, len(headers) + count)),
        club=2,
    )


def season_legend(events: Sequence[SeasonEvent], words: Words) -> list[str]:
    """``Turniej 1: Liga 1 (liga-1.sqlite3)`` per tournament (the file's name, not its
    folder)."""
    return [
        f"{tournament_column(i, words)}: {e.name} ({Path(e.source).name})"
        for i, e in enumerate(events, start=1)
    ]


def season_csv(season: Season, sheet: Sheet) -> str:
    """The season table for ``sheet``'s spreadsheet: a tournament's column is headed
    ``Turniej 1: Liga 1``; an empty cell: did not start."""
    w = sheet.words
    headers = [
        w.pgettext("CSV column", "place"),
        w.pgettext("CSV column", "name"),
        w.pgettext("CSV column", "club"),
        w.pgettext("CSV column", "points"),
        w.pgettext("CSV column", "starts"),
    ]
    headers += [
        f"{tournament_column(i, w)}: {t.name}" for i, t in enumerate(season.tournaments, start=1)
    ]
    rows = [
        (
            str(line.place),
            line.name,
            line.club or "",
            str(line.points),
            str(line.starts),
            *("" if p is None else str(p) for p in line.per_tournament),
        )
        for line in season.lines
    ]
    return sheet.text(headers, rows)


INTERNAL_NOTE = N_(
    "The organizer's internal list: full names and clubs of every player, minors too "
    "(not for publication)"
)
"""What heads the internal season table (the export for publication names minors as the
public pages do)."""


def season_stem(internal: bool) -> str:
    """The season export's file name without its extension: ``season``, for publication,
    or ``season-internal``, the organizer's full list."""
    return "season-internal" if internal else "season"


def exported_season(season: Season, events: Sequence[SeasonEvent], internal: bool) -> Season:
    """The season as its export shows it: as the public reads it (:func:`for_publication`)
    unless the organizer asked for the internal list."""
    return season if internal else for_publication(season, events)


def season_html(
    season: Season, events: Sequence[SeasonEvent], words: Words, *, internal: bool = False
) -> str:
    """The season table to print (A4), with which tournament each column is; the
    internal list says so first."""
    grid = season_grid(season, words)
    notes = [*season_legend(events, words), *question_lines(season, words)]
    if internal:
        notes.insert(0, words.gettext(INTERNAL_NOTE))
    legend = "".join(f"<li>{html.escape(text)}</li>\n" for text in notes)
    body = f'{grid_html(grid, "h1")}<ul class="note">\n{legend}</ul>\n'
    return document(grid.title, body, words)


def seeds_for(
    lines: Sequence[SeasonLine | BoardLine],
    players: Mapping[str, Player],
    withdrawn: frozenset[str] = frozenset(),
) -> list[tuple[Player, int]]:
    """The season's best four among ``players`` (by id), best first, with their season
    points: a player is the season's person of the same league number, else the one
    person of the same name (the list the command prints says who, before the organizer
    declares them)."""
    by_number = {line.number: i for i, line in enumerate(lines) if line.number}
    by_name: dict[str, list[int]] = {}
    for i, line in enumerate(lines):
        by_name.setdefault(match_key(line.name), []).append(i)
    place: dict[str, int] = {}
    for pid, player in players.items():
        if pid in withdrawn:
            continue
        number = player.league_number
        if number and number in by_number:
            place[pid] = by_number[number]
        elif len(by_name.get(match_key(player.name), [])) == 1:
            place[pid] = by_name[match_key(player.name)][0]
    best = sorted(place, key=place.__getitem__)[:4]
    return [(players[pid], lines[place[pid]].points) for pid in best]


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
        )
    tables = first_stage_tables(comp)
    if tables is None:
        return Phrase(
            N_("the number of first-stage tables is not known yet ({present} present): "
               "whether the seeds can all sit apart is shown once the players are checked "
               "in"),
            present=len(comp.event.present),
        )
    return seeding_statement(seeds, tables)

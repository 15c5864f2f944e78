"""League (003): tournament points and the season table.

Tournament points: 1st place = participants + 1, 2nd = participants − 1, then one less
per place down to 1, and at most 17 — so with more than 16 participants the scale is
that of 16 (17, 15, 14, …, 1) and places 17+ score 0. 8 players: 9, 7, 6, 5, 4, 3, 2, 1.

Shared place: players who share a place (competition ranking, e.g. two players 3rd,
the next one 5th) each get the points of the shared (better) place, as the placement
big-point scheme does for tied players (RULES.md §3.4); the place after the tie keeps
its own points.

Season table: sum of tournament points; ties broken by number of starts (more starts
ranks higher by default — ``more_starts_ranks_higher=False`` reverses it); players
still level share the place.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping

import msgspec

from hub.tournament.errors import TournamentError
from tablekit.core.errors import Phrase, joined
from tablekit.core.names import NameKey
from tablekit.core.words import N_

MAX_TOURNAMENT_POINTS = 17
SEEDED_PER_TOURNAMENT = 4


def tournament_points(place: int, participants: int, cap: int = MAX_TOURNAMENT_POINTS) -> int:
    """League points for final ``place`` (from 1) in a tournament of ``participants``."""
    if participants < 1 or not 1 <= place <= participants:
        raise TournamentError(
            N_("league points: place {place} is not a place among {count} participants"),
            place=place, count=participants,
        )
    scale = min(participants, cap - 1)
    if place == 1:
        return scale + 1
    return max(scale - place + 1, 0)


def award_points(places: Mapping[str, int], cap: int = MAX_TOURNAMENT_POINTS) -> dict[str, int]:
    """Tournament points per player from their final places (shared places allowed)."""
    n = len(places)
    return {pid: tournament_points(place, n, cap) for pid, place in places.items()}


class SeasonRow(msgspec.Struct, frozen=True):
    place: int
    player_id: str
    points: int
    starts: int


def season_table(
    tournaments: Iterable[Mapping[str, int]],
    *,
    more_starts_ranks_higher: bool = True,
    order: Callable[[str], NameKey] | None = None,
) -> tuple[SeasonRow, ...]:
    """The season table from each tournament's points per participant.

    Every player listed in a tournament's mapping counts one start, even with 0 points.
    Players sharing a place are listed by ``order`` (their names' order, see
    :func:`tablekit.core.names.name_order`), then by key.
    """
    points: dict[str, int] = {}
    starts: dict[str, int] = {}
    for tournament in tournaments:
        for pid, pts in tournament.items():
            points[pid] = points.get(pid, 0) + pts
            starts[pid] = starts.get(pid, 0) + 1
    sign = -1 if more_starts_ranks_higher else 1

    def key(pid: str) -> tuple[int, int]:
        return (-points[pid], sign * starts[pid])

    def listed(pid: str) -> tuple[int, int, NameKey | None, str]:
        return (*key(pid), order(pid) if order is not None else None, pid)

    ordered = sorted(points, key=listed)
    rows: list[SeasonRow] = []
    for i, pid in enumerate(ordered):
        place = rows[-1].place if i and key(ordered[i - 1]) == key(pid) else i + 1
        rows.append(SeasonRow(place, pid, points[pid], starts[pid]))
    return tuple(rows)


def season_seeds(
    table: Iterable[SeasonRow],
    present: Collection[str],
    k: int = SEEDED_PER_TOURNAMENT,
) -> tuple[str, ...]:
    """The best ``k`` of the season table among ``present`` players, best first.

    These are the players to seed into different first-stage tables (declare them with
    the ``SeedsDeclared`` fact). Players level at the cut are listed by id; the draw is
    what keeps the seeds apart, so which of two level players is seeded only decides who
    is guaranteed to avoid the others.
    """
    rows = [row for row in table if row.player_id in present]
    return tuple(row.player_id for row in rows[:k])


def seed_tables(seeds: int, tables: int) -> tuple[tuple[int, ...], ...]:
    """Seed numbers (from 1) at each first-stage table, as the league draw deals them:
    seed ``k`` goes to table ``(k − 1) mod tables + 1`` (3 tables, 4 seeds: 1 and 4 | 2 | 3)."""
    if tables < 1:
        raise TournamentError(N_("league seeds: {tables} first-stage tables"), tables=tables)
    dealt: list[list[int]] = [[] for _ in range(tables)]
    for k in range(1, seeds + 1):
        dealt[(k - 1) % tables].append(k)
    return tuple(tuple(t) for t in dealt)


def seeding_statement(seeds: int, tables: int) -> Phrase:
    """What the league seeding (003 §10a) achieves with ``seeds`` seeds at ``tables``
    first-stage tables: every seed at a table of its own, or which seeds share one (words
    to say in the reader's language, ``.message(gettext)``; ``str()`` the English)."""
    if seeds <= 1:
        return Phrase(N_("seeds: {seeds}; nothing to keep apart"), seeds=seeds)
    shared = [t for t in seed_tables(seeds, tables) if len(t) > 1]
    if not shared:
        return Phrase(
            N_("all {seeds} seeds play at different first-stage tables ({tables} tables)"),
            seeds=seeds, tables=tables,
        )
    apart = ", ".join(str(t[0]) for t in seed_tables(seeds, tables))
    pairs = joined(
        [
            Phrase(N_("seeds {first} and {second} share table {table}"), first=t[0],
                   second=t[1], table=i)
            if len(t) == 2
            else Phrase(N_("seeds {seeds} share table {table}"), seeds=", ".join(map(str, t)),
                        table=i)
            for i, t in enumerate(seed_tables(seeds, tables), start=1)
            if len(t) > 1
        ],
        "; ",
    )
    return Phrase(
        N_("003 §10a cannot hold: {tables} first-stage tables for {seeds} seeds; seeds "
           "{apart} play at different tables, {pairs}"),
        tables=tables, seeds=seeds, apart=apart, pairs=pairs,
    )

"""Seating methods (RULES.md §4): who sits at which table, in seat order A, B, C, D.

Every method returns a :class:`Seating`: tables numbered from 1, each a tuple of player
ids in seat order (seat A first), the method, the seed of the random generator (when the
method used one) and the number of repeated pairs (pairs seated together who already
sat together earlier in the event, when that history was given).

Randomness comes only from the injected ``random.Random``; pass the seed you built it
from as ``seed`` so the result records it and the draw can be reproduced.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping, Sequence, Set
from typing import TypeAlias

import msgspec

from hub.tournament.errors import PlayerCountError
from hub.tournament.players import require_distinct
from tablekit.core.errors import Phrase
from tablekit.core.seats import MAX_SEATS, MIN_SEATS, seats_for
from tablekit.core.words import N_

#: Who already sat with whom: player id -> ids of earlier table-mates.
MetPairs: TypeAlias = Mapping[str, Set[str]]


class SeatingMethod(enum.StrEnum):
    RANDOM = "random"
    RANDOM_AVOIDING_REPEATS = "random-avoiding-repeats"
    BY_STANDINGS = "by-standings"
    SEEDED_SNAKE = "seeded-snake"
    BY_TABLE_PLACEMENT = "by-table-placement"
    LEAGUE_SEEDED = "league-seeded"


class Seating(msgspec.Struct, frozen=True):
    """Tables (numbered from 1) of player ids in seat order A, B, C, D."""

    tables: tuple[tuple[str, ...], ...]
    method: SeatingMethod
    seed: int | None = None
    repeats: int = 0
    floor: int | None = None
    """Repeated pairs no seating of these players at tables of these sizes goes below,
    when the method knows it (:mod:`hub.tournament.repeats`)."""

    def player_ids(self) -> tuple[str, ...]:
        return tuple(pid for table in self.tables for pid in table)

    def table_of(self, player_id: str) -> int:
        """The table number (from 1) of ``player_id``."""
        for number, table in enumerate(self.tables, start=1):
            if player_id in table:
                return number
        raise KeyError(player_id)

    def codes(self, first_table: int = 1) -> dict[str, str]:
        """Draw codes such as ``"1A"`` per player (RULES.md §1)."""
        out: dict[str, str] = {}
        for number, table in enumerate(self.tables, start=first_table):
            for seat, pid in zip(seats_for(len(table)), table, strict=True):
                out[pid] = f"{number}{seat}"
        return out


def three_tables_needed(count: int) -> int:
    """Number of 3-player tables in a balanced split: ``(4 − N mod 4) mod 4``."""
    return (MAX_SEATS - count % MAX_SEATS) % MAX_SEATS


def table_sizes(count: int, tables: int | None = None) -> tuple[int, ...]:
    """Table sizes for ``count`` players: 4-tables first, 3-tables at the end.

    Without ``tables`` the split is balanced (as many 4-tables as possible); with it the
    players are spread over exactly that many tables of 3 or 4 (a scheme that needs a
    fixed number of tables, e.g. the league's TOP 16 with 13 entrants: 4, 3, 3, 3).
    """
    if tables is None:
        threes = three_tables_needed(count)
        fours = (count - MIN_SEATS * threes) // MAX_SEATS
        if count <= 0 or fours < 0:
            raise PlayerCountError(
                N_("seating: {count} players cannot be split into tables of 3 or 4"),
                count=count,
            )
        return (MAX_SEATS,) * fours + (MIN_SEATS,) * threes
    if tables < 1 or not MIN_SEATS * tables <= count <= MAX_SEATS * tables:
        raise PlayerCountError(
            N_("seating: {count} players cannot fill {tables} tables of 3 or 4 "
               "(needs {fewest}–{most} players)"),
            count=count, tables=tables,
            fewest=MIN_SEATS * max(tables, 1), most=MAX_SEATS * max(tables, 1),
        )
    fours = count - MIN_SEATS * tables
    return (MAX_SEATS,) * fours + (MIN_SEATS,) * (tables - fours)


def fill_tables(ordered: Sequence[str], sizes: Sequence[int]) -> tuple[tuple[str, ...], ...]:
    """Cut ``ordered`` into consecutive tables of ``sizes``."""
    out: list[tuple[str, ...]] = []
    start = 0
    for size in sizes:
        out.append(tuple(ordered[start : start + size]))
        start += size
    return tuple(out)


def count_repeats(tables: Iterable[Sequence[str]], met: MetPairs | None) -> int:
    """Pairs seated at the same table who already met (each pair counted once)."""
    if not met:
        return 0
    n = 0
    for table in tables:
        for i, a in enumerate(table):
            seen = met.get(a)
            if seen:
                n += sum(1 for b in table[i + 1 :] if b in seen)
    return n


def _checked(players: Sequence[str], what: Phrase) -> list[str]:
    require_distinct(players, what)
    return list(players)


def random_draw(
    players: Sequence[str],
    rng: random.Random,
    *,
    seed: int | None = None,
    tables: int | None = None,
    met: MetPairs | None = None,
) -> Seating:
    """Random draw, balanced: shuffle, then tables of 4 with 3-tables only as needed.

    ``(4 − N mod 4) mod 4`` tables of 3 (they are the last tables). N in {0, 1, 2, 5}
    cannot be split and is an error naming the count. ``tables`` fixes the number of
    tables instead (league schemes). ``met`` only feeds the reported repeat count.
    """
    pool = _checked(players, Phrase(N_("random draw")))
    sizes = table_sizes(len(pool), tables)
    rng.shuffle(pool)
    seated = fill_tables(pool, sizes)
    return Seating(seated, SeatingMethod.RANDOM, seed, count_repeats(seated, met))


def by_standings(
    ordered: Sequence[str], *, tables: int | None = None, met: MetPairs | None = None
) -> Seating:
    """Players in standings order fill table 1 (places 1–4), table 2 (5–8) …

    The 3-player tables are the last ones; seat A is the best placed at each table.
    """
    pool = _checked(ordered, Phrase(N_("seating by standings")))
    seated = fill_tables(pool, table_sizes(len(pool), tables))
    return Seating(seated, SeatingMethod.BY_STANDINGS, None, count_repeats(seated, met))


def seeded_snake(
    ordered: Sequence[str], *, tables: int | None = None, met: MetPairs | None = None
) -> Seating:
    """Seeded distribution of ranked qualifiers (002 semifinal).

    Place ``i`` (from 1) goes to table ``(i − 1) mod T + 1`` where ``T`` is the number of
    tables of the balanced split: 8 qualifiers → table 1 = places 1, 3, 5, 7 and table 2 =
    places 2, 4, 6, 8; 6 → 1, 3, 5 | 2, 4, 6; 12 → 1, 4, 7, 10 | 2, 5, 8, 11 | 3, 6, 9, 12.
    Dealing round by round keeps every table's best seed in seat A, spreads the strong
    players evenly, and gives the extra player of a 4-table to the first tables (so the
    3-tables are at the end, as in every other method).
    """
    pool = _checked(ordered, Phrase(N_("seeded snake")))
    sizes = table_sizes(len(pool), tables)
    dealt: list[list[str]] = [[] for _ in sizes]
    for i, pid in enumerate(pool):
        dealt[i % len(sizes)].append(pid)
    seated = tuple(tuple(t) for t in dealt)
    return Seating(seated, SeatingMethod.SEEDED_SNAKE, None, count_repeats(seated, met))


class TablePlacing(msgspec.Struct, frozen=True):
    """A player's result at their table in an earlier stage (input to seating by placement)."""

    player_id: str
    table: int
    place: int
    big: int
    small: int


def table_placement_order(placings: Iterable[TablePlacing], lots: Mapping[str, float]) -> list[str]:
    """Rank players across tables: place at their table, then BP, then SP, then lot."""
    return [
        p.player_id
        for p in sorted(
            placings, key=lambda p: (p.place, -p.big, -p.small, lots.get(p.player_id, 0.0))
        )
    ]


def by_table_placement(
    placings: Sequence[TablePlacing],
    rng: random.Random,
    *,
    seed: int | None = None,
    tables: int | None = None,
    met: MetPairs | None = None,
    lots: Mapping[str, float] | None = None,
) -> Seating:
    """Table winners form table 1, second places table 2, … (003).

    Rule for uneven counts: players are ranked across tables by their place at their
    table, then BP, then SP (both over that stage), remaining ties by ``lots`` (the event
    passes its decided order: the head judge's at a cut, its lot elsewhere); this order then
    fills the tables exactly like seating by standings (4-tables first, 3-tables at the
    end). With all tables of 4 this is exactly "winners | seconds | thirds | fourths";
    when an earlier table had 3 players, the group of a place is short and the best of
    the next place moves up (13 entrants at 4,3,3,3: table 1 = the 4 winners, table 2 =
    the 3 best seconds, table 3 = the last second and the 2 best thirds, table 4 = the
    other 2 thirds and the only fourth). ``lots`` supplies the tie-breaking keys when the
    caller already drew them (otherwise they are drawn from ``rng``).
    """
    require_distinct([p.player_id for p in placings], Phrase(N_("seating by table placement")))
    if lots is None:
        lots = {p.player_id: rng.random() for p in sorted(placings, key=lambda p: p.player_id)}
    order = table_placement_order(placings, lots)
    seated = fill_tables(order, table_sizes(len(order), tables))
    return Seating(seated, SeatingMethod.BY_TABLE_PLACEMENT, seed, count_repeats(seated, met))


def league_seeded(
    players: Sequence[str],
    seeds: Sequence[str],
    rng: random.Random,
    *,
    seed: int | None = None,
    tables: int | None = None,
    met: MetPairs | None = None,
) -> Seating:
    """Random draw in which the seeded players (best first) sit at different tables (003).

    Seed ``k`` (from 1) takes seat A of table ``(k − 1) mod T + 1``; with fewer tables
    than seeds they are dealt round robin (TOP 8, 2 tables: seeds 1 and 3 at table 1,
    2 and 4 at table 2). Everyone else is shuffled into the remaining seats. Seeds not
    among ``players`` are ignored.
    """
    pool = _checked(players, Phrase(N_("league seeding")))
    present = set(pool)
    seeded = [pid for pid in dict.fromkeys(seeds) if pid in present]
    sizes = table_sizes(len(pool), tables)
    tables_out: list[list[str]] = [[] for _ in sizes]
    for k, pid in enumerate(seeded):
        tables_out[k % len(sizes)].append(pid)
    rest = [pid for pid in pool if pid not in set(seeded)]
    rng.shuffle(rest)
    it = iter(rest)
    for table, size in zip(tables_out, sizes, strict=True):
        while len(table) < size:
            table.append(next(it))
    seated = tuple(tuple(t) for t in tables_out)
    return Seating(seated, SeatingMethod.LEAGUE_SEEDED, seed, count_repeats(seated, met))

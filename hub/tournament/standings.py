"""Standings (RULES.md §3.5): totals of big points (BP) and small points (SP).

Order by total BP, then total SP, both descending. Big points a judge deducted (a
sanction, RULES.md §3.5) are taken off the total before ranking; ``deducted`` says how
many. Players still level share a place
(competition ranking: 1, 2, 2, 4); the order in which games or players were given never
decides anything. Inside a shared place rows are listed by player id, only so that the
output is deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeAlias

import msgspec

from tablekit.core.scoring import rank_by_points

#: One game: for each player at the table, ``(big, small)`` points.
GameScores: TypeAlias = Mapping[str, tuple[int, int]]


class StandingRow(msgspec.Struct, frozen=True):
    """One line of a standings table; ``place`` is shared by players who are level."""

    place: int
    player_id: str
    big: int
    small: int
    games: int
    deducted: int = 0
    """Big points deducted by the judge, already taken off ``big``."""


class Standings(msgspec.Struct, frozen=True):
    """Rows in standings order (best first)."""

    rows: tuple[StandingRow, ...]

    def ids(self) -> tuple[str, ...]:
        return tuple(row.player_id for row in self.rows)

    def row(self, player_id: str) -> StandingRow:
        for row in self.rows:
            if row.player_id == player_id:
                return row
        raise KeyError(player_id)

    def place_of(self, player_id: str) -> int:
        return self.row(player_id).place

    def __len__(self) -> int:
        return len(self.rows)


class Totals(msgspec.Struct, frozen=True):
    """A player's totals over some games."""

    player_id: str
    big: int = 0
    small: int = 0
    games: int = 0
    deducted: int = 0


def totals(
    games: Iterable[GameScores],
    participants: Iterable[str] = (),
    deductions: Mapping[str, int] | None = None,
) -> dict[str, Totals]:
    """Sum BP, SP and games played per player; ``participants`` appear even with no game.

    ``deductions`` (big points per player) are taken off the players' big points who
    are among them; a deduction of someone else is not theirs to count here.
    """
    acc: dict[str, list[int]] = {pid: [0, 0, 0] for pid in participants}
    for game in games:
        for pid, (big, small) in game.items():
            entry = acc.setdefault(pid, [0, 0, 0])
            entry[0] += big
            entry[1] += small
            entry[2] += 1
    cut = deductions or {}
    return {
        pid: Totals(pid, big - cut.get(pid, 0), small, n, cut.get(pid, 0))
        for pid, (big, small, n) in acc.items()
    }


def standings_from_totals(all_totals: Iterable[Totals]) -> Standings:
    """Rank totals by BP then SP (descending); level players share the place
    (:func:`tablekit.core.scoring.rank_by_points`, the one ranking both ends use)."""
    by_id = {t.player_id: t for t in all_totals}
    ranked = rank_by_points({pid: (t.big, t.small) for pid, t in by_id.items()})
    return Standings(
        tuple(
            StandingRow(
                place, pid, by_id[pid].big, by_id[pid].small, by_id[pid].games,
                by_id[pid].deducted,
            )
            for place, pid in ranked
        )
    )


def compute_standings(
    games: Iterable[GameScores],
    participants: Iterable[str] = (),
    deductions: Mapping[str, int] | None = None,
) -> Standings:
    """Standings over ``games``; ``participants`` with no game are listed with zeros;
    ``deductions`` are big points taken off by the judge."""
    return standings_from_totals(totals(games, participants, deductions).values())


def lot_keys(player_ids: Iterable[str], rng: random.Random) -> dict[str, float]:
    """One random key per player, drawn in player-id order (so a seed reproduces it)."""
    return {pid: rng.random() for pid in sorted(set(player_ids))}


def strict_order(standings: Standings, lots: Mapping[str, float]) -> list[str]:
    """Player ids in standings order with remaining ties broken by lot (for a cut or a seed).

    Players missing from ``lots`` sort after lotted ones inside their tie, by id.
    """
    return [
        row.player_id
        for row in sorted(
            standings.rows,
            key=lambda r: (
                r.place,
                r.player_id not in lots,
                lots.get(r.player_id, 0.0),
                r.player_id,
            ),
        )
    ]


def place_labels(places: Sequence[int]) -> list[str]:
    """``1, 2=, 2=, 4``: a shared place is marked ``=`` on every row sharing it."""
    counts: dict[int, int] = {}
    for place in places:
        counts[place] = counts.get(place, 0) + 1
    return [f"{p}=" if counts[p] > 1 else str(p) for p in places]


def signed(n: int) -> str:
    """Small points as every list shows them: ``+12``, ``0``, ``-7``."""
    return f"+{n}" if n > 0 else str(n)

"""Random draw that avoids repeated table-mates (for multi-round events such as 004).

Method: the draw starts from exactly the plain balanced shuffle that :func:`random_draw`
makes from the same generator state, then improves it by swapping two players of
different tables. Each step takes a player who sits with someone they already met and
moves them by the swap that lowers the number of repeated pairs most (candidates are
visited in a random order, so equally good swaps are chosen by the seeded generator).
When no swap improves, a few equal-cost swaps are allowed to leave a plateau; the best
seating seen is returned. The work is bounded by ``max_passes`` passes over the
conflicted players, so the result never has more repeats than the plain shuffle of the
same seed, and 200 players take a few tens of milliseconds. A field of up to
:data:`~hub.tournament.repeats.EXACT_PLAYERS` players that still has repeated pairs is
then solved exactly (:func:`~hub.tournament.repeats.fewest_repeats`), so its draw has
the fewest there are.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from hub.tournament.players import require_distinct
from hub.tournament.repeats import EXACT_PLAYERS, fewest_repeats
from hub.tournament.seating import (
    MetPairs,
    Seating,
    SeatingMethod,
    count_repeats,
    fill_tables,
    table_sizes,
)
from tablekit.core.errors import Phrase
from tablekit.core.words import N_


def met_pairs(
    tables: Iterable[Sequence[str]], into: dict[str, set[str]] | None = None
) -> dict[str, set[str]]:
    """Add every pair seated together at ``tables`` to a who-met-whom map."""
    out: dict[str, set[str]] = {} if into is None else into
    for table in tables:
        for a in table:
            mates = out.setdefault(a, set())
            mates.update(b for b in table if b != a)
    return out


def draw_avoiding_repeats(
    players: Sequence[str],
    met: MetPairs,
    rng: random.Random,
    *,
    seed: int | None = None,
    tables: int | None = None,
    max_passes: int = 40,
) -> Seating:
    """Balanced random draw minimising pairs who already sat together (see module doc)."""
    require_distinct(players, Phrase(N_("draw avoiding repeats")))
    pool = list(players)
    sizes = table_sizes(len(pool), tables)
    rng.shuffle(pool)
    seated = [list(t) for t in fill_tables(pool, sizes)]
    table_of = {pid: i for i, table in enumerate(seated) for pid in table}
    empty: frozenset[str] = frozenset()

    def clashes(pid: str, table: list[str], skip: str) -> int:
        seen = met.get(pid, empty)
        return sum(1 for q in table if q not in (pid, skip) and q in seen)

    cost = count_repeats(seated, met)
    best_cost = cost
    best = [tuple(t) for t in seated]
    sideways_left = max(len(pool) // 2, 8)
    everyone = sorted(pool)
    for _ in range(max_passes):
        if cost == 0:
            break
        conflicted = [p for p in everyone if clashes(p, seated[table_of[p]], p) > 0]
        rng.shuffle(conflicted)
        candidates = everyone[:]
        rng.shuffle(candidates)
        moved = False
        for x in conflicted:
            tx = table_of[x]
            cx = clashes(x, seated[tx], x)
            if cx == 0:
                continue
            best_delta = 1
            best_y: str | None = None
            for y in candidates:
                ty = table_of[y]
                if ty == tx:
                    continue
                delta = (
                    clashes(x, seated[ty], y)
                    + clashes(y, seated[tx], x)
                    - cx
                    - clashes(y, seated[ty], y)
                )
                if delta < best_delta:
                    best_delta, best_y = delta, y
            if best_y is None or (best_delta == 0 and sideways_left <= 0):
                continue
            if best_delta == 0:
                sideways_left -= 1
            ty = table_of[best_y]
            ix, iy = seated[tx].index(x), seated[ty].index(best_y)
            seated[tx][ix], seated[ty][iy] = best_y, x
            table_of[x], table_of[best_y] = ty, tx
            cost += best_delta
            moved = True
            if cost < best_cost:
                best_cost = cost
                best = [tuple(t) for t in seated]
                if cost == 0:
                    break
        if not moved:
            break
    method = SeatingMethod.RANDOM_AVOIDING_REPEATS
    if best_cost == 0:
        return Seating(tuple(best), method, seed, 0, floor=0)
    if len(pool) <= EXACT_PLAYERS:
        # a small field: the fewest is known exactly; the search takes the players in
        # the seeded order, so its seating is a seeded one of the fewest too
        exact = fewest_repeats(pool, sizes, met)
        if exact is not None:
            return Seating(exact[1], method, seed, exact[0], floor=exact[0])
    return Seating(tuple(best), method, seed, best_cost)

"""How few repeated pairs a draw can have (pure): the exact fewest on small fields, a
lower bound on larger ones, so a draw says its repeated pairs cannot be avoided only
when that is proven.

A **repeated pair** is two players seated at one table who already sat together earlier
in the event. The draw that avoids them (:mod:`hub.tournament.draw`) is a local search:
good, but not proven best. Here:

* :func:`fewest_repeats` searches every seating of up to :data:`EXACT_PLAYERS` players at
  tables of the given sizes (branch and bound, tables of one size interchangeable,
  at most :data:`NODE_BUDGET` tables tried) and gives the fewest repeated pairs with a
  seating that has them — the first such in the players' order, so a seeded order gives
  a seeded seating;
* :func:`repeats_floor` is a lower bound for any field: every player sits with at least
  ``smallest table − 1`` others, of whom only those they have not met are free (each pair
  counted from both sides), and the players of one earlier table can be spread over the
  tables at best evenly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Set
from itertools import combinations
from math import comb
from typing import Final

EXACT_PLAYERS: Final = 12
"""Fields up to this many players are solved exactly."""
NODE_BUDGET: Final = 200_000
"""Tables the exact search tries at most (a 12-player field needs a few thousand)."""

Tables = tuple[tuple[str, ...], ...]


def pairs_met(table: Iterable[str], met: Mapping[str, Set[str]]) -> int:
    """Pairs at ``table`` who already met."""
    seated = list(table)
    return sum(1 for i, a in enumerate(seated) for b in seated[i + 1 :] if b in met.get(a, ()))


def fewest_repeats(
    players: Sequence[str],
    sizes: Sequence[int],
    met: Mapping[str, Set[str]],
    budget: int = NODE_BUDGET,
) -> tuple[int, Tables] | None:
    """The fewest repeated pairs any seating of ``players`` at tables of ``sizes`` has,
    and the first seating (in ``players``' order) that has them, tables in ``sizes``'
    order; None when the search needs more than ``budget`` tables tried."""
    best: list[tuple[int, Tables]] = []
    tried = 0

    def search(left: tuple[str, ...], open_sizes: tuple[int, ...], cost: int,
               seated: list[tuple[str, ...]]) -> bool:
        nonlocal tried
        if best and cost >= best[0][0]:
            return True
        if not left:
            best[:] = [(cost, _in_size_order(seated, sizes))]
            return True
        anchor, rest = left[0], left[1:]
        for size in sorted(set(open_sizes)):
            remaining = list(open_sizes)
            remaining.remove(size)
            for mates in combinations(rest, size - 1):
                tried += 1
                if tried > budget:
                    return False
                table = (anchor, *mates)
                others = tuple(p for p in rest if p not in mates)
                added = pairs_met(table, met)
                if not search(others, tuple(remaining), cost + added, [*seated, table]):
                    return False
        return True

    if sum(sizes) != len(players):
        raise ValueError(f"{len(players)} players for tables of {sum(sizes)} seats")
    if not search(tuple(players), tuple(sizes), 0, []):
        return None
    return best[0]


def _in_size_order(tables: Sequence[tuple[str, ...]], sizes: Sequence[int]) -> Tables:
    """``tables`` reordered to match ``sizes`` (4-tables first, as every draw seats)."""
    pool = list(tables)
    out = []
    for size in sizes:
        table = next(t for t in pool if len(t) == size)
        pool.remove(table)
        out.append(table)
    return tuple(out)


def least_repeats(
    players: Sequence[str],
    sizes: Sequence[int],
    met: Mapping[str, Set[str]],
    rounds: Iterable[Iterable[Sequence[str]]] = (),
) -> int:
    """A proven floor of repeated pairs for any seating of ``players`` at tables of
    ``sizes``: the exact fewest on a field of up to :data:`EXACT_PLAYERS`, else
    :func:`repeats_floor`."""
    if len(players) <= EXACT_PLAYERS:
        exact = fewest_repeats(players, sizes, met)
        if exact is not None:
            return exact[0]
    return repeats_floor(players, sizes, met, rounds)


def repeats_floor(
    players: Sequence[str],
    sizes: Sequence[int],
    met: Mapping[str, Set[str]],
    rounds: Iterable[Iterable[Sequence[str]]] = (),
) -> int:
    """A number of repeated pairs no seating of ``players`` at tables of ``sizes`` goes
    below: the larger of what each player's unmet others allow and what spreading each
    earlier round's tables (``rounds``) over the tables allows."""
    present = set(players)
    smallest = min(sizes) if sizes else 0
    forced = sum(
        max(0, smallest - 1 - (len(present) - 1 - len(met.get(p, set()) & present)))
        for p in players
    )
    by_player = (forced + 1) // 2
    by_round = max(
        (sum(_spread(len(present.intersection(t)), len(sizes)) for t in tables)
         for tables in rounds),
        default=0,
    )
    return max(by_player, by_round)


def _spread(count: int, tables: int) -> int:
    """The fewest pairs among ``count`` players who all met, over ``tables`` tables."""
    if tables < 1:
        return comb(count, 2)
    each, extra = divmod(count, tables)
    return extra * comb(each + 1, 2) + (tables - extra) * comb(each, 2)

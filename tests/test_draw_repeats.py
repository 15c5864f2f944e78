"""Repeated pairs: the draw that avoids them is checked against an exact count on small
fields, and says they cannot be avoided only when that is proven.

The exact count here is a plain enumeration of every seating (tables in order, no
shortcut), independent of the kit's own search; fields stay at 12 players or fewer so
it takes a fraction of a second each.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations
from pathlib import Path

import pytest
from test_cli_support import checked_in
from test_cli_support import play_round as play_round_cli
from test_tournament_support import make_players, play_round

from hub.tournament import EventState, check_in_all, draw_avoiding_repeats, met_pairs, preset
from hub.tournament.repeats import fewest_repeats, pairs_met, repeats_floor
from hub.tournament.seating import table_sizes

Met = dict[str, set[str]]


def seatings(players: Sequence[str], sizes: Sequence[int]) -> Iterator[list[tuple[str, ...]]]:
    """Every way to seat ``players`` at tables of ``sizes`` (tables in order)."""
    if not sizes:
        yield []
        return
    for table in combinations(players, sizes[0]):
        rest = [p for p in players if p not in table]
        for others in seatings(rest, sizes[1:]):
            yield [table, *others]


def brute_fewest(players: Sequence[str], sizes: Sequence[int], met: Met) -> int:
    cost: dict[tuple[str, ...], int] = {}
    best = None
    for seated in seatings(players, sizes):
        total = 0
        for table in seated:
            if table not in cost:
                cost[table] = pairs_met(table, met)
            total += cost[table]
        best = total if best is None else min(best, total)
    assert best is not None
    return best


def history(players: Sequence[str], rounds: int, rng: random.Random) -> list[list[list[str]]]:
    """``rounds`` earlier random draws of ``players``."""
    out = []
    for _ in range(rounds):
        pool = list(players)
        rng.shuffle(pool)
        sizes = table_sizes(len(pool))
        cut, start = [], 0
        for size in sizes:
            cut.append(pool[start : start + size])
            start += size
        out.append(cut)
    return out


CASES = [(7, 2, 1), (8, 1, 1), (8, 3, 2), (9, 2, 1), (10, 1, 2), (10, 3, 1), (11, 2, 2),
         (11, 3, 1), (12, 1, 1), (12, 3, 2)]
"""(players, earlier rounds, seed): every count a small field has up to 12, fresh and
crowded histories."""


@pytest.mark.parametrize(("count", "rounds", "seed"), CASES)
def test_the_draw_has_the_fewest_repeated_pairs_on_small_fields(
    count: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed * 100 + count)
    players = [f"p{i:02d}" for i in range(1, count + 1)]
    earlier = history(players, rounds, rng)
    met: Met = met_pairs(t for tables in earlier for t in tables)
    sizes = table_sizes(count)
    fewest = brute_fewest(players, sizes, met)
    drawn = draw_avoiding_repeats(players, met, random.Random(seed), seed=seed)
    assert drawn.repeats == fewest
    assert drawn.floor == fewest  # proven: said to be unavoidable only when it is
    assert repeats_floor(players, sizes, met, earlier) <= fewest
    exact = fewest_repeats(players, sizes, met)
    assert exact is not None and exact[0] == fewest


def test_a_larger_field_reports_a_lower_bound_that_holds() -> None:
    """24 players after three rounds: beyond exact search, the draw reports a floor no
    seating goes below (every player has met at most 9 of 23, so it is 0 here), and the
    event's draw records it."""
    players = make_players(24)
    state = EventState.replay(preset("school"), check_in_all(players))
    rng = random.Random(5)
    for seed in (1, 2, 3):
        state = play_round(state, seed, rng)
    seated = state.draw_next(4)
    assert seated.floor == 0 and seated.repeats >= 0
    met = met_pairs(t.players for s in state.stages_played for t in state.seating(s))
    ids = [p.id for p in players]
    assert fewest_repeats(ids, table_sizes(24), met, budget=1_000) is None  # too big


def test_a_field_whose_repeats_cannot_be_avoided_says_so() -> None:
    """Six players after a round at tables of 3: two tables of 3 again must seat at
    least two old table-mates together (three players of one table over two tables)."""
    earlier = [[["a", "b", "c"], ["d", "e", "f"]]]
    met = met_pairs(t for tables in earlier for t in tables)
    players = ["a", "b", "c", "d", "e", "f"]
    assert repeats_floor(players, (3, 3), met, earlier) == 2 == brute_fewest(players, (3, 3), met)
    drawn = draw_avoiding_repeats(players, met, random.Random(1), seed=1)
    assert drawn.repeats == drawn.floor == 2


def test_the_championship_keeps_earlier_table_mates_apart() -> None:
    """002 with 17 players: the second and third eliminations avoid repeated pairs as
    the school contest does (a random draw still: the lot decides among the seatings
    with the fewest)."""
    players = make_players(17)
    state = EventState.replay(preset("championship"), check_in_all(players))
    rng = random.Random(17)
    state = play_round(state, 1, rng)
    for seed in (2, 3):
        seated = state.draw_next(seed)
        assert seated.floor is not None and seated.repeats == seated.floor
        state = play_round(state, seed, rng)
    elimination_2 = state.seating("elimination-2")
    met = met_pairs(t.players for t in state.seating("elimination-1"))
    assert sum(pairs_met(t.players, met) for t in elimination_2) == 0


def test_combinations_are_complete() -> None:
    """The enumeration itself: 6 players at two tables of 3 — 20 ordered seatings."""
    assert sum(1 for _ in seatings(list("abcdef"), (3, 3))) == 20
    assert len({frozenset(map(frozenset, s)) for s in seatings(list("abcdef"), (3, 3))}) == 10


def test_the_draw_says_its_repeats_cannot_be_avoided_only_when_proven(tmp_path: Path) -> None:
    """Six pupils after a round at two tables of 3: the second draw must seat two pairs
    again, and says that no draw has fewer."""
    c = checked_in(tmp_path, "school", 6)
    c.ok("round", "draw", "--seed", "1")
    c.ok("round", "start")
    play_round_cli(c, random.Random(6))
    c.ok("round", "close")
    said = " ".join(c.ok("round", "draw", "--seed", "2").split())
    assert "repeated pairs: 2 (no draw of these players has fewer)" in said

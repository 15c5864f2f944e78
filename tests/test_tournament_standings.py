"""Standings (RULES.md §3.5)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from hub.tournament import compute_standings
from hub.tournament.standings import lot_keys, strict_order


def test_order_big_then_small_with_shared_places() -> None:
    games = [
        {"a": (1, 30), "b": (0, -10), "c": (0, -20)},
        {"a": (0, -5), "b": (1, 15), "c": (0, -10)},
        {"d": (1, 10), "e": (0, -10), "f": (0, 0)},
    ]
    standings = compute_standings(games, participants=["g"])
    assert [(r.place, r.player_id, r.big, r.small, r.games) for r in standings.rows] == [
        (1, "a", 1, 25, 2),
        (2, "d", 1, 10, 1),
        (3, "b", 1, 5, 2),
        (4, "f", 0, 0, 1),
        (4, "g", 0, 0, 0),
        (6, "e", 0, -10, 1),
        (7, "c", 0, -30, 2),
    ]
    assert standings.place_of("g") == 4


scores = st.tuples(st.integers(0, 2), st.integers(-30, 30))
game_lists = st.lists(
    st.dictionaries(st.sampled_from("abcdefgh"), scores, min_size=3, max_size=4), max_size=12
)


@given(game_lists, st.randoms())
def test_input_order_never_decides(
    games: list[dict[str, tuple[int, int]]], rnd: random.Random
) -> None:
    shuffled = [dict(sorted(g.items(), key=lambda _: rnd.random())) for g in games]
    rnd.shuffle(shuffled)
    assert compute_standings(games) == compute_standings(shuffled)


@given(game_lists)
def test_places_are_competition_ranking(games: list[dict[str, tuple[int, int]]]) -> None:
    rows = compute_standings(games).rows
    for i, row in enumerate(rows):
        better = sum(1 for r in rows if (r.big, r.small) > (row.big, row.small))
        assert row.place == better + 1
        if i:
            assert (rows[i - 1].big, rows[i - 1].small) >= (row.big, row.small)


def test_strict_order_breaks_only_real_ties_by_lot() -> None:
    games = [{"a": (1, 9), "b": (0, 0), "c": (0, 0), "d": (0, -9)}]
    standings = compute_standings(games)
    orders = {tuple(strict_order(standings, lot_keys("abcd", random.Random(s)))) for s in range(40)}
    assert orders == {("a", "b", "c", "d"), ("a", "c", "b", "d")}

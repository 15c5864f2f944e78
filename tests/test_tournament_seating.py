"""Seating methods against hand-worked examples (RULES.md §4)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hub.tournament import (
    PlayerCountError,
    Seating,
    SeatingMethod,
    TablePlacing,
    by_standings,
    by_table_placement,
    league_seeded,
    random_draw,
    seeded_snake,
    table_sizes,
    three_tables_needed,
)
from hub.tournament.errors import DuplicatePlayerError

IDS = [f"p{i}" for i in range(1, 41)]


def test_three_tables_formula() -> None:
    assert [three_tables_needed(n) for n in range(3, 13)] == [1, 0, 3, 2, 1, 0, 3, 2, 1, 0]


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (3, (3,)),
        (4, (4,)),
        (6, (3, 3)),
        (7, (4, 3)),
        (9, (3, 3, 3)),
        (10, (4, 3, 3)),
        (13, (4, 3, 3, 3)),
        (16, (4, 4, 4, 4)),
        (23, (4, 4, 4, 4, 4, 3)),
    ],
)
def test_balanced_sizes_put_three_tables_last(n: int, sizes: tuple[int, ...]) -> None:
    assert table_sizes(n) == sizes


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_impossible_counts_name_the_count(n: int) -> None:
    with pytest.raises(PlayerCountError, match=rf"\b{n} players cannot be split"):
        random_draw(IDS[:n], random.Random(1), seed=1)


def test_fixed_table_count() -> None:
    assert table_sizes(13, tables=4) == (4, 3, 3, 3)
    assert table_sizes(27, tables=8) == (4, 4, 4, 3, 3, 3, 3, 3)
    with pytest.raises(PlayerCountError, match="11 players cannot fill 4 tables"):
        table_sizes(11, tables=4)


@given(st.integers(min_value=3, max_value=200).filter(lambda n: n != 5), st.integers(0, 2**32))
def test_random_draw_is_a_balanced_partition(n: int, seed: int) -> None:
    seating = random_draw([f"x{i}" for i in range(n)], random.Random(seed), seed=seed)
    assert sorted(seating.player_ids()) == sorted(f"x{i}" for i in range(n))
    sizes = [len(t) for t in seating.tables]
    assert sizes.count(3) == three_tables_needed(n)
    assert sizes == sorted(sizes, reverse=True)
    assert seating.seed == seed
    assert seating.method is SeatingMethod.RANDOM
    again = random_draw([f"x{i}" for i in range(n)], random.Random(seed), seed=seed)
    assert again == seating


def test_duplicate_player_rejected() -> None:
    with pytest.raises(DuplicatePlayerError, match="'p1' appears twice"):
        random_draw(["p1", "p2", "p1", "p3"], random.Random(0))


def test_by_standings_fills_in_order_with_three_tables_at_the_end() -> None:
    seating = by_standings(IDS[:10])
    assert seating.tables == (
        ("p1", "p2", "p3", "p4"),
        ("p5", "p6", "p7"),
        ("p8", "p9", "p10"),
    )
    assert seating.codes()["p1"] == "1A"
    assert seating.codes()["p7"] == "2C"
    assert seating.codes()["p10"] == "3C"


def test_snake_eight_and_six() -> None:
    assert seeded_snake(IDS[:8]).tables == (
        ("p1", "p3", "p5", "p7"),
        ("p2", "p4", "p6", "p8"),
    )
    assert seeded_snake(IDS[:6]).tables == (("p1", "p3", "p5"), ("p2", "p4", "p6"))
    # generalised: 7 qualifiers -> the 4-table first
    assert seeded_snake(IDS[:7]).tables == (("p1", "p3", "p5", "p7"), ("p2", "p4", "p6"))
    assert seeded_snake(IDS[:12]).tables[0] == ("p1", "p4", "p7", "p10")


def _placings(tables: list[list[str]]) -> list[TablePlacing]:
    """Seat order is the table's finishing order; SP decreases with table number."""
    out = []
    for number, table in enumerate(tables, start=1):
        for place, pid in enumerate(table, start=1):
            out.append(TablePlacing(pid, number, place, 4 - place, -10 * place - number))
    return out


def test_by_table_placement_full_tables() -> None:
    tables = [[f"t{t}s{s}" for s in range(1, 5)] for t in range(1, 5)]
    seating = by_table_placement(_placings(tables), random.Random(0), seed=0)
    assert seating.tables == tuple(
        tuple(f"t{t}s{s}" for t in range(1, 5)) for s in range(1, 5)
    )  # winners | seconds | thirds | fourths


def test_by_table_placement_uneven_counts() -> None:
    # 13 players at 4, 3, 3, 3: the 4 winners, the 3 best seconds, last second + 2 thirds ...
    tables = [[f"t{t}s{s}" for s in range(1, 5 if t == 1 else 4)] for t in range(1, 5)]
    seating = by_table_placement(_placings(tables), random.Random(0))
    assert seating.tables == (
        ("t1s1", "t2s1", "t3s1", "t4s1"),
        ("t1s2", "t2s2", "t3s2"),
        ("t4s2", "t1s3", "t2s3"),
        ("t3s3", "t4s3", "t1s4"),
    )


def test_by_table_placement_ties_by_lot_are_reproducible() -> None:
    level = [TablePlacing(f"w{t}", t, 1, 2, 0) for t in range(1, 5)]
    a = by_table_placement(level, random.Random(7), seed=7)
    b = by_table_placement(level, random.Random(7), seed=7)
    assert a == b
    assert sorted(a.tables[0]) == ["w1", "w2", "w3", "w4"]


def test_league_seeded_top_four_at_different_tables() -> None:
    seeds = ["p5", "p9", "p13", "p2"]
    for seed in range(30):
        seating = league_seeded(IDS[:16], seeds, random.Random(seed), seed=seed, tables=4)
        assert [seating.table_of(s) for s in seeds] == [1, 2, 3, 4]
        assert [t[0] for t in seating.tables] == seeds  # seed in seat A
        assert sorted(seating.player_ids()) == sorted(IDS[:16])
    eight = ["p5", "p7", "p1", "p2"]
    two = league_seeded(IDS[:8], eight, random.Random(1), tables=2)
    assert [two.table_of(s) for s in eight] == [1, 2, 1, 2]
    # seeds not present are ignored
    absent = league_seeded(IDS[:8], ["p40", "p3"], random.Random(1), tables=2)
    assert absent.tables[0][0] == "p3"


def test_codes_and_lookup() -> None:
    seating = Seating((("a", "b", "c"), ("d", "e", "f", "g")), SeatingMethod.BY_STANDINGS)
    assert seating.codes(first_table=1) == {
        "a": "1A",
        "b": "1B",
        "c": "1C",
        "d": "2A",
        "e": "2B",
        "f": "2C",
        "g": "2D",
    }
    assert seating.table_of("f") == 2

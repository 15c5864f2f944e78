"""Repeat-avoiding random draw."""

from __future__ import annotations

import random
import statistics
import time

from hypothesis import given, settings
from hypothesis import strategies as st
from test_tournament_support import make_players, play_event, seated_rounds

from hub.tournament import (
    Everyone,
    Fact,
    Group,
    SeatingMethod,
    Stage,
    TournamentFormat,
    draw_avoiding_repeats,
    met_pairs,
    preset,
    random_draw,
)
from hub.tournament.seating import count_repeats


def _history(n: int, rounds: int, seed: int) -> dict[str, set[str]]:
    ids = [f"x{i}" for i in range(n)]
    met: dict[str, set[str]] = {}
    rng = random.Random(seed)
    for _ in range(rounds):
        met_pairs(random_draw(ids, rng).tables, met)
    return met


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=6, max_value=60).filter(lambda n: n != 5),
    st.integers(min_value=0, max_value=6),
    st.integers(0, 2**32),
)
def test_never_worse_than_the_plain_shuffle_of_the_same_seed(
    n: int, rounds: int, seed: int
) -> None:
    ids = [f"x{i}" for i in range(n)]
    met = _history(n, rounds, seed + 1)
    plain = random_draw(ids, random.Random(seed), met=met)
    smart = draw_avoiding_repeats(ids, met, random.Random(seed), seed=seed)
    assert smart.repeats <= plain.repeats
    assert smart.repeats == count_repeats(smart.tables, met)
    assert sorted(smart.player_ids()) == sorted(ids)
    assert [len(t) for t in smart.tables] == [len(t) for t in plain.tables]
    assert smart == draw_avoiding_repeats(ids, met, random.Random(seed), seed=seed)


def test_two_hundred_players_in_round_six_is_fast() -> None:
    ids = [f"x{i}" for i in range(200)]
    met = _history(200, 5, 3)
    plain = random_draw(ids, random.Random(11), met=met)
    start = time.perf_counter()
    smart = draw_avoiding_repeats(ids, met, random.Random(11), seed=11)
    elapsed = time.perf_counter() - start
    assert elapsed < 0.5, elapsed
    assert plain.repeats > 10
    assert smart.repeats == 0


def _plain_school() -> TournamentFormat:
    school = preset("school")
    stages = tuple(
        Stage(
            s.name,
            s.games,
            s.ruleset,
            (Group("all", Everyone(), SeatingMethod.RANDOM),),
            counts=s.counts,
        )
        for s in school.stages
    )
    return TournamentFormat("plain-school", stages, school.min_players, school.max_players)


def _repeats(log: list[Fact]) -> int:
    total = 0
    met: dict[str, set[str]] = {}
    for seated in seated_rounds(log):
        tables = [t.players for t in seated.tables]
        total += count_repeats(tables, met)
        assert seated.repeats == count_repeats(tables, met)
        met_pairs(tables, met)
    return total


def test_school_contest_of_24_has_fewer_repeats_than_plain_shuffles() -> None:
    players = make_players(24)
    smart_counts, plain_counts = [], []
    for seed in range(25):
        _, smart_log = play_event(preset("school"), players, seed)
        _, plain_log = play_event(_plain_school(), players, seed)
        smart, plain = _repeats(smart_log), _repeats(plain_log)
        assert smart <= plain, (seed, smart, plain)
        smart_counts.append(smart)
        plain_counts.append(plain)
    assert statistics.mean(smart_counts) < statistics.mean(plain_counts)
    assert max(smart_counts) == 0  # 24 players, 4 rounds: always solvable

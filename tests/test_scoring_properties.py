"""Properties of scoring that hold for every valid table."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tablekit.core.rulesets import BUILTIN, BigPointScheme, Ruleset
from tablekit.core.scoring import (
    MAX_TILE_VALUE,
    GameEnding,
    GameReport,
    Opening,
    RackReport,
    rank_by_points,
    score_game,
)
from tablekit.core.seats import seats_for

rulesets = st.one_of(
    st.sampled_from(list(BUILTIN.values())),
    st.builds(
        Ruleset,
        name=st.just("random"),
        title=st.just("random"),
        joker_penalty=st.integers(0, 300),
        not_opened_penalty=st.integers(0, 300),
        could_have_opened_penalty=st.integers(0, 400),
        big_points=st.sampled_from(BigPointScheme),
    ),
)


@st.composite
def reports(draw: st.DrawFn, ending: GameEnding | None = None) -> GameReport:
    seats = seats_for(draw(st.sampled_from([3, 4])))
    if ending is None:
        ending = draw(st.sampled_from(GameEnding))
    # Hand out at most two jokers among the seats.
    joker_seats = draw(st.lists(st.sampled_from(seats), max_size=2))
    out = draw(st.sampled_from(seats)) if ending == GameEnding.WENT_OUT else None
    racks = []
    for seat in seats:
        if seat == out:
            racks.append(RackReport(seat))
            continue
        jokers = joker_seats.count(seat)
        racks.append(
            RackReport(
                seat,
                tiles=draw(st.integers(0 if jokers else 1, MAX_TILE_VALUE)),
                jokers=jokers,
                opening=draw(st.sampled_from(Opening)),
            )
        )
    order = draw(st.permutations(racks))
    return GameReport(game=draw(st.integers(1, 99)), ending=ending, racks=tuple(order))


@given(reports(GameEnding.WENT_OUT), rulesets)
def test_someone_out_is_zero_sum_with_one_winner(report: GameReport, ruleset: Ruleset) -> None:
    score = score_game(report, ruleset)
    assert sum(s.small for s in score.scores) == 0
    (winner,) = [s for s in score.scores if s.winner]
    assert winner.rack_value == 0
    assert winner.place == 1
    assert all(s.small <= 0 for s in score.scores if not s.winner)


@given(reports(GameEnding.NOBODY_OUT), rulesets)
def test_nobody_out_pays_each_tied_winner_the_losers_differences(
    report: GameReport, ruleset: Ruleset
) -> None:
    score = score_game(report, ruleset)
    winners = [s for s in score.scores if s.winner]
    losers = [s for s in score.scores if not s.winner]
    lowest = min(s.rack_value for s in score.scores)
    assert winners
    assert all(s.rack_value == lowest for s in winners)
    pot = sum(s.rack_value - lowest for s in losers)
    assert all(s.small == pot for s in winners)
    assert all(s.small == lowest - s.rack_value < 0 for s in losers)
    assert sum(s.small for s in score.scores) == (len(winners) - 1) * pot


@given(reports(), rulesets)
def test_every_game_awards_big_points(report: GameReport, ruleset: Ruleset) -> None:
    score = score_game(report, ruleset)
    assert any(s.big > 0 for s in score.scores)
    assert all(s.big > 0 for s in score.scores if s.winner)
    if ruleset.big_points == BigPointScheme.WIN_ONLY:
        assert all(s.big == int(s.winner) for s in score.scores)


@given(reports(), rulesets)
def test_more_small_points_never_fewer_big_points_or_a_worse_place(
    report: GameReport, ruleset: Ruleset
) -> None:
    scores = score_game(report, ruleset).scores
    for x, y in itertools.permutations(scores, 2):
        if x.small > y.small:
            assert x.big >= y.big
            assert x.place < y.place
        if x.small == y.small and x.winner == y.winner:
            assert (x.big, x.place) == (y.big, y.place)


@given(reports(), rulesets)
def test_places_are_competition_ranking(report: GameReport, ruleset: Ruleset) -> None:
    scores = score_game(report, ruleset).scores
    for s in scores:
        # place = 1 + number of players strictly ahead
        ahead = [o for o in scores if (o.winner, o.small) > (s.winner, s.small)]
        assert s.place == 1 + len(ahead)


@settings(max_examples=200)
@given(
    st.dictionaries(
        st.text(min_size=1, max_size=3),
        st.tuples(st.integers(0, 6), st.integers(-50, 50)),
        max_size=12,
    ),
    st.randoms(use_true_random=False),
)
def test_rank_by_points_ignores_input_order(
    totals: dict[str, tuple[int, int]], rnd: random.Random
) -> None:
    items = list(totals.items())
    rnd.shuffle(items)
    ranked = rank_by_points(dict(items))
    assert ranked == rank_by_points(totals)
    assert sorted(k for _, k in ranked) == sorted(totals)
    for (p1, k1), (p2, k2) in itertools.pairwise(ranked):
        assert totals[k1] >= totals[k2]
        assert (p1 == p2) == (totals[k1] == totals[k2])
        if p1 == p2:
            assert k1 < k2
    for index, (place, key) in enumerate(ranked):
        assert place == 1 + sum(1 for v in totals.values() if v > totals[key])
        assert place <= index + 1

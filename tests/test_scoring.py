"""Scoring one game: hand-computed cases for every rule and every named ruleset."""

from __future__ import annotations

import msgspec
import pytest

from tablekit.core.rulesets import BigPointScheme, Ruleset, get_ruleset
from tablekit.core.scoring import (
    GameEnding,
    GameReport,
    GameScore,
    Opening,
    RackReport,
    rack_value,
    rank_by_points,
    score_game,
)
from tablekit.core.seats import Seat

A, B, C, D = Seat.A, Seat.B, Seat.C, Seat.D
OUT = GameEnding.WENT_OUT
NOBODY = GameEnding.NOBODY_OUT
NOT = Opening.NOT_OPENED
COULD = Opening.COULD_HAVE_OPENED
WAIVED = Opening.WAIVED


def rack(seat: Seat, tiles: int = 0, jokers: int = 0, opening: Opening = Opening.OPENED):
    return RackReport(seat=seat, tiles=tiles, jokers=jokers, opening=opening)


# Each case: ruleset, ending, racks, and per seat (rack_value, small, big, place, winner).
CASES = {
    # 000, A went out. C: 10 + one joker at 50 = 60. Pot 23 + 60 + 5 = 88.
    # Places by SP: A +88, D -5, B -23, C -60. win_only: only A gets 1.
    "000 went out, joker 50": (
        "000",
        OUT,
        [rack(A), rack(B, 23), rack(C, 10, 1), rack(D, 5)],
        {A: (0, 88, 1, 1, True), B: (23, -23, 0, 3, False), C: (60, -60, 0, 4, False),
         D: (5, -5, 0, 2, False)},
    ),
    # 003, same racks, joker 100: C = 110, pot 23 + 110 + 5 = 138.
    "003 went out, joker 100": (
        "003",
        OUT,
        [rack(A), rack(B, 23), rack(C, 10, 1), rack(D, 5)],
        {A: (0, 138, 1, 1, True), B: (23, -23, 0, 3, False), C: (110, -110, 0, 4, False),
         D: (5, -5, 0, 2, False)},
    ),
    # 001, 3-table, B went out; A never opened: flat 100 replaces A's 40 on the rack.
    # Pot 100 + 17 = 117.
    "001 3-table, not opened flat 100": (
        "001",
        OUT,
        [rack(A, 40, opening=NOT), rack(B), rack(C, 17)],
        {A: (100, -100, 0, 3, False), B: (0, 117, 1, 1, True), C: (17, -17, 0, 2, False)},
    ),
    # 004: D could have opened → 200 (its 35 ignored); C waived → 100, its 60 and its
    # joker ignored (flat penalty). Pot 12 + 100 + 200 = 312.
    "004 could-have-opened 200 and waived 100": (
        "004",
        OUT,
        [rack(A), rack(B, 12), rack(C, 60, 1, WAIVED), rack(D, 35, opening=COULD)],
        {A: (0, 312, 1, 1, True), B: (12, -12, 0, 2, False), C: (100, -100, 0, 3, False),
         D: (200, -200, 0, 4, False)},
    ),
    # 003: a never-opened player counts 100 even with a joker (joker_penalty 100 is not
    # added on top). B out; A 100, C 2, D 7 + 100 = 107. Pot 209.
    "003 not opened with joker": (
        "003",
        OUT,
        [rack(A, 55, 1, NOT), rack(B), rack(C, 2), rack(D, 7, 1)],
        {A: (100, -100, 0, 3, False), B: (0, 209, 1, 1, True), C: (2, -2, 0, 2, False),
         D: (107, -107, 0, 4, False)},
    ),
    # 000 nobody out, no tie, 3-table: lowest is C 12. A 30 → -18, B joker 50 → -38,
    # C + (18 + 38) = +56.
    "000 nobody out, 3-table": (
        "000",
        NOBODY,
        [rack(A, 30), rack(B, 0, 1), rack(C, 12)],
        {A: (30, -18, 0, 2, False), B: (50, -38, 0, 3, False), C: (12, 56, 1, 1, True)},
    ),
    # 000 nobody out, B and D tie at 8: both win 1 BP. Losers: A 15 → -7, C 20 → -12.
    # Each winner + (7 + 12) = +19; SP sum 19, not zero (§3.2 ties).
    "000 nobody out, tie for lowest": (
        "000",
        NOBODY,
        [rack(A, 15), rack(B, 8), rack(C, 20), rack(D, 8)],
        {A: (15, -7, 0, 3, False), B: (8, 19, 1, 1, True), C: (20, -12, 0, 4, False),
         D: (8, 19, 1, 1, True)},
    ),
    # 004 nobody out, 3-table, all at 10: everyone is a winner, pot 0.
    "004 nobody out, all tied": (
        "004",
        NOBODY,
        [rack(A, 10), rack(B, 10), rack(C, 10)],
        {A: (10, 0, 1, 1, True), B: (10, 0, 1, 1, True), C: (10, 0, 1, 1, True)},
    ),
    # 003 nobody out: A only a joker = 100, B 45 lowest, C 60, D 101.
    # A -55, C -15, D -56; B + (55 + 15 + 56) = +126.
    "003 nobody out, joker 100": (
        "003",
        NOBODY,
        [rack(A, 0, 1), rack(B, 45), rack(C, 60), rack(D, 101)],
        {A: (100, -55, 0, 3, False), B: (45, 126, 1, 1, True), C: (60, -15, 0, 2, False),
         D: (101, -56, 0, 4, False)},
    ),
    # 001 nobody out with an empty rack (went out during the last lap): A is the sole
    # winner as if WENT_OUT. D: 1 + 2 jokers × 50 = 101. Pot 4 + 9 + 101 = 114.
    "001 nobody out but a rack is empty": (
        "001",
        NOBODY,
        [rack(A), rack(B, 4), rack(C, 9), rack(D, 1, 2)],
        {A: (0, 114, 1, 1, True), B: (4, -4, 0, 2, False), C: (9, -9, 0, 3, False),
         D: (101, -101, 0, 4, False)},
    ),
    # 002's own example: two players tied at -9 for 2nd at a 4-table both get 2 BP.
    # A out; pot 9 + 9 + 20 = 38. Places 1, 2, 2, 4 → 4, 2, 2, 0.
    "002 two tied at -9 for 2nd (went out)": (
        "002",
        OUT,
        [rack(A), rack(B, 9), rack(C, 9), rack(D, 20)],
        {A: (0, 38, 4, 1, True), B: (9, -9, 2, 2, False), C: (9, -9, 2, 2, False),
         D: (20, -20, 0, 4, False)},
    ),
    # The same example when nobody went out: lowest A 5; B 14 → -9, C 14 → -9,
    # D 20 → -15; A +33. BP 4, 2, 2, 0.
    "002 two tied at -9 for 2nd (nobody out)": (
        "002",
        NOBODY,
        [rack(A, 5), rack(B, 14), rack(C, 14), rack(D, 20)],
        {A: (5, 33, 4, 1, True), B: (14, -9, 2, 2, False), C: (14, -9, 2, 2, False),
         D: (20, -15, 0, 4, False)},
    ),
    # 002 tie for 3rd/4th: A out, B 5, C and D 30. Places 1, 2, 3, 3 → 4, 2, 1, 1.
    "002 tie for 3rd": (
        "002",
        OUT,
        [rack(A), rack(B, 5), rack(C, 30), rack(D, 30)],
        {A: (0, 65, 4, 1, True), B: (5, -5, 2, 2, False), C: (30, -30, 1, 3, False),
         D: (30, -30, 1, 3, False)},
    ),
    # 002 tied winners: A and B at 7, C 10 → -3, D 12 → -5; each winner +8.
    # Places 1, 1, 3, 4 → 4, 4, 1, 0.
    "002 tied winners": (
        "002",
        NOBODY,
        [rack(A, 7), rack(B, 7), rack(C, 10), rack(D, 12)],
        {A: (7, 8, 4, 1, True), B: (7, 8, 4, 1, True), C: (10, -3, 1, 3, False),
         D: (12, -5, 0, 4, False)},
    ),
    # 002 3-table: C out, A 10, B 25. Places 1, 2, 3 → 4, 2, 0.
    "002 3-table": (
        "002",
        OUT,
        [rack(A, 10), rack(B, 25), rack(C)],
        {A: (10, -10, 2, 2, False), B: (25, -25, 0, 3, False), C: (0, 35, 4, 1, True)},
    ),
    # 002 3-table, the two losers tie: both 2nd → 2 BP each.
    "002 3-table tie for 2nd": (
        "002",
        OUT,
        [rack(A, 10), rack(B, 10), rack(C)],
        {A: (10, -10, 2, 2, False), B: (10, -10, 2, 2, False), C: (0, 20, 4, 1, True)},
    ),
    # 002 3-table: A 3 + two jokers at 50 = 103; C could have opened = 200. B +303.
    "002 3-table jokers and 200": (
        "002",
        OUT,
        [rack(A, 3, 2), rack(B), rack(C, 50, opening=COULD)],
        {A: (103, -103, 2, 2, False), B: (0, 303, 4, 1, True), C: (200, -200, 0, 3, False)},
    ),
    # 002 nobody out: a never-opened 100 can be the lowest. Lowest C 90:
    # A 100 → -10, B 120 → -30, C +40. BP 4 (C), 2 (A), 0 (B).
    "002 nobody out, not-opened is not lowest": (
        "002",
        NOBODY,
        [rack(A, 80, opening=NOT), rack(B, 120), rack(C, 90)],
        {A: (100, -10, 2, 2, False), B: (120, -30, 0, 3, False), C: (90, 40, 4, 1, True)},
    ),
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_hand_computed(case: str) -> None:
    name, ending, racks, expected = CASES[case]
    report = GameReport(game=3, ending=ending, racks=tuple(racks))
    score = score_game(report, get_ruleset(name))
    assert score.game == 3
    assert score.ending == ending
    got = {s.seat: (s.rack_value, s.small, s.big, s.place, s.winner) for s in score.scores}
    assert got == expected
    assert [s.seat for s in score.scores] == sorted(expected)


def test_every_named_ruleset_is_covered() -> None:
    assert {case[0] for case in CASES.values()} == {"000", "001", "002", "003", "004"}


def test_racks_in_any_order_are_scored_in_seat_order() -> None:
    report = GameReport(game=1, ending=OUT, racks=(rack(C, 4), rack(A), rack(B, 6)))
    score = score_game(report, get_ruleset("000"))
    assert [s.seat for s in score.scores] == [A, B, C]
    assert score.for_seat(A).small == 10
    assert score.winners == (A,)
    with pytest.raises(KeyError):
        score.for_seat(D)


def test_zero_penalties_keep_the_player_who_went_out_first_alone() -> None:
    # joker_penalty 0 and not_opened_penalty 0: B (one joker) and C (never opened) are
    # worth 0, so everyone has 0 SP. A went out and is still the sole winner and 1st;
    # B and C share 2nd: 4, 2, 2 BP.
    rs = Ruleset(name="free", title="t", joker_penalty=0, not_opened_penalty=0,
                 big_points=BigPointScheme.PLACEMENT)
    report = GameReport(game=1, ending=OUT, racks=(rack(A), rack(B, 0, 1),
                                                  rack(C, 30, opening=NOT)))
    got = [(s.small, s.big, s.place, s.winner) for s in score_game(report, rs).scores]
    assert got == [(0, 4, 1, True), (0, 2, 2, False), (0, 2, 2, False)]


def test_custom_placement_points_are_used() -> None:
    rs = Ruleset(name="x", title="x", big_points=BigPointScheme.PLACEMENT,
                 placement_points_4=(5, 3, 1, 1), placement_points_3=(3, 1, 1))
    four = GameReport(game=1, ending=OUT, racks=(rack(A), rack(B, 1), rack(C, 2), rack(D, 3)))
    assert [s.big for s in score_game(four, rs).scores] == [5, 3, 1, 1]
    three = GameReport(game=1, ending=OUT, racks=(rack(A), rack(B, 1), rack(C, 2)))
    assert [s.big for s in score_game(three, rs).scores] == [3, 1, 1]


def test_rack_value_per_opening() -> None:
    rs = Ruleset(name="x", title="x", joker_penalty=7, not_opened_penalty=11,
                 could_have_opened_penalty=13)
    assert rack_value(rack(A, 20, 2), rs) == 34  # 20 + 2 × 7
    assert rack_value(rack(A, 20, 2, NOT), rs) == 11
    assert rack_value(rack(A, 20, 2, WAIVED), rs) == 11
    assert rack_value(rack(A, 20, 2, COULD), rs) == 13


def test_game_score_travels_as_msgspec_json() -> None:
    report = GameReport(game=2, ending=OUT, racks=(rack(A), rack(B, 9, 1, NOT), rack(C, 3)))
    data = msgspec.json.encode(report)
    assert msgspec.json.decode(data, type=GameReport) == report
    assert b'"opening":"not_opened"' in data
    score = score_game(report, get_ruleset("000"))
    assert msgspec.json.decode(msgspec.json.encode(score), type=GameScore) == score


class TestRankByPoints:
    def test_orders_by_big_then_small(self) -> None:
        totals = {"ala": (2, -10), "bob": (3, -50), "cyd": (2, 40), "dan": (0, 90)}
        assert rank_by_points(totals) == [(1, "bob"), (2, "cyd"), (3, "ala"), (4, "dan")]

    def test_real_ties_share_the_higher_place_in_key_order(self) -> None:
        totals = {"zed": (2, 5), "amy": (2, 5), "kim": (3, 0), "lou": (1, 9), "eve": (2, 5)}
        # kim 1st; amy, eve, zed tied 2nd (listed by key); lou 5th.
        assert rank_by_points(totals) == [
            (1, "kim"), (2, "amy"), (2, "eve"), (2, "zed"), (5, "lou"),
        ]

    def test_empty(self) -> None:
        assert rank_by_points({}) == []

    def test_seat_keys(self) -> None:
        assert rank_by_points({D: (1, 0), A: (1, 0), B: (1, 1)}) == [(1, B), (2, A), (2, D)]

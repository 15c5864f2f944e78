"""Every validation error of a game report, asserted by message."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tablekit.core.rulesets import get_ruleset
from tablekit.core.scoring import (
    MAX_TILE_VALUE,
    EndingError,
    GameEnding,
    GameNumberError,
    GameReport,
    JokerCountError,
    Opening,
    OpeningError,
    RackReport,
    ScoreError,
    SeatError,
    TileValueError,
    score_game,
    validate_racks,
)
from tablekit.core.seats import Seat

A, B, C, D = Seat.A, Seat.B, Seat.C, Seat.D
OUT = GameEnding.WENT_OUT
NOBODY = GameEnding.NOBODY_OUT
RULES = get_ruleset("000")


def report(*racks: RackReport, game: Any = 1, ending: Any = OUT) -> GameReport:
    return GameReport(game=game, ending=ending, racks=racks)


def table(**changes: Any) -> list[RackReport]:
    """A valid 4-table (A went out) with one seat's fields replaced."""
    racks = {A: RackReport(A), B: RackReport(B, 10), C: RackReport(C, 20), D: RackReport(D, 30)}
    for seat_name, fields in changes.items():
        seat = Seat(seat_name)
        racks[seat] = RackReport(seat, **{**_fields(racks[seat]), **fields})
    return list(racks.values())


def _fields(r: RackReport) -> dict[str, Any]:
    return {"tiles": r.tiles, "jokers": r.jokers, "opening": r.opening}


def fails(exc: type[ScoreError], message: str, rep: GameReport) -> ScoreError:
    with pytest.raises(exc, match=f"^{re.escape(message)}$") as info:
        score_game(rep, RULES)
    return info.value


def test_the_valid_base_table_scores() -> None:
    assert score_game(report(*table()), RULES).for_seat(A).small == 60


@pytest.mark.parametrize("tiles", [-3, 729, 10_000, True, 2.5, "7"])
def test_tiles_out_of_range_or_not_int(tiles: Any) -> None:
    err = fails(
        TileValueError,
        f"seat C: tiles must be an integer between 0 and 728, got {tiles!r}",
        report(*table(C={"tiles": tiles})),
    )
    assert (err.seats, err.field) == ((C,), "tiles")


def test_max_tile_value_is_the_whole_set() -> None:
    assert MAX_TILE_VALUE == 2 * 4 * (13 * 14 // 2) == 728
    assert score_game(report(*table(D={"tiles": 728})), RULES).for_seat(D).small == -728


@pytest.mark.parametrize("jokers", [-1, 3, False, 1.0])
def test_jokers_out_of_range_or_not_int(jokers: Any) -> None:
    err = fails(
        JokerCountError,
        f"seat B: jokers must be an integer between 0 and 2, got {jokers!r}",
        report(*table(B={"jokers": jokers})),
    )
    assert err.field == "jokers"


def test_more_than_two_jokers_at_the_table_names_the_seats() -> None:
    err = fails(
        JokerCountError,
        "seats B, D: jokers: a table has only 2 jokers, got 3 in total",
        report(*table(B={"jokers": 2}, D={"jokers": 1})),
    )
    assert err.seats == (B, D)


def test_went_out_with_nobody_at_zero() -> None:
    err = fails(
        EndingError,
        "seats A, B, C, D: tiles: the game ended with a player going out, but no rack is "
        "empty (tiles 0, jokers 0, opened)",
        report(*table(A={"tiles": 4})),
    )
    assert err.field == "tiles"


def test_a_joker_alone_is_not_an_empty_rack() -> None:
    fails(
        EndingError,
        "seats A, B, C, D: tiles: the game ended with a player going out, but no rack is "
        "empty (tiles 0, jokers 0, opened)",
        report(*table(A={"jokers": 1})),
    )


@pytest.mark.parametrize("ending", [OUT, NOBODY])
def test_two_players_at_zero(ending: GameEnding) -> None:
    fails(
        EndingError,
        "seats A, C: tiles: only one player can empty the rack, got 2 empty racks "
        "(tiles 0, jokers 0)",
        report(*table(C={"tiles": 0}), ending=ending),
    )


@pytest.mark.parametrize("opening", [Opening.NOT_OPENED, Opening.COULD_HAVE_OPENED,
                                     Opening.WAIVED])
def test_a_player_who_never_opened_cannot_have_gone_out(opening: Opening) -> None:
    err = fails(
        OpeningError,
        f"seat A: opening is {opening.value}, but an empty rack (tiles 0, jokers 0) means "
        "the player went out, which needs an opened player",
        report(*table(A={"opening": opening})),
    )
    assert (err.seats, err.field) == ((A,), "opening")


def test_unknown_opening() -> None:
    fails(
        OpeningError,
        "seat B: opening must be one of opened, not_opened, could_have_opened, waived, "
        "got 'maybe'",
        report(*table(B={"opening": "maybe"})),
    )


def test_seat_not_at_a_three_player_table() -> None:
    err = fails(
        SeatError,
        "seat D: seat is not at a 3-player table (seats A, B, C)",
        report(RackReport(A), RackReport(B, 5), RackReport(D, 7)),
    )
    assert err.seats == (D,)


def test_duplicated_seat() -> None:
    fails(
        SeatError,
        "seat B: seat appears more than once",
        report(RackReport(A), RackReport(B, 5), RackReport(B, 7)),
    )


def test_unknown_seat_letter() -> None:
    fails(
        SeatError,
        "seat must be one of A, B, C, D, got 'E'",
        report(RackReport(A), RackReport(B, 5), RackReport("E", 7)),  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("count", [0, 1, 2])
def test_too_few_players(count: int) -> None:
    racks = table()[:count]
    names = ", ".join(r.seat for r in racks)
    prefix = "" if not racks else ("seat " if count == 1 else "seats ") + names + ": "
    fails(
        SeatError,
        f"{prefix}racks: a table seats 3 or 4 players, got {count}",
        report(*racks),
    )


def test_too_many_players() -> None:
    fails(
        SeatError,
        "seats A, B, C, D, A: racks: a table seats 3 or 4 players, got 5",
        report(*table(), RackReport(A, 3)),
    )


@pytest.mark.parametrize("game", [0, -1, True, "1"])
def test_game_number(game: Any) -> None:
    err = fails(
        GameNumberError,
        f"game must be an integer of at least 1, got {game!r}",
        report(*table(), game=game),
    )
    assert (err.seats, err.field) == ((), "game")


def test_unknown_ending() -> None:
    fails(
        EndingError,
        "ending must be one of went_out, nobody_out, got 'draw'",
        report(*table(), ending="draw"),
    )


def test_every_error_is_a_value_error() -> None:
    for exc in (GameNumberError, SeatError, TileValueError, JokerCountError, OpeningError,
                EndingError):
        assert issubclass(exc, ScoreError)
    assert issubclass(ScoreError, ValueError)


def test_validate_racks_accepts_part_of_a_table() -> None:
    validate_racks([RackReport(B, 10, 2)])  # no count or went-out checks on a part
    with pytest.raises(JokerCountError, match=r"^seats B, C: jokers: a table has only 2"):
        validate_racks([RackReport(B, 10, 2), RackReport(C, 1, 1)])

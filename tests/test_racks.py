"""The rack notation (tablekit.core.racks): one parser, one formatter, each the other's
inverse, and errors that name the seat and what is wrong."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablekit.core.racks import (
    RackNotationError,
    format_rack,
    format_racks,
    parse_rack,
    parse_racks,
)
from tablekit.core.scoring import Opening, RackReport
from tablekit.core.seats import Seat, seats_for

racks_of_a_table = st.integers(min_value=3, max_value=4).flatmap(
    lambda count: st.tuples(
        *(
            st.builds(
                RackReport,
                seat=st.just(seat),
                tiles=st.integers(min_value=0, max_value=9999),
                jokers=st.integers(min_value=0, max_value=2),
                opening=st.sampled_from(Opening),
            )
            for seat in seats_for(count)
        )
    )
)


@given(racks_of_a_table)
def test_parsing_what_was_formatted_gives_the_racks_back(racks: tuple[RackReport, ...]) -> None:
    assert parse_racks(format_racks(racks), len(racks)) == racks
    values_only = " ".join(format_rack(r) for r in racks)
    assert parse_racks(values_only, len(racks)) == racks


@given(racks_of_a_table)
def test_formatting_what_was_parsed_gives_the_text_back(racks: tuple[RackReport, ...]) -> None:
    text = format_racks(racks)
    assert format_racks(parse_racks(text, len(racks))) == text


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("a=0, b=23 c=12J d=40jcho", "A=0 B=23 C=12j D=40jcho"),
        ("5 jj 9waived", "A=5 B=0jj C=9waived"),
        ("D=85np C=7 B=0 A=3", "A=3 B=0 C=7 D=85np"),
        (" A=0  B=j ,C=1 ", "A=0 B=0j C=1"),
    ],
)
def test_what_the_organizer_types_reads_back_in_one_form(typed: str, canonical: str) -> None:
    racks = parse_racks(typed, canonical.count("="))
    assert format_racks(racks) == canonical


def test_one_seat() -> None:
    assert parse_rack(" 12J ", Seat.B) == RackReport(Seat.B, tiles=12, jokers=1)
    assert parse_rack("85np", Seat.A).opening is Opening.NOT_OPENED
    assert format_rack(RackReport(Seat.C, tiles=0, jokers=2, opening=Opening.WAIVED)) == "0jjwaived"


@pytest.mark.parametrize(
    ("text", "count", "error"),
    [
        ("A=0 B=23 C=12 D=np", 4, "seat D: 'np' needs the tiles left too, e.g. 85np"),
        ("A=0 B=x C=1", 3, "seat B: 'x' is not a rack (tiles, then j per joker"),
        ("A=0 B=jjj C=1", 3, "seat B: 'jjj' is not a rack"),
        ("A=0 B=12345 C=1", 3, "seat B: '12345' is not a rack"),
        ("A=0 23 C=1", 3, "give every seat as SEAT=VALUE, or only the values in seat order"),
        ("A=0 E=1 C=1", 3, "'E' is not a seat (A, B, C or D)"),
        ("A=0 B=1 C=1 D=2", 3, "seat D is not at this table (3 players: A, B, C)"),
        ("A=0 A=1 C=1", 3, "seat A is given twice"),
        ("0 1", 3, "3 players sit at this table (seats A, B, C), got 2 values"),
        ("A=0 C=1", 3, "no value for seat B"),
        ("A=0 B=1", 4, "no value for seats C, D"),
    ],
)
def test_bad_racks_are_refused_naming_what_is_wrong(text: str, count: int, error: str) -> None:
    with pytest.raises(RackNotationError) as err:
        parse_racks(text, count)
    assert error in str(err.value)

"""Registration-list helpers."""

from __future__ import annotations

import random

import pytest

from hub.tournament import (
    DuplicatePlayerError,
    Player,
    by_rating,
    index_players,
)


def test_index_rejects_repeated_ids() -> None:
    players = [Player("a", "Ann"), Player("b", "Bob", club="KS")]
    assert list(index_players(players)) == ["a", "b"]
    with pytest.raises(DuplicatePlayerError, match="player id 'a' registered twice"):
        index_players([*players, Player("a", "Another Ann")])


def test_by_rating_highest_first_unrated_last_ties_by_lot() -> None:
    players = [
        Player("u", "Unrated"),
        Player("x", "X", rating=10.0),
        Player("y", "Y", rating=12.5),
        Player("z", "Z", rating=10.0),
    ]
    orders = {tuple(p.id for p in by_rating(players, random.Random(s))) for s in range(30)}
    assert orders == {("y", "x", "z", "u"), ("y", "z", "x", "u")}

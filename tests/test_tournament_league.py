"""League tournament points and season table (003)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_tournament_support import make_players, play_event

from hub.tournament import (
    Player,
    SeedsDeclared,
    TournamentError,
    award_points,
    preset,
    season_seeds,
    season_table,
    seed_tables,
    seeding_statement,
    tournament_points,
)
from tablekit.shared.i18n import words


def test_points_for_eight_and_sixteen() -> None:
    assert [tournament_points(p, 8) for p in range(1, 9)] == [9, 7, 6, 5, 4, 3, 2, 1]
    assert [tournament_points(p, 16) for p in range(1, 17)] == [17, *range(15, 0, -1)]


def test_points_capped_at_seventeen_only_top_sixteen_score() -> None:
    twenty = [tournament_points(p, 20) for p in range(1, 21)]
    assert twenty == [17, *range(15, 0, -1), 0, 0, 0, 0]
    assert all(tournament_points(p, 32) == 0 for p in range(17, 33))
    assert tournament_points(1, 32) == 17
    with pytest.raises(TournamentError, match="place 9 is not a place among 8"):
        tournament_points(9, 8)


DOCS = Path(__file__).resolve().parents[1] / "docs"


@pytest.mark.parametrize(
    "document",
    ["rules.md", "organizers-guide.md", "pl/przewodnik-organizatora.md", "glossary.md"],
)
def test_every_guide_states_the_points_the_code_gives(document: str) -> None:
    """The rules, both organizer's guides and the glossary state the ruling's formula and
    show it for 8 and for 20 participants exactly as the code counts them."""
    text = " ".join((DOCS / document).read_text(encoding="utf-8").split())
    assert "S + 1 − p" in text and "S = N" in text
    for participants in (8, 20):
        points = ", ".join(str(tournament_points(p, participants))
                           for p in range(1, participants + 1))
        assert points in text, f"{document}: the points of {participants} participants"


def test_shared_place_gets_the_better_places_points() -> None:
    assert award_points({"a": 1, "b": 2, "c": 2, "d": 4}) == {"a": 5, "b": 3, "c": 3, "d": 1}


def test_season_table_ties_by_starts_then_shared() -> None:
    t1 = {"a": 9, "b": 7, "c": 6}
    t2 = {"a": 1, "b": 3, "c": 4}
    t3 = {"b": 0, "d": 4}
    rows = season_table([t1, t2, t3])
    assert [(r.place, r.player_id, r.points, r.starts) for r in rows] == [
        (1, "b", 10, 3),
        (2, "a", 10, 2),
        (2, "c", 10, 2),
        (4, "d", 4, 1),
    ]
    assert season_seeds(rows, {"a", "c", "d"}, k=2) == ("a", "c")


def test_season_table_more_starts_rank_higher_parameter() -> None:
    t1 = {"a": 5, "b": 5}
    t2 = {"a": 0}
    higher = season_table([t1, t2])
    assert [(r.place, r.player_id) for r in higher] == [(1, "a"), (2, "b")]
    lower = season_table([t1, t2], more_starts_ranks_higher=False)
    assert [(r.place, r.player_id) for r in lower] == [(1, "b"), (2, "a")]
    level = season_table([{"a": 3, "b": 3}])
    assert [r.place for r in level] == [1, 1]


def test_season_seeding_puts_current_top_four_at_different_tables() -> None:
    players: list[Player] = make_players(16)
    tournaments: list[dict[str, int]] = []
    for number in range(3):
        extra = []
        seeds: tuple[str, ...] = ()
        if tournaments:
            seeds = season_seeds(season_table(tournaments), {p.id for p in players})
            assert len(seeds) == 4
            extra = [SeedsDeclared(seeds)]
        state, _ = play_event(preset("league", players=16), players, 100 + number, extra=extra)
        first = state.seating("tables")
        if seeds:
            assert [next(t.number for t in first if s in t.players) for s in seeds] == [1, 2, 3, 4]
        tournaments.append(state.league_points())
    rows = season_table(tournaments)
    assert sum(r.points for r in rows) == 3 * sum(tournament_points(p, 16) for p in range(1, 17))
    assert all(r.starts == 3 for r in rows)


def test_seed_tables_and_what_the_seeding_can_promise() -> None:
    assert seed_tables(4, 3) == ((1, 4), (2,), (3,))
    assert seed_tables(4, 2) == ((1, 3), (2, 4))
    assert str(seeding_statement(4, 4)) == (
        "all 4 seeds play at different first-stage tables (4 tables)"
    )
    three = str(seeding_statement(4, 3))
    assert three.startswith("003 §10a cannot hold: 3 first-stage tables for 4 seeds")
    assert "seeds 1 and 4 share table 1" in three
    two = seeding_statement(4, 2)
    assert "seeds 1 and 3 share table 1; seeds 2 and 4 share table 2" in str(two)
    polish = two.message(words("pl").gettext)
    assert polish == (
        "Rozstawionych nie da się rozdzielić, jak chce regulamin ligi (każdy przy innym "
        "stoliku pierwszego etapu): stolików jest 2, rozstawionych 4; przy różnych stolikach "
        "grają nr 1, 2; razem grają: nr 1 i nr 3 przy stoliku 1; "
        "nr 2 i nr 4 przy stoliku 2"
    )
    assert seeding_statement(4, 4).message(words("pl").gettext) == (
        "każdy z 4 rozstawionych gra przy innym stoliku pierwszego etapu (stoliki: 4)"
    )


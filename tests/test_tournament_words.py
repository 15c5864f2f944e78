"""The tournament logic's errors in the reader's language.

Real refusals of the event's fold (a tie at a cut, a check-in the event cannot take, a
result for a table that is not there, a sanction lifted twice) and of the formats and
presets, each read through the Polish catalog as a front end shows it
(``err.message(words.gettext)``) while ``str(err)`` stays the English of the logs.
"""

from __future__ import annotations

import random

import msgspec
import pytest
from test_tournament_cuts import championship_after_eliminations
from test_tournament_support import make_players, play_event

from hub.exports.words import stage_label, title_label
from hub.tournament import (
    ConsolationError,
    EventState,
    PlayerStatusError,
    TieAtCutError,
    TournamentError,
    check_in_all,
    preset,
)
from hub.tournament.errors import FormatError, PlayerCountError, ResultError
from hub.tournament.facts import GameRecorded, PlayerCheckedIn, RoundClosed, SanctionLifted
from hub.tournament.format_words import describe
from hub.tournament.presets import championship, league_scheme_for, preset_name
from hub.tournament.seating import random_draw, table_sizes
from tablekit.core.errors import KitError
from tablekit.core.gender import Gender
from tablekit.shared.i18n import words

PL = words("pl")


def label(stage: str) -> str:
    """A stage's or group's name as a Polish message says it (runda 2, TOP 15)."""
    return stage_label(stage, PL)
EN = words("en")


def said(err: KitError) -> tuple[str, str]:
    return err.message(PL.gettext), err.message(EN.gettext)


def test_a_tie_at_a_cut_is_told_in_polish_with_its_points() -> None:
    state = championship_after_eliminations(("p08", "p09"))
    with pytest.raises(TieAtCutError) as caught:
        state.draw_next(5)
    polish, english = said(caught.value)
    level = ", ".join(f"Player {int(p[1:])} ({p})" for p in caught.value.ties[0].players)
    assert polish == (
        "losowanie etapu (półfinał): remis na granicy awansu, decyduje sędzia główny "
        "(kolejność graczy albo zarządzone przez niego losowanie): "
        f"{level} remisują w klasyfikacji po 3. rundzie eliminacji (0 DP, -48 MP)"
    )
    assert english == str(caught.value) == (
        "draw semifinal: players level at a cut, the head judge decides (their order, or a "
        f"lot the judge orders): {level} level in the standings after elimination-3 "
        "(0 BP, -48 SP)"
    )


def test_a_decision_on_players_not_level_names_their_points_in_polish() -> None:
    state = championship_after_eliminations(("p08", "p09"))
    with pytest.raises(TournamentError) as caught:
        state.check_tie("elimination-3", ("p07", "p08"))
    assert said(caught.value)[0] == (
        "rozstrzygnięcie remisu (w klasyfikacji po 3. rundzie eliminacji): ci gracze tam nie "
        "remisują "
        "(p07 0 DP -42 MP, p08 0 DP -48 MP)"
    )


def started_event() -> EventState:
    players = make_players(8)
    state = EventState.replay(preset("winter"), check_in_all(players))
    return state.apply(state.draw_next(1))


def test_a_check_in_after_the_draw_says_what_to_do_instead_in_polish() -> None:
    state = started_event()
    with pytest.raises(KitError) as caught:
        state.apply(PlayerCheckedIn("p01"))
    assert said(caught.value)[0] == (
        "potwierdzenie obecności: obecność gracza „p01” jest już potwierdzona"
    )
    with pytest.raises(KitError) as caught:
        state.apply(PlayerCheckedIn("p99"))
    assert said(caught.value) == (
        "potwierdzenie obecności: nieznany gracz „p99”",
        "check-in: unknown player 'p99'",
    )


def test_a_result_for_a_table_that_is_not_there_is_told_in_polish() -> None:
    state = started_event()
    with pytest.raises(ResultError) as caught:
        state.apply(GameRecorded("round-1", 7, 1, ()))
    assert said(caught.value) == (
        "wynik etapu (runda 1): nie ma stolika 7 (stoliki 1–2)",
        "result for round-1: no table 7 (tables 1–2)",
    )


def test_closing_with_results_missing_lists_the_games_in_polish() -> None:
    state = started_event()
    with pytest.raises(KitError) as caught:
        state.apply(RoundClosed("round-1"))
    polish, english = said(caught.value)
    assert polish.startswith(
        "nie można zamknąć etapu (runda 1) — brak wyników: stolik 1 (gra 1), stolik 1 (gra 2), "
    )
    assert english.startswith("close round-1: no result for table 1 game 1, table 1 game 2, ")
    assert polish.count("stolik") == english.count("table") == 6


def test_a_sanction_lifted_that_is_not_there_is_told_in_polish() -> None:
    state = started_event()
    with pytest.raises(PlayerStatusError) as caught:
        state.apply(SanctionLifted(1))
    assert said(caught.value)[0] == "uchylenie sankcji 1: nie zapisano żadnej sankcji"


def test_formats_and_presets_refuse_in_polish() -> None:
    with pytest.raises(FormatError) as caught:
        preset_name("spring")
    assert said(caught.value)[0].startswith(
        "nieznany gotowy format „spring”, oczekiwano jednego z: winter, school, "
    )
    with pytest.raises(PlayerCountError) as caught:
        league_scheme_for(3)
    polish, english = said(caught.value)
    assert polish.startswith("liga: liczba graczy 3, a turniej ligowy przyjmuje ")
    assert english.startswith("league: 3 players, a league tournament takes ")
    with pytest.raises(PlayerCountError) as caught:
        preset("winter").check_player_count(5)
    assert said(caught.value)[0] == (
        "format „Zimowy Turniej Rummikub: runda I — losowanie, runda II — według "
        "klasyfikacji”, etap: runda 1 — przydział do stolików: liczby graczy 5 nie da się "
        "podzielić na stoliki 3- lub 4-osobowe"
    )
    with pytest.raises(PlayerCountError) as caught:
        preset("championship").check_player_count(14)
    assert said(caught.value)[0] == (
        "format „Mistrzostwa: eliminacje, półfinał (8 graczy), finał (4 graczy)”: "
        "liczba graczy 14, a potrzeba 16–36"
    )
    with pytest.raises(PlayerCountError) as caught:
        table_sizes(13, 2)
    assert said(caught.value)[0] == (
        "przydział do stolików: liczba graczy 13 nie pasuje do liczby stolików 2 (przy stoliku "
        "3 lub 4 osoby; potrzeba 6–8 graczy)"
    )


def test_a_player_twice_in_a_draw_is_told_in_polish() -> None:
    with pytest.raises(KitError) as caught:
        random_draw(["p1", "p2", "p3", "p1"], random.Random(1))
    assert said(caught.value) == (
        "losowanie: gracz „p1” występuje dwa razy",
        "random draw: player 'p1' appears twice",
    )


def test_a_presets_description_is_given_back_in_polish() -> None:
    assert describe(preset("school")).message(PL.gettext) == (
        "Międzyszkolny konkurs: liczba rund: 4, gier w rundzie: 2, w każdej rundzie "
        "nowe losowanie"
    )
    assert str(describe(preset("school"))) == preset("school").description
    stored = msgspec.structs.replace(preset("winter"), description="Klubowy puchar")
    assert describe(stored).message(PL.gettext) == "Klubowy puchar"


def test_the_presets_titles_are_the_rule_books_words_in_polish_for_girls_and_boys() -> None:
    names = [t.name for name in ("winter", "school") for t in preset(name).titles]
    names += [t.name for t in championship(8).titles]
    titles = {
        name: tuple(title_label(name, PL, g) for g in (Gender.FEMALE, Gender.MALE, Gender.NEUTRAL))
        for name in names
    }
    assert titles == {
        "school champion": ("szkolna mistrzyni", "szkolny mistrz", "szkolne mistrzostwo"),
        "champion": ("mistrzyni", "mistrz", "mistrzostwo"),
        "vice-champion": ("wicemistrzyni", "wicemistrz", "wicemistrzostwo"),
        "second vice-champion": ("II wicemistrzyni", "II wicemistrz", "II wicemistrzostwo"),
        "winner": ("zwyciężczyni", "zwycięzca", "zwycięstwo"),
    }
    assert {title_label(name, EN, g) for name in names for g in Gender} == set(names)
    assert title_label("Złoty medal", PL, Gender.FEMALE) == "Złoty medal"  # the organizer's own


def test_players_left_for_consolation_games_are_put_to_the_organizer_in_polish() -> None:
    fmt = preset("league-top20", players=17)
    with pytest.raises(ConsolationError) as caught:
        play_event(fmt, make_players(17), seed=17)
    err = caught.value
    polish = err.message(PL.gettext)
    left = ", ".join(err.players)
    stage, main = fmt.stages[1].name, fmt.stages[1].groups[0].name
    choices = "; ".join(
        f"awans {k} najlepszych (dołączają do {label(main)}, "
        + (f"pozostali ({2 - k}) grają gry pocieszenia)" if k < 2 else "wszyscy grają dalej)")
        for k in err.options
    )
    assert polish == (
        f"losowanie etapu ({label(stage)}): graczy, którzy nie awansowali do {label(main)} "
        f"({left}, od "
        "najlepszego), jest 2 i nie da się ich posadzić przy stolikach pocieszenia 3- lub "
        "4-osobowych; regulamin ligi daje każdemu co najmniej 4 gry i pozwala organizatorowi "
        f"zmienić stoliki — decyduje organizator: {choices}; albo nikt z nich nie gra dalej "
        "(koniec gier)"
    )
    assert str(err).startswith(f"draw {stage}: 2 player(s) do not reach {main} ({left}")

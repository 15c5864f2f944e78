"""Who is who across a season's tournaments, and the season table over people (pure)."""

from __future__ import annotations

from hub.league.identity import Decision, Entry, resolve
from hub.league.season import Counted, fold_season


def entry(tournament: str, player: str, name: str, number: str = "") -> Entry:
    return Entry(tournament, player, name, number=number)


def test_a_league_number_is_the_person_whatever_the_name() -> None:
    entries = [
        entry("t1", "P001", "Anna Nowak", "KRK-1"),
        entry("t2", "P004", "Anna Nowak-Lis", "KRK-1"),  # married since: the number says
        entry("t2", "P005", "Jan Lis", "KRK-2"),
        entry("t3", "P001", "Jan Lis", "KRK-3"),  # another number: another person
    ]
    who = resolve(entries)
    assert who.person(entries[0]) == who.person(entries[1]) == "nr KRK-1"
    assert who.person(entries[2]) != who.person(entries[3])
    assert not who.questions  # two numbers are two people: nothing to ask


def test_a_name_alone_is_a_question_until_the_league_organizer_answers() -> None:
    entries = [entry("t1", "P001", "Łukasz  Żółć"), entry("t2", "P002", "lukasz zolc")]
    who = resolve(entries)
    assert [q.entry.ref for q in who.questions] == ["t2/P002"]
    assert who.person(entries[0]) != who.person(entries[1])
    same = resolve(entries, [Decision("t2/P002", "t1/P001", "liga")])
    assert not same.questions and same.person(entries[0]) == same.person(entries[1])
    apart = resolve(entries, [Decision("t2/P002", "", "liga")])
    assert not apart.questions and apart.person(entries[0]) != apart.person(entries[1])


def test_the_season_sums_a_numbered_person_and_the_ticket_passes_a_holder() -> None:
    t1 = Counted("t1", "Liga 1", 1.0, (entry("t1", "P001", "Ola Kot", "A1"),
                                       entry("t1", "P002", "Jan Lis", "A2")),
                 {"P001": 9, "P002": 7})
    t2 = Counted("t2", "Liga 2", 2.0, (entry("t2", "P003", "Aleksandra Kot", "A1"),
                                       entry("t2", "P001", "Jan Lis", "A2")),
                 {"P003": 9, "P001": 7})
    season = fold_season([t2, t1])
    assert [(line.name, line.points, line.starts) for line in season.lines] == [
        ("Aleksandra Kot", 18, 2),
        ("Jan Lis", 14, 2),
    ]
    assert [t.name for t in season.tournaments] == ["Liga 1", "Liga 2"]
    ticket = season.ticket({"A1"})
    assert ticket is not None and ticket.person == "nr A2" and ticket.passed == ("nr A1",)

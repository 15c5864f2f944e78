"""Names: given name and surname, and the Polish alphabetical order every list uses."""

from __future__ import annotations

import pytest

from tablekit.core.names import (
    SENT_NAME,
    check_surname,
    collation_key,
    full_name,
    name_order,
    sent_name,
    split_name,
)


def ordered(words: list[str]) -> list[str]:
    return sorted(words, key=collation_key)


def test_every_polish_letter_has_its_own_place() -> None:
    assert ordered(["żaba", "zebra", "źrebię", "łąka", "lux", "ćma", "cyrk", "ąb", "azot"]) == [
        "azot", "ąb", "cyrk", "ćma", "lux", "łąka", "zebra", "źrebię", "żaba",
    ]
    assert ordered(["Śmigły", "Szulc", "Sówka", "Sowa", "Nęcki", "Nowak", "Ńa", "Ogórek"]) == [
        "Nęcki", "Nowak", "Ńa", "Ogórek", "Sowa", "Sówka", "Szulc", "Śmigły",
    ]


def test_case_and_foreign_accents_decide_only_between_equal_names() -> None:
    assert ordered(["Müller", "Muller", "Mulder", "muller", "Mylne"]) == [
        "Mulder", "muller", "Muller", "Müller", "Mylne",
    ]
    assert ordered(["Nowak-Kowalska", "Nowakowska", "Nowak"]) == [
        "Nowak", "Nowak-Kowalska", "Nowakowska",
    ]
    assert ordered(["Øster", "Oster", "Straße", "Strasse"]) == [
        "Oster", "Øster", "Strasse", "Straße",
    ]
    assert ordered(["Иванов", "Zyta", "2 Kowal"]) == ["2 Kowal", "Zyta", "Иванов"]


def test_given_name_and_surname() -> None:
    assert split_name("Anna Maria Nowak-Kowalska") == ("Anna Maria", "Nowak-Kowalska")
    assert split_name("Anna  Maria de Lange", "de Lange") == ("Anna Maria", "de Lange")
    assert split_name("Ola") == ("", "Ola")
    assert split_name("Anna Maria Konstancja Nowak-Kow…", "Nowak-Kowalska") == (
        "Anna Maria Konstancja Nowak-Kow…",
        "Nowak-Kowalska",
    )
    assert full_name(" Jan  Maria ", "de Lange") == "Jan Maria de Lange"
    check_surname("Jan de Lange", "de Lange")
    check_surname("Jan de Lange", "")
    with pytest.raises(ValueError, match="surname 'Lange' is not the end of the name 'Jan Lang'"):
        check_surname("Jan Lang", "Lange")
    with pytest.raises(ValueError, match="is not the end of the name"):
        check_surname("Jan Delange", "Lange")


def test_people_sort_by_surname_then_given_name() -> None:
    people = [
        ("Zofia Ćwik", ""),
        ("Adam Nowak", ""),
        ("Łukasz Żółć", ""),
        ("Ewa Wiśniewska", ""),
        ("Jan de Lange", "de Lange"),
        ("Anna Nowak", ""),
        ("Ignacy Łoś", ""),
        ("Hans Müller", ""),
        ("Zenon Muller", ""),
        ("Adam Müller", ""),
        ("Jan Gęś", ""),
        ("Barbara Lis", ""),
    ]
    assert [n for n, _ in sorted(people, key=lambda p: name_order(*p))] == [
        "Zofia Ćwik",
        "Jan de Lange",
        "Jan Gęś",
        "Barbara Lis",
        "Ignacy Łoś",
        "Adam Müller",  # Muller = Müller but for the accent: the given names decide
        "Hans Müller",
        "Zenon Muller",
        "Adam Nowak",
        "Anna Nowak",
        "Ewa Wiśniewska",
        "Łukasz Żółć",
    ]


def test_a_long_name_is_cut_for_the_units_and_screens() -> None:
    assert sent_name("Anna Nowak") == "Anna Nowak"
    assert sent_name("x" * SENT_NAME) == "x" * SENT_NAME
    long = "Aleksandra Magdalena Brzęczyszczykiewicz-Kowal"
    assert sent_name(long) == long[: SENT_NAME - 1] + "…"
    assert len(sent_name(long)) == SENT_NAME

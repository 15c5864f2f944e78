"""Dates, times and numbers in each language's form (tablekit.shared.forms), checked
against Babel's (the Unicode CLDR's ``pl`` and ``en_GB``): the kit writes them itself, so
the Pi needs no Babel, and this test keeps the two in step."""

from __future__ import annotations

import datetime as dt

import pytest
from babel.dates import format_date
from babel.numbers import format_decimal

from tablekit.shared import forms
from tablekit.shared.i18n import words

PL, EN = words("pl"), words("en")
LOCALES = {"pl": "pl_PL", "en": "en_GB"}


def test_polish_dates_have_the_month_in_the_genitive() -> None:
    assert forms.long_date(dt.date(2026, 11, 26), PL) == "26 listopada 2026"
    assert forms.long_date(dt.date(2026, 3, 1), PL) == "1 marca 2026"
    assert forms.long_date(dt.date(2026, 11, 26), EN) == "26 November 2026"
    moment = dt.datetime(2026, 1, 18, 9, 5, 7)
    assert forms.date_and_time(moment, PL) == "18 stycznia 2026, 09:05"
    assert forms.date_and_time(moment, EN, seconds=True) == "18 January 2026, 09:05:07"
    assert forms.clock_time(dt.datetime(2026, 1, 18, 21, 40)) == "21:40"


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_every_month_as_the_cldr_writes_it(lang: str) -> None:
    for month in range(1, 13):
        day = dt.date(2026, month, 26)
        assert forms.long_date(day, words(lang)) == format_date(
            day, "d MMMM y", locale=LOCALES[lang]
        )


@pytest.mark.parametrize("lang", ["pl", "en"])
@pytest.mark.parametrize(
    "value", [0, 7, 999, 1520, 1520.5, 12345, 1234567.25, -20, -12345.5, 0.125]
)
def test_numbers_as_the_cldr_writes_them(lang: str, value: float) -> None:
    expected = format_decimal(value, locale=LOCALES[lang], group_separator=True)
    ours = forms.number(value, words(lang))
    if lang == "pl" and 1000 <= abs(value) < 10000:
        # The CLDR's Polish minimumGroupingDigits is 2 (Polish print leaves four digits
        # together: 1520 złotych); Babel groups them anyway.
        assert ours == str(value).replace(".", ",")
        return
    # The CLDR's Polish group separator is the no-break space; its minus the hyphen.
    assert ours.replace(forms.MINUS, "-") == expected.replace("\u202f", forms.NBSP)


def test_a_spreadsheet_cell_and_fixed_places() -> None:
    assert forms.number(-12345.5, PL, group=False) == "-12345,5"
    assert forms.number(-12345.5, PL) == f"{forms.MINUS}12{forms.NBSP}345,5"
    assert forms.number(45, PL, places=1) == "45,0"
    assert forms.number(2.5, EN, places=2) == "2.50"
    assert forms.number(-0.0001, PL, places=2) == "0,00"
    assert forms.csv_separator(PL) == ";" and forms.csv_separator(EN) == ","
    assert forms.decimal_mark(PL) == "," and forms.decimal_mark(EN) == "."

"""Dates, times and numbers in the reader's form: one place for every screen, printout,
spreadsheet and command line.

Polish writes a date with the month's name in the genitive, ``26 listopada 2026``, a time
on the 24-hour clock, ``14:05``, a decimal with a comma, ``1520,5``, and groups the
thousands of a number of five digits or more with a (non-breaking) space, ``12 345``;
English (as in Britain, the form a Polish club reads in English) writes
``26 November 2026``, ``14:05``, ``1520.5`` and ``12,345``. These are the forms of the
Unicode CLDR for ``pl`` and ``en_GB`` (the tests check them against Babel's, which is a
development tool only: the Pi runs without it). The month names are in the catalogs
(``pgettext("month in a date", "November")``), so each language's word is its
translator's.

A moment kept as seconds since the epoch (what the event file stores) is shown in the
hub's local time (:func:`local`).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Final

from tablekit.shared.i18n import Words

NBSP: Final = "\u00a0"
"""Between a number's groups of thousands in Polish: the line never breaks there."""
MINUS: Final = "\u2212"
"""The minus sign of print (``−20``); a spreadsheet's cell keeps the hyphen-minus."""


def month_in_date(month: int, words: Words) -> str:
    """The name of ``month`` (1–12) as it stands in a date (Polish: the genitive,
    ``listopada``)."""
    # The literals are written out for the catalogs' extraction.
    names = (
        # Translators: a month's name inside a date ("26 listopada 2026"): Polish genitive
        words.pgettext("month in a date", "January"),
        words.pgettext("month in a date", "February"),
        words.pgettext("month in a date", "March"),
        words.pgettext("month in a date", "April"),
        words.pgettext("month in a date", "May"),
        words.pgettext("month in a date", "June"),
        words.pgettext("month in a date", "July"),
        words.pgettext("month in a date", "August"),
        words.pgettext("month in a date", "September"),
        words.pgettext("month in a date", "October"),
        words.pgettext("month in a date", "November"),
        words.pgettext("month in a date", "December"),
    )
    return names[month - 1]


def local(at: float) -> dt.datetime:
    """Seconds since the epoch as the hub's local date and time (with its UTC offset)."""
    return dt.datetime.fromtimestamp(at, dt.UTC).astimezone()


def long_date(day: dt.date, words: Words) -> str:
    """``26 listopada 2026`` / ``26 November 2026``."""
    return f"{day.day} {month_in_date(day.month, words)} {day.year}"


def clock_time(moment: dt.datetime | dt.time, *, seconds: bool = False) -> str:
    """The 24-hour time of day both languages write: ``14:05`` (``14:05:09`` with
    ``seconds``)."""
    return moment.strftime("%H:%M:%S" if seconds else "%H:%M")


def date_and_time(moment: dt.datetime, words: Words, *, seconds: bool = False) -> str:
    """``26 listopada 2026, 14:05`` / ``26 November 2026, 14:05``."""
    return words.gettext("{date}, {time}").format(
        date=long_date(moment.date(), words), time=clock_time(moment, seconds=seconds)
    )


def decimal_mark(words: Words) -> str:
    """The mark between a number's whole part and its fraction: ``,`` in Polish."""
    return "," if words.language == "pl" else "."


def number(value: float, words: Words, *, places: int | None = None, group: bool = True) -> str:
    """``value`` in the reader's form: ``12 345``, ``1520,5``, ``−7`` in Polish;
    ``12,345``, ``1520.5``, ``−7`` in English.

    ``places``: that many digits after the mark (None: as few as the value needs, up to
    six, as ``%g`` shows it). ``group`` False leaves the thousands ungrouped and the minus
    a hyphen-minus, as a spreadsheet's cell wants them (Excel and LibreOffice in Polish
    read ``-1520,5`` as a number, not ``−1 520,5``).
    """
    negative = value < 0
    magnitude = abs(value)
    if places is None:
        text = f"{magnitude:.6f}".rstrip("0").rstrip(".")
    else:
        text = f"{magnitude:.{places}f}"
    whole, _, fraction = text.partition(".")
    if group and len(whole) >= (5 if words.language == "pl" else 4):
        separator = NBSP if words.language == "pl" else ","
        head = len(whole) % 3 or 3
        groups = [whole[:head]] + [whole[i : i + 3] for i in range(head, len(whole), 3)]
        whole = separator.join(groups)
    shown = whole + (decimal_mark(words) + fraction if fraction else "")
    if negative and shown.strip("0,.") != "":
        shown = (MINUS if group else "-") + shown
    return shown


def csv_separator(words: Words) -> str:
    """The field separator of a CSV file for the reader's spreadsheet: ``;`` in Polish
    (a Polish Excel's list separator, since its decimal mark is the comma; LibreOffice
    and Google Sheets ask or guess it), ``,`` in English."""
    return ";" if words.language == "pl" else ","


FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet (Excel, LibreOffice, Sheets) run a text cell as a formula."""
_NUMBER: Final = re.compile(r"[+-]?\d[\d\u00a0\u202f ]*(?:[.,]\d+)?%?")
"""A number as a spreadsheet file carries it (signed small points, a decimal comma)."""


def spreadsheet_cell(cell: str) -> str:
    """``cell`` as a CSV file carries it: a text a spreadsheet would run as a formula
    (``=HYPERLINK(…)``, ``@SUM(…)``) gets a leading ``'``, which the spreadsheet shows
    as text and does not run; a number (``-7``, ``+12``, ``-3,5``) or a lone dash
    stays as it is (OWASP's advice on CSV injection)."""
    if cell.startswith(FORMULA_STARTS) and cell != "-" and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def spreadsheet_text(cell: str) -> str:
    """A cell read back from a CSV file: :func:`spreadsheet_cell`'s ``'`` taken off."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS):
        return cell[1:]
    return cell

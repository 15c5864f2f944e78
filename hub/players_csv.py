"""Importing players from a CSV file (a spreadsheet's "save as CSV").

The whole file is read and checked before anything is stored; the CLI then registers
every player in one transaction (:meth:`hub.organizer.Organizer.register`), so a file
with one bad line leaves the event as it was.

Format:

* UTF-8 text, with or without a byte-order mark (Excel's "CSV UTF-8" writes one).
* A header row naming the columns, in any order and any case. Recognised names
  (Polish or English, accents optional):

  - name: ``name``, ``player``, ``full name``, ``imię i nazwisko``, ``zawodnik``,
    ``gracz``, ``uczestnik`` — or two columns ``imię`` and ``nazwisko`` (first and
    last name, joined with a space);
  - club: ``club``, ``school``, ``team``, ``klub``, ``szkoła``, ``drużyna`` (optional);
  - rating: ``rating``, ``points``, ``punkty``, ``ranking``, ``pkt`` (optional; a
    number, ``12,5`` and ``12.5`` both accepted; orders players for league seeding).

  Other columns are ignored and reported.
* Delimiter ``,`` or ``;`` (Polish spreadsheets export ``;``; tab also works),
  detected from the header row.
* Blank lines are skipped. A player is a duplicate when the name and the club are the
  same (ignoring case and repeated spaces) as another line or a registered player.
"""

from __future__ import annotations

import _csv
import csv
import io
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from hub.tournament import Player

NAME_ALIASES = frozenset(
    {
        "name",
        "player",
        "full name",
        "imie i nazwisko",
        "nazwisko i imie",
        "zawodnik",
        "zawodniczka",
        "gracz",
        "uczestnik",
        "imie nazwisko",
    }
)
FIRST_NAME_ALIASES = frozenset({"imie", "first name", "firstname", "given name"})
LAST_NAME_ALIASES = frozenset({"nazwisko", "last name", "lastname", "surname", "family name"})
CLUB_ALIASES = frozenset({"club", "school", "team", "klub", "szkola", "druzyna"})
RATING_ALIASES = frozenset({"rating", "points", "punkty", "ranking", "pkt", "league points"})
DELIMITERS = (",", ";", "\t")
MAX_NAME = 80


class PlayersCsvError(ValueError):
    """The file cannot be imported; the message names the file, line and field."""


@dataclass(frozen=True)
class CsvPlayer:
    line: int
    name: str
    club: str | None
    rating: float | None


@dataclass(frozen=True)
class CsvImport:
    players: tuple[CsvPlayer, ...]
    delimiter: str
    ignored_columns: tuple[str, ...]


def fold(text: str) -> str:
    """Lower case, no accents, single spaces: how column names and players are compared."""
    text = unicodedata.normalize("NFKD", text.replace("ł", "l").replace("Ł", "L"))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.casefold().replace("_", " ").split())


def clean(text: str, what: str = "name") -> str:
    """A name or club as stored: NFC, single spaces, no surrounding blanks.

    ValueError for a control character (Ctrl-Z from an old export, say): no table
    display or screen would take the name, so it is refused here, naming it.
    """
    for char in text:
        if unicodedata.category(char) == "Cc" and not char.isspace():
            raise ValueError(
                f"{what} {text!r} has the control character U+{ord(char):04X}; "
                "re-type it or save the file again as plain UTF-8 text"
            )
    return " ".join(unicodedata.normalize("NFC", text).split())


def player_key(name: str, club: str | None) -> tuple[str, str]:
    return (fold(name), fold(club or ""))


def decode(data: bytes, source: str) -> str:
    """UTF-8 text (a leading BOM dropped); an error names the line and byte if not."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        byte = data[err.start]
        raise PlayersCsvError(
            f"{source} line {line}: not UTF-8 text (byte 0x{byte:02X} at column {column}); "
            "re-save the file as UTF-8 (Excel: 'CSV UTF-8'; Google Sheets and LibreOffice "
            "export UTF-8)"
        ) from None


def sniff_delimiter(header: str) -> str:
    """``,``, ``;`` or tab: whichever the header row has most of (``,`` if none)."""
    counts = {d: header.count(d) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


def rating_of(text: str) -> float | None:
    """A rating as people write it ("1500", "1 500", "12,5", "-3"); None when blank.

    ValueError naming the text for anything else: words, exponents, "nan", "inf", and
    digits too many to be a finite number.
    """
    value = text.strip().replace("\u00a0", "").replace(" ", "")
    if not value:
        return None
    rating = math.nan
    if re.fullmatch(r"[+-]?\d+([.,]\d+)?", value) is not None:
        rating = float(value.replace(",", "."))
    if not math.isfinite(rating):
        raise ValueError(f"rating {text.strip()!r} is not a number")
    return rating


def parse_rating(text: str, where: str) -> float | None:
    try:
        return rating_of(text)
    except ValueError as err:
        raise PlayersCsvError(f"{where}: {err}") from None


def parse_players_csv(data: bytes, source: str = "players.csv") -> CsvImport:
    """Every player of the file, checked (names, ratings, duplicates inside the file)."""
    text = decode(data, source)
    lines = text.splitlines()
    header_line = next((ln for ln in lines if ln.strip()), "")
    if not header_line:
        raise PlayersCsvError(f"{source}: the file is empty (a header row is required)")
    delimiter = sniff_delimiter(header_line)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        return _read(reader, source, delimiter)
    except csv.Error as err:  # e.g. a stray quote running on for a whole file
        raise PlayersCsvError(f"{source} line {reader.line_num}: not valid CSV: {err}") from None


def _read(reader: _csv.Reader, source: str, delimiter: str) -> CsvImport:
    header: list[str] | None = None
    header_at = 0
    for row in reader:
        if any(cell.strip() for cell in row):
            header, header_at = row, reader.line_num
            break
    assert header is not None  # header_line is not blank
    columns = _columns(header, source, header_at)
    ignored = tuple(
        h.strip() for i, h in enumerate(header) if i not in columns.values() and h.strip()
    )
    players: list[CsvPlayer] = []
    seen: dict[tuple[str, str], int] = {}
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        where = f"{source} line {line}"

        def cell(field: str, row: list[str] = row) -> str:
            index = columns.get(field)
            return row[index] if index is not None and index < len(row) else ""

        try:
            full = cell("name") if "name" in columns else f"{cell('first')} {cell('last')}"
            name = clean(full)
            club = clean(cell("club"), "club") or None
        except ValueError as err:
            raise PlayersCsvError(f"{where}: {err}") from None
        if not name:
            raise PlayersCsvError(f"{where}: name is empty")
        if len(name) > MAX_NAME:
            raise PlayersCsvError(f"{where}: name is longer than {MAX_NAME} characters")
        rating = parse_rating(cell("rating"), where)
        key = player_key(name, club)
        if key in seen:
            raise PlayersCsvError(
                f"{where}: duplicate player {_who(name, club)} (already on line {seen[key]})"
            )
        seen[key] = line
        players.append(CsvPlayer(line, name, club, rating))
    if not players:
        raise PlayersCsvError(f"{source}: no players below the header row")
    return CsvImport(tuple(players), delimiter, ignored)


def read_players_csv(path: str | Path) -> CsvImport:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise PlayersCsvError(f"{path}: cannot read the file ({err.strerror or err})") from None
    return parse_players_csv(data, str(path))


def new_players(
    rows: Iterable[CsvPlayer],
    registered: Mapping[str, Player],
    next_id: Callable[[int], str],
    source: str = "players.csv",
) -> list[Player]:
    """Players to register for ``rows``; a row matching a registered player is an error."""
    known = {player_key(p.name, p.club): p.id for p in registered.values()}
    out: list[Player] = []
    for offset, row in enumerate(rows):
        pid = known.get(player_key(row.name, row.club))
        if pid is not None:
            raise PlayersCsvError(
                f"{source} line {row.line}: duplicate player {_who(row.name, row.club)} "
                f"(already registered as {pid})"
            )
        out.append(Player(next_id(offset), row.name, row.club, row.rating))
    return out


def _who(name: str, club: str | None) -> str:
    return f"{name!r}" + (f" ({club})" if club else "")


def _columns(header: list[str], source: str, line: int) -> dict[str, int]:
    where = f"{source} line {line} (header)"
    columns: dict[str, int] = {}
    for index, title in enumerate(header):
        key = fold(title)
        for field, aliases in (
            ("name", NAME_ALIASES),
            ("first", FIRST_NAME_ALIASES),
            ("last", LAST_NAME_ALIASES),
            ("club", CLUB_ALIASES),
            ("rating", RATING_ALIASES),
        ):
            if key in aliases:
                if field in columns:
                    raise PlayersCsvError(
                        f"{where}: two {field} columns ({header[columns[field]].strip()!r} "
                        f"and {title.strip()!r})"
                    )
                columns[field] = index
    if "name" not in columns and not ("first" in columns and "last" in columns):
        found = ", ".join(repr(h.strip()) for h in header if h.strip()) or "none"
        raise PlayersCsvError(
            f"{where}: no name column (found {found}); name the column 'name' or "
            "'imię i nazwisko' (or use two columns 'imię' and 'nazwisko')"
        )
    if "name" in columns:
        columns.pop("first", None)
        columns.pop("last", None)
    return columns

"""Importing players from a CSV file (a spreadsheet's "save as CSV").

The whole file is read and checked before anything is stored; the CLI then registers
every player in one transaction (:meth:`hub.organizer.Organizer.register`), so a file
with one bad line leaves the event as it was.

Format:

* Text as a spreadsheet saves it: UTF-8 with or without a byte-order mark (Excel's
  "CSV UTF-8"), UTF-16 with a byte-order mark (Excel's "Unicode text"), or a Polish
  single-byte encoding — Windows-1250 (a Polish Excel's plain "CSV") or ISO-8859-2. The
  encoding is detected (:func:`decode`) and reported; ``encoding=`` overrides it.
* A header row naming the columns, in any order and any case. Recognised names
  (Polish or English, accents optional):

  - name: two columns ``imię`` and ``nazwisko`` (or ``first name``/``given name`` and
    ``last name``/``surname``), kept apart: the surname is stored as written; or one
    column ``name``, ``player``, ``full name``, ``imię i nazwisko``, ``zawodnik``,
    ``gracz``, ``uczestnik`` (its last word taken as the surname), or ``nazwisko i
    imię`` (written surname first: its first word); a one-column name written
    ``Kowalski, Jan`` (surname, comma, given name, as many registration lists do) is
    read surname first, and the lines read so are reported;
  - club: ``club``, ``school``, ``team``, ``klub``, ``szkoła``, ``drużyna`` (optional);
  - rating: ``rating``, ``points``, ``punkty``, ``ranking``, ``pkt`` (optional; a
    number, ``12,5`` and ``12.5`` both accepted; orders players for league seeding);
  - league number: ``numer ligowy``, ``nr ligowy``, ``league number`` (optional; the
    number the league gives a player, :func:`hub.tournament.players.league_number`: the
    same number is the same person in every tournament of the season);
  - gender: ``płeć``, ``K/M``, ``gender`` (optional): ``K`` (or ``F``, ``kobieta``),
    ``M``, ``N`` (words without gender) or blank — the kit then proposes it from the
    given name (:mod:`tablekit.core.gender`); the words about the player agree with it.
  - minor: ``niepełnoletni``, ``niepełnoletnia``, ``minor``, ``under 18`` (optional; ``tak``,
    ``x``, ``1``, ``yes`` for a minor, empty or ``nie`` for an adult);
  - a guardian's written consent: ``zgoda``, ``zgoda opiekuna``, ``consent``, ``guardian's
    consent`` (optional, same values; counts for a minor only). The kit's own players
    export writes both, so it reads back.

  Other columns are ignored and reported, and so are lines with more cells than the
  header (their extra cells are left out).
* Delimiter ``,`` or ``;`` (Polish spreadsheets export ``;``; tab also works),
  detected from the header row.
* Blank lines are skipped. A player is a duplicate when the name and the club are the
  same (ignoring case and repeated spaces) as another line or a registered player, or
  when the league number is another line's or a registered player's.
* Limits: at most :data:`MAX_FILE_BYTES` (1 MB) and :data:`MAX_PLAYERS` (2,000) players;
  a larger file is refused before it is read through (the line where the limit is passed
  is named). A cell never holds a line break: a quote left open, which would swallow the
  lines after it into one name, is refused naming the line where it opens.
"""

from __future__ import annotations

import _csv
import codecs
import csv
import dataclasses
import io
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import charset_normalizer

from hub.tournament import LeagueNumberError, Player, league_number
from tablekit.core.errors import KitError, Phrase, joined, quoted
from tablekit.core.gender import Gender, GenderValueError, gender_of
from tablekit.core.names import full_name, match_key
from tablekit.core.words import N_
from tablekit.shared import forms

NAME_ALIASES = frozenset(
    {
        "name",
        "player",
        "full name",
        "imie i nazwisko",
        "zawodnik",
        "zawodniczka",
        "gracz",
        "uczestnik",
        "imie nazwisko",
    }
)
SURNAME_FIRST_ALIASES = frozenset({"nazwisko i imie", "nazwisko imie", "nazwisko i imiona"})
"""Name columns written surname first ("Nowak Anna Maria")."""
FIRST_NAME_ALIASES = frozenset(
    {
        "imie",
        "imiona",
        "first name",
        "firstname",
        "first names",
        "given name",
        "given names",
        "forename",
        "forenames",
    }
)
LAST_NAME_ALIASES = frozenset(
    {"nazwisko", "last name", "lastname", "surname", "family name", "family names"}
)
CLUB_ALIASES = frozenset({"club", "school", "team", "klub", "szkola", "druzyna"})
RATING_ALIASES = frozenset({"rating", "points", "punkty", "ranking", "pkt", "league points"})
LEAGUE_NUMBER_ALIASES = frozenset(
    {"numer ligowy", "nr ligowy", "numer w lidze", "league number", "league no", "league id"}
)
GENDER_ALIASES = frozenset({"plec", "k/m", "m/k", "plec k/m", "plec (k/m)", "gender", "sex"})
MINOR_ALIASES = frozenset(
    {"minor", "under 18", "niepelnoletni", "niepelnoletnia", "niepelnoletni(a)", "ponizej 18"}
)
CONSENT_ALIASES = frozenset(
    {"consent", "guardian consent", "guardian's consent", "zgoda", "zgoda opiekuna",
     "zgoda rodzica", "pisemna zgoda", "pisemna zgoda opiekuna"}
)
YES: Final = frozenset({"tak", "t", "x", "1", "yes", "y", "true", "✓", "✔"})
NO: Final = frozenset({"", "nie", "n", "0", "no", "false", "-", "—"})
DELIMITERS = (",", ";", "\t")
MAX_NAME = 80
MAX_FILE_BYTES = 1_000_000
"""A players file larger than this is refused unread (2,000 players take ~100 kB)."""
MAX_PLAYERS = 2_000
"""Players one file may hold: more than any hall seats."""
MAX_RATING = 1_000_000.0
"""The largest rating or league points (in absolute value) a file may give."""
DETECT_SAMPLE = 65_536
"""Bytes of a non-UTF-8 file charset-normalizer looks at: enough to tell the encodings
apart, and the time it takes does not grow with the file."""


class PlayersCsvError(KitError, ValueError):
    """The file cannot be imported (or a name, club or rating cannot be taken); the message
    names the file, line and field. When rows are wrong, the message is the first one's
    and :attr:`rows` lists every wrong row with its own error (the file is read to its
    end, so a form can show each error beside its row)."""

    rows: tuple[RowProblem, ...] = ()


@dataclass(frozen=True)
class RowProblem:
    """A row of the players file that cannot be taken, and why."""

    line: int
    cells: tuple[str, ...]
    error: PlayersCsvError


def _rows_error(problems: list[RowProblem]) -> PlayersCsvError:
    """The error of a file with wrong rows: the first row's message, every row listed."""
    first = problems[0].error
    err = PlayersCsvError(first.template, **first.values)
    err.rows = tuple(problems)
    return err


def grouped(number: float) -> str:
    """A limit as the messages write it, in groups of three digits (``1 000 000``): read the
    same in Polish and English, where a comma would be a decimal comma in Polish."""
    return f"{number:,.0f}".replace(",", " ")


def _where(source: str, line: int) -> Phrase:
    """``players.csv line 4``, in the reader's language."""
    return Phrase(N_("{file} line {line}"), file=source, line=line)


@dataclass(frozen=True)
class CsvPlayer:
    line: int
    name: str
    club: str | None
    rating: float | None
    surname: str = ""
    """From a surname column or a surname-first name column; "" = the last word."""
    cells: tuple[str, ...] = ()
    league_number: str = ""
    """The row as the file has it."""
    gender: Gender | None = None
    """As the file gives it; None: blank or no such column (proposed from the name)."""
    minor: bool = False
    consent: bool = False
    """A guardian's written consent received (a minor's only)."""


@dataclass(frozen=True)
class CsvImport:
    players: tuple[CsvPlayer, ...]
    delimiter: str
    ignored_columns: tuple[str, ...]
    encoding: str = "utf-8"
    """The codec the file was read with (see :func:`decode`)."""
    surname_comma: tuple[int, ...] = ()
    """Lines whose one-column name was written "Surname, Given" and read so."""
    long_rows: tuple[int, ...] = ()
    """Lines with more cells than the header: the extra cells are left out."""
    columns: int = 0
    """Cells in the header row."""

    @property
    def encoding_label(self) -> str:
        return encoding_label(self.encoding)


def clean(text: str, what: str = "name") -> str:
    """A name or club as stored: NFC, single spaces, no surrounding blanks (and without
    the ``'`` the kit's own exports put before a text a spreadsheet would run as a
    formula: :func:`tablekit.shared.forms.spreadsheet_text`).

    ValueError for a control character (Ctrl-Z from an old export, say): no table
    display or screen would take the name, so it is refused here, naming it.
    """
    for char in text:
        if unicodedata.category(char) == "Cc" and not char.isspace():
            raise PlayersCsvError(
                N_("{what} {text} has the control character U+{code}; re-type it or save the "
                   "file again as plain UTF-8 text"),
                what=_FIELD_WORDS.get(what, what),
                text=quoted(text),
                code=f"{ord(char):04X}",
            )
    return " ".join(unicodedata.normalize("NFC", forms.spreadsheet_text(text)).split())


_FIELD_WORDS = {"name": Phrase(N_("name")), "club": Phrase(N_("club"))}
"""What :func:`clean` names in its error (another ``what``, such as an option, as it is)."""


def player_key(name: str, club: str | None) -> tuple[str, str]:
    return (match_key(name), match_key(club or ""))


POLISH_LETTERS = frozenset("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ")
SCRIPTS_END = 0x0530
"""Letters below this are Latin, Greek or Cyrillic."""
TYPOGRAPHIC_END = 0x2200
"""Punctuation and symbols below this are typographic (dashes, quotes, €, №, ™, arrows)."""
LEGACY_ENCODINGS = ("cp1250", "iso8859_2")
"""Polish single-byte encodings, in order of preference when both read a file the same."""
ENCODING_LABELS = {  # as people know them; "with BOM" is translated where it is shown
    "utf-8": "UTF-8",
    "utf-8-sig": N_("UTF-8 with BOM"),
    "utf-16": "UTF-16",
    "cp1250": "Windows-1250",
    "iso8859-2": "ISO-8859-2",
}
WORKBOOK_MAGIC = {
    b"PK\x03\x04": N_("{file}: this is a spreadsheet workbook (.xlsx or .ods), not CSV text; "
                      "save the sheet as CSV (File → Save as → CSV) and import that file"),
    b"\xd0\xcf\x11\xe0": N_("{file}: this is an old Excel workbook (.xls), not CSV text; save "
                            "the sheet as CSV (File → Save as → CSV) and import that file"),
}


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    """The codec used (a Python codec name, e.g. ``cp1250``)."""

    @property
    def label(self) -> str:
        """The encoding as people know it: ``Windows-1250``, ``UTF-8 with BOM``, …"""
        return encoding_label(self.encoding)


def encoding_label(encoding: str) -> str:
    name = codecs.lookup(encoding).name
    return ENCODING_LABELS.get(name, name)


def decode(data: bytes, source: str, encoding: str | None = None) -> Decoded:
    """The file's text and the encoding it was read with.

    A byte-order mark decides (UTF-8, UTF-16); else strict UTF-8; else the most
    plausible of the Polish single-byte encodings and charset-normalizer's guesses: the
    one that reads the most Polish letters and the fewest stray symbols (a short file
    gives a detector too little to go on, and a Polish list is mostly Polish letters).
    ``encoding`` forces a codec; an error names the line and byte it cannot read.
    """
    for magic, refusal in WORKBOOK_MAGIC.items():
        if data.startswith(magic):
            raise PlayersCsvError(refusal, file=source)
    if encoding is not None:
        try:
            codec = codecs.lookup(encoding).name
        except LookupError:
            raise PlayersCsvError(
                N_("--encoding: unknown encoding {encoding}"), encoding=quoted(encoding)
            ) from None
        return Decoded(_strict(data, codec, source), codec)
    if data.startswith(codecs.BOM_UTF8):
        return Decoded(_strict(data, "utf-8-sig", source), "utf-8-sig")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return Decoded(_strict(data, "utf-16", source), "utf-16")
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    candidates = [*LEGACY_ENCODINGS, *_detected(data)]
    best: tuple[tuple[int, int], int, Decoded] | None = None
    for order, codec in enumerate(dict.fromkeys(candidates)):
        try:
            text = data.decode(codec)
        except (UnicodeDecodeError, LookupError):
            continue
        score = _plausibility(text)
        if best is None or score > best[0]:
            best = (score, order, Decoded(text, codecs.lookup(codec).name))
    if best is None or best[0] < (0, 0):
        _strict(data, "utf-8", source)  # raises, naming the first byte it cannot read
    assert best is not None
    return best[2]


def _detected(data: bytes) -> list[str]:
    """charset-normalizer's candidate encodings for ``data``, most likely first."""
    return [match.encoding for match in charset_normalizer.from_bytes(data[:DETECT_SAMPLE])]


def _plausibility(text: str) -> tuple[int, int]:
    """(minus the control characters, Polish letters minus foreign characters).

    Foreign: what a names list from a Polish hall would not hold — anything past the
    Latin, Greek and Cyrillic letters and the typographic punctuation and symbols (a
    wrong guess reads Polish letters as CJK ideographs, say). A file whose best reading
    has control characters or more foreign characters than Polish letters is refused.
    """
    controls = polish = foreign = 0
    for char in text:
        category = unicodedata.category(char)
        if category[0] == "C" and char not in "\t\r\n":
            controls += 1
        elif char in POLISH_LETTERS:
            polish += 1
        elif ord(char) >= TYPOGRAPHIC_END or (ord(char) >= SCRIPTS_END and category[0] == "L"):
            foreign += 1
    return (-controls, polish - foreign)


def _strict(data: bytes, codec: str, source: str) -> str:
    try:
        return data.decode(codec)
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        byte = data[err.start]
        label = encoding_label(codec)
        raise PlayersCsvError(
            N_("{where}: not {encoding} text (byte 0x{byte} at column {column}); re-save the "
               "file as UTF-8 (Excel: 'CSV UTF-8'; Google Sheets and LibreOffice export UTF-8) "
               "or name its encoding with --encoding"),
            where=_where(source, line),
            encoding=Phrase(label),
            byte=f"{byte:02X}",
            column=column,
        ) from None


def sniff_delimiter(header: str) -> str:
    """``,``, ``;`` or tab: whichever the header row has most of (``,`` if none)."""
    counts = {d: header.count(d) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


def rating_of(text: str) -> float | None:
    """A rating as people write it ("1500", "1 500", "12,5", "-3"); None when blank.

    PlayersCsvError (a ValueError) saying why for anything else: words ("nan", "inf" too),
    a number written with an exponent (``1e308``), a number beyond ±:data:`MAX_RATING`.
    """
    value = text.strip().replace("\u00a0", "").replace(" ", "")
    if not value:
        return None
    shown = text.strip()
    if re.fullmatch(r"[+-]?\d+([.,]\d+)?", value) is None:
        if re.fullmatch(r"[+-]?\d+([.,]\d+)?[eE][+-]?\d+", value) is not None:
            raise PlayersCsvError(
                N_("rating {rating} is written with an exponent; write the number in full "
                   "(at most {most})"),
                rating=quoted(shown),
                most=grouped(MAX_RATING),
            )
        raise PlayersCsvError(N_("rating {rating} is not a number"), rating=quoted(shown))
    rating = float(value.replace(",", "."))
    if not (math.isfinite(rating) and abs(rating) <= MAX_RATING):
        raise PlayersCsvError(
            N_("rating {rating} is too large: at most {most}"),
            rating=quoted(shown),
            most=grouped(MAX_RATING),
        )
    return rating


def parse_rating(text: str, where: Phrase) -> float | None:
    try:
        return rating_of(text)
    except PlayersCsvError as err:
        raise PlayersCsvError(N_("{where}: {error}"), where=where, error=err) from None


def too_large(source: str, size: int) -> PlayersCsvError:
    """The refusal of a players file of ``size`` bytes, above :data:`MAX_FILE_BYTES`."""
    return PlayersCsvError(
        N_("{file}: the file has {size} bytes; a players file may have at most {most} "
           "({players} players); split it or remove what is not a player"),
        file=source,
        size=grouped(size),
        most=grouped(MAX_FILE_BYTES),
        players=grouped(MAX_PLAYERS),
    )


def parse_players_csv(
    data: bytes, source: str = "players.csv", encoding: str | None = None
) -> CsvImport:
    """Every player of the file, checked (names, ratings, duplicates inside the file);
    ``encoding`` forces a codec instead of detecting it."""
    if len(data) > MAX_FILE_BYTES:
        raise too_large(source, len(data))
    decoded = decode(data, source, encoding)
    text = decoded.text
    lines = text.splitlines()
    header_line = next((ln for ln in lines if ln.strip()), "")
    if not header_line:
        raise PlayersCsvError(
            N_("{file}: the file is empty (a header row is required)"), file=source
        )
    delimiter = sniff_delimiter(header_line)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        parsed = _read(reader, source, delimiter, encoding)
    except csv.Error as err:  # e.g. a stray quote running on for a whole file
        raise PlayersCsvError(
            N_("{where}: not valid CSV: {error}"),
            where=_where(source, reader.line_num),
            error=str(err),
        ) from None
    return dataclasses.replace(parsed, encoding=decoded.encoding)


def _read(
    reader: _csv.Reader, source: str, delimiter: str, forced: str | None = None
) -> CsvImport:
    header: list[str] | None = None
    header_at = 0
    for row in reader:
        if any(cell.strip() for cell in row):
            header, header_at = row, reader.line_num
            break
    assert header is not None  # header_line is not blank
    columns = _columns(header, source, header_at, forced)
    surname_first = (
        "name" in columns and match_key(header[columns["name"]]) in SURNAME_FIRST_ALIASES
    )
    ignored = tuple(
        h.strip() for i, h in enumerate(header) if i not in columns.values() and h.strip()
    )
    players: list[CsvPlayer] = []
    seen: dict[tuple[str, str] | str, int] = {}
    comma: list[int] = []
    long_rows: list[int] = []
    end = reader.line_num
    problems: list[RowProblem] = []
    for row in reader:
        line, end = end + 1, reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        where = _where(source, line)
        if len(players) + len(problems) == MAX_PLAYERS:
            raise PlayersCsvError(
                N_("{where}: more than {most} players; a players file holds at most {most}"),
                where=where,
                most=grouped(MAX_PLAYERS),
            )
        try:
            players.append(_row(row, line=line, end=end, where=where, header=header,
                                columns=columns, surname_first=surname_first, seen=seen,
                                comma=comma, long_rows=long_rows))
        except PlayersCsvError as err:
            problems.append(RowProblem(line, tuple(row), err))
    if problems:
        raise _rows_error(problems)
    if not players:
        raise PlayersCsvError(N_("{file}: no players below the header row"), file=source)
    return CsvImport(
        tuple(players),
        delimiter,
        ignored,
        surname_comma=tuple(comma),
        long_rows=tuple(long_rows),
        columns=len(header),
    )


def _row(
    row: list[str],
    *,
    line: int,
    end: int,
    where: Phrase,
    header: list[str],
    columns: Mapping[str, int],
    surname_first: bool,
    seen: dict[tuple[str, str] | str, int],
    comma: list[int],
    long_rows: list[int],
) -> CsvPlayer:
    """The player of one row, checked (a duplicate of a row before it too)."""
    if any("\n" in cell or "\r" in cell for cell in row):
        raise PlayersCsvError(
            N_("{where}: a quote (\") opened on this line is not closed before the line "
               "ends, so lines {line}-{end} would run together into one name; close or "
               "remove the quote"),
            where=where,
            line=line,
            end=end,
        )

    def cell(field: str, row: list[str] = row) -> str:
        index = columns.get(field)
        return row[index] if index is not None and index < len(row) else ""

    if len(row) > len(header) and any(cell.strip() for cell in row[len(header) :]):
        long_rows.append(line)
    try:
        name, surname, by_comma = _name_of(cell, "name" not in columns, surname_first)
        club = clean(cell("club"), "club") or None
    except ValueError as err:
        raise PlayersCsvError(
            N_("{where}: {error}"),
            where=where,
            error=err if isinstance(err, KitError) else str(err),
        ) from None
    if not name:
        raise PlayersCsvError(N_("{where}: name is empty"), where=where)
    if len(name) > MAX_NAME:
        raise PlayersCsvError(
            N_("{where}: name is longer than {most} characters"), where=where, most=MAX_NAME
        )
    rating = parse_rating(cell("rating"), where)
    try:
        number = league_number(cell("league"))
    except LeagueNumberError as err:
        raise PlayersCsvError(N_("{where}: {error}"), where=where, error=err) from None
    try:
        gender = gender_of(cell("gender"))
    except GenderValueError as err:
        raise PlayersCsvError(N_("{where}: {error}"), where=where, error=err) from None
    minor = _yes(cell("minor"), "minor", where)
    consent = minor and _yes(cell("consent"), "consent", where)
    key = player_key(name, club)
    if key in seen:
        raise PlayersCsvError(
            N_("{where}: duplicate player {who} (already on line {line})"),
            where=where,
            who=who_of(name, club),
            line=seen[key],
        )
    if number in seen:
        raise PlayersCsvError(
            N_("{where}: league number {number} is already on line {line}"),
            where=where, number=number, line=seen[number],
        )
    seen[key] = line
    if number:
        seen[number] = line
    if by_comma:
        comma.append(line)
    return CsvPlayer(line, name, club, rating, surname, tuple(row), number, gender,
                     minor=minor, consent=consent)


def _yes(text: str, field: str, where: Phrase) -> bool:
    """A yes/no cell (``tak``/``nie``, ``x``/empty, ``1``/``0``)."""
    folded = match_key(text).strip()
    if folded in YES:
        return True
    if folded in NO:
        return False
    raise PlayersCsvError(
        N_("{where}: {field} {text}: write 'yes' or leave it empty"),
        where=where, field=_COLUMN_WORDS[field], text=repr(text.strip()),
    )


def read_players_csv(path: str | Path, encoding: str | None = None) -> CsvImport:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise PlayersCsvError(
            N_("{file}: cannot read the file ({reason})"),
            file=path,
            reason=err.strerror or str(err),
        ) from None
    return parse_players_csv(data, str(path), encoding)


def new_players(
    rows: Iterable[CsvPlayer],
    registered: Mapping[str, Player],
    next_id: Callable[[int], str],
    source: str = "players.csv",
) -> list[Player]:
    """Players to register for ``rows``; a row matching a registered player is an error."""
    known = {player_key(p.name, p.club): p.id for p in registered.values()}
    numbered = {p.league_number: p.id for p in registered.values() if p.league_number}
    out: list[Player] = []
    problems: list[RowProblem] = []
    for offset, row in enumerate(rows):
        pid = known.get(player_key(row.name, row.club))
        if pid is not None:
            problems.append(RowProblem(row.line, row.cells, PlayersCsvError(
                N_("{where}: duplicate player {who} (already registered as {id})"),
                where=_where(source, row.line),
                who=who_of(row.name, row.club),
                id=pid,
            )))
            continue
        if row.league_number in numbered:
            problems.append(RowProblem(row.line, row.cells, PlayersCsvError(
                N_("{where}: league number {number} is already registered as {id}"),
                where=_where(source, row.line), number=row.league_number,
                id=numbered[row.league_number],
            )))
            continue
        out.append(Player(next_id(offset), row.name, row.club, row.rating,
                          surname=row.surname, league_number=row.league_number,
                          gender=row.gender))
    if problems:
        raise _rows_error(problems)
    return out


def who_of(name: str, club: str | None) -> Phrase:
    """A player as an error names them: 'Anna Nowak' (SP 3), quoted as the reader writes."""
    return Phrase(N_("{name} ({club})"), name=quoted(name), club=club) if club else quoted(name)


def _name_of(
    cell: Callable[[str], str], by_parts: bool, surname_first: bool
) -> tuple[str, str, bool]:
    """(the name given name first, its surname or "", whether it was written "Surname,
    Given") of a row; ValueError for bad text.

    Separate given name and surname columns (``by_parts``) keep the surname as written;
    a name written "Kowalski, Jan" takes what is before the comma as the surname; a
    surname-first name column takes its first word as the surname; a name column
    leaves it "" (the last word), unless a surname column beside it (the kit's players
    export) holds the end of the name.
    """
    if by_parts:
        given, surname = clean(cell("first")), clean(cell("last"))
        if bool(given) != bool(surname):  # one part alone is no name to guess the rest of
            raise PlayersCsvError(_ONE_PART[bool(given)], part=given or surname)
        return full_name(given, surname), surname, False
    name, beside = clean(cell("name")), clean(cell("last"))
    if beside and " " in beside and name.endswith(" " + beside):
        return name, beside, False
    before, comma, after = name.partition(",")
    if comma and before.strip() and after.strip():
        surname, given = clean(before), clean(after)
        return full_name(given, surname), surname, True
    if surname_first:
        surname, _, given = name.partition(" ")
        return full_name(given, surname), surname, False
    return name, "", False


_ONE_PART: Final = {
    True: N_("the surname of {part!r} is empty: fill in the surname column (or leave the "
             "row out)"),
    False: N_("the given name of {part!r} is empty: fill in the given-name column (or leave "
              "the row out)"),
}
"""A row under given-name and surname columns with one of them empty, by which is given."""


def _garbled(header: list[str]) -> bool:
    """Whether a header has letters neither English nor Polish (``Imiк``: a Windows-1250
    file read as Windows-1251)."""
    return any(
        c.isalpha() and not c.isascii() and c not in POLISH_LETTERS for h in header for c in h
    )


_COLUMN_WORDS = {
    "name": Phrase(N_("name")),
    "first": Phrase(N_("given name")),
    "last": Phrase(N_("surname")),
    "club": Phrase(N_("club")),
    "rating": Phrase(N_("rating")),
    "league": Phrase(N_("league number")),
    "gender": Phrase(N_("gender")),
    "minor": Phrase(N_("minor")),
    "consent": Phrase(N_("consent")),
}
"""The kinds of column, as a message names them."""


def _columns(
    header: list[str], source: str, line: int, forced: str | None = None
) -> dict[str, int]:
    where = Phrase(N_("{file} line {line} (header)"), file=source, line=line)
    columns: dict[str, int] = {}
    for index, title in enumerate(header):
        key = match_key(title)
        for field, aliases in (
            ("name", NAME_ALIASES | SURNAME_FIRST_ALIASES),
            ("first", FIRST_NAME_ALIASES),
            ("last", LAST_NAME_ALIASES),
            ("club", CLUB_ALIASES),
            ("rating", RATING_ALIASES),
            ("league", LEAGUE_NUMBER_ALIASES),
            ("gender", GENDER_ALIASES),
            ("minor", MINOR_ALIASES),
            ("consent", CONSENT_ALIASES),
        ):
            if key in aliases:
                if field in columns:
                    raise PlayersCsvError(
                        N_("{where}: two {field} columns ({first} and {second})"),
                        where=where,
                        field=_COLUMN_WORDS[field],
                        first=quoted(header[columns[field]].strip()),
                        second=quoted(title.strip()),
                    )
                columns[field] = index
    if "name" not in columns and not ("first" in columns and "last" in columns):
        found: Phrase = joined([quoted(h.strip()) for h in header if h.strip()], ", ")
        if not found:
            found = Phrase(N_("none"))
        if forced is not None and (not columns or _garbled(header)):
            raise PlayersCsvError(
                N_("{where}: no name column (found {found}); name the column 'name' or "
                   "'imię i nazwisko' (or use two columns 'imię' and 'nazwisko'); or the file "
                   "is not {encoding} text: check --encoding, or leave it out to have the "
                   "encoding detected"),
                where=where,
                found=found,
                encoding=Phrase(encoding_label(forced)),
            )
        raise PlayersCsvError(
            N_("{where}: no name column (found {found}); name the column 'name' or "
               "'imię i nazwisko' (or use two columns 'imię' and 'nazwisko')"),
            where=where,
            found=found,
        )
    if "first" in columns and "last" in columns:
        columns.pop("name", None)  # the parts say where the surname starts; a full name not
    else:
        columns.pop("first", None)  # a surname column beside a whole name (the kit's own
        # players export) says where the surname starts in it
    return columns

"""People's names: given name and surname, the one order every list uses, and a name as
the units and screens are sent it (pure).

A player's ``name`` is written as people write it, given name(s) first ("Anna Maria
Nowak-Kowalska"); the surname is its last part. When a players file has separate given
name and surname columns the surname is stored as given; otherwise it is the last word,
and the organizer fixes it where that is wrong ("Jan Maria de Lange"). Every list of
people — find your table, the hub screen's seating, the players list, the season table,
players sharing a place — is sorted by :func:`name_order`: surname, then given name, in
Polish alphabetical order.

Polish order (:func:`collation_key`), as the Polish locale's collation (CLDR) has it:

* letters ``a ą b c ć d e ę f g h i j k l ł m n ń o ó p q r s ś t u v w x y z ź ż``, each
  Polish letter its own place (``Łoś`` after every ``Lis``, ``Żak`` after ``Zyta``);
* other accented letters sort with their base letter (``Müller`` with ``Muller``), and
  only where everything else is equal does the accent come after the plain letter;
* case only decides between otherwise equal names (lower case first);
* spaces, hyphens and apostrophes before digits, digits before letters, Latin letters
  before other scripts.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from tablekit.core.errors import KitError
from tablekit.core.words import N_

POLISH_ALPHABET: Final = "aąbcćdeęfghijklłmnńoópqrsśtuvwxyzźż"
_INDEX: Final = {c: i for i, c in enumerate(POLISH_ALPHABET)}
_EXPAND: Final = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "þ": "th"}
"""Letters with no decomposition, spelled with the letters they sort as."""

_PUNCTUATION, _DIGIT, _LETTER, _OTHER = 0, 1, 2, 3

Level = tuple[int, ...]
CollationKey = tuple[Level, tuple[str, ...], Level, str]
"""(letters, accents, case, the text itself): compared level by level."""
NameKey = tuple[Level, Level, tuple[str, ...], tuple[str, ...], Level, Level, str, str]
"""Surname then given name at each level in turn (see :func:`name_order`)."""


def collation_key(text: str) -> CollationKey:
    """The sort key of ``text`` in Polish alphabetical order (see the module)."""
    primary: list[int] = []
    accents: list[str] = []
    case: list[int] = []
    for char in unicodedata.normalize("NFC", text):
        lower = char.lower()
        upper = 1 if lower != char else 0
        if lower in _INDEX:
            primary.append(_weight(_LETTER, _INDEX[lower]))
            accents.append("")
            case.append(upper)
            continue
        decomposed = unicodedata.normalize("NFD", _EXPAND.get(lower, lower))
        base = "".join(c for c in decomposed if not unicodedata.combining(c))
        marks = "".join(c for c in decomposed if unicodedata.combining(c))
        if base and all(c in _INDEX for c in base):
            for c in base:
                primary.append(_weight(_LETTER, _INDEX[c]))
                accents.append(marks)
                case.append(upper)
            continue
        if char.isspace():
            primary.append(_weight(_PUNCTUATION, 0x20))
        elif char.isdigit():
            primary.append(_weight(_DIGIT, ord(char)))
        elif unicodedata.category(char)[0] in "PS":
            primary.append(_weight(_PUNCTUATION, ord(char)))
        else:
            primary.append(_weight(_OTHER, ord(lower)))
        accents.append("")
        case.append(upper)
    return (tuple(primary), tuple(accents), tuple(case), text)


def _weight(group: int, value: int) -> int:
    return group << 24 | value


def split_name(name: str, surname: str = "") -> tuple[str, str]:
    """(given name, surname) of ``name``: the last word when ``surname`` is empty.

    Never fails, so a display name shortened with "…" still sorts by its ``surname``
    (then the whole shortened name stands for the given name).
    """
    name = " ".join(name.split())
    surname = " ".join(surname.split())
    if not surname:
        given, _, last = name.rpartition(" ")
        return given, last
    if name == surname or name.endswith(" " + surname):
        return name[: len(name) - len(surname)].strip(), surname
    return name, surname


class SurnameError(KitError, ValueError):
    """A surname given apart from the name that is not the end of the name."""


def check_surname(name: str, surname: str) -> None:
    """:class:`SurnameError` unless ``surname`` is empty (the last word) or the end of ``name``."""
    if not surname:
        return
    if " ".join(surname.split()) != surname:
        raise SurnameError(
            N_("surname {surname!r} has surrounding or repeated spaces"), surname=surname
        )
    if name != surname and not name.endswith(" " + surname):
        raise SurnameError(
            N_("surname {surname!r} is not the end of the name {name!r}"),
            surname=surname, name=name,
        )


SENT_NAME: Final = 40
"""Characters of a name the units and screens are sent (the protocol's name fields)."""


def sent_name(name: str) -> str:
    """``name`` as the units and screens are sent it: a name longer than
    :data:`SENT_NAME` characters is cut, its end marked "…"."""
    return name if len(name) <= SENT_NAME else name[: SENT_NAME - 1] + "…"


def match_key(text: str) -> str:
    """How two names (or a players file's column titles) are matched: lower case, no
    accents (``ł`` as ``l``), ``_`` as a space, single spaces. A search, a players file's
    columns and the league's people across tournaments all match by it."""
    text = unicodedata.normalize("NFKD", text.replace("ł", "l").replace("Ł", "L"))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.casefold().replace("_", " ").split())


def full_name(given: str, surname: str) -> str:
    """The name as written: given name(s), then the surname."""
    return " ".join(f"{given} {surname}".split())


def name_order(name: str, surname: str = "") -> NameKey:
    """How every list of people is sorted: surname, then given name, Polish order.

    Compared level by level across both parts (all letters first, then accents, then
    case), as a collation compares one string.
    """
    given, last = split_name(name, surname)
    s, g = collation_key(last), collation_key(given)
    return (s[0], g[0], s[1], g[1], s[2], g[2], last, given)

"""The marker of every word a person reads, for the translation catalogs.

``N_("PLAYING")`` returns its text unchanged: it does not translate (the pure core reads
no catalog). It marks the string for gettext's extraction (``./kit catalogs`` runs Babel,
which knows ``N_``), so every word a screen shows is in the catalogs, and the shell that
shows it translates it there (``tablekit.shared.i18n.Words.gettext``).
Only literal strings go inside it; a word built from parts is marked as its template
(``N_("{word} for {time}")``) and filled in afterwards. A message with a number that
needs its plural is marked with :func:`N_plural` (its singular and plural), and the shell
picks the reader's form for the number; a phrase the core builds takes the reader's
:class:`Lookups` (the shell's catalog) and fills itself in.
"""

from __future__ import annotations

from typing import Final, NamedTuple, Protocol


def N_(text: str) -> str:  # noqa: N802 - gettext's conventional name for the marker
    """``text`` itself, marked for extraction into the translation catalogs."""
    return text


class Contextual(NamedTuple):
    """A message with its ``pgettext`` context (the same English words that need different
    translations: the forms of a word about a woman, a man, or without gender)."""

    context: str
    message: str


def NP_(context: str, message: str) -> Contextual:  # noqa: N802 - a marker, as N_
    """The message in its context, marked for extraction (``[tool.babel]`` in
    pyproject.toml names it a keyword with a context, ``NP_:1c,2``); it does not
    translate: the shell that shows it does (``words.pgettext(*message)``)."""
    return Contextual(context, message)


class Plural(NamedTuple):
    """A message with a singular and a plural, in English (``"{n} table"``,
    ``"{n} tables"``): the shell that shows it picks the reader's form for the number
    (``words.ngettext(*message, n)``; Polish has three: 1 stolik, 2 stoliki, 5 stolików)."""

    singular: str
    plural: str


def N_plural(singular: str, plural: str) -> Plural:  # noqa: N802 - a marker, as N_
    """The message with a plural, marked for extraction (``[tool.babel]`` in
    pyproject.toml names it a plural keyword, ``N_plural:1,2``); it does not translate."""
    return Plural(singular, plural)


class Lookups(Protocol):
    """What a phrase built in the core needs of a language's catalog: gettext's lookups
    (:class:`tablekit.shared.i18n.Words` has them; :data:`ENGLISH` is the code's own
    words)."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


class _English:
    """The messages as written in the code: English, with its two forms."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


ENGLISH: Final[Lookups] = _English()
"""The words as the code writes them (English), for a caller with no catalog: the logs."""

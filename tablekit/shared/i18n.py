"""The kit's words in the reader's language: Polish first, English beside it.

Every word a person reads is written in the code in English and marked for gettext's
extraction (``N_`` in the pure core, the methods of :class:`Words` in the shells). The
translations live in standard gettext catalogs, one per language, in the domain
``tablekit``: ``tablekit/locale/<lang>/LC_MESSAGES/tablekit.po`` (what a translator opens
in Poedit) and beside it the compiled ``tablekit.mo`` that this module reads and that the
package installs. ``./kit catalogs`` extracts, updates and compiles them (see
``tests/catalogs.py``); the English catalog translates each message to itself, so an
English wording can be changed in the catalog as well as in the code.

Polish is the default: a program that is not told otherwise speaks Polish.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Final

from tablekit.core.errors import KitError, Phrase, joined
from tablekit.core.gender import Gender, Gendered
from tablekit.core.words import N_

DOMAIN: Final = "tablekit"
"""The gettext domain: the catalogs' file name."""
LANGUAGES: Final = ("pl", "en")
"""The languages the kit speaks, the default first."""
DEFAULT_LANGUAGE: Final = "pl"
LOCALE_DIR: Final = Path(__file__).resolve().parent.parent / "locale"
"""Where the compiled catalogs are: ``<lang>/LC_MESSAGES/tablekit.mo`` under it."""

_NAMES: Final = {"pl": N_("Polish (pl)"), "en": N_("English (en)")}
_ENVIRONMENT: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The variables gettext reads for the language, in its order."""


class LanguageError(KitError, ValueError):
    """A language the kit does not speak, or a catalog missing from the installation."""


def language(name: str) -> str:
    """The kit's code for ``name``: ``pl`` or ``en``, from a code or a locale name
    (``PL``, ``pl_PL.UTF-8``, ``en_GB``).

    Raises :class:`LanguageError` naming the languages there are.
    """
    code = name.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if code not in LANGUAGES:
        raise LanguageError(
            N_("no language {name!r}: the kit speaks {languages}"),
            name=name, languages=joined([Phrase(_NAMES[c]) for c in LANGUAGES], ", "),
        )
    return code


def choose(requested: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``requested`` when given (an option, the event's setting);
    else the first of gettext's variables (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``) that names Polish or English; else Polish.

    A variable naming another language (``de_DE``) or none (``C``, ``POSIX``) is passed
    over: a hall's Pi set up in English or in C still shows Polish unless told. A
    ``requested`` language the kit does not speak raises :class:`LanguageError`.
    """
    if requested is not None:
        return language(requested)
    for variable in _ENVIRONMENT:
        for part in (environ or {}).get(variable, "").split(":"):
            try:
                return language(part)
            except LanguageError:
                continue
    return DEFAULT_LANGUAGE


def asked_language(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language a command line asks for before it is parsed (its help is written in
    it): the last ``--lang`` given that the kit speaks, before or after a subcommand, else
    :func:`choose`'s. A language the kit does not speak counts as not asked: the parser
    then refuses it."""
    asked = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        given = None
        if arg == "--lang" and i + 1 < len(argv):
            given = argv[i + 1]
        elif arg.startswith("--lang="):
            given = arg.split("=", 1)[1]
        if given is not None:
            try:
                asked = language(given)
            except LanguageError:
                continue
    return choose(asked, environ)


class Words:
    """The catalog of one language: gettext's lookups, each returning the message in it.

    The methods' names are gettext's, so Babel's extraction finds every message given to
    them as a literal (``words.ngettext("{n} table", "{n} tables", n)``); a message the
    catalog lacks comes back as written (the tests make sure none lacks Polish).
    """

    def __init__(self, code: str, catalog: gettext.GNUTranslations) -> None:
        self.language = code
        self._catalog = catalog

    def gettext(self, message: str) -> str:
        """``message`` in this language."""
        return self._catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form for ``n`` of a message with a plural (Polish has three: 1 stolik,
        2 stoliki, 5 stolików); the caller fills the number in (``.format(n=n)``)."""
        return self._catalog.ngettext(singular, plural, n)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        """:meth:`ngettext` where the same English words need different translations."""
        return self._catalog.npgettext(context, singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in this language where the same English word needs different
        translations (``context`` tells them apart)."""
        return self._catalog.pgettext(context, message)

    def gendered(self, message: Gendered, gender: Gender) -> str:
        """The form of a word or sentence about one person that agrees with their
        ``gender`` (:mod:`tablekit.core.gender`): *obecna*, *obecny*, or without gender."""
        return self._catalog.pgettext(*message.of(gender))


def catalog_path(code: str) -> Path:
    """The compiled catalog of a language (:data:`LANGUAGES`)."""
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"


def words(code: str = DEFAULT_LANGUAGE) -> Words:
    """The catalog of ``code`` (``pl`` or ``en``, or a locale name), read once.

    Raises :class:`LanguageError` for another language, or when the installation lacks
    the compiled catalog (the package always carries both).
    """
    return _read_once(language(code))


def load(code: str) -> Words:
    """The catalog of ``code`` (``pl`` or ``en``) read from its file now; see :func:`words`."""
    path = catalog_path(code)
    try:
        with path.open("rb") as file:
            catalog = gettext.GNUTranslations(file)
    except FileNotFoundError:
        raise LanguageError(
            N_("the {language} catalog {file} is missing: the kit was installed without its "
               "message catalogs (reinstall it)"),
            language=Phrase(_NAMES[code]), file=path,
        ) from None
    return Words(code, catalog)


_read_once = cache(load)

"""The root of every error the kit raises on purpose.

Each module keeps its own specific exceptions (a score that does not add up, a config
field of the wrong type, a broker that will not start); they all derive from
:class:`KitError`, so a front end catches the kit's errors once and shows their message,
while a bug (any other exception) still surfaces as one.

A message is written as an English template marked for the catalogs, with its values
named beside it, so the front end can show it in the reader's language::

    raise ScoreError(N_("seat {seat}: the racks add up to {total}, not 0"), seat="A", total=3)

``str(err)`` is the English (what a log shows); :meth:`KitError.message` the reader's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from string import Formatter

from tablekit.core.words import N_, Contextual


class KitError(Exception):
    """An error the kit raises on purpose, with a message that names what is wrong.

    ``template`` is the message in English, marked ``N_`` where it is raised; ``values``
    fill its ``{fields}``. A value that is itself a :class:`KitError` (the cause a message
    wraps: ``N_("{file}: {error}")``) or a :class:`Phrase` (what was being done) is shown
    in the reader's language too.
    """

    def __init__(self, template: str = "", /, **values: object) -> None:
        super().__init__(template.format(**values) if values else template)
        self.template = template
        self.values = values

    def message(self, gettext: Callable[[str], str]) -> str:
        """The message in the language of ``gettext`` (a catalog's lookup,
        :meth:`tablekit.shared.i18n.Words.gettext`)."""
        if not self.template:
            return str(self)
        return _said(self.template, self.values, gettext)


class Phrase:
    """Words a message names among its values, translated with it: what was being done
    (``Phrase(N_("check-in of {player!r}"), player="p7")`` in
    ``N_("{what}: the event is finished")``), or a word chosen by a case. ``str()`` is the
    English."""

    __slots__ = ("context", "template", "values")

    def __init__(self, template: str, /, **values: object) -> None:
        self.template = template
        self.values = values
        self.context: str | None = None

    @classmethod
    def in_context(cls, message: Contextual, /, **values: object) -> Phrase:
        """The words of ``message`` (marked ``NP_``), translated in its context: the same
        English words translated apart (``NP_("stage", "final")``)."""
        phrase = cls(message.message, **values)
        phrase.context = message.context
        return phrase

    def __str__(self) -> str:
        return self.template.format(**self.values) if self.values else self.template

    def __repr__(self) -> str:
        return f"Phrase({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Phrase):
            return NotImplemented
        return (self.context, self.template, self.values) == (
            other.context, other.template, other.values
        )

    def __hash__(self) -> int:
        return hash(str(self))

    def __bool__(self) -> bool:
        """False for the empty phrase (nothing said)."""
        return bool(self.template)

    def message(self, gettext: Callable[[str], str]) -> str:
        """The words in the language of ``gettext``."""
        return _said(self.template, self.values, gettext, self.context)


def joined(parts: Sequence[object], separator: str) -> Phrase:
    """``parts`` (phrases, or plain values) one after another with ``separator`` between:
    a list a message names, each part in the reader's language."""
    template = separator.join(f"{{p{i}}}" for i in range(len(parts)))
    return Phrase(template, **{f"p{i}": part for i, part in enumerate(parts)})


def quoted(value: object) -> Phrase:
    """``value`` between quotes as the reader's language writes them: ``'Anna'`` in
    English, „Anna” in Polish (a name or a text a person typed, shown back to them)."""
    return Phrase(N_("'{value}'"), value=value)


def phrase_of(text: str, templates: Iterable[str]) -> Phrase | None:
    """The words ``text`` was made of, read back from the English: the first of
    ``templates`` that ``text`` fits, with its values as written (a reason stored as
    English long ago, shown now in the reader's language); None if none fits. A value
    the English wrote in quotes (``{value!r}``, :func:`quoted`) is quoted again in the
    reader's language."""
    for template in templates:
        found = re.fullmatch(_pattern(template), text, re.DOTALL)
        if found is not None:
            reprs = {name for _, name, _, conversion in Formatter().parse(template)
                     if conversion == "r"}
            return Phrase(
                template, **{k: _read_back(v, k in reprs) for k, v in found.groupdict().items()}
            )
    return None


def _read_back(value: str, in_repr: bool) -> object:
    """A value read back from English: a quoted one without its quotes (a ``{value!r}``
    quotes it again; a plain field as :func:`quoted`), any other as written."""
    inner = value[1:-1] if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"" else None
    if inner is None:
        return _AsWritten(value)
    return inner if in_repr else quoted(_AsWritten(inner))


class _AsWritten(str):
    """A value read back from a message: shown as it was written, ``{value!r}`` too."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


_FIELD = re.compile(r"\\\{(\w+)(?:![rsa])?\\\}")
"""A ``{field}`` or ``{field!r}`` of a template after :func:`re.escape`."""


@cache
def _pattern(template: str) -> str:
    seen: set[str] = set()

    def group(match: re.Match[str]) -> str:
        name = match[1]
        if name in seen:
            return f"(?P={name})"
        seen.add(name)
        return f"(?P<{name}>.+?)"

    return _FIELD.sub(group, re.escape(template))


_NUMBER = re.compile(r"[-+−]?\d+([.,]\d+)?")


def _said(
    template: str,
    values: dict[str, object],
    gettext: Callable[[str], str],
    context: str | None = None,
) -> str:
    if not template:
        return ""  # gettext("") is the catalog's header
    if not values:
        return _looked_up(template, gettext, context)
    translated = {
        name: value.message(gettext) if isinstance(value, KitError | Phrase) else value
        for name, value in values.items()
    }
    said = _looked_up(template, gettext, context)
    for name, value in translated.items():  # a number is never in quotes: „{n}” is n
        if isinstance(value, int | float) or (
            isinstance(value, str) and _NUMBER.fullmatch(value)
        ):
            said = said.replace(f"„{{{name}}}”", f"{{{name}}}")
    return said.format(**translated)


def _looked_up(template: str, gettext: Callable[[str], str], context: str | None) -> str:
    """``template`` in the language of ``gettext``; with a ``context``, through gettext's
    own key for it (the template as written where the catalog lacks it)."""
    if context is None:
        return gettext(template)
    found = gettext(f"{context}\x04{template}")
    return template if "\x04" in found else found

"""A line the table's display shows (why a key was refused, what the hub said), kept as
its English template and its values, so the display says it in the reader's language.

The unit's parts that decide what to say (the controls, the result entry, the loop) do not
know the language; they write a :class:`Note` with the message marked for the catalogs,
``Note.of(N_("seat {seat}: not at this table"), seat="B")``, and the display says it with
the catalog of the moment (:meth:`Note.say`), so a language switched mid-game changes the
line on screen too. A kit error or a :class:`~tablekit.core.errors.Phrase` becomes a note
as it is (:meth:`Note.of_words`), its template and its values. A note is a msgspec value
where a :class:`~tablekit.core.errors.Phrase` is not: the result entry's note is journaled
with the entry and said again after a restart.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from tablekit.core.errors import KitError, Phrase

Value = str | int | float


class Note(msgspec.Struct, frozen=True, omit_defaults=True):
    """A message in English, marked for the catalogs, with the values of its ``{fields}``
    (a value may be a note of its own); the empty note says nothing."""

    template: str = ""
    values: dict[str, Value | Note] = msgspec.field(default_factory=dict)

    @classmethod
    def of(cls, template: str, /, **values: Value | Note) -> Note:
        """The note of ``template`` (marked ``N_`` where it is written), filled by ``values``."""
        return cls(template, values)

    @classmethod
    def of_words(cls, said: KitError | Phrase) -> Note:
        """What an error or a phrase says, as a note (what it names among its values that
        is itself an error or a phrase, as a note of its own)."""
        if not said.template:
            return cls(str(said))
        values: dict[str, Value | Note] = {}
        for name, value in said.values.items():
            if isinstance(value, KitError | Phrase):
                values[name] = cls.of_words(value)
            elif isinstance(value, bool) or not isinstance(value, Value):
                values[name] = str(value)
            else:
                values[name] = value
        return cls(said.template, values)

    def __bool__(self) -> bool:
        return bool(self.template)

    def say(self, gettext: Callable[[str], str]) -> str:
        """The note in the language of ``gettext`` (a catalog's lookup)."""
        if not self.template:
            return ""
        if not self.values:
            return gettext(self.template)
        values = {
            name: value.say(gettext) if isinstance(value, Note) else value
            for name, value in self.values.items()
        }
        return gettext(self.template).format(**values)

    def __str__(self) -> str:
        """The note in English (the logs, the journal's readers)."""
        return self.say(str)


NOTHING: Note = Note()
"""The empty note: nothing to say."""

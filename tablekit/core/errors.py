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

from collections.abc import Callable


class KitError(Exception):
    """An error the kit raises on purpose, with a message that names what is wrong.

    ``template`` is the message in English, marked ``N_`` where it is raised; ``values``
    fill its ``{fields}``. A value that is itself a :class:`KitError` (the cause a message
    wraps: ``N_("{file}: {error}")``) is shown in the reader's language too.
    """

    def __init__(self, template: str = "", /, **values: object) -> None:
        super().__init__(template.format(**values) if values else template)
        self.template = template
        self.values = values

    def message(self, gettext: Callable[[str], str]) -> str:
        """The message in the language of ``gettext`` (a catalog's lookup,
        :meth:`tablekit.shared.i18n.Words.gettext`)."""
        if not self.values:
            return gettext(self.template) if self.template else str(self)
        values = {
            name: value.message(gettext) if isinstance(value, KitError) else value
            for name, value in self.values.items()
        }
        return gettext(self.template).format(**values)

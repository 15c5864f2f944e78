"""The marker of every word a person reads, for the translation catalogs to come.

``N_("PLAYING")`` returns its text unchanged: it does not translate. It marks the string
for gettext's extraction (``xgettext --keyword=N_``), so the Polish-first work (issue 12)
finds every word a screen shows in one pass and translates them where they are shown.
Only literal strings go inside it; a word built from parts is marked as its template
(``N_("{word} for {time}")``) and filled in afterwards.
"""

from __future__ import annotations


def N_(text: str) -> str:  # noqa: N802 - gettext's conventional name for the marker
    """``text`` itself, marked for extraction into the translation catalogs."""
    return text

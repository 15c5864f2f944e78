"""The marker of every word a person reads, for the translation catalogs.

``N_("PLAYING")`` returns its text unchanged: it does not translate (the pure core reads
no catalog). It marks the string for gettext's extraction (``./kit catalogs`` runs Babel,
which knows ``N_``), so every word a screen shows is in the catalogs, and the shell that
shows it translates it there (``tablekit.shared.i18n.Words.gettext``).
Only literal strings go inside it; a word built from parts is marked as its template
(``N_("{word} for {time}")``) and filled in afterwards.
"""

from __future__ import annotations


def N_(text: str) -> str:  # noqa: N802 - gettext's conventional name for the marker
    """``text`` itself, marked for extraction into the translation catalogs."""
    return text

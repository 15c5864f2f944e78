"""Players' names shortened to fit a column, never so that two players look the same.

A name is written given name(s) first, its surname last (:mod:`tablekit.core.names`).
It is shown whole when it fits. Otherwise it takes the first of its shorter forms
(:func:`forms`, most telling first) that fits the column and that no other name on the
same page could also be shortened to (:class:`PageNames`): the given names cut to an
initial before the surname ("A. Kowalska"), with as many of their letters as tell two
players apart ("Ann. Nowak" beside "Ant. Nowak"), then the surname cut
("A. Brzęczyszczyk…"). Only when no form that fits is unique (two players of the same
name, a column a few letters wide) does the most telling one that fits stand. Pure:
the width test is the caller's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


def forms(name: str) -> list[str]:
    """``name`` and its shorter forms, most telling first: middle names to initials, then
    dropped ("Anna Maria Nowak" → "Anna M. Nowak" → "Anna Nowak"), the given name to its
    initial and then to more of its letters, which tell "Ann. Nowak" from "Ant. Nowak"
    ("A. Nowak", "An. Nowak", …), then the surname cut after the given name's first
    letters ("A. Nowa…", "An. Nowa…") or alone ("Nowa…")."""
    words = name.split()
    if not words:
        return [name]
    surname, given = words[-1], words[:-1]
    first = given[0] if given else ""
    found = [name]
    if len(given) > 1:
        found.append(" ".join([first, *(f"{g[0]}." for g in given[1:]), surname]))
        found.append(f"{first} {surname}")
    prefixes = [first[:k] for k in range(1, len(first)) if first[k - 1].isalpha()]
    found += [f"{prefix}. {surname}" for prefix in prefixes]
    for j in range(len(surname) - 1, 0, -1):
        stem = surname[:j].rstrip("-' ")
        if stem:
            found += [f"{prefix}. {stem}…" for prefix in prefixes]
            found.append(f"{stem}…")
    return list(dict.fromkeys(found))


class PageNames:
    """The names on one page and every form each can take: which forms would be
    ambiguous there."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self.names = frozenset(names)
        self._owners: dict[str, set[str]] = {}
        for name in self.names:
            for form in forms(name):
                self._owners.setdefault(form, set()).add(name)

    def ambiguous(self, form: str, name: str) -> bool:
        """Another name on the page could be shown as ``form`` too."""
        return bool(self._owners.get(form, set()) - {name})

    def shortened(self, name: str, fits: Callable[[str], bool]) -> str:
        """``name`` if it fits; else its most telling form that fits and is unique on the
        page; else the most telling form that fits; "" when none does."""
        if fits(name):
            return name
        fallback = ""
        for form in forms(name)[1:]:
            if fits(form):
                if not self.ambiguous(form, name):
                    return form
                fallback = fallback or form
        return fallback

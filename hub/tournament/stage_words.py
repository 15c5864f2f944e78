"""A stage's (or a group's) name as a person reads it, in the rule books' words: the names
the presets give (``round-2``, ``final``, ``top-15``) as words to translate, so a message
that names a stage says *runda 2*, *finał*, *TOP 15* in Polish; English keeps the names
as they are (what ``--stage`` takes and the English CSV files carry). A stage or group the
organizer named in a format file of their own is shown as they named it."""

from __future__ import annotations

import re
from typing import Final

from tablekit.core.errors import Phrase
from tablekit.core.words import N_, NP_, Contextual

NAMED: Final[dict[str, Contextual]] = {
    # Translators: the name of a stage or group the presets make (docs/glossary.md)
    "all": NP_("stage", "all"),
    "tables": NP_("stage", "tables"),
    "placement": NP_("stage", "placement"),
    "semifinal": NP_("stage", "semifinal"),
    "final": NP_("stage", "final"),
    "finals": NP_("stage", "finals"),
    "consolation": NP_("stage", "consolation"),
}
"""The names the presets give their stages and groups (hub/tournament/presets.py)."""
NUMBERED: Final[dict[str, Contextual]] = {
    "round": NP_("stage", "round-{n}"),
    "elimination": NP_("stage", "elimination-{n}"),
    "top": NP_("stage", "top-{n}"),
}
_NUMBERED: Final = re.compile(r"(round|elimination|top)-(\d+)")


def stage_phrase(name: str) -> Phrase:
    """``name`` as words in the reader's language: ``round-2`` → *runda 2*, ``final`` →
    *finał*; a name the organizer chose as written."""
    known = NAMED.get(name)
    if known is not None:
        return Phrase.in_context(known)
    numbered = _NUMBERED.fullmatch(name)
    if numbered is None:
        return Phrase("{name}", name=name)
    return Phrase.in_context(NUMBERED[numbered.group(1)], n=int(numbered.group(2)))


AFTER_NUMBERED: Final[dict[str, Contextual]] = {
    # Translators: the standings after a stage the presets make, as a sentence says it
    # (Polish declines the stage's name: "po 3. rundzie eliminacji")
    "round": NP_("after stage", "after round-{n}"),
    "elimination": NP_("after stage", "after elimination-{n}"),
    "top": NP_("after stage", "after top-{n}"),
}


def after_stage_phrase(name: str) -> Phrase:
    """*After* stage ``name`` in the reader's language: ``elimination-3`` → *po 3. rundzie
    eliminacji*; another stage → *po etapie: półfinał*."""
    numbered = _NUMBERED.fullmatch(name)
    if numbered is None:
        return Phrase(N_("after {stage}"), stage=stage_phrase(name))
    return Phrase.in_context(AFTER_NUMBERED[numbered.group(1)], n=int(numbered.group(2)))

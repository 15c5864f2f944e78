"""The words the exports put in their cells: the names of the stages and groups the
presets make, how a game ended, where a result came from, a player's status, sanctions,
titles and how a tie was decided, each in the reader's language (the catalogs' words,
docs/glossary.md).

A stage or group the organizer named in a format file of their own is shown as they
named it: only the names the kit's presets give are its words.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Final, TypeVar

from hub.competition import ResultSource
from hub.tournament import EventPhase, Player, SanctionKind, TieHow
from hub.tournament.ranking import UNDECIDED_TITLE
from hub.tournament.stage_words import stage_phrase
from tablekit.core.gender import Gender, Gendered, gendered
from tablekit.core.scoring import GameEnding, Opening, RackReport
from tablekit.core.words import N_, NP_
from tablekit.shared.i18n import Words

_K = TypeVar("_K", bound=str)


def stage_label(name: str, words: Words) -> str:
    """A stage's (or a group's) name as a person reads it: ``round-2`` → ``runda 2``,
    ``elimination-1`` → ``runda eliminacyjna 1``, ``final`` → ``finał``; a name the
    organizer chose is kept as it is. English keeps the presets' names as they are
    (``round-2``: what ``--stage`` takes and scripts read in the CSV files)."""
    return stage_phrase(name).message(words.gettext)


def stage_title(name: str, number: int, words: Words) -> str:
    """A stage as a heading names it: *Runda 2* for the rounds, else its number and the
    rule books' name, *Etap 3 (finał)*."""
    if name == f"round-{number}":
        return words.gettext("Round {n}").format(n=number)
    return words.gettext("Stage {n} ({name})").format(n=number, name=stage_label(name, words))


# Translators: the titles of a final ranking, each said of a woman, of a man, and without
# gender (the player's gender unknown: the title as a noun); docs/glossary.md
TITLES: Final[Mapping[str, Gendered]] = {
    "champion": gendered(
        NP_("said of a woman", "champion"),
        NP_("said of a man", "champion"),
        NP_("said without gender", "champion"),
    ),
    "school champion": gendered(
        NP_("said of a woman", "school champion"),
        NP_("said of a man", "school champion"),
        NP_("said without gender", "school champion"),
    ),
    "vice-champion": gendered(
        NP_("said of a woman", "vice-champion"),
        NP_("said of a man", "vice-champion"),
        NP_("said without gender", "vice-champion"),
    ),
    "second vice-champion": gendered(
        NP_("said of a woman", "second vice-champion"),
        NP_("said of a man", "second vice-champion"),
        NP_("said without gender", "second vice-champion"),
    ),
    "winner": gendered(
        NP_("said of a woman", "winner"),
        NP_("said of a man", "winner"),
        NP_("said without gender", "winner"),
    ),
}
"""The titles the presets give (``champion``: *mistrzyni*, *mistrz*, *mistrzostwo*)."""


def title_label(title: str, words: Words, gender: Gender = Gender.NEUTRAL) -> str:
    """A title of the final ranking (one of :data:`TITLES`) in the reader's language,
    agreeing with the ``gender`` of the player who holds it, or an undecided tie's
    :data:`~hub.tournament.ranking.UNDECIDED_TITLE`; a title the organizer's format names
    otherwise is kept as it is."""
    if title == UNDECIDED_TITLE:  # no holder yet: words without gender
        return words.gettext(UNDECIDED_TITLE)
    forms = TITLES.get(title)
    return title if forms is None else words.gendered(forms, gender)


def csv_value(code: enum.StrEnum | str, words: Words) -> str:
    """A CSV cell that is a code of the kit (how a game ended, an opening, where a result
    came from, a sanction, how a tie was decided, a round's state) in the reader's words;
    English keeps the code itself, as scripts read it."""
    values: dict[object, str] = {
        # Translators: a value in a CSV file (English keeps the code scripts read)
        GameEnding.WENT_OUT: words.pgettext("CSV value", "went_out"),
        GameEnding.NOBODY_OUT: words.pgettext("CSV value", "nobody_out"),
        Opening.OPENED: words.pgettext("CSV value", "opened"),
        Opening.NOT_OPENED: words.pgettext("CSV value", "not_opened"),
        Opening.COULD_HAVE_OPENED: words.pgettext("CSV value", "could_have_opened"),
        Opening.WAIVED: words.pgettext("CSV value", "waived"),
        ResultSource.TABLE: words.pgettext("CSV value", "table"),
        ResultSource.JUDGE: words.pgettext("CSV value", "judge"),
        SanctionKind.WARNING: words.pgettext("CSV value", "warning"),
        SanctionKind.DEDUCTION: words.pgettext("CSV value", "deduction"),
        SanctionKind.DISQUALIFICATION: words.pgettext("CSV value", "disqualification"),
        TieHow.JUDGE: words.pgettext("CSV value", "judge"),
        TieHow.LOT: words.pgettext("CSV value", "lot"),
        TieHow.SHARED: words.pgettext("CSV value", "shared"),
        "closed": words.pgettext("CSV value", "closed"),
    }
    # Keyed by kind too: a StrEnum member equals its text (ResultSource.JUDGE == TieHow.JUDGE).
    kinds = {(type(key), key): value for key, value in values.items()}
    return kinds.get((type(code), code), str(code))


RACK_OPENINGS: Final = {
    # Translators: after the sum of a rack's tiles in a results table (docs/glossary.md)
    Opening.NOT_OPENED: N_("{rack}, never opened"),
    Opening.COULD_HAVE_OPENED: N_("{rack}, could have opened"),
    Opening.WAIVED: N_("{rack}, opening announced"),
}


def rack_words(rack: RackReport, words: Words) -> str:
    """A seat's rack as a results table shows it: ``12 + joker``, ``85, bez wyłożenia``
    (the command line's ``12j``, ``85np`` spelled out)."""
    text = str(rack.tiles)
    if rack.jokers == 1:
        text = words.gettext("{tiles} + joker").format(tiles=rack.tiles)
    elif rack.jokers:  # the game has two jokers
        text = words.gettext("{tiles} + {n} jokers").format(tiles=rack.tiles, n=rack.jokers)
    said = RACK_OPENINGS.get(Opening(rack.opening))
    return text if said is None else words.gettext(said).format(rack=text)


PHASES: Final = {
    EventPhase.REGISTRATION: N_("registration"),
    EventPhase.PLAYING: N_("playing"),
    EventPhase.BETWEEN_ROUNDS: N_("between rounds"),
    EventPhase.FINISHED: N_("finished"),
}


def phase_label(phase: EventPhase, words: Words) -> str:
    """Where the event is (registration, playing, between rounds, finished)."""
    return words.gettext(PHASES[phase])


SANCTIONS: Final = {
    SanctionKind.WARNING: N_("warning"),
    SanctionKind.DEDUCTION: N_("big points deducted"),
    SanctionKind.DISQUALIFICATION: N_("disqualified"),
}
TIES: Final = {
    TieHow.JUDGE: N_("the head judge's decision"),
    TieHow.LOT: N_("a lot the head judge ordered"),
    TieHow.SHARED: N_("the head judge let them share the place"),
}
# Translators: a player's status in the players list, said of a woman, of a man and without
# gender (obecna, obecny, obecność potwierdzona)
STATUSES: Final[Mapping[str, Gendered]] = {
    "disqualified": gendered(
        NP_("said of a woman", "disqualified"),
        NP_("said of a man", "disqualified"),
        NP_("said without gender", "disqualified"),
    ),
    "withdrawn": gendered(
        NP_("said of a woman", "withdrawn"),
        NP_("said of a man", "withdrawn"),
        NP_("said without gender", "withdrawn"),
    ),
    "present": gendered(
        NP_("said of a woman", "present"),
        NP_("said of a man", "present"),
        NP_("said without gender", "present"),
    ),
    "registered": gendered(
        NP_("said of a woman", "registered"),
        NP_("said of a man", "registered"),
        NP_("said without gender", "registered"),
    ),
}


def status_word(status: str, words: Words, gender: Gender) -> str:
    """A player's status (a key of :data:`STATUSES`) agreeing with their ``gender``."""
    return words.gendered(STATUSES[status], gender)


def word(table: Mapping[_K, str], key: _K, words: Words) -> str:
    """``key``'s word in ``table`` (one of the tables above), in the reader's language."""
    return words.gettext(table[key])


_GENDER_WORDS: Final = {
    # Translators: a player's grammatical gender as the organizer reads it
    Gender.FEMALE: NP_("gender", "female"),
    Gender.MALE: NP_("gender", "male"),
    Gender.NEUTRAL: NP_("gender", "without gender"),
}


def gender_word(words: Words, gender: Gender) -> str:
    """A gender as the organizer reads it: *kobieta*, *mężczyzna*, *bez rodzaju*."""
    return words.pgettext(*_GENDER_WORDS[gender])


# Translators: words about one player on the web console's pages, said of a woman, of a man
# and without gender
ABOUT_ONE: Final[Mapping[str, Gendered]] = {
    "of age": gendered(
        NP_("said of a woman", "of age"),
        NP_("said of a man", "of age"),
        NP_("said without gender", "of age"),
    ),
    "minor, no consent yet": gendered(
        NP_("said of a woman", "minor, no consent yet"),
        NP_("said of a man", "minor, no consent yet"),
        NP_("said without gender", "minor, no consent yet"),
    ),
    "minor, consent received": gendered(
        NP_("said of a woman", "minor, consent received"),
        NP_("said of a man", "minor, consent received"),
        NP_("said without gender", "minor, consent received"),
    ),
    "Withdrawn from the event.": gendered(
        NP_("said of a woman", "Withdrawn from the event."),
        NP_("said of a man", "Withdrawn from the event."),
        NP_("said without gender", "Withdrawn from the event."),
    ),
}
"""Words a page says about one player (the key is the English), in the player's form."""


def said_of(player: Player, key: str, words: Words) -> str:
    """The words of :data:`ABOUT_ONE` ``key`` about ``player``, agreeing with them."""
    return words.gendered(ABOUT_ONE[key], player.grammatical_gender)

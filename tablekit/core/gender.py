"""A person's grammatical gender and the words that agree with it (pure).

Polish names a girl or a woman as such: *Mistrzyni*, *Wicemistrzyni*, *obecna*,
*zgłoszona*, *wycofana*, *niepełnoletnia*; a boy or a man *Mistrz*, *obecny*, …
(RULES.md §5). A player's gender is what the players file or the organizer says; where
they say nothing, the kit proposes it from the given name (:func:`propose`: Polish given
names ending in *-a* are female, with known exceptions such as Kuba or Barnaba), and the
organizer changes what is wrong. :attr:`Gender.NEUTRAL` is wording without gender: the
organizer's choice, or a name the kit cannot tell (an initial, *Alex*).

A word or sentence about one person is marked in its three forms, each in its own
``pgettext`` context (:data:`CONTEXTS`), with :func:`gendered`; the shell that shows it
picks the person's form (``Words.gendered``). English translates every form to itself,
so English is unaffected.
"""

from __future__ import annotations

import enum
import unicodedata
from typing import Final, NamedTuple

from tablekit.core.errors import KitError
from tablekit.core.words import N_, NP_, Contextual


class Gender(enum.StrEnum):
    """The grammatical gender the words about a person agree with."""

    FEMALE = "f"
    MALE = "m"
    NEUTRAL = "n"
    """Wording without gender (never *zapisał(a)*)."""


CONTEXTS: Final = {
    Gender.FEMALE: "said of a woman",
    Gender.MALE: "said of a man",
    Gender.NEUTRAL: "said without gender",
}
"""The ``pgettext`` context of each form of a :class:`Gendered` message."""


class GenderedError(KitError, ValueError):
    """A gendered message marked with the wrong contexts (a programming error)."""


class Gendered(NamedTuple):
    """A word or sentence about one person in its three forms (see the module)."""

    female: Contextual
    male: Contextual
    neutral: Contextual

    def of(self, gender: Gender) -> Contextual:
        """The form for ``gender``: its context and message, for ``pgettext``."""
        if gender is Gender.FEMALE:
            return self.female
        return self.male if gender is Gender.MALE else self.neutral

    @property
    def english(self) -> str:
        """The message as the code writes it (every form's, the same)."""
        return self.neutral.message


def gendered(female: Contextual, male: Contextual, neutral: Contextual) -> Gendered:
    """The three forms of one message, each marked ``NP_(context, message)`` with its
    context of :data:`CONTEXTS`; :class:`GenderedError` when the contexts or the
    messages do not match (the catalogs would then lack a form)."""
    forms = Gendered(female, male, neutral)
    for gender in Gender:
        form = forms.of(gender)
        if form.context != CONTEXTS[gender] or form.message != neutral.message:
            raise GenderedError(
                N_("gendered message {message!r}: its {gender} form is marked "
                "{form!r}"), message=neutral.message, gender=gender.name, form=tuple(form),
            )
    return forms


MALE_NAMES_IN_A: Final = frozenset(
    {
        "kuba", "barnaba", "bonawentura", "kosma", "jarema", "dyzma", "zawisza", "sawa",
        "juda", "jehuda", "ilia", "ilja", "nikita", "luca", "misza", "grisza", "kola",
        "wania", "dima", "mustafa", "ezra", "joshua", "bodzęta", "sieciecha",
    }
)
"""Male given names that end in *-a*."""
FEMALE_NAMES_NOT_IN_A: Final = frozenset(
    {
        "beatrycze", "noemi", "nel", "nell", "miriam", "ruth", "rut", "inez", "abigail",
        "karmen", "carmen", "ingrid", "dagmar", "agnes", "alice", "nicole", "nikol",
        "michelle", "rachel", "ester", "lili", "lilly", "zoe", "sophie", "nadine",
        "mercedes", "dolores", "iris", "irys", "marlen", "judit", "elisabeth", "elizabeth",
        "margit", "aurelie", "désirée", "gabrielle", "isabel", "noelle", "chloe", "amelie",
    }
)
"""Female given names that do not end in *-a*."""
EITHER_NAMES: Final = frozenset(
    {"sasza", "sasha", "alex", "aleks", "kim", "robin", "andrea", "nicola", "charlie",
     "eden", "dominique", "noa", "ariel", "jordan", "toni"}
)
"""Given names borne by girls and boys alike: the kit proposes no gender."""


def propose(given_name: str) -> Gender:
    """The gender the kit proposes for a person with ``given_name`` (their first given
    name decides): female for a name ending in *-a* unless it is one of
    :data:`MALE_NAMES_IN_A` (and for :data:`FEMALE_NAMES_NOT_IN_A`), male for another
    name of letters, :attr:`Gender.NEUTRAL` for a name borne by both
    (:data:`EITHER_NAMES`), an initial or no name."""
    words = given_name.split()
    first = unicodedata.normalize("NFC", words[0]).split("-")[0].casefold() if words else ""
    if len(first) < 2 or not first.isalpha() or first in EITHER_NAMES:
        return Gender.NEUTRAL
    if first in FEMALE_NAMES_NOT_IN_A:
        return Gender.FEMALE
    if first.endswith("a"):
        return Gender.MALE if first in MALE_NAMES_IN_A else Gender.FEMALE
    return Gender.MALE


GIVEN: Final = {
    Gender.FEMALE: ("k", "kobieta", "ż", "f", "female", "w", "woman", "girl", "dziewczyna"),
    Gender.MALE: ("m", "mężczyzna", "male", "man", "boy", "chłopiec"),
    Gender.NEUTRAL: ("n", "nieokreślona", "neutral", "-", "–", "?"),
}
"""What a players file or the organizer may write for each gender (any case; a dot
after a letter, ``K.``, is allowed). A blank means: not given, the kit proposes it."""
_GIVEN_INDEX: Final = {text: gender for gender, texts in GIVEN.items() for text in texts}


class GenderValueError(KitError, ValueError):
    """A gender written as none of :data:`GIVEN`'s words."""


def gender_of(text: str) -> Gender | None:
    """The gender ``text`` gives (``K``, ``M``, ``kobieta``, ``N``: see :data:`GIVEN`);
    None for a blank; :class:`GenderValueError` naming what is accepted otherwise."""
    key = unicodedata.normalize("NFC", text).strip().casefold().rstrip(".")
    if not key:
        return None
    gender = _GIVEN_INDEX.get(key)
    if gender is None:
        raise GenderValueError(
            N_("gender {text!r}: write F or K (female), M (male), N (words without gender) "
               "or leave it blank (the kit proposes it from the given name)"),
            text=text.strip(),
        )
    return gender


LETTERS: Final = {
    # Translators: a gender in one letter, in a players list and its file (read back by
    # the import: write K, M and N, the letters it reads)
    Gender.FEMALE: NP_("gender, one letter", "F"),
    Gender.MALE: NP_("gender, one letter", "M"),
    Gender.NEUTRAL: NP_("gender, one letter", "N"),
}
"""How a list or a players file writes a gender, which :func:`gender_of` reads back."""

"""Who is who across a season's tournaments (pure: no I/O).

Each tournament registers its own players (``P1``, ``P2`` … in its own file); the
season needs one person behind the entries of different towns. The rule, in order:

1. A **league number** (the number the league gives a player, on the players list)
   is the person: every entry with the same number is one person, and two different
   numbers are two people.
2. Otherwise a **normalized-name match** (case, Polish letters and spaces ignored:
   "Łukasz  Nowak" = "lukasz nowak") is only a *question*: the entry counts as a person
   of its own until the league organizer answers it — the same person as that earlier
   entry, or somebody else. Nothing is merged silently, and a question answered stays
   answered (the decision is recorded with who and when).

Entries are taken in the order of their tournaments (when each was created), players
by id, so the same tournaments and the same decisions give the same people wherever
they are folded: at the central league service and over event files with
``rummikub season table``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import msgspec

from tablekit.core.errors import KitError
from tablekit.core.names import match_key
from tablekit.core.words import N_


class IdentityError(KitError, ValueError):
    """A decision that cannot be taken (an unknown entry, two entries of one tournament)."""


def tournament_key(created: bytes) -> str:
    """A tournament's key: a digest of the record that created it, so the central and a
    copy of the event file name it alike (whatever the venue or the file is called)."""
    return hashlib.sha256(created).hexdigest()[:12]


@dataclass(frozen=True)
class Entry:
    """One player of one tournament."""

    tournament: str
    """:func:`tournament_key` of the player's tournament."""
    player: str
    """The player's id in that tournament."""
    name: str
    club: str | None = None
    surname: str = ""
    number: str = ""
    """The league number ("" when the players list gave none)."""

    @property
    def ref(self) -> str:
        return f"{self.tournament}/{self.player}"


class Decision(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The league organizer's answer to a name match: ``entry`` is the same person as
    ``same_as`` (an earlier entry's ref), or, with ``same_as`` empty, nobody of the
    earlier entries of that name."""

    entry: str
    same_as: str = ""
    by: str = ""
    at: float = 0.0


@dataclass(frozen=True)
class Question:
    """A name match waiting for the league organizer: is ``entry`` one of ``candidates``
    (each the earliest entry of a person with the same name)?"""

    entry: Entry
    candidates: tuple[Entry, ...]


@dataclass(frozen=True)
class Identities:
    """Every entry's person (a person's id: ``nr <number>`` for a numbered person, else
    the ref of its earliest entry) and the questions still open."""

    person_of: Mapping[str, str]
    entries: Mapping[str, Entry]
    questions: tuple[Question, ...]

    def person(self, entry: Entry) -> str:
        return self.person_of[entry.ref]

    def members(self, person: str) -> list[Entry]:
        """``person``'s entries, earliest first."""
        return [self.entries[ref] for ref, who in self.person_of.items() if who == person]


class _People:
    """Entries joined into people (union-find), each person knowing its tournaments and
    league number; a person's root is its earliest entry."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.order = {e.ref: i for i, e in enumerate(entries)}
        self.parent = {e.ref: e.ref for e in entries}
        self.tournaments = {e.ref: {e.tournament} for e in entries}
        self.number = {e.ref: e.number for e in entries}

    def root(self, ref: str) -> str:
        while self.parent[ref] != ref:
            ref = self.parent[ref]
        return ref

    def join(self, a: str, b: str) -> None:
        ra, rb = self.root(a), self.root(b)
        if ra == rb:
            return
        first, second = sorted((ra, rb), key=self.order.__getitem__)
        self.parent[second] = first
        self.tournaments[first] |= self.tournaments[second]
        self.number[first] = self.number[first] or self.number[second]

    def could_be(self, a: str, b: str) -> bool:
        """Whether the people of ``a`` and ``b`` may be one: not one already, never in
        the same tournament, no two different league numbers."""
        ra, rb = self.root(a), self.root(b)
        if ra == rb or self.tournaments[ra] & self.tournaments[rb]:
            return False
        na, nb = self.number[ra], self.number[rb]
        return not (na and nb and na != nb)


def resolve(entries: Sequence[Entry], decisions: Iterable[Decision] = ()) -> Identities:
    """The people behind ``entries`` (in tournament order) under ``decisions``.

    A decision naming an entry that is not in ``entries`` (yet) is left aside: it
    applies once both are there.
    """
    by_ref = {e.ref: e for e in entries}
    answered = {d.entry: d for d in decisions}
    people = _People(entries)
    by_number: dict[str, str] = {}
    questions: list[Question] = []
    for i, entry in enumerate(entries):
        if entry.number:
            earlier = by_number.setdefault(entry.number, entry.ref)
            if people.could_be(earlier, entry.ref):
                people.join(earlier, entry.ref)
        decision = answered.get(entry.ref)
        if decision is not None and decision.same_as == "":
            continue
        if decision is not None and people.order.get(decision.same_as, i) < i:
            if people.could_be(decision.same_as, entry.ref):
                people.join(decision.same_as, entry.ref)
            continue
        key = match_key(entry.name)
        candidates: list[str] = []
        for other in entries[:i]:
            top = people.root(other.ref)
            if top not in candidates and match_key(other.name) == key and people.could_be(
                top, entry.ref
            ):
                candidates.append(top)
        if candidates:
            questions.append(Question(entry, tuple(by_ref[c] for c in candidates)))
    person_of: dict[str, str] = {}
    for entry in entries:
        top = people.root(entry.ref)
        number = people.number[top]
        person_of[entry.ref] = f"nr {number}" if number else top
    return Identities(person_of, by_ref, tuple(questions))


def check_decision(identities: Identities, decision: Decision) -> None:
    """IdentityError unless ``decision`` answers an open question with one of its
    candidates (or with "somebody else")."""
    question = next((q for q in identities.questions if q.entry.ref == decision.entry), None)
    if question is None:
        raise IdentityError(
            N_("{entry}: no open question about this player (the same name as an earlier "
               "player, not yet answered)"),
            entry=decision.entry,
        )
    if decision.same_as and decision.same_as not in {c.ref for c in question.candidates}:
        raise IdentityError(
            N_("{entry}: {same_as} is not one of the earlier players of that name ({refs})"),
            entry=decision.entry,
            same_as=decision.same_as,
            refs=", ".join(c.ref for c in question.candidates),
        )


decisions_decoder: msgspec.json.Decoder[list[Decision]] = msgspec.json.Decoder(list[Decision])


def decisions_json(decisions: Iterable[Decision]) -> bytes:
    """The decisions as a file (what ``season table --identities`` reads)."""
    return msgspec.json.format(msgspec.json.encode(list(decisions)), indent=1) + b"\n"


def people_names(identities: Identities) -> dict[str, Entry]:
    """Each person's latest entry (the name and club the season shows)."""
    latest: dict[str, Entry] = {}
    for ref, person in identities.person_of.items():
        latest[person] = identities.entries[ref]
    return latest


def by_person(
    identities: Identities, points: Mapping[str, Mapping[str, int]]
) -> list[dict[str, int]]:
    """Each tournament's points (tournament key → player id → points, in order) keyed
    by person instead of player id."""
    out = []
    for tournament, players in points.items():
        out.append(
            {identities.person_of[f"{tournament}/{pid}"]: pts for pid, pts in players.items()}
        )
    return out

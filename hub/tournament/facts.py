"""The facts an event is folded from, and their JSON (pure: no I/O, no clock).

The hub stores :data:`Fact` values as events and rebuilds
:class:`~hub.tournament.progress.EventState` from them after a restart with
:meth:`~hub.tournament.progress.EventState.replay`. Fact types (msgspec Structs, tagged
by the ``fact`` field in JSON):

* :class:`PlayerRegistered` — a player joins the registration list (any time before the
  end; a walk-in during the event is registered, then :class:`PlayerLateArrived`).
* :class:`PlayerCheckedIn` — a registered player is present before the first draw.
  Only present players are drawn; registered players who never check in are ignored.
* :class:`PlayerLateArrived` — a registered player turns up after the first draw; they
  join the next stage whose entry is "everyone" (later selections by earlier results
  cannot include someone who did not play those results).
* :class:`PlayerWithdrawn` — leaves the event; takes effect at the next draw (results
  of the round being played are still expected). Withdrawn players are never selected
  again; in the final ranking they stay in the block of the last stage they played.
* :class:`SeedsDeclared` — players to keep at different first-stage tables (league
  seeding, best first); without it the highest-rated present players (``Player.rating``)
  are seeded; with no ratings at all the draw is unseeded.
* :class:`RoundSeated` — the next stage was drawn with ``seed``. The recorded tables are
  what was played, so replay trusts them (a later hub version with a different draw
  still loads the event); :meth:`~hub.tournament.progress.EventState.audit_draw`
  recomputes the draw from the seed to audit it (:class:`SeatingMismatchError` when the
  tables differ).
* :class:`GameRecorded` — one game's result at one table, per player ``(big, small)``.
  Recording the same game again replaces it (a correction; who/why is the hub's record).
  A result may be recorded or corrected for any drawn stage at any time: an earlier
  stage's standings change, the stages drawn since keep their recorded tables (the hub
  shows what a correction changes before it is stored).
* :class:`RoundClosed` — the stage's results are complete; the next stage may be drawn.
* :class:`RoundUndone` — the latest draw is taken back (before any of its results): the
  stage is drawn again later, as if it had never been.
* :class:`PlayerSanctioned` — a judge's sanction (002 §3, RULES.md §3.5): a warning
  (recorded, no points), a deduction of big points (taken off the player's total in the
  stage it was given in, wherever that stage's games count) or a disqualification (the
  player is never seated again and is ranked after everyone, without a title or league
  points). Who, when and why are the hub's record.
* :class:`SanctionLifted` — a judge takes back sanction ``number`` (counted from 1 in the
  order given): its points come back, a disqualified player is active again (and
  present again if the disqualification took them off the list of those present).
* :class:`PlayerDetailsChanged` — a player's name (with its surname part), club, league
  number or grammatical gender is corrected: a typo in the registration list, a school
  written two ways, a surname of two words, a league number given late, a girl the given
  name did not tell. The id stays, so every result, seating and sanction stays the
  player's; every list shows the new name. Allowed at any time, a finished event too.
  Who, when and why are the hub's record.
* :class:`~hub.tournament.cuts.TieDecided` — the head judge's decision on players level
  at a cut (:mod:`hub.tournament.cuts`): their order, a lot the judge ordered, or (final
  places only) a shared place. A draw that meets an undecided tie at a cut raises
  :class:`~hub.tournament.cuts.TieAtCutError` naming the players.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

import msgspec

from hub.tournament.cuts import (
    TieDecided,
)
from hub.tournament.players import Player
from tablekit.core.gender import Gender


class PlayerScore(msgspec.Struct, frozen=True):
    player_id: str
    big: int
    small: int


class SeatedTable(msgspec.Struct, frozen=True):
    """Table ``number`` (from 1, across the stage) of group ``group``, seat order A…D."""

    number: int
    group: str
    players: tuple[str, ...]


class PlayerRegistered(msgspec.Struct, frozen=True, tag="player-registered", tag_field="fact"):
    player: Player


class PlayerCheckedIn(msgspec.Struct, frozen=True, tag="player-checked-in", tag_field="fact"):
    player_id: str


class PlayerLateArrived(msgspec.Struct, frozen=True, tag="player-late-arrived", tag_field="fact"):
    player_id: str


class PlayerWithdrawn(msgspec.Struct, frozen=True, tag="player-withdrawn", tag_field="fact"):
    player_id: str
    reason: str = ""


class SeedsDeclared(msgspec.Struct, frozen=True, tag="seeds-declared", tag_field="fact"):
    player_ids: tuple[str, ...]


class RoundSeated(msgspec.Struct, frozen=True, tag="round-seated", tag_field="fact"):
    stage: str
    seed: int
    tables: tuple[SeatedTable, ...]
    #: Pairs seated together who already sat together earlier in the event.
    repeats: int = 0
    #: Repeated pairs no seating of the stage's players at its tables goes below (a
    #: proven lower bound; equal to ``repeats`` when they cannot be avoided); None for a
    #: stage seated by a rule (standings, places) rather than a draw, or a draw of a
    #: release before it.
    floor: int | None = None


class GameRecorded(msgspec.Struct, frozen=True, tag="game-recorded", tag_field="fact"):
    stage: str
    table: int
    game: int
    scores: tuple[PlayerScore, ...]


class RoundClosed(msgspec.Struct, frozen=True, tag="round-closed", tag_field="fact"):
    stage: str
    #: The judge closed it with games missing: those games count as not played.
    forced: bool = False


class ConsolationDecided(
    msgspec.Struct, frozen=True, tag="consolation-decided", tag_field="fact"
):
    """The organizer's seating of the players who do not qualify for ``stage`` when they
    cannot sit at consolation tables of 3 or 4 (003 §10e: the organizer adjusts the
    tables): the best ``promote`` of them join the qualifiers' group, or (``none``) they
    play no more games."""

    stage: str
    promote: int = 0
    none: bool = False


class RoundUndone(msgspec.Struct, frozen=True, tag="round-undone", tag_field="fact"):
    stage: str


class SanctionKind(enum.StrEnum):
    WARNING = "warning"
    """Ostrzeżenie: recorded and shown, no points."""
    DEDUCTION = "deduction"
    """Odjęcie dużych punktów (002 §3)."""
    DISQUALIFICATION = "disqualification"
    """Dyskwalifikacja: never seated again, ranked after everyone."""


class SanctionLifted(msgspec.Struct, frozen=True, tag="sanction-lifted", tag_field="fact"):
    number: int
    """The sanction taken back, counted from 1 in the order the sanctions were given."""


class PlayerSanctioned(msgspec.Struct, frozen=True, tag="player-sanctioned", tag_field="fact"):
    player_id: str
    kind: SanctionKind
    stage: str = ""
    """The stage it was given in ("" before the first draw); a deduction counts there."""
    big: int = 0
    """Big points deducted (a deduction only)."""


class PlayerDetailsChanged(
    msgspec.Struct, frozen=True, tag="player-details-changed", tag_field="fact"
):
    """The player's name, surname and club from now on (the rating stays), and their
    league number and gender when they change."""

    player_id: str
    name: str
    surname: str = ""
    """The end of ``name`` that is the surname; "" = the last word."""
    club: str | None = None
    league_number: str | None = None
    """The league number from now on ("": none); None: as it was (records of hub
    versions before it existed have none)."""
    gender: Gender | None = None
    """The grammatical gender from now on; None: as it was (records of hub versions
    before it existed have none)."""


Fact = (
    PlayerRegistered
    | PlayerCheckedIn
    | PlayerLateArrived
    | PlayerWithdrawn
    | SeedsDeclared
    | RoundSeated
    | GameRecorded
    | RoundClosed
    | PlayerSanctioned
    | RoundUndone
    | PlayerDetailsChanged
    | TieDecided
    | SanctionLifted
    | ConsolationDecided
)


def encode_fact(fact: Fact) -> bytes:
    return msgspec.json.encode(fact)


def decode_fact(data: bytes | str) -> Fact:
    fact: Fact = msgspec.json.decode(data, type=Fact)
    return fact


def check_in_all(players: Iterable[Player]) -> list[Fact]:
    """Facts registering and checking in ``players`` (the usual start of an event)."""
    facts: list[Fact] = []
    for player in players:
        facts.append(PlayerRegistered(player))
        facts.append(PlayerCheckedIn(player.id))
    return facts

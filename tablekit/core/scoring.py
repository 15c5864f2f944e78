"""Scoring one game and ranking standings (RULES.md §3), pure and shared by unit and hub.

Conventions (RULES.md §3.3): small points (SP) are stored, ranked and shown in one
canonical convention everywhere: winner positive, higher is better (002 included).

Interpretations this module commits to:

* **Rack value.** An opened player's rack value is the sum of the tile numbers plus
  ``joker_penalty`` per joker. A player who never opened scores a *flat* penalty that
  *replaces* the whole rack value, jokers included (the documents say "write minus
  100 for him", not "add 100"): ``not_opened_penalty`` for ``NOT_OPENED`` and
  ``WAIVED``, ``could_have_opened_penalty`` for ``COULD_HAVE_OPENED``. Jokers on such a
  rack still count towards the two jokers a table has, so they are checked, not scored.
  The same values are compared when nobody went out (§3.2: "counted as in 3.1").
* **Who went out.** An empty rack is ``tiles == 0``, ``jokers == 0`` and opened; a
  player who never opened cannot have one. Only one player can empty the rack. A
  ``WENT_OUT`` game needs exactly one. A ``NOBODY_OUT`` game that nonetheless has an
  empty rack (someone went out during the last lap) is scored the same way as
  ``WENT_OUT``: the player with the empty rack is the sole winner.
* **Nobody went out, tie for lowest.** Every tied player is a winner; each scores plus
  the sum of the losers' differences to the lowest value, so the table's SP sum is
  ``(winners − 1) × that sum`` rather than zero.
* **Places** use standard competition ranking ("1224"): tied players share the higher
  place, and the next player's place counts everyone above (two tied for 2nd at a
  4-table are both 2nd, the last player is 4th). Placement big points follow the
  place, so ties share the higher place's points. The player who went out is always
  placed first alone, even when zero penalties leave every loser at 0 and so tie them
  with the winner's 0 SP.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Annotated, Any, Final, Protocol, TypeVar

import msgspec

from tablekit.core.errors import KitError
from tablekit.core.fields import GameNo
from tablekit.core.rulesets import BigPointScheme, Ruleset
from tablekit.core.seats import MAX_SEATS, MIN_SEATS, SEATS, Seat, seats_for
from tablekit.core.words import N_

# Two sets of 4 colours × 1..13: the most the tiles left on one rack can be worth.
MAX_TILE_VALUE: Final = 2 * 4 * sum(range(1, 14))  # 728
JOKERS_PER_TABLE: Final = 2


class Opening(enum.StrEnum):
    """Whether a player made the initial 30-point meld (RULES.md §3.1)."""

    OPENED = "opened"
    NOT_OPENED = "not_opened"  # flat not_opened_penalty
    COULD_HAVE_OPENED = "could_have_opened"  # judge: could have opened, did not
    WAIVED = "waived"  # judge waived the could-have-opened penalty: scores as NOT_OPENED


class GameEnding(enum.StrEnum):
    """How the game ended (RULES.md §3.1 / §3.2)."""

    WENT_OUT = "went_out"  # a player emptied the rack
    NOBODY_OUT = "nobody_out"  # bank empty or round time over, after the last lap


class RackReport(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What one seat had left when the game ended.

    ``tiles`` is the sum of the numbers on the tiles left, jokers excluded.
    """

    seat: Seat
    tiles: Annotated[int, msgspec.Meta(ge=0, le=MAX_TILE_VALUE)] = 0
    """The sum of the numbers on the tiles left on the rack, jokers excluded."""
    jokers: Annotated[int, msgspec.Meta(ge=0, le=JOKERS_PER_TABLE)] = 0
    """Jokers left on the rack."""
    opening: Opening = Opening.OPENED
    """``opened`` (made the initial meld), ``not_opened`` (never did: a flat penalty),
    ``could_have_opened`` (the judge: could have, did not: 200), ``waived`` (the judge
    waived that, it scores as ``not_opened``)."""

    @property
    def empty(self) -> bool:
        """The player emptied the rack (went out)."""
        return self.tiles == 0 and self.jokers == 0 and self.opening == Opening.OPENED


class GameReport(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A table's result for one game, as entered at the table."""

    game: GameNo
    ending: GameEnding
    """``went_out`` (a player emptied the rack), ``nobody_out`` (the bank ran empty or the
    round time was over, after the last lap)."""
    racks: tuple[RackReport, ...]
    """One per seat, in seat order."""


class SeatScore(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One seat's score in a game; ``small`` is canonical (winner positive)."""

    seat: Seat
    rack_value: int  # the value counted against the player, penalties applied
    small: int
    big: int
    place: int
    winner: bool


class GameScore(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A scored game; ``scores`` are in seat order."""

    game: int
    ending: GameEnding
    scores: tuple[SeatScore, ...]

    def for_seat(self, seat: Seat) -> SeatScore:
        """The score of ``seat``; :class:`KeyError` if it did not play."""
        for score in self.scores:
            if score.seat == seat:
                return score
        raise KeyError(seat)

    @property
    def winners(self) -> tuple[Seat, ...]:
        return tuple(s.seat for s in self.scores if s.winner)


# --- errors -------------------------------------------------------------------------


class ScoreError(KitError, ValueError):
    """A game report cannot be scored.

    ``seats`` are the seats the problem is about (empty if none) and ``field`` the
    report field at fault, so an entry screen can go straight to it.
    """

    def __init__(
        self, template: str, /, *, seats: Iterable[Seat] = (), field: str = "", **values: object
    ) -> None:
        self.seats: tuple[Seat, ...] = tuple(seats)
        self.field = field
        names = ", ".join(str(s) for s in self.seats)
        if len(self.seats) == 1:
            super().__init__(N_("seat {seats}: {problem}"), seats=names,
                             problem=KitError(template, **values))
        elif self.seats:
            super().__init__(N_("seats {seats}: {problem}"), seats=names,
                             problem=KitError(template, **values))
        else:
            super().__init__(template, **values)


class GameNumberError(ScoreError):
    """The game number is not an integer of at least 1."""


class SeatError(ScoreError):
    """Seats missing, duplicated, unknown or not at a 3- or 4-player table."""


class TileValueError(ScoreError):
    """A tile value is not an integer between 0 and :data:`MAX_TILE_VALUE`."""


class JokerCountError(ScoreError):
    """A joker count is negative, not an integer, or the table has more than two."""


class OpeningError(ScoreError):
    """An opening status is unknown or impossible (an empty rack that never opened)."""


class EndingError(ScoreError):
    """The ending is unknown or does not match the racks (who went out)."""


# --- validation -----------------------------------------------------------------------


def _is_int(value: object) -> bool:
    # bool is an int subclass, but True is not a tile value.
    return isinstance(value, int) and not isinstance(value, bool)


def _seat_of(rack: RackReport) -> Seat:
    try:
        return Seat(rack.seat)
    except ValueError:
        known = ", ".join(SEATS)
        raise SeatError(
            N_("seat must be one of {known}, got {got!r}"), field="seat", known=known, got=rack.seat
        ) from None


def validate_rack(rack: RackReport) -> None:
    """Check one rack on its own; raises a :class:`ScoreError` subclass."""
    seat = _seat_of(rack)
    if not _is_int(rack.tiles) or not 0 <= rack.tiles <= MAX_TILE_VALUE:
        raise TileValueError(
            N_("tiles must be an integer between 0 and {most}, got {got!r}"),
            seats=(seat,), field="tiles", most=MAX_TILE_VALUE, got=rack.tiles,
        )
    if not _is_int(rack.jokers) or not 0 <= rack.jokers <= JOKERS_PER_TABLE:
        raise JokerCountError(
            N_("jokers must be an integer between 0 and {most}, got {got!r}"),
            seats=(seat,), field="jokers", most=JOKERS_PER_TABLE, got=rack.jokers,
        )
    try:
        opening = Opening(rack.opening)
    except ValueError:
        known = ", ".join(o.value for o in Opening)
        raise OpeningError(
            N_("opening must be one of {known}, got {got!r}"),
            seats=(seat,), field="opening", known=known, got=rack.opening,
        ) from None
    if opening != Opening.OPENED and rack.tiles == 0 and rack.jokers == 0:
        raise OpeningError(
            N_("opening is {opening}, but an empty rack (tiles 0, jokers 0) means the "
               "player went out, which needs an opened player"),
            seats=(seat,), field="opening", opening=opening.value,
        )


def validate_racks(racks: Sequence[RackReport]) -> None:
    """Check what holds for any part of a table: each rack, no seat twice, at most two
    jokers and at most one empty rack. The entry flow runs this after every seat."""
    seen: set[Seat] = set()
    for rack in racks:
        validate_rack(rack)
        seat = Seat(rack.seat)
        if seat in seen:
            raise SeatError(N_("seat appears more than once"), seats=(seat,), field="seat")
        seen.add(seat)
    with_jokers = [Seat(r.seat) for r in racks if r.jokers]
    total = sum(r.jokers for r in racks)
    if total > JOKERS_PER_TABLE:
        raise JokerCountError(
            N_("jokers: a table has only {most} jokers, got {total} in total"),
            seats=with_jokers, field="jokers", most=JOKERS_PER_TABLE, total=total,
        )
    empty = [Seat(r.seat) for r in racks if r.empty]
    if len(empty) > 1:
        raise EndingError(
            N_("tiles: only one player can empty the rack, got {count} empty racks "
               "(tiles 0, jokers 0)"),
            seats=empty, field="tiles", count=len(empty),
        )


def validate_report(report: GameReport) -> None:
    """Check a whole report; raises a :class:`ScoreError` subclass naming seat and field."""
    if not _is_int(report.game) or report.game < 1:
        raise GameNumberError(
            N_("game must be an integer of at least 1, got {got!r}"), field="game", got=report.game
        )
    try:
        ending = GameEnding(report.ending)
    except ValueError:
        known = ", ".join(e.value for e in GameEnding)
        raise EndingError(
            N_("ending must be one of {known}, got {got!r}"),
            field="ending", known=known, got=report.ending,
        ) from None
    count = len(report.racks)
    if not MIN_SEATS <= count <= MAX_SEATS:
        raise SeatError(
            N_("racks: a table seats {fewest} or {most} players, got {count}"),
            seats=[_seat_of(r) for r in report.racks], field="racks",
            fewest=MIN_SEATS, most=MAX_SEATS, count=count,
        )
    validate_racks(report.racks)
    expected = seats_for(count)
    strays = [Seat(r.seat) for r in report.racks if r.seat not in expected]
    if strays:
        raise SeatError(
            N_("seat is not at a {count}-player table (seats {expected})"),
            seats=strays, field="seat", count=count, expected=", ".join(expected),
        )
    if ending == GameEnding.WENT_OUT and not any(r.empty for r in report.racks):
        raise EndingError(
            N_("tiles: the game ended with a player going out, but no rack is empty "
               "(tiles 0, jokers 0, opened)"),
            seats=sorted(Seat(r.seat) for r in report.racks), field="tiles",
        )


def usual_ending(racks: Sequence[RackReport]) -> GameEnding:
    """The ending a table's racks tell when nobody states it: a player went out when a
    rack is empty, else nobody went out (the bank ran empty or the round time was over)."""
    return GameEnding.WENT_OUT if any(r.empty for r in racks) else GameEnding.NOBODY_OUT


# --- scoring --------------------------------------------------------------------------


def rack_value(rack: RackReport, ruleset: Ruleset) -> int:
    """The value counted against a rack, penalties applied (see the module docstring)."""
    match Opening(rack.opening):
        case Opening.OPENED:
            return rack.tiles + rack.jokers * ruleset.joker_penalty
        case Opening.NOT_OPENED | Opening.WAIVED:
            return ruleset.not_opened_penalty
        case Opening.COULD_HAVE_OPENED:
            return ruleset.could_have_opened_penalty


def score_game(report: GameReport, ruleset: Ruleset) -> GameScore:
    """Score one game under ``ruleset`` (RULES.md §3.1, §3.2, §3.4).

    When a player went out, the others score minus their rack value and the winner
    plus the sum (zero-sum). Otherwise the lowest rack value wins; the others score
    minus their difference to it and every tied winner scores plus the sum of those
    differences (not zero-sum when winners tie).
    """
    validate_report(report)
    racks = sorted(report.racks, key=lambda r: SEATS.index(Seat(r.seat)))
    values = {Seat(r.seat): rack_value(r, ruleset) for r in racks}
    went_out = [Seat(r.seat) for r in racks if r.empty]
    if went_out:
        winners = set(went_out)
        lowest = 0
    else:
        lowest = min(values.values())
        winners = {seat for seat, value in values.items() if value == lowest}
    pot = sum(value - lowest for seat, value in values.items() if seat not in winners)
    small = {seat: pot if seat in winners else lowest - value for seat, value in values.items()}
    places = _competition_places(values, key=lambda seat: (seat in winners, small[seat]))
    if ruleset.big_points == BigPointScheme.PLACEMENT:
        table = ruleset.placement_points(len(racks))
        big = {seat: table[places[seat] - 1] for seat in values}
    else:
        big = {seat: int(seat in winners) for seat in values}
    scores = tuple(
        SeatScore(
            seat=seat,
            rack_value=values[seat],
            small=small[seat],
            big=big[seat],
            place=places[seat],
            winner=seat in winners,
        )
        for seat in values
    )
    return GameScore(game=report.game, ending=GameEnding(report.ending), scores=scores)


# --- places and standings ---------------------------------------------------------------


class _Orderable(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


K = TypeVar("K", bound=_Orderable)
H = TypeVar("H", bound=Hashable)


def _competition_places(items: Iterable[H], key: Callable[[H], Any]) -> dict[H, int]:
    """Place of each item by ``key`` descending; equal keys share the higher place and
    the next place skips accordingly ("1224")."""
    ordered = sorted(items, key=key, reverse=True)
    places: dict[H, int] = {}
    for index, item in enumerate(ordered):
        if index and key(item) == key(ordered[index - 1]):
            places[item] = places[ordered[index - 1]]
        else:
            places[item] = index + 1
    return places


def rank_by_points(totals: Mapping[K, tuple[int, int]]) -> list[tuple[int, K]]:
    """Standings (RULES.md §3.5): ``(place, key)`` ordered by big points, then small
    points, both descending, from ``{key: (big, small)}``.

    Real ties share the higher place and are never broken by input order; tied keys are
    listed in ascending key order so the output is deterministic.
    """
    ordered = sorted(totals, key=lambda k: (-totals[k][0], -totals[k][1], k))
    ranked: list[tuple[int, K]] = []
    for index, key in enumerate(ordered):
        if index and totals[key] == totals[ordered[index - 1]]:
            ranked.append((ranked[-1][0], key))
        else:
            ranked.append((index + 1, key))
    return ranked

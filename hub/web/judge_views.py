"""What the judges' pages show, as plain values (pure: no I/O, no words).

The queue of tables waiting for the judge is the hub screen's (:func:`hub.hall.judge_queue`
over the same hall model); a table's page reads the event as the command line does (the
seating, every version of each game's result, the judge calls resolved there); the result
form reads what a judge typed into the kit's own values (:class:`RackReport`), whose rules
the scoring and the event's fold check when the judge's command runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from hub.competition import Competition, JudgeCallResolved, ResultRejected, ResultVersion
from hub.effects import ReasonNeededError
from hub.hall import HallView, JudgeCall, judge_queue
from hub.table_play import GameNotEndedError
from hub.web.views import TableCard
from tablekit.core.errors import KitError
from tablekit.core.scoring import (
    JOKERS_PER_TABLE,
    GameEnding,
    Opening,
    RackReport,
    ScoreError,
)
from tablekit.core.seats import Seat, seats_for
from tablekit.core.words import N_

# --- the queue ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Waiting:
    """A table waiting for the judge, with its card (None: the hall has no card for it)."""

    call: JudgeCall
    card: TableCard | None


def waiting_tables(hall: HallView, cards: Sequence[TableCard], now: float) -> list[Waiting]:
    """The hub screen's judge queue (oldest first, with how long each has waited)."""
    by_number = {card.number: card for card in cards}
    return [Waiting(call, by_number.get(call.table)) for call in judge_queue(hall, now)]


# --- a table's page ----------------------------------------------------------------------


@dataclass(frozen=True)
class SeatedPlayer:
    seat: Seat
    player_id: str
    name: str


@dataclass(frozen=True)
class GameResult:
    game: int
    versions: tuple[ResultVersion, ...]
    """Every version of the game's result, the one that counts last (empty: no result)."""


@dataclass(frozen=True)
class RefusedResult:
    """A table's submitted result the hub refused, and whether its game has a result at
    the hub now (entered again at the table, or by a judge)."""

    record: ResultRejected
    settled: bool


def refused_results(
    comp: Competition, stage: str, table: int | None = None
) -> tuple[RefusedResult, ...]:
    """The results the tables of ``stage`` submitted and the hub refused (one table's,
    or every table's), oldest first."""
    round_no = comp.round_number(stage)
    return tuple(
        RefusedResult(r, bool(comp.history(stage, r.table, r.game)))
        for r in comp.rejected
        if r.round == round_no and (table is None or r.table == table)
    )


@dataclass(frozen=True)
class JudgeTable:
    """A table as the judges' page shows it: who sits there, every game's results and
    the judge calls resolved there (not the unit's :class:`tablekit.view.TableView`)."""

    stage: str
    round: int
    table: int
    players: tuple[SeatedPlayer, ...]
    games: tuple[GameResult, ...]
    calls: tuple[JudgeCallResolved, ...]
    """The judge calls resolved at the table in the stage, oldest first."""
    refused: tuple[RefusedResult, ...] = ()
    """The table's results the hub refused in the stage, oldest first."""


def seated_players(comp: Competition, stage: str, table: int) -> tuple[SeatedPlayer, ...]:
    seated = comp.event.seating(stage)[table - 1]
    players = comp.event.players
    return tuple(
        SeatedPlayer(seat, pid, players[pid].name if pid in players else pid)
        for seat, pid in zip(seats_for(len(seated.players)), seated.players, strict=True)
    )


def judge_table(comp: Competition, stage: str, table: int) -> JudgeTable:
    """Table ``table`` of ``stage`` (CompetitionError when the stage has no such table)."""
    comp.table_playing(stage, table, 1)
    games = comp.format.stages[comp.format.stage_index(stage)].games
    return JudgeTable(
        stage,
        comp.round_number(stage),
        table,
        seated_players(comp, stage, table),
        tuple(
            GameResult(game, tuple(comp.history(stage, table, game)))
            for game in range(1, games + 1)
        ),
        tuple(comp.calls_at(stage, table)),
        refused_results(comp, stage, table),
    )


# --- the result form ---------------------------------------------------------------------

OPENINGS: Final = (Opening.OPENED, Opening.NOT_OPENED, Opening.COULD_HAVE_OPENED, Opening.WAIVED)
"""The choices of a seat's opening, in the order the form lists them."""
ENDINGS: Final = ("", GameEnding.WENT_OUT.value, GameEnding.NOBODY_OUT.value)
"""The form's endings: "" = as the racks tell (a rack is 0: went out)."""
FORM_WIDE: Final = "form"
"""The key of an error about the whole table's racks, not one field."""


class FieldError(KitError, ValueError):
    """A field of the form that is not what it asks for."""


@dataclass(frozen=True)
class SeatEntry:
    """One seat's fields as typed (shown again when the form is refused)."""

    player: SeatedPlayer
    tiles: str = ""
    jokers: str = "0"
    opening: str = Opening.OPENED.value

    @property
    def seat(self) -> Seat:
        return self.player.seat


@dataclass(frozen=True)
class ResultForm:
    """The result of one game of one table, as typed; ``errors`` by field key
    (``A-tiles``, ``why``, :data:`FORM_WIDE`)."""

    stage: str
    table: int
    game: int
    seats: tuple[SeatEntry, ...]
    ending: str = ""
    why: str = ""
    errors: Mapping[str, KitError] = field(default_factory=dict)
    not_ended: bool = False
    """The judge enters, on purpose, a game the table has not ended."""

    def error(self, key: str) -> KitError | None:
        return self.errors.get(key)


def empty_form(comp: Competition, stage: str, table: int, game: int) -> ResultForm:
    """The form for game ``game`` of table ``table``: the version that counts filled
    in when there is one (a correction starts from it)."""
    versions = comp.history(stage, table, game)
    if not versions:
        return typed_form(comp, stage, table, game, {})
    report = versions[-1].record.report
    typed = {"ending": GameEnding(report.ending).value}
    for rack in report.racks:
        typed[f"{rack.seat}-tiles"] = str(rack.tiles)
        typed[f"{rack.seat}-jokers"] = str(rack.jokers)
        typed[f"{rack.seat}-opening"] = Opening(rack.opening).value
    return typed_form(comp, stage, table, game, typed)


def typed_form(
    comp: Competition, stage: str, table: int, game: int, form: Mapping[str, str]
) -> ResultForm:
    """The form as the judge sent it (every field kept as typed)."""
    players = seated_players(comp, stage, table)
    ending = form.get("ending", "")
    return ResultForm(
        stage,
        table,
        game,
        tuple(
            SeatEntry(
                p,
                form.get(f"{p.seat}-tiles", "").strip(),
                form.get(f"{p.seat}-jokers", "0"),
                form.get(f"{p.seat}-opening", Opening.OPENED.value),
            )
            for p in players
        ),
        ending=ending if ending in ENDINGS else "",
        why=form.get("why", "").strip(),
        not_ended=form.get("not_ended") == "on",
    )


def racks_of(form: ResultForm) -> tuple[tuple[RackReport, ...], dict[str, KitError]]:
    """Each seat's rack from the form, and what is not a value at all, by field (the
    rules — jokers at the table, who went out, the penalties — are the scoring's)."""
    racks: list[RackReport] = []
    errors: dict[str, KitError] = {}
    for entry in form.seats:
        seat = entry.seat
        tiles = entry.tiles
        if not tiles.isdigit():
            errors[f"{seat}-tiles"] = FieldError(
                N_("seat {seat}: the points of the tiles left, a whole number (0: went "
                   "out)"),
                seat=seat,
            )
            continue
        jokers = int(entry.jokers) if entry.jokers.isdigit() else -1
        if not 0 <= jokers <= JOKERS_PER_TABLE:
            errors[f"{seat}-jokers"] = FieldError(
                N_("seat {seat}: jokers left, 0 to {most}"), seat=seat, most=JOKERS_PER_TABLE
            )
            continue
        if entry.opening not in {o.value for o in OPENINGS}:
            errors[f"{seat}-opening"] = FieldError(
                N_("seat {seat}: choose how the player opened"), seat=seat
            )
            continue
        racks.append(RackReport(seat, int(tiles), jokers, Opening(entry.opening)))
    return tuple(racks), errors


def error_fields(err: KitError) -> list[str]:
    """The fields a refusal of the judge's command concerns: each seat's field a scoring
    error names, ``why`` for a missing reason, ``not_ended`` for a game the table has not
    ended, else the form as a whole."""
    if isinstance(err, ScoreError) and err.seats and err.field in ("tiles", "jokers", "opening"):
        return [f"{seat}-{err.field}" for seat in err.seats]
    if isinstance(err, ReasonNeededError):
        return ["why"]
    if isinstance(err, GameNotEndedError):
        return ["not_ended"]
    return [FORM_WIDE]

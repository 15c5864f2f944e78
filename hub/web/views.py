"""What the web console's public pages show, as plain values (pure: no I/O, no words).

Every value is read from the event as the command line reads it — the store's fold
(:class:`~hub.competition.Competition`) and the tournament core's standings and seating —
or from the hall as the hub screen sees it (:class:`~hub.hall.HallView`, the retained
messages of the units and the hub). Nothing here decides a rule of its own; the templates
put the words around these values in the reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hub.competition import Competition
from hub.exports.lists import SeatLine, seat_lines
from hub.exports.notes import round_progress, sanction_text
from hub.hall import HallView, TableCell, state_of
from hub.tournament import Player, player_order, ties_by_name
from hub.tournament.standings import place_labels, signed
from tablekit.core.names import match_key
from tablekit.core.seats import SEATS
from tablekit.core.status import TableState
from tablekit.shared.i18n import Words

MIN_QUERY = 2
"""Letters a search needs (fewer would list half the hall)."""
MAX_FOUND = 30
"""Players a search lists at most; the page says when there were more."""


# --- find your table ----------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """A player a search found, and where they sit in the latest drawn stage."""

    player: Player
    seat: SeatLine | None
    """None: not seated in that stage (not drawn, withdrawn, or nothing drawn yet)."""
    opponents: tuple[SeatLine, ...] = ()
    """The others at the same table, in seat order."""
    withdrawn: bool = False


@dataclass(frozen=True)
class Search:
    query: str
    stage: str | None
    """The latest drawn stage, whose seating the search shows (None: nothing drawn)."""
    found: tuple[Found, ...] = ()
    more: int = 0
    """Players matching beyond :data:`MAX_FOUND`."""
    too_short: bool = False
    """The query has fewer than :data:`MIN_QUERY` letters: nothing was searched."""


def matches(query: str, name: str) -> bool:
    """Every word of ``query`` is part of ``name``, whatever the case and the Polish
    letters (``"lukasz zolc"`` and ``"żółć"`` both match ``"Łukasz Żółć"``)."""
    words = match_key(query).split()
    folded = match_key(name)
    return bool(words) and all(word in folded for word in words)


def find_players(comp: Competition, query: str) -> Search:
    """The players whose name matches ``query`` (:func:`matches`), in the order of every
    list of people (surname, then given name, Polish order), with their table."""
    event = comp.event
    stage = event.stages_played[-1] if event.stages_played else None
    if len(match_key(query).replace(" ", "")) < MIN_QUERY:
        return Search(query, stage, too_short=bool(query.strip()))
    hits = sorted((p for p in event.players.values() if matches(query, p.name)), key=player_order)
    lines = seat_lines(comp, stage) if stage is not None else []
    by_player = {line.player_id: line for line in lines}
    found = []
    for player in hits[:MAX_FOUND]:
        line = by_player.get(player.id)
        opponents: tuple[SeatLine, ...] = ()
        if line is not None:
            opponents = tuple(
                other for other in lines
                if other.table.number == line.table.number and other.player_id != player.id
            )
        found.append(Found(player, line, opponents, player.id in event.withdrawn))
    return Search(query, stage, tuple(found), max(0, len(hits) - MAX_FOUND))


# --- standings ----------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingLine:
    place: str
    """``2=`` for a shared place (:func:`~hub.tournament.standings.place_labels`)."""
    player: Player
    big: int
    """Big points after the judge's deductions."""
    small: str
    """Signed as every list shows them: ``+12``, ``0``, ``-7``."""
    games: int
    sanctions: str
    """Every sanction that stands, each with its round (and whether these standings
    count a deduction), in the reader's language; "" for none."""


@dataclass(frozen=True)
class StandingsView:
    stage: str
    round: int
    """The stage's number in the event (1 for the first)."""
    stages: tuple[str, ...]
    """Every stage drawn so far, in order."""
    lines: tuple[StandingLine, ...]
    progress: tuple[int, int] | None
    """(tables done, tables) while the stage is the round in play; None once closed."""

    @property
    def sanctions(self) -> bool:
        return any(line.sanctions for line in self.lines)


class UnknownStageError(LookupError):
    """A stage that is not drawn (the page answers 404 and names the drawn ones)."""


def standings_view(
    comp: Competition, words: Words, stage: str | None = None
) -> StandingsView | None:
    """The standings of ``stage`` (default: the latest drawn) as the command line's
    ``rummikub standings`` computes them, its sanctions said in ``words``' language; None
    when nothing is drawn yet."""
    event = comp.event
    played = event.stages_played
    if not played:
        return None
    stage = played[-1] if stage is None else stage
    if stage not in played:
        raise UnknownStageError(stage)
    rows = ties_by_name(event.standings(stage).rows, event.players)
    counted = event.counted_in(stage)
    labels = place_labels([r.place for r in rows])
    lines = tuple(
        StandingLine(
            label, event.players.get(r.player_id) or Player(r.player_id, r.player_id),
            r.big, signed(r.small), r.games,
            sanction_text(comp, r.player_id, words, stage, counted),
        )
        for label, r in zip(labels, rows, strict=True)
    )
    return StandingsView(
        stage, comp.round_number(stage), played, lines, round_progress(comp, stage)
    )


# --- the tables' live state ---------------------------------------------------------------


@dataclass(frozen=True)
class TableCard:
    """One table as the console shows it: what changes on a pass, a timeout, a judge call
    or a result (a countdown does not: the page is not a clock)."""

    number: int
    seats: tuple[tuple[str, str], ...]
    """(seat, name) in seat order."""
    state: TableState
    active: str | None
    """The seat to move, while a game is played."""
    game: int
    games: int
    move: int
    """Moves made in the game."""
    timeouts: int
    """Moves that ran out of time in the game, all seats together."""
    missing: int
    """Earlier games of the round whose result the hub does not have."""


_PLAYING = frozenset(
    {TableState.PLAYING, TableState.LAST_LAP, TableState.TIME, TableState.BEHIND,
     TableState.RESULT_MISSING}
)
"""States in which the seat to move means something."""


def table_card(cell: TableCell) -> TableCard:
    state = state_of(cell)
    seats = tuple((seat.value, name) for seat, name in zip(SEATS, cell.seats, strict=False))
    active = cell.active.value if cell.active is not None and state in _PLAYING else None
    return TableCard(
        cell.number, seats, state, active, cell.game, cell.games, cell.move,
        sum(cell.timeouts), cell.missing,
    )


def table_cards(hall: HallView) -> tuple[TableCard, ...]:
    """Every table the hall knows, by number."""
    return tuple(table_card(cell) for cell in hall.tables)


def changed(old: Sequence[TableCard], new: Sequence[TableCard]) -> list[TableCard]:
    """The cards of ``new`` that differ from (or are missing in) ``old``."""
    before = {card.number: card for card in old}
    return [card for card in new if before.get(card.number) != card]

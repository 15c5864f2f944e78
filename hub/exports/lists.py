"""The event's lists: the seating, the players and their name and club changes, the
sanctions, the head judge's tie decisions and the organizer's consolation seatings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hub.competition import Competition, OrganizerFact
from hub.exports.grid import Grid, csv_text, iso_time, latest_stage, player_of, when
from hub.exports.notes import SANCTION_WORDS, fact_of, tie_fact
from hub.tournament import (
    ConsolationDecided,
    Player,
    PlayerSanctioned,
    SanctionKind,
    SeatedTable,
    player_order,
)
from tablekit.core.seats import Seat, seats_for


@dataclass(frozen=True)
class SeatLine:
    """One seat of a drawn stage, as the seating lists show it."""

    stage: str
    table: SeatedTable
    seat: Seat
    player_id: str
    player: Player

    @property
    def code(self) -> str:
        """The seat code (``3B``)."""
        return f"{self.table.number}{self.seat}"


def seat_lines(comp: Competition, stage: str) -> list[SeatLine]:
    """Every seat of ``stage`` in table order, then seat order."""
    return [
        SeatLine(stage, seated, seat, pid, player_of(comp, pid))
        for seated in comp.event.seating(stage)
        for seat, pid in zip(seats_for(len(seated.players)), seated.players, strict=True)
    ]


def find_table_lines(comp: Competition, stage: str) -> list[SeatLine]:
    """Every seat of ``stage`` in the order of every list of people ("find your table"):
    by surname, then given name, in Polish order (:func:`~hub.tournament.player_order`)."""
    return sorted(seat_lines(comp, stage), key=lambda s: player_order(s.player))


def seating_grid(comp: Competition, stage: str | None = None) -> Grid:
    """Every seat of ``stage`` (default: the latest) in table order."""
    stage = stage or latest_stage(comp)
    rows = [
        (str(s.table.number), s.code, s.player.name, s.player.club or "", s.player_id)
        for s in seat_lines(comp, stage)
    ]
    return Grid(
        f"Seating, {stage}",
        ("Table", "Seat", "Player", "Club", "ID"),
        rows,
        numeric=frozenset({0}),
    )


def seating_csv(comp: Competition, delimiter: str = ",") -> str:
    """Every stage drawn so far: stage, table, seat code, player."""
    rows = [
        (
            s.stage,
            str(comp.round_number(s.stage)),
            str(s.table.number),
            s.table.group,
            s.code,
            s.player_id,
            s.player.name,
            s.player.club or "",
        )
        for stage in comp.event.stages_played
        for s in seat_lines(comp, stage)
    ]
    return csv_text(
        ("stage", "round", "table", "group", "code", "player_id", "name", "club"),
        rows,
        delimiter,
    )


def players_grid(comp: Competition) -> Grid:
    event = comp.event
    present, withdrawn, disqualified = event.present, event.withdrawn, event.disqualified
    rows = []
    for pid, player in sorted(event.players.items(), key=lambda item: player_order(item[1])):
        status = (
            "disqualified"
            if pid in disqualified
            else "withdrawn"
            if pid in withdrawn
            else "present"
            if pid in present
            else "registered"
        )
        rating = "" if player.rating is None else f"{player.rating:g}"
        rows.append((pid, player.name, player.family_name, player.club or "", rating, status))
    return Grid(
        f"Players ({len(rows)} registered, {len(present)} present)",
        ("ID", "Name", "Surname", "Club", "Rating", "Status"),
        rows,
        numeric=frozenset({4}),
        note="By surname (the last word of the name unless set: rummikub players rename).",
    )


def player_details(player: Player) -> str:
    """Name (surname marked when it is not the last word), club."""
    given, surname = player.given_name, player.family_name
    shown = player.name if not player.surname or " " not in surname else f"{given} [{surname}]"
    return shown + (f", {player.club}" if player.club else "")


def player_changes_grid(comp: Competition, player_id: str | None = None) -> Grid:
    """Every change of a player's name or club (or one player's), with who, when and why."""
    changes = comp.player_changes if player_id is None else comp.changes_of(player_id)
    rows = [
        (
            str(number),
            iso_time(change.record.at),
            change.record.by,
            change.after.id,
            player_details(change.before),
            player_details(change.after),
            change.record.why,
        )
        for number, change in enumerate(changes, start=1)
    ]
    return Grid(
        "Name and club changes" if player_id is None else f"Name and club changes of {player_id}",
        ("#", "When", "By", "ID", "Before", "After", "Why"),
        rows,
        numeric=frozenset({0}),
    )


@dataclass(frozen=True)
class SanctionLine:
    """One sanction as the lists show it: its number (what ``sanction lift`` takes), the
    record (who, when, why), the sanction, the player and the record lifting it, if any."""

    number: int
    record: OrganizerFact
    fact: PlayerSanctioned
    player: Player
    lift: OrganizerFact | None


def sanction_lines(comp: Competition, player_id: str | None = None) -> list[SanctionLine]:
    """Every sanction (or one player's), oldest first."""
    lines = []
    for number, record, lift in comp.numbered_sanctions(player_id):
        fact = fact_of(record, PlayerSanctioned)
        lines.append(SanctionLine(number, record, fact, player_of(comp, fact.player_id), lift))
    return lines


def _who_and_when(line: SanctionLine, stamp: Callable[[float], str]) -> tuple[str, ...]:
    """The first cells of a sanction's row in every list: its number, when (``stamp``),
    the judge, the player's id and name."""
    return (
        str(line.number), stamp(line.record.at), line.record.by, line.fact.player_id,
        line.player.name,
    )


def sanctions_grid(comp: Competition, player_id: str | None = None) -> Grid:
    """Every sanction (or one player's), oldest first, with who, when and why, and who
    lifted it, when and why."""
    rows = [
        (
            *_who_and_when(s, when),
            SANCTION_WORDS[s.fact.kind],
            str(s.fact.big) if s.fact.kind is SanctionKind.DEDUCTION else "",
            s.fact.stage,
            s.record.why,
            "" if s.lift is None else f"{when(s.lift.at)} by {s.lift.by}: {s.lift.why}",
        )
        for s in sanction_lines(comp, player_id)
    ]
    return Grid(
        "Sanctions (kary)" if player_id is None else f"Sanctions of {player_id}",
        ("#", "When", "Judge", "ID", "Player", "Sanction", "BP", "Stage", "Why", "Lifted"),
        rows,
        numeric=frozenset({0, 6}),
    )


def sanctions_csv(comp: Competition, delimiter: str = ",") -> str:
    """Every sanction: when, who (the judge), the player, what, in which stage, why."""
    rows = [
        (
            *_who_and_when(s, iso_time),
            s.player.club or "",
            str(s.fact.kind),
            str(s.fact.big),
            s.fact.stage,
            s.record.why,
            "" if s.lift is None else iso_time(s.lift.at),
            "" if s.lift is None else s.lift.by,
            "" if s.lift is None else s.lift.why,
        )
        for s in sanction_lines(comp)
    ]
    return csv_text(
        (
            "number", "at", "by", "player_id", "name", "club", "sanction", "bp", "stage", "why",
            "lifted_at", "lifted_by", "lifted_why",
        ),
        rows,
        delimiter,
    )


def ties_grid(comp: Competition) -> Grid:
    """Every tie decision of the head judge, in the order recorded."""
    rows = []
    for record in comp.ties:
        fact = tie_fact(record)
        rows.append(
            (
                fact.scope,
                ", ".join(f"{player_of(comp, pid).name} ({pid})" for pid in fact.order),
                fact.how.value + (f" (seed {fact.seed})" if fact.seed is not None else ""),
                record.by,
                iso_time(record.at),
                record.why,
            )
        )
    return Grid(
        "Ties decided by the head judge (best first)",
        ("Scope", "Players", "How", "By", "When", "Why"),
        rows,
    )


def consolation_grid(comp: Competition) -> Grid:
    """Every seating of consolation players the organizer decided (003 §10e)."""
    rows = []
    for record in comp.consolations:
        fact = fact_of(record, ConsolationDecided)
        how = "none play more games" if fact.none else f"the best {fact.promote} play on"
        rows.append((fact.stage, how, record.by, iso_time(record.at), record.why))
    return Grid(
        "Consolation players seated by the organizer",
        ("Stage", "Decision", "By", "When", "Why"),
        rows,
    )

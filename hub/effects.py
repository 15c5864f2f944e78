"""What storing a result, a judge's correction or a sanction would change (pure).

The event is folded with and without the record: places in the standings of its stage
and later ones, who would (no longer) qualify for a stage already drawn and whether its
tables would differ, and, for a finished event, final places, titles and league points.
The changes that weigh (:attr:`Change.weighty`) are shown to the person making the
correction, who confirms them before anything is stored (:class:`UnconfirmedChangeError`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hub.competition import Competition, CompetitionError, OrganizerFact, ResultRecorded
from hub.tournament import (
    EventPhase,
    EventState,
    Fact,
    GameRecorded,
    PlayerSanctioned,
    RoundSeated,
    SanctionKind,
    SanctionLifted,
    TournamentError,
    replay_draws,
)


class ChangeKind(enum.StrEnum):
    QUALIFIES = "qualifies"
    """Would now be selected for a stage already drawn (was not)."""
    DROPS = "drops"
    """Would no longer be selected for a stage already drawn."""
    SEATING = "seating"
    """The tables of a stage already drawn would differ."""
    DRAW = "draw"
    """A stage already drawn could not be drawn as it was (or now could)."""
    PLACE = "place"
    """A final place."""
    TITLE = "title"
    LEAGUE = "league-points"
    STANDINGS = "standings"
    """A place in a stage's standings (information: the standings follow every result)."""


@dataclass(frozen=True)
class Change:
    """What recording something would change, for whom (``player_id``, or "" for a
    stage's seating), ``before`` → ``after``."""

    kind: ChangeKind
    stage: str
    player_id: str
    before: str
    after: str

    @property
    def weighty(self) -> bool:
        """Shown to the person making the change, who confirms it before it is stored:
        who qualified, the seating drawn, final places, titles and league points."""
        return self.kind is not ChangeKind.STANDINGS


class ReasonNeededError(CompetitionError):
    """A correction or a late result without its reason: the front end asks for it."""


class UnconfirmedChangeError(CompetitionError):
    """A correction that changes who qualified, a seating drawn, titles, final places or
    league points: shown first, stored only once confirmed."""

    def __init__(self, what: str, changes: list[Change]) -> None:
        kinds = sorted({c.kind.value for c in changes})
        super().__init__(
            f"{what} changes {', '.join(kinds)} ({len(changes)} change(s)); it is stored only "
            "when confirmed"
        )
        self.changes = changes


def effects(competition: Competition, record: ResultRecorded | OrganizerFact) -> list[Change]:
    """What storing ``record`` (a result, a judge's correction or sanction) would
    change: the event folded with and without it. Raises like
    :meth:`Competition.apply` when it does not fit.

    A result or a deduction belongs to a stage: for every stage drawn after it, the
    draw is made again from the state before it with its recorded seed, once without
    and once with the record in place: who would (no longer) be selected and whether
    the tables would differ. The stages drawn stay as they were recorded (their
    tables were played); the person making the correction decides what to do about
    them. For a finished event the final places, titles and league points are
    compared too (a disqualification changes only those: it takes effect from the
    next draw).
    """
    after = competition.apply(record)
    before_state, after_state = competition.event, after.event
    new_fact = after.facts[-1]
    played = before_state.stages_played
    stage = _stage_of(new_fact, before_state)
    start = played.index(stage) if stage in played else len(played)
    later = played[start + 1 :]
    changes: list[Change] = []
    for name in played[start:]:
        old = {r.player_id: r.place for r in before_state.standings(name).rows}
        for row in after_state.standings(name).rows:
            if old.get(row.player_id) != row.place:
                changes.append(
                    Change(
                        ChangeKind.STANDINGS, name, row.player_id,
                        str(old.get(row.player_id, "-")), str(row.place),
                    )
                )
    if later:
        facts = list(competition.facts)
        first_later = next(
            i for i, f in enumerate(facts)
            if isinstance(f, RoundSeated) and f.stage == later[0]
        )
        facts.insert(first_later, new_fact)
        _, without = replay_draws(competition.format, competition.facts)
        _, with_it = replay_draws(competition.format, facts)
        for name in later:
            changes.extend(_draw_changes(name, without.get(name), with_it.get(name)))
    if after_state.phase is EventPhase.FINISHED and before_state.phase is EventPhase.FINISHED:
        changes.extend(_ranking_changes(before_state, after_state))
    return changes


def _stage_of(fact: Fact, state: EventState) -> str | None:
    """The stage a fact's points belong to (a result, a deduction or its lifting), else
    None; ``state`` is the event before it."""
    if isinstance(fact, GameRecorded):
        return fact.stage
    if isinstance(fact, SanctionLifted):
        fact = state.sanctions[fact.number - 1][0]
    if isinstance(fact, PlayerSanctioned) and fact.kind is SanctionKind.DEDUCTION:
        return fact.stage
    return None


def _draw_changes(
    stage: str,
    before: RoundSeated | TournamentError | None,
    after: RoundSeated | TournamentError | None,
) -> list[Change]:
    if isinstance(before, RoundSeated) and isinstance(after, RoundSeated):
        old = {pid for t in before.tables for pid in t.players}
        new = {pid for t in after.tables for pid in t.players}
        changes = [Change(ChangeKind.QUALIFIES, stage, p, "out", "in") for p in sorted(new - old)]
        changes += [Change(ChangeKind.DROPS, stage, p, "in", "out") for p in sorted(old - new)]
        moved = [
            str(a.number)
            for a, b in zip(before.tables, after.tables, strict=False)
            if a.players != b.players
        ]
        if moved or len(before.tables) != len(after.tables):
            changes.append(
                Change(
                    ChangeKind.SEATING, stage, "",
                    f"{len(before.tables)} tables as drawn",
                    f"tables {', '.join(moved)} would differ" if moved
                    else f"{len(after.tables)} tables",
                )
            )
        return changes
    if before is None or after is None or str(before) == str(after):
        return []
    return [Change(ChangeKind.DRAW, stage, "", _drawn_text(before), _drawn_text(after))]


def _drawn_text(drawn: RoundSeated | TournamentError) -> str:
    if isinstance(drawn, RoundSeated):
        return f"drawn ({len(drawn.tables)} tables)"
    return f"no draw: {drawn}"


def _ranking_changes(before: EventState, after: EventState) -> list[Change]:
    old = {r.player_id: r for r in before.final_ranking()}
    changes: list[Change] = []
    for row in after.final_ranking():
        was = old.get(row.player_id)
        if was is None or was.place != row.place:
            changes.append(
                Change(ChangeKind.PLACE, row.stage, row.player_id,
                       str(was.place if was else "-"), str(row.place))
            )
        if was is None or was.title != row.title:
            changes.append(
                Change(ChangeKind.TITLE, row.stage, row.player_id,
                       (was.title if was else None) or "-", row.title or "-")
            )
    if before.format.league:
        # A shared place the head judge has not decided shows its points as "?".
        points_before, points_after = before.league_points_so_far(), after.league_points_so_far()
        for pid, points in sorted(points_after.items()):
            had = _points_text(points_before.get(pid, "-"))
            if had != _points_text(points):
                changes.append(Change(ChangeKind.LEAGUE, "", pid, had, _points_text(points)))
    return changes


def _points_text(points: int | str | None) -> str:
    return "?" if points is None else str(points)

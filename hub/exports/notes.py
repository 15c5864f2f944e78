"""The event's state and decisions in words: how far a round is, sanctions, ties and
consolation seatings, and the notes printed under the standings and the ranking."""

from __future__ import annotations

from typing import TypeVar

from hub.competition import Competition, OrganizerFact
from hub.exports.grid import player_of, when
from hub.tournament import (
    RANKING_SCOPE,
    ConsolationDecided,
    Phase,
    SanctionKind,
    TieDecided,
    TieHow,
    split_scope,
)

SANCTION_WORDS: dict[SanctionKind, str] = {
    SanctionKind.WARNING: "warning (ostrzeżenie)",
    SanctionKind.DEDUCTION: "big points deducted (odjęcie dużych punktów)",
    SanctionKind.DISQUALIFICATION: "disqualified (dyskwalifikacja)",
}


_F = TypeVar("_F")


def fact_of(record: OrganizerFact, kind: type[_F]) -> _F:
    """The fact of a record kept for its kind (the competition sorts them on folding)."""
    fact = record.fact
    assert isinstance(fact, kind)
    return fact


def sanction_text(comp: Competition, pid: str, deducted: int, stage: str | None = None) -> str:
    """A standings cell: the big points deducted that count there, warnings, DQ — of
    ``stage`` and the stages before it (None: of every stage)."""
    parts = [f"−{deducted} BP"] if deducted else []
    warnings = comp.warnings_of(pid, stage)
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings > 1 else ''}")
    if disqualified_by(comp, pid, stage):
        parts.append("DQ")
    return ", ".join(parts)


def disqualified_by(comp: Competition, pid: str, stage: str | None = None) -> bool:
    """Whether ``pid`` is disqualified, in ``stage`` or before it (None: at all)."""
    if pid not in comp.event.disqualified:
        return False
    return stage is None or any(
        f.kind is SanctionKind.DISQUALIFICATION for f in comp.standing_sanctions(pid, stage)
    )


def round_progress(comp: Competition, stage: str) -> tuple[int, int] | None:
    """(tables done, tables) of ``stage`` when it is the round in play, or None once it
    is closed: the hub screen's rule, the latest round until it is closed."""
    event = comp.event
    if event.phase is not Phase.PLAYING or not event.stages_played:
        return None
    if stage != event.stages_played[-1]:
        return None
    tables = comp.tables()
    return sum(1 for t in tables if t.finished), len(tables)


def in_play(comp: Competition, stage: str) -> str | None:
    """How far ``stage`` is when it is the round in play ("3 of 4 tables done"), or None
    once it is closed (:func:`round_progress`)."""
    progress = round_progress(comp, stage)
    if progress is None:
        return None
    done, tables = progress
    return f"{done} of {tables} table{'s' if tables != 1 else ''} done"


def last_closed(comp: Competition) -> str | None:
    """The last closed round: the latest once closed, else the one before it."""
    closed = [s for s in comp.event.stages_played if in_play(comp, s) is None]
    return closed[-1] if closed else None


def standings_heading(comp: Competition, stage: str) -> str:
    """A stage's standings heading: after a closed round, or the round still in play."""
    progress = in_play(comp, stage)
    if progress is None:
        return f"Standings after {stage}"
    return f"Standings — {stage} in play, {progress}"


TIE_WORDS = {
    TieHow.JUDGE: "the head judge's decision",
    TieHow.LOT: "a lot the head judge ordered",
    TieHow.SHARED: "the head judge let them share the place",
}


def tie_fact(record: OrganizerFact) -> TieDecided:
    return fact_of(record, TieDecided)


def tie_decision_text(comp: Competition, record: OrganizerFact) -> str:
    """One decided tie: who is ahead of whom, how, by whom, when, why."""
    fact = tie_fact(record)
    names = [f"{player_of(comp, pid).name} ({pid})" for pid in fact.order]
    joined = ", ".join(names) if fact.how is TieHow.SHARED else " ahead of ".join(names)
    how = TIE_WORDS[fact.how] + (f", seed {fact.seed}" if fact.seed is not None else "")
    why = f"; why: {record.why}" if record.why else ""
    return (
        f"Tie in {fact.scope}: {joined} — {how}, recorded by {record.by or '-'} at "
        f"{when(record.at)}{why}."
    )


def consolation_text(record: OrganizerFact) -> str:
    """The organizer's decision on consolation players who cannot sit at tables of 3–4."""
    fact = fact_of(record, ConsolationDecided)
    what = (
        "they play no more games (fewer than 003 §7's 4)"
        if fact.none
        else f"the best {fact.promote} of them play on in {fact.stage}"
    )
    why = f"; why: {record.why}" if record.why else ""
    return (
        f"Consolation games before {fact.stage}: {what} — the organizer's decision, "
        f"recorded by {record.by or '-'} at {when(record.at)}{why}."
    )


def ties_notes(comp: Competition, stage: str | None, table: int | None = None) -> list[str]:
    """The decided ties in ``stage``'s ranking and at its tables (or only ``table``);
    ``stage`` None: the final ranking."""
    out = []
    for record in comp.ties:
        scope_stage, scope_table = split_scope(tie_fact(record).scope)
        if stage is None:
            wanted = scope_stage == RANKING_SCOPE
        else:
            wanted = scope_stage == stage and (table is None or scope_table in (None, table))
        if wanted:
            out.append(tie_decision_text(comp, record))
    return out


def league_cells(comp: Competition) -> dict[str, str]:
    """League points per player as shown; a shared place not decided yet is ``?``."""
    event = comp.event
    if not event.format.league:
        return {}
    return {
        pid: "?" if n is None else str(n) for pid, n in event.league_points_so_far().items()
    }


def undecided_ranking_note(comp: Competition) -> str:
    ties = comp.event.ranking_ties()
    if not ties:
        return ""
    listed = "; ".join(
        ", ".join(f"{player_of(comp, pid).name} ({pid})" for pid in tie.players) for tie in ties
    )
    return (
        f"Not decided yet — level on a place that carries a title or league points: "
        f"{listed}. The head judge decides (rummikub tie list)."
    )


def sanctions_note(comp: Competition) -> str:
    return (
        f"BP after the judge's deductions; {len(comp.sanctions)} sanction(s) recorded "
        "(rummikub sanction list)."
    )

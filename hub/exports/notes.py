"""The event's state and decisions in words: how far a round is, sanctions, ties and
consolation seatings, and the notes printed under the standings and the ranking, each in
the reader's language."""

from __future__ import annotations

from collections.abc import Collection
from typing import TypeVar

from hub.competition import Competition, OrganizerFact
from hub.exports.grid import player_of, when
from hub.exports.words import TIES, stage_label, status_word, word
from hub.tournament import (
    OVERALL_SCOPE,
    RANKING_SCOPE,
    ConsolationDecided,
    EventPhase,
    RoundSeated,
    SanctionKind,
    TieDecided,
    TieHow,
    split_scope,
    tournament_points,
)
from tablekit.shared.i18n import Words

_F = TypeVar("_F")


def fact_of(record: OrganizerFact, kind: type[_F]) -> _F:
    """The fact of a record kept for its kind (the competition sorts them on folding)."""
    fact = record.fact
    assert isinstance(fact, kind)
    return fact


def sanction_text(
    comp: Competition, pid: str, words: Words, stage: str | None = None,
    counted: Collection[str] | None = None,
) -> str:
    """A standings cell: every sanction of ``pid`` that stands, given in ``stage`` or the
    stages before it (None: in any), by the round it was given in; a deduction says too
    when these standings do not count it (``counted``: the stages whose deductions they
    count; None: every stage's). Never half of a sanction: the warning without the points
    deducted in the same round, say."""
    given: dict[tuple[SanctionKind, str], int] = {}
    for fact in comp.standing_sanctions(pid, stage):
        key = (fact.kind, fact.stage)
        given[key] = given.get(key, 0) + (fact.big if fact.kind is SanctionKind.DEDUCTION else 1)
    parts = []
    for (kind, where), n in given.items():
        place = stage_label(where, words) if where else words.gettext("before the first draw")
        if kind is SanctionKind.DEDUCTION and (counted is None or where in counted):
            parts.append(words.gettext("−{n} BP ({stage})").format(n=n, stage=place))
        elif kind is SanctionKind.DEDUCTION:
            text = words.gettext("−{n} BP ({stage}; not counted here)")
            parts.append(text.format(n=n, stage=place))
        elif kind is SanctionKind.WARNING:
            text = words.ngettext("{n} warning ({stage})", "{n} warnings ({stage})", n)
            parts.append(text.format(n=n, stage=place))
        else:
            # Translators: the abbreviation of "disqualified" in a standings cell
            parts.append(words.gettext("DQ ({stage})").format(stage=place))
    return ", ".join(parts)


def repeats_text(seated: RoundSeated, words: Words) -> str:
    """A draw's repeated pairs and whether fewer were possible, as the draw's line says
    them: ``3 (no draw of these players has fewer)`` only when that is proven (the exact
    count on a small field, a lower bound on a larger one), ``3 (at least 1 cannot be
    avoided)`` when the bound is lower, the number alone for none or a seating by rule."""
    n, floor = seated.repeats, seated.floor
    if n == 0 or floor is None:
        return str(n)
    if floor >= n:
        return words.gettext("{n} (no draw of these players has fewer)").format(n=n)
    if floor == 0:
        return words.gettext("{n} (none of them proven unavoidable)").format(n=n)
    return words.gettext("{n} (at least {floor} cannot be avoided)").format(n=n, floor=floor)


def withdrawn_text(comp: Competition, pid: str, words: Words) -> str:
    """A standings cell: the mark of a player who withdrew from the event, else ""."""
    if pid not in comp.event.withdrawn:
        return ""
    return status_word("withdrawn", words, player_of(comp, pid).grammatical_gender)


def disqualified_by(comp: Competition, pid: str, stage: str | None = None) -> bool:
    """Whether ``pid`` is disqualified, in ``stage`` or before it (None: at all)."""
    if pid not in comp.event.disqualified:
        return False
    return stage is None or any(
        f.kind is SanctionKind.DISQUALIFICATION for f in comp.standing_sanctions(pid, stage)
    )


def round_progress(comp: Competition, stage: str) -> tuple[int, int] | None:
    """How far ``stage`` is when it is the round in play (tables done, tables), or None
    once it is closed: the hub screen's rule, the latest round until it is closed."""
    event = comp.event
    if event.phase is not EventPhase.PLAYING or not event.stages_played:
        return None
    if stage != event.stages_played[-1]:
        return None
    tables = comp.tables()
    return sum(1 for t in tables if t.finished), len(tables)


def progress_text(progress: tuple[int, int], words: Words) -> str:
    """``3 of 4 tables done`` (:func:`round_progress`'s figures) in the reader's language."""
    done, tables = progress
    # Translators: inside a sentence ("Standings — round-3 in play, 3 of 4 tables done")
    return words.npgettext(
        "round in play", "{done} of {n} table done", "{done} of {n} tables done", tables
    ).format(done=done, n=tables)


def last_closed(comp: Competition) -> str | None:
    """The last closed round: the latest once closed, else the one before it."""
    closed = [s for s in comp.event.stages_played if round_progress(comp, s) is None]
    return closed[-1] if closed else None


def standings_heading(comp: Competition, stage: str, words: Words) -> str:
    """A stage's standings heading: after a closed round, or the round still in play."""
    progress = round_progress(comp, stage)
    name = stage_label(stage, words)
    if progress is None:
        return words.gettext("Standings after {stage}").format(stage=name)
    return words.gettext("Standings — {stage} in play, {progress}").format(
        stage=name, progress=progress_text(progress, words)
    )


def tie_fact(record: OrganizerFact) -> TieDecided:
    return fact_of(record, TieDecided)


def scope_label(scope: str, words: Words) -> str:
    """Where a tie was: the final ranking, a stage, or a table of a stage (English keeps
    the scope as ``rummikub tie`` takes it: ``ranking``, ``tables/table-1``)."""
    stage, table = split_scope(scope)
    if stage == RANKING_SCOPE:
        # Translators: where a tie was: the final ranking (English: the scope's code)
        return words.pgettext("tie scope", "ranking")
    if stage == OVERALL_SCOPE:
        # Translators: where a tie was: the standings over every game so far, which seat
        # the next round by standings (English: the scope's code)
        return words.pgettext("tie scope", "overall")
    if table is None:
        return stage_label(stage, words)
    # Translators: where a tie was: a table of a stage (English: the scope's code)
    return words.pgettext("tie scope", "{stage}/table-{table}").format(
        table=table, stage=stage_label(stage, words)
    )


def tie_how(fact: TieDecided, words: Words) -> str:
    """How a tie was decided (and the lot's seed)."""
    how = word(TIES, fact.how, words)
    if fact.seed is None:
        return how
    return words.gettext("{how}, seed {seed}").format(how=how, seed=fact.seed)


def tie_decision_text(comp: Competition, record: OrganizerFact, words: Words) -> str:
    """One decided tie: who is ahead of whom, how, by whom, when, why."""
    fact = tie_fact(record)
    names = [f"{player_of(comp, pid).name} ({pid})" for pid in fact.order]
    joined = (
        ", ".join(names) if fact.how is TieHow.SHARED else words.gettext(" ahead of ").join(names)
    )
    values = {
        "scope": scope_label(fact.scope, words),
        "players": joined,
        "how": tie_how(fact, words),
        "by": record.by or "-",
        "when": when(record.at, words),
        "why": record.why,
    }
    if record.why:
        return words.gettext(
            "Tie in {scope}: {players} — {how}, recorded by {by} on {when}; why: {why}."
        ).format(**values)
    return words.gettext("Tie in {scope}: {players} — {how}, recorded by {by} on {when}.").format(
        **values
    )


def consolation_decision(fact: ConsolationDecided, words: Words) -> str:
    """What the organizer decided for the consolation players, in a few words."""
    if fact.none:
        return words.gettext("none play more games")
    return words.ngettext("the best {n} plays on", "the best {n} play on", fact.promote).format(
        n=fact.promote
    )


def consolation_text(record: OrganizerFact, words: Words) -> str:
    """The organizer's decision on consolation players who cannot sit at tables of 3–4."""
    fact = fact_of(record, ConsolationDecided)
    stage = stage_label(fact.stage, words)
    if fact.none:
        what = words.gettext("they play no more games (fewer than 003 §7's 4)")
    else:
        what = words.ngettext(
            "the best {n} of them plays on in {stage}",
            "the best {n} of them play on in {stage}",
            fact.promote,
        ).format(n=fact.promote, stage=stage)
    values = {
        "stage": stage,
        "what": what,
        "by": record.by or "-",
        "when": when(record.at, words),
        "why": record.why,
    }
    if record.why:
        return words.gettext(
            "Consolation games before {stage}: {what} — the organizer's decision, "
            "recorded by {by} on {when}; why: {why}."
        ).format(**values)
    return words.gettext(
        "Consolation games before {stage}: {what} — the organizer's decision, "
        "recorded by {by} on {when}."
    ).format(**values)


def ties_notes(
    comp: Competition, stage: str | None, words: Words, table: int | None = None
) -> list[str]:
    """The decided ties in ``stage``'s ranking and at its tables (or only ``table``);
    ``stage`` None: the final ranking; ``"overall"``: the standings over every game."""
    out = []
    for record in comp.ties:
        scope_stage, scope_table = split_scope(tie_fact(record).scope)
        if stage is None:
            wanted = scope_stage == RANKING_SCOPE
        else:
            wanted = scope_stage == stage and (table is None or scope_table in (None, table))
        if wanted:
            out.append(tie_decision_text(comp, record, words))
    return out


def league_cells(comp: Competition) -> dict[str, str]:
    """League points per player as shown; a shared place not decided yet is ``?``."""
    event = comp.event
    if not event.format.league:
        return {}
    return {pid: "?" if n is None else str(n) for pid, n in event.league_points_so_far().items()}


def league_points_note(comp: Competition, words: Words) -> str:
    """How a league tournament's points are given (003 §9 and the ruling for more than 16
    participants), with this event's figures; "" for an event that is not a league."""
    event = comp.event
    if not event.format.league:
        return ""
    ranked = len(event.final_ranking())
    return words.gettext(
        "League points: with N participants, S = N up to 16 and 16 above; 1st place scores "
        "S + 1, place p from 2nd on S + 1 − p, and 0 from the 17th place on. Here "
        "{n} participants: 1st {first} points, 2nd {second}."
    ).format(n=ranked, first=tournament_points(1, ranked),
             second=tournament_points(2, ranked) if ranked > 1 else 0)


def undecided_ranking_note(comp: Competition, words: Words) -> str:
    ties = comp.event.ranking_ties()
    if not ties:
        return ""
    listed = "; ".join(
        ", ".join(f"{player_of(comp, pid).name} ({pid})" for pid in tie.players) for tie in ties
    )
    return words.gettext(
        "Not decided yet — level on a place that carries a title or league points: "
        "{players}. The head judge decides (rummikub tie list)."
    ).format(players=listed)


def sanctions_note(comp: Competition, words: Words) -> str:
    n = len(comp.sanctions)
    return words.ngettext(
        "BP after the judge's deductions that count here (a deduction counts wherever the "
        "games of the round it was given in count); {n} sanction recorded, each listed "
        "with its round.",
        "BP after the judge's deductions that count here (a deduction counts wherever the "
        "games of the round it was given in count); {n} sanctions recorded, each listed "
        "with its round.",
        n,
    ).format(n=n)

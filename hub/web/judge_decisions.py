"""The judges' decisions in the web console: sanctions (a warning, big points deducted, a
disqualification, and lifting one given by mistake) and ties at a cut (the head judge's
order, a shared final place, or a lot the judge orders).

The kit lists and asks; the judge decides. Each form calls the command line's command
(:mod:`hub.judging`: ``sanction_record``/``lift_record`` then ``sanction``, ``decide_tie``)
recorded as the signed-in judge's, with the same checks and the same confirmation of a
sanction that moves who qualified, places or titles; a refusal is shown next to its field,
the form as it was typed, and nothing is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hub.competition import OrganizerFact
from hub.effects import Change, ReasonNeededError
from hub.exports.lists import sanction_given_text, sanction_lifted_text, sanctions_grid
from hub.exports.notes import scope_label, tie_decision_text
from hub.exports.results import changes_grid
from hub.exports.words import SANCTIONS, stage_label
from hub.organizer import Organizer
from hub.tournament import RANKING_SCOPE, SanctionKind, Tie, TieHow, player_order
from hub.tournament.standings import signed
from hub.web.auth import WebRole, needs
from hub.web.judge import Desk, confirmation, judge_name, judges_form, see_other, stamp
from hub.web.judge_views import FORM_WIDE, FieldError
from hub.web.pages import Pages
from tablekit.core.errors import KitError
from tablekit.core.words import N_
from tablekit.shared.i18n import Words


@dataclass(frozen=True)
class Typed:
    """A decision's form as the judge sent it, and what is wrong with it, by field."""

    values: Mapping[str, str] = field(default_factory=dict)
    errors: Mapping[str, KitError] = field(default_factory=dict)
    form: str = ""
    """Which of the page's forms it was (``give``, ``lift``, a tie's scope)."""

    def get(self, key: str, default: str = "") -> str:
        return self.values.get(key, default)

    def error(self, key: str) -> KitError | None:
        return self.errors.get(key)


@dataclass(frozen=True)
class TieAsked:
    """A tie at a cut as the head judge is asked about it: where, what the order decides,
    and the places to fill (nothing chosen beforehand: the kit proposes no order)."""

    tie: Tie
    heading: str
    stake: str
    """What their order decides: who goes on, who plays where, or final places."""
    places: tuple[str, ...]
    """The label of each place to fill, best first (with what it leads to)."""

    @property
    def ranking(self) -> bool:
        return self.tie.scope == RANKING_SCOPE


def tie_asked(tie: Tie, w: Words) -> TieAsked:
    n = len(tie.players)
    first, last = tie.place, tie.place + n - 1
    where = scope_label(tie.scope, w)
    level = w.gettext("{big} BP, {small} SP").format(big=tie.big, small=signed(tie.small))
    places = [w.gettext("Place {place} in {where}").format(place=first + i, where=where)
              for i in range(n)]
    if tie.scope == RANKING_SCOPE:
        heading = w.gettext("Level for final places {first}–{last} ({level})").format(
            first=first, last=last, level=level)
        stake = w.gettext("Their order gives them the final places {first}–{last}, which carry "
                          "different titles or league points.").format(first=first, last=last)
        return TieAsked(tie, heading, stake, tuple(places))
    stage = stage_label(tie.stage, w)
    heading = w.gettext("Level at the cut to {stage}: places {first}–{last} in {where} "
                        "({level})").format(stage=stage, first=first, last=last, where=where,
                                            level=level)
    if tie.going_on < n:
        stake = w.ngettext(
            "Only {k} of these {n} players goes on to {stage}: their order decides who.",
            "Only {k} of these {n} players go on to {stage}: their order decides who.",
            tie.going_on,
        ).format(k=tie.going_on, n=n, stage=stage)
        places = [
            w.gettext("{place} — goes on to {stage}").format(place=label, stage=stage)
            if i < tie.going_on else label
            for i, label in enumerate(places)
        ]
    else:
        stake = w.gettext("All {n} play {stage}, at tables that play for different places: "
                          "their order decides who plays where.").format(n=n, stage=stage)
    return TieAsked(tie, heading, stake, tuple(places))


def tie_order(tie: Tie, values: Mapping[str, str]) -> tuple[str, ...]:
    """The order the judge chose for ``tie`` (``place-1`` … ``place-N``), every level
    player once; FieldError otherwise."""
    order = tuple(values.get(f"place-{n}", "") for n in range(1, len(tie.players) + 1))
    if sorted(order) != sorted(tie.players):
        raise FieldError(N_("name each level player once, best first"))
    return order


def routes(pages: Pages) -> list[BaseRoute]:
    desk = Desk(pages)
    reader = pages.console.reader

    # --- sanctions --------------------------------------------------------------------

    def sanctions_page(
        request: Request, typed: Typed = Typed(), changes: Sequence[Change] = (),
        key: str = "", status: int = 200,
    ) -> Response:
        comp = desk.event(request)
        w = pages.words(request)
        event = comp.event
        done = request.query_params.get("done", "")
        number = request.query_params.get("number", "")
        said = ""
        numbered = comp.numbered_sanctions()
        if number.isdigit() and 1 <= int(number) <= len(numbered):
            given, lifted = numbered[int(number) - 1][1:]
            if done == "given":
                said = sanction_given_text(comp, given, w, stamp(w))
            elif done == "lifted" and lifted is not None:
                said = sanction_lifted_text(comp, int(number), lifted, w, stamp(w))
        return pages.render(
            request, "judge_sanctions.html", status, typed=typed, said=said,
            players=sorted(event.players.values(), key=player_order),
            stages=event.stages_played, kinds=[(k.value, w.gettext(SANCTIONS[k]))
                                               for k in SanctionKind],
            active=[(n, sanction_given_text(comp, g, w, stamp(w)))
                    for n, g, lifted in numbered if lifted is None],
            listed=sanctions_grid(comp, words=w),
            changes=changes_grid(comp, changes, w) if changes else None, confirm=key,
            message=lambda err: err.message(w.gettext), form_wide=FORM_WIDE,
        )

    @needs(WebRole.JUDGE)
    def sanctions(request: Request) -> Response:
        return sanctions_page(request)

    def give_sanction(request: Request, values: Mapping[str, str]) -> Response:
        comp = desk.event(request)
        typed = Typed(values, form="give")
        pid = values.get("player", "")
        kind = values.get("kind", "")
        errors: dict[str, KitError] = {}
        if pid not in comp.event.players:
            errors["player"] = FieldError(N_("choose the player"))
        if kind not in {k.value for k in SanctionKind}:
            errors["kind"] = FieldError(N_("choose the sanction"))
        big = 0
        if kind == SanctionKind.DEDUCTION.value:
            text = values.get("big", "").strip()
            big = int(text) if text.isdigit() else 0
            if big < 1:
                errors["big"] = FieldError(N_("the big points deducted: a number, 1 or more"))
        stage = values.get("stage") or None
        if stage is not None:
            stage = desk.stage_of(request, comp, stage)
        if errors:
            return sanctions_page(request, Typed(values, errors, "give"), status=400)
        return decide(
            request, typed,
            lambda organizer: organizer.sanction_record(
                pid, SanctionKind(kind), why=values.get("why", ""), big=big, stage=stage
            ),
        )

    def lift_sanction(request: Request, values: Mapping[str, str]) -> Response:
        typed = Typed(values, form="lift")
        text = values.get("number", "")
        if not text.isdigit():
            error = FieldError(N_("choose the sanction to lift"))
            return sanctions_page(request, Typed(values, {"number": error}, "lift"), status=400)
        return decide(
            request, typed,
            lambda organizer: organizer.lift_record(int(text), why=values.get("why", "")),
        )

    def decide(
        request: Request, typed: Typed, draft_of: Callable[[Organizer], OrganizerFact]
    ) -> Response:
        """Make the sanction's (or lifting's) record, show what it changes that weighs
        for confirming, store it once confirmed; a refusal next to its field."""
        stored: OrganizerFact | None = None
        changes: list[Change] = []
        key = ""
        try:
            with reader.acting(judge_name(request)) as organizer:
                draft = draft_of(organizer)
                changes = organizer.effects(draft)
                weighty = any(c.weighty for c in changes)
                key = confirmation(draft.fact, draft.why, tuple(changes)) if weighty else ""
                if not weighty or typed.get("confirmed") == key:
                    stored = organizer.sanction(draft, confirmed=weighty)
                    number = len(organizer.competition.sanctions)
                    if typed.form == "lift":
                        number = int(typed.get("number"))
        except KitError as err:
            where = "why" if isinstance(err, ReasonNeededError) else FORM_WIDE
            return sanctions_page(request, Typed(typed.values, {where: err}, typed.form),
                                  status=400)
        if stored is None:  # the judge sees what it changes first, then confirms it
            return sanctions_page(request, typed, changes, key, status=409)
        done = "lifted" if typed.form == "lift" else "given"
        return see_other(request, "/judge/sanctions", done=done, number=number)

    # --- ties at a cut ----------------------------------------------------------------

    def ties_page(request: Request, typed: Typed = Typed(), status: int = 200) -> Response:
        comp = desk.event(request)
        w = pages.words(request)
        said = ""
        if request.query_params.get("done") == "tie" and comp.ties:
            said = tie_decision_text(comp, comp.ties[-1], w)
        pending = comp.event.pending_ties()
        return pages.render(
            request, "judge_ties.html", status, typed=typed, said=said,
            ties=[tie_asked(tie, w) for tie in pending],
            name=lambda pid: comp.event.players[pid].name if pid in comp.event.players
            else pid,
            decided=[tie_decision_text(comp, record, w) for record in comp.ties],
            message=lambda err: err.message(w.gettext), form_wide=FORM_WIDE,
        )

    @needs(WebRole.JUDGE)
    def ties(request: Request) -> Response:
        return ties_page(request)

    def record_tie(request: Request, values: Mapping[str, str]) -> Response:
        comp = desk.event(request)
        scope = values.get("scope", "")
        tie = next((t for t in comp.event.pending_ties() if t.scope == scope), None)
        if tie is None:
            error = FieldError(N_("this tie is no longer waiting for a decision"))
            return ties_page(request, Typed(values, {FORM_WIDE: error}, scope), status=400)
        how = {"judge": TieHow.JUDGE, "shared": TieHow.SHARED, "lot": TieHow.LOT}.get(
            values.get("how", ""), TieHow.JUDGE
        )
        try:
            order = tie.players if how is TieHow.LOT else tie_order(tie, values)
            with reader.acting(judge_name(request)) as organizer:
                organizer.decide_tie(scope, order, how, why=values.get("why", ""))
        except FieldError as err:
            return ties_page(request, Typed(values, {"order": err}, scope), status=400)
        except KitError as err:
            where = "why" if isinstance(err, ReasonNeededError) else FORM_WIDE
            return ties_page(request, Typed(values, {where: err}, scope), status=400)
        return see_other(request, "/judge/ties", done="tie")

    return [
        Route("/judge/sanctions", pages.guarded(sanctions), methods=["GET"]),
        Route("/judge/sanctions", pages.guarded(judges_form(give_sanction)), methods=["POST"]),
        Route("/judge/sanctions/lift", pages.guarded(judges_form(lift_sanction)), methods=["POST"]),
        Route("/judge/ties", pages.guarded(ties), methods=["GET"]),
        Route("/judge/ties", pages.guarded(judges_form(record_tie, WebRole.HEAD_JUDGE)),
              methods=["POST"]),
    ]

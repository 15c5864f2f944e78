"""The judges' pages (a judge's or the organizer's login): the tables waiting for the
judge, live; a table's page, where the judge records what was decided at a call; a game's
result entered or corrected with who and why; every version of a result, every correction.

Every action is the organizer's command line's own command (:mod:`hub.judging`) on the same
event store, recorded as the signed-in judge's: the same checks, the same records, the same
confirmation before a change that moves who qualified, places or titles. A refused action
shows the kit's message next to the field it concerns, the form as it was typed, and
nothing is stored; a stored one answers with a redirect to a page that says what it did.
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Final
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from hub.competition import Competition, ResultVersion
from hub.effects import Change
from hub.exports.grid import Grid, when
from hub.exports.lists import judge_calls_grid
from hub.exports.results import (
    ENDING_WORDS,
    changes_grid,
    corrections_grid,
    undone_lines,
    version_grid,
    version_header,
)
from hub.hall import HallView, judge_queue, wait_text
from hub.web.auth import WebRole, needs, posted_form, signed_in
from hub.web.judge_views import (
    ENDINGS,
    FORM_WIDE,
    OPENINGS,
    ResultForm,
    empty_form,
    error_fields,
    judge_table,
    racks_of,
    refused_results,
    typed_form,
    waiting_tables,
)
from hub.web.pages import Endpoint, PageError, Pages
from tablekit.core.clock_events import PauseReason
from tablekit.core.errors import KitError
from tablekit.core.rulesets import Ruleset
from tablekit.core.scoring import GameEnding, GameReport, Opening, usual_ending
from tablekit.core.status import word
from tablekit.shared.i18n import Words

RECEIPTS: Final = 200
"""What the latest stored results changed, kept for the page that says so."""


class Receipts:
    """What each stored result changed in the standings (the changes computed before it
    was stored), by a token the redirect carries; the latest :data:`RECEIPTS` only."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, tuple[Change, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, changes: Sequence[Change]) -> str:
        token = secrets.token_urlsafe(9)
        with self._lock:
            self._kept[token] = tuple(changes)
            while len(self._kept) > RECEIPTS:
                self._kept.popitem(last=False)
        return token

    def get(self, token: str) -> tuple[Change, ...] | None:
        with self._lock:
            return self._kept.get(token)


class Desk:
    """What the judges' pages share: the event as stored, the stage a page asks for."""

    def __init__(self, pages: Pages) -> None:
        self.pages = pages

    def event(self, request: Request) -> Competition:
        comp = self.pages.console.reader.competition()
        if comp is None or comp.created is None:
            w = self.pages.words(request)
            raise PageError(404, w.gettext("There is no event yet: the organizer creates it."))
        return comp

    def stage_of(self, request: Request, comp: Competition, asked: str | None) -> str:
        """The drawn stage ``asked`` (default: the latest drawn)."""
        played = comp.event.stages_played
        w = self.pages.words(request)
        if not played:
            raise PageError(404, w.gettext("Nothing is drawn yet."))
        if not asked:
            return played[-1]
        if asked not in played:
            raise PageError(
                404, w.gettext("No stage {stage} is drawn in this event.").format(stage=asked)
            )
        return asked


def judge_name(request: Request) -> str:
    """The signed-in judge's (or organizer's) name, recorded with what they do."""
    user = signed_in(request)
    assert user is not None  # needs() let only a signed-in judge through
    return user.signature


def see_other(request: Request, path: str, **query: object) -> Response:
    """The page to show after a change (POST, then redirect, then GET), in the language
    the judge reads."""
    params = {k: str(v) for k, v in query.items()}
    if "lang" in request.query_params:
        params["lang"] = request.query_params["lang"]
    return RedirectResponse(f"{path}?{urlencode(params)}", status_code=303)


FormAction = Callable[[Request, Mapping[str, str]], Response]
"""What a posted form does, given its text fields (run in the thread pool)."""


def judges_form(action: FormAction, role: WebRole = WebRole.JUDGE) -> Endpoint:
    """The endpoint of a judges' form: a signed-in judge (or the organizer; ``role``: who
    else may) only, its CSRF token checked before anything is done, then ``action`` with
    the form's text fields."""

    async def endpoint(request: Request) -> Response:
        form = await posted_form(request)
        values = {k: v for k, v in form.items() if isinstance(v, str)}
        return await run_in_threadpool(action, request, values)

    return needs(role)(endpoint)


def routes(pages: Pages) -> list[BaseRoute]:
    console = pages.console
    reader = console.reader
    receipts = Receipts()

    desk = Desk(pages)
    event, stage_of = desk.event, desk.stage_of

    def number(request: Request, text: str | None, what: str) -> int:
        if text is not None and text.isdigit() and int(text) > 0:
            return int(text)
        w = pages.words(request)
        raise PageError(400, w.gettext("{what}: a number, 1 or more").format(what=what))

    def refused(request: Request, err: KitError, status: int = 404) -> PageError:
        return PageError(status, err.message(pages.words(request).gettext))

    # --- the queue --------------------------------------------------------------------

    @needs(WebRole.JUDGE)
    def queue(request: Request) -> Response:
        live = console.live
        now = time.time()
        waiting = waiting_tables(live.hall, live.cards, now)
        comp = reader.competition()
        played = () if comp is None or comp.state is None else comp.event.stages_played
        seated = len(comp.event.seating(played[-1])) if comp is not None and played else 0
        cards = {card.number: card for card in live.cards}
        w = pages.words(request)
        refused = (
            [r for r in refused_results(comp, played[-1]) if not r.settled]
            if comp is not None and played
            else []
        )
        return pages.render(
            request, "judge_queue.html", waiting=waiting, round=live.hall.round,
            tables=[(n, cards.get(n)) for n in range(1, seated + 1)],
            wait_text=lambda seconds: wait_text(seconds, w),
            say_state=lambda state: w.gettext(word(state)), refused=refused,
            message=lambda said: said.message(w.gettext),
        )

    # --- a table ----------------------------------------------------------------------

    def table_page(
        request: Request, number: int, note: str = "", error: KitError | None = None,
        status: int = 200,
    ) -> Response:
        comp = event(request)
        stage = stage_of(request, comp, request.query_params.get("stage"))
        try:
            view = judge_table(comp, stage, number)
        except KitError as err:
            raise refused(request, err) from None
        w = pages.words(request)
        live = console.live
        now = time.time()
        card = next((c for c in live.cards if c.number == number), None)
        call = next((wt.call for wt in waiting_tables(live.hall, live.cards, now)
                     if wt.call.table == number), None)
        grids = [
            (game.game, game_grid(comp, stage, number, game.versions, w))
            for game in view.games
        ]
        return pages.render(
            request, "judge_table.html", status, view=view, card=card, call=call,
            grids=grids, calls=judge_calls_grid(comp, stage, number, words=w),
            note=note, error=error and error.message(w.gettext),
            wait_text=lambda seconds: wait_text(seconds, w),
            message=lambda said: said.message(w.gettext),
            done=request.query_params.get("done", ""), round=live.hall.round,
            say_state=lambda state: w.gettext(word(state)),
        )

    @needs(WebRole.JUDGE)
    def table(request: Request) -> Response:
        return table_page(request, request.path_params["number"])

    def resolve_call(request: Request, form: Mapping[str, str]) -> Response:
        number = request.path_params["number"]
        comp = event(request)
        stage = stage_of(request, comp, form.get("stage"))
        note = form.get("note", "")
        waiting = waited_at(console.live.hall, number)
        try:
            with reader.acting(judge_name(request)) as organizer:
                organizer.resolve_call(
                    number, note, stage=stage, game=waiting[0] if waiting else 0,
                    called=waiting[1] if waiting else None,
                    since=waiting[2] if waiting else None,
                )
        except KitError as err:
            return table_page(request, number, note, err, 400)
        # A table that was not waiting gets the judge's note, not a resolved call.
        done = "call" if waiting else "note"
        return see_other(request, f"/judge/tables/{number}", stage=stage, done=done)

    # --- results ----------------------------------------------------------------------

    def result_target(request: Request, values: Mapping[str, str]) -> tuple[str, int, int]:
        comp = event(request)
        w = pages.words(request)
        stage = stage_of(request, comp, values.get("stage"))
        table_no = number(request, values.get("table"), w.gettext("Table"))
        game = number(request, values.get("game"), w.gettext("Game"))
        try:
            comp.table_playing(stage, table_no, game)
        except KitError as err:
            raise refused(request, err) from None
        return stage, table_no, game

    def result_page(
        request: Request, form: ResultForm, changes: Sequence[Change] = (), key: str = "",
        status: int = 200,
    ) -> Response:
        comp = event(request)
        w = pages.words(request)
        versions = comp.history(form.stage, form.table, form.game)
        return pages.render(
            request, "judge_result.html", status, form=form,
            round_number=comp.round_number(form.stage), corrected=bool(versions),
            openings=OPENINGS, endings=ENDINGS, form_wide=FORM_WIDE,
            message=lambda err: err.message(w.gettext),
            changes=changes_grid(comp, changes, w) if changes else None, confirm=key,
            opening_words=opening_words(w, comp.ruleset(form.stage)),
            ending_words=ending_words(w),
            current=game_grid(comp, form.stage, form.table, tuple(versions), w)
            if versions else None,
        )

    @needs(WebRole.JUDGE)
    def result(request: Request) -> Response:
        values = dict(request.query_params)
        if not values.get("table") or not values.get("game"):
            comp = event(request)
            stage = stage_of(request, comp, values.get("stage"))
            return pages.render(
                request, "judge_choose.html", stages=comp.event.stages_played, stage=stage,
                tables=len(comp.event.seating(stage)),
            )
        stage, table_no, game = result_target(request, values)
        return result_page(request, empty_form(event(request), stage, table_no, game))

    def enter_result(request: Request, values: Mapping[str, str]) -> Response:
        stage, table_no, game = result_target(request, values)
        form = typed_form(event(request), stage, table_no, game, values)
        racks, errors = racks_of(form)
        if errors:
            return result_page(request, with_errors(form, errors), status=400)
        ending = GameEnding(form.ending) if form.ending else usual_ending(racks)
        report = GameReport(game=game, ending=ending, racks=racks)
        recorded = False
        try:
            with reader.acting(judge_name(request)) as organizer:
                record = organizer.result_record(
                    table_no, report, why=form.why, stage=stage, not_ended=form.not_ended
                )
                changes = organizer.effects(record)
                weighty = any(c.weighty for c in changes)
                key = confirmation(report, form.why, tuple(changes)) if weighty else ""
                if not weighty or values.get("confirmed") == key:
                    organizer.enter_result(
                        table_no, report, why=form.why, stage=stage, confirmed=weighty,
                        not_ended=form.not_ended,
                    )
                    recorded = True
        except KitError as err:
            keys = error_fields(err)
            return result_page(request, with_errors(form, dict.fromkeys(keys, err)), status=400)
        if not recorded:  # the judge sees what it changes first, then confirms those changes
            return result_page(request, form, changes, key, status=409)
        token = receipts.keep(changes)
        return see_other(
            request, "/judge/result/stored", stage=stage, table=table_no, game=game,
            receipt=token,
        )

    def game_versions(
        request: Request,
    ) -> tuple[Competition, Words, str, int, int, list[ResultVersion]]:
        """The game the address names, and every version of its result."""
        stage, table_no, game = result_target(request, request.query_params)
        comp = event(request)
        w = pages.words(request)
        return comp, w, stage, table_no, game, comp.history(stage, table_no, game)

    @needs(WebRole.JUDGE)
    def stored(request: Request) -> Response:
        comp, w, stage, table_no, game, versions = game_versions(request)
        if not versions:
            raise PageError(404, w.gettext("This game has no result yet."))
        changes = receipts.get(request.query_params.get("receipt", ""))
        return pages.render(
            request, "judge_stored.html", stage=stage, table=table_no, game=game,
            header=version_header(len(versions), versions[-1], w, stamp(w)),
            stored_grid=version_grid(comp, stage, table_no, versions[-1:], len(versions), words=w),
            changes=None if changes is None else standings_changes(comp, changes, w),
            changed=bool(changes), round_number=comp.round_number(stage),
        )

    @needs(WebRole.JUDGE)
    def history(request: Request) -> Response:
        comp, w, stage, table_no, game, versions = game_versions(request)
        return pages.render(
            request, "judge_history.html", stage=stage, table=table_no, game=game,
            headers=[version_header(n, v, w, stamp(w)) for n, v in enumerate(versions, 1)],
            versions_grid=version_grid(comp, stage, table_no, versions, words=w)
            if versions else None,
            round_number=comp.round_number(stage),
        )

    @needs(WebRole.JUDGE)
    def corrections(request: Request) -> Response:
        comp = event(request)
        w = pages.words(request)
        return pages.render(
            request, "judge_corrections.html",
            corrections_grid=corrections_grid(comp, w), undone=undone_lines(comp, w, stamp(w)),
            calls=judge_calls_grid(comp, words=w),
        )

    return [
        Route("/judge", pages.guarded(queue), methods=["GET"]),
        Route("/judge/tables/{number:int}", pages.guarded(table), methods=["GET"]),
        Route("/judge/tables/{number:int}/calls", pages.guarded(judges_form(resolve_call)),
              methods=["POST"]),
        Route("/judge/result", pages.guarded(result), methods=["GET"]),
        Route("/judge/result", pages.guarded(judges_form(enter_result)), methods=["POST"]),
        Route("/judge/result/stored", pages.guarded(stored), methods=["GET"]),
        Route("/judge/result/history", pages.guarded(history), methods=["GET"]),
        Route("/judge/corrections", pages.guarded(corrections), methods=["GET"]),
    ]


def confirmation(*confirmed: object) -> str:
    """What a judge confirms — this result (or sanction), for this reason, with these
    changes — as a digest the confirming form carries: typed differently, or changed
    meanwhile by another record, it is shown again."""
    return hashlib.sha256(repr(confirmed).encode()).hexdigest()[:20]


def opening_words(words: Words, ruleset: Ruleset) -> dict[Opening, str]:
    """A seat's choices of its initial meld, with the penalty the stage's rules give."""
    _ = words.gettext
    return {
        Opening.OPENED: _("opened"),
        Opening.NOT_OPENED: _("never opened (np): {points}").format(
            points=ruleset.not_opened_penalty),
        Opening.COULD_HAVE_OPENED: _("could have opened, did not (cho): {points}").format(
            points=ruleset.could_have_opened_penalty),
        Opening.WAIVED: _("announced the opening: penalty waived, {points}").format(
            points=ruleset.not_opened_penalty),
    }


def ending_words(words: Words) -> dict[str, str]:
    """The form's endings, the first as the racks tell it."""
    return {
        "": words.gettext("as the racks tell (went out when a rack is 0)"),
        **{e.value: words.gettext(ENDING_WORDS[e]) for e in GameEnding},
    }


def standings_changes(comp: Competition, changes: Sequence[Change], words: Words) -> Grid:
    """What a stored result changed (the command line's grid; its note on the rounds
    already drawn only when it moved who qualified or a seating)."""
    grid = changes_grid(comp, changes, words)
    return grid if any(c.weighty for c in changes) else dataclasses.replace(grid, note="")


def with_errors(form: ResultForm, errors: Mapping[str, KitError]) -> ResultForm:
    return dataclasses.replace(form, errors=dict(errors))


def stamp(words: Words) -> Callable[[float], str]:
    """A moment as the pages say it (``26 listopada 2026, 10:27``)."""
    return lambda at: when(at, words)


def game_grid(
    comp: Competition, stage: str, table: int, versions: Sequence[ResultVersion], words: Words
) -> Grid | None:
    """The version of a game's result that counts (numbered), None without one."""
    if not versions:
        return None
    return version_grid(comp, stage, table, versions[-1:], len(versions), words=words)


def waited_at(hall: HallView, table: int) -> tuple[int, PauseReason, float] | None:
    """(game, why, since) of ``table`` while it waits for the judge (the hub screen's
    judge queue), None when it does not."""
    call = next((c for c in judge_queue(hall, time.time()) if c.table == table), None)
    if call is None:
        return None
    cell = hall.table(table)
    if cell.paused is None:
        return None
    return cell.game, cell.paused, call.since

"""The organizer's day on the web console: the round's status, the draw (its seating, the
consolation decision it may ask for, the ties at a cut it may stop on), undo, start with
the round's time, close (and close with games missing), the starting seat of a table's
game, the standings of every stage, and the exports to download.

Every action calls the organizer's command the command line calls
(:class:`~hub.organizer.Organizer` over the same event store, as the web user: the record
says who acted). A refused one shows its error next to the form it concerns, with what was
typed, and stores nothing; a done one redirects (POST, redirect, GET) to a page saying
what it did, from what the store holds now.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from hub.backup import read_status, status_lines
from hub.competition import Competition, CompetitionError
from hub.exports.lists import seating_grid
from hub.exports.notes import consolation_text, repeats_text
from hub.exports.standings import ranking_grid, standings_grid
from hub.exports.words import stage_label
from hub.hall import HallView
from hub.hall_board import (
    HallRow,
    expected_tables,
    hall_board,
    hall_grid,
    latest_checks,
    unchecked_parts,
)
from hub.organizer import ConsentMissingError, Organizer, minutes_of
from hub.retained import LiveSource, season_board
from hub.season import seeding_text, seeds_for
from hub.store_report import over_limit_lines
from hub.tournament import ConsolationError, EventPhase, TieAtCutError
from hub.web.auth import posted_form, signed_in
from hub.web.organizer import organizer_page, the_event
from hub.web.pages import PageError, Pages, event_language, link, reader_language
from hub.web.rounds_view import RoundView, closed_fact, round_view, seated_fact
from tablekit.core.errors import KitError, quoted
from tablekit.core.seats import SEATS, Seat
from tablekit.core.words import N_
from tablekit.shared import forms
from tablekit.shared.i18n import Words
from tablekit.shared.version import kit_version

T = TypeVar("T")

HOME: Final = "/organizer/round"

DONE: Final = frozenset(
    {"drawn", "started", "undone", "closed", "starter", "consolation", "seeded"}
)
"""What a redirect after a change says was done (the page reads the rest from the store)."""


@dataclass(frozen=True)
class ConsolationChoice:
    """What the organizer chooses from when a draw stops on consolation players who cannot
    sit at tables of 3 or 4 (:class:`~hub.tournament.ConsolationError`'s options)."""

    options: tuple[int, ...]


class FormError(KitError):
    """A field of a form that cannot be read (the page shows it next to the field)."""


def other_kits_text(hall: HallView | None, hub_kit: str, w: Words) -> str:
    """The tables whose unit runs another kit version than the hub's ``hub_kit``, in one
    sentence ("" when none does, or when the console does not hear the tables)."""
    others = [] if hall is None else hall.other_kits(hub_kit)
    if not others:
        return ""
    tables = ", ".join(
        w.gettext("{table} ({version})").format(table=t, version=v or w.gettext("too old to say"))
        for t, v in others
    )
    return w.gettext(
        "Another version of the kit than the hub's ({hub}) at tables: {tables}. Update "
        "them between games."
    ).format(hub=hub_kit, tables=tables)


def routes(pages: Pages) -> list[BaseRoute]:
    console = pages.console

    def who(request: Request) -> str:
        """The signed-in organizer's name (the pages are only theirs: :func:`needs`)."""
        user = signed_in(request)
        return "" if user is None else user.signature

    def language(request: Request) -> tuple[str, str]:
        default = event_language(console.reader.competition())
        return reader_language(request, default), default

    def redirect(request: Request, path: str, **query: Any) -> Response:
        code, default = language(request)
        return RedirectResponse(link(code, default)(path, **query), status_code=303)

    def competition(request: Request) -> Competition:
        return the_event(pages, request)

    def round_page(
        request: Request,
        status: int = 200,
        errors: Mapping[str, str] | None = None,
        typed: Mapping[str, str] | None = None,
        **values: Any,
    ) -> Response:
        comp = competition(request)
        w = pages.words(request)
        view = round_view(comp)
        done = request.query_params.get("done", "")
        confirmation = done_text(comp, view, done, w) if done in DONE else ""
        closed = None
        if done == "closed" and view.stage is not None and view.stages:
            closed = standings_grid(comp, view.stages[-1], words=w)
        cards = {card.number: card for card in console.live.cards}
        hub_lines = [
            w.gettext("Rejected at {at}: table {table} game {game} from {source}: {reason}").format(
                at=_clock(r.at), table=r.table, game=r.game, source=r.unit or r.by,
                reason=r.why_words().message(w.gettext),
            )
            for r in comp.rejected[-5:]
        ]
        backup = read_status(console.reader.db)
        if backup is not None:
            hub_lines += status_lines(backup, time.time(), w)
        counts = console.reader.read(lambda store: store.refusal_counts()) or []
        hub_lines += over_limit_lines(counts, w)
        values.setdefault("consolation", None)
        values.setdefault("ties", ())
        values.setdefault("minors", ())
        return pages.render(
            request, "rounds_round.html", status, view=view, cards=cards,
            errors=errors or {}, typed=typed or {}, confirmation=confirmation,
            closed=closed, label=lambda stage: stage_label(stage, w), seats=SEATS,
            number=lambda value: forms.number(value, w), hub_lines=hub_lines, **values,
        )

    def status(request: Request) -> Response:
        return round_page(request)

    async def act(
        request: Request,
        form_name: str,
        command: Callable[[Organizer, FormData], T],
        shown: Callable[[FormData], dict[str, Any]] = lambda form: {},
    ) -> T | Response:
        """``command`` as the signed-in user; a refusal: the round page again, its
        message next to the form ``form_name`` with what was typed (and ``shown(form)``:
        what else the form needs to be shown again)."""
        form = await posted_form(request)
        w = pages.words(request)
        by = who(request)

        def run() -> T:
            with console.reader.acting(by) as org:
                return command(org, form)

        try:
            return await run_in_threadpool(run)
        except ConsolationError as err:
            return await run_in_threadpool(
                round_page, request, 409, {form_name: err.message(w.gettext)},
                _typed(form), consolation=ConsolationChoice(err.options),
            )
        except ConsentMissingError as err:
            return await run_in_threadpool(
                round_page, request, 409, {form_name: err.message(w.gettext)},
                _typed(form), minors=err.missing,
            )
        except TieAtCutError as err:
            return await run_in_threadpool(
                round_page, request, 409, {form_name: err.message(w.gettext)},
                _typed(form), ties=err.ties,
            )
        except KitError as err:
            return await run_in_threadpool(
                round_page, request, 400, {form_name: err.message(w.gettext)}, _typed(form),
                **shown(form),
            )

    async def draw(request: Request) -> Response:
        def command(org: Organizer, form: FormData) -> str:
            seed = _whole(form, "seed", N_("the draw's seed must be a whole number, got {text}"))
            return org.draw(seed, admit_minors=form.get("admit_minors") == "yes").stage

        done = await act(request, "draw", command)
        if isinstance(done, Response):
            return done
        return redirect(request, "/organizer/round/seating", stage=done, done="drawn")

    async def seeds(request: Request) -> Response:
        """One click: the season's best 4 present, from the table the central league
        service keeps at the venue's broker, declared as seeds (003 §10a)."""
        feed = console.live.feed

        def command(org: Organizer, form: FormData) -> None:
            if feed is None:
                raise FormError(N_("the web console does not hear the hall's broker, so the "
                                   "league's season table cannot reach it"))
            board = season_board(LiveSource(feed.broker, feed.topics))
            event = org.competition.event
            chosen = seeds_for(board.lines, event.players, event.withdrawn)
            if not chosen:
                raise FormError(N_("no registered player of this event is in the league's "
                                   "season table"))
            org.declare_seeds([player.id for player, _ in chosen])

        done = await act(request, "seeds", command)
        if isinstance(done, Response):
            return done
        return redirect(request, HOME, done="seeded")

    async def consolation(request: Request) -> Response:
        def command(org: Organizer, form: FormData) -> None:
            choice = str(form.get("promote", "")).strip()
            why = str(form.get("why", ""))
            if choice == "none":
                org.decide_consolation(none=True, why=why)
                return
            promote = _whole(form, "promote", N_("choose how many play on, got {text}"))
            org.decide_consolation(promote=promote or 0, why=why)

        def shown(form: FormData) -> dict[str, Any]:
            options = str(form.get("options", "")).split(",")
            return {"consolation": ConsolationChoice(tuple(int(k) for k in options if k.isdigit()))}

        done = await act(request, "consolation", command, shown)
        return done if isinstance(done, Response) else redirect(request, HOME, done="consolation")

    async def start(request: Request) -> Response:
        def command(org: Organizer, form: FormData) -> None:
            text = str(form.get("minutes", "")).strip()
            org.start_round(minutes_of(text) if text else None)

        done = await act(request, "start", command)
        return done if isinstance(done, Response) else redirect(request, HOME, done="started")

    async def undo(request: Request) -> Response:
        def command(org: Organizer, form: FormData) -> str:
            return org.undo_draw(str(form.get("why", ""))).stage

        done = await act(request, "undo", command)
        if isinstance(done, Response):
            return done
        return redirect(request, HOME, done="undone", stage=done)

    async def close(request: Request) -> Response:
        def command(org: Organizer, form: FormData) -> None:
            force = form.get("force") == "yes"
            why = str(form.get("why", ""))
            if why.strip() and not force:
                raise CompetitionError(
                    N_("a reason goes with closing the round with games missing")
                )
            org.close_round(force=force, why=why)

        done = await act(request, "close", command)
        return done if isinstance(done, Response) else redirect(request, HOME, done="closed")

    async def starter(request: Request) -> Response:
        def command(org: Organizer, form: FormData) -> int:
            table = _whole(form, "table", N_("choose a table, got {text}"))
            seat = str(form.get("seat", "")).strip().upper()
            if table is None:
                raise FormError(N_("choose a table"))
            if seat not in SEATS:
                raise FormError(N_("a seat is A, B, C or D, got {text}"), text=quoted(seat))
            game = _whole(form, "game", N_("the game must be a whole number, got {text}"))
            org.choose_starter(table, Seat(seat), game=game, why=str(form.get("why", "")))
            return table

        done = await act(request, "starter", command)
        if isinstance(done, Response):
            return done
        return redirect(request, HOME, done="starter", table=done)

    def seating(request: Request) -> Response:
        comp = competition(request)
        w = pages.words(request)
        played = comp.event.stages_played
        stage = request.query_params.get("stage") or (played[-1] if played else "")
        if stage not in played:
            raise PageError(
                404, w.gettext("No stage {stage} is drawn in this event.").format(stage=stage)
            )
        seated = seated_fact(comp, stage)
        games = comp.format.stages[comp.format.stage_index(stage)].games
        three = sum(len(t.players) == 3 for t in comp.event.seating(stage))
        warning = None
        if played == (stage,) and request.query_params.get("done") == "drawn":
            parts = unchecked_parts(hall_rows(comp), w)
            if parts:
                warning = w.gettext("Hall check: {what}").format(what="; ".join(parts))
        return pages.render(
            request, "rounds_seating.html", grid=seating_grid(comp, stage, words=w),
            stage=stage, label=stage_label(stage, w),
            seated=seated, starts=[SEATS[(g - 1) % 4] for g in range(1, games + 1)],
            three=three, warning=warning, drawn=request.query_params.get("done") == "drawn",
            open=view_open(comp, stage), view=round_view(comp), errors={}, typed={},
            number=lambda value: forms.number(value, w),
            repeats=None if seated is None else repeats_text(seated, w),
        )

    def hall_rows(comp: Competition) -> list[HallRow]:
        """The hall check board, each table online as the console hears it."""
        rows = console.reader.read(
            lambda store: hall_board(expected_tables(comp), latest_checks(store))
        ) or []
        if not console.live.live:
            return rows
        cells = {cell.number: cell for cell in console.live.hall.tables}
        return [dataclasses.replace(r, online=cells[r.table].online) if r.table in cells else r
                for r in rows]

    def hall(request: Request) -> Response:
        comp = competition(request)
        w = pages.words(request)
        rows = hall_rows(comp)
        return pages.render(
            request, "rounds_hall.html", rows=rows, grid=hall_grid(rows, w, _clock),
            ready=sum(r.ready for r in rows), parts=unchecked_parts(rows, w),
            other_kits=other_kits_text(
                console.live.hall if console.live.live else None, kit_version(), w
            ),
        )

    def standings(request: Request) -> Response:
        comp = competition(request)
        w = pages.words(request)
        played = comp.event.stages_played
        stage = request.query_params.get("stage") or (played[-1] if played else "")
        overall = request.query_params.get("overall") == "1"
        grid = None
        if played:
            if stage not in played:
                raise PageError(
                    404, w.gettext("No stage {stage} is drawn in this event.").format(stage=stage)
                )
            grid = standings_grid(comp, stage, overall=overall, words=w)
        ranking = ranking_grid(comp, w) if comp.event.phase is EventPhase.FINISHED else None
        return pages.render(
            request, "rounds_standings.html", grid=grid, ranking=ranking, stage=stage,
            stages=[(s, stage_label(s, w)) for s in played], overall=overall,
        )

    return [
        Route(HOME, organizer_page(pages, status), methods=["GET"]),
        Route(f"{HOME}/draw", organizer_page(pages, draw), methods=["POST"]),
        Route(f"{HOME}/seeds", organizer_page(pages, seeds), methods=["POST"]),
        Route(f"{HOME}/consolation", organizer_page(pages, consolation), methods=["POST"]),
        Route(f"{HOME}/start", organizer_page(pages, start), methods=["POST"]),
        Route(f"{HOME}/undo", organizer_page(pages, undo), methods=["POST"]),
        Route(f"{HOME}/close", organizer_page(pages, close), methods=["POST"]),
        Route(f"{HOME}/starter", organizer_page(pages, starter), methods=["POST"]),
        Route(f"{HOME}/seating", organizer_page(pages, seating), methods=["GET"]),
        Route("/organizer/standings", organizer_page(pages, standings), methods=["GET"]),
        Route("/organizer/hall", organizer_page(pages, hall), methods=["GET"]),
    ]


def view_open(comp: Competition, stage: str) -> bool:
    open_stage = comp.open_stage()
    return open_stage is not None and open_stage.name == stage


def _typed(form: FormData) -> dict[str, str]:
    return {key: value for key, value in form.items() if isinstance(value, str)}


def _whole(form: FormData, field: str, message: str) -> int | None:
    """A whole number typed in ``field`` (None: left empty); FormError ``message``."""
    text = str(form.get(field, "")).strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise FormError(message, text=quoted(text)) from None


def done_text(comp: Competition, view: RoundView, done: str, w: Words) -> str:
    """What the change just made did, read back from the store (nothing when the store
    does not say so: a stale or hand-made address says nothing)."""
    _ = w.gettext
    stage = view.stage
    if done == "started" and view.started_at is not None and stage is not None:
        text = _("Started: {stage}, at {at}.").format(
            stage=stage_label(stage, w), at=_clock(view.started_at)
        )
        if view.deadline is not None:
            text += " " + _(
                "The round's time ends at {at}: then the hub tells every table still playing "
                "to play the last lap."
            ).format(at=_clock(view.deadline))
        else:
            text += " " + _("The round has no time limit.")
        return text + " " + _("The standings do not change.")
    if done == "closed" and view.stages and not view.open:
        closed = view.stages[-1]
        fact = closed_fact(comp, closed)
        forced = fact is not None and fact.forced
        text = (
            _("Closed: {stage}; the missing games count as not played.")
            if forced
            else _("Closed: {stage}.")
        ).format(stage=stage_label(closed, w))
        return text + " " + _("Its standings below are final.")
    if done == "consolation" and comp.consolations:
        return " ".join((consolation_text(comp.consolations[-1], w),
                         _("The standings do not change.")))
    if done == "undone" and comp.undone:
        return _(
            "Draw undone: its tables are told they have no assignment. The standings do not change."
        )
    if done == "seeded" and comp.event.seeds:
        seeded = comp.event.seeds
        names = ", ".join(comp.event.players[pid].name for pid in seeded)
        return " ".join((
            _("Seeded from the league's season table, best first: {names}.").format(names=names),
            seeding_text(comp, len(seeded)).message(_),
        ))
    if done == "starter":
        return " ".join((
            _("Starting seat recorded; the table shows it before the first press."),
            _("The standings do not change."),
        ))
    return ""


def _clock(at: float) -> str:
    return forms.clock_time(forms.local(at))

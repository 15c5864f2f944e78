"""The web console as a Starlette application: the public pages and their live stream.

Pages are rendered on the server by Jinja2 in the reader's language (Polish unless the
address says ``?lang=en``); every word goes through the kit's catalogs
(:mod:`tablekit.shared.i18n`), the templates' through Jinja2's i18n extension, which
Babel extracts (pyproject.toml's ``[tool.babel]``). A page works without JavaScript; one
small script of the kit's own (``static/live.js``, no build step) follows the server-sent
events of ``/live`` and replaces what changed. The public pages are read-only: they
answer GET and HEAD, and refuse every other method (405).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlencode

import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hub.competition import Competition
from hub.organizer import Organizer
from hub.store import HUB_SOURCE, EventStore
from hub.web.live import LiveTables, Update
from hub.web.views import (
    MIN_QUERY,
    TableCard,
    UnknownStageError,
    find_players,
    standings_view,
)
from tablekit.core.status import Colour, TableState, look, word
from tablekit.shared.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    LanguageError,
    Words,
    language,
    words,
)

HERE: Final = Path(__file__).resolve().parent
KEEPALIVE: Final = 15.0
"""Seconds between two comments on a quiet event stream (proxies and phones drop a
connection that says nothing)."""
HEADERS: Final = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""On every answer: scripts and styles only from the console itself, never framed."""


class EventReader:
    """The event as the organizer's command line reads it: an
    :class:`~hub.organizer.Organizer` over the event store (the same fold), opened once
    the file exists. Its reads are serialised (pages are served from a thread pool)."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self._organizer: Organizer | None = None
        self._lock = threading.Lock()

    def _open(self) -> Organizer | None:
        if self._organizer is None and self.db.is_file():
            self._organizer = Organizer(EventStore(self.db), by="web")
        return self._organizer

    def competition(self) -> Competition | None:
        """The event as stored now; None before the event file exists."""
        with self._lock:
            organizer = self._open()
            return None if organizer is None else organizer.competition

    def version(self) -> int:
        """Grows with every record the hub stores (0: none yet)."""
        with self._lock:
            organizer = self._open()
            mark = None if organizer is None else organizer.store.mark(HUB_SOURCE)
            return 0 if mark is None else mark.max_seq

    def close(self) -> None:
        with self._lock:
            if self._organizer is not None:
                self._organizer.store.close()
                self._organizer = None


# --- words --------------------------------------------------------------------------------


def stage_label(w: Words, stage: str, number: int) -> str:
    """A stage as the pages name it: "Runda 2" for the rounds, else its number and name."""
    if stage == f"round-{number}":
        return w.gettext("Round {n}").format(n=number)
    return w.gettext("Stage {n} ({name})").format(n=number, name=stage)


def state_word(w: Words, card: TableCard) -> str:
    return w.gettext(word(card.state))


def css_colour(colour: Colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


@cache
def state_styles() -> str:
    """The band of every table state in the status model's colours (the hub screen's and
    the table display's), as a style sheet: the pages' policy allows no inline style."""
    return "".join(
        f".state-{state.value} {{ background: {css_colour(look(state).bg)}; "
        f"color: {css_colour(look(state).fg)}; }}\n"
        for state in TableState
    )


@cache
def environment(code: str) -> jinja2.Environment:
    """The templates in one language (one environment per language: nothing is switched
    while a page renders)."""
    w = words(code)
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("hub.web", "templates"),
        autoescape=True,
        extensions=["jinja2.ext.i18n"],
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_callables(  # type: ignore[attr-defined]
        w.gettext, w.ngettext, newstyle=False, pgettext=w.pgettext
    )
    env.globals.update(
        lang=code,
        stage_label=lambda stage, number: stage_label(w, stage, number),
        state_word=lambda card: state_word(w, card),
        clock=lambda at: time.strftime("%H:%M", time.localtime(at)),
    )
    return env


# --- the application ----------------------------------------------------------------------


@dataclass
class Console:
    """What the pages read: the event store and the live tables."""

    reader: EventReader
    live: LiveTables
    title: str = ""
    """Shown when the event has no name yet (the venue, say)."""


class PageError(Exception):
    """A page that cannot be shown as asked: its status and the message (translated)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def reader_language(request: Request, default: str = DEFAULT_LANGUAGE) -> str:
    """The language ``?lang=`` names, else ``default`` (the event's: Polish unless the
    organizer chose another)."""
    asked = request.query_params.get("lang")
    if asked is None or asked == "":
        return default
    try:
        return language(asked)
    except LanguageError:
        w = words(default)
        raise PageError(
            400,
            w.gettext("No language {asked}: the console speaks {languages}.").format(
                asked=asked, languages=", ".join(LANGUAGES)
            ),
        ) from None


def link(code: str, default: str = DEFAULT_LANGUAGE) -> Callable[..., str]:
    """``url(path, **query)``: a link that keeps the reader's language (named when it is
    not the event's)."""

    def url(path: str, **query: Any) -> str:
        params = {k: v for k, v in query.items() if v is not None and v != ""}
        if code != default:
            params["lang"] = code
        return f"{path}?{urlencode(params)}" if params else path

    return url


def switch_language(request: Request, code: str, default: str = DEFAULT_LANGUAGE) -> str:
    """The same page in the other language."""
    params = {k: v for k, v in request.query_params.items() if k != "lang"}
    other = "en" if code == "pl" else "pl"
    if other != default:
        params["lang"] = other
    return f"{request.url.path}?{urlencode(params)}" if params else request.url.path


def event_language(comp: Competition | None) -> str:
    """The language the event speaks (Polish before it exists)."""
    return DEFAULT_LANGUAGE if comp is None else comp.language


def make_app(console: Console) -> Starlette:
    """The console's application over ``console`` (its live tables start and stop with
    the application)."""

    def render(
        request: Request, template: str, status: int = 200, lang: str = "", **values: Any
    ) -> HTMLResponse:
        comp = console.reader.competition()
        default = event_language(comp)
        code = lang or reader_language(request, default)
        name = comp.created.name if comp is not None and comp.created is not None else ""
        page = (
            environment(code)
            .get_template(template)
            .render(
                request=request,
                url=link(code, default),
                other_language=switch_language(request, code, default),
                event_name=name or console.title,
                comp=comp,
                live=console.live.live,
                **values,
            )
        )
        return HTMLResponse(page, status_code=status)

    def guarded(
        endpoint: Callable[[Request], Response],
    ) -> Callable[[Request], Response]:
        def page(request: Request) -> Response:
            try:
                return endpoint(request)
            except PageError as err:
                return render_error(request, err)

        return page

    def render_error(request: Request, err: PageError) -> Response:
        default = event_language(console.reader.competition())
        try:
            code = reader_language(request, default)
        except PageError:  # the language itself was wrong: the message says so
            code = default
        return render(request, "error.html", err.status, code, message=err.message)

    def home(request: Request) -> Response:
        return render(request, "home.html", min_query=MIN_QUERY)

    def find(request: Request) -> Response:
        comp = console.reader.competition()
        query = request.query_params.get("q", "")[:100]
        search = None if comp is None else find_players(comp, query)
        cards = {card.number: card for card in console.live.cards}
        return render(request, "find.html", search=search, query=query, cards=cards,
                      min_query=MIN_QUERY)  # fmt: skip

    def standings(request: Request) -> Response:
        comp = console.reader.competition()
        stage = request.query_params.get("stage") or None
        try:
            view = None if comp is None else standings_view(comp, stage)
        except UnknownStageError:
            w = words(reader_language(request, event_language(comp)))
            raise PageError(
                404, w.gettext("No stage {stage} is drawn in this event.").format(stage=stage)
            ) from None
        return render(request, "standings.html", view=view)

    def tables(request: Request) -> Response:
        return render(
            request, "tables.html", cards=console.live.cards, round=console.live.hall.round
        )

    def table(request: Request) -> Response:
        number = request.path_params["number"]
        cards = {card.number: card for card in console.live.cards}
        if number not in cards:
            w = words(reader_language(request, event_language(console.reader.competition())))
            raise PageError(
                404,
                w.gettext("Table {number} has sent nothing the console has heard.").format(
                    number=number
                ),
            )
        return render(request, "table.html", card=cards[number], round=console.live.hall.round)

    async def stream(request: Request) -> Response:
        default = event_language(console.reader.competition())
        code = reader_language(request, default)
        only = _tables_of(request.query_params.get("tables", ""))
        return StreamingResponse(
            _events(console.live, code, default, only),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    async def stream_page(request: Request) -> Response:
        try:
            return await stream(request)
        except PageError as err:
            return Response(err.message, err.status, media_type="text/plain; charset=utf-8")

    def styles(request: Request) -> Response:
        return Response(state_styles(), media_type="text/css; charset=utf-8",
                        headers={"Cache-Control": "max-age=3600"})  # fmt: skip

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await console.live.start()
        try:
            yield
        finally:
            await console.live.stop()

    routes = [
        Route("/", guarded(home), methods=["GET"]),
        Route("/find", guarded(find), methods=["GET"]),
        Route("/standings", guarded(standings), methods=["GET"]),
        Route("/tables", guarded(tables), methods=["GET"]),
        Route("/tables/{number:int}", guarded(table), methods=["GET"]),
        Route("/live", stream_page, methods=["GET"]),
        Route("/states.css", styles, methods=["GET"]),
        Mount("/static", StaticFiles(packages=[("hub.web", "static")]), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(SecurityHeaders)
    return app


def _tables_of(text: str) -> frozenset[int] | None:
    """``?tables=3,7``: the tables a page shows (None: all)."""
    numbers = {int(part) for part in text.split(",") if part.strip().isdigit()}
    return frozenset(numbers) or None


def event_text(kind: str, data: Mapping[str, object]) -> str:
    """One server-sent event: its name and its data as one line of JSON."""
    return f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def card_html(code: str, card: TableCard, default: str = DEFAULT_LANGUAGE) -> str:
    return environment(code).get_template("card.html").render(card=card, url=link(code, default))


async def _events(
    live: LiveTables, code: str, default: str, only: frozenset[int] | None
) -> AsyncIterator[str]:
    """The live stream of one open page: every card first (a page that was away catches
    up), then what changes, until the page goes or is dropped."""
    page = live.subscribe()
    try:
        yield "retry: 3000\n\n"
        yield event_text("link", {"live": live.live})
        for card in live.cards:
            if only is None or card.number in only:
                yield event_text(
                    "table", {"table": card.number, "html": card_html(code, card, default)}
                )
        while True:
            try:
                update = await asyncio.wait_for(page.get(), KEEPALIVE)
            except TimeoutError:
                yield ": still here\n\n"
                continue
            if update is None:
                return
            text = _update_text(update, code, default, only)
            if text:
                yield text
    finally:
        live.unsubscribe(page)


def _update_text(update: Update, code: str, default: str, only: frozenset[int] | None) -> str:
    if update.kind == "table" and update.card is not None:
        card = update.card
        if only is not None and card.number not in only:
            return ""
        return event_text("table", {"table": card.number, "html": card_html(code, card, default)})
    if update.kind == "link":
        return event_text("link", {"live": update.live})
    return event_text(update.kind, {})


class SecurityHeaders:
    """Adds :data:`HEADERS` to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

"""The public pages: no login, read-only (GET and HEAD; every other method is refused
with 405). What a player opens from a QR code: find your table, the standings, the
tables live, and the live stream (``/live``) that keeps an open page current. Every player
is named as the event's privacy setting says (:mod:`hub.privacy`)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from typing import Final, cast

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from hub.competition import NameShown
from hub.privacy import hides_surname
from hub.web.auth import signed_in
from hub.web.cache import PageCache
from hub.web.live import LiveTables, Update
from hub.web.pages import (
    Endpoint,
    EventReader,
    PageError,
    Pages,
    environment,
    event_language,
    event_text,
    link,
    reader_language,
    state_styles,
)
from hub.web.views import MIN_QUERY, TableCard, UnknownStageError, find_players, standings_view
from tablekit.shared.i18n import DEFAULT_LANGUAGE

KEEPALIVE: Final = 15.0
"""Seconds between two comments on a quiet event stream (proxies and phones drop a
connection that says nothing)."""
BUSY_RETRY: Final = (30.0, 90.0)
"""Seconds after which a page turned away tries again (its browser's EventSource, told
by ``retry:``), drawn at random so that a full hall's phones do not all come back at
once."""


def routes(pages: Pages) -> list[BaseRoute]:
    console = pages.console

    def home(request: Request) -> Response:
        first_start = console.gate.accounts is not None and not console.gate.has_organizer()
        return pages.render(request, "home.html", min_query=MIN_QUERY, first_start=first_start)

    def find(request: Request) -> Response:
        comp = console.reader.published()
        query = request.query_params.get("q", "")[:100]
        search = None if comp is None else find_players(comp, query)
        cards = {card.number: card for card in console.live.cards}
        return pages.render(request, "find.html", search=search, query=query, cards=cards,
                            min_query=MIN_QUERY,
                            hidden=hidden_surnames(console.reader))

    def standings(request: Request) -> Response:
        comp = console.reader.published()
        stage = request.query_params.get("stage") or None
        try:
            view = None if comp is None else standings_view(comp, pages.words(request), stage)
        except UnknownStageError:
            w = pages.words(request)
            raise PageError(
                404, w.gettext("No stage {stage} is drawn in this event.").format(stage=stage)
            ) from None
        return pages.render(request, "standings.html", view=view)

    def tables(request: Request) -> Response:
        return pages.render(
            request, "tables.html", cards=console.live.cards, round=console.live.hall.round
        )

    def table(request: Request) -> Response:
        number = request.path_params["number"]
        cards = {card.number: card for card in console.live.cards}
        if number not in cards:
            w = pages.words(request)
            raise PageError(
                404,
                w.gettext("Table {number} has sent nothing the console has heard.").format(
                    number=number
                ),
            )
        return pages.render(
            request, "table.html", card=cards[number], round=console.live.hall.round
        )

    async def stream(request: Request) -> Response:
        try:
            default = event_language(console.reader.competition())
            code = reader_language(request, default)
        except PageError as err:
            return Response(err.message, err.status, media_type="text/plain; charset=utf-8")
        only = _tables_of(request.query_params.get("tables", ""))
        return StreamingResponse(
            _events(console.live, code, default, only),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    def styles(request: Request) -> Response:
        return Response(state_styles(), media_type="text/css; charset=utf-8",
                        headers={"Cache-Control": "max-age=3600"})

    cache = PageCache()

    def kept(make: Callable[[Request], Response], *, tables: bool = False) -> Endpoint:
        """``make``'s page, kept while the store (and with ``tables``, the live state)
        has not changed since it was made."""
        plain = cast(Callable[[Request], Response], pages.guarded(make))

        async def page(request: Request) -> Response:
            stamp = (console.reader.version(), console.live.generation if tables else 0)
            # A signed-in reader's page names them (and holds their form token).
            personal = signed_in(request) is not None
            return await cache.serve(request, stamp, plain, personal=personal)

        return page

    return [
        Route("/", pages.guarded(home), methods=["GET"]),
        Route("/find", kept(find, tables=True), methods=["GET"]),
        Route("/standings", kept(standings), methods=["GET"]),
        Route("/tables", kept(tables, tables=True), methods=["GET"]),
        Route("/tables/{number:int}", pages.guarded(table), methods=["GET"]),
        Route("/live", stream, methods=["GET"]),
        Route("/states.css", styles, methods=["GET"]),
    ]


def hidden_surnames(reader: EventReader) -> str:
    """Whose surnames the public pages hide: ``everyone``, ``minors`` or "" (nobody's)."""
    comp = reader.competition()
    if comp is None or comp.erased is not None:
        return ""
    if comp.names_shown is NameShown.INITIAL:
        return "everyone"
    return "minors" if any(hides_surname(comp, pid) for pid in comp.event.players) else ""


def _tables_of(text: str) -> frozenset[int] | None:
    """``?tables=3,7``: the tables a page shows (None: all)."""
    numbers = {int(part) for part in text.split(",") if part.strip().isdigit()}
    return frozenset(numbers) or None


def card_html(code: str, card: TableCard, default: str = DEFAULT_LANGUAGE) -> str:
    return environment(code).get_template("card.html").render(card=card, url=link(code, default))


async def _events(
    live: LiveTables, code: str, default: str, only: frozenset[int] | None
) -> AsyncIterator[str]:
    """The live stream of one open page: every card first (a page that was away catches
    up), then what changes, until the page goes or is dropped. A page beyond the most
    that may follow (``[web] streams``) is told ``busy`` and when to try again."""
    page = live.subscribe()
    if page is None:
        yield f"retry: {int(random.uniform(*BUSY_RETRY) * 1000)}\n\n"
        yield event_text("busy", {})
        return
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

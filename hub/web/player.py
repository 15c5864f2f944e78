"""A player's own page (public, read-only): their games round by round, their place, and
their time use from the moves their tables' units journalled. Linked from find your
table and the standings; an open page follows its table live and is fetched again when
the store changes (a result, a correction, a draw)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hub.exports.pages import printed_number
from hub.store import HUB_SOURCE, EventStore
from hub.time_use import KINDS, TableEvent, played_moves
from hub.tournament.standings import signed
from hub.web.pages import PageError, Pages
from hub.web.player_views import NoPlayerPageError, drawn_stages, player_page, player_tables
from tablekit.shared.forms import number
from tablekit.shared.i18n import Words


def table_events(store: EventStore, tables: Iterable[int]) -> dict[int, list[TableEvent]]:
    """The events of ``tables``' units that time use reads, as the store keeps them."""
    out: dict[int, list[TableEvent]] = {}
    for table in sorted(set(tables)):
        out[table] = [
            TableEvent(stored.source, stored.seq, stored.ts, stored.event())
            for stored in store.events(table=table)
            if stored.source != HUB_SOURCE and stored.kind in KINDS
        ]
    return out


def seconds(w: Words, value: float) -> str:
    """``12,3 s`` in the reader's form."""
    return w.gettext("{seconds} s").format(seconds=number(value, w, places=1))


def routes(pages: Pages) -> list[BaseRoute]:
    console = pages.console

    def player(request: Request) -> Response:
        player_id = request.path_params["player_id"]
        comp = console.reader.published()
        w = pages.words(request)
        unknown = PageError(
            404, w.gettext("No player {id} in this event.").format(id=player_id[:40])
        )
        if comp is None or comp.created is None:
            raise unknown
        tables = player_tables(comp, player_id)
        events: Mapping[int, list[TableEvent]] = (
            console.reader.read(lambda store: table_events(store, tables.values())) or {}
        )
        try:
            page = player_page(comp, player_id, played_moves(events, drawn_stages(comp)), w)
        except NoPlayerPageError:
            raise unknown from None
        cards = {card.number: card for card in console.live.cards}
        return pages.render(
            request,
            "player.html",
            page=page,
            card=cards.get(page.live_table) if page.live_table is not None else None,
            seconds=lambda value: seconds(w, value),
            signed=lambda n: printed_number(signed(n)),
        )

    return [Route("/players/{player_id}", pages.guarded(player), methods=["GET"])]

"""Rendered public pages kept while what they show has not changed.

Every phone on the standings page fetches it again when the hub stores a result (the
live stream's ``standings`` event): hundreds of requests for the same bytes at once.
Folding the standings and rendering 240 rows costs milliseconds each; a page kept here
is answered from memory, in the event loop, without the thread pool.

A page is kept under its address (path and query: the language, the stage, the name
looked for) with a *stamp*: what it was made from, the event store's version
(:meth:`~hub.web.pages.EventReader.version`, which grows with every stored record) and,
for the pages showing the tables, the live state's generation
(:attr:`~hub.web.live.LiveTables.generation`). The stamp is read *before* the page is
made, so a page made while a record arrives is kept under the older stamp and made
again at the next request: a kept page is never older than what the store holds when
it is asked for. Only pages for readers who are not signed in are kept (a signed-in
page names its reader), and only complete ones (status 200).
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Final

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

PAGES: Final = 256
"""Pages kept at most (the least recently asked one goes first): every language, stage
and a few hundred names looked for."""


@dataclass(frozen=True)
class Kept:
    stamp: Hashable
    body: bytes
    media_type: str | None


class PageCache:
    """Rendered pages by address, each with the stamp of what it was made from."""

    def __init__(self, size: int = PAGES) -> None:
        self.size = size
        self._pages: OrderedDict[str, Kept] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        self._making: dict[tuple[str, Hashable], asyncio.Future[Response]] = {}
        """Pages being made now (in the event loop's thread only)."""

    @staticmethod
    def address(request: Request) -> str:
        query = request.url.query
        return f"{request.url.path}?{query}" if query else request.url.path

    def kept(self, address: str, stamp: Hashable) -> Response | None:
        """The page kept for ``address`` if it was made from ``stamp``."""
        with self._lock:
            page = self._pages.get(address)
            if page is None or page.stamp != stamp:
                self.misses += 1
                return None
            self._pages.move_to_end(address)
            self.hits += 1
        return Response(page.body, media_type=page.media_type)

    def keep(self, address: str, stamp: Hashable, response: Response) -> None:
        if response.status_code != 200 or not isinstance(response.body, bytes):
            return
        with self._lock:
            self._pages[address] = Kept(stamp, response.body, response.media_type)
            self._pages.move_to_end(address)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)

    async def serve(
        self,
        request: Request,
        stamp: Hashable,
        make: Callable[[Request], Response],
        *,
        personal: bool = False,
    ) -> Response:
        """The page at ``request``'s address made from ``stamp``: kept, or made by
        ``make`` in the thread pool (and kept unless ``personal``); requests for a page
        being made wait for it rather than making it again."""
        if personal:
            return await run_in_threadpool(make, request)
        address = self.address(request)
        page = self.kept(address, stamp)
        if page is not None:
            return page
        # The phones that ask at once after a result wait for one page being made.
        making = self._making.get((address, stamp))
        if making is not None:
            response = await asyncio.shield(making)
            return self.kept(address, stamp) or response
        making = asyncio.get_running_loop().create_future()
        self._making[(address, stamp)] = making
        try:
            response = await run_in_threadpool(make, request)
            self.keep(address, stamp, response)
            making.set_result(response)
        except BaseException as err:
            making.set_exception(err)
            making.exception()  # retrieved: the one who asked first is told
            raise
        finally:
            del self._making[(address, stamp)]
        return response

"""The tables' live state for the web console, and the updates its open pages receive.

The console reads the hall as the hub screen does: the same broker feed
(:class:`hub.screen.feed.ScreenFeed`, the kit's one MQTT client set-up) folding the units'
and the hub's retained messages into the same model (:class:`hub.hall.HallView`). paho's
network thread only queues a message and wakes the console's event loop; one asyncio
task (:meth:`LiveTables.run`) owns the state: it folds what arrived, compares every
table's card (:class:`~hub.web.views.TableCard`) with the one before, and hands each
changed card to every open page's queue. A page whose queue is full (a phone that stopped
reading) is dropped; its browser reconnects and gets every card again. At most
``streams`` pages follow the updates at once (``[web] streams``): one more is turned
away (:meth:`LiveTables.subscribe` answers None) and works without them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

import msgspec

from hub.config import WEB_STREAMS
from hub.hall import HallView, judge_queue
from hub.web.views import TableCard, changed, table_cards
from tablekit.core.topics import Topics
from tablekit.shared.broker import BrokerSettings

log = logging.getLogger("hub.web")

REFRESH: Final = 1.0
"""Seconds between two looks at the hall when nothing arrives: a table turns OFFLINE or
BEHIND with time alone."""
QUEUE: Final = 200
"""Updates an open page may have waiting before it is dropped (it then reconnects)."""


def web_client_id(username: str | None) -> str:
    """``rummikub-web-{username}``: its own session even when it logs in with the hub
    screen's read-only account (the screen's id is ``rummikub-screen-{username}``)."""
    return f"rummikub-web-{username}" if username else ""


@dataclass(frozen=True)
class Update:
    """What an open page is told: a table's card changed, the standings changed (the
    hub stored a result), the tables waiting for the judge changed, or the link to the
    tables came or went."""

    kind: Literal["table", "standings", "judge", "link"]
    """``standings``: the event store changed (a result, a correction, a draw)."""
    card: TableCard | None = None
    live: bool = True
    """For ``link``: the console hears the tables."""


class LiveTables:
    """The tables as the hub screen sees them, and the queues of the open pages."""

    def __init__(
        self,
        broker: BrokerSettings | None,
        topics: Topics,
        stored: Callable[[], int] = lambda: 0,
        *,
        streams: int = WEB_STREAMS,
    ) -> None:
        """``broker`` None: no broker (the pages show the event from the store alone).
        ``stored``: the event store's version (it grows with every record: a result, a
        correction, a draw), looked at with the hall; a new one updates the standings.
        ``streams``: open pages following the updates at most."""
        self.topics = topics
        self.streams = streams
        self.turned_away = 0
        """Pages turned away because ``streams`` pages were following already."""
        self.cards: tuple[TableCard, ...] = ()
        self.hall = HallView()
        self.live = False
        self.generation = 0
        """Grows whenever a table's card, the round or the link changes (what a kept
        page of the tables was made from: :mod:`hub.web.cache`)."""
        self._calls: tuple[tuple[int, str, float], ...] = ()
        self._stored = stored
        self._version = stored()
        self._pages: set[asyncio.Queue[Update | None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self.feed = None
        if broker is not None:
            os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # hub.screen's import
            from hub.screen.feed import ScreenFeed

            if not broker.client_id:
                broker = msgspec.structs.replace(broker, client_id=web_client_id(broker.username))
            self.feed = ScreenFeed(broker, topics, notify=self._notify)

    def wait_subscribed(self, timeout: float) -> bool:
        """Wait (in another thread than the event loop's) until the broker has taken the
        feed's subscriptions; False after ``timeout`` seconds, or without a broker."""
        return self.feed is not None and self.feed.subscribed.wait(timeout)

    @property
    def pages(self) -> int:
        """Open pages receiving updates."""
        return len(self._pages)

    async def start(self) -> None:
        """Connect (in the background) and start folding; in the event loop."""
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        if self.feed is not None:
            self.feed.start()
        self._task = asyncio.create_task(self.run(), name="live tables")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.feed is not None:
            await asyncio.to_thread(self.feed.stop)
        self._end_pages()

    def end_pages(self) -> None:
        """End every open page's stream (from any thread): the server is stopping, and a
        page's browser reconnects to whichever console answers next."""
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(self._end_pages)

    def _end_pages(self) -> None:
        for page in list(self._pages):
            self._offer(page, None)

    def _notify(self) -> None:
        """From paho's thread: wake the loop (nothing else)."""
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(wake.set)

    async def run(self) -> None:
        """The one owner of the live state: fold, compare, hand out."""
        assert self._wake is not None
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), REFRESH)
            self._wake.clear()
            try:
                hall = self.hall if self.feed is None else self.feed.hall(time.time())
                self.refresh(hall, self._stored())
            except Exception:  # a bug here must not stop the pages' updates for good
                log.exception("web console: the live tables could not be updated")

    def refresh(self, hall: HallView, version: int) -> None:
        """Take ``hall`` as the tables' state now and ``version`` as the store's,
        telling the open pages what changed."""
        cards = table_cards(hall)
        live = self.feed is not None and hall.link_lost is None
        updates = [Update("table", card) for card in changed(self.cards, cards)]
        if version != self._version:
            updates.append(Update("standings"))
        calls = waiting_calls(hall)
        if calls != self._calls:
            updates.append(Update("judge"))
        self._calls = calls
        if live != self.live:
            updates.append(Update("link", live=live))
        if updates or hall.round != self.hall.round:
            self.generation += 1
        self.hall, self.cards, self.live, self._version = hall, cards, live, version
        for page in list(self._pages):
            for update in updates:
                if not self._offer(page, update):
                    break

    def subscribe(self) -> asyncio.Queue[Update | None] | None:
        """A queue of the updates for one open page (an update None: it was dropped or
        the console stops; the page reconnects); None when :attr:`streams` pages follow
        already."""
        if len(self._pages) >= self.streams:
            self.turned_away += 1
            if self.turned_away == 1 or self.turned_away % 100 == 0:
                log.warning("web console: %d pages follow the live updates, the most "
                            "[web] streams allows; %d turned away so far", len(self._pages),
                            self.turned_away)
            return None
        page: asyncio.Queue[Update | None] = asyncio.Queue(QUEUE + 1)
        self._pages.add(page)
        return page

    def unsubscribe(self, page: asyncio.Queue[Update | None]) -> None:
        self._pages.discard(page)

    def _offer(self, page: asyncio.Queue[Update | None], update: Update | None) -> bool:
        if update is not None and page.qsize() < QUEUE:
            page.put_nowait(update)
            return True
        self._pages.discard(page)
        with contextlib.suppress(asyncio.QueueFull):
            page.put_nowait(None)
        return False


def waiting_calls(hall: HallView) -> tuple[tuple[int, str, float], ...]:
    """The tables waiting for the judge (the hub screen's judge queue) as (table, state,
    since): what the judges' queue page shows, less the waiting times that grow by
    themselves (the page counts them)."""
    return tuple((c.table, c.state.value, c.since) for c in judge_queue(hall, now=0.0))

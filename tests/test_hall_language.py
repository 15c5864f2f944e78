"""One language for the whole hall, through a real Mosquitto: the hub retains the event's
language on ``hub/language``; every table unit's link and the hub screen's subscription
get it, a change reaches them all at once, and a unit that connects later gets it too."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pygame
import pytest
from retained import publish_retained

from hub import service as service_module
from hub.broker import MosquittoBroker
from hub.organizer import Organizer
from hub.screen.feed import ScreenFeed
from hub.screen.render import HallScreen
from hub.service import HubService
from hub.store import EventStore
from tablekit.app import build
from tablekit.config import LinkSettings, UnitConfig, UnitSettings
from tablekit.controls import Button, ButtonEdge
from tablekit.core.clock import ClockRules, MoveClock, Phase
from tablekit.core.messages import Assignment, HallLanguage
from tablekit.core.topics import Topics
from tablekit.display import save_png
from tablekit.journal import Journal
from tablekit.layout.compose import compose
from tablekit.layout.scene import Text, layout_for
from tablekit.link import TableLink
from tablekit.unit import Quit, SavedUnit, TableUnit
from tablekit.view import TableView

pytestmark = pytest.mark.mqtt

VENUE, EVENT = "hall", "lang"
TOPICS = Topics(VENUE, EVENT)
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "hall-language"


class Link:
    """A table unit's real link, its inbox read the way the unit loop reads it."""

    def __init__(self, tmp: Path, broker: MosquittoBroker, table: int) -> None:
        self.inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        unit_id = f"table-{table:02d}"
        settings = LinkSettings(host=broker.host, port=broker.port, venue=VENUE, event=EVENT)
        self.journal = Journal(tmp / f"{unit_id}.db", unit_id)
        self.link = TableLink(settings, self.journal, table, unit_id, self.inbox.put)
        self.items: list[object] = []

    def got(self) -> list[object]:
        """Everything the link handed the unit loop so far, in order."""
        while True:
            try:
                self.items.append(self.inbox.get_nowait())
            except queue.Empty:
                return self.items

    def heard(self) -> list[str]:
        """The languages the hub told this unit, in order."""
        return [m.language for m in self.got() if isinstance(m, HallLanguage)]


@pytest.fixture
def hall(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker]
) -> Iterator[tuple[MosquittoBroker, Path, list[Link]]]:
    broker = mosquitto()
    db = tmp_path / "hub.sqlite3"
    org = Organizer(EventStore(db), by="Ola")
    org.create_event("Cup", "school", language="en")
    org.store.close()
    service = HubService(broker.client_settings(), db, TOPICS)
    links: list[Link] = []
    service.start()
    assert service.wait_online(10)
    try:
        yield broker, db, links
    finally:
        for link in links:
            link.link.stop()
            link.journal.close()
        service.stop()


def test_the_hub_hears_another_programs_change_without_its_clock(
    tmp_path: Path,
    mosquitto: Callable[..., MosquittoBroker],
    wait_until: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hub learns that the organizer's command line changed the store from the file
    itself (SQLite's data_version), not from its once-a-second look: with that look put
    off for an hour, the change still reaches the table."""
    monkeypatch.setattr(service_module, "TICK_INTERVAL", 3600.0)
    broker = mosquitto()
    db = tmp_path / "hub.sqlite3"
    organizer = Organizer(EventStore(db), by="Ola")
    organizer.create_event("Cup", "school", language="en")
    service = HubService(broker.client_settings(), db, TOPICS)
    service.start()
    link = Link(tmp_path, broker, 1)
    try:
        assert service.wait_online(10)
        link.link.start()
        wait_until(lambda: link.heard() == ["en"], 10, "the event's language")
        organizer.choose_language("pl", why="Polish players after all")
        wait_until(lambda: link.heard() == ["en", "pl"], 10, "the change, without the clock")
    finally:
        link.link.stop()
        link.journal.close()
        service.stop()
        organizer.store.close()


def header_words(feed: ScreenFeed, screen: HallScreen, png: str) -> str:
    """The hub screen's header as drawn now from the feed's view (and saved as a PNG)."""
    now = time.time()
    screen.frame(feed.hall(now), now)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pygame.image.save(screen.surface, str(ARTIFACTS / png))
    return " ".join(p.text for p in screen.placed.get("header", []))


def test_every_unit_and_the_hub_screen_follow_the_events_language_and_each_change(
    tmp_path: Path, hall: tuple[MosquittoBroker, Path, list[Link]], wait_until: Any
) -> None:
    """The event is English: every unit and the hub screen (started Polish) hear it; the
    organizer changes it from another process and the one change reaches them all; a unit
    switched on later gets it at once (retained)."""
    broker, db, links = hall
    links += [Link(tmp_path, broker, table) for table in (1, 2, 3)]
    feed = ScreenFeed(broker.client_settings(), TOPICS, title="Cup", language="pl")
    pygame.init()
    screen = HallScreen(pygame.Surface((1280, 720)), cycle=0)
    for link in links:
        link.link.start()
    feed.start()
    try:
        for link in links:
            wait_until(lambda link=link: link.heard() == ["en"], 10, "the event's language")
        wait_until(lambda: feed.hall(time.time()).language == "en", 10, "the screen's")
        assert "TABLES" in header_words(feed, screen, "screen-1-event-en.png")

        # the organizer changes it from another process (the command line) mid-event
        organizer = Organizer(EventStore(db), by="Ola")
        organizer.choose_language("pl", why="Polish players after all")
        for link in links:
            wait_until(lambda link=link: link.heard() == ["en", "pl"], 10, "the change")
        wait_until(lambda: feed.hall(time.time()).language == "pl", 10, "the screen's change")
        assert "STOLIKI" in header_words(feed, screen, "screen-2-changed-pl.png")
        organizer.choose_language("en")
        for link in links:
            wait_until(lambda link=link: link.heard() == ["en", "pl", "en"], 10, "back")
        wait_until(lambda: feed.hall(time.time()).language == "en", 10, "the screen's")

        # a unit switched on later gets the language at once: it is retained
        late = Link(tmp_path, broker, 4)
        links.append(late)
        late.link.start()
        wait_until(lambda: late.heard() == ["en"], 10, "the retained language")
        organizer.store.close()
    finally:
        feed.stop()
        pygame.quit()


def test_a_unit_takes_a_newer_hubs_messages_with_fields_it_does_not_know(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker], wait_until: Any
) -> None:
    """The versioning rule on the real link and decoders: fields a newer hub adds to its
    language setting or to an assignment are skipped, the message is taken, not refused."""
    broker = mosquitto()
    newer = {
        TOPICS.language: {"v": 1, "language": "en", "since": 1.7e9, "script": {"latin": True}},
        TOPICS.assign(2): {
            "v": 1, "table": 2, "game": 1, "language": "en", "signage": {"colour": "blue"},
            "seats": [{"seat": s, "name": f"Gracz {s}", "badge": 7} for s in "ABC"],
            "rules": {"move_seconds": 30.0, "clock_style": "fischer"},
        },
    }
    publish_retained(
        broker.client_settings(), [(t, json.dumps(m).encode()) for t, m in newer.items()]
    )
    unit = Link(tmp_path, broker, 2)
    unit.link.start()
    try:
        wait_until(lambda: unit.heard() == ["en"], 10, "the newer hub's language")
        wait_until(
            lambda: any(isinstance(m, Assignment) for m in unit.got()), 10, "the assignment"
        )
        (assignment,) = [m for m in unit.got() if isinstance(m, Assignment)]
        assert [s.name for s in assignment.seats] == ["Gracz A", "Gracz B", "Gracz C"]
        assert assignment.rules.move_seconds == 30.0
    finally:
        unit.link.stop()
        unit.journal.close()


def band_words(view: TableView) -> list[str]:
    """The words the table display's band draws for ``view`` (its state, its table)."""
    scene = compose(view, time.monotonic(), layout_for(480, 320))
    band = next(p for p in scene if p.name == "band")
    return [i.text for i in band.items if isinstance(i, Text)]


class Unit:
    """A whole table unit (``tablekit.app.build``: journal, link, loop) on its own thread."""

    def __init__(self, broker: MosquittoBroker, journal: Path, table: int, language: str) -> None:
        config = UnitConfig(
            unit=UnitSettings(table=table, language=language),
            link=LinkSettings(host=broker.host, port=broker.port, venue=VENUE, event=EVENT),
        )
        self.unit: TableUnit = build(config, journal)
        self.loop = threading.Thread(target=self.unit.run, name=f"table-{table}", daemon=True)
        self.loop.start()

    def press(self) -> None:
        now = time.monotonic()
        self.unit.put(ButtonEdge(Button.PASS, True, now))
        self.unit.put(ButtonEdge(Button.PASS, False, now + 0.05))

    def stop(self) -> None:
        self.unit.put(Quit())
        self.loop.join(10)
        assert not self.loop.is_alive()
        stop_link = getattr(self.unit.uplink, "stop", None)
        if stop_link is not None:
            stop_link()


def test_a_unit_shows_the_events_language_and_a_change_mid_game(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker], wait_until: Any
) -> None:
    """No event yet: the unit speaks its config's language. Then the hub's setting: the
    event's language on the display, a change in the middle of a game at once (the game
    untouched), and again after a restart, when the unit's config says otherwise."""
    from hub.tournament import Player

    pygame.display.init()
    pygame.font.init()
    broker = mosquitto()
    db = tmp_path / "hub.sqlite3"
    organizer = Organizer(EventStore(db), by="Ola")
    service = HubService(broker.client_settings(), db, TOPICS)
    service.start()
    assert service.wait_online(10)
    journal = tmp_path / "table-02.sqlite3"
    table = Unit(broker, journal, 2, language="en")
    try:
        wait_until(lambda: table.unit.view.online, 10, "the unit online")
        time.sleep(0.5)  # the hub has no event: it says no language
        assert table.unit.language == "en" and band_words(table.unit.view)[-1] == "TABLE 2"
        save_png(table.unit.view, time.monotonic(), ARTIFACTS / "1-no-event-config-en.png")

        organizer.create_event("Konkurs", "school")  # every preset: Polish
        organizer.register(
            [Player(organizer.next_player_id(i), f"Gracz {i}") for i in range(8)], check_in=True
        )
        organizer.draw(seed=3)
        organizer.start_round()
        wait_until(lambda: table.unit.language == "pl", 10, "the event's language")
        wait_until(lambda: len(table.unit.view.names) == 4, 10, "table 2's seating")
        table.press()  # the game starts
        wait_until(lambda: table.unit.clock.state.phase is Phase.RUNNING, 10, "game 1 running")
        wait_until(lambda: band_words(table.unit.view) == ["GRA TRWA", "STOLIK 2"], 5, "game 1")
        save_png(table.unit.view, time.monotonic(), ARTIFACTS / "2-event-pl-playing.png")
        clock = table.unit.clock.state

        organizer.choose_language("en", why="an English club visits")
        wait_until(lambda: table.unit.language == "en", 5, "the change, mid-game")
        wait_until(lambda: band_words(table.unit.view) == ["PLAYING", "TABLE 2"], 5, "in English")
        assert table.unit.clock.state == clock  # the game goes on untouched
        save_png(table.unit.view, time.monotonic(), ARTIFACTS / "3-changed-en-playing.png")

        table.stop()  # switched off and on again, its config saying Polish
        table = Unit(broker, journal, 2, language="pl")
        wait_until(lambda: table.unit.view.online, 10, "the unit online again")
        assert table.unit.language == "en"  # journalled, and retained at the broker
        assert band_words(table.unit.view)[0] == "PAUSED — RESTARTED"
        save_png(table.unit.view, time.monotonic(), ARTIFACTS / "4-restarted-en.png")
    finally:
        table.stop()
        service.stop()
        organizer.store.close()
        pygame.display.quit()


def test_a_unit_restarted_out_of_the_hubs_reach_keeps_the_halls_language(
    tmp_path: Path,
) -> None:
    """The hall's language is journalled with the unit's state when it arrives: restarted
    with no broker to hear it from, the unit goes on in the event's language, not its
    config's; a language this release does not speak is neither shown nor kept."""
    path = tmp_path / "table-05.sqlite3"
    journal = Journal(path, "table-05")
    unit = TableUnit(MoveClock(ClockRules(seats=4)), table=5, recorder=journal)
    assert unit.language == "pl"
    unit.put(HallLanguage(v=1, language="en"))
    unit.step()
    assert unit.language == "en"
    unit.put(HallLanguage(v=1, language="de"))  # a newer hub's: kept out
    unit.step()
    assert unit.language == "en" and unit.hall_language == "en"
    saved = journal.load_state()
    journal.close()
    assert saved is not None

    again = Journal(path, "table-05")
    restarted = TableUnit(MoveClock(ClockRules(seats=4)), table=5, recorder=again)
    restarted.restore(saved, 0.0)
    assert restarted.language == "en" and band_words(restarted.view)[-1] == "TABLE 5"
    again.close()
    fresh = TableUnit(MoveClock(ClockRules(seats=4)), table=5, language="en")
    fresh.restore(msgspec.json.encode(SavedUnit(clock=fresh.clock.state)), 0.0)
    assert fresh.language == "en"  # a journal of before the setting: the config's stays

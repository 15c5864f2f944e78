"""A table unit belongs to its venue, not to an event: the hub announces the event it
serves and every unit follows it, so a second event created at the hub reaches every
table — its seating, language and ruleset — with nothing done on the units, and a unit
that was off during the change catches up when it comes back. No unit mixes two events'
journals. Real Mosquitto with the credentials bundle's own config, accounts and ACL; the
hub service as provisioned (its config file, edited for the new event as an organizer
does); the units built as ``tablekit-unit`` builds them from the bundle's ``unit.toml``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from venue_bundle import Venue, bundle_hub, bundle_unit_config, venue_broker

from hub.organizer import Organizer
from hub.service import HubService
from hub.store import EventStore
from hub.tournament import Player
from tablekit.app import build, run
from tablekit.config import UnitConfig
from tablekit.controls import Button, ButtonEdge
from tablekit.core.clock import Phase
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics
from tablekit.journal import Journal
from tablekit.unit import Quit, TableUnit

pytestmark = pytest.mark.mqtt

FIRST = Topics("hall", "cup2026")
SECOND = "league-1"
WAIT = 20.0


@pytest.fixture
def venue(tmp_path: Path) -> Iterator[Venue]:
    with venue_broker(tmp_path / "venue", FIRST, tables=2) as running:
        yield running


def seated_event(db: Path, name: str, players: str, *, language: str, ruleset: str) -> None:
    """An event of 8 players at tables 1 and 2, its first round drawn and started."""
    organizer = Organizer(EventStore(db), by="organizer")
    organizer.create_event(name, "school", ruleset=ruleset, language=language)
    organizer.register(
        [Player(organizer.next_player_id(i), f"{players} {i}") for i in range(1, 9)],
        check_in=True,
    )
    organizer.draw(seed=5)
    organizer.start_round()
    organizer.store.close()


class Table:
    """A table unit as ``tablekit-unit`` builds it, its loop on a thread of its own."""

    def __init__(self, config: UnitConfig, folder: Path) -> None:
        self.config = config
        folder.mkdir()  # its state directory, as systemd's StateDirectory makes it
        self.journal_path = folder / "tablekit-journal.sqlite3"
        self.unit: TableUnit | None = None
        self.loop: threading.Thread | None = None

    def switch_on(self) -> TableUnit:
        self.unit = build(self.config, self.journal_path)
        self.loop = threading.Thread(target=run, args=(self.unit,), daemon=True)
        self.loop.start()
        return self.unit

    def switch_off(self) -> None:
        """Stop it as ``tablekit-unit`` stops: its link says it left, its journal closes."""
        assert self.unit is not None and self.loop is not None
        self.unit.put(Quit())
        self.loop.join(10)
        assert not self.loop.is_alive()

    @property
    def journal(self) -> Journal:
        assert self.unit is not None and isinstance(self.unit.recorder, Journal)
        return self.unit.recorder

    def plays(self, event: str, players: str, language: str) -> bool:
        """The unit follows ``event``: it shows that event's seating, in its language."""
        unit = self.unit
        assert unit is not None
        names = set(unit.view.names.values())
        seated = len(names) == 4 and all(players in n for n in names)
        return unit.event == event and seated and unit.view.language == language

    def press(self) -> None:
        assert self.unit is not None
        now = time.monotonic()
        self.unit.put(ButtonEdge(Button.PASS, True, now))
        self.unit.put(ButtonEdge(Button.PASS, False, now + 0.05))


def hub(venue: Venue, db: Path, **changed: str) -> HubService:
    service = bundle_hub(venue, db, **changed)
    service.start()
    assert service.wait_online(WAIT)
    return service


def stored(db: Path, table: int) -> list[tuple[str, int]]:
    """(source, seq) of every event of ``table``'s unit in an event's store."""
    store = EventStore(db)
    try:
        return [(e.source, e.seq) for e in store.events(table=table)]
    finally:
        store.close()


def test_units_follow_a_new_event_at_the_hub_with_nothing_done_on_them(
    venue: Venue, tmp_path: Path, wait_until: Callable[..., Any]
) -> None:
    first_db, second_db = tmp_path / "cup2026.sqlite3", tmp_path / "league-1.sqlite3"
    seated_event(first_db, "Puchar 2026", "Gracz", language="pl", ruleset="004")
    tables = [Table(bundle_unit_config(venue, n), tmp_path / f"table-{n}") for n in (1, 2)]
    service = hub(venue, first_db)
    try:
        for table in tables:
            table.switch_on()
        for table in tables:
            wait_until(lambda t=table: t.plays("cup2026", "Gracz", "pl"), WAIT, "the first event")
        one, two = tables
        one.press()  # table 1 starts its game: its events go to the first event's hub
        wait_until(lambda: one.unit.clock.state.phase is Phase.RUNNING, WAIT, "game 1 running")
        wait_until(lambda: one.journal.last_seq and not one.journal.pending_count(), WAIT,
                   "table 1's events acknowledged")
        first_epoch, first_seqs = one.journal.epoch, one.journal.last_seq
        two.switch_off()  # table 2 is off while the event changes

        # The organizer makes the next event at the hub: its own name and store in the
        # hub's config file, the hub restarted. Nothing is done on any unit.
        service.stop()
        seated_event(second_db, "League 1", "Player", language="en", ruleset="002")
        service = hub(venue, second_db, event=SECOND)

        wait_until(lambda: one.plays(SECOND, "Player", "en"), WAIT, "table 1 in the new event")
        unit = one.unit
        assert unit.seating is not None and unit.seating.rules.move_seconds == 60.0
        assert unit.ruleset.name == "002" and unit.clock.state.phase is Phase.READY
        # Its journal is the new event's, from seq 1 under a new epoch; the first event's
        # journal is kept beside it, whole.
        assert (one.journal.event, one.journal.epoch != first_epoch) == (SECOND, True)
        kept = Journal(one.journal_path.with_name("tablekit-journal.cup2026.sqlite3"), "table-01")
        assert (kept.event, kept.epoch, kept.last_seq) == ("cup2026", first_epoch, first_seqs)
        kept.close()
        one.press()
        wait_until(lambda: one.journal.last_seq and not one.journal.pending_count(), WAIT,
                   "table 1's events in the new event acknowledged")
        assert stored(second_db, 1) == [
            ("table-01", seq) for seq in range(1, one.journal.last_seq + 1)
        ]  # a fresh journal: the hub's first source of this unit, seqs from 1
        assert len(stored(first_db, 1)) == first_seqs  # the first event got nothing more

        # Table 2, off during the change, comes back in the first event's journal and
        # catches up: it follows the event the hub announced meanwhile.
        unit_two = two.switch_on()
        assert unit_two.event == "cup2026"
        wait_until(lambda: two.plays(SECOND, "Player", "en"), WAIT, "table 2 caught up")
        assert two.journal.event == SECOND

        counters = service.counters()
        assert counters.get("rejected", 0) == 0, counters  # nothing of the old event refused

        # Back to the first event (the organizer restarts its hub): table 1 takes up its
        # journal again, in the game it was playing, paused for the judge.
        service.stop()
        service = hub(venue, first_db)
        wait_until(lambda: one.plays("cup2026", "Gracz", "pl"), WAIT, "table 1 back in the first")
        assert one.journal.epoch == first_epoch  # its seqs go on (its restart's pause next)
        assert one.journal.last_seq == first_seqs + 1
        state = one.unit.clock.state
        assert (state.phase, state.paused is not None, state.active) == (
            Phase.RUNNING, True, Seat.A,
        )
    finally:
        for table in tables:
            if table.loop is not None and table.loop.is_alive():
                table.switch_off()
        service.stop()


def test_a_unit_config_naming_the_event_keeps_working_and_follows_the_hub(
    venue: Venue, tmp_path: Path, wait_until: Callable[..., Any]
) -> None:
    """A unit.toml of the release before names its event: the unit publishes under it at
    once, and follows the hub when it announces another."""
    db = tmp_path / "cup2026.sqlite3"
    seated_event(db, "Puchar 2026", "Gracz", language="pl", ruleset="004")
    config = bundle_unit_config(venue, 2, extra='event = "cup2026"\n')
    assert config.link is not None and config.link.event == "cup2026"
    table = Table(config, tmp_path / "table-2")
    unit = table.switch_on()
    assert unit.event == "cup2026"  # before the hub has said anything
    service = hub(venue, db)
    try:
        wait_until(lambda: table.plays("cup2026", "Gracz", "pl"), WAIT, "the config's event")
        service.stop()
        second = tmp_path / "league-1.sqlite3"
        seated_event(second, "League 1", "Player", language="en", ruleset="002")
        service = hub(venue, second, event=SECOND)
        wait_until(lambda: table.plays(SECOND, "Player", "en"), WAIT, "the hub's new event")
    finally:
        table.switch_off()
        service.stop()

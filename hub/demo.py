"""The kit's main demo: a whole tournament played by simulated tables.

``rummikub-demo`` (``./kit demo``) starts a broker (Mosquitto when installed, else
the embedded one), the hub service on a fresh event store, one table unit per
table — each with its own journal, its MQTT link and simulated players pressing
the buttons, calling the judge, timing out and typing each game's result on the
keypad — and an organizer who draws, starts and closes the rounds as soon as every
result is in. The hub screen shows it all: in a window when there is a display,
otherwise as a live summary in the terminal plus PNG snapshots of the screen.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import msgspec

from hub.broker import BrokerError, EmbeddedBroker, MosquittoBroker, start_broker
from hub.competition import CompetitionError
from hub.organizer import Organizer
from hub.service import HubService
from hub.store import EventStore
from hub.tournament import Phase as EventPhase
from hub.tournament import Player, TournamentError, preset
from tablekit.app import build
from tablekit.bot import BotStyle, TableBot
from tablekit.config import LinkSettings, UnitConfig, UnitSettings
from tablekit.protocol import Topics
from tablekit.rulesets import Ruleset, get_ruleset
from tablekit.stopping import stop_on_signals
from tablekit.unit import Quit, TableUnit
from tablekit.view import TableView

log = logging.getLogger("hub.demo")

VENUE, EVENT = "demo-hall", "demo-cup"
NAMES = (
    "Anna Nowak", "Bartek Wiśniewski", "Celina Wójcik", "Darek Kowalczyk", "Ewa Kamińska",
    "Filip Lewandowski", "Grażyna Zielińska", "Henryk Szymański", "Iga Woźniak",
    "Jacek Dąbrowski", "Kasia Kozłowska", "Łukasz Jankowski", "Magda Mazur", "Norbert Kwiatkowski",
    "Ola Krawczyk", "Paweł Piotrowski", "Róża Grabowska", "Staszek Nowakowski", "Teresa Pawłowska",
    "Urszula Michalska", "Wojtek Nowicki", "Zosia Adamczyk", "Adam Dudek", "Beata Zając",
    "Cezary Wieczorek", "Dorota Jabłońska", "Emil Król", "Franciszka Majewska", "Gabriel Olszewski",
    "Halina Jaworska", "Igor Wróbel", "Janina Malinowska",
)


def demo_ruleset(preset_name: str, players: int, move_seconds: float) -> Ruleset:
    """The preset's own ruleset (its first stage's; every preset plays one ruleset
    throughout) with the demo's shorter clock: scoring and display stay the preset's.

    Raises a TournamentError for an unknown preset or a player count it cannot play.
    """
    fmt = preset(preset_name, players=players)
    base = get_ruleset(fmt.stages[0].ruleset)
    return msgspec.structs.replace(
        base,
        name="demo",
        title=f"{base.title}, {move_seconds:g} s a move (demo)",
        move_seconds=move_seconds,
    )


class Demo:
    """Everything the demo runs, started and stopped together."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.workdir = Path(args.dir or tempfile.mkdtemp(prefix="rummikub-demo-")).absolute()
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.topics = Topics(VENUE, EVENT)
        self.stop_event = threading.Event()
        self.units: list[TableUnit] = []
        self.bots: list[TableBot] = []
        self.threads: list[threading.Thread] = []
        self.organizer: Organizer | None = None
        self.broker: MosquittoBroker | EmbeddedBroker | None = None
        self.hub: HubService | None = None
        self.director: threading.Thread | None = None
        self.signal_name = ""
        """The signal that stopped the demo (SIGTERM, SIGINT), if one did."""

    def signalled(self, signum: int) -> None:
        """A stop signal: only flags it (a signal handler); the main loop stops."""
        self.signal_name = signal.Signals(signum).name
        self.stop_event.set()

    def start(self) -> None:
        """Event, broker, hub, tables and organizer; if any fails to start, whatever
        did start is stopped again before the error is raised."""
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> None:
        db = self.workdir / "hub.sqlite3"
        self.organizer = Organizer(EventStore(db), by="organizer (demo)")
        self._create_event()  # an event that cannot start fails before any broker runs
        prefer = {"embedded": "amqtt"}.get(self.args.broker, self.args.broker)
        self.broker = start_broker(self.workdir / "broker", prefer=prefer)
        self.host, self.port = "127.0.0.1", self.broker.port
        mosquitto = isinstance(self.broker, MosquittoBroker)
        print(
            f"demo: broker {'Mosquitto' if mosquitto else 'embedded (amqtt)'} on "
            f"{self.host}:{self.port}; files in {self.workdir}",
            flush=True,
        )
        tables = len(self.organizer.competition.tables())
        self.hub = HubService(
            self.host, self.port, db, self.topics, mqtt_version=5 if mosquitto else 4,
            tables=tables,
        )
        self.hub.start()
        for number in range(1, tables + 1):
            self._start_table(number)
        self.director = threading.Thread(target=self._direct, name="demo-organizer", daemon=True)
        self.director.start()

    def _create_event(self) -> None:
        args = self.args
        rules = {"demo": demo_ruleset(args.preset, args.players, args.move_seconds)}
        org = self.organizer
        assert org is not None, "the demo's organizer is made by start()"
        org.create_event(
            "Rummikub demo cup",
            args.preset,
            ruleset="demo",
            rulesets=rules,
            round_minutes=args.round_minutes,
        )
        players = [Player(org.next_player_id(i), NAMES[i]) for i in range(args.players)]
        org.register(players, check_in=True)
        self._next_round()

    def _next_round(self) -> None:
        org = self.organizer
        assert org is not None, "the demo's organizer is made by start()"
        seated = org.draw(seed=self.args.seed)
        org.start_round()
        stage = seated.stage
        print(
            f"demo: {stage} drawn ({len(seated.tables)} tables, {seated.repeats} repeated "
            "pairs) and started",
            flush=True,
        )

    def _start_table(self, number: int) -> None:
        args = self.args
        config = UnitConfig(
            unit=UnitSettings(table=number),
            link=LinkSettings(host=self.host, port=self.port, venue=VENUE, event=EVENT),
        )
        unit = build(config, self.workdir / f"table-{number:02d}.sqlite3")
        style = BotStyle(pace=args.pace, start_games=False, judge_chance=0.02)
        bot = TableBot(unit.put, _viewer(unit), style, seed=(args.seed or 0) + number)
        loop = threading.Thread(target=unit.run, name=f"table-{number}", daemon=True)
        loop.start()
        bot.start()
        self.units.append(unit)
        self.bots.append(bot)
        self.threads.append(loop)

    def _direct(self) -> None:
        """The organizer: close each round once every result is in, then seat the next."""
        org = Organizer(EventStore(self.workdir / "hub.sqlite3"), by="organizer (demo)")
        while not self.stop_event.wait(2.0):
            try:
                competition = org.competition
                state = competition.event
                if state.phase is EventPhase.PLAYING and state.can_close():
                    org.close_round()
                    print(f"demo: {state.current_stage.name if state.current_stage else ''} "
                          "closed", flush=True)
                    if org.competition.event.phase is EventPhase.FINISHED:
                        self._print_ranking(org)
                        return
                    seated = org.draw(seed=self.args.seed)
                    org.start_round()
                    print(f"demo: {seated.stage} drawn and started", flush=True)
            except (CompetitionError, TournamentError) as err:
                log.warning("demo organizer: %s", err)

    def _print_ranking(self, org: Organizer) -> None:
        state = org.competition.event
        print("demo: the event is finished. Final ranking:", flush=True)
        for row in state.final_ranking():
            title = f"  ({row.title})" if row.title else ""
            name = state.players[row.player_id].name
            print(f"  {row.place:>3}. {name:<24} BP {row.big:>2}  SP {row.small:>+5}{title}")

    def stop(self) -> None:
        """Stop everything that was started; safe for a partly started demo."""
        self.stop_event.set()
        for bot in self.bots:
            bot.stop_event.set()
        for unit in self.units:
            unit.put(Quit())
        for bot in self.bots:
            bot.stop()
        for thread in self.threads:
            thread.join(timeout=5)
        if self.director is not None and self.director.ident is not None:
            self.director.join(timeout=5)
        for unit in self.units:
            stop_link = getattr(unit.uplink, "stop", None)
            if stop_link is not None:
                stop_link()
        if self.hub is not None:
            self.hub.stop()
        if self.broker is not None:
            self.broker.stop()
        if self.organizer is not None:
            self.organizer.store.close()


def _viewer(unit: TableUnit) -> Callable[[], TableView]:
    return lambda: unit.view


def run_screen(demo: Demo, args: argparse.Namespace) -> None:
    """The hub screen in a window (on this, the main thread) until it is closed."""
    from hub.screen import main as screen_main

    screen_main(
        [
            "--broker", f"{demo.host}:{demo.port}",
            "--venue", VENUE, "--event", EVENT,
            "--title", "Rummikub demo cup",
            "--size", args.size,
            "--cycle", str(args.cycle),
        ],
        stop=demo.stop_event,
    )


def run_headless(demo: Demo, args: argparse.Namespace) -> None:
    """No display: a live summary in the terminal and PNGs of the hub screen."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from hub.hall import countdown_text, remaining_at, state_text
    from hub.screen import render_pngs
    from hub.screen_feed import ScreenFeed

    feed = ScreenFeed(demo.host, demo.port, demo.topics, title="Rummikub demo cup")
    feed.start()
    pygame.display.init()
    pygame.font.init()
    width, height = (int(x) for x in args.size.split("x"))
    png_dir = demo.workdir / "screen"
    deadline = time.monotonic() + args.duration if args.duration else None
    next_png = 0.0
    try:
        while not demo.stop_event.wait(args.every):
            now = time.time()
            hall = feed.hall(now)
            lines = []
            for t in hall.tables:
                active = t.seats[t.active] if t.active is not None and t.seats else ""
                clock = countdown_text(remaining_at(t, now)) if t.active is not None else ""
                lines.append(
                    f"  table {t.number:>2} {t.game_label:<6} {state_text(t, now):<22} "
                    f"{active:<22} {clock:>4}"
                )
            print(time.strftime("%H:%M:%S") + "  hub view:\n" + "\n".join(lines), flush=True)
            if time.monotonic() >= next_png:
                paths = render_pngs(hall, (width, height), png_dir, now)
                print(f"  hub screen: {paths[0]}", flush=True)
                next_png = time.monotonic() + args.png_every
            if deadline is not None and time.monotonic() >= deadline:
                break
            if demo.director is None or not demo.director.is_alive():  # the event is finished
                render_pngs(feed.hall(time.time()), (width, height), png_dir, time.time())
                break
    finally:
        feed.stop()
        pygame.quit()


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="rummikub-demo",
        description="A whole Rummikub tournament played by simulated table units: broker, "
        "hub, tables with bots, and the hub screen.",
    )
    p.add_argument("--players", type=int, default=14, help="players (default 14: 2 tables of "
                   "4 and 2 of 3)")
    p.add_argument("--preset", default="school", help="tournament preset (default: school)")
    p.add_argument("--pace", type=float, default=0.25,
                   help="speed of the simulated players (1 = real people; default 0.25)")
    p.add_argument("--move-seconds", type=float, default=20.0, help="seconds a move (default 20)")
    p.add_argument("--round-minutes", type=float, default=8.0,
                   help="round time before the last lap (default 8)")
    p.add_argument("--seed", type=int, default=None, help="random seed for draws and players")
    p.add_argument("--dir", type=Path, default=None, help="where to keep the files (default: temp)")
    p.add_argument("--broker", choices=("auto", "mosquitto", "embedded"), default="auto",
                   help="Mosquitto when installed (auto), or the embedded MQTT 3.1.1 broker")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--window", action="store_true", help="always open the hub screen window")
    mode.add_argument("--headless", action="store_true", help="terminal summary and PNGs only")
    p.add_argument("--size", default="1280x720", help="hub screen size (default 1280x720)")
    p.add_argument("--cycle", type=float, default=20.0, help="seconds per screen page")
    p.add_argument("--every", type=float, default=5.0, help="headless: seconds between summaries")
    p.add_argument("--png-every", type=float, default=30.0,
                   help="headless: seconds between hub screen PNGs")
    p.add_argument("--duration", type=float, default=None,
                   help="stop after this many seconds (default: when the event is finished)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    if not 6 <= args.players <= len(NAMES):
        print(f"rummikub-demo: --players must be 6 to {len(NAMES)}, got {args.players}",
              file=sys.stderr)
        return 2
    from tablekit.keyboard import display_available

    demo = Demo(args)
    # SIGTERM (timeout, a closed terminal, systemd) and Ctrl-C stop the demo whatever
    # the display: SDL must not take the signals over when the hub screen starts.
    with stop_on_signals(demo.signalled):
        try:
            demo.start()
        except (BrokerError, CompetitionError, TournamentError, ValueError) as err:
            print(f"rummikub-demo: {err}", file=sys.stderr)
            return 2
        try:
            if demo.stop_event.is_set():
                pass  # a signal came while it was starting
            elif args.window or (not args.headless and display_available()):
                run_screen(demo, args)
            else:
                run_headless(demo, args)
        finally:
            why = f" ({demo.signal_name})" if demo.signal_name else ""
            print(f"demo: stopping{why}", flush=True)
            demo.stop()
            print("demo: stopped", flush=True)
    return 0

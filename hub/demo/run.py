"""Starting and stopping what the demo runs: the broker, the hub service on a fresh
event store, one table unit per table with its simulated players, and the organizer's
thread (:func:`hub.demo.event.direct`); whatever started is stopped together."""

from __future__ import annotations

import argparse
import os
import signal
import socket
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

from hub.broker import BrokerError, EmbeddedBroker, MosquittoBroker, free_port, start_broker
from hub.demo.event import EVENT, VENUE, create_event, direct
from hub.demo.options import WEB_PORT, fill_length
from hub.demo.report import follow_text
from hub.demo.tables import SimulatedTables
from hub.hall import HallView
from hub.organizer import Organizer
from hub.service import HubService
from hub.store import EventStore
from hub.web.accounts import WebRole, accounts_text, new_password
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.web.serve import ConsoleThread, WebConsoleError
from hub.web.sessions import Gate
from tablekit.bot import BotStyle
from tablekit.config import LinkSettings, UnitConfig, UnitSettings
from tablekit.core.topics import Topics
from tablekit.shared import i18n
from tablekit.shared.i18n import Words, choose

WEB_CONNECT = 10.0
"""Seconds the demo waits for the web console's broker feed to subscribe."""


class Demo:
    """Everything the demo runs, started and stopped together."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.workdir = Path(args.dir or tempfile.mkdtemp(prefix="rummikub-demo-")).absolute()
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.topics = Topics(VENUE, EVENT)
        self.stop_event = threading.Event()
        self.tables = SimulatedTables()
        self.organizer: Organizer | None = None
        self.broker: MosquittoBroker | EmbeddedBroker | None = None
        self.hub: HubService | None = None
        self.web: ConsoleThread | None = None
        self.web_reader: EventReader | None = None
        self.director: threading.Thread | None = None
        self.length = fill_length(args)
        self.pngs = 0
        """Sets of hub screen PNGs written (numbered, never overwritten)."""
        self.signal_name = ""
        """The signal that stopped the demo (SIGTERM, SIGINT), if one did."""
        self.words: Words = i18n.words(choose(args.lang, os.environ))
        """The language of the lines it prints."""

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
        if self.args.port is not None:
            check_port_free("127.0.0.1", self.args.port, self.words)
        self.broker = start_broker(self.workdir / "broker", self.args.port, prefer=prefer)
        self.host, self.port = "127.0.0.1", self.broker.port
        mosquitto = isinstance(self.broker, MosquittoBroker)
        _ = self.words.gettext
        self.client_settings = self.broker.client_settings()
        print(
            _("demo: broker {broker} on {address}; files in {folder}").format(
                # Translators: the MQTT broker the demo runs itself when Mosquitto is missing
                broker="Mosquitto" if mosquitto else _("embedded (amqtt)"),
                address=f"{self.host}:{self.port}",
                folder=self.workdir,
            ),
            flush=True,
        )
        print(follow_text(self.host, self.port, self.topics, self.workdir, self.words), flush=True)
        if self.args.no_web:
            pass
        elif mosquitto:
            self._start_web(db)
        else:
            # amqtt fails a connecting client when another subscribes at the same moment,
            # which one more client of the hall's topics makes likely at the start.
            print(_("demo: no web console with the embedded broker (install Mosquitto)"),
                  flush=True)
        tables = len(self.organizer.competition.tables())
        # the console's address for the QR codes of the screen and the tables' displays
        console = self.web.url.rstrip("/") if self.web is not None else ""
        self.hub = HubService(self.client_settings, db, self.topics, tables=tables,
                              console_url=console)
        self.hub.start()
        for number in range(1, tables + 1):
            self._start_table(number)
        self.director = threading.Thread(target=self._direct, name="demo-organizer", daemon=True)
        self.director.start()

    def _start_web(self, db: Path) -> None:
        """The web console on the demo's event (the players' phones' pages)."""
        asked = self.args.web_port
        if asked is not None:
            check_port_free("127.0.0.1", asked, self.words, "--web-port")
        self.web_reader = reader = EventReader(db)
        logins = self._web_accounts()
        ports = [asked] if asked is not None else [WEB_PORT, free_port()]
        if asked is None and bind_error("127.0.0.1", WEB_PORT) is not None:
            ports = ports[1:]  # taken: a free one at once (the retry is for a race)
        for port in ports:
            live = LiveTables(self.client_settings, self.topics, reader.version)
            console = Console(reader, live, gate=Gate(self.workdir / "web-accounts.toml"))
            self.web = web = ConsoleThread(console, "127.0.0.1", port)
            try:
                web.start()
                break
            except WebConsoleError:
                web.stop()
                if port == ports[-1]:
                    raise
        live.wait_subscribed(WEB_CONNECT)  # it shows every table from the first move
        print(
            self.words.gettext(
                "demo: web console {url} (find your table, the standings, every table live)"
            ).format(url=web.url),
            flush=True,
        )
        print(
            self.words.gettext(
                "demo: sign in there as {organizer} (password {organizer_password}) or as "
                "{judge} (password {judge_password}): accounts of this demo only, made anew "
                "each run (a real event's come with its credentials, docs/deployment.md)"
            ).format(**logins),
            flush=True,
        )

    def _web_accounts(self) -> dict[str, str]:
        """The demo's own web accounts, an organizer and a judge with new passwords,
        written beside its event; their names and passwords."""
        organizer, judge = new_password(), new_password()
        path = self.workdir / "web-accounts.toml"
        path.write_text(accounts_text([("organizer", WebRole.ORGANIZER, organizer),
                                       ("judge-1", WebRole.JUDGE, judge)]))
        path.chmod(0o600)
        return {"organizer": "organizer", "organizer_password": organizer,
                "judge": "judge-1", "judge_password": judge}

    def _create_event(self) -> None:
        org = self.organizer
        assert org is not None, "the demo's organizer is made by start()"
        create_event(org, self.args, self.length, self.words)

    def _start_table(self, number: int) -> None:
        args = self.args
        config = UnitConfig(
            unit=UnitSettings(table=number),
            link=LinkSettings(
                host=self.host, port=self.port, venue=VENUE, event=EVENT,
                mqtt_version=self.client_settings.mqtt_version,
            ),
        )
        style = BotStyle(pace=args.pace, start_games=False, judge_chance=0.02)
        if self.length.moves_per_game is not None:
            style = replace(style, moves_per_game=self.length.moves_per_game)
        journal = self.workdir / f"table-{number:02d}.sqlite3"
        self.tables.start(config, journal, style, (args.seed or 0) + number)

    def _direct(self) -> None:
        """The organizer's loop, on the thread it runs in."""
        direct(self.workdir / "hub.sqlite3", self.args.seed, self.words, self.stop_event)

    def save_pngs(self, hall: HallView, size: tuple[int, int], now: float) -> list[Path]:
        """Every page of the hub screen as PNGs, numbered: ``screen/0003-wall-1.png``."""
        from hub.screen.render import render_pngs

        self.pngs += 1
        paths = render_pngs(hall, size, self.workdir / "screen", now, prefix=f"{self.pngs:04d}-")
        shown = ", ".join(str(p) for p in paths)
        print("  " + self.words.gettext("hub screen: {files}").format(files=shown), flush=True)
        return paths

    def stop(self) -> None:
        """Stop everything that was started; safe for a partly started demo."""
        self.stop_event.set()
        self.tables.stop()
        if self.director is not None and self.director.ident is not None:
            self.director.join(timeout=5)
        if self.web is not None:
            self.web.stop()
        if self.web_reader is not None:
            self.web_reader.close()
        if self.hub is not None:
            self.hub.stop()
        if self.broker is not None:
            self.broker.stop()
        if self.organizer is not None:
            self.organizer.store.close()

def bind_error(host: str, port: int) -> OSError | None:
    """Why nothing could listen on ``port`` now (None: it is free)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as err:
            return err
    return None


def check_port_free(host: str, port: int, words: Words, flag: str = "--port") -> None:
    """BrokerError when something listens on ``port`` (given as ``flag``) already: a
    broker or the web console would fail to start there, and the demo would talk to
    whatever listens."""
    err = bind_error(host, port)
    if err is not None:
        raise BrokerError(
            words.gettext(
                "port {port} on {host} is in use ({why}): choose another {flag}, or "
                "leave it out for a free one"
            ).format(port=port, host=host, why=err.strerror, flag=flag)
        )


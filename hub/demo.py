"""The kit's main demo: a whole tournament played by simulated tables.

``rummikub-demo`` (``./kit demo``) starts a broker (Mosquitto when installed, else
the embedded one), the hub service on a fresh event store, one table unit per
table — each with its own journal, its MQTT link and simulated players pressing
the buttons, calling the judge, timing out and typing each game's result on the
keypad — and an organizer who draws, starts and closes the rounds as soon as every
result is in. The hub screen shows it all: in a window when there is a display,
otherwise as a live summary in the terminal plus numbered PNG snapshots of the screen.
The lines it prints are in Polish, or in English with ``--lang en`` (or an English
``LANG``: :func:`tablekit.shared.i18n.choose`).

By default the event is short (:data:`SHORT`: the school preset's first two rounds,
short games at a quick pace, a few minutes in all); ``--full`` plays the preset's
whole event at the full-length pace (:data:`FULL`). SIGTERM and SIGINT stop it, and
everything it started, whatever the display (:mod:`tablekit.shared.stopping`).
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

import msgspec

from hub.broker import BrokerError, EmbeddedBroker, MosquittoBroker, start_broker
from hub.competition import new_event
from hub.exports.notes import consolation_text, tie_decision_text
from hub.hall import HallView
from hub.organizer import Organizer
from hub.service import HubService
from hub.store import EventStore
from hub.tournament import (
    ConsolationError,
    Player,
    SeatedTable,
    TieHow,
    TournamentError,
    TournamentFormat,
    preset,
)
from hub.tournament import Phase as EventPhase
from hub.tournament.presets import school
from tablekit.app import build
from tablekit.bot import BotStyle, TableBot
from tablekit.config import LinkSettings, UnitConfig, UnitSettings
from tablekit.core.errors import KitError
from tablekit.core.rulesets import Ruleset, get_ruleset
from tablekit.core.topics import Topics
from tablekit.shared import i18n
from tablekit.shared.i18n import Words, choose
from tablekit.shared.stopping import stop_on_signals
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


@dataclass(frozen=True)
class Length:
    """How long the demo's event takes: its rounds, the players' pace and the clocks."""

    name: str
    pace: float
    """Speed of the simulated players (1 = real people)."""
    move_seconds: float
    round_minutes: float
    moves_per_game: tuple[int, int] | None
    """Moves a game lasts (None: as long as a real game)."""
    school_rounds: int | None
    """Rounds of the school preset (None: the preset's own four)."""


SHORT: Final = Length("short", 0.1, 15.0, 3.0, (10, 18), 2)
"""The default: a whole school event of 2 rounds × 2 games in a few minutes, every move
still a second or so on the hub screen; 15 s a move, so a countdown turns red (10 s
left) only near its end, as in a real hall."""
FULL: Final = Length("full", 0.25, 20.0, 8.0, None, None)
"""``--full``: the preset's whole event with games as long as real ones (half an hour
and more)."""


def demo_format(preset_name: str, players: int, length: Length) -> TournamentFormat:
    """The preset's format; a short demo plays the school preset's first rounds only.

    Raises a TournamentError for an unknown preset or a player count it cannot play.
    """
    fmt = preset(preset_name, players=players)
    if preset_name == "school" and length.school_rounds is not None:
        fmt = school(rounds=length.school_rounds)
        fmt.check_player_count(players)
    return fmt


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


def _judge_orders_lots(org: Organizer) -> None:
    """The demo's officials: players left for consolation games who cannot sit at tables
    of 3 or 4 are moved up as few as need be (the organizer's choice), and every tie at
    a cut is decided by a lot the judge orders; recorded and printed (at a real event
    they may choose otherwise)."""
    event = org.competition.event
    if event.phase is EventPhase.BETWEEN_ROUNDS:
        try:
            event.draw_next(0)
        except ConsolationError as err:
            promote = err.options[0] if err.options else 0
            record = org.decide_consolation(
                promote=promote, none=not promote, why="demo: the organizer's choice"
            )
            print(f"demo: {consolation_text(record)}", flush=True)
        except TournamentError:
            pass  # a tie at a cut: below
    for tie in org.competition.event.pending_ties():
        record = org.decide_tie(tie.scope, tie.players, TieHow.LOT, why="demo: the judge's lot")
        print(f"demo: {tie_decision_text(org.competition, record)}", flush=True)


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
            _check_port_free("127.0.0.1", self.args.port, self.words)
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
        tables = len(self.organizer.competition.tables())
        self.hub = HubService(self.client_settings, db, self.topics, tables=tables)
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
        created = new_event(
            "Rummikub demo cup",
            args.preset,
            at=time.time(),
            by=org.by,
            ruleset="demo",
            rulesets=rules,
            round_minutes=args.round_minutes,
        )
        if args.preset != "league":  # the automatic league scheme is fixed at the draw
            fmt = demo_format(args.preset, args.players, self.length)
            created = msgspec.structs.replace(created, format=fmt)
        org.record(created)
        about = created.format.description if created.format else args.preset
        count = self.words.ngettext("{n} player", "{n} players", args.players)
        print(f"demo: {about}; {count.format(n=args.players)}", flush=True)
        players = [Player(org.next_player_id(i), NAMES[i]) for i in range(args.players)]
        org.register(players, check_in=True)
        self._next_round()

    def _draw_seed(self, org: Organizer) -> int | None:
        """--seed for the first round, the next numbers for the later ones (a seed that
        drew a round would seat the same players together again)."""
        if self.args.seed is None:
            return None
        return int(self.args.seed) + len(org.competition.event.stages_played)

    def _next_round(self) -> None:
        org = self.organizer
        assert org is not None, "the demo's organizer is made by start()"
        seated = org.draw(seed=self._draw_seed(org))
        org.start_round()
        w = self.words
        tables = w.ngettext("{n} table", "{n} tables", len(seated.tables))
        # Translators: players seated together again who already met in an earlier round
        pairs = w.ngettext("{n} repeated pair", "{n} repeated pairs", seated.repeats)
        print(
            w.gettext("demo: {stage} drawn ({tables}, {pairs}) and started; the seating:").format(
                stage=seated.stage,
                tables=tables.format(n=len(seated.tables)),
                pairs=pairs.format(n=seated.repeats),
            ),
            flush=True,
        )
        self._print_seating(org, seated.tables)

    def _start_table(self, number: int) -> None:
        args = self.args
        config = UnitConfig(
            unit=UnitSettings(table=number),
            link=LinkSettings(
                host=self.host, port=self.port, venue=VENUE, event=EVENT,
                mqtt_version=self.client_settings.mqtt_version,
            ),
        )
        unit = build(config, self.workdir / f"table-{number:02d}.sqlite3")
        style = BotStyle(pace=args.pace, start_games=False, judge_chance=0.02)
        if self.length.moves_per_game is not None:
            style = replace(style, moves_per_game=self.length.moves_per_game)
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
        _ = self.words.gettext
        while not self.stop_event.wait(2.0):
            try:
                competition = org.competition
                state = competition.event
                if state.phase is EventPhase.PLAYING and state.can_close():
                    stage = state.current_stage.name if state.current_stage else ""
                    org.close_round()
                    print(_("demo: {stage} closed: every result is in").format(stage=stage),
                          flush=True)
                    _judge_orders_lots(org)
                    if org.competition.event.phase is EventPhase.FINISHED:
                        self._print_ranking(org)
                        return
                    self._print_standings(org, stage)
                    seated = org.draw(seed=self._draw_seed(org))
                    org.start_round()
                    print(_("demo: {stage} drawn and started; the new seating:").format(
                        stage=seated.stage), flush=True)
                    self._print_seating(org, seated.tables)
            except KitError as err:
                log.warning("demo organizer: %s", err)

    def _points(self) -> tuple[str, str]:
        """The abbreviations of big and small points, as the standings print them."""
        w = self.words
        # Translators: the rule books' duże punkty and małe punkty (docs/glossary.md)
        return (w.pgettext("abbreviation of big points", "BP"),
                w.pgettext("abbreviation of small points", "SP"))

    def _print_standings(self, org: Organizer, stage: str) -> None:
        state = org.competition.event
        w = self.words
        big, small = self._points()
        print(w.gettext("demo: standings after {stage}:").format(stage=stage), flush=True)
        for row in state.standings(stage).rows:
            name = state.players[row.player_id].name
            games = w.ngettext("{n} game", "{n} games", row.games).format(n=row.games)
            print(f"  {row.place:>3}. {name:<24} {big} {row.big:>2}  {small} {row.small:>+5}  "
                  f"{games}", flush=True)

    def _print_seating(self, org: Organizer, tables: Sequence[SeatedTable]) -> None:
        players = org.competition.event.players
        for table in tables:
            names = ", ".join(
                f"{seat} {players[pid].name}"
                for seat, pid in zip("ABCD", table.players, strict=False)
            )
            line = self.words.gettext("table {number}: {players}")
            print("  " + line.format(number=table.number, players=names), flush=True)

    def _print_ranking(self, org: Organizer) -> None:
        state = org.competition.event
        big, small = self._points()
        print(self.words.gettext("demo: the event is finished. Final ranking:"), flush=True)
        for row in state.final_ranking():
            title = f"  ({row.title})" if row.title else ""
            name = state.players[row.player_id].name
            print(
                f"  {row.place:>3}. {name:<24} {big} {row.big:>2}  {small} {row.small:>+5}{title}"
            )

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


def follow_text(host: str, port: int, topics: Topics, workdir: Path, words: Words) -> str:
    """Where the demo publishes and the commands that follow it from another terminal."""
    _ = words.gettext
    db = workdir.resolve() / "hub.sqlite3"
    where = f"--broker {host}:{port} --venue {topics.venue} --event {topics.event}"
    clients = "" if shutil.which("mosquitto_sub") else "  (apt install mosquitto-clients)"
    commands = [
        (_("follow it live:"), f"mosquitto_sub -h {host} -p {port} -v -t '{topics.base}/#'"
                               f"{clients}"),
        (_("the hub screen:"), f"{kit_command('rummikub-screen')} {where}"),
        (_("round status:"), f"{kit_command('rummikub')} round status --db {db} {where}"),
    ]
    width = max(len(label) for label, _command in commands) + 2
    heading = _("demo: venue {venue}, event {event}: every message under {topic}").format(
        venue=repr(topics.venue), event=repr(topics.event), topic=f"{topics.base}/"
    )
    return "\n".join([heading, *(f"  {label:<{width}}{command}" for label, command in commands)])


def kit_command(program: str) -> str:
    """How to run one of the kit's programs from any folder: through the source tree's
    ``kit`` script when the demo runs from one, else the installed program itself."""
    kit = Path(__file__).resolve().parent.parent / "kit"
    return f"{kit} run {program}" if kit.is_file() else program


def _check_port_free(host: str, port: int, words: Words) -> None:
    """BrokerError when something listens on ``port`` already (a broker would fail to
    start there, and the demo would talk to whatever listens)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as err:
            raise BrokerError(
                words.gettext(
                    "port {port} on {host} is in use ({why}): choose another --port, or "
                    "leave it out for a free one"
                ).format(port=port, host=host, why=err.strerror)
            ) from None


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

    from hub.hall import countdown_text, link_lost_text, remaining_at, shown_at, state_text
    from hub.screen.feed import ScreenFeed

    feed = ScreenFeed(demo.client_settings, demo.topics, title="Rummikub demo cup")
    feed.start()
    pygame.display.init()
    pygame.font.init()
    width, height = (int(x) for x in args.size.split("x"))
    deadline = time.monotonic() + args.duration if args.duration else None
    next_png = 0.0
    try:
        while not demo.stop_event.wait(args.every):
            now = time.time()
            hall = feed.hall(now)
            shown = shown_at(hall, now)  # the moment the broker was lost, if it was
            lines = []
            if hall.link_lost is not None:
                lines.append("  " + " — ".join(link_lost_text(hall.link_lost, now)))
            for t in hall.tables:
                active = t.seats[t.active.position] if t.active is not None and t.seats else ""
                clock = countdown_text(remaining_at(t, shown)) if t.active is not None else ""
                table = demo.words.gettext("table {number}").format(number=f"{t.number:>2}")
                lines.append(
                    f"  {table} {t.game_label:<6} {state_text(t, shown):<22} "
                    f"{active:<22} {clock:>4}"
                )
            # Translators: heading of the demo's summary of every table, as the hub sees it
            view = demo.words.gettext("hub view:")
            print(f"{time.strftime('%H:%M:%S')}  {view}\n" + "\n".join(lines), flush=True)
            if demo.director is None or not demo.director.is_alive():  # the event is finished
                demo.stop_event.wait(min(args.every, 2.0))  # the final standings arrive
                demo.save_pngs(feed.hall(time.time()), (width, height), time.time())
                break
            if time.monotonic() >= next_png:
                demo.save_pngs(hall, (width, height), now)
                next_png = time.monotonic() + args.png_every
            if deadline is not None and time.monotonic() >= deadline:
                break
    finally:
        feed.stop()
        pygame.quit()


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help, with the heading of its usage line in the reader's language."""

    usage_heading = "usage: "

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, self.usage_heading if prefix is None else prefix)


def build_parser(words: Words | None = None) -> argparse.ArgumentParser:
    """The demo's options, their help in ``words``' language (default: as
    :func:`tablekit.shared.i18n.choose` finds it). argparse's own refusals (an unknown
    option, a value of the wrong type) stay in its English."""
    w = words if words is not None else i18n.words(choose(None, os.environ))
    _ = w.gettext

    class Formatter(_HelpFormatter):
        usage_heading = _("usage: ")

    p = argparse.ArgumentParser(
        prog="rummikub-demo",
        description=_("A whole Rummikub tournament played by simulated table units: broker, "
                      "hub, tables with bots, and the hub screen."),
        formatter_class=Formatter,
        add_help=False,
    )
    o = p.add_argument_group(_("options"))
    o.add_argument("-h", "--help", action="help", help=_("show this help and stop"))
    o.add_argument("--players", type=int, default=14,
                   help=_("players (default 14: 2 tables of 4 and 2 of 3)"))
    o.add_argument("--preset", default="school",
                   help=_("tournament preset (default: school; the short demo plays its "
                          "first 2 rounds)"))
    o.add_argument("--full", action="store_true",
                   help=_("the whole event at the full-length pace: games as long as real "
                          "ones, pace {pace}, {move} s a move, {round}-minute rounds (half an "
                          "hour and more); default: a short event of a few minutes").format(
                       pace=f"{FULL.pace:g}", move=f"{FULL.move_seconds:g}",
                       round=f"{FULL.round_minutes:g}"))
    o.add_argument("--pace", type=float, default=None,
                   help=_("speed of the simulated players (1 = real people; default "
                          "{short}, with --full {full})").format(
                       short=f"{SHORT.pace:g}", full=f"{FULL.pace:g}"))
    o.add_argument("--move-seconds", type=float, default=None,
                   help=_("seconds a move (default {short}, with --full {full})").format(
                       short=f"{SHORT.move_seconds:g}", full=f"{FULL.move_seconds:g}"))
    o.add_argument("--round-minutes", type=float, default=None,
                   help=_("round time before the last lap (default {short}, with --full "
                          "{full})").format(
                       short=f"{SHORT.round_minutes:g}", full=f"{FULL.round_minutes:g}"))
    o.add_argument("--port", type=_port(w), default=None,
                   help=_("the broker's port on 127.0.0.1 (default: a free one)"))
    o.add_argument("--seed", type=int, default=None,
                   help=_("random seed for draws and players"))
    o.add_argument("--dir", type=Path, default=None,
                   help=_("where to keep the files (default: temp)"))
    o.add_argument("--broker", choices=("auto", "mosquitto", "embedded"), default="auto",
                   help=_("Mosquitto when installed (auto), or the embedded MQTT 3.1.1 broker"))
    mode = o.add_mutually_exclusive_group()
    mode.add_argument("--window", action="store_true",
                      help=_("always open the hub screen window"))
    mode.add_argument("--headless", action="store_true",
                      help=_("terminal summary and PNGs only"))
    o.add_argument("--size", default="1280x720",
                   help=_("hub screen size (default 1280x720)"))
    o.add_argument("--cycle", type=float, default=20.0, help=_("seconds per screen page"))
    o.add_argument("--every", type=float, default=5.0,
                   help=_("headless: seconds between summaries"))
    o.add_argument("--png-every", type=float, default=30.0,
                   help=_("headless: seconds between hub screen PNGs"))
    o.add_argument("--duration", type=float, default=None,
                   help=_("stop after this many seconds (default: when the event is finished)"))
    o.add_argument("--lang", type=_language, default=w.language,
                   help=_("the language of what it prints: pl or en (default: Polish, or "
                          "English when LANG names it)"))
    return p


def _port(words: Words) -> Callable[[str], int]:
    """argparse's type of ``--port``: a port number, refused in ``words``' language."""

    def port(text: str) -> int:
        if not text.isdigit() or not 1 <= int(text) <= 65535:
            raise argparse.ArgumentTypeError(
                words.gettext("expected a port 1-65535, got {text}").format(text=repr(text))
            )
        return int(text)

    return port


def _language(text: str) -> str:
    try:
        return choose(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def asked_language(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language the command line asks for before it is parsed (its help is written
    in it): the last ``--lang`` given, else :func:`tablekit.shared.i18n.choose`'s."""
    asked = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            asked = argv[i + 1]
        elif arg.startswith("--lang="):
            asked = arg.split("=", 1)[1]
    try:
        return choose(asked, environ)
    except ValueError:
        return choose(None, environ)  # the parser refuses it, naming the languages


def fill_length(args: argparse.Namespace) -> Length:
    """The chosen length; its pace and clocks fill the options not given."""
    length = FULL if args.full else SHORT
    for name in ("pace", "move_seconds", "round_minutes"):
        if getattr(args, name) is None:
            setattr(args, name, getattr(length, name))
    return length


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    w = i18n.words(asked_language(argv, os.environ))
    args = build_parser(w).parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    if not 6 <= args.players <= len(NAMES):
        wrong = w.gettext("--players must be 6 to {most}, got {players}").format(
            most=len(NAMES), players=args.players
        )
        print(f"rummikub-demo: {wrong}", file=sys.stderr)
        return 2
    from tablekit.keyboard import display_available

    demo = Demo(args)
    # SIGTERM (timeout, a closed terminal, systemd) and Ctrl-C stop the demo whatever
    # the display: SDL must not take the signals over when the hub screen starts.
    with stop_on_signals(demo.signalled):
        try:
            demo.start()
        except KitError as err:
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
            _ = demo.words.gettext
            why = f" ({demo.signal_name})" if demo.signal_name else ""
            print(_("demo: stopping") + why, flush=True)
            demo.stop()
            print(_("demo: stopped"), flush=True)
    return 0

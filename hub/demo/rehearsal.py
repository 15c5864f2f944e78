"""``rummikub-rehearsal`` (``./kit rehearsal``): the tournament day rehearsed on one
computer, run by a person at the web console.

It sets up a hall as a real one is set up, in one folder: the venue's credentials bundle
(:mod:`hub.local_venue`: the broker's accounts and access list, the hub's config file,
each table's config, the web console's accounts), the venue's Mosquitto from that
bundle, the hub service and the web console as the hub Pi runs them (``rummikub-hub
serve`` and ``rummikub-web`` with the hub's config file, each a process of its own) and
one simulated table unit per table (``tablekit.app.build`` on the table's own config),
whose simulated players press, run out of time, call the judge and type each game's
result on the keypad (:class:`tablekit.bot.TableBot`). With a display the hub screen
opens too (``rummikub-screen``). No event, no players and no organizer: the person
creates the event, imports the players, draws, starts and closes the rounds on the web
console's pages, and the tables play whatever is drawn, following the event the hub
announces as a hall's units do.

It opens the console's first page in the browser (or prints its address) and prints
the accounts to sign in with; Ctrl-C or SIGTERM ends it, and everything it started.
Made again with the same ``--dir``, the rehearsal goes on where it stopped.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import webbrowser
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from hub.broker import BrokerError, MosquittoBroker, free_port, wait_for_port
from hub.credentials import WEB_ROLES, Role
from hub.demo.options import WEB_PORT, add_port_options, language_type, program_parser
from hub.demo.run import bind_error, check_port_free
from hub.demo.tables import SimulatedTables
from hub.local_venue import LocalVenue, make_local_venue
from tablekit.bot import BotStyle
from tablekit.config import load_config
from tablekit.core.errors import KitError
from tablekit.core.fields import MAX_TABLE
from tablekit.core.topics import Topics
from tablekit.core.words import N_
from tablekit.shared import i18n
from tablekit.shared.commandline import parse_in_language
from tablekit.shared.i18n import Words
from tablekit.shared.stopping import stop_on_signals

log = logging.getLogger("hub.demo.rehearsal")

TOPICS: Final = Topics("rehearsal-hall", "rehearsal")
"""The rehearsal's venue and the event its hub announces (topic levels nobody reads)."""
TABLES: Final = 4
STARTING: Final = 60.0
"""Seconds the hub, the web console and the tables have to come up."""
PROGRAM: Final = (
    "import sys; from tablekit.shared.programs import run; name = sys.argv.pop(1); "
    "sys.exit(run(name))"
)
"""How a program of the kit is run from this Python, whatever its install."""


class RehearsalError(KitError, RuntimeError):
    """A part of the rehearsal did not start; the message says which and why."""


@dataclass(frozen=True)
class Players:
    """How the simulated players play."""

    pace: float
    moves: tuple[int, int]
    timeouts: float
    judge_calls: float

    def style(self) -> BotStyle:
        return BotStyle(
            pace=self.pace, moves_per_game=self.moves, timeout_chance=self.timeouts,
            judge_chance=self.judge_calls, start_games=False,
        )  # fmt: skip


def build_parser(words: Words | None = None) -> argparse.ArgumentParser:
    """The rehearsal's options, their help in ``words``' language."""
    w = words if words is not None else i18n.words(i18n.choose(None, os.environ))
    _ = w.gettext

    p, o = program_parser(
        "rummikub-rehearsal",
        _("A rehearsal of the tournament day on this computer: the broker, the hub, the web "
          "console and simulated tables that play whatever you draw. You run the event "
          "yourself, on the web console's pages."),
        w,
    )  # fmt: skip
    o.add_argument("--tables", type=_tables(w), default=TABLES,
                   help=_("simulated tables (default {n})").format(n=TABLES))  # fmt: skip
    o.add_argument("--dir", type=Path, default=None,
                   help=_("the folder of the rehearsal's hall and event (default: a new one; "
                          "the same folder again goes on where it stopped)"))  # fmt: skip
    add_port_options(o, w)
    o.add_argument("--no-browser", action="store_true",
                   help=_("do not open the web console in the browser (its address is "
                          "printed)"))  # fmt: skip
    o.add_argument("--no-screen", action="store_true",
                   help=_("do not open the hub screen's window"))
    o.add_argument("--pace", type=float, default=0.1,
                   help=_("speed of the simulated players (1 = real people; default 0.1)"))
    o.add_argument("--moves", type=_moves(w), default=(10, 18), metavar="LEAST-MOST",
                   help=_("moves a game of the simulated players lasts (default 10-18)"))
    o.add_argument("--timeouts", type=_percent(w), default=4.0, metavar="PERCENT",
                   help=_("moves in a hundred on which a player's time runs out (default 4)"))
    o.add_argument("--judge-calls", type=_percent(w), default=2.0, metavar="PERCENT",
                   help=_("moves in a hundred after which the judge is called (default 2)"))
    o.add_argument("--seed", type=int, default=None,
                   help=_("random seed of the simulated players"))
    o.add_argument("--duration", type=float, default=None,
                   help=_("stop after this many seconds (default: Ctrl-C)"))
    o.add_argument("--lang", type=language_type, default=w.language,
                   help=_("the language of what it prints: pl or en (default: Polish, or "
                          "English when LANG names it); the event's language is chosen when "
                          "it is created"))  # fmt: skip
    return p


def _tables(words: Words) -> Callable[[str], int]:
    def tables(text: str) -> int:
        if not text.isdigit() or not 1 <= int(text) <= MAX_TABLE:
            raise argparse.ArgumentTypeError(
                words.gettext("expected a number of tables 1-{most}, got {text}").format(
                    most=MAX_TABLE, text=repr(text))
            )  # fmt: skip
        return int(text)

    return tables


def _moves(words: Words) -> Callable[[str], tuple[int, int]]:
    def moves(text: str) -> tuple[int, int]:
        low, sep, high = text.partition("-")
        if not sep or not low.isdigit() or not high.isdigit() or not 1 <= int(low) <= int(high):
            raise argparse.ArgumentTypeError(
                words.gettext("expected LEAST-MOST moves such as 10-18, got {text}").format(
                    text=repr(text))
            )  # fmt: skip
        return int(low), int(high)

    return moves


def _percent(words: Words) -> Callable[[str], float]:
    def percent(text: str) -> float:
        try:
            value = float(text.replace(",", "."))
        except ValueError:
            value = -1.0
        if not 0 <= value <= 100:
            raise argparse.ArgumentTypeError(
                words.gettext("expected a percentage 0-100, got {text}").format(text=repr(text))
            )
        return value / 100

    return percent


class Program:
    """One of the kit's programs in a process of its own (its own session: a Ctrl-C at the
    terminal reaches the rehearsal, which stops them in order), its output in a log file."""

    def __init__(self, name: str, args: Sequence[str], logs: Path) -> None:
        self.name = name
        self.log_path = logs / f"{name}.log"
        logs.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-c", PROGRAM, name, *args], stdin=subprocess.DEVNULL,
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )  # fmt: skip

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, lines: int = 12) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, timeout: float = 15.0) -> None:
        if self.running:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Rehearsal:
    """Everything the rehearsal runs, started and stopped together."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.words: Words = i18n.words(args.lang)
        self.folder = Path(args.dir or tempfile.mkdtemp(prefix="rummikub-rehearsal-")).absolute()
        self.logs = self.folder / "logs"
        """The programs' logs, and the tables' (``tables.log``)."""
        self.stop_event = threading.Event()
        self.signal_name = ""
        self.players = Players(args.pace, args.moves, args.timeouts, args.judge_calls)
        self.venue: LocalVenue | None = None
        self.broker: MosquittoBroker | None = None
        self.programs: list[Program] = []
        self.tables = SimulatedTables()
        self.url = ""

    def signalled(self, signum: int) -> None:
        """A stop signal: only flags it (a signal handler)."""
        self.signal_name = signal.Signals(signum).name
        self.stop_event.set()

    def start(self) -> None:
        """The hall, in the order a hub Pi starts it; whatever started is stopped again
        when a part fails to start."""
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> None:
        args, w = self.args, self.words
        if args.port is not None:
            check_port_free("127.0.0.1", args.port, w)
        web_port = self._web_port()
        self.url = f"http://127.0.0.1:{web_port}/"
        logs = self.logs
        self.venue = venue = make_local_venue(
            self.folder, TOPICS, args.tables, judges=1, port=args.port, web_port=web_port,
            public_url=self.url.rstrip("/"),
        )  # fmt: skip
        self.broker = venue.mosquitto()
        self.broker.start()
        config = ["--config", str(venue.config)]
        self.programs.append(Program("rummikub-hub", ["serve", *config], logs))
        web = Program("rummikub-web", config, logs)
        self.programs.append(web)
        self._wait_for_web(web, web_port)
        for table in range(1, args.tables + 1):
            self._start_table(table)
        self._wait_for_tables()
        if not args.no_screen and _display():
            self.programs.append(Program("rummikub-screen", config, logs))

    def _web_port(self) -> int:
        asked = self.args.web_port
        if asked is not None:
            check_port_free("127.0.0.1", asked, self.words, "--web-port")
            return int(asked)
        return WEB_PORT if bind_error("127.0.0.1", WEB_PORT) is None else free_port()

    def _wait_for_web(self, web: Program, port: int) -> None:
        deadline = time.monotonic() + STARTING
        while not wait_for_port("127.0.0.1", port, 0.2):
            if not web.running or time.monotonic() > deadline or self.stop_event.is_set():
                raise RehearsalError(
                    N_("the web console did not start (its log, {file}):\n{log}"),
                    file=str(web.log_path), log=web.log_tail(),
                )  # fmt: skip

    def _start_table(self, table: int) -> None:
        assert self.venue is not None
        config = load_config(self.venue.unit_config(table))
        journals = self.folder / "tables"
        journals.mkdir(exist_ok=True)
        seed = None if self.args.seed is None else self.args.seed + table
        self.tables.start(config, journals / f"table-{table:02d}.sqlite3", self.players.style(),
                          seed)  # fmt: skip

    def _wait_for_tables(self) -> None:
        """Until every table follows the event the hub announces: the broker, the hub and
        the tables' links work."""
        deadline = time.monotonic() + STARTING
        while any(u.event != TOPICS.event for u in self.tables.units):
            hub = self.programs[0]
            if not hub.running or time.monotonic() > deadline:
                raise RehearsalError(
                    N_("the tables did not reach the hub (its log, {file}):\n{log}"),
                    file=str(hub.log_path), log=hub.log_tail(),
                )  # fmt: skip
            if self.stop_event.wait(0.1):
                return

    def stop(self) -> None:
        """Stop everything that was started; safe for a partly started rehearsal."""
        self.stop_event.set()
        self.tables.stop()
        for program in reversed(self.programs):
            program.stop()
        if self.broker is not None:
            self.broker.stop()

    def accounts(self) -> list[tuple[Role, str, str]]:
        """The web console's accounts: (role, name, password)."""
        assert self.venue is not None
        return [(a.role, a.username, a.secret) for a in self.venue.accounts
                if a.role in WEB_ROLES]  # fmt: skip

    def ready_text(self, opened: bool) -> str:
        """What the person reads once the hall runs: where the console is, how to sign in,
        what to do first, how to stop."""
        _ = self.words.gettext
        lines = [
            _("rehearsal: a hall of {n} simulated tables, the hub and the web console run; "
              "the files are in {folder}").format(n=self.args.tables, folder=self.folder),
            (_("rehearsal: the web console is open in the browser: {url}") if opened
             else _("rehearsal: open the web console in a browser on this computer: {url}")
             ).format(url=self.url),
        ]  # fmt: skip
        said = {
            Role.WEB_ORGANIZER: _("rehearsal: sign in as the organizer: name {name}, password "
                                  "{password}"),
            Role.WEB_HEAD_JUDGE: _("rehearsal: the head judge (who records the ties at a "
                                   "cut) signs in with name {name}, password {password}"),
            Role.WEB_JUDGE: _("rehearsal: a judge signs in with name {name}, password "
                              "{password}"),
        }  # fmt: skip
        lines += [said[role].format(name=name, password=password)
                  for role, name, password in self.accounts() if role in said]  # fmt: skip
        lines += [
            _("rehearsal: the tables wait for the first draw: create the event, import the "
              "players and draw the first round on the organizer's pages (Event, Players, "
              "Round); the tables play whatever you draw"),
            _("rehearsal: Ctrl-C ends the rehearsal; the same folder again goes on where it "
              "stopped: {command}").format(command=_again(self.folder)),
        ]
        return "\n".join(lines)


def _again(folder: Path) -> str:
    """The command that goes on with the rehearsal in ``folder``."""
    from hub.demo.report import kit_command

    command = kit_command("rummikub-rehearsal")
    if command.endswith(" run rummikub-rehearsal"):  # the source tree's script
        command = command.removesuffix(" run rummikub-rehearsal") + " rehearsal"
    return f"{command} --dir {folder}"


def _display() -> bool:
    """Whether there is a desktop to open windows on (the browser, the hub screen)."""
    return sys.platform == "darwin" or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    _w, _parser, args = parse_in_language(argv, build_parser)
    rehearsal = Rehearsal(args)
    _ = rehearsal.words.gettext
    rehearsal.logs.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(filename=rehearsal.logs / "tables.log", level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")  # fmt: skip
    with stop_on_signals(rehearsal.signalled):
        try:
            print(_("rehearsal: starting the hall (broker, hub, web console, {n} tables) in "
                    "{folder}").format(n=args.tables, folder=rehearsal.folder), flush=True)
            rehearsal.start()
        except (KitError, BrokerError) as err:
            print(f"rummikub-rehearsal: {err.message(_)}", file=sys.stderr)
            return 2
        try:
            if not rehearsal.stop_event.is_set():
                opened = not args.no_browser and _display() and webbrowser.open(rehearsal.url)
                print(rehearsal.ready_text(opened), flush=True)
                rehearsal.stop_event.wait(args.duration)
        finally:
            why = f" ({rehearsal.signal_name})" if rehearsal.signal_name else ""
            print(_("rehearsal: stopping") + why, flush=True)
            rehearsal.stop()
            print(_("rehearsal: stopped"), flush=True)
    return 0

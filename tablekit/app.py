"""Entry points of a table unit: ``tablekit-unit`` (a Pi at a table) and ``tablekit-sim``.

Both build the same unit — config, journal (restored after a restart), the hub
link when configured, the loop — and differ only in their devices:

* ``tablekit-unit``: the GPIO buttons, LEDs and buzzer, and the display full
  screen (KMSDRM on a Pi without a desktop); systemd is told when it is ready.
* ``tablekit-sim``: keys stand in for the buttons, in a window when a display is
  available, else headless in the terminal (state changes printed).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from tablekit.bot import BotStyle, TableBot
from tablekit.config import ConfigError, LinkSettings, UnitConfig, UnitSettings, load_config
from tablekit.core.clock import MoveClock
from tablekit.core.errors import KitError
from tablekit.core.words import N_
from tablekit.journal import Journal, JournalError
from tablekit.journals import EventJournals
from tablekit.notes import Note
from tablekit.printer import SignalsPrinter, TerminalPrinter
from tablekit.shared import i18n
from tablekit.shared.broker import BrokerSettingsError, check_files
from tablekit.shared.commandline import speaking
from tablekit.shared.i18n import Words
from tablekit.shared.sdnotify import Notifier
from tablekit.shared.stopping import keep_signals_from_sdl, stop_on_signals
from tablekit.unit import Heard, Output, Quit, TableUnit
from tablekit.view import TableView

if TYPE_CHECKING:
    from tablekit.link import TableLink

log = logging.getLogger("tablekit")

MOCK_PINS = "GPIOZERO_PIN_FACTORY=mock GPIOZERO_MOCK_PIN_CLASS=mockpwmpin"
"""What to set to try the unit on mock pins (gpiozero's; the LEDs need PWM pins)."""


class Watchdog:
    """Pings systemd's watchdog from the loop: a hung loop gets the unit restarted."""

    def __init__(self, notifier: Notifier) -> None:
        self.notifier = notifier

    def show(self, view: TableView, now: float) -> None:
        self.notifier.alive(now)

    def close(self) -> None:
        self.notifier.stopping()


class WindowOutput:
    """The display in a window or full screen, with the keys read on the same thread."""

    def __init__(self, config: UnitConfig, unit: TableUnit, *, keys: bool) -> None:
        from tablekit.display import TableScreen
        from tablekit.keyboard import WindowKeys

        d = config.display
        self.screen = TableScreen(d.width, d.height, d.fullscreen, d.rotate)
        self.keys = (
            WindowKeys(unit.put, on_expose=self.screen.invalidate, menu=lambda: unit.view.menu)
            if keys
            else None
        )

    def show(self, view: TableView, now: float) -> None:
        if self.keys is not None:
            self.keys.pump()
        self.screen.show(view, now)

    def close(self) -> None:
        self.screen.close()


def state_dir() -> Path:
    """Where the journal lives: systemd's StateDirectory, else the current directory."""
    return Path(os.environ.get("STATE_DIRECTORY", ".")).resolve()


def build(config: UnitConfig, journal_path: Path, outputs: Sequence[Output] = ()) -> TableUnit:
    """The unit with its journal restored and its link (when configured) started.

    With a link the unit follows the event its venue's hub announces
    (:class:`EventFollower`), one journal per event at ``journal_path``
    (:class:`tablekit.journals.EventJournals`). An unusable journal (another unit's, not a
    database) ends the program with one line saying so: the events in it must not be
    overwritten or guessed at.
    """
    _ = i18n.words(config.unit.language).gettext
    unit = TableUnit(
        MoveClock(config.clock_rules()),
        table=config.unit.table,
        outputs=list(outputs),
        judge_hold=config.clock.judge_hold,
        call_hold=config.clock.call_hold,
        fps=config.display.fps,
        language=config.unit.language,
        ask_rack_above=config.unit.ask_rack_above,
    )
    if config.link is not None:  # the settings first: no journal for a unit that cannot run
        try:
            check_files(config.link, "link")
        except BrokerSettingsError as err:
            sys.exit("tablekit: " + err.message(_))
    journals = EventJournals(journal_path, config.unit.unit_id)
    try:
        journal = journals.open(config.link.event if config.link is not None else "")
    except JournalError as err:
        sys.exit("tablekit: " + err.message(_))
    if config.link is None:
        begin(unit, journal)
        return unit
    follower = EventFollower(config.link, journals, unit, config.unit)
    try:
        follower.start(journal)
    except ValueError as err:  # the password file
        said = err.message(_) if isinstance(err, KitError) else str(err)
        sys.exit("tablekit: " + said)
    return unit


def begin(unit: TableUnit, journal: Journal) -> None:
    """The unit plays ``journal``'s event, resumed from the journal's last state."""
    saved = journal.load_state()
    unit.begin(journal.event, journal, saved)
    if saved is not None:
        log.info("resumed from %s: game %d, paused for the judge", journal.path,
                 unit.clock.state.game)
    aside = journal.set_aside_entries()
    if aside:  # the hub refused these: the judge must hear of them after a restart too
        seqs = ", ".join(f"#{e.seq}" for e in aside[-3:])
        unit.controls.said = Note.of(
            N_("The hub refused {n} event(s) ({seqs}) — kept for the judge"),
            n=len(aside),
            seqs=seqs,
        )
        unit.refresh(time.monotonic())


class EventFollower:
    """Keeps a unit on the event its venue's hub announces: that event's journal
    (:class:`tablekit.journals.EventJournals`) and a link to that event's topics. The
    unit's loop calls :meth:`follow` when the hub names another event."""

    def __init__(
        self, settings: LinkSettings, journals: EventJournals, unit: TableUnit,
        own: UnitSettings,
    ) -> None:
        self.settings = settings
        self.journals = journals
        self.unit = unit
        self.own = own
        self.journal: Journal | None = None
        self.link: TableLink | None = None

    def start(self, journal: Journal) -> None:
        """Play ``journal``'s event (the one played last, or none yet) and link it.
        BrokerSettingsError (a ValueError) when the password or TLS files cannot be used."""
        link = self._link(journal)
        self.journal = journal
        begin(self.unit, journal)
        self._attach(link)
        self.unit.follower = self

    def follow(self, event: str) -> None:
        """The hub serves ``event``: the link of the event before says the table left it
        and stops, that event's journal is kept, and the unit plays ``event`` with its own
        journal and link (the loop's thread calls it)."""
        assert self.journal is not None and self.link is not None, "start() comes first"
        log.info("following the event %s (was %s)", event, self.journal.event or "none")
        self.link.stop()
        self.journal = self.journals.switch(self.journal, event)
        link = self._link(self.journal)
        begin(self.unit, self.journal)
        self._attach(link)

    def renew(self) -> None:
        """The journal is an older copy of itself (the hub holds more of its epoch): it is
        kept aside and the unit goes on in a new journal (a new epoch) of the same event,
        with a link of its own, from no state (the loop's thread calls it)."""
        assert self.journal is not None and self.link is not None, "start() comes first"
        self.link.stop()
        self.journal = self.journals.renew(self.journal)
        link = self._link(self.journal)
        begin(self.unit, self.journal)
        self._attach(link)

    def _link(self, journal: Journal) -> TableLink:
        from tablekit.link import TableLink

        event = journal.event

        def heard(message: object) -> None:
            self.unit.put(Heard(event, message))

        return TableLink(
            self.settings, journal, self.own.table, self.own.unit_id, heard, event=event
        )

    def _attach(self, link: TableLink) -> None:
        self.link = link
        self.unit.attach(link)
        link.start()


def ring_board(config: UnitConfig, unit: TableUnit) -> Output:
    """The optional RP2040 ring board: its buttons feed the loop, its ring shows the clock."""
    from tablekit.ringboard import RingBoard

    assert config.ringboard is not None
    port = None if config.ringboard.port == "auto" else config.ringboard.port
    return RingBoard(port, unit.put, buzzer=config.buzzer, tone=config.buzzer.tone)


def run(unit: TableUnit, cleanups: Sequence[Callable[[], None]] = ()) -> None:
    """Run the loop on this thread until Quit, SIGTERM or Ctrl-C; then close everything."""

    try:
        with stop_on_signals(lambda signum: unit.put(Quit())):
            unit.run()
    finally:
        for output in unit.outputs:
            output.close()
        stop_link = getattr(unit.uplink, "stop", None)
        if stop_link is not None:
            stop_link()
        for cleanup in cleanups:
            cleanup()
        close_journal = getattr(unit.recorder, "close", None)
        if close_journal is not None:
            close_journal()


def _parser(prog: str, description: str, w: Words) -> argparse.ArgumentParser:
    """The options both programs take, their help in ``w``'s language (the one the command
    line asks for: ``--lang``, else ``LANG`` and the like, else Polish); built and used
    inside :func:`tablekit.shared.commandline.speaking`, so argparse's own words are too."""
    _ = w.gettext
    parser = argparse.ArgumentParser(prog=prog, description=description, add_help=False)
    o = parser.add_argument_group(_("options"))
    o.add_argument("-h", "--help", action="help", help=_("show this help and stop"))
    o.add_argument(
        "--config", type=Path, help=_("unit config file (TOML); default: built-in")
    )
    o.add_argument("--journal", type=Path, help=_("journal file (default: from the config)"))
    o.add_argument("--bot", action="store_true", help=_("simulated players press the buttons"))
    o.add_argument("--seed", type=int, default=None, help=_("random seed for --bot"))
    o.add_argument(
        "--pace", type=float, default=1.0, help=_("--bot speed factor (0.1 = ten times faster)")
    )
    o.add_argument("--log-level", default="WARNING", help=_("DEBUG, INFO, WARNING, ERROR"))
    o.add_argument(
        "--lang",
        help=_(
            "the language of the display and of this program until the hub sends the "
            "event's: pl or en (default: the config's [unit] language, Polish)"
        ),
    )
    return parser


def _asked(argv: Sequence[str] | None) -> Words:
    """The catalog of the language the command line asks for, before it is parsed."""
    given = sys.argv[1:] if argv is None else argv
    return i18n.words(i18n.asked_language(given, os.environ))


def _setup(args: argparse.Namespace, w: Words) -> tuple[UnitConfig, Path]:
    """The config (with ``--lang`` in it) and the journal's path; what cannot be used
    ends the program with one line in ``w``'s language."""
    _ = w.gettext
    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    try:
        config = load_config(args.config)
    except ConfigError as err:
        sys.exit("tablekit: " + err.message(_))
    except OSError as err:
        sys.exit(
            "tablekit: "
            + _("cannot read config {path}: {reason}").format(path=args.config, reason=err.strerror)
        )
    if args.lang is not None:
        try:
            unit = msgspec.structs.replace(config.unit, language=i18n.language(args.lang))
        except i18n.LanguageError as err:
            sys.exit("tablekit: --lang: " + err.message(_))
        config = msgspec.structs.replace(config, unit=unit)
    journal = args.journal or config.unit.journal_path(state_dir())
    return config, journal


def _joined(config: UnitConfig, args: argparse.Namespace, w: Words) -> UnitConfig:
    """The config with the sim's ``--table``, ``--hub`` and ``--venue`` in it (a hub's
    address replaces the config's ``[link]`` host and port, its other settings kept)."""
    _ = w.gettext
    try:
        if args.table is not None:
            unit = msgspec.structs.replace(config.unit, table=args.table, unit_id="")
            config = msgspec.structs.replace(config, unit=unit)
        if args.hub is None and args.venue is None:
            return config
        link = config.link or LinkSettings(host="127.0.0.1")
        if args.hub is not None:
            host, _colon, port = args.hub.rpartition(":") if ":" in args.hub else (args.hub, "", "")
            if port and not port.isdigit():
                raise ConfigError(
                    N_("--hub: {address} is not HOST or HOST:PORT"), address=args.hub
                )
            link = msgspec.structs.replace(link, host=host, port=int(port or 1883))
        if args.venue is not None:
            link = msgspec.structs.replace(link, venue=args.venue)
        return msgspec.structs.replace(config, link=link)
    except KitError as err:
        sys.exit("tablekit: " + err.message(_))


def _start_bot(unit: TableUnit, config: UnitConfig, args: argparse.Namespace) -> TableBot:
    style = BotStyle(pace=args.pace, judge_hold=config.clock.judge_hold)
    bot = TableBot(unit.put, lambda: unit.view, style, seed=args.seed)
    bot.start()
    return bot


def unit_main(argv: Sequence[str] | None = None) -> None:
    """tablekit-unit: the table unit on a Raspberry Pi."""
    w = _asked(argv)
    _ = w.gettext
    with speaking(w):
        parser = _parser(
            "tablekit-unit", _("The Rummikub table unit (GPIO, display, hub link)."), w
        )
        parser.add_argument(
            "--no-display", action="store_true", help=_("run without the display")
        )
        args = parser.parse_args(argv)
    keep_signals_from_sdl()  # before the display starts: SIGTERM must stop the unit
    config, journal = _setup(args, w)
    _ = i18n.words(config.unit.language).gettext
    from gpiozero.exc import BadPinFactory, PinPWMUnsupported

    from tablekit.hardware import GpioInputs, GpioOutputs

    notifier = Notifier()
    with ExitStack() as stack:
        try:  # the pins first: no journal for a unit that cannot run here
            gpio = stack.enter_context(GpioOutputs(config))
        except BadPinFactory:
            sys.exit(
                "tablekit-unit: "
                + _(
                    "no GPIO on this computer (lgpio not found): on a desktop run "
                    "{sim}, or set {mock} to try the unit on mock pins"
                ).format(sim="tablekit-sim", mock=MOCK_PINS)
            )
        except PinPWMUnsupported:
            sys.exit(
                "tablekit-unit: "
                + _("the LED bar and the status light need pins with PWM: set {mock}").format(
                    mock=MOCK_PINS
                )
            )
        unit = build(config, journal)
        outputs: list[Output] = [gpio, Watchdog(notifier)]
        if not args.no_display:
            outputs.append(WindowOutput(config, unit, keys=True))
        unit.outputs = outputs
        inputs = GpioInputs(config, unit.put)
        stack.callback(inputs.close)
        if config.ringboard is not None:
            outputs.append(ring_board(config, unit))
        bot = _start_bot(unit, config, args) if args.bot else None
        notifier.ready(f"table {config.unit.table}")
        run(unit, [bot.stop] if bot else [])


def sim_main(argv: Sequence[str] | None = None) -> None:
    """tablekit-sim: try a table unit on any computer."""
    w = _asked(argv)
    _ = w.gettext
    with speaking(w):
        parser = _parser(
            "tablekit-sim",
            _(
                "A table unit on your computer: space = pass button, J = judge key (hold it "
                "for the judge menu), C = call the judge, keypad keys: * empty rack, - bank "
                "empty (then Enter), the result after the game, Q = quit. Without a display "
                "it runs in the terminal (j short, J held judge key; P held pass button)."
            ),
            w,
        )
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--window", action="store_true", help=_("always open a window"))
        mode.add_argument("--headless", action="store_true", help=_("never open a window"))
        parser.add_argument(
            "--mute", action="store_true",
            help=_("the window plays no buzzer sound (M switches it on and off)"),
        )
        parser.add_argument(
            "--hub", metavar="HOST[:PORT]",
            help=_("join the hub at this address (its broker's; port 1883 unless given): "
                   "the unit plays the event the hub serves"),
        )
        parser.add_argument("--table", type=int, help=_("the table's number (default: 1)"))
        parser.add_argument("--venue", help=_("the venue's name, as the hub's (default: hall)"))
        args = parser.parse_args(argv)
    keep_signals_from_sdl()  # before the window opens: SIGTERM must stop the sim
    config, journal = _setup(args, w)
    config = _joined(config, args, w)
    _ = i18n.words(config.unit.language).gettext
    from tablekit.keyboard import TerminalKeys, display_available

    window = args.window or (not args.headless and display_available())
    unit = build(config, journal)  # the path as written (relative: to the state directory)
    cleanups: list[Callable[[], None]] = []
    if config.ringboard is not None:
        unit.outputs.append(ring_board(config, unit))
    if window:
        from tablekit.simulator import SimWindow

        def no_sound(error: str) -> None:
            said = _("no sound device ({error}): the buzzer shows in the window only")
            print("tablekit-sim: " + said.format(error=error), flush=True)

        unit.outputs.append(SimWindow(config, unit, muted=args.mute, say=no_sound))
    else:
        unit.outputs += [
            TerminalPrinter(), SignalsPrinter(config.buzzer, len(config.pins.led_bar))
        ]
        print(
            "tablekit-sim: "
            + _(
                "no display — headless. Keys: space pass, j judge, J judge held (menu), "
                "digits choose, P hold pass (call judge), c call judge, * empty rack, "
                "- bank empty (then Enter), q quit."
            ),
            flush=True,
        )
        if sys.stdin is not None and not sys.stdin.closed:
            # From a terminal, its end (Ctrl-D) quits; a script's input ends at once, and
            # the simulator (its bot, say) runs on until it is stopped.
            keys = TerminalKeys(
                unit.put,
                judge_hold=config.clock.judge_hold,
                call_hold=config.clock.call_hold,
                menu=lambda: unit.view.menu,
                quit_on_eof=sys.stdin.isatty(),
            )
            keys.start()  # cbreak mode and the reader thread; stop() restores the terminal
            cleanups.append(keys.stop)
    if args.bot:
        cleanups.insert(0, _start_bot(unit, config, args).stop)
    run(unit, cleanups)

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

import msgspec

from tablekit.bot import BotStyle, TableBot
from tablekit.config import ConfigError, UnitConfig, load_config
from tablekit.core.clock import MoveClock
from tablekit.core.words import N_
from tablekit.journal import Journal, JournalError
from tablekit.notes import Note
from tablekit.printer import TerminalPrinter
from tablekit.shared import i18n
from tablekit.shared.sdnotify import Notifier
from tablekit.shared.stopping import keep_signals_from_sdl, stop_on_signals
from tablekit.unit import Output, Quit, TableUnit
from tablekit.view import TableView

log = logging.getLogger("tablekit")


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

    An unusable journal (another unit's, not a database) ends the program with one
    line saying so: the events in it must not be overwritten or guessed at.
    """
    try:
        journal = Journal(journal_path, config.unit.unit_id)
    except JournalError as err:
        sys.exit(f"tablekit: {err}")
    unit = TableUnit(
        MoveClock(config.clock_rules()),
        table=config.unit.table,
        outputs=list(outputs),
        recorder=journal,
        judge_hold=config.clock.judge_hold,
        call_hold=config.clock.call_hold,
        fps=config.display.fps,
        language=config.unit.language,
    )
    saved = journal.load_state()
    if saved is not None:
        unit.restore(saved, time.monotonic())
        game = unit.clock.state.game
        log.info("resumed from %s: game %d, paused for the judge", journal_path, game)
    aside = journal.set_aside_entries()
    if aside:  # the hub refused these: the judge must hear of them after a restart too
        seqs = ", ".join(f"#{e.seq}" for e in aside[-3:])
        unit.controls.said = Note.of(
            N_("The hub refused {n} event(s) ({seqs}) — kept for the judge"),
            n=len(aside),
            seqs=seqs,
        )
        unit.refresh(time.monotonic())
    if config.link is not None:
        from tablekit.link import TableLink

        try:
            link = TableLink(config.link, journal, config.unit.table, config.unit.unit_id, unit.put)
        except ValueError as err:  # the password file
            sys.exit(f"tablekit: {err}")
        unit.attach(link)
        link.start()
    return unit


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


def _parser(prog: str, description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--config", type=Path, help="unit config file (TOML); default: built-in")
    parser.add_argument("--journal", type=Path, help="journal file (default: from the config)")
    parser.add_argument("--bot", action="store_true", help="simulated players press the buttons")
    parser.add_argument("--seed", type=int, default=None, help="random seed for --bot")
    parser.add_argument(
        "--pace", type=float, default=1.0, help="--bot speed factor (0.1 = ten times faster)"
    )
    parser.add_argument("--log-level", default="WARNING", help="DEBUG, INFO, WARNING, ERROR")
    parser.add_argument(
        "--lang",
        help="the display's language until the hub sends the event's: pl or en "
        "(default: the config's [unit] language, Polish)",
    )
    return parser


def _setup(args: argparse.Namespace) -> tuple[UnitConfig, Path]:
    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    try:
        config = load_config(args.config)
    except ConfigError as err:
        sys.exit(f"tablekit: {err}")
    except OSError as err:
        sys.exit(f"tablekit: cannot read config {args.config}: {err.strerror}")
    if args.lang is not None:
        try:
            unit = msgspec.structs.replace(config.unit, language=i18n.language(args.lang))
        except i18n.LanguageError as err:
            sys.exit(f"tablekit: --lang: {err}")
        config = msgspec.structs.replace(config, unit=unit)
    journal = args.journal or config.unit.journal_path(state_dir())
    return config, journal


def _start_bot(unit: TableUnit, config: UnitConfig, args: argparse.Namespace) -> TableBot:
    style = BotStyle(pace=args.pace, judge_hold=config.clock.judge_hold)
    bot = TableBot(unit.put, lambda: unit.view, style, seed=args.seed)
    bot.start()
    return bot


def unit_main(argv: Sequence[str] | None = None) -> None:
    """tablekit-unit: the table unit on a Raspberry Pi."""
    parser = _parser("tablekit-unit", "The Rummikub table unit (GPIO, display, hub link).")
    parser.add_argument("--no-display", action="store_true", help="run without the display")
    args = parser.parse_args(argv)
    keep_signals_from_sdl()  # before the display starts: SIGTERM must stop the unit
    config, journal = _setup(args)
    from gpiozero.exc import BadPinFactory

    from tablekit.hardware import GpioInputs, GpioOutputs

    notifier = Notifier()
    unit = build(config, journal)
    with ExitStack() as stack:
        try:
            gpio = stack.enter_context(GpioOutputs(config))
        except BadPinFactory:
            sys.exit(
                "tablekit-unit: no GPIO on this computer (lgpio not found): on a desktop run "
                "tablekit-sim, or set GPIOZERO_PIN_FACTORY=mock to try the unit on mock pins"
            )
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
    parser = _parser(
        "tablekit-sim",
        "A table unit on your computer: space = pass button, J = judge key (hold it for the "
        "judge menu), C = call the judge, keypad keys: * empty rack, - bank empty (then "
        "Enter), the result after the game, Q = quit. Without a "
        "display it runs in the terminal (j short, J held judge key; P held pass button).",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--window", action="store_true", help="always open a window")
    mode.add_argument("--headless", action="store_true", help="never open a window")
    args = parser.parse_args(argv)
    keep_signals_from_sdl()  # before the window opens: SIGTERM must stop the sim
    config, journal = _setup(args)
    from tablekit.keyboard import TerminalKeys, display_available

    window = args.window or (not args.headless and display_available())
    unit = build(config, args.journal or Path(journal.name).resolve())
    cleanups: list[Callable[[], None]] = []
    if config.ringboard is not None:
        unit.outputs.append(ring_board(config, unit))
    if window:
        unit.outputs.append(WindowOutput(config, unit, keys=True))
    else:
        unit.outputs.append(TerminalPrinter())
        print(
            "tablekit-sim: no display — headless. Keys: space pass, j judge, J judge held "
            "(menu), digits choose, P hold pass (call judge), c call judge, * empty rack, "
            "- bank empty (then Enter), q quit.",
            flush=True,
        )
        keys = TerminalKeys(
            unit.put,
            judge_hold=config.clock.judge_hold,
            call_hold=config.clock.call_hold,
            menu=lambda: unit.view.menu,
        )
        keys.start()  # cbreak mode and the reader thread; stop() restores the terminal
        cleanups.append(keys.stop)
    if args.bot:
        cleanups.insert(0, _start_bot(unit, config, args).stop)
    run(unit, cleanups)

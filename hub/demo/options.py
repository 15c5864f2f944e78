"""The demo's command line: its options, their help in the reader's language, and the
two lengths of event it plays (:data:`SHORT` by default, :data:`FULL` with ``--full``).
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from tablekit.shared import i18n
from tablekit.shared.commandline import option_type, port_number
from tablekit.shared.i18n import Words, choose


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


WEB_PORT: Final = 8080
"""The web console's port when it is free (``--web-port`` names another)."""


def build_parser(words: Words | None = None) -> argparse.ArgumentParser:
    """The demo's options, their help in ``words``' language (default: as
    :func:`tablekit.shared.i18n.choose` finds it); built inside
    :func:`tablekit.shared.commandline.speaking`, argparse's own words are in it too."""
    w = words if words is not None else i18n.words(choose(None, os.environ))
    _ = w.gettext
    p, o = program_parser(
        "rummikub-demo",
        _("A whole Rummikub tournament played by simulated table units: broker, hub, tables "
          "with bots, and the hub screen."),
        w,
    )  # fmt: skip
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
    add_port_options(o, w)
    o.add_argument("--no-web", action="store_true",
                   help=_("do not start the web console"))
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
    o.add_argument("--lang", type=language_type, default=w.language,
                   help=_("the event's language, which the tables and the hub screen speak, "
                          "and of what it prints: pl or en (default: Polish, or English when "
                          "LANG names it)"))
    return p


def program_parser(
    prog: str, description: str, words: Words
) -> tuple[argparse.ArgumentParser, argparse._ArgumentGroup]:
    """A program's parser and its group of options, its help in ``words``' language."""
    _ = words.gettext
    p = argparse.ArgumentParser(prog=prog, description=description, add_help=False)
    o = p.add_argument_group(_("options"))
    o.add_argument("-h", "--help", action="help", help=_("show this help and stop"))
    return p, o


def add_port_options(o: argparse._ArgumentGroup, words: Words) -> None:
    """``--port`` (the broker's) and ``--web-port`` (the web console's)."""
    _ = words.gettext
    o.add_argument("--port", type=option_type(port_number, words), default=None,
                   help=_("the broker's port on 127.0.0.1 (default: a free one)"))
    o.add_argument("--web-port", type=option_type(port_number, words), default=None,
                   help=_("the web console's port on 127.0.0.1 (default {port}, or a free one "
                          "when it is taken)").format(port=WEB_PORT))  # fmt: skip


def language_type(text: str) -> str:
    try:
        return choose(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def fill_length(args: argparse.Namespace) -> Length:
    """The chosen length; its pace and clocks fill the options not given."""
    length = FULL if args.full else SHORT
    for name in ("pace", "move_seconds", "round_minutes"):
        if getattr(args, name) is None:
            setattr(args, name, getattr(length, name))
    return length



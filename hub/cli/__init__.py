"""``rummikub``: the organizer's command line for the whole tournament day.

Every command works on one event file (``--db``, default ``$RUMMIKUB_DB`` or
``./rummikub-event.sqlite3``), the hub's event store: each command is checked against
the event as it stands and stored in one transaction, so a refused command changes
nothing and a restarted hub (or this command in a new terminal) carries on exactly
where the event was. ``--by`` names who runs the command (default ``$USER``); it is
recorded with every record. Every error is one line on stderr and exit code 2: the
kit's own (:class:`~tablekit.core.errors.KitError`, whatever module raised it) and the
system's (``OSError``: a file or folder named on the command line that cannot be read or
written). Any other exception is a bug and shows its traceback.

``round status`` also reads the tables' live clocks from the MQTT broker when it has
one: ``--broker``, ``--venue``, ``--event``, ``--username`` and ``--password-file``
default to ``$RUMMIKUB_BROKER``, ``$RUMMIKUB_VENUE`` (else ``hall``),
``$RUMMIKUB_EVENT`` (else ``demo``), ``$RUMMIKUB_USERNAME`` and
``$RUMMIKUB_PASSWORD_FILE``.

::

    rummikub event create --preset school --name "Konkurs szkolny" [--round-minutes 50]
    rummikub event show
    rummikub event backup
    rummikub players add "Anna Nowak" --club "SP 3" [--rating 12] [--check-in]
    rummikub players import players.csv [--check-in]
    rummikub players list | check-in ID… | check-in --all | late ID | withdraw ID --reason …
    rummikub players seeds ID…
    rummikub round draw [--seed N] | start [--minutes N] | close [--force --why …]
    rummikub round consolation --promote N | --none --why …
    rummikub round undo --why …
    rummikub result enter --stage round-1 --table 2 --game 1 --racks "…" --why … [--yes]
    rummikub round status [--broker HOST:PORT --venue V --event E [--username U --password-file F]]
    rummikub result enter --table 2 --game 1 --racks "A=0 B=23 C=12j D=85np" [--why …]
    rummikub result history --table 2 --game 1 | result corrections
    rummikub sanction warn ID --why … | deduct ID --big N --why … | disqualify ID --why …
    rummikub sanction list | lift N --why …
    rummikub tie list | decide ID… --scope S --why … [--shared] | lot [ID…] [--scope S]
    rummikub players history ID
    rummikub standings [--stage NAME] [--table N] [--overall]
    rummikub ranking
    rummikub export csv DIR [--semicolon] | export html DIR | export pdf DIR
    rummikub export archive FILE.zip [--semicolon]
    rummikub season table EVENT.sqlite3… | season seeds EVENT.sqlite3… [--declare]
    rummikub season export DIR EVENT.sqlite3… [--semicolon]

Rack syntax (``--racks``): one ``SEAT=VALUE`` per player, separated by spaces or
commas (or the values alone, in seat order A, B, C, D). VALUE is the sum of the tile
numbers left on the rack, then one ``j`` per joker left, then optionally ``np`` (never
opened: the flat 100), ``cho`` (the judge finds the player could have opened: 200) or
``waived`` (could have opened, but had announced the opening: 100)::

    0        went out (an empty rack)
    23       tiles worth 23 left
    12j      tiles worth 12 and one joker; jj = two jokers; j alone = one joker only
    85np     never opened (tiles worth 85, scored as the flat penalty)

The ending is "went out" when a rack is 0, else "nobody out" (bank empty or round time
over after the last lap); ``--ending`` states it explicitly.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from hub.cli.common import DEFAULT_DB, PROG, Ctx
from hub.cli.parser import build_parser
from hub.config import load_hub_config, public_url
from hub.effects import ReasonNeededError
from tablekit.core.errors import KitError
from tablekit.shared import i18n
from tablekit.shared.commandline import refused, speaking


def main(
    argv: Sequence[str] | None = None,
    *,
    out: TextIO | None = None,
    clock: Callable[[], float] = time.time,
) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    # The help and the parser's refusals come before any event file is read: in the
    # language --lang asks for, else the environment's (LANG), else Polish.
    asked = i18n.words(i18n.asked_language(args_list, os.environ))
    ctx: Ctx | None = None
    try:
        with speaking(asked):
            parser = build_parser(asked)
            try:
                args = parser.parse_args(args_list)
            except SystemExit as stop:  # --help
                return int(stop.code or 0)
        # Absolute, so every message names the file wherever the command was typed.
        config, _ = load_hub_config(args.config, os.environ)
        db = (args.db or Path(os.environ.get("RUMMIKUB_DB") or config.db or DEFAULT_DB)).absolute()
        by = args.by or os.environ.get("USER") or "organizer"
        ctx = Ctx(
            db=db, by=by, out=out or sys.stdout, clock=clock, lang=args.lang, environ=os.environ,
            console_url=public_url(config, os.environ),
        )
        result: int = args.func(ctx, args)
        # Flushed here, not at exit: a reader that already left (``| head``) is met by the
        # handler below instead of by Python's shutdown ("Exception ignored", exit 120).
        ctx.out.flush()
        return result
    except BrokenPipeError:
        # The reader went away (``rummikub standings | head``): what it wanted it has.
        if out is None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except ReasonNeededError as err:
        # The judges' commands ask for the reason in words; the command line names its option.
        return refused(PROG, err, asked if ctx is None else ctx.words, option="--why")
    except (KitError, OSError) as err:
        return refused(PROG, err, asked if ctx is None else ctx.words)
    except KeyboardInterrupt:
        words = asked if ctx is None else ctx.words
        print(f"{PROG}: " + words.gettext("interrupted, nothing more recorded"), file=sys.stderr)
        return 130
    finally:
        if ctx is not None:
            ctx.close()

"""``rummikub-hub``: the command that runs the hub service (:class:`hub.service.HubService`).

::

    rummikub-hub serve [--config /etc/rummikub/hub.toml] [--broker 127.0.0.1:1883]
        [--db hub.db] [--venue hall --event open] [--tables 12]
        [--backup /media/usb/hub-backup.sqlite3] [--username hub --password-file FILE]

Every setting comes from the hub's config file (``[hub]`` and the shared parts), the
environment and the flags, in that order (:mod:`hub.config`). Its help and errors are in
Polish, or in English with ``--lang en`` or an English ``LANG`` (the systemd unit's log
follows the Pi's locale). It says READY to systemd
once the store is open and pings the watchdog while the writer thread turns.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hub.config import (
    HubConfigError,
    HubSettings,
    LeagueSection,
    add_config_options,
    check_tables,
    resolve,
)
from hub.service import WRITER_STALL, HubService
from hub.uplink import UplinkSettings
from tablekit.core.errors import KitError
from tablekit.core.words import N_
from tablekit.shared import i18n
from tablekit.shared.commandline import (
    lang_option,
    option_type,
    parse_in_language,
    refused,
    speaking,
    whole_number,
)
from tablekit.shared.i18n import Words
from tablekit.shared.sdnotify import Notifier

log = logging.getLogger("hub.service")


def build_parser(words: Words | None = None) -> argparse.ArgumentParser:
    """``rummikub-hub``'s options, their help in ``words``' language (default: as
    :func:`tablekit.shared.i18n.choose` finds it); build it and parse inside
    :func:`hub.cli.parser.speaking` for argparse's own words in that language too."""
    w = words if words is not None else i18n.words(i18n.choose(None, os.environ))
    _ = w.gettext

    parser = argparse.ArgumentParser(
        prog="rummikub-hub", description=_("The tournament hub.")
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar=_("COMMAND"))
    serve = sub.add_parser("serve", help=_("run the hub service"))
    lang_option(serve, w)
    add_config_options(serve, account=_("at a venue: hub; [hub] username"), words=w)
    serve.add_argument(
        "--db", type=Path,
        help=_("event store, an SQLite file ($RUMMIKUB_DB; the file's db)"),
    )
    serve.add_argument(
        "--tables",
        type=option_type(whole_number, w),
        help=_("the event's tables are 1..N (the provisioned units); messages of other "
               "tables are refused and logged ($RUMMIKUB_TABLES; [hub] tables; default: any "
               "table 1-999)"),
    )
    serve.add_argument(
        "--backup",
        type=Path,
        metavar="PATH",
        help=_("keep a copy of the store at PATH (a USB stick, a second disk, a mounted "
               "share), made after changes and on stop; its directory must exist "
               "($RUMMIKUB_BACKUP; [hub] backup; none when unset or empty)"),
    )
    serve.add_argument(
        "--backup-every",
        type=float,
        metavar="SECONDS",
        help=_("at most one copy every SECONDS ([hub] backup_every; default 3)"),
    )
    serve.add_argument(
        "--embedded-broker",
        action="store_true",
        help=_("start an embedded amqtt broker (MQTT 3.1.1) on --broker"),
    )
    serve.add_argument(
        "--show-live",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help=_("print the live view of all tables every SECONDS"),
    )
    serve.add_argument("-v", "--verbose", action="store_true", help=_("log in detail"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or (args_list[0].startswith("-") and args_list[0] not in ("-h", "--help")):
        args_list.insert(0, "serve")
    words, parser, args = parse_in_language(args_list, build_parser)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if args.embedded_broker and args.mqtt is None:
        args.mqtt = 3  # amqtt speaks MQTT 3.1.1 only
    try:
        settings = resolve("hub", args, os.environ)
        store = _store_settings(args, settings)
    except HubConfigError as err:
        with speaking(words):
            parser.error(err.message(words.gettext))
    try:
        service = HubService(settings.broker, store.db, settings.topics, tables=store.tables,
                             backup=store.backup, backup_interval=store.backup_every,
                             console_url=store.console_url,
                             league=_league(settings.config.league))
        return _serve(args, settings, service)
    except (KitError, OSError) as err:
        return refused("rummikub-hub", err, words)


def _league(section: LeagueSection) -> UplinkSettings | None:
    if not section.uplink:
        return None
    return UplinkSettings(section.bridge, Path(section.registry) if section.registry else None)


@dataclass(frozen=True)
class StoreSettings:
    """Where the hub keeps the event, and which tables it takes."""

    db: Path
    tables: int | None
    backup: Path | None
    backup_every: float
    console_url: str = ""
    """The web console's public address (``[web] public_url``), for the QR codes."""


def _store_settings(args: argparse.Namespace, settings: HubSettings) -> StoreSettings:
    """The store's settings by the precedence; HubConfigError naming a bad one."""
    own = settings.config.hub
    db = settings.store(args.db)
    tables, where = settings.pick(("--tables", args.tables), "RUMMIKUB_TABLES",
                                  ("hub.tables", own.tables), _tables)
    if tables is not None:
        check_tables(tables, where)
    backup, where = settings.pick(("--backup", args.backup), "RUMMIKUB_BACKUP",
                                  ("hub.backup", _path(own.backup)), Path)
    every = own.backup_every if args.backup_every is None else args.backup_every
    if backup is not None and Path(backup).absolute() == Path(db).absolute():
        raise HubConfigError(
            N_("{where} {backup} is the store itself: give a path on another disk"),
            where=where,
            backup=backup,
        )
    if every <= 0:
        raise HubConfigError(
            N_("--backup-every must be more than 0 seconds, got {seconds}"),
            seconds=f"{every:g}",
        )
    return StoreSettings(Path(db), tables, None if backup is None else Path(backup), every,
                         settings.public_url())


def _path(text: str | None) -> Path | None:
    return None if text is None else Path(text)


def _tables(text: str) -> int:
    # a HubConfigError is a ValueError: settings.pick names the variable
    return check_tables(whole_number(text), "RUMMIKUB_TABLES")


def _serve(args: argparse.Namespace, settings: HubSettings, service: HubService) -> int:
    from hub.broker import EmbeddedBroker

    broker, topics = settings.broker, settings.topics
    embedded = None
    if args.embedded_broker:
        embedded = EmbeddedBroker(broker.port, host=broker.host)
        embedded.start()
        log.info("hub: embedded amqtt broker on %s (MQTT 3.1.1)", broker.where)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    service.start()
    notifier = Notifier()
    notifier.ready(f"hub for {topics.base}")
    last_stats = last_live = time.monotonic()
    try:
        while not stop.wait(1.0):
            now = time.monotonic()
            if now - service.heartbeat < WRITER_STALL:
                notifier.alive()  # a stalled writer stops the pings: systemd restarts the hub
            if args.show_live and now - last_live >= args.show_live:
                last_live = now
                print(service.live.render_text(time.time()), flush=True)
            if now - last_stats >= 60:
                last_stats = time.monotonic()
                log.info("hub: %s", service.counters())
    finally:
        service.stop()
        if embedded is not None:
            embedded.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``rummikub-web``: the web console on uvicorn, with the hub's settings.

::

    rummikub-web [--config /etc/rummikub/hub.toml] [--db hub.sqlite3]
        [--host 0.0.0.0] [--port 8080] [--broker 127.0.0.1:1883] [--no-broker]
        [--accounts /var/lib/rummikub-hub/web-accounts.toml]

Every setting comes from the hub's config file (``[web]``, the top level's ``db`` and
the shared ``[broker]``), the environment and the flags, in that order
(:mod:`hub.config`). The console reads the event store the hub writes, stores there what
the judges and the organizer do on their pages (the command line's organizer commands),
and follows the tables through the broker with ``[web]``'s account (a read-only one, as
the hub screen's, does).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Final

import uvicorn
from starlette.types import ASGIApp

from hub.config import (
    WEB_CONNECTIONS,
    WEB_STREAMS,
    HubConfigError,
    HubSettings,
    add_config_options,
    resolve,
)
from hub.web.accounts import first_start_code
from hub.web.app import make_app
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.web.sessions import IDLE, LONGEST, Gate
from tablekit.core.errors import KitError
from tablekit.core.words import N_
from tablekit.shared import i18n
from tablekit.shared.commandline import (
    option_type,
    parse_in_language,
    port_number,
    refused,
    speaking,
)
from tablekit.shared.i18n import Words

log = logging.getLogger("hub.web")

GRACE = 3
"""Seconds a stop waits for open pages (their event streams never end by themselves)."""
BACKLOG: Final = 2048
"""Connections the kernel holds until uvicorn takes them: a hall of phones opening the
address from the QR code at the same moment waits, rather than being refused."""
KEEP_ALIVE: Final = 5
"""Seconds an idle connection is kept for the phone's next request (it counts against
``[web] connections`` meanwhile)."""
SPARE_FILES: Final = 64
"""Open files beside the connections: the store, the broker's socket, templates, logs."""


class WebSettingError(KitError, ValueError):
    """A setting of the console that cannot be used (a port out of range, no address)."""


def build_parser(words: Words | None = None) -> argparse.ArgumentParser:
    """The console's options, their help in ``words``' language (default: the
    environment's, :func:`tablekit.shared.i18n.choose`)."""
    w = words if words is not None else i18n.words(i18n.choose(None, os.environ))
    _ = w.gettext

    parser = argparse.ArgumentParser(
        prog="rummikub-web",
        description=_("The hub's web console: find your table, the standings and every "
                      "table live, for the phones on the venue network."),
    )
    add_config_options(parser, account=_("[web] username: a read-only account will do"), words=w)
    parser.add_argument(
        "--db", type=Path,
        help=_("the event store the hub writes, an SQLite file ($RUMMIKUB_DB; the file's db)"),
    )
    parser.add_argument(
        "--host",
        help=_("the address to listen on: 127.0.0.1, the venue network's own address, or "
               "0.0.0.0 for every interface ($RUMMIKUB_WEB_HOST; [web] host; default "
               "127.0.0.1)"),
    )
    parser.add_argument(
        "--port", type=option_type(port_number, w),
        help=_("the port to listen on ($RUMMIKUB_WEB_PORT; [web] port; default 8080)"),
    )
    parser.add_argument(
        "--accounts", type=Path,
        help=_("the web accounts file of the organizer and the judges, which the "
               "credentials bundle writes ($RUMMIKUB_WEB_ACCOUNTS; [web] accounts; "
               "without one nobody can sign in)"),
    )
    parser.add_argument(
        "--season", type=Path,
        help=_("the folder where the league season's finished events' files are kept, for "
               "the organizer's season table ($RUMMIKUB_WEB_SEASON; [web] season)"),
    )
    parser.add_argument(
        "--no-broker", action="store_true",
        help=_("do not follow the tables (the pages show the event store alone)"),
    )
    parser.add_argument(
        "--lang", choices=i18n.LANGUAGES,
        help=_("the language of this help and of the program's messages (the pages speak "
               "the event's)"),
    )
    parser.add_argument("-v", "--verbose", action="store_true",
                        help=_("log every request and message"))
    return parser


@dataclass(frozen=True)
class WebSettings:
    db: Path
    host: str
    port: int
    accounts: Path | None = None
    session_idle: float = IDLE
    session_longest: float = LONGEST
    streams: int = WEB_STREAMS
    connections: int = WEB_CONNECTIONS
    certificate: Path | None = None
    key: Path | None = None
    season: Path | None = None
    cards: Path | None = None

    @property
    def url(self) -> str:
        scheme = "http" if self.certificate is None else "https"
        return f"{scheme}://{self.host}:{self.port}/"

    def gate(self) -> Gate:
        """Who may sign in, and for how long."""
        return Gate(self.accounts, idle=self.session_idle, longest=self.session_longest)


def web_settings(args: argparse.Namespace, settings: HubSettings) -> WebSettings:
    """Where the store is and where to listen, by the precedence; HubConfigError naming
    a missing or bad one."""
    own = settings.config.web
    db = settings.store(args.db)
    host, _ = settings.pick(("--host", args.host), "RUMMIKUB_WEB_HOST", ("web.host", own.host),
                            _host)
    port, _ = settings.pick(("--port", args.port), "RUMMIKUB_WEB_PORT", ("web.port", own.port),
                            port_number)
    assert host is not None and port is not None  # the file's fields have defaults
    accounts, _ = settings.pick(
        ("--accounts", args.accounts), "RUMMIKUB_WEB_ACCOUNTS",
        ("web.accounts", None if own.accounts is None else Path(own.accounts)), Path,
    )
    season, _ = settings.pick(
        ("--season", args.season), "RUMMIKUB_WEB_SEASON",
        ("web.season", None if own.season is None else Path(own.season)), Path,
    )
    return WebSettings(
        db, host, port, accounts, own.session_idle_minutes * 60, own.session_hours * 3600,
        own.streams, own.connections,
        None if own.certificate is None else Path(own.certificate),
        None if own.key is None else Path(own.key),
        season,
        None if own.cards is None else Path(own.cards),
    )


def _host(text: str) -> str:
    if not text.strip():
        raise WebSettingError(N_("must name an address"))
    return text.strip()


class WebConsoleError(KitError, OSError):
    """The console could not start (its port taken, say)."""


def server_config(
    app: ASGIApp,
    host: str,
    port: int,
    *,
    connections: int = WEB_CONNECTIONS,
    certificate: Path | None = None,
    key: Path | None = None,
) -> uvicorn.Config:
    """uvicorn's set-up for the console: at most ``connections`` open connections (one
    more is answered 503 at once, the pages already open unaffected), a deep backlog,
    short keep-alive, HTTP/1.1 by h11 and no WebSockets (the live updates are server-sent
    events); HTTPS with ``certificate`` and ``key``."""
    return uvicorn.Config(
        app, host=host, port=port, log_level="warning", proxy_headers=False,
        server_header=False, timeout_graceful_shutdown=GRACE, limit_concurrency=connections,
        backlog=BACKLOG, timeout_keep_alive=KEEP_ALIVE, http="h11", ws="none",
        ssl_certfile=certificate, ssl_keyfile=key,
    )


def room_for(connections: int) -> int:
    """Raise the open files' soft limit (a service's is often 1024) to hold
    ``connections`` and the console's own files, as far as the hard limit allows; the
    limit now."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
        soft = raised
    if soft != resource.RLIM_INFINITY and soft < wanted:
        log.warning("web console: %d open files at most (LimitNOFILE), fewer than "
                    "[web] connections %d needs", soft, connections)
    return soft


class ConsoleServer(uvicorn.Server):
    """uvicorn's server that ends the open pages' event streams as it is told to stop:
    uvicorn waits for open connections before it stops, and a page's stream never ends
    by itself."""

    def __init__(self, config: uvicorn.Config, live: LiveTables) -> None:
        super().__init__(config)
        self.live = live

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.live.end_pages()
        super().handle_exit(sig, frame)


class ConsoleThread:
    """The console on uvicorn in a thread of another program (the demo, the tests): it
    listens once :meth:`start` returns, and :meth:`stop` closes it and its live tables."""

    def __init__(
        self,
        console: Console,
        host: str,
        port: int,
        *,
        connections: int = WEB_CONNECTIONS,
        certificate: Path | None = None,
        key: Path | None = None,
    ) -> None:
        self.host, self.port = host, port
        self.console = console
        self.scheme = "http" if certificate is None else "https"
        config = server_config(make_app(console), host, port, connections=connections,
                               certificate=certificate, key=key)
        self._server = ConsoleServer(config, console.live)
        self._thread = threading.Thread(target=self._run, name="web console", daemon=True)

    def _run(self) -> None:
        # uvicorn exits when it cannot start (it logged why); start() then says so.
        with contextlib.suppress(SystemExit):
            self._server.run()

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}/"

    def start(self, timeout: float = 20.0) -> None:
        """Start and wait until it listens; WebConsoleError when it cannot."""
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise WebConsoleError(
                    N_("the web console could not listen on {host}:{port}"),
                    host=self.host, port=self.port,
                )
            time.sleep(0.02)

    def stop(self) -> None:
        self.console.live.end_pages()
        self._server.should_exit = True
        if self._thread.ident is not None:
            self._thread.join(GRACE + 10)


def main(argv: Sequence[str] | None = None) -> int:
    words, parser, args = parse_in_language(
        list(sys.argv[1:] if argv is None else argv), build_parser
    )
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        settings = resolve("web", args, os.environ)
        web = web_settings(args, settings)
    except HubConfigError as err:
        with speaking(words):
            parser.error(err.message(words.gettext))
    reader = EventReader(web.db)
    try:
        live = LiveTables(None if args.no_broker else settings.broker, settings.topics,
                          reader.version, streams=web.streams)
        app = make_app(Console(reader, live, gate=web.gate(), season=web.season,
                                       cards=web.cards))
        log.info("web console on %s (event store %s)", web.url, web.db)
        if web.accounts is None:
            log.warning("no web accounts ([web] accounts): nobody can sign in")
        elif (code := first_start_code(web.accounts)) is not None:
            # the hub screen shows it too; here for whoever reads the service's log
            log.warning("first start: no organizer's account; %s/setup makes the accounts "
                        "with the code %s", web.url.rstrip("/"), code)  # fmt: skip
        room_for(web.connections)
        config = server_config(app, web.host, web.port, connections=web.connections,
                               certificate=web.certificate, key=web.key)
        ConsoleServer(config, live).run()
    except (KitError, OSError) as err:
        return refused("rummikub-web", err, words)
    finally:
        reader.close()
    return 0

"""The hub's config file and the one precedence every hub program reads its settings by.

``rummikub-hub``, ``rummikub-screen`` and ``rummikub`` (the organizer's command line)
read ``/etc/rummikub/hub.toml`` when it exists (``--config FILE`` or ``$RUMMIKUB_CONFIG``
name another, which must then exist). Every setting has ONE precedence:

    the file  <  the environment (RUMMIKUB_*)  <  the command line's flags

The file is strict TOML like a table unit's: an unknown or wrong-typed field stops the
program with one line naming the file and the field. Every key is optional; the example
below is what ``python -m hub.credentials`` writes for a hub Pi (docs/deployment.md)::

    venue = "hall"                  # RUMMIKUB_VENUE, --venue (topic level)
    event = "cup2026"               # RUMMIKUB_EVENT, --event (topic level): the hub serves
                                    # it and announces it; the venue's units follow it
    db = "/var/lib/rummikub-hub/hub.sqlite3"   # RUMMIKUB_DB, --db: the event store

    [broker]                        # tablekit.shared.broker.BrokerSettings, every program
    host = "127.0.0.1"              # RUMMIKUB_BROKER=HOST:PORT, --broker HOST:PORT
    port = 1883
    mqtt_version = 5                # --mqtt 3|5
    tls = false                     # --tls
    # ca_file, cert_file, key_file  # --ca-file, --cert-file, --key-file
    # keepalive = 15, client_id = ""

    [hub]                           # rummikub-hub serve
    username = "hub"                # RUMMIKUB_USERNAME, --username
    password_file = "/etc/tablekit/hub-password"   # RUMMIKUB_PASSWORD_FILE, --password-file
    tables = 12                     # RUMMIKUB_TABLES, --tables
    backup = "/media/rummikub-backup/hub.sqlite3"  # RUMMIKUB_BACKUP, --backup
    backup_every = 3.0              # --backup-every

    [screen]                        # rummikub-screen: its own (read-only) account
    username = "screen"
    password_file = "/etc/tablekit/screen-password"

    [organizer]                     # rummikub: the live views' account
    username = "hub-admin"
    password_file = "/etc/tablekit/admin-password"

    [web]                           # rummikub-web: the web console
    host = "127.0.0.1"              # RUMMIKUB_WEB_HOST, --host: the address it listens on
    port = 8080                     # RUMMIKUB_WEB_PORT, --port
    streams = 500                   # pages following the live updates at most
    connections = 1200              # open connections at most (then 503 at once)
    public_url = "http://rummikub.local:8080"  # RUMMIKUB_WEB_PUBLIC_URL: where phones open it
    certificate = "/etc/rummikub/web-cert.pem"  # HTTPS (with key); none: plain HTTP
    key = "/etc/rummikub/web-key.pem"
    username = "screen"             # a read-only broker account, as the hub screen's
    password_file = "/etc/tablekit/screen-password"
    accounts = "/var/lib/rummikub-hub/web-accounts.toml"  # RUMMIKUB_WEB_ACCOUNTS, --accounts
    session_idle_minutes = 120      # a sign-in ends after this long without a page
    session_hours = 16              # and after this long in all
    # season = "/var/lib/rummikub-hub/season"  # RUMMIKUB_WEB_SEASON, --season: league events

    [league]                        # the league across towns (docs/league.md)
    uplink = true                   # rummikub-hub sends the venue's events to the central
    bridge = "league-hall"          # the venue broker's bridge to it
    # registry = "/var/lib/rummikub-hub/league-uplink.sqlite3"  # default: beside db

A program logs in with its own section's ``username``/``password_file`` over
``[broker]``'s; the environment and the flags override field by field. The demo
(``rummikub-demo``) reads no config file: it runs its own broker on loopback and wires
every program to it with that broker's settings.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, TypeVar

import msgspec

from hub.backup import DEFAULT_INTERVAL
from tablekit.core.errors import KitError, Phrase, quoted
from tablekit.core.fields import MAX_TABLE, URL_PATTERN
from tablekit.core.topics import Topics
from tablekit.core.words import N_
from tablekit.shared import i18n
from tablekit.shared.broker import BrokerSettings, read_secret
from tablekit.shared.i18n import Words
from tablekit.shared.tomlfile import SettingsFileError, decode_toml

WEB_STREAMS: Final = 500
"""``[web] streams``' default: pages following the web console's live updates at most."""
WEB_CONNECTIONS: Final = 1200
"""``[web] connections``' default: the web console's open connections at most."""

DEFAULT_PATH = Path("/etc/rummikub/hub.toml")
"""Read when it exists and neither ``--config`` nor ``$RUMMIKUB_CONFIG`` names a file."""
CONFIG_VAR = "RUMMIKUB_CONFIG"


def config_help(words: Words) -> str:
    """The help of ``--config``, in ``words``' language."""
    return words.gettext(
        "the hub's config file (default ${variable}, else {path} if it exists)"
    ).format(variable=CONFIG_VAR, path=DEFAULT_PATH)


Program = Literal["hub", "screen", "organizer", "web"]
"""The section a program reads besides the top level and ``[broker]``."""

T = TypeVar("T")


class HubConfigError(KitError, ValueError):
    """A hub setting that cannot be used; the message names the file, variable or flag."""


class BrokerLogin(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A program's own broker account (``[screen]``, ``[organizer]``)."""

    username: str | None = None
    password_file: str | None = None


def check_tables(count: int, where: str) -> int:
    """``count`` tables as the protocol numbers them (1–999); HubConfigError naming
    ``where`` it was set otherwise."""
    if not 1 <= count <= MAX_TABLE:
        raise HubConfigError(
            N_("{where}: an event has 1–{most} tables (the protocol's topics), got {got}"),
            where=where, most=MAX_TABLE, got=count,
        )
    return count


class HubSection(BrokerLogin, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``[hub]``: ``rummikub-hub serve``."""

    tables: int | None = None
    """The event's tables are 1..tables (at most 999, the protocol's); None: any
    table 1-999."""
    backup: str | None = None
    """Keep a copy of the store there (a USB stick); None: no copy."""
    backup_every: float = DEFAULT_INTERVAL

    def __post_init__(self) -> None:
        if self.tables is not None:
            check_tables(self.tables, "tables")
        if self.backup_every <= 0:
            raise HubConfigError(
                N_("backup_every: must be more than 0 seconds, got {got}"),
                got=f"{self.backup_every:g}",
            )


class WebSection(BrokerLogin, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``[web]``: ``rummikub-web``, the web console (its broker account reads the tables'
    live state: a read-only one will do)."""

    host: str = "127.0.0.1"
    """The address it listens on: loopback, or the address of the network the phones
    reach it on (docs/deployment.md); ``0.0.0.0`` for every interface."""
    port: int = 8080
    accounts: str | None = None
    """The web accounts file (organizer, judges) the credentials bundle writes; None:
    nobody can sign in (the public pages still work)."""
    session_idle_minutes: float = 120.0
    """A sign-in ends after this long without a page opened."""
    session_hours: float = 16.0
    """A sign-in ends after this long in all (a tournament day)."""
    streams: int = WEB_STREAMS
    """Open pages following the live updates at most (each holds one connection); a
    page beyond them still works, without live updates, and says so."""
    connections: int = WEB_CONNECTIONS
    """Open connections at most: the live pages' and the pages being fetched (a phone
    fetching the standings while its page follows the updates holds two). Beyond them a
    request is answered at once with 503 (uvicorn's ``limit_concurrency``)."""
    public_url: str = ""
    """Where phones on the venue network open the console (``http://rummikub.local:8080``):
    the hub publishes it for the QR codes of the hub screen, the tables' displays and the
    printed seating; "" for none."""
    certificate: str | None = None
    """HTTPS: the console's certificate (PEM; ``python -m hub.credentials --https``
    makes it, signed by the bundle's own CA); None: plain HTTP."""
    key: str | None = None
    """The certificate's key (PEM), readable by the service alone."""
    season: str | None = None
    """The folder where the league season's finished events' files are kept, for the
    organizer's season table; None: the console has no season page."""
    cards: str | None = None
    """The tables' own files (``units/table-07/unit.toml``, ``mqtt-password``), from which
    the organizer's page writes every table's SD card; None: no cards page."""

    def __post_init__(self) -> None:
        if not self.host.strip():
            raise HubConfigError(N_("host: must name an address, got an empty string"))
        if self.public_url:
            web_address(self.public_url, "public_url")
        if not 1 <= self.port <= 65535:
            raise HubConfigError(N_("port: must be 1 to 65535, got {got}"), got=self.port)
        for name in ("session_idle_minutes", "session_hours"):
            value = getattr(self, name)
            if value <= 0:
                raise HubConfigError(
                    N_("{name}: must be more than 0, got {got}"), name=name, got=f"{value:g}"
                )
        if self.streams < 1:
            raise HubConfigError(N_("streams: must be 1 or more, got {got}"), got=self.streams)
        if self.connections <= self.streams:
            raise HubConfigError(
                N_("connections: must be more than streams ({streams}), got {got}"),
                streams=self.streams, got=self.connections,
            )
        if (self.certificate is None) != (self.key is None):
            raise HubConfigError(N_("certificate and key: give both (HTTPS) or neither"))


class LeagueSection(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``[league]``: the venue belongs to a league (docs/league.md): ``rummikub-hub
    serve`` sends the records of the event it serves, and of every event of the venue
    that went up before, to the central league service through the venue broker's
    bridge (the bridge section ``rummikub-league venues`` wrote)."""

    uplink: bool = False
    bridge: str = ""
    """The bridge's connection name (``league-<venue>``): the hub sends again as soon as
    the broker says it is up."""
    registry: str = ""
    """The venue's uplink registry (:mod:`hub.uplink`): which events go up, from which
    store; "" — ``league-uplink.sqlite3`` beside the event's store."""


class HubConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The whole file; every part has defaults, so an empty file is valid."""

    venue: str = "hall"
    event: str = "demo"
    db: str | None = None
    broker: BrokerSettings = BrokerSettings()
    hub: HubSection = HubSection()
    screen: BrokerLogin = BrokerLogin()
    organizer: BrokerLogin = BrokerLogin()
    web: WebSection = WebSection()
    league: LeagueSection = LeagueSection()


def web_address(text: str, where: str = "") -> str:
    """``text`` as the web console's public address (no trailing ``/``); HubConfigError
    unless it is ``http://`` or ``https://`` with a host, no spaces, at most 200 characters."""
    url = text.strip().rstrip("/")
    if not re.fullmatch(URL_PATTERN, url) or len(url) > 200:
        raise HubConfigError(
            N_("{where}: an address such as http://rummikub.local:8080 (http:// or https://, "
               "a host, no spaces, at most 200 characters), got {got}"),
            where=where or "public_url", got=quoted(text),
        )
    return url


def public_url(config: HubConfig, env: Mapping[str, str]) -> str:
    """The web console's public address by the precedence: ``RUMMIKUB_WEB_PUBLIC_URL``,
    else the file's ``[web] public_url``; "" when neither names one."""
    if env.get("RUMMIKUB_WEB_PUBLIC_URL"):
        return web_address(env["RUMMIKUB_WEB_PUBLIC_URL"], "RUMMIKUB_WEB_PUBLIC_URL")
    return web_address(config.web.public_url) if config.web.public_url else ""


def parse_hub_config(text: str, source: str = "hub.toml") -> HubConfig:
    """Decode a hub config; HubConfigError naming ``source`` and the field."""
    try:
        return decode_toml(text, HubConfig, source)
    except SettingsFileError as err:
        raise HubConfigError(err.template, **err.values) from None


def load_hub_config(path: Path | None, env: Mapping[str, str]) -> tuple[HubConfig, str]:
    """The config (``path``, else ``$RUMMIKUB_CONFIG``, else the default file if it
    exists, else the built-in defaults) and the name of the file read ("" for none)."""
    if path is None and env.get(CONFIG_VAR):
        path = Path(env[CONFIG_VAR])
    if path is None:
        if not DEFAULT_PATH.exists():
            return HubConfig(), ""
        path = DEFAULT_PATH
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise HubConfigError(
            N_("{file}: cannot read the config: {error}"), file=path, error=reason
        ) from None
    return parse_hub_config(text, str(path)), str(path)


def parse_broker(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``HOST``: port 1883); HubConfigError naming what is wrong (as
    argparse's type, :func:`add_config_options` shows it in the reader's language)."""
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host, port_text = text, "1883"
    if not host:
        raise HubConfigError(N_("expected HOST:PORT, got {text}"), text=quoted(text))
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise HubConfigError(
            N_("port must be 1-65535, got {port} in {text}"),
            port=quoted(port_text), text=quoted(text),
        )
    return host, int(port_text)


def add_config_options(
    parser: argparse.ArgumentParser,
    *,
    account: str,
    config: bool = True,
    words: Words | None = None,
) -> None:
    """The options every hub program shares: the file (unless ``config`` is False: the
    program has it elsewhere), the broker, the topic levels. Each defaults to None (not
    given), so :func:`resolve` can tell what was. Their help is in ``words``' language
    (default English: argparse's own words of a program that does not give its language
    stay English too); ``account`` (which account ``--username`` names) the caller gives
    in it."""
    w = words if words is not None else i18n.words("en")
    _ = w.gettext

    def broker(text: str) -> tuple[str, int]:
        try:
            return parse_broker(text)
        except HubConfigError as err:
            raise argparse.ArgumentTypeError(err.message(_)) from None

    group = parser.add_argument_group(
        _("settings"),
        _("each also from the config file and the environment: file < environment < flags "
          "(docs/deployment.md, 'The hub's config file')"),
    )
    if config:
        group.add_argument("--config", type=Path, metavar="FILE", help=config_help(w))
    group.add_argument(
        "--broker", type=broker, metavar="HOST:PORT",
        help=_("MQTT broker ($RUMMIKUB_BROKER; default 127.0.0.1:1883)"),
    )
    group.add_argument(
        "--venue", help=_("topic level: the venue ($RUMMIKUB_VENUE; default hall)")
    )
    group.add_argument(
        "--event", help=_("topic level: the event ($RUMMIKUB_EVENT; default demo)")
    )
    group.add_argument(
        "--username",
        help=_("broker account ($RUMMIKUB_USERNAME; {account})").format(account=account),
    )
    group.add_argument(
        "--password-file", type=Path, metavar="FILE",
        help=_("file holding the account's password ($RUMMIKUB_PASSWORD_FILE)"),
    )
    group.add_argument(
        "--mqtt", type=int, choices=(3, 5),
        help=_("MQTT version: 5 (default) or 3 for 3.1.1 (the embedded amqtt broker)"),
    )
    group.add_argument(
        "--tls", action="store_const", const=True,
        help=_("TLS to the broker (its port is often 8883)"),
    )
    group.add_argument(
        "--ca-file", metavar="FILE", help=_("the CA of the broker's certificate (PEM)")
    )
    group.add_argument("--cert-file", metavar="FILE", help=_("a client certificate (PEM)"))
    group.add_argument(
        "--key-file", metavar="FILE", help=_("the client certificate's key (PEM)")
    )


@dataclass(frozen=True)
class HubSettings:
    """A program's settings after the precedence: what :func:`resolve` returns."""

    config: HubConfig
    """The file as read (the program's own other fields: :meth:`pick`)."""
    source: str
    """The file read, "" for none."""
    broker: BrokerSettings
    topics: Topics
    env: Mapping[str, str]

    def pick(
        self,
        flag: tuple[str, object],
        var: str | None,
        field: tuple[str, T | None],
        convert: Callable[[str], T],
    ) -> tuple[T | None, str]:
        """One setting by the precedence: ``flag`` (name, value or None), the variable
        ``var``, the file's ``field`` (name, value); the value and where it came from.
        ``convert`` reads the variable's text (ValueError: HubConfigError naming it)."""
        name, value = flag
        if value is not None:
            return value, name  # type: ignore[return-value]
        if var is not None and self.env.get(var):
            try:
                return convert(self.env[var]), var
            except (ValueError, argparse.ArgumentTypeError) as err:
                raise HubConfigError(
                    N_("{variable}={value}: {error}"),
                    variable=var,
                    value=quoted(self.env[var]),
                    error=err if isinstance(err, KitError) else str(err),
                ) from None
        return field[1], f"{self.source}: {field[0]}"


    def public_url(self) -> str:
        """The web console's public address (:func:`public_url`)."""
        return public_url(self.config, self.env)

    def store(self, flag: Path | None) -> Path:
        """The event store by the precedence (``--db`` given as ``flag``, ``RUMMIKUB_DB``,
        the file's ``db``); HubConfigError saying how to name one when none is, or naming
        it when its folder does not exist (the hub creates no folder)."""
        db, where = self.pick(
            ("--db", flag), "RUMMIKUB_DB",
            ("db", None if self.config.db is None else Path(self.config.db)), Path,
        )
        if db is not None and not Path(db).parent.is_dir():
            raise HubConfigError(
                N_("{where} {path}: the folder {folder} does not exist — a typo in the path? "
                   "Name a file in an existing folder, or create the folder first"),
                where=where, path=str(db), folder=str(Path(db).parent),
            )
        if db is None:
            if self.source:
                raise HubConfigError(
                    N_("no event store: give --db FILE (or $RUMMIKUB_DB, or db in {file})"),
                    file=self.source,
                )
            raise HubConfigError(N_("no event store: give --db FILE (or $RUMMIKUB_DB)"))
        return Path(db)


_FLAGS = (
    ("username", "RUMMIKUB_USERNAME", "--username"),
    ("password_file", "RUMMIKUB_PASSWORD_FILE", "--password-file"),
    ("mqtt_version", None, "--mqtt"),
    ("tls", None, "--tls"),
    ("ca_file", None, "--ca-file"),
    ("cert_file", None, "--cert-file"),
    ("key_file", None, "--key-file"),
)
"""The broker fields that the environment and the flags may set one by one."""


def resolve(program: Program, args: argparse.Namespace, env: Mapping[str, str]) -> HubSettings:
    """The settings of ``program`` from the file, the environment and ``args`` (the
    options of :func:`add_config_options`), in that order; HubConfigError naming where a
    bad value came from, and checking the password file can be read."""
    config, source = load_hub_config(args.config, env)
    fields: dict[str, Any] = msgspec.structs.asdict(config.broker)
    origin = {name: f"{source or 'defaults'}: broker.{name}" for name in fields}
    own: BrokerLogin = getattr(config, program)
    if own.username is not None or own.password_file is not None:
        fields["username"], fields["password_file"] = own.username, own.password_file
        origin["username"] = f"{source}: {program}.username"
        origin["password_file"] = f"{source}: {program}.password_file"
    levels = {"venue": config.venue, "event": config.event}
    origin["venue"], origin["event"] = f"{source}: venue", f"{source}: event"
    # the environment
    if env.get("RUMMIKUB_BROKER"):
        try:
            fields["host"], fields["port"] = parse_broker(env["RUMMIKUB_BROKER"])
        except HubConfigError as err:
            raise HubConfigError(N_("RUMMIKUB_BROKER: {error}"), error=err) from None
        origin["host"] = origin["port"] = "RUMMIKUB_BROKER"
    for name in ("venue", "event"):
        if env.get(f"RUMMIKUB_{name.upper()}"):
            levels[name], origin[name] = env[f"RUMMIKUB_{name.upper()}"], f"RUMMIKUB_{name.upper()}"
    for name, var, _ in _FLAGS:
        if var is not None and env.get(var):
            fields[name], origin[name] = env[var], var
    # the flags
    if args.broker is not None:
        fields["host"], fields["port"] = args.broker
        origin["host"] = origin["port"] = "--broker"
    for name in ("venue", "event"):
        if getattr(args, name) is not None:
            levels[name], origin[name] = getattr(args, name), f"--{name}"
    for name, _, flag in _FLAGS:
        value = getattr(args, "mqtt" if name == "mqtt_version" else name)
        if value is not None:
            fields[name] = str(value) if isinstance(value, Path) else value
            origin[name] = flag
    return HubSettings(config, source, _broker(fields, origin), _topics(levels, origin), env)


def _broker(fields: dict[str, Any], origin: dict[str, str]) -> BrokerSettings:
    if fields.get("password_file") is not None and fields.get("username") is None:
        where = origin["password_file"]
        if where.startswith("--"):
            raise HubConfigError(N_("{option} needs --username"), option=where)
        raise HubConfigError(N_("{where}: needs a username"), where=where)
    try:
        broker = BrokerSettings(**fields)
    except ValueError as err:
        name, _, reason = str(err).partition(": ")
        said: object = _Unnamed(err, f"{name}: ") if isinstance(err, KitError) else reason
        raise HubConfigError(
            N_("{where}: {reason}"), where=origin.get(name, name), reason=said
        ) from None
    if broker.password_file is not None:
        try:
            read_secret(broker.password_file, origin["password_file"])
        except KitError as err:  # the same message, as the config's error
            raise HubConfigError(err.template, **err.values) from None
    return broker


class _Unnamed(Phrase):
    """A setting's error without the setting's name it starts with (``port: must be …``
    said where the port came from), in the reader's language."""

    __slots__ = ("prefix",)

    def __init__(self, err: KitError, prefix: str) -> None:
        super().__init__(err.template, **err.values)
        self.prefix = prefix

    def message(self, gettext: Callable[[str], str]) -> str:
        return super().message(gettext).removeprefix(self.prefix)

    def __str__(self) -> str:
        return super().__str__().removeprefix(self.prefix)


def _topics(levels: dict[str, str], origin: dict[str, str]) -> Topics:
    try:
        return Topics(levels["venue"], levels["event"])
    except ValueError as err:
        name = str(err).partition(":")[0]
        raise HubConfigError(
            N_("{where}: {error}"),
            where=origin.get(name, name),
            error=err if isinstance(err, KitError) else str(err),
        ) from None

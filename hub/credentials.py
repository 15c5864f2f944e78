"""Broker credentials and access rules for a venue: one account per table unit and service.

``python -m hub.credentials --tables 24 --venue hall --event cup2026 --out DIR`` writes
a bundle to copy onto the machines (see ``docs/deployment.md``). The accounts and the
access rules are the venue's, for every event it plays: a table unit follows the event
the hub announces, and ``--event`` is only the one the hub's config names first::

    DIR/accounts.tsv                     every username, role and secret (keep it safe)
    DIR/mosquitto/rummikub.conf          the broker config (deploy/mosquitto/rummikub.conf)
    DIR/mosquitto/rummikub.passwd        Mosquitto password_file (PBKDF2-SHA512 hashes)
    DIR/mosquitto/rummikub.acl           Mosquitto acl_file
    DIR/hub/hub.toml                     the hub Pi's config file (/etc/rummikub/hub.toml)
    DIR/hub/hub-password                 the hub service's secret
    DIR/hub/admin-password               the organizer's account (rummikub's live views)
    DIR/hub/screen-password              the hub Pi's own screen (the first screen account)
    DIR/readers/{name}.password          one per hub screen / read-only dashboard
    DIR/hub/web-accounts.toml            the web console's accounts (organizer, judges), hashed
    DIR/units/table-07/unit.toml         the unit's config: [unit], [display], [link]
    DIR/units/table-07/mqtt-password     the unit's secret

With ``--https`` (and ``--web-name`` for each host name or address the phones and
tablets reach the web console by) it also makes the venue's own CA and the web
console's certificate (:mod:`hub.certificates`)::

    DIR/web/ca.pem                       the CA: what a device installs to trust the console
    DIR/web/ca-key.pem                   its key (stays with the bundle: keep it safe)
    DIR/hub/web-cert.pem, web-key.pem    the console's certificate and key

Running it again on the same ``DIR`` keeps every secret it already holds (so adding
tables does not invalidate the units already set up) and the CA (the devices that trust
it keep trusting the console's new certificate); ``--rotate`` makes new ones.

The web console's accounts (``--judges N``, default 2: ``organizer``, ``judge-1`` …) are
no broker accounts: their passwords (four groups of four letters and digits, to type on
a phone) are in ``accounts.tsv`` beside the broker's secrets, and their scrypt hashes in
``hub/web-accounts.toml`` (:mod:`hub.web.accounts`), which ``hub.toml``'s ``[web]
accounts`` names.

The access scheme (``acl_file``; whatever is not granted is denied), ``…`` being
``rummikub/v1/{venue}/+``, every event of the venue:

* ``table-NN`` (one per table unit) may **write** only ``…/table/N/events``,
  ``…/table/N/state`` and ``…/table/N/status`` (its Last Will), and **read** only
  ``…/hub/table/N/#``, ``…/hub/broadcast``, ``…/hub/status``, ``…/hub/language``,
  ``…/hub/console`` and the venue's current event, ``rummikub/v1/{venue}/hub/event``.
* ``hub`` (the hub service) and ``hub-admin`` (the organizer's tools: ``rummikub``'s
  live views) read ``…/table/#`` and write ``…/hub/#``; ``hub`` alone writes the venue's
  current event, ``hub-admin`` reads it. They are two accounts because the broker
  uses the username as the MQTT client id: a tool connecting as ``hub`` would
  take over, and with a clean start discard, the hub service's durable session.
* readers (``screen``, ``dashboard-1``, …) read everything under the venue's prefix
  and write nothing. The hub screen logs in as ``screen`` on the main listener like
  every other client; no listener admits anonymous clients unless ``--local-port``
  asks for a loopback one (read only, for local tools).

Mosquitto's ``%u`` substitution only works for a whole topic level, and the table
number is a level of its own while the username is ``table-07``; so the ACL spells
out one ``user`` block per account instead of ``pattern`` lines.
"""

from __future__ import annotations

import argparse
import base64
import csv
import enum
import hashlib
import io
import os
import secrets
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from hub.certificates import CertificateError, Issued, issue
from hub.web.accounts import (
    WebAccountsError,
    WebRole,
    accounts_text,
    new_password,
    read_accounts,
)
from tablekit.core.errors import KitError
from tablekit.core.fields import MAX_TABLE
from tablekit.core.messages import MAX_BOARD_PAYLOAD, MAX_PAYLOAD
from tablekit.core.topics import TOPIC_PREFIX, TopicNameError, Topics, current_event_topic
from tablekit.core.words import N_
from tablekit.shared import i18n
from tablekit.shared.commandline import error_text, parse_in_language, speaking
from tablekit.shared.i18n import Words

PBKDF2_ITERATIONS: Final = 101
"""What ``mosquitto_passwd`` 2.0 writes (``$7$101$…``); Mosquitto reads the count."""
SALT_BYTES: Final = 12
SECRET_BYTES: Final = 18
"""24 URL-safe characters: ~144 bits, no quoting needed in TOML or a shell."""
HEADER_ALLOWANCE: Final = 512
"""Bytes above the payload for a PUBLISH: fixed header ≤ 5, topic ≤ 2 + ~110 (venue and
event of 32 characters, table 999), packet id 2, MQTT 5 properties; CONNECT packets
(username, password, a Will of ~120 bytes) are smaller still."""
MAX_PACKET_SIZE: Final = MAX_BOARD_PAYLOAD + HEADER_ALLOWANCE
"""The largest legitimate message is the hub's standings or seating board (up to 1,000
players); every other payload is at most MAX_PAYLOAD, and the hub refuses a larger one
from a table before parsing it, so a forged big packet costs the broker only memory."""
MAX_QUEUED_MESSAGES: Final = 100_000
"""Per client; the hub's durable session queues every table's events while it is away."""

PROG: Final = "python -m hub.credentials"
WEB_ACCOUNTS_FILE: Final = "/var/lib/rummikub-hub/web-accounts.toml"
"""Where deploy/provision-hub.sh installs the web console's accounts."""
UNITS_DIR: Final = "/etc/rummikub/units"
"""Where deploy/provision-hub.sh installs the tables' own files of the bundle (units/)."""
WEB_ORGANIZER: Final = "organizer"
WEB_HEAD_JUDGE: Final = "head-judge"
ADMIN_USER: Final = "hub-admin"
HUB_USER: Final = "hub"
READER_PREFIXES: Final = ("screen", "dashboard")
_SECRET_ALPHABET: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
)


class CredentialsError(KitError, ValueError):
    """Bad options or an unusable bundle directory; the message says what is wrong."""


class Role(enum.StrEnum):
    TABLE = "table"
    HUB = "hub"
    ADMIN = "admin"
    READER = "reader"
    WEB_ORGANIZER = "web-organizer"
    """The web console's organizer: no broker account."""
    WEB_JUDGE = "web-judge"
    """A judge of the web console: no broker account."""
    WEB_HEAD_JUDGE = "web-head-judge"
    """The head judge on the web console (a judge who records the head judge's
    decisions): no broker account."""
    WEB_LEAGUE = "web-league"
    """The league organizer on the central league service's pages: no broker account."""
    WEB_PARTNER = "web-partner"
    """A local partner on the central's pages (their venue's data): no broker account."""


WEB_ROLES: Final = {
    Role.WEB_ORGANIZER: WebRole.ORGANIZER,
    Role.WEB_JUDGE: WebRole.JUDGE,
    Role.WEB_HEAD_JUDGE: WebRole.HEAD_JUDGE,
    Role.WEB_LEAGUE: WebRole.LEAGUE,
    Role.WEB_PARTNER: WebRole.PARTNER,
}


@dataclass(frozen=True)
class Account:
    username: str
    role: Role
    secret: str
    table: int | None = None


def table_username(table: int) -> str:
    """The table unit's username, the same as its default ``unit_id``: ``table-07``."""
    if not 1 <= table <= MAX_TABLE:
        raise CredentialsError(N_("table must be 1-{most}, got {got}"), most=MAX_TABLE, got=table)
    return f"table-{table:02d}"


def reader_names(screens: int, dashboards: int) -> list[str]:
    """``screen`` (or ``screen-1``, ``screen-2``, … for several), ``dashboard-1``, …"""
    if screens < 0 or dashboards < 0:
        raise CredentialsError(N_("screens and dashboards must be 0 or more"))
    names = ["screen"] if screens == 1 else [f"screen-{i}" for i in range(1, screens + 1)]
    return names + [f"dashboard-{i}" for i in range(1, dashboards + 1)]


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def make_accounts(
    tables: int,
    *,
    screens: int = 1,
    dashboards: int = 2,
    known: dict[str, str] | None = None,
    secret: Callable[[], str] = new_secret,
) -> list[Account]:
    """Every account of a venue; a username in ``known`` keeps its secret."""
    if not 1 <= tables <= MAX_TABLE:
        raise CredentialsError(
            N_("--tables must be 1-{most}, got {got}"), most=MAX_TABLE, got=tables
        )
    known = known or {}

    def account(username: str, role: Role, table: int | None = None) -> Account:
        return Account(username, role, known.get(username) or secret(), table)

    out = [account(HUB_USER, Role.HUB), account(ADMIN_USER, Role.ADMIN)]
    out += [account(name, Role.READER) for name in reader_names(screens, dashboards)]
    out += [account(table_username(n), Role.TABLE, n) for n in range(1, tables + 1)]
    for acc in out:
        check_secret(acc.username, acc.secret)
    return out


def judge_names(judges: int) -> list[str]:
    """The judges' web accounts: ``judge-1``, ``judge-2`` …"""
    if judges < 0:
        raise CredentialsError(N_("--judges must be 0 or more"))
    return [f"judge-{i}" for i in range(1, judges + 1)]


def make_web_accounts(
    judges: int = 2,
    *,
    known: dict[str, str] | None = None,
    password: Callable[[], str] = new_password,
) -> list[Account]:
    """The web console's accounts: the organizer, the head judge and ``judges`` judges;
    a name in ``known`` keeps its password."""
    known = known or {}
    names = [(WEB_ORGANIZER, Role.WEB_ORGANIZER), (WEB_HEAD_JUDGE, Role.WEB_HEAD_JUDGE)]
    names += [(name, Role.WEB_JUDGE) for name in judge_names(judges)]
    out = [Account(name, role, known.get(name) or password()) for name, role in names]
    for acc in out:
        check_secret(acc.username, acc.secret)
    return out


def broker_accounts(accounts: Iterable[Account]) -> list[Account]:
    """The accounts the broker knows (not the web console's)."""
    return [a for a in accounts if a.role not in WEB_ROLES]


def web_accounts_text(accounts: Iterable[Account], earlier: Mapping[str, str]) -> str:
    """``hub/web-accounts.toml``: the web console's accounts, their passwords hashed
    (a hash in ``earlier``, name → hash, kept when its password is kept: the console's
    sign-ins last while their accounts do)."""
    return accounts_text(
        ((a.username, WEB_ROLES[a.role], a.secret) for a in accounts if a.role in WEB_ROLES),
        earlier,
    )


def earlier_web_hashes(path: Path) -> dict[str, str]:
    """name → hash of an earlier bundle's web accounts file (empty when there is none or
    it cannot be read: every password is then hashed anew)."""
    try:
        return {name: account.hash for name, account in read_accounts(path).items()}
    except WebAccountsError:
        return {}


def check_secret(username: str, secret: str) -> None:
    if len(secret) < 16 or not set(secret) <= _SECRET_ALPHABET:
        raise CredentialsError(
            N_("{username}: a secret must be at least 16 of A-Z a-z 0-9 - _ (got {length} "
               "characters)"),
            username=username, length=len(secret),
        )


# --- Mosquitto password_file -------------------------------------------------------------


def password_hash(secret: str, salt: bytes, iterations: int = PBKDF2_ITERATIONS) -> str:
    """Mosquitto 2.0's PBKDF2-SHA512 format: ``$7$iterations$base64(salt)$base64(hash)``."""
    digest = hashlib.pbkdf2_hmac("sha512", secret.encode(), salt, iterations)
    b64 = base64.b64encode
    return f"$7${iterations}${b64(salt).decode()}${b64(digest).decode()}"


def verify_hash(secret: str, hashed: str) -> bool:
    """Whether ``hashed`` (a password_file entry after ``user:``) matches ``secret``."""
    parts = hashed.split("$")
    if len(parts) != 5 or parts[:2] != ["", "7"] or not parts[2].isdigit():
        return False
    salt = base64.b64decode(parts[3])
    return secrets.compare_digest(password_hash(secret, salt, int(parts[2])), hashed)


def password_file_text(
    accounts: Iterable[Account], salt: Callable[[int], bytes] = os.urandom
) -> str:
    return "".join(f"{a.username}:{password_hash(a.secret, salt(SALT_BYTES))}\n" for a in accounts)


# --- Mosquitto acl_file --------------------------------------------------------------------


def acl_text(venue: str, accounts: Iterable[Account], *, anonymous_read: bool) -> str:
    """The acl_file of ``venue``: one ``user`` block per account, explicit topics (see the
    module doc), the same for every event the venue plays.

    ``anonymous_read``: the lines before the first ``user`` apply to anonymous clients,
    admitted only on the opt-in loopback listener (read only).
    """
    from hub.league.bridge import venue_acl_lines  # the league's lines (it imports this)

    venue_base = f"{TOPIC_PREFIX}/{venue}"
    base = f"{venue_base}/+"
    announced = current_event_topic(venue)
    lines = [
        "# Generated by python -m hub.credentials. Mosquitto denies whatever is not granted",
        "# here, so no `deny` lines are needed: nothing broader is granted that they could cut.",
        f"# Topic tree of this venue: {venue_base}/EVENT/ for each event, and the event the",
        f"# hub serves announced on {announced} (docs/protocol.md).",
        "",
    ]
    if anonymous_read:
        lines += [
            "# Anonymous clients (only the opt-in loopback listener admits them): read only.",
            f"topic read {venue_base}/#",
            "",
        ]
    for acc in accounts:
        lines.append(f"user {acc.username}")
        if acc.role is Role.TABLE:
            n = acc.table
            lines += [
                f"topic write {base}/table/{n}/events",
                f"topic write {base}/table/{n}/state",
                f"topic write {base}/table/{n}/status",
                f"topic read {base}/hub/table/{n}/#",
                f"topic read {base}/hub/broadcast",
                f"topic read {base}/hub/status",
                f"topic read {base}/hub/language",
                f"topic read {base}/hub/console",
                f"topic read {announced}",
            ]
        elif acc.role in (Role.HUB, Role.ADMIN):
            lines += [f"topic read {base}/table/#", f"topic readwrite {base}/hub/#"]
            lines.append(f"topic {'readwrite' if acc.role is Role.HUB else 'read'} {announced}")
            lines += venue_acl_lines(venue, hub=acc.role is Role.HUB)
        else:
            lines.append(f"topic read {venue_base}/#")
        lines.append("")
    return "\n".join(lines)


# --- Mosquitto config ------------------------------------------------------------------------


@dataclass(frozen=True)
class MosquittoSettings:
    """Where the broker listens and keeps its files; the defaults are a hub Pi's."""

    port: int = 1883
    bind: str = ""
    """Address of the main listener; empty = every interface (venue network and loopback)."""
    local_port: int = 0
    """Opt-in loopback-only listener admitting anonymous read-only clients (local tools such
    as ``mosquitto_sub``); 0 = none, the default. The hub screen does not need it."""
    websockets_port: int = 0
    """Websockets listener for browser dashboards (password + read-only account); 0 = none."""
    password_file: str = "/etc/mosquitto/rummikub.passwd"
    acl_file: str = "/etc/mosquitto/rummikub.acl"
    persistence_location: str = "/var/lib/mosquitto/"
    log_file: str = "/var/log/mosquitto/mosquitto.log"
    autosave_interval: int = 120
    run_as: str = ""
    """``user``: empty = Mosquitto's default (started as root it drops to ``mosquitto``)."""
    extra: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        for name in ("port", "local_port", "websockets_port"):
            value = getattr(self, name)
            low = 1 if name == "port" else 0
            if not low <= value <= 65535:
                raise CredentialsError(
                    N_("{name} must be {low}-65535, got {got}"), name=name, low=low, got=value
                )
        ports = [p for p in (self.port, self.local_port, self.websockets_port) if p]
        if len(set(ports)) != len(ports):
            raise CredentialsError(
                N_("the listeners need distinct ports, got {ports}"),
                ports=", ".join(map(str, ports)),
            )


def broker_config(settings: MosquittoSettings = MosquittoSettings()) -> str:
    """The Mosquitto 2.0 config for a venue (``deploy/mosquitto/rummikub.conf``)."""
    s = settings
    auth = [
        "allow_anonymous false",
        f"password_file {s.password_file}",
        f"acl_file {s.acl_file}",
        "# The username becomes the client id: nobody can take over another's session.",
        "use_username_as_clientid true",
    ]
    lines = [
        "# Mosquitto for a Rummikub venue (hub Pi). Generated by python -m hub.credentials;",
        "# docs/deployment.md explains every line. Accounts and ACL: same directory.",
        "",
        "# Security settings (password_file, acl_file, allow_anonymous) belong to each listener.",
        "per_listener_settings true",
        "",
        "# Persistence: retained assignments/states and the hub's durable session survive a",
        "# restart (a snapshot every autosave_interval s; the units' journals cover the rest).",
        "persistence true",
        f"persistence_location {s.persistence_location}",
        f"autosave_interval {s.autosave_interval}",
        "# Sessions of units that never come back are dropped after two weeks.",
        "persistent_client_expiration 14d",
        "",
        "# A log file: 2.0.11 block-buffers its stdout log.",
        f"log_dest file {s.log_file}",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "log_type information",
        "connection_messages true",
        "log_timestamp_format %Y-%m-%dT%H:%M:%S",
        "",
        f"# Table messages are at most {MAX_PAYLOAD} bytes (protocol MAX_PAYLOAD);",
        f"# the hub's standings and seating boards up to {MAX_BOARD_PAYLOAD}, plus",
        f"# {HEADER_ALLOWANCE} for the topic and headers. A bigger packet disconnects its sender.",
        f"max_packet_size {MAX_PACKET_SIZE}",
        "# The default 1000 silently drops messages queued for the hub while it is away.",
        f"max_queued_messages {MAX_QUEUED_MESSAGES}",
        "set_tcp_nodelay true",
    ]
    if s.run_as:
        lines.append(f"user {s.run_as}")
    lines += [
        "",
        "# The venue network and loopback: table units, the hub service, the organizer,",
        "# the hub screen and dashboards, each with its own account.",
        f"listener {s.port}{' ' + s.bind if s.bind else ''}",
        *auth,
        "",
    ]
    if s.local_port:
        lines += [
            "# Opt-in (--local-port), loopback only: anonymous clients on the hub Pi may read",
            "# the event's topics and write nothing. The hub screen logs in on the listener above.",
            f"listener {s.local_port} 127.0.0.1",
            "allow_anonymous true",
            f"acl_file {s.acl_file}",
            "",
        ]
    ws = [
        f"listener {s.websockets_port or 9001}",
        "protocol websockets",
        *auth,
    ]
    if s.websockets_port:
        lines += ["# Browser dashboards (read-only accounts): MQTT over websockets.", *ws, ""]
    else:
        lines += [
            "# Browser dashboards (read-only accounts) over websockets: generate with",
            "# --websockets-port 9001, or uncomment:",
            *(f"# {line}" for line in ws if not line.startswith("#")),
            "",
        ]
    lines += list(s.extra)
    return "\n".join(lines).rstrip("\n") + "\n"


# --- per-machine files ---------------------------------------------------------------------


def unit_toml(
    account: Account, venue: str, host: str, port: int, installed: Installed | None = None
) -> str:
    """A table unit's config (valid for ``tablekit.config``); add [pins] etc. as wired. It
    names the venue, not an event: the unit follows the event the venue's hub announces.
    ``installed``: where its secret is (default: a table Pi's)."""
    password_file = (installed or Installed()).unit_secret(account.username)
    if account.table is None:
        raise CredentialsError(N_("{user} is not a table unit"), user=account.username)
    return f"""\
# Table {account.table} at {venue}. Generated by python -m hub.credentials.
# Installed as /etc/tablekit/unit.toml by deploy/provision-unit.sh. Add [clock], [pins],
# [buzzer] sections as wired and ruled (tablekit/default-unit.toml lists them all).

[unit]
table = {account.table}
unit_id = "{account.username}"
journal = "tablekit-journal.sqlite3"   # in the service's state directory /var/lib/tablekit

[display]
fullscreen = true

[link]
host = "{host}"
port = {port}
username = "{account.username}"
password_file = "{password_file}"
# The unit follows the event the hub at this venue announces: nothing to change here
# for a new event (docs/deployment.md).
venue = "{venue}"
keepalive = 15
"""


BACKUP_DIR = "/media/rummikub-backup"
"""Where the hub Pi mounts the backup stick (deploy/provision-hub.sh, docs/deployment.md)."""
BACKUP_PATH = f"{BACKUP_DIR}/hub.sqlite3"


HUB_CONFIG = "/etc/rummikub/hub.toml"
"""Where deploy/provision-hub.sh installs the bundle's hub.toml (hub/config.py reads it)."""


CA_FILE: Final = Path("web", "ca.pem")
"""The bundle's CA (``--https``): what a device installs to trust the web console."""
WEB_CERT: Final = "/etc/rummikub/web-cert.pem"
WEB_KEY: Final = "/etc/rummikub/web-key.pem"
"""Where deploy/provision-hub.sh installs the web console's certificate and key."""


@dataclass(frozen=True)
class Installed:
    """Where the bundle's files are on the machines that read them, as the config files
    name them: a hub Pi's and a table Pi's paths (deploy/provision-*.sh) by default, or
    the bundle's own folder on one computer (:meth:`in_place`: a rehearsal)."""

    hub_secrets: str = "/etc/tablekit"
    """The hub's services' secrets: hub-password, admin-password, screen-password."""
    unit_secrets: str = "/etc/tablekit"
    """A table unit's secret, ``mqtt-password``; ``{unit}`` stands for its username."""
    db: str = "/var/lib/rummikub-hub/hub.sqlite3"
    web_accounts: str = WEB_ACCOUNTS_FILE
    web_cert: str = WEB_CERT
    web_key: str = WEB_KEY
    backup: str | None = BACKUP_PATH
    """The copy of the store on the backup stick (None: no copy)."""

    @classmethod
    def in_place(cls, bundle: Path, db: Path) -> Installed:
        """Every file read where the bundle in ``bundle`` has it, the store at ``db``,
        no backup copy: the whole venue on one computer."""
        hub = bundle.absolute() / "hub"
        return cls(
            hub_secrets=str(hub), unit_secrets=str(bundle.absolute() / "units" / "{unit}"),
            db=str(db.absolute()), web_accounts=str(hub / "web-accounts.toml"),
            web_cert=str(hub / "web-cert.pem"), web_key=str(hub / "web-key.pem"), backup=None,
        )  # fmt: skip

    def hub_secret(self, name: str) -> str:
        return f"{self.hub_secrets}/{name}"

    def unit_secret(self, username: str) -> str:
        return f"{self.unit_secrets.format(unit=username)}/mqtt-password"


def hub_toml(
    topics: Topics,
    port: int,
    screen_user: str | None,
    *,
    tables: int,
    https: bool = False,
    installed: Installed | None = None,
    web_port: int = 8080,
    public_url: str = "",
) -> str:
    """The hub Pi's config file (valid for ``hub.config``); ``[screen]`` only with a
    screen account; ``https``: the web console serves HTTPS with the bundle's
    certificate; ``installed``: where the files it names are (default: a hub Pi's);
    ``public_url``: where phones open the web console ("": not said)."""
    at = installed or Installed()
    backup = (
        f"""\
# The hub copies its store here after changes (a USB stick mounted there).
# The organizer sees the copies with `rummikub event backup` (docs/deployment.md).
backup = "{at.backup}"
"""
        if at.backup is not None else ""
    )  # fmt: skip
    text = f"""\
# The hub Pi's settings, read by rummikub-hub, rummikub-screen, rummikub-web and rummikub
# (the organizer's command line). Generated by python -m hub.credentials; installed as
# {HUB_CONFIG} by deploy/provision-hub.sh. Every key: docs/deployment.md ("The hub's
# config file"); the environment (RUMMIKUB_*) and the flags override it.
venue = "{topics.venue}"
# The event the hub serves; every table unit of the venue follows it. A new event: its
# own name here and its own store below, then restart the hub's services; nothing is
# done on the units (docs/deployment.md, "A new event").
event = "{topics.event}"
# The event store (back it up: docs/deployment.md).
db = "{at.db}"

[broker]
# Mosquitto on this Pi, its main listener.
host = "127.0.0.1"
port = {port}
mqtt_version = 5

[hub]
username = "hub"
password_file = "{at.hub_secret("hub-password")}"
# The event's tables 1..N, one broker account each: the hub refuses any other table.
tables = {tables}
{backup}
[organizer]
# rummikub's live views (round status, event hall) log in as the organizer's account.
username = "hub-admin"
password_file = "{at.hub_secret("admin-password")}"
"""
    if screen_user is not None:
        text += f"""\

[screen]
# The hub screen logs in with its own read-only account.
username = "{screen_user}"
password_file = "{at.hub_secret("screen-password")}"
"""
    web_user, web_password = (
        (screen_user, at.hub_secret("screen-password")) if screen_user is not None
        else ("hub-admin", at.hub_secret("admin-password"))
    )  # fmt: skip
    text += f"""\

[web]
# The web console (rummikub-web) for the players' phones. It listens on this Pi alone
# until host names the address of the network the phones are on (docs/deployment.md,
# "The venue network"); 0.0.0.0 is every network, the tables' one too.
host = "127.0.0.1"
port = {web_port}
# It follows the tables with the screen's read-only account (else the organizer's).
username = "{web_user}"
password_file = "{web_password}"
# The organizer's and the judges' sign-in (passwords in the bundle's accounts.tsv);
# a sign-in ends after session_idle_minutes without a page, or session_hours in all.
accounts = "{at.web_accounts}"
session_idle_minutes = 120
session_hours = 16
# Every table's config and broker secret, for the organizer's page that writes the
# tables' SD cards (docs/deployment.md, "Cards from a laptop").
cards = "{UNITS_DIR}"
"""
    if public_url:
        text += f"""\
# Where the phones open the console: the hub screen's and the printouts' QR codes.
public_url = "{public_url}"
"""
    if https:
        text += f"""\
# HTTPS, with the certificate the bundle's own CA signed (web/ca.pem is what the
# organizer's and judges' devices install: docs/deployment.md, "HTTPS for the console").
certificate = "{at.web_cert}"
key = "{at.web_key}"
"""
    return text


def hub_screen_account(accounts: Iterable[Account]) -> Account | None:
    """The account of the hub Pi's own screen: the first ``screen`` reader, if any."""
    for acc in accounts:
        if acc.role is Role.READER and acc.username.startswith(READER_PREFIXES[0]):
            return acc
    return None


def accounts_tsv(accounts: Iterable[Account]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    writer.writerow(["username", "role", "table", "secret"])
    for a in accounts:
        writer.writerow([a.username, a.role.value, "" if a.table is None else a.table, a.secret])
    return out.getvalue()


def read_known(path: Path) -> dict[str, str]:
    """username → secret from an earlier bundle's accounts.tsv (empty if there is none)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as err:
        raise CredentialsError(
            N_("{file}: cannot read: {reason}"), file=path, reason=err.strerror or str(err)
        ) from None
    known: dict[str, str] = {}
    for i, row in enumerate(csv.DictReader(io.StringIO(text), delimiter="\t"), start=2):
        username, secret = row.get("username"), row.get("secret")
        if not username or not secret:
            raise CredentialsError(
                N_("{file}:{line}: expected username, role, table, secret"), file=path, line=i
            )
        check_secret(f"{path}:{i}: {username}", secret)
        known[username] = secret
    return known


@dataclass(frozen=True)
class Bundle:
    """Every file of a venue's bundle: relative path → text (all secret, mode 0600)."""

    files: dict[str, str]
    accounts: list[Account]


def make_bundle(
    topics: Topics,
    accounts: Sequence[Account],
    *,
    host: str = "hub.local",
    broker: MosquittoSettings = MosquittoSettings(),
    salt: Callable[[int], bytes] = os.urandom,
    web_tls: Issued | None = None,
    web_hashes: Mapping[str, str] | None = None,
    installed: Installed | None = None,
    web_port: int = 8080,
    public_url: str = "",
) -> Bundle:
    """``web_tls``: the CA and the web console's certificate (``--https``);
    ``web_hashes``: the web accounts' hashes of the bundle made before; ``installed``:
    where its config files say the files are (default: on the Pis); ``web_port`` and
    ``public_url``: the web console's (:func:`hub_toml`)."""
    screen = hub_screen_account(accounts)
    brokers = broker_accounts(accounts)
    files = {
        "accounts.tsv": accounts_tsv(accounts),
        "mosquitto/rummikub.conf": broker_config(broker),
        "mosquitto/rummikub.passwd": password_file_text(brokers, salt),
        "mosquitto/rummikub.acl": acl_text(
            topics.venue, brokers, anonymous_read=bool(broker.local_port)
        ),
        "hub/web-accounts.toml": web_accounts_text(accounts, web_hashes or {}),
        "hub/hub.toml": hub_toml(
            topics,
            broker.port,
            screen.username if screen else None,
            tables=max((a.table or 0 for a in accounts), default=0) or 1,
            https=web_tls is not None,
            installed=installed,
            web_port=web_port,
            public_url=public_url,
        ),
    }
    if web_tls is not None:
        files |= {
            str(CA_FILE): web_tls.ca_cert,
            "web/ca-key.pem": web_tls.ca_key,
            "hub/web-cert.pem": web_tls.cert,
            "hub/web-key.pem": web_tls.key,
        }
    if screen is not None:
        files["hub/screen-password"] = screen.secret + "\n"
    for acc in accounts:
        secret = acc.secret + "\n"
        if acc.role is Role.HUB:
            files["hub/hub-password"] = secret
        elif acc.role is Role.ADMIN:
            files["hub/admin-password"] = secret
        elif acc.role is Role.READER:
            files[f"readers/{acc.username}.password"] = secret
        elif acc.role in WEB_ROLES:
            continue  # in accounts.tsv and hub/web-accounts.toml
        else:
            files[f"units/{acc.username}/unit.toml"] = unit_toml(
                acc, topics.venue, host, broker.port, installed
            )
            files[f"units/{acc.username}/mqtt-password"] = secret
    return Bundle(files, list(accounts))


def write_bundle(bundle: Bundle, out: Path) -> list[Path]:
    """Write every file with mode 0600 (directories 0700); returns the paths written."""
    written = []
    out.mkdir(parents=True, exist_ok=True)
    out.chmod(0o700)
    for rel, text in sorted(bundle.files.items()):
        path = out / rel
        for parent in reversed(Path(rel).parents[:-1]):
            (out / parent).mkdir(exist_ok=True)
            (out / parent).chmod(0o700)
        tmp = path.with_name(path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        tmp.chmod(0o600)
        tmp.replace(path)
        written.append(path)
    return written


def renew_bundle(
    out: Path, topics: Topics, tables: int, *, host: str = "hub.local", judges: int = 2
) -> Bundle:
    """The venue's bundle in ``out`` for ``tables`` tables, every secret an earlier run
    left there kept (and its HTTPS certificate, if it made one): what ``--out`` on the
    same folder does, for ``rummikub hall cards``."""
    if out.exists() and not out.is_dir():
        raise CredentialsError(N_("--out {out}: exists and is not a directory"), out=out)
    known = read_known(out / "accounts.tsv")
    accounts = make_accounts(tables, screens=1, dashboards=2, known=known) + make_web_accounts(
        judges, known=known
    )
    web_tls = None
    if (out / CA_FILE).is_file():
        web_tls = web_certificate(out, [host], topics.venue, rotate=False)
    bundle = make_bundle(topics, accounts, host=host, web_tls=web_tls,
                         web_hashes=earlier_web_hashes(out / "hub/web-accounts.toml"))
    write_bundle(bundle, out)
    return bundle


def web_certificate(out: Path, names: Sequence[str], venue: str, *, rotate: bool) -> Issued:
    """The web console's certificate for ``names``, signed by the CA an earlier run left
    in ``out`` (a new CA when there is none, or with ``rotate``)."""
    ca_cert, ca_key = out / CA_FILE, out / "web/ca-key.pem"
    ca = None
    if not rotate and ca_cert.is_file() and ca_key.is_file():
        try:
            ca = (ca_cert.read_text(encoding="ascii"), ca_key.read_text(encoding="ascii"))
        except (OSError, UnicodeDecodeError) as err:
            raise CredentialsError(
                N_("{file}: cannot read: {reason}"), file=ca_cert, reason=str(err)
            ) from None
    return issue(names, venue=venue, ca=ca)


# --- command line ------------------------------------------------------------------------------


def build_parser(words: Words | None = None) -> argparse.ArgumentParser:
    """The options, their help in ``words``' language (default: as
    :func:`tablekit.shared.i18n.choose` finds it)."""
    w = words if words is not None else i18n.words(i18n.choose(None, os.environ))
    _ = w.gettext
    p = argparse.ArgumentParser(
        prog=PROG,
        description=_("Generate broker accounts, the Mosquitto password file and ACL, and "
                      "each table unit's config for a venue: the same for every event it "
                      "plays."),
    )
    p.add_argument("--tables", type=int, help=_("number of table units (table-01 …)"))
    p.add_argument("--venue", help=_("topic level: the venue"))
    p.add_argument(
        "--event",
        help=_("topic level: the event the hub serves first (later ones: its config's event; "
               "the units follow the hub)"),
    )
    p.add_argument("--out", type=Path, help=_("bundle directory (reused secrets are kept)"))
    p.add_argument("--host", default="hub.local", help=_("the hub as the units reach it"))
    p.add_argument("--port", type=int, default=1883, help=_("the broker's main listener"))
    p.add_argument(
        "--local-port",
        type=int,
        default=0,
        help=_("opt-in loopback listener admitting anonymous read-only clients, for local "
               "tools (default 0 = none; the hub screen logs in with its own account)"),
    )
    p.add_argument(
        "--websockets-port", type=int, default=0, help=_("websockets listener (0 = none)")
    )
    p.add_argument("--screens", type=int, default=1, help=_("read-only accounts screen[-N]"))
    p.add_argument(
        "--dashboards", type=int, default=2,
        help=_("read-only accounts dashboard-N, e.g. for rummikub round status (default 2)"),
    )
    p.add_argument(
        "--judges", type=int, default=2,
        help=_("the judges' accounts of the web console, judge-N (default 2; and one "
               "organizer)"),
    )
    p.add_argument("--rotate", action="store_true",
                   help=_("new secrets for every account (and a new CA with --https)"))
    p.add_argument(
        "--https", action="store_true",
        help=_("also make a CA and the web console's certificate: it then serves HTTPS"),
    )
    p.add_argument(
        "--web-name", action="append", default=[], metavar="NAME",
        help=_("a host name or address the devices reach the web console by, for its "
               "certificate (repeat it; default: --host)"),
    )
    p.add_argument(
        "--print-broker-config",
        action="store_true",
        help=_("print the Mosquitto config for these ports and exit"),
    )
    p.add_argument(
        "--lang", metavar="pl|en", choices=tuple(i18n.LANGUAGES),
        help=_("the language of its help and errors: pl or en (default: LANG's, else Polish)"),
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    words, parser, args = parse_in_language(
        list(sys.argv[1:] if argv is None else argv), build_parser
    )
    _ = words.gettext
    try:
        broker = MosquittoSettings(
            port=args.port, local_port=args.local_port, websockets_port=args.websockets_port
        )
        if args.print_broker_config:
            sys.stdout.write(broker_config(broker))
            return 0
        missing = [f"--{n}" for n in ("tables", "venue", "event", "out") if not getattr(args, n)]
        if missing:
            with speaking(words):
                parser.error(_("missing {options}").format(options=", ".join(missing)))
        try:
            topics = Topics(args.venue, args.event)
        except TopicNameError as err:
            raise CredentialsError(err.template, **err.values) from None
        out: Path = args.out
        if out.exists() and not out.is_dir():
            raise CredentialsError(N_("--out {out}: exists and is not a directory"), out=out)
        known = {} if args.rotate else read_known(out / "accounts.tsv")
        accounts = make_accounts(
            args.tables, screens=args.screens, dashboards=args.dashboards, known=known
        ) + make_web_accounts(args.judges, known=known)
        web_tls = None
        if args.https:
            web_tls = web_certificate(out, args.web_name or [args.host], args.venue,
                                      rotate=args.rotate)
        elif args.web_name:
            with speaking(words):
                parser.error(_("--web-name goes with --https"))
        earlier = {} if args.rotate else earlier_web_hashes(out / "hub/web-accounts.toml")
        bundle = make_bundle(topics, accounts, host=args.host, broker=broker, web_tls=web_tls,
                             web_hashes=earlier)
        write_bundle(bundle, out)
    except (CredentialsError, CertificateError) as err:
        print(f"{PROG}: {error_text(err, words)}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"{PROG}: {error_text(err, words)}", file=sys.stderr)
        return 1
    kept = sum(1 for a in accounts if a.username in known)
    print(
        words.ngettext(
            "{out}: {n} account ({tables} tables; {kept} secrets kept, {new} new) for {base}/",
            "{out}: {n} accounts ({tables} tables; {kept} secrets kept, {new} new) for {base}/",
            len(accounts),
        ).format(
            out=out, n=len(accounts), tables=args.tables, kept=kept, new=len(accounts) - kept,
            base=f"{TOPIC_PREFIX}/{topics.venue}",
        )
    )
    print(_("  hub Pi:   sudo deploy/provision-hub.sh --bundle {out}").format(out=out))
    print(
        _("  table N:  sudo deploy/provision-unit.sh --bundle {out}/units/table-NN").format(
            out=out
        )
    )
    print(
        _("  web console: the organizer, the head judge and {judges} judge(s); their "
          "passwords are in {file} (roles web-organizer, web-head-judge, web-judge)").format(
            judges=args.judges, file=out / "accounts.tsv"
        )
    )
    if web_tls is not None:
        print(_("  web console: HTTPS for {names}; devices install {ca}").format(
            names=", ".join(args.web_name or [args.host]), ca=out / CA_FILE))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""One way to reach the MQTT broker: :class:`BrokerSettings` and the paho client built from it.

Every program of the kit talks to Mosquitto through a client made by :func:`make_client`
(the table unit's link, the hub service, the hub screen's feed, the organizer's live views,
the demo), so login, TLS, the MQTT version, keepalive and reconnect delays mean the same
everywhere and have one set of defaults:

==================  =============  ==============================================================
field               default        meaning
==================  =============  ==============================================================
``host``            ``127.0.0.1``  the broker's address
``port``            ``1883``       its port (a TLS listener is usually 8883)
``username``        none           the broker account; none: anonymous
``password_file``   none           a file holding the account's password (needs ``username``)
``tls``             ``false``      TLS to the broker; without ``ca_file`` the system's CAs
``ca_file``         none           the CA that signed the broker's certificate (PEM; needs ``tls``)
``cert_file``       none           a client certificate (PEM; needs ``tls``), for brokers that ask
``key_file``        none           its private key, when ``cert_file`` does not hold it
``mqtt_version``    ``5``          5 (Mosquitto) or 3 for MQTT 3.1.1 (the demo's embedded amqtt)
``keepalive``       ``15``         seconds; the broker declares a silent client lost after ~1.5×
``client_id``       ``""``         empty: the program's own (unique per program, venue and table)
==================  =============  ==============================================================

Reconnects wait 1 s, doubling up to :data:`RECONNECT_DELAY`'s 8 s. ``read_secret`` reads a
password file with a one-line reason when it cannot; ``no_delay`` turns Nagle's algorithm
off on a connected client.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import msgspec
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from tablekit.core.errors import KitError
from tablekit.core.words import N_

RECONNECT_DELAY = (1, 8)
"""Seconds paho waits before reconnecting: the first try, then doubling up to the second."""


class BrokerSettingsError(KitError, ValueError):
    """Broker settings that cannot be used; the message names the field or file."""


class BrokerSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Where the broker is and how to log in (the table above)."""

    host: str = "127.0.0.1"
    port: int = 1883
    username: str | None = None
    password_file: str | None = None
    tls: bool = False
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None
    mqtt_version: Literal[3, 5] = 5
    keepalive: int = 15
    client_id: str = ""

    def __post_init__(self) -> None:
        _check(bool(self.host.strip()), N_("host: must name the broker, got an empty string"))
        _check(1 <= self.port <= 65535, N_("port: must be 1 to 65535, got {got}"), got=self.port)
        _check(
            5 <= self.keepalive <= 3600, N_("keepalive: must be 5 to 3600 s, got {got}"),
            got=self.keepalive,
        )
        if self.username is not None:
            _check(bool(self.username.strip()), N_("username: empty; leave it out for no login"))
        _check(
            self.password_file is None or self.username is not None,
            N_("password_file: needs a username"),
        )
        for name in ("ca_file", "cert_file", "key_file"):
            _check(
                getattr(self, name) is None or self.tls,
                N_("{name}: needs tls = true"), name=name,
            )
        _check(
            self.key_file is None or self.cert_file is not None,
            N_("key_file: needs cert_file (the certificate it is the key of)"),
        )
        _check(
            len(self.client_id) <= 64,
            N_("client_id: at most 64 characters, got {length}"), length=len(self.client_id),
        )

    @property
    def where(self) -> str:
        """``host:port``, with `` (TLS)`` when it is on: for messages."""
        return f"{self.host}:{self.port}{' (TLS)' if self.tls else ''}"


def _check(ok: bool, template: str, /, **values: object) -> None:
    if not ok:
        raise BrokerSettingsError(template, **values)


@dataclass(frozen=True)
class Will:
    """The message the broker publishes for a client that vanishes (MQTT's Last Will)."""

    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = True


def read_secret(path: str | Path, where: str) -> str:
    """The secret in file ``path``; :class:`BrokerSettingsError` with a one-line reason
    naming ``where`` (the option or config field) when it is missing, unreadable, not
    text or empty."""
    try:
        secret = Path(path).read_text(encoding="utf-8").strip()
    except OSError as err:
        raise BrokerSettingsError(
            N_("{where} {file}: cannot read it: {reason}"),
            where=where, file=path, reason=err.strerror or err,
        ) from None
    except UnicodeDecodeError:
        raise BrokerSettingsError(
            N_("{where} {file}: not UTF-8 text"), where=where, file=path
        ) from None
    if not secret:
        raise BrokerSettingsError(N_("{where} {file}: the file is empty"), where=where, file=path)
    return secret


def tls_context(settings: BrokerSettings, section: str = "broker") -> ssl.SSLContext:
    """The TLS context of ``settings``: the broker's certificate checked against
    ``ca_file`` (else the system's CAs) and its host name; the client certificate if given."""
    field = f"{section}.ca_file"
    try:
        context = ssl.create_default_context(cafile=settings.ca_file)
        if settings.cert_file is not None:
            field = f"{section}.cert_file"
            context.load_cert_chain(settings.cert_file, settings.key_file)
    except (OSError, ssl.SSLError) as err:
        path = settings.ca_file if field.endswith("ca_file") else settings.cert_file
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise BrokerSettingsError(
            N_("{field} {file}: cannot use it: {reason}"), field=field, file=path, reason=reason
        ) from None
    return context


def check_files(settings: BrokerSettings, section: str = "broker") -> None:
    """:class:`BrokerSettingsError` when the password file or a TLS file cannot be used:
    a program checks its settings before it makes any file of its own."""
    if settings.username is not None and settings.password_file is not None:
        read_secret(settings.password_file, f"{section}.password_file")
    if settings.tls:
        tls_context(settings, section)


def make_client(
    settings: BrokerSettings,
    client_id: str,
    *,
    section: str = "broker",
    persistent: bool = False,
    manual_ack: bool = False,
    will: Will | None = None,
    reconnect_delay: tuple[int, int] = RECONNECT_DELAY,
) -> mqtt.Client:
    """A paho 2.x client set up from ``settings``: protocol, login, TLS, reconnect delays
    and the ``will``; not connected yet (:func:`connect`).

    ``client_id`` is the program's own, used unless ``settings.client_id`` names one.
    ``persistent``: the broker keeps the session (and queues QoS 1 messages) while the
    client is away. ``section`` names the settings in errors (``link.password_file …``).
    Raises :class:`BrokerSettingsError` when the password file or a TLS file cannot be used.
    """
    v5 = settings.mqtt_version == 5
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=settings.client_id or client_id,
        clean_session=None if v5 else not persistent,
        protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311,
        manual_ack=manual_ack,
    )
    client.suppress_exceptions = True
    client.reconnect_delay_set(*reconnect_delay)
    if settings.username is not None:
        password = None
        if settings.password_file is not None:
            password = read_secret(settings.password_file, f"{section}.password_file")
        client.username_pw_set(settings.username, password)
    if settings.tls:
        client.tls_set_context(tls_context(settings, section))
    if will is not None:
        client.will_set(will.topic, will.payload, will.qos, retain=will.retain)
    return client


def connect(
    client: mqtt.Client,
    settings: BrokerSettings,
    *,
    session_expiry: int | None = None,
    blocking: bool = False,
    keepalive: int | None = None,
) -> None:
    """Connect ``client`` to the broker of ``settings``: in the background (paho's
    network thread retries; ``loop_start`` it), or at once when ``blocking`` (OSError
    when the broker cannot be reached). ``session_expiry``: on MQTT 5, seconds the broker
    keeps a persistent client's session (MQTT 3.1.1 keeps it as the broker is set up).
    ``keepalive`` overrides the settings' (tests use short ones)."""
    alive = settings.keepalive if keepalive is None else keepalive
    clean_start: bool | Literal[3] = mqtt.MQTT_CLEAN_START_FIRST_ONLY
    props = None
    if settings.mqtt_version == 5 and session_expiry is not None:
        clean_start = False
        props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        props.SessionExpiryInterval = session_expiry
    if blocking:
        client.connect(
            settings.host, settings.port, alive, clean_start=clean_start, properties=props
        )
    else:
        client.connect_async(
            settings.host, settings.port, alive, clean_start=clean_start, properties=props
        )


def no_delay(client: mqtt.Client) -> None:
    """Turn Nagle's algorithm off: paho leaves it on, and a small PUBLISH waiting for
    the TCP ACK of our previous PUBACK costs up to the peer's delayed-ACK time (~40 ms)."""
    sock = client.socket()
    if isinstance(sock, ssl.SSLSocket | socket.socket) and sock.family in (
        socket.AF_INET, socket.AF_INET6
    ):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def disconnect(client: mqtt.Client) -> None:
    """Say goodbye to the broker (so it publishes no Will) and stop paho's network thread.

    paho's ``loop_stop`` reads the client's thread twice, and the thread, ending on its own
    after the DISCONNECT, clears it in between (eclipse-paho/paho.mqtt.python#872): the
    ``AttributeError`` of that race means the thread has already ended.
    """
    client.disconnect()
    with contextlib.suppress(AttributeError):
        client.loop_stop()

"""Reading the retained messages at the venue's broker once (``round status`` and
``event hall`` with ``--broker``, the organizer's seeds from the league's season table):
one short subscription, what it gathered, the tables' live view folded from it."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import msgspec
import paho.mqtt.client as mqtt

from hub.league.wire import SeasonBoard, VenueLeagueTopics, board_decoder
from hub.live import LiveView
from tablekit.core.codec import DecodeError
from tablekit.core.errors import KitError
from tablekit.core.messages import TableSnapshot, UnitStatus
from tablekit.core.topics import Kind, Topics, decode_topic
from tablekit.core.words import N_
from tablekit.shared.broker import BrokerSettings, connect, make_client


class BrokerReadError(KitError):
    """The broker could not be read (unreachable, a refusal, no answer, nothing there)."""


LIVE_QUIET: Final = 0.3
"""Seconds without a new retained message after which the gathering stops."""
LIVE_LIMIT: Final = 2.0
"""Seconds at most spent gathering retained messages once subscribed."""
CONNECT_TIMEOUT: Final = 3.0


@dataclass(frozen=True)
class LiveSource:
    """Where the tables publish: the broker and the event's topic tree."""

    broker: BrokerSettings
    topics: Topics


def fold_retained(
    topics: Topics, messages: Iterable[tuple[str, bytes]], at: float
) -> tuple[LiveView, int]:
    """The live view of the tables' retained state and status messages gathered at hub
    time ``at`` (pure), and how many messages were not valid protocol messages."""
    live = LiveView()
    ignored = 0
    for topic, payload in messages:
        if not payload:
            continue  # a cleared retained message
        try:
            _, message = decode_topic(topics, topic, payload)
        except DecodeError:
            ignored += 1
            continue
        if isinstance(message, TableSnapshot):
            live = live.with_snapshot(message, at, retained=True)
        elif isinstance(message, UnitStatus):
            live = live.with_status(message, at)
    return live, ignored


class _Gather:
    """paho callbacks of :func:`gather_retained`, run in the caller's thread by
    ``client.loop``: retained messages by topic, the last one kept."""

    def __init__(self, filters: Sequence[str], where: str) -> None:
        self.filters = filters
        self.where = where
        """The broker, as its refusals name it."""
        self.refused: BrokerReadError | None = None
        self.connected = False
        self.subscribed_at: float | None = None
        self.last_at = 0.0
        self.messages: dict[str, bytes] = {}

    def on_connect(
        self, client: mqtt.Client, userdata: object, flags: Any, reason: Any, props: Any = None
    ) -> None:
        if getattr(reason, "is_failure", False):
            self.refused = BrokerReadError(
                N_("the MQTT broker at {where} refused the connection ({reason})"),
                where=self.where,
                reason=str(reason),
            )
            return
        self.connected = True
        client.subscribe([(topic, 1) for topic in self.filters])

    def on_subscribe(
        self, client: mqtt.Client, userdata: object, mid: int, reasons: Any, props: Any = None
    ) -> None:
        if any(getattr(r, "is_failure", False) for r in reasons):
            self.refused = BrokerReadError(
                N_("the MQTT broker at {where} refused the subscription to the "
                   "tables' topics"),
                where=self.where,
            )
            return
        self.subscribed_at = self.last_at = time.monotonic()

    def on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        if msg.retain:
            self.messages[msg.topic] = bytes(msg.payload)
            self.last_at = time.monotonic()


def gather_retained(
    source: LiveSource,
    *,
    quiet: float = LIVE_QUIET,
    limit: float = LIVE_LIMIT,
    connect_timeout: float = CONNECT_TIMEOUT,
    filters: Sequence[str] | None = None,
) -> list[tuple[str, bytes]]:
    """Connect (a fresh client id, a clean session), subscribe to every
    table's state and status, collect the retained messages until none has come for
    ``quiet`` seconds (at most ``limit`` seconds), disconnect (``filters``: other topics
    than the tables' states and statuses). BrokerReadError when the broker
    cannot be reached, refuses, or does not answer within ``connect_timeout``."""
    where = source.broker.where
    topics = source.topics
    gather = _Gather(
        list(filters) if filters is not None
        else [f"{topics.base}/table/+/{Kind.STATE}", f"{topics.base}/table/+/{Kind.STATUS}"],
        where,
    )
    closed = BrokerReadError(
        N_("the MQTT broker at {where} closed the connection"), where=where
    )
    client = make_client(source.broker, f"rk-status-{secrets.token_hex(6)}")
    client.connect_timeout = connect_timeout
    client.on_connect = gather.on_connect
    client.on_subscribe = gather.on_subscribe
    client.on_message = gather.on_message
    try:
        connect(client, source.broker, blocking=True)
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise BrokerReadError(
            N_("cannot reach the MQTT broker at {where}: {reason}"),
            where=where,
            reason=reason,
        ) from None
    try:
        deadline = time.monotonic() + connect_timeout
        while gather.subscribed_at is None:
            if gather.refused is not None:
                raise gather.refused
            if time.monotonic() > deadline:
                if gather.connected:
                    raise BrokerReadError(
                        N_("the MQTT broker at {where} did not confirm the "
                           "subscription within {seconds} s"),
                        where=where,
                        seconds=f"{connect_timeout:g}",
                    )
                raise BrokerReadError(
                    N_("the MQTT broker at {where} did not confirm the "
                       "connection within {seconds} s"),
                    where=where,
                    seconds=f"{connect_timeout:g}",
                )
            if client.loop(0.05) != mqtt.MQTT_ERR_SUCCESS and gather.refused is None:
                raise closed
        stop_at = gather.subscribed_at + limit
        while True:
            now = time.monotonic()
            if now - gather.last_at >= quiet or now >= stop_at:
                break
            if client.loop(0.05) != mqtt.MQTT_ERR_SUCCESS:
                raise closed
    finally:
        client.disconnect()
    return sorted(gather.messages.items())


def season_board(source: LiveSource) -> SeasonBoard:
    """The season table the central league service keeps at the venue's broker
    (retained); BrokerReadError when it has none yet or it cannot be read."""
    topic = VenueLeagueTopics(source.topics.venue).season
    got = dict(gather_retained(source, filters=[topic]))
    if not got.get(topic):
        raise BrokerReadError(
            N_("the broker at {where} has no season table from the "
               "league yet (the bridge to the central has not brought it)"),
            where=source.broker.where,
        )
    try:
        return board_decoder.decode(got[topic])
    except (msgspec.DecodeError, ValueError) as err:
        raise BrokerReadError(
            N_("the season table from the league cannot be read: {error}"), error=str(err)
        ) from None

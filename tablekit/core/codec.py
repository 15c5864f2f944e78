"""Encoding and strict decoding of the protocol's messages (:mod:`tablekit.core.messages`).

Decoding is strict: oversize payloads are refused before they are parsed; unknown fields
(of a unit message), wrong types and out-of-range numbers are refused with a
:class:`DecodeError` whose ``reason`` names what is wrong and where (``- at `$.event.used```)
and whose ``code`` sorts it for the hub's counters and refusals. A message that decodes is
safe to use.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final, TypeVar

import msgspec

from tablekit.core.errors import KitError
from tablekit.core.fields import EPOCH_PATTERN, MAX_SEQ, UNIT_ID_PATTERN
from tablekit.core.messages import MAX_PAYLOAD, MAX_PAYLOAD_OF, PROTOCOL_VERSION, unit_id_of
from tablekit.core.words import N_


class DecodeError(KitError, ValueError):
    """A payload or topic that does not conform to the protocol; ``reason`` says why (in
    English: what the refusal log keeps and a unit is answered; :meth:`message` in the
    reader's language)."""

    def __init__(self, template: str, /, code: str = "invalid", **values: object) -> None:
        super().__init__(template, **values)
        self.reason = str(self)
        self.code = code
        """A category for counters: topic, oversize, json, version, invalid, range, table,
        identity (a payload claiming another unit than its topic's)."""


# The reasons of a refusal: templates, so a reason stored in English is shown in the
# reader's language (tablekit.core.topics.reason_words).
OVERSIZE: Final = N_("{kind}: payload of {size} bytes exceeds {limit}")
MSGSPEC_SAYS: Final = N_("{kind}: {reason}")
"""msgspec's own words for a payload that is not JSON or not the message (its English)."""
NO_VERSION: Final = N_("{kind}: missing the protocol version field `v`")
OTHER_VERSION: Final = N_(
    "{kind}: unsupported protocol version {version!r} (this end speaks {ours})"
)
OUT_OF_RANGE: Final = N_("{kind}: {expected}{got} - at `{path}`")
OTHER_TABLE: Final = N_(
    "{kind}: payload is for table {claimed} but was published on the topic of table {table}"
)
OTHER_UNIT: Final = N_(
    "{kind}: payload claims unit {unit!r} but the topic of table {table} belongs to unit "
    "{owner!r}"
)
REASONS: Final = (OVERSIZE, NO_VERSION, OTHER_VERSION, OUT_OF_RANGE, OTHER_TABLE, OTHER_UNIT)
"""The codec's reasons, the most particular first (:data:`MSGSPEC_SAYS` fits any)."""


T = TypeVar("T")


class _Peek(msgspec.Struct):
    v: Any = None


_peek_decoder: Final = msgspec.json.Decoder(_Peek)
_decoders: dict[type[Any], msgspec.json.Decoder[Any]] = {}
_encoder: Final = msgspec.json.Encoder()
_EVENT_RANGE: Final = re.compile(
    r"(?P<expected>Expected `(int|float)` [<>]=? \S+) - at `(?P<path>\$\.event[.\[][^`]*)`$"
)
"""msgspec's words for a number of a unit's event out of its range (``range``, not
``invalid``: the event is well formed, a number in it is not one the hub takes)."""
_STEP: Final = re.compile(r"\.(\w+)|\[(\d+)\]")


def encode(message: msgspec.Struct) -> bytes:
    """The JSON payload of a message (compact, UTF-8)."""
    return _encoder.encode(message)


def prepare(kinds: Iterable[type[Any]]) -> None:
    """Build the decoders of ``kinds`` now, once (:mod:`tablekit.core.topics` prepares
    every message type of the protocol at import, before any thread runs).

    msgspec works out how to decode a type when its first decoder is built, calling back
    into Python (``typing``), so another thread may run meanwhile: under arm64 emulation a
    thread decoding while another built a decoder crashed the interpreter.
    """
    for kind in kinds:
        if kind not in _decoders:
            _decoders[kind] = msgspec.json.Decoder(kind)


def decoder_for(kind: type[Any]) -> msgspec.json.Decoder[Any]:
    """The decoder of message type ``kind``: the one :func:`prepare` built, else one made
    for this call alone (a type outside the protocol, which only tests and tools decode:
    the programs' threads decode the protocol's messages)."""
    decoder = _decoders.get(kind)
    return decoder if decoder is not None else msgspec.json.Decoder(kind)


def decode(kind: type[T], payload: bytes | bytearray | memoryview) -> T:
    """Decode ``payload`` as message type ``kind``, strictly; DecodeError with a reason."""
    limit = MAX_PAYLOAD_OF.get(kind, MAX_PAYLOAD)
    if len(payload) > limit:
        raise DecodeError(
            OVERSIZE, code="oversize", kind=kind.__name__, size=len(payload), limit=limit
        )
    try:
        message: T = decoder_for(kind).decode(payload)
    except msgspec.DecodeError as err:
        _check_version(kind, payload)  # a message of another version: say that first
        reason = _reason(err)
        out_of_range = _EVENT_RANGE.fullmatch(reason)
        if out_of_range is None:
            raise DecodeError(MSGSPEC_SAYS, kind=kind.__name__, reason=reason) from None
        expected, path = out_of_range["expected"], out_of_range["path"]
        got = _value_at(payload, path)
        raise DecodeError(
            OUT_OF_RANGE, code="range", kind=kind.__name__, expected=expected, got=got,
            path=path,
        ) from None
    if getattr(message, "v", None) != PROTOCOL_VERSION:
        _check_version(kind, payload)
    return message


def _check_version(kind: type[Any], payload: bytes | bytearray | memoryview) -> None:
    """DecodeError when ``payload`` is not JSON, lacks the version or has another one."""
    name = kind.__name__
    try:
        version = _peek_decoder.decode(payload).v
    except msgspec.DecodeError as err:
        raise DecodeError(MSGSPEC_SAYS, code="json", kind=name, reason=_reason(err)) from None
    if version is None:
        raise DecodeError(NO_VERSION, code="version", kind=name)
    if type(version) is not int or version != PROTOCOL_VERSION:
        raise DecodeError(
            OTHER_VERSION, code="version", kind=name, version=version, ours=PROTOCOL_VERSION
        )


def _value_at(payload: bytes | bytearray | memoryview, path: str) -> str:
    """``, got 100000.0``: the value at ``path`` (msgspec's ``$.event.racks[1].tiles``), the
    number a refusal names beside its limit; empty if the payload does not show it (not
    JSON beyond the failing field)."""
    try:
        value: Any = msgspec.json.decode(payload)
        for name, index in _STEP.findall(path[1:]):
            value = value[name] if name else value[int(index)]
    except (msgspec.DecodeError, LookupError, TypeError):
        return ""
    return f", got {msgspec.json.encode(value).decode()}"


class _EnvelopePeek(msgspec.Struct):
    unit: Any = None
    seq: Any = None
    epoch: Any = ""


_envelope_peek: Final = msgspec.json.Decoder(_EnvelopePeek)


def peek_envelope(payload: bytes | bytearray | memoryview) -> tuple[str, int, str] | None:
    """``(unit, seq, epoch)`` of an event payload that did not decode, when they are well
    formed (a missing epoch is the empty one): the hub answers such an event with a
    :class:`Refusal` naming its seq."""
    if len(payload) > MAX_PAYLOAD:
        return None
    try:
        peek = _envelope_peek.decode(payload)
    except msgspec.DecodeError:
        return None
    unit, seq = peek.unit, peek.seq
    if not isinstance(unit, str) or not re.match(UNIT_ID_PATTERN, unit):
        return None
    if type(seq) is not int or not 1 <= seq <= MAX_SEQ:
        return None
    epoch = peek.epoch
    if not isinstance(epoch, str) or not re.match(EPOCH_PATTERN, epoch):
        return None
    return unit, seq, epoch


def checked(message: T) -> T:
    """``message`` itself if a receiver would accept it, else :class:`DecodeError` with the
    reason: msgspec constructors do not enforce field limits, decoding does."""
    return decode(type(message), encode(message))  # type: ignore[arg-type]


def check_identity(message: object, table: int) -> None:
    """DecodeError unless a message on table ``table``'s topic names that table and unit."""
    name = type(message).__name__
    claimed = getattr(message, "table", None)
    if claimed is not None and claimed != table:
        raise DecodeError(
            OTHER_TABLE,
            code="table", kind=name, claimed=claimed, table=table,
        )
    unit = getattr(message, "unit", None)
    if unit is not None and unit != unit_id_of(table):
        raise DecodeError(
            OTHER_UNIT,
            code="identity", kind=name, unit=unit, table=table, owner=unit_id_of(table),
        )


def _reason(err: msgspec.DecodeError) -> str:
    text = str(err)
    if "malformed" in text or "truncated" in text:
        return f"not valid JSON ({text})"
    return text

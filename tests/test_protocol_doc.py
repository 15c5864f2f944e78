"""docs/protocol.md against the code: the generated reference, every example, the
versioning rule and the unit's MQTT session settings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgspec
import paho.mqtt.client as mqtt
import pytest

from hub.service import SESSION_EXPIRY
from tablekit.config import LinkSettings
from tablekit.core.codec import DecodeError, check_identity, decode, encode
from tablekit.core.messages import WINDOW, Ack, Assignment, EventEnvelope, unit_id_of
from tablekit.journal import Journal
from tablekit.link import TableLink
from tablekit.protocol_doc import BEGIN, END, EVENTS, MESSAGES, reference, splice

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
BY_NAME = {cls.__name__: cls for cls in MESSAGES}


def test_the_message_reference_is_the_one_the_code_generates() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    assert splice(text, reference()) == text, (
        "docs/protocol.md disagrees with the code: run "
        "python -m tablekit.protocol_doc --write docs/protocol.md"
    )


def test_the_reference_lists_every_field_of_every_message() -> None:
    generated = reference()
    for cls in MESSAGES:
        section = generated.split(f"#### {cls.__name__}\n", 1)[1].split("\n#### ", 1)[0]
        for field in msgspec.structs.fields(cls):
            assert f"| `{field.encode_name}` |" in section, (cls.__name__, field.name)
    # the allowed values the first third-party unit had to guess
    for values in ("`could_have_opened`, `not_opened`, `opened`, `waived`",
                   "`nobody_out`, `went_out`", "`judge`, `player_call`, `recovered`"):
        assert values in generated
    assert "| `judge_override` | bool |" in generated


def examples() -> list[tuple[str, str]]:
    """Every ```json block of the document with the ### heading it stands under."""
    found = []
    heading = ""
    text = DOC.read_text(encoding="utf-8")
    for match in re.finditer(r"(?m)^### (?P<h>[^\n]+)$|^```json\n(?P<j>.*?)^```", text, re.S):
        if match.group("h") is not None:
            heading = match.group("h").strip()
        else:
            found.append((heading, match.group("j")))
    return found


def test_every_example_in_the_document_decodes_as_its_message() -> None:
    seen = set()
    for heading, body in examples():
        assert heading in BY_NAME, f"an example under {heading!r} names no message type"
        cls = BY_NAME[heading]
        if cls is EventEnvelope and isinstance(json.loads(body), list):
            continue  # the list of every kind of event (the next test)
        payload = json.dumps(json.loads(body)).encode()
        message = decode(cls, payload)
        table = getattr(message, "table", None)
        unit = getattr(message, "unit", None)
        if table is not None:
            check_identity(message, table)
        elif unit is not None:
            assert re.fullmatch(r"table-\d{2,3}", unit), (heading, unit)
        seen.add(cls)
    assert seen == set(MESSAGES), f"messages without an example: {set(MESSAGES) - seen}"


def test_the_document_shows_every_kind_of_unit_event_and_each_decodes() -> None:
    [events] = [json.loads(body) for heading, body in examples()
                if heading == EventEnvelope.__name__ and body.lstrip().startswith("[")]
    for seq, event in enumerate(events, start=1):
        payload = {"v": 1, "unit": unit_id_of(3), "table": 3, "seq": seq, "ts": 1.0,
                   "event": event}
        envelope = decode(EventEnvelope, json.dumps(payload).encode())
        assert encode(envelope.event).startswith(f'{{"type":"{event["type"]}"'.encode())
    kinds = {cls.__struct_config__.tag for cls in EVENTS}
    shown = [event["type"] for event in events]
    assert set(shown) == kinds, f"unit events without an example: {kinds - set(shown)}"
    assert len(shown) == len(kinds), "each kind of event once"


def test_older_units_ignore_fields_a_newer_hub_adds_and_the_hub_stays_strict() -> None:
    newer = {
        "v": 1, "table": 3, "game": 2, "hall_check": {"at": 5},
        "seats": [{"seat": s, "name": s * 3, "badge": 1} for s in "ABC"],
        "rules": {"move_seconds": 30.0, "clock_style": "fischer"},
    }
    assignment = decode(Assignment, json.dumps(newer).encode())
    assert assignment.rules.move_seconds == 30.0 and len(assignment.seats) == 3
    envelope = {
        "v": 1, "unit": unit_id_of(3), "table": 3, "seq": 1, "ts": 1.0, "extra": 1,
        "event": {"type": "move_timed_out", "game": 1, "move": 1, "seat": "A"},
    }
    with pytest.raises(DecodeError, match="unknown field `extra`"):
        decode(EventEnvelope, json.dumps(envelope).encode())
    text = DOC.read_text(encoding="utf-8")
    assert "**ignores fields it\n  does not know**" in text
    assert "**upgrade the hub first, then the units.**" in text


def test_the_session_settings_in_the_document_are_the_units(tmp_path: Path) -> None:
    settings = LinkSettings(host="127.0.0.1", venue="hall", event="cup")
    journal = Journal(tmp_path / "j.db", unit_id_of(7))
    link = TableLink(settings, journal, 7, unit_id_of(7), lambda _: None)
    text = DOC.read_text(encoding="utf-8")
    assert link.client._client_id == b"unit-hall-table-07"
    assert "| Client id | `unit-{venue}-table-NN` (the same in every event)" in text
    assert link.client._protocol == mqtt.MQTTv5 and "| MQTT version | 5 (" in text
    # MQTT 5 starts clean and keeps no session (no expiry given); 3.1.1 says clean_session.
    older = TableLink(
        msgspec.structs.replace(settings, mqtt_version=3), journal, 7, unit_id_of(7),
        lambda _: None,
    )
    assert older.client._clean_session is True and "| Session | **clean**" in text
    assert f"| Keepalive | {settings.keepalive} s" in text
    assert link.window == WINDOW and f"**window of {WINDOW}**" in text
    assert SESSION_EXPIRY == 7 * 24 * 3600 and "`SessionExpiryInterval` 7 days" in text
    journal.close()


class _AckOfRelease01(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Ack as units of version 0.1 decode it: strict, without ``refused``."""

    v: int
    unit: str
    upto: int
    resend_from: int | None = None


def test_units_of_the_release_before_refusals_still_take_the_hubs_acks() -> None:
    ack = Ack(v=1, unit=unit_id_of(2), upto=41)
    assert encode(ack) == b'{"v":1,"unit":"table-02","upto":41}'
    assert msgspec.json.decode(encode(ack), type=_AckOfRelease01).upto == 41
    resend = Ack(v=1, unit=unit_id_of(2), upto=41, resend_from=42)
    assert msgspec.json.decode(encode(resend), type=_AckOfRelease01).resend_from == 42
    assert decode(Ack, encode(Ack(v=1, unit="table-02", upto=41, refused=(40,)))).refused == (40,)

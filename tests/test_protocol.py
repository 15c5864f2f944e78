"""The protocol module: round trips, topics, strict rejection with reasons."""

from __future__ import annotations

import json
import re
import typing

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hub.league.wire import CentralTopics, VenueLeagueTopics
from tablekit.core.clock import ClockRules, MoveClock, Phase
from tablekit.core.clock_events import (
    ClockPaused,
    ClockResumed,
    GameEndReason,
    GameOver,
    GameStarted,
    LastLapSource,
    LastLapStarted,
    MovePassed,
    MoveRestarted,
    MoveTimedOut,
    PassUndone,
    PauseReason,
)
from tablekit.core.codec import DecodeError, decode, encode
from tablekit.core.messages import (
    MAX_BOARD_PAYLOAD,
    MAX_BOARD_ROWS,
    MAX_PAYLOAD,
    Ack,
    AnyUnitEvent,
    AssignedRules,
    Assignment,
    Broadcast,
    BroadcastKind,
    ConsoleLink,
    CurrentEvent,
    EventEnvelope,
    HallLanguage,
    HubStatus,
    ResultAck,
    RoundInfo,
    RoundProgress,
    SeatAssignment,
    SeatingBoard,
    SeatingLine,
    StandingLine,
    StandingsBoard,
    StatusReason,
    TableSnapshot,
    UnitStatus,
    envelope,
    idle_assignment,
    snapshot_of,
)
from tablekit.core.scoring import GameReport, RackReport
from tablekit.core.seats import Seat
from tablekit.core.topics import (
    SCREEN_KINDS,
    Cleared,
    Kind,
    TopicRef,
    Topics,
    decode_retained,
    decode_topic,
)

TOPICS = Topics("hall", "open2025")

ALL_EVENTS = [
    GameStarted(game=1, move=1, starter=Seat.A, seats=4, move_seconds=40.0),
    MovePassed(game=1, move=1, seat=Seat.A, used=12.5),
    MovePassed(game=1, move=2, seat=Seat.B, used=40.0, timed_out=True, overtime=3.25),
    MoveTimedOut(game=1, move=3, seat=Seat.C),
    ClockPaused(game=1, move=3, seat=Seat.C, reason=PauseReason.PLAYER_CALL, remaining=7.0),
    ClockPaused(game=1, move=3, seat=None, reason=PauseReason.RECOVERED, remaining=0.0),
    ClockResumed(game=1, move=3, seat=Seat.C, remaining=7.0, paused_for=60.0),
    MoveRestarted(game=1, move=3, seat=Seat.C, discarded=33.0),
    PassUndone(game=1, move=2, seat=Seat.B, remaining=11.0),
    LastLapStarted(game=1, move=4, source=LastLapSource.HUB, moves_left=4),
    GameOver(game=1, move=9, reason=GameEndReason.LAST_LAP_DONE, seat=Seat.A),
]

SEATS = (
    SeatAssignment(Seat.A, "Ann", "p1"),
    SeatAssignment(Seat.B, "Bob"),
    SeatAssignment(Seat.C, "Cy"),
    SeatAssignment(Seat.D, "Di"),
)


def other_messages() -> list[msgspec.Struct]:
    state = MoveClock(ClockRules(seats=3, move_seconds=30.0)).state
    return [
        snapshot_of(state, 0.0, 1.7e9, 3, "table-03"),
        UnitStatus(v=1, unit="table-03", table=3, online=False, reason=StatusReason.LOST, ts=1.7e9),
        HubStatus(v=1, online=True, reason=StatusReason.CONNECTED, ts=1.7e9),
        Assignment(v=1, table=3, game=2, seats=SEATS, starter=Seat.B),
        Assignment(
            v=1,
            table=3,
            game=1,
            seats=SEATS[:3],
            rules=AssignedRules(move_seconds=60.0, ruleset="002"),
            round=4,
            issued=1.7e9,
        ),
        Broadcast(v=1, id=7, kind=BroadcastKind.LAST_LAP, round=2, ts=1.7e9),
        Broadcast(v=1, id=8, kind=BroadcastKind.MESSAGE, text="Lunch at 13:00"),
        HallLanguage(v=1, language="pl"),
        HallLanguage(v=1, language="en"),
        ConsoleLink(v=1, url="http://rummikub.local:8080"),
        CurrentEvent(v=1, event="cup2026", ts=1.7e9),
        Ack(v=1, unit="table-03", upto=41),
        Ack(v=1, unit="table-03", upto=0, resend_from=1),
        ResultAck(v=1, unit="table-03", game=2, accepted=False, reason="seat B: 2 jokers"),
        *screen_messages(),
    ]


def screen_messages() -> list[msgspec.Struct]:
    return [
        RoundInfo(v=1, stage="Eliminations", round=2),
        RoundInfo(
            v=1, stage="Final", round=5, games=3, first_game=7, deadline=1.7e9, last_lap=True,
            closed=True, hide_standings=True,
        ),
        StandingsBoard(
            v=1, stage="Eliminations", after_round=1, final=True,
            rows=(
                StandingLine(place=1, name="Łukasz", big=3, small=120, games=3),
                StandingLine(place=2, name="Ann", big=1, small=-45, games=3),
                StandingLine(place=2, name="Bob", big=1, small=-45, games=3),
            ),
        ),
        StandingsBoard(v=1, stage="", after_round=0, rows=()),
        SeatingBoard(
            v=1, stage="Final", round=3,
            rows=(SeatingLine(name="Ann", table=12, seat="D"), SeatingLine("Bob", 1, "A")),
        ),
        RoundProgress(v=1, stage="Eliminations", round=2, finished=(1, 7, 999)),
        RoundProgress(v=1, stage="", round=0),
    ]


@pytest.mark.parametrize("event", ALL_EVENTS, ids=lambda e: type(e).__name__)
def test_every_clock_event_round_trips_in_an_envelope(event: object) -> None:
    env = envelope("table-03", 3, 17, 1_700_000_000.25, event)  # type: ignore[arg-type]
    payload = encode(env)
    assert decode(EventEnvelope, payload) == env
    ref, message = decode_topic(TOPICS, TOPICS.events(3), payload)
    assert ref == TopicRef(Kind.EVENTS, 3)
    assert message == env


@pytest.mark.parametrize("message", other_messages(), ids=lambda m: type(m).__name__)
def test_every_other_message_round_trips(message: msgspec.Struct) -> None:
    assert decode(type(message), encode(message)) == message


def test_topics_parse_back_to_their_kind_and_table() -> None:
    cases = {
        TOPICS.events(12): TopicRef(Kind.EVENTS, 12),
        TOPICS.state(1): TopicRef(Kind.STATE, 1),
        TOPICS.status(999): TopicRef(Kind.STATUS, 999),
        TOPICS.assign(5): TopicRef(Kind.ASSIGN, 5),
        TOPICS.ack(5): TopicRef(Kind.ACK, 5),
        TOPICS.result(5): TopicRef(Kind.RESULT, 5),
        TOPICS.broadcast: TopicRef(Kind.BROADCAST),
        TOPICS.hub_status: TopicRef(Kind.HUB_STATUS),
        TOPICS.language: TopicRef(Kind.LANGUAGE),
        TOPICS.console: TopicRef(Kind.CONSOLE),
        TOPICS.round: TopicRef(Kind.ROUND),
        TOPICS.standings: TopicRef(Kind.STANDINGS),
        TOPICS.seating: TopicRef(Kind.SEATING),
    }
    for topic, ref in cases.items():
        assert topic.startswith("rummikub/v1/hall/open2025/")
        assert TOPICS.parse(topic) == ref
    # the venue's own topic, above every event's
    assert TOPICS.current_event == "rummikub/v1/hall/hub/event"
    assert TOPICS.parse(TOPICS.current_event) == TopicRef(Kind.CURRENT_EVENT)


@pytest.mark.parametrize(
    ("topic", "reason"),
    [
        ("rummikub/v1/other/open2025/table/1/events", "is not under"),
        ("rummikub/v1/hall/open2025/table/1/chat", "unknown message kind"),
        ("rummikub/v1/hall/open2025/table/0/events", "table must be 1-999"),
        ("rummikub/v1/hall/open2025/table/007/events", "table must be 1-999"),
        ("rummikub/v1/hall/open2025/table/x/events", "table must be 1-999"),
        ("rummikub/v1/hall/open2025/hub/table/1/events", "unknown message kind"),
        ("rummikub/v1/hall/open2025/table/1/events/x", "not a protocol topic"),
        ("rummikub/v1/hall/open2025/hub/rounds", "not a protocol topic"),
        ("rummikub/v1/hall/open2025/hub/standings/1", "not a protocol topic"),
        ("rummikub/v1/hall/open2025/table/1/round", "unknown message kind"),
    ],
)
def test_bad_topics_are_refused_with_a_reason(topic: str, reason: str) -> None:
    with pytest.raises(DecodeError, match=reason) as err:
        TOPICS.parse(topic)
    assert err.value.code == "topic"


def test_topic_segments_are_checked() -> None:
    with pytest.raises(ValueError, match="venue"):
        Topics("hall/2", "x")
    with pytest.raises(ValueError, match="event"):
        Topics("hall", "+")
    for own in ("hub", "league"):  # the venue's own: rummikub/v1/hall/hub/event, …/league/…
        with pytest.raises(ValueError, match=f"event: '{own}' is taken by the venue's own"):
            Topics("hall", own)
        with pytest.raises(ValueError, match=f"event: '{own}' is taken by the venue's own"):
            VenueLeagueTopics("hall").up(own)  # the league's topics check levels alike
    assert VenueLeagueTopics("hall").up("open2025") == "rummikub/v1/hall/league/up/open2025"
    with pytest.raises(ValueError, match="venue: 1-32 letters"):
        CentralTopics("liga").ack("hall/2", "open2025")


def test_the_venues_current_event_is_announced_above_the_events() -> None:
    """Retained on the venue's ``hub/event``: every unit of the venue subscribes to it
    whatever event it follows, and the hub to see the event served before it; another
    event of the venue is told apart from a topic outside the venue."""
    payload = encode(CurrentEvent(v=1, event="league-1", ts=1.7e9))
    assert payload == b'{"v":1,"event":"league-1","ts":1700000000.0}'
    other = Topics("hall", "league-1")
    for topics in (TOPICS, other):
        ref, message = decode_topic(topics, TOPICS.current_event, payload)
        assert (ref.kind, message) == (Kind.CURRENT_EVENT, decode(CurrentEvent, payload))
        assert TOPICS.current_event in topics.unit_filters(3)
        assert TOPICS.current_event in topics.hub_filters()
    assert decode(CurrentEvent, b'{"v":1,"event":"cup","name":"Puchar"}').event == "cup"
    for bad in (b'{"v":1,"event":"a/b"}', b'{"v":1,"event":"-x"}', b'{"v":1}'):
        with pytest.raises(DecodeError, match="CurrentEvent: "):
            decode(CurrentEvent, bad)
    assert TOPICS.of_another_event(other.events(3)) and TOPICS.of_another_event(other.assign(3))
    assert not TOPICS.of_another_event(TOPICS.events(3))
    assert not TOPICS.of_another_event(TOPICS.current_event)
    assert not TOPICS.of_another_event("rummikub/v1/hall/league/ack/open2025")
    assert not TOPICS.of_another_event("rummikub/v1/gym/open2025/table/3/events")


GOOD = json.loads(encode(envelope("table-03", 3, 5, 1.7e9, ALL_EVENTS[1])))


def mutated(**changes: object) -> bytes:
    data = json.loads(json.dumps(GOOD))
    for path, value in changes.items():
        target = data
        keys = path.split("__")
        for key in keys[:-1]:
            target = target[key]
        if value is KeyError:
            del target[keys[-1]]
        else:
            target[keys[-1]] = value
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("payload", "code", "reason"),
    [
        (b"{not json", "json", "not valid JSON"),
        (b"", "json", "not valid JSON"),
        (b"[1,2]", "json", "Expected `object`"),
        (b"x" * (MAX_PAYLOAD + 1), "oversize", "exceeds 4096"),
        (mutated(v=2), "version", "unsupported protocol version 2"),
        (mutated(v="1"), "version", "unsupported protocol version '1'"),
        (mutated(v=KeyError), "version", "missing the protocol version"),
        (mutated(extra=1), "invalid", "unknown field `extra`"),
        (mutated(event__color="red"), "invalid", "unknown field `color`"),
        (mutated(seq=0), "invalid", "Expected `int` >= 1 - at `$.seq`"),
        (mutated(seq="5"), "invalid", "Expected `int`, got `str` - at `$.seq`"),
        (mutated(table=1000), "invalid", "<= 999 - at `$.table`"),
        (mutated(ts=-1), "invalid", "at `$.ts`"),
        (mutated(unit="a b"), "invalid", "at `$.unit`"),
        (mutated(unit=KeyError), "invalid", "missing required field `unit`"),
        (mutated(event__type="move_stolen"), "invalid", "Invalid value 'move_stolen'"),
        (mutated(event__seat="E"), "invalid", "at `$.event.seat`"),
        (mutated(event__used=True), "invalid", "got `bool` - at `$.event.used`"),
        (mutated(event__used=-1.0), "range", "`float` >= 0.0, got -1.0 - at `$.event.used`"),
        (mutated(event__used=1e6), "range", "<= 86400.0, got 1000000.0 - at `$.event.used`"),
        (mutated(event__game=0), "range", "Expected `int` >= 1, got 0 - at `$.event.game`"),
        (mutated(event__move=10**7), "range", "`int` <= 100000, got 10000000 - at `$.event.move`"),
        (b'{"v":1,"seq":1e999}', "invalid", "out of range"),
    ],
)
def test_strict_decoding_refuses_with_a_reason(payload: bytes, code: str, reason: str) -> None:
    with pytest.raises(DecodeError) as err:
        decode(EventEnvelope, payload)
    assert reason in err.value.reason
    assert err.value.code == code
    assert err.value.reason.startswith("EventEnvelope: ")


def test_the_halls_language_is_a_hub_message_of_its_own_topic() -> None:
    """Retained on ``hub/language``, for every unit and screen; a newer hub's fields are
    ignored, a code that is no language code refused."""
    payload = encode(HallLanguage(v=1, language="en"))
    assert payload == b'{"v":1,"language":"en"}'
    ref, message = decode_retained(TOPICS, TOPICS.language, payload)
    assert (ref, message) == (TopicRef(Kind.LANGUAGE), HallLanguage(v=1, language="en"))
    assert TOPICS.language in TOPICS.unit_filters(7) and TOPICS.language in TOPICS.screen_filters()
    newer = b'{"v":1,"language":"pl","since":1700000000.0,"dialect":{"region":"PL"}}'
    assert decode(HallLanguage, newer) == HallLanguage(v=1, language="pl")
    # a language the receiver does not speak still decodes: the receiver keeps its own
    assert decode(HallLanguage, b'{"v":1,"language":"de"}').language == "de"
    for bad in (b'{"v":1,"language":"PL"}', b'{"v":1,"language":"pl_PL"}', b'{"v":1}'):
        with pytest.raises(DecodeError, match="HallLanguage: ") as err:
            decode(HallLanguage, bad)
        assert err.value.code == "invalid"
    # cleared (the retained message deleted): no language from the hub
    assert decode_retained(TOPICS, TOPICS.language, b"")[1] == Cleared(Kind.LANGUAGE, None)


def test_the_consoles_address_is_a_hub_message_of_its_own_topic() -> None:
    """Retained on ``hub/console`` for every screen and unit (a unit of an earlier release
    does not subscribe to it); an address that is not http(s) with a host is refused."""
    payload = encode(ConsoleLink(v=1, url="https://10.0.9.1:8443/konsola"))
    ref, message = decode_retained(TOPICS, TOPICS.console, payload)
    assert ref == TopicRef(Kind.CONSOLE)
    assert message == ConsoleLink(v=1, url="https://10.0.9.1:8443/konsola")
    assert TOPICS.console in TOPICS.unit_filters(7) and TOPICS.console in TOPICS.screen_filters()
    newer = b'{"v":1,"url":"http://rummikub.local:8080","ssid":"Rummikub-Goscie"}'
    assert decode(ConsoleLink, newer) == ConsoleLink(v=1, url="http://rummikub.local:8080")
    for bad in ("rummikub.local:8080", "ftp://hub/", "http://", "http://hub /find",
                "javascript:alert(1)", "http://hub/\nx", "http://" + "a" * 200):
        with pytest.raises(DecodeError, match="ConsoleLink: ") as err:
            decode(ConsoleLink, json.dumps({"v": 1, "url": bad}).encode())
        assert err.value.code == "invalid", bad
    assert decode_retained(TOPICS, TOPICS.console, b"")[1] == Cleared(Kind.CONSOLE, None)


def test_payload_for_another_table_is_refused() -> None:
    payload = encode(envelope("table-03", 3, 5, 1.7e9, ALL_EVENTS[1]))
    with pytest.raises(DecodeError, match=r"for table 3 but was published on .* table 4") as err:
        decode_topic(TOPICS, TOPICS.events(4), payload)
    assert err.value.code == "table"


def test_assignment_is_validated() -> None:
    good = json.loads(encode(Assignment(v=1, table=3, game=1, seats=SEATS)))
    bad_order = {**good, "seats": [good["seats"][1], good["seats"][0], good["seats"][2]]}
    with pytest.raises(DecodeError, match="seats must be A,B,C in order, got B,A,C"):
        decode(Assignment, json.dumps(bad_order).encode())
    with pytest.raises(DecodeError, match="a table seats 3 or 4, got 2"):
        decode(Assignment, json.dumps({**good, "seats": good["seats"][:2]}).encode())
    # an idle assignment (no game at this table) has no seats, no game, no starter
    idle = decode(Assignment, encode(idle_assignment(3, 2, 1.7e9)))
    assert idle.idle and (idle.seats, idle.game, idle.round) == ((), None, 2)
    with pytest.raises(DecodeError, match="an idle assignment has no seats"):
        decode(Assignment, json.dumps({**good, "idle": True}).encode())
    with pytest.raises(DecodeError, match="names the game the table plays next"):
        decode(Assignment, json.dumps({**good, "game": None}).encode())
    three = {**good, "seats": good["seats"][:3], "starter": "D"}
    with pytest.raises(DecodeError, match="starter D is not a seat"):
        decode(Assignment, json.dumps(three).encode())
    with pytest.raises(DecodeError, match=re.escape("at `$.rules.move_seconds`")):
        decode(Assignment, json.dumps({**good, "rules": {"move_seconds": 0}}).encode())
    name = {**good["seats"][0], "name": "Ann\nDROP TABLE"}
    with pytest.raises(DecodeError, match=re.escape("seats[0].name")):
        decode(Assignment, json.dumps({**good, "seats": [name, *good["seats"][1:]]}).encode())


# --- hub → screen messages ---------------------------------------------------------------------


def test_screen_messages_travel_on_their_own_topics() -> None:
    base = "rummikub/v1/hall/open2025"
    assert [TOPICS.round, TOPICS.standings, TOPICS.seating, TOPICS.progress] == [
        f"{base}/hub/round", f"{base}/hub/standings", f"{base}/hub/seating",
        f"{base}/hub/progress",
    ]
    assert [TOPICS.screen(kind) for kind in SCREEN_KINDS] == [
        TOPICS.round, TOPICS.standings, TOPICS.seating, TOPICS.progress
    ]
    with pytest.raises(ValueError, match="not a screen message kind"):
        TOPICS.screen(Kind.STATE)
    assert TOPICS.screen_filters() == [
        f"{base}/table/+/state", f"{base}/table/+/status", f"{base}/hub/table/+/assign",
        f"{base}/hub/table/+/result", TOPICS.round, TOPICS.standings, TOPICS.seating,
        TOPICS.progress, f"{base}/hub/language", f"{base}/hub/console",
    ]
    for message in screen_messages():
        topic = {
            RoundInfo: TOPICS.round, StandingsBoard: TOPICS.standings,
            RoundProgress: TOPICS.progress,
        }.get(type(message), TOPICS.seating)
        ref, decoded = decode_topic(TOPICS, topic, encode(message))
        assert (ref.table, decoded) == (None, message)
    # Each topic carries its one type: a round on the standings topic is refused.
    with pytest.raises(DecodeError, match="StandingsBoard: Object missing required field"):
        decode_topic(TOPICS, TOPICS.standings, encode(screen_messages()[0]))


def test_screen_messages_keep_their_wire_format() -> None:
    """Field names and JSON as the hub has always sent them (the screens in the field)."""
    assert encode(RoundInfo(v=1, stage="Final", round=2, deadline=1.7e9)) == (
        b'{"v":1,"stage":"Final","round":2,"games":0,"first_game":1,"deadline":1700000000.0,'
        b'"last_lap":false,"closed":false,"hide_standings":false}'
    )
    line = StandingLine(place=1, name="Ann", big=2, small=-5, games=3)
    assert encode(StandingsBoard(v=1, stage="E", after_round=1, rows=(line,), final=True)) == (
        b'{"v":1,"stage":"E","after_round":1,'
        b'"rows":[{"place":1,"name":"Ann","big":2,"small":-5,"games":3}],"final":true}'
    )
    seat = SeatingLine(name="Ann", table=3, seat="B")
    assert encode(SeatingBoard(v=1, stage="E", round=2, rows=(seat,))) == (
        b'{"v":1,"stage":"E","round":2,"rows":[{"name":"Ann","table":3,"seat":"B"}]}'
    )


ROUND = b'{"v":1,"stage":"x","round":1}'
SEATING = b'{"v":1,"stage":"x","round":1,"rows":[%s]}'
STANDINGS = b'{"v":1,"stage":"x","after_round":1,"rows":[%s]}'
ROW = b'{"place":1,"name":"Ann","big":0,"small":0,"games":1}'


@pytest.mark.parametrize(
    ("kind", "payload", "code", "reason"),
    [
        (RoundInfo, b"not json", "json", "RoundInfo: not valid JSON"),
        (RoundInfo, b'{"stage":"x","round":1}', "version", "missing the protocol version"),
        (RoundInfo, ROUND.replace(b'"v":1', b'"v":2'), "version", "unsupported protocol version 2"),
        (RoundInfo, ROUND[:-1] + b',"closed":"yes"}', "invalid", "Expected `bool`"),
        (RoundInfo, ROUND.replace(b"1}", b"10000}"), "invalid", "<= 9999 - at `$.round`"),
        (RoundInfo, ROUND[:-1] + b',"first_game":0}', "invalid", "at `$.first_game`"),
        (RoundInfo, ROUND[:-1] + b',"deadline":-1}', "invalid", "at `$.deadline`"),
        (RoundInfo, ROUND.replace(b'"x"', b'"' + b"s" * 41 + b'"'), "invalid", "$.stage"),
        (RoundInfo, ROUND.replace(b'"x"', b'"a\\nb"'), "invalid", "$.stage"),
        (SeatingBoard, SEATING % b'{"name":"a","table":1,"seat":"E"}', "invalid",
         "at `$.rows[0].seat`"),
        (SeatingBoard, SEATING % b'{"name":"a","table":1000,"seat":"A"}', "invalid",
         "at `$.rows[0].table`"),
        (SeatingBoard, SEATING % b'{"name":"","table":1,"seat":"A"}', "invalid",
         "at `$.rows[0].name`"),
        (StandingsBoard, STANDINGS % ROW.replace(b'"place":1', b'"place":0'), "invalid",
         "at `$.rows[0].place`"),
        (StandingsBoard, STANDINGS % ROW.replace(b'"big":0', b'"big":2000000'), "invalid",
         "at `$.rows[0].big`"),
        (StandingsBoard, STANDINGS % b",".join([ROW] * (MAX_BOARD_ROWS + 1)), "invalid",
         "length <= 1000 - at `$.rows`"),
        (StandingsBoard, b"x" * (MAX_BOARD_PAYLOAD + 1), "oversize",
         f"exceeds {MAX_BOARD_PAYLOAD}"),
        (RoundInfo, b"x" * (MAX_PAYLOAD + 1), "oversize", f"exceeds {MAX_PAYLOAD}"),
    ],
)
def test_screen_messages_are_decoded_strictly(
    kind: type[msgspec.Struct], payload: bytes, code: str, reason: str
) -> None:
    with pytest.raises(DecodeError) as err:
        decode(kind, payload)
    assert reason in err.value.reason
    assert (err.value.code, err.value.reason.split(":")[0]) == (code, kind.__name__)


def test_boards_of_a_big_event_fit_their_limit() -> None:
    """Standings of 1000 players with long names decode; the units' 4 KiB would not do."""
    long_name = "Brzęczyszczykiewicz Agnieszka-Łucja " + "x" * 4
    rows = tuple(
        StandingLine(place=i + 1, name=long_name, big=-1000, small=-999_999, games=9999)
        for i in range(MAX_BOARD_ROWS)
    )
    payload = encode(StandingsBoard(v=1, stage="s" * 40, after_round=9999, rows=rows))
    assert MAX_PAYLOAD < len(payload) <= MAX_BOARD_PAYLOAD
    assert len(decode(StandingsBoard, payload).rows) == MAX_BOARD_ROWS
    seating = tuple(SeatingLine(name=long_name, table=999, seat="D") for _ in rows)
    payload = encode(SeatingBoard(v=1, stage="s" * 40, round=9999, rows=seating))
    assert MAX_PAYLOAD < len(payload) <= MAX_BOARD_PAYLOAD
    assert decode(SeatingBoard, payload).rows == seating


def test_snapshot_reports_the_clock_and_extrapolates() -> None:
    clock = MoveClock(ClockRules(seats=4, move_seconds=40.0))
    clock.press(100.0)  # game 1 starts, A to move
    clock.press(110.0)  # A used 10 s
    snap = snapshot_of(clock.state, 125.0, 1_700_000_000.0, 7, "u7")
    assert (snap.table, snap.unit, snap.game, snap.move) == (7, "u7", 1, 2)
    assert snap.phase is Phase.RUNNING and snap.active is Seat.B
    assert snap.remaining == 25.0 and snap.measured_at == 1_700_000_000.0
    assert snap.timeouts == (0, 0, 0, 0) and snap.seats == 4 and snap.move_seconds == 40.0
    assert snap.remaining_at(1_700_000_010.0) == 15.0
    assert snap.remaining_at(1_700_000_100.0) == 0.0
    clock.pause(126.0)
    paused = snapshot_of(clock.state, 200.0, 1_700_000_075.0, 7, "u7")
    assert paused.paused is PauseReason.JUDGE and not paused.running
    assert paused.remaining_at(1_700_009_999.0) == paused.remaining == 24.0
    clock.resume(201.0)
    clock.tick(226.0)
    timed_out = snapshot_of(clock.state, 230.0, 1_700_000_105.0, 7, "u7")
    assert timed_out.phase is Phase.TIME_UP and timed_out.timeouts == (0, 1, 0, 0)
    ready = snapshot_of(MoveClock(ClockRules(seats=3)).state, 0.0, 0.0, 1, "u1")
    assert ready.timeouts == (0, 0, 0) and ready.active is None


@given(
    unit=st.from_regex(r"\A[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\Z"),
    table=st.integers(1, 999),
    seq=st.integers(1, 2**53),
    ts=st.floats(0, 1e11),
    used=st.floats(0, 86_400),
)
def test_envelopes_round_trip_for_any_valid_values(
    unit: str, table: int, seq: int, ts: float, used: float
) -> None:
    env = envelope(unit, table, seq, ts, MovePassed(game=1, move=1, seat=Seat.D, used=used))
    assert decode(EventEnvelope, encode(env)) == env


@given(st.binary(max_size=300))
def test_random_bytes_never_escape_as_another_exception(payload: bytes) -> None:
    for kind in (EventEnvelope, TableSnapshot, Assignment, Ack):
        try:
            decode(kind, payload)
        except DecodeError as err:
            assert err.reason


def test_result_submission_travels_in_the_envelope_and_racks_are_range_checked() -> None:
    from tablekit.core.result import ResultSubmitted
    from tablekit.core.scoring import GameEnding

    report = GameReport(
        game=2,
        ending=GameEnding.WENT_OUT,
        racks=(
            RackReport(Seat.A, tiles=0),
            RackReport(Seat.B, tiles=17, jokers=1),
            RackReport(Seat.C, tiles=5),
        ),
    )
    env = EventEnvelope(
        v=1,
        unit="table-03",
        table=3,
        seq=9,
        ts=1.0,
        event=ResultSubmitted(game=2, move=40, report=report),
    )
    assert decode(EventEnvelope, encode(env)) == env
    bad = encode(env).replace(b'"tiles":17', b'"tiles":999')
    with pytest.raises(DecodeError) as err:
        decode(EventEnvelope, bad)
    assert err.value.reason.endswith("`int` <= 728, got 999 - at `$.event.report.racks[1].tiles`")
    assert err.value.code == "range"


def _numbers(schema: dict[str, object]) -> list[dict[str, object]]:
    """The integer and number schemas of a field (through ``anyOf`` with null)."""
    options = schema.get("anyOf", [schema])
    assert isinstance(options, list)
    return [s for s in options if s.get("type") in ("integer", "number")]


def test_every_number_of_every_unit_event_carries_its_own_limits() -> None:
    """The events validate themselves: no number of a unit's event (down to a submitted
    result's racks) decodes without both bounds, so nothing checks ranges by field name."""
    structs = (*typing.get_args(AnyUnitEvent), GameReport, RackReport)
    _, components = msgspec.json.schema_components(structs, ref_template="#/{name}")
    for cls in structs:
        for name, field in components[cls.__name__]["properties"].items():
            for number in _numbers(field):
                low = number.get("minimum", number.get("exclusiveMinimum"))
                assert low is not None and "maximum" in number, (cls.__name__, name, number)


@pytest.mark.parametrize(
    ("event", "where", "limit"),  # limit: what the refusal says, the value got included
    [
        ({"type": "game_started", "game": 1, "move": 1, "starter": "A", "seats": 5,
          "move_seconds": 40.0}, "$.event.seats", "<= 4, got 5"),
        ({"type": "game_started", "game": 1, "move": 1, "starter": "A", "seats": 4,
          "move_seconds": 0}, "$.event.move_seconds", "> 0.0, got 0"),
        ({"type": "last_lap_started", "game": 1, "move": 1, "source": "hub",
          "moves_left": 6}, "$.event.moves_left", "<= 5, got 6"),
        ({"type": "clock_resumed", "game": 1, "move": 1, "seat": "A", "remaining": 3.0,
          "paused_for": 86_401.0}, "$.event.paused_for", "<= 86400.0, got 86401.0"),
        ({"type": "hall_checked", "game": 10_000, "pass_button": "ok", "judge_key": "ok",
          "leds": "ok", "buzzer": "ok", "keypad": "skipped"}, "$.event.game", "<= 9999, got 10000"),
        ({"type": "result_submitted", "game": 1, "move": 9, "round": 10_000,
          "report": {"game": 1, "ending": "went_out", "racks": []}}, "$.event.round",
         "<= 9999, got 10000"),
        ({"type": "result_submitted", "game": 1, "move": 9,
          "report": {"game": 1, "ending": "went_out",
                     "racks": [{"seat": "A", "jokers": 3}]}},
         "$.event.report.racks[0].jokers", "<= 2, got 3"),
    ],
)
def test_an_event_out_of_range_is_refused_naming_its_field(
    event: dict[str, object], where: str, limit: str
) -> None:
    payload = json.dumps({**GOOD, "event": event}).encode()
    with pytest.raises(DecodeError) as err:
        decode(EventEnvelope, payload)
    assert err.value.code == "range"
    assert err.value.reason.startswith("EventEnvelope: Expected ")
    assert err.value.reason.endswith(f"{limit} - at `{where}`"), err.value.reason

"""Why the hub refused a table's result, in the reader's language: sent as words (template
and values) beside the English reason, kept so in the records, shown translated on the
table's display, the hub screen and the organizer's command line."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from test_conductor import Clock, by_topic, event, submission

from hub.competition import ResultRejected, decode_record
from hub.hall import HallView, ResultState, TableCell
from hub.screen.sidebar import result_rows
from tablekit.core.clock import Phase
from tablekit.core.codec import DecodeError, decode, encode
from tablekit.core.errors import KitError, Phrase
from tablekit.core.messages import ResultAck, Wording
from tablekit.core.topics import Topics
from tablekit.result_entry import EntryView
from tablekit.shared.i18n import words

TOPICS = Topics("hall", "cup")
JOKERS = "jokers: a table has only {most} jokers, got {total} in total"
JOKERS_PL = "jokery: przy stoliku są tylko 2 jokery, podano łącznie 3"


def test_a_refused_result_is_answered_with_its_words_and_its_english(tmp_path: Path) -> None:
    org, conductor = event(tmp_path, Clock())
    [(_, record)] = conductor.judge(submission(2, 1, 4, seq=5))  # 4 seats at a table of 3
    org.record(record)
    ack = decode(ResultAck, by_topic(conductor)[TOPICS.result(2)])
    assert ack.reason == "table 2: 3 players sit there, the result has 4 seats"
    assert ack.why is not None
    assert ack.why.phrase().message(words("pl").gettext) == (
        "stolik 2: siedzi tam graczy: 3, a wynik ma miejsc: 4"
    )
    assert ack.why.phrase().message(words("en").gettext) == ack.reason


def test_a_late_result_is_refused_in_polish_too(tmp_path: Path) -> None:
    _org, conductor = event(tmp_path, Clock())
    [(_, record)] = conductor.judge(submission(2, 1, 3, seq=41, round_no=0))
    assert isinstance(record, ResultRejected)
    said = record.why_words()
    assert said.message(words("en").gettext) == record.reason == (
        "table 2: the result names no round (the unit has no assignment from the hub)"
    )
    assert said.message(words("pl").gettext) == (
        "stolik 2: wynik nie podaje rundy (moduł stolikowy nie ma przydziału z centrali)"
    )


def test_a_record_of_an_earlier_release_is_read_back_into_its_words() -> None:
    old = (
        b'{"record":"result-rejected","at":1.0,"by":"table-02","table":2,"game":1,'
        b'"reason":"no round is being played","unit":"table-02","seq":3}'
    )
    record = decode_record(old)
    assert isinstance(record, ResultRejected) and record.why is None
    assert record.why_words().message(words("pl").gettext) == "żadna runda nie jest teraz grana"
    unknown = msgspec.structs.replace(record, reason="something a later release says")
    assert unknown.why_words().message(words("pl").gettext) == "something a later release says"


def test_a_unit_of_an_earlier_release_ignores_the_words() -> None:
    class OldResultAck(msgspec.Struct, frozen=True):  # ResultAck before ``why``
        v: int
        unit: str
        game: int
        accepted: bool
        reason: str = ""
        round: int = 0

    ack = ResultAck(
        v=1, unit="table-03", game=2, accepted=False, reason="x", round=1,
        why=Wording(JOKERS, {"most": 2, "total": 3}),
    )
    old = msgspec.json.decode(encode(ack), type=OldResultAck)
    assert (old.reason, old.game, old.round) == ("x", 2, 1)


@pytest.mark.parametrize(
    "why",
    [
        b'{"template":"{x}"}',  # a field without its value
        b'{"template":"{x:>90000}","values":{"x":1}}',  # a format spec
        b'{"template":"{x.__class__}","values":{"x":1}}',  # an attribute
        b'{"template":"{0}","values":{"x":1}}',  # a position
        b'{"template":"{","values":{}}',  # not a template
        b'{"template":"{a}","values":{"a":{"template":"{b}","values":{"b":'
        b'{"template":"{c}","values":{"c":{"template":"d"}}}}}}}',  # four deep
    ],
)
def test_words_a_receiver_could_not_fill_are_refused(why: bytes) -> None:
    payload = b'{"v":1,"unit":"table-03","game":2,"accepted":false,"why":' + why + b"}"
    with pytest.raises(DecodeError) as refused:
        decode(ResultAck, payload)
    assert "$.why" in str(refused.value)


def test_words_of_an_error_keep_their_nested_words_and_numbers() -> None:
    inner = KitError(JOKERS, most=2, total=3)
    err = KitError("{what}: {error}", what=Phrase("table {table}", table=4), error=inner)
    wording = Wording.of(err)
    assert wording.values["error"] == Wording(JOKERS, {"most": 2, "total": 3})
    assert decode(ResultAck, encode(ResultAck(
        v=1, unit="table-04", game=1, accepted=False, why=wording
    ))).why == wording
    # a template with a format spec goes as its English text
    spec = Wording.of(KitError("{seconds:.1f} s", seconds=2.25))
    assert spec == Wording("{text}", {"text": "2.2 s"})


def test_the_table_display_says_the_hubs_words_in_its_language() -> None:
    from tablekit.samples import sample_views

    for lang, said in [
        ("pl", "stolik 7, gra 2: wynik jest już zapisany (gra jest zamknięta); poprawia go "
               "sędzia w centrali"),
        ("en", "table 7 game 2: a result is already recorded (the game is closed); a judge "
               "corrects it at the hub"),
    ]:
        from test_display_entry import NOW, compose, layout_for, panel, texts

        from tablekit.layout.scene import WHITE

        view = sample_views(NOW, lang)["entry-rejected"]
        scene = compose(view, NOW, layout_for(800, 480))
        lines = [t.text for t in texts(panel(scene, "entry-status")) if t.colour == WHITE]
        assert " ".join(lines) == said, lang


def test_an_entry_journaled_before_the_words_shows_the_hubs_english() -> None:
    from dataclasses import replace

    from test_display_entry import NOW, compose, layout_for, panel, texts

    from tablekit.layout.scene import WHITE
    from tablekit.samples import sample_views

    view = sample_views(NOW, "pl")["entry-rejected"]
    assert view.entry is not None and view.entry.why
    journaled = msgspec.json.decode(msgspec.json.encode(view.entry))
    del journaled["why"], journaled["said"]  # what a unit of the release before wrote
    old = msgspec.json.decode(msgspec.json.encode(journaled), type=EntryView)
    assert not old.why
    scene = compose(replace(view, entry=old), NOW, layout_for(800, 480))
    lines = [t.text for t in texts(panel(scene, "entry-status")) if t.colour == WHITE]
    assert " ".join(lines) == old.rejection  # the hub's English, as it sent it


def test_the_hub_screen_lists_the_refusal_in_the_halls_language() -> None:
    cell = TableCell(
        number=5, phase=Phase.GAME_OVER, result=ResultState.REFUSED,
        refused=Wording(JOKERS, {"most": 2, "total": 3}).phrase(),
    )
    hall = HallView(tables=(cell,))
    assert result_rows(words("pl"), hall) == ((5, f"odrzucony: {JOKERS_PL}"),)
    assert result_rows(words("en"), hall) == (
        (5, "refused: jokers: a table has only 2 jokers, got 3 in total"),
    )


def test_the_organizer_reads_what_the_hub_refused_in_the_events_language(
    tmp_path: Path,
) -> None:
    from test_cli_support import Cli, school_round_playing

    from hub.conductor import Conductor
    from hub.organizer import Organizer
    from hub.store import EventStore, Refused
    from tablekit.core.clock import MovePassed
    from tablekit.core.messages import envelope
    from tablekit.core.seats import Seat
    from tablekit.core.topics import NOT_PROVISIONED

    db = tmp_path / "e.sqlite3"
    school_round_playing(db)
    store = EventStore(db)
    org = Organizer(store)
    # a table's result for 4 seats the hub refuses, as the hub service records it
    [(_, rejected)] = Conductor(org, TOPICS).judge(submission(2, 1, 3, seq=7))
    org.record(rejected)
    passed = MovePassed(game=1, move=1, seat=Seat.A, used=3.0)
    store.ingest([envelope("table-03", 3, 1, 1.0, passed)])
    other = MovePassed(game=1, move=1, seat=Seat.A, used=9.0)
    store.ingest([envelope("table-03", 3, 1, 1.0, other)])  # the same seq, other content
    store.ingest([], refused=[Refused(
        "unprovisioned", NOT_PROVISIONED.format(table=9, tables=4), 9, topic="t/9"
    )])
    store.close()

    polish, english = Cli(db, lang="pl"), Cli(db, lang="en")
    said = polish.ok("event", "refusals")
    assert (
        "zdarzenie nr 1 jest już zapisane z inną treścią; obie kopie zostają zachowane dla "
        "sędziego" in said
    )
    assert "t/9: stolik 9 nie należy do stolików tego turnieju 1-4" in said
    assert ": konflikt: zdarzenie nr 1" in said and "stolik spoza turnieju" in said
    said = english.ok("event", "refusals")
    assert "seq 1 is already stored with other content; both copies are kept" in said
    assert "t/9: table 9 is not one of this event's tables 1-4" in said
    assert ": conflict: seq 1" in said and "unprovisioned" in said

    assert "stolik 2: siedzi tam graczy: 4, a wynik ma miejsc: 3" in polish.ok("round", "status")
    assert "table 2: 4 players sit there, the result has 3 seats" in english.ok(
        "round", "status"
    )

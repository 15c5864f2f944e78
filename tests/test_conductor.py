"""The conductor: verdicts on table results and the retained messages of the event."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec

from hub.conductor import Conductor
from hub.organizer import Organizer
from hub.store import EventStore
from hub.tournament import Player
from tablekit.core.codec import decode, encode
from tablekit.core.messages import (
    Assignment,
    Broadcast,
    BroadcastKind,
    ConsoleLink,
    EventEnvelope,
    HallLanguage,
    ResultAck,
    RoundInfo,
    RoundProgress,
    SeatingBoard,
    StandingsBoard,
)
from tablekit.core.result import ResultSubmitted
from tablekit.core.scoring import GameEnding, GameReport, RackReport
from tablekit.core.seats import seats_for
from tablekit.core.topics import Topics, decode_retained

TOPICS = Topics("hall", "cup")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def event(tmp_path: Path, clock: Clock, players: int = 7) -> tuple[Organizer, Conductor]:
    org = Organizer(EventStore(tmp_path / "hub.sqlite3"), by="Ala", clock=clock)
    org.create_event("Konkurs", "school", round_minutes=30)
    entrants = [Player(org.next_player_id(i), f"Gracz {i}") for i in range(players)]
    org.register(entrants, check_in=True)
    org.draw(seed=3)
    return org, Conductor(org, TOPICS, clock=clock)


def submission(
    table: int, game: int, seats: int, seq: int, tiles: int = 9, round_no: int = 1
) -> EventEnvelope:
    racks = tuple(
        RackReport(s, tiles=0 if i == 0 else tiles + i) for i, s in enumerate(seats_for(seats))
    )
    report = GameReport(game=game, ending=GameEnding.WENT_OUT, racks=racks)
    return EventEnvelope(
        v=1, unit=f"table-{table:02d}", table=table, seq=seq, ts=1.0,
        event=ResultSubmitted(game=game, move=30, report=report, round=round_no),
    )


def by_topic(conductor: Conductor) -> dict[str, bytes]:
    return {m.topic: m.payload for m in conductor.messages()}


def test_retained_messages_tell_tables_and_screens_the_event(tmp_path: Path) -> None:
    _, conductor = event(tmp_path, Clock())
    sent = by_topic(conductor)
    a1 = decode(Assignment, sent[TOPICS.assign(1)])
    a2 = decode(Assignment, sent[TOPICS.assign(2)])
    assert (a1.game, a1.round, len(a1.seats), len(a2.seats)) == (1, 1, 4, 3)
    info = decode(RoundInfo, sent[TOPICS.round])
    assert info.round == 1 and info.games == 2 and not info.closed and info.deadline is None
    seating = decode(SeatingBoard, sent[TOPICS.seating])
    assert len(seating.rows) == 7
    standings = decode(StandingsBoard, sent[TOPICS.standings])
    assert {r.place for r in standings.rows} == {1}  # nobody has played: all level
    kinds = {type(decode_retained(TOPICS, t, p)[1]) for t, p in sent.items()}  # all strict
    assert {RoundInfo, SeatingBoard, StandingsBoard, Assignment} <= kinds
    assert sent[TOPICS.result(1)] == b""  # no verdict yet: nothing retained
    assert conductor.messages() == []  # nothing changed: nothing sent again
    conductor.reset()
    assert len(conductor.messages()) == len(sent)


def test_the_halls_language_is_retained_from_the_event_and_follows_a_change(
    tmp_path: Path,
) -> None:
    clock = Clock()
    org = Organizer(EventStore(tmp_path / "hub.sqlite3"), by="Ala", clock=clock)
    conductor = Conductor(org, TOPICS, clock=clock)
    assert conductor.messages() == []  # no event: nothing, a unit speaks its own language
    org.create_event("Cup", "school", language="en")
    first = conductor.messages()
    assert first[0].topic == TOPICS.language  # before the seating it is shown in
    assert decode(HallLanguage, first[0].payload) == HallLanguage(v=1, language="en")
    assert first[0].retain and not first[0].clear_first
    entrants = [Player(org.next_player_id(i), f"Gracz {i}") for i in range(7)]
    org.register(entrants, check_in=True)
    org.draw(seed=3)
    assert TOPICS.language not in by_topic(conductor)  # unchanged: not sent again
    # the organizer changes it in another process (the CLI): only the language goes out
    Organizer(EventStore(tmp_path / "hub.sqlite3"), by="Ola").choose_language("pl")
    assert by_topic(conductor) == {TOPICS.language: b'{"v":1,"language":"pl"}'}
    conductor.reset()  # after a reconnect: everything again, the language first
    assert conductor.messages()[0].payload == b'{"v":1,"language":"pl"}'


def test_the_consoles_address_is_retained_for_the_qr_codes(tmp_path: Path) -> None:
    """Set: published at once, before any event (phones may open the console then); not
    set: cleared once the event exists, so an address set before does not linger."""
    clock = Clock()
    org = Organizer(EventStore(tmp_path / "hub.sqlite3"), by="Ala", clock=clock)
    url = "http://rummikub.local:8080"
    conductor = Conductor(org, TOPICS, clock=clock, console_url=url)
    assert by_topic(conductor) == {TOPICS.console: encode(ConsoleLink(v=1, url=url))}
    org.create_event("Cup", "school")
    assert TOPICS.console not in by_topic(conductor)  # unchanged: not sent again
    plain = Conductor(org, TOPICS, clock=clock)
    assert by_topic(plain)[TOPICS.console] == b""


def test_an_event_created_without_a_language_speaks_polish(tmp_path: Path) -> None:
    _, conductor = event(tmp_path, Clock())
    assert by_topic(conductor)[TOPICS.language] == b'{"v":1,"language":"pl"}'


def test_a_table_result_is_judged_stored_and_answered(tmp_path: Path) -> None:
    org, conductor = event(tmp_path, Clock())
    conductor.messages()
    env = submission(2, 1, 3, seq=12)
    [(kind, record)] = conductor.judge(env)
    assert kind == "result-recorded"
    org.record(record)  # what the service does in the ingest transaction
    sent = by_topic(conductor)
    ack = decode(ResultAck, sent[TOPICS.result(2)])
    assert ack == ResultAck(v=1, unit="table-02", game=1, accepted=True, round=1)
    assert decode(Assignment, sent[TOPICS.assign(2)]).game == 2
    standings = decode(StandingsBoard, sent[TOPICS.standings])
    assert standings.rows[0].big == 1 and standings.rows[0].small == 10 + 11  # B 9+1, C 9+2


def test_a_result_names_the_journal_it_came_from(tmp_path: Path) -> None:
    """A spare card numbers its new journal from 1 again: the accepted and the refused
    results keep the epoch with the unit and seq, so each names one stored submission."""
    org, conductor = event(tmp_path, Clock())
    first = msgspec.structs.replace(submission(2, 1, 3, seq=27), epoch="0a1b2c3d")
    org.store.ingest([first], derive=conductor.judge)
    spare = "9f8e7d6c"  # the card swapped: seq 27 again, game 2, then a bad game 2
    org.store.ingest([msgspec.structs.replace(submission(2, 2, 3, seq=27), epoch=spare)],
                     derive=conductor.judge)
    org.store.ingest([msgspec.structs.replace(submission(2, 2, 4, seq=28), epoch=spare)],
                     derive=conductor.judge)
    comp = org.competition
    records = [comp.history("round-1", 2, game)[-1].record for game in (1, 2)]
    [rejected] = comp.rejected
    named = [(r.unit, r.epoch, r.seq) for r in (*records, rejected)]
    assert named == [("table-02", "0a1b2c3d", 27), ("table-02", spare, 27), ("table-02", spare, 28)]
    sources = {"0a1b2c3d": "table-02", **{r.epoch: r.source for r in org.store.replacements()}}
    for record in records:
        [stored] = [e for e in org.store.events(source=sources[record.epoch])
                    if e.seq == record.seq]
        submitted = stored.event()
        assert isinstance(submitted, ResultSubmitted) and submitted.report == record.report


def test_a_bad_result_is_rejected_with_the_reason(tmp_path: Path) -> None:
    org, conductor = event(tmp_path, Clock())
    [(kind, record)] = conductor.judge(submission(2, 1, 4, seq=5))
    assert kind == "result-rejected"
    org.record(record)
    ack = decode(ResultAck, by_topic(conductor)[TOPICS.result(2)])
    assert not ack.accepted and "3 players sit there" in ack.reason


def test_clock_events_need_no_verdict(tmp_path: Path) -> None:
    from tablekit.core.clock import MovePassed
    from tablekit.core.seats import Seat

    _, conductor = event(tmp_path, Clock())
    env = EventEnvelope(
        v=1, unit="table-01", table=1, seq=1, ts=1.0,
        event=MovePassed(game=1, move=1, seat=Seat.A, used=3.0),
    )
    assert conductor.judge(env) == []


def test_round_time_over_broadcasts_the_last_lap_once(tmp_path: Path) -> None:
    clock = Clock()
    org, conductor = event(tmp_path, clock)
    org.start_round()
    conductor.messages()
    clock.now += 29 * 60
    assert all(m.topic != TOPICS.broadcast for m in conductor.messages())
    clock.now += 61
    sent = by_topic(conductor)
    broadcast = decode(Broadcast, sent[TOPICS.broadcast])
    assert broadcast.kind is BroadcastKind.LAST_LAP and broadcast.round == 1
    # its id is the time-over record's own seq: unique among every broadcast of the hub
    assert broadcast.id == org.competition.time_over["round-1"].broadcast > 0
    info = decode(RoundInfo, sent[TOPICS.round])
    assert info.last_lap
    assert conductor.messages() == []


def test_a_restarted_hub_sends_the_same(tmp_path: Path) -> None:
    clock = Clock()
    org, conductor = event(tmp_path, clock)
    rng = random.Random(1)
    [(_, record)] = conductor.judge(submission(1, 1, 4, seq=3, tiles=rng.randint(1, 9)))
    org.record(record)
    before = by_topic(conductor)
    again = Conductor(Organizer(EventStore(tmp_path / "hub.sqlite3"), clock=clock), TOPICS)
    assert by_topic(again) == before


def finish_round_one_at_the_hub(org: Organizer) -> None:
    for table, seats in ((1, 4), (2, 3)):
        for game in (1, 2):
            org.enter_result(table, submission(table, game, seats, seq=1).event.report)
    org.close_round()
    org.draw(seed=5)
    org.start_round()


def test_a_late_result_of_an_earlier_round_is_refused_not_moved(tmp_path: Path) -> None:
    org, conductor = event(tmp_path, Clock())
    org.start_round()
    finish_round_one_at_the_hub(org)
    late = submission(2, 2, 3, seq=40, round_no=1)  # from a unit that was offline
    [(kind, record)] = conductor.judge(late)
    assert kind == "result-rejected"
    assert "a result for round 1, but round 2 is being played" in record.reason
    org.record(record)
    assert org.competition.history("round-2", 2, 2) == []
    no_round = submission(2, 1, 3, seq=41, round_no=0)
    [(_, record)] = conductor.judge(no_round)
    assert "names no round" in record.reason


def test_verdicts_of_an_earlier_round_are_not_retained(tmp_path: Path) -> None:
    clock = Clock()
    org, conductor = event(tmp_path, clock)
    org.start_round()
    for game in (1, 2):
        clock.now += 1
        [(_, record)] = conductor.judge(submission(2, game, 3, seq=10 + game))
        org.record(record)
    assert decode(ResultAck, by_topic(conductor)[TOPICS.result(2)]).game == 2
    for game in (1, 2):
        org.enter_result(1, submission(1, game, 4, seq=1).event.report)
    org.close_round()
    org.draw(seed=5)
    org.start_round()
    conductor.reset()
    assert by_topic(conductor)[TOPICS.result(2)] == b""  # round 1's answer is stale: deleted
    clock.now += 1
    [(_, record)] = conductor.judge(submission(2, 1, 3, seq=20, round_no=2))
    org.record(record)
    ack = decode(ResultAck, by_topic(conductor)[TOPICS.result(2)])
    assert (ack.round, ack.game, ack.accepted) == (2, 1, True)


def test_tables_without_players_this_round_are_told_they_are_idle(tmp_path: Path) -> None:
    clock = Clock()
    org, conductor = event(tmp_path, clock, players=11)  # round 1: tables of 4, 4, 3
    org.start_round()
    first = by_topic(conductor)
    assert decode(Assignment, first[TOPICS.assign(3)]).round == 1
    org.withdraw("P001", "ill")
    org.withdraw("P002", "ill")
    org.withdraw("P003", "ill")
    rng = random.Random(2)
    for table in org.competition.tables():
        for game in (1, 2):
            sent = submission(table.table, game, len(table.players), 1, rng.randint(1, 9))
            org.enter_result(table.table, sent.event.report)
    org.close_round()
    org.draw(seed=4)  # 8 players left: two tables
    org.start_round()
    now = by_topic(conductor)
    idle = decode(Assignment, now[TOPICS.assign(3)])  # nobody plays at table 3 in round 2
    assert idle.idle and (idle.seats, idle.game, idle.round) == ((), None, 2)
    conductor.reset()
    [out] = [o for o in conductor.messages() if o.topic == TOPICS.assign(3)]
    assert out.clear_first  # units of a release before idle assignments see it deleted
    assert decode(Assignment, now[TOPICS.assign(2)]).round == 2


def test_the_same_result_sent_twice_keeps_its_acceptance(tmp_path: Path) -> None:
    org, conductor = event(tmp_path, Clock())
    conductor.messages()
    [(_, record)] = conductor.judge(submission(2, 1, 3, seq=12))
    org.record(record)
    assert decode(ResultAck, by_topic(conductor)[TOPICS.result(2)]).accepted
    assert conductor.judge(submission(2, 1, 3, seq=13)) == []  # re-typed, sent again
    again = by_topic(conductor)  # the verdict is sent again for a table still waiting
    assert decode(ResultAck, again[TOPICS.result(2)]).accepted
    [(kind, _)] = conductor.judge(submission(2, 1, 3, seq=14, tiles=20))  # different racks
    assert kind == "result-rejected"


def test_a_message_receivers_would_refuse_is_never_retained(tmp_path: Path) -> None:
    clock = Clock()
    org = Organizer(EventStore(tmp_path / "hub.sqlite3"), by="Ala", clock=clock)
    org.create_event("Konkurs", "school")
    bad = Player(org.next_player_id(), "Marta Ko\x1a")  # slipped past every front end
    others = [Player(org.next_player_id(i + 1), f"G{i}") for i in range(7)]
    org.register([bad, *others], check_in=True)
    org.draw(seed=3)
    sent = by_topic(Conductor(org, TOPICS, clock=clock))
    table = next(t.table for t in org.competition.tables() if bad.id in t.players)
    assert TOPICS.assign(table) not in sent and TOPICS.seating not in sent
    assert TOPICS.round in sent  # everything else still goes out



def test_the_round_names_the_tables_that_have_finished_before_their_answers(
    tmp_path: Path,
) -> None:
    org, conductor = event(tmp_path, Clock())
    org.start_round()

    def finished() -> tuple[int, ...]:
        conductor.reset()
        progress = decode(RoundProgress, by_topic(conductor)[TOPICS.progress])
        assert progress.round == 1
        return progress.finished

    assert finished() == ()
    for table, game, seats, seq in ((2, 1, 3, 3), (1, 2, 4, 4), (2, 2, 3, 5)):
        [(_, record)] = conductor.judge(submission(table, game, seats, seq=seq))
        org.record(record)
    assert finished() == (2,)  # table 1 has game 2 in, not game 1
    conductor.reset()
    topics = [m.topic for m in conductor.messages()]
    # A screen learns whether a table has finished before it sees its answer.
    assert topics.index(TOPICS.progress) < min(topics.index(TOPICS.result(t)) for t in (1, 2))
    [(_, record)] = conductor.judge(submission(1, 1, 4, seq=6))
    org.record(record)
    assert finished() == (1, 2)



def test_the_event_is_closed_once_its_last_round_is(tmp_path: Path) -> None:
    org, conductor = event(tmp_path, Clock())
    stages = len(org.competition.format.stages)
    for round_no in range(1, stages + 1):
        if round_no > 1:
            org.draw(seed=round_no + 10)
        org.start_round()
        stage = org.competition.event.stages_played[-1]
        for table in org.competition.event.seating(stage):
            for game in (1, 2):
                report = submission(
                    table.number, game, len(table.players), seq=1, round_no=round_no
                ).event.report
                org.enter_result(table.number, report)
        assert not conductor.event_closed()  # a round is still open
        org.close_round()
        assert conductor.event_closed() == (round_no == stages)  # what HubStatus.closed says

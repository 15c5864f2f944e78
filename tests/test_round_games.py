"""What a unit knows of its round's games and the results the hub holds (the assignment's
``games`` and ``recorded``): the judge menu never reopens a game whose result is at the hub
nor starts a game the round does not have, a refusal that sending again cannot change is
not offered to be sent again, a game the judge entered at the hub ends at the table with a
word on the display, the acceptance stays on screen before the next game, and a new seating
clears what was said about the old one. The unit's real loop, driven by its inputs."""

from __future__ import annotations

from dataclasses import replace

from test_unit import FakeTime, Journal, finished_game, make_unit, press, type_keys

from tablekit.controls import Button, ButtonEdge, JudgeAction, JudgeMenu
from tablekit.core.clock import Phase
from tablekit.core.messages import (
    AssignedRules,
    Assignment,
    ResultAck,
    SeatAssignment,
    idle_assignment,
)
from tablekit.core.result import ResultSubmitted
from tablekit.core.seats import SEATS
from tablekit.layout.compose import compose
from tablekit.layout.scene import Text, layout_for
from tablekit.result_entry import Step
from tablekit.unit import RESULT_SHOWN, KeyPress, MenuChoice, TableUnit


def seated(
    game: int, *, games: int = 2, recorded: tuple[int, ...] = (), round_: int = 1
) -> Assignment:
    """The hub's assignment of a 3-seat table: its next game, the round's number of games
    and the games whose result it holds."""
    names = ("Anna", "Bartek", "Celina")
    return Assignment(
        v=1, table=1, game=game, round=round_, games=games, recorded=recorded,
        seats=tuple(SeatAssignment(seat=s, name=n) for s, n in zip(SEATS, names, strict=False)),
        rules=AssignedRules(move_seconds=60.0, ruleset="004"),
    )


def accepted(game: int, round_: int = 1) -> ResultAck:
    return ResultAck(v=1, unit="table-01", game=game, accepted=True, round=round_)


def menu_at(unit: TableUnit, clock: FakeTime, at: float) -> JudgeMenu:
    """The judge holds the key at ``at`` until the menu opens, and lets go."""
    clock.now = at
    unit.handle(ButtonEdge(Button.JUDGE, True, at))
    unit.apply(unit.controls.tick(at + 2.0), at + 2.0)
    unit.handle(ButtonEdge(Button.JUDGE, False, at + 2.1))
    assert unit.view.menu is not None
    return unit.view.menu


def play_game(unit: TableUnit, at: float) -> None:
    """A game from its first press to the empty rack and the result sent."""
    press(unit, at)
    press(unit, at + 5.0)
    unit.handle(KeyPress("*", at + 6.0))
    unit.handle(KeyPress("enter", at + 6.1))
    type_keys(unit, "12 enter 0 enter 33 enter enter enter enter")
    assert unit.view.entry is not None and unit.view.entry.step is Step.SUBMITTED


def shown(unit: TableUnit) -> str:
    """Every word the display draws for the unit's view (English)."""
    scene = compose(replace(unit.view, language="en"), 0.0, layout_for(480, 320))
    return " | ".join(i.text for p in scene for i in p.items if isinstance(i, Text))


def sent(journal: Journal) -> list[ResultSubmitted]:
    return [e for e in journal.events if isinstance(e, ResultSubmitted)]


def test_the_judge_menu_never_reopens_a_game_whose_result_the_hub_holds() -> None:
    unit, journal, _, clock = make_unit(seats=3)
    unit.handle(seated(1))
    play_game(unit, 100.0)
    # on its way to the hub: no undo either (it could come back accepted)
    assert JudgeAction.UNDO_PASS not in menu_at(unit, clock, 110.0).actions
    unit.handle(MenuChoice(JudgeAction.CLOSE, 113.0))
    unit.handle(accepted(1))
    menu = menu_at(unit, clock, 120.0)
    assert JudgeAction.UNDO_PASS not in menu.actions
    assert str(menu.note) == (
        "Game 1: its result is with the hub; corrections are made at the hub"
    )
    unit.handle(MenuChoice(JudgeAction.UNDO_PASS, 123.0))  # a stale menu key: nothing
    assert unit.clock.state.phase is Phase.GAME_OVER
    assert unit.view.entry is not None and unit.view.entry.step is Step.ACCEPTED
    assert len(sent(journal)) == 1
    # the round's last game: its acceptance reaches the unit with the assignment
    unit.handle(MenuChoice(JudgeAction.CLOSE, 124.0))
    clock.now = 130.0
    unit.handle(seated(2, recorded=(1,)))
    unit.apply([], 130.0 + RESULT_SHOWN)
    assert (unit.clock.state.game, unit.clock.state.phase) == (2, Phase.READY)
    play_game(unit, 140.0)
    unit.handle(seated(2, recorded=(1, 2)))
    assert unit.view.entry is not None and unit.view.entry.step is Step.ACCEPTED
    menu = menu_at(unit, clock, 160.0)
    assert JudgeAction.UNDO_PASS not in menu.actions
    assert str(menu.note) == "All 2 games of this round are played; corrections are made at the hub"


def test_a_refusal_that_sending_again_cannot_change_is_never_offered_to_be_sent_again() -> None:
    unit, journal, _, clock = make_unit(seats=3)
    unit.handle(seated(1))
    play_game(unit, 100.0)
    reason = (
        "table 1 game 1: a result is already recorded (the game is closed); a judge corrects "
        "it at the hub"
    )
    unit.handle(
        ResultAck(v=1, unit="table-01", game=1, accepted=False, reason=reason, round=1, final=True)
    )
    entry = unit.view.entry
    assert entry is not None and entry.step is Step.REJECTED and entry.final
    assert unit.view.state_word == "RESULT REFUSED"
    assert "send again" not in shown(unit)
    assert "The judge corrects it at the hub; play on" in shown(unit)
    type_keys(unit, "enter 1 enter enter enter")  # "send again" does nothing: said why
    assert len(sent(journal)) == 1
    assert unit.view.entry is not None
    said = unit.view.entry.said.template
    assert said == "the result is with the hub; the judge corrects it there"
    menu = menu_at(unit, clock, 120.0)
    assert JudgeAction.ACCEPT_RESULT not in menu.actions  # nothing to accept for the table
    assert JudgeAction.UNDO_PASS not in menu.actions
    assert JudgeAction.START_GAME in menu.actions  # the table goes on with game 2
    unit.handle(MenuChoice(JudgeAction.START_GAME, 123.0))
    assert (unit.clock.state.game, unit.clock.state.phase) == (2, Phase.RUNNING)


def test_a_refusal_the_table_can_correct_is_still_sent_again() -> None:
    unit, journal, _ = finished_game()
    type_keys(unit, "12 enter 0 enter 33 enter enter enter enter")
    unit.handle(ResultAck(v=1, unit="table-01", game=1, accepted=False, reason="jokers"))
    type_keys(unit, "enter enter enter enter")
    assert len(sent(journal)) == 2


def test_no_game_beyond_the_rounds_games_is_started() -> None:
    unit, journal, _, clock = make_unit(seats=3)
    unit.handle(seated(2, recorded=(1,)))
    play_game(unit, 100.0)
    unit.handle(seated(2, recorded=(1, 2)))
    unit.apply([], 100.0 + 60)
    menu = menu_at(unit, clock, 200.0)
    assert JudgeAction.START_GAME not in menu.actions
    assert str(menu.note).startswith("All 2 games of this round are played")
    unit.handle(MenuChoice(JudgeAction.START_GAME, 203.0))
    press(unit, 204.0)
    assert (unit.clock.state.game, unit.clock.state.phase) == (2, Phase.GAME_OVER)
    assert not [e for e in journal.events if getattr(e, "game", 0) == 3]


def test_a_hub_that_does_not_say_the_rounds_games_lets_the_table_go_on_as_before() -> None:
    unit, _, _, clock = make_unit(seats=3)
    unit.handle(seated(2, games=0))
    play_game(unit, 100.0)
    unit.handle(accepted(2))
    menu = menu_at(unit, clock, 120.0)
    assert JudgeAction.START_GAME in menu.actions
    unit.handle(MenuChoice(JudgeAction.START_GAME, 123.0))
    assert (unit.clock.state.game, unit.clock.state.phase) == (3, Phase.RUNNING)


def test_a_result_the_judge_entered_for_the_game_in_play_ends_it_and_the_table_is_told() -> None:
    unit, journal, _, _ = make_unit(seats=3)
    unit.handle(seated(1))
    press(unit, 100.0)
    press(unit, 105.0)
    unit.handle(seated(2, recorded=(1,)))  # the judge entered game 1 at the hub
    assert unit.view.message == (
        "The judge entered the result of game 1 at the hub: this game is over"
    )
    assert (unit.clock.state.game, unit.clock.state.phase) == (2, Phase.READY)
    assert unit.view.entry is None and not sent(journal)
    # and while the table types the result of game 2: nothing left to type
    press(unit, 120.0)
    unit.handle(KeyPress("*", 121.0))
    unit.handle(KeyPress("enter", 121.1))
    type_keys(unit, "12 enter")
    unit.handle(seated(2, recorded=(1, 2)))
    assert unit.view.entry is None and unit.clock.state.phase is Phase.GAME_OVER
    assert unit.view.message == "The judge entered the result of game 2 at the hub"
    assert not sent(journal)


def test_a_result_the_judge_entered_ahead_is_said_and_that_game_is_skipped() -> None:
    unit, _, _, clock = make_unit(seats=3)
    unit.handle(seated(1, games=3))
    press(unit, 100.0)
    unit.handle(seated(1, games=3, recorded=(2,)))
    assert unit.view.message == "The judge entered the result of game 2 at the hub"
    assert unit.clock.state.phase is Phase.RUNNING  # the game in play goes on
    unit.handle(KeyPress("*", 110.0))
    unit.handle(KeyPress("enter", 110.1))
    type_keys(unit, "12 enter 0 enter 33 enter enter enter enter")
    unit.handle(accepted(1))
    menu = menu_at(unit, clock, 130.0)
    unit.handle(MenuChoice(JudgeAction.START_GAME, 133.0))
    assert JudgeAction.START_GAME in menu.actions
    assert (unit.clock.state.game, unit.clock.state.phase) == (3, Phase.RUNNING)


def test_the_accepted_result_stays_on_screen_before_the_next_game() -> None:
    unit, _, _, clock = make_unit(seats=3)
    unit.handle(seated(1))
    play_game(unit, 100.0)
    clock.now = 110.0
    unit.handle(seated(2, recorded=(1,)))  # the hub's acceptance and its next game at once
    unit.handle(accepted(1))
    assert unit.view.state_word == "RESULT IN"
    unit.apply([], 110.0 + RESULT_SHOWN - 0.1)
    assert unit.view.state_word == "RESULT IN" and unit.clock.state.game == 1
    unit.apply([], 110.0 + RESULT_SHOWN)
    assert (unit.clock.state.game, unit.clock.state.phase) == (2, Phase.READY)
    # ... or until a key: the table has seen it
    play_game(unit, 200.0)
    clock.now = 210.0
    unit.handle(seated(2, recorded=(1, 2)))
    unit.handle(seated(3, games=0, round_=2))  # the next round already drawn
    assert unit.view.state_word == "RESULT IN"
    unit.handle(KeyPress("5", 210.5))
    assert (unit.clock.state.game, unit.clock.state.phase) == (3, Phase.READY)


def test_a_new_seating_clears_what_was_said_about_the_old_one() -> None:
    unit, _, _, _ = make_unit(seats=3)
    unit.handle(seated(1))
    unit.handle(idle_assignment(1, 1))
    assert unit.view.message == "No game at this table"
    unit.handle(seated(1, round_=2))
    assert unit.view.message == "" and unit.view.name(SEATS[0]) == "Anna"

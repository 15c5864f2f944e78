"""The result-entry flow, driven key by key as from a numpad."""

from __future__ import annotations

import pytest

from tablekit.core.rulesets import get_ruleset
from tablekit.core.scoring import (
    GameEnding,
    GameNumberError,
    GameReport,
    Opening,
    RackReport,
    SeatError,
)
from tablekit.core.seats import Seat, seats_for
from tablekit.result_entry import (
    EntryStateError,
    EntryView,
    Key,
    RackEntry,
    ResultEntry,
    Step,
)

A, B, C, D = Seat.A, Seat.B, Seat.C, Seat.D
OUT = GameEnding.WENT_OUT
NOBODY = GameEnding.NOBODY_OUT
TOKENS = {"E": Key.ENTER, "BS": Key.BACKSPACE}


def press(flow: ResultEntry, keys: str) -> EntryView:
    """Press space-separated keys; a run of digits is typed digit by digit."""
    view = flow.view
    for token in keys.split():
        if token.isdigit():
            for digit in token:
                view = flow.press(Key(digit))
        else:
            view = flow.press(TOKENS.get(token, token))
    return view


def new(seats: int = 4, ruleset: str = "000", ending: GameEnding = OUT) -> ResultEntry:
    return ResultEntry(
        game=2, seats=(A, B, C, D)[:seats], ruleset=get_ruleset(ruleset), ending=ending
    )


def small(view: EntryView) -> dict[Seat, int]:
    assert view.score is not None
    return {s.seat: s.small for s in view.score.scores}


def test_full_table_entered_confirmed_and_accepted() -> None:
    flow = new()
    view = flow.view
    assert (view.step, view.seat, view.buffer, view.score) == (Step.TILES, A, "", None)
    assert view.racks == tuple(RackEntry(s) for s in (A, B, C, D))

    view = press(flow, "2")
    assert (view.step, view.seat, view.buffer) == (Step.TILES, A, "2")
    view = press(flow, "3 E")
    assert (view.step, view.seat, view.buffer) == (Step.TILES, B, "")
    assert view.racks[0] == RackEntry(A, tiles=23, jokers=0)
    # A: 23 no jokers; B went out; C 10 + one joker; D 4.
    view = press(flow, "0 E 10 + E 4 E")
    assert view.step == Step.CONFIRM
    assert view.seat == A  # first to confirm
    # 000: C = 10 + 50 = 60; B + (23 + 60 + 4) = +87.
    assert small(view) == {A: -23, B: 87, C: -60, D: -4}
    assert flow.report is None  # not before everyone confirmed

    view = press(flow, "E")
    assert (view.confirmed, view.seat) == ((A,), B)
    view = press(flow, "E E")
    assert view.seat == D
    view = press(flow, "E")
    assert (view.step, view.confirmed, view.judge_override) == (Step.READY, (A, B, C, D), False)
    assert flow.report == GameReport(
        game=2,
        ending=OUT,
        racks=(RackReport(A, 23), RackReport(B), RackReport(C, 10, 1), RackReport(D, 4)),
    )

    assert flow.mark_submitted().step == Step.SUBMITTED
    assert press(flow, "E").message == "result sent; waiting for the hub"
    view = flow.mark_accepted()
    assert view.step == Step.ACCEPTED
    assert flow.report is not None
    assert press(flow, "1").message == "result accepted by the hub"


def test_three_player_table_under_002_shows_placement_points() -> None:
    flow = new(seats=3, ruleset="002")
    view = press(flow, "9 E 0 E 9 E")
    assert view.step == Step.CONFIRM
    assert view.score is not None
    # B out: +18; A and C tied at -9 for 2nd: 2 BP each.
    assert [(s.small, s.big) for s in view.score.scores] == [(-9, 2), (18, 4), (-9, 2)]


def test_mistyped_value_corrected_with_backspace_before_enter() -> None:
    flow = new(seats=3)
    view = press(flow, "24 BS")
    assert view.buffer == "2"
    view = press(flow, "5 E")
    assert view.racks[0].tiles == 25
    view = press(flow, ". ")  # nothing typed: '.' keeps it empty
    view = press(flow, "1 .")
    assert view.buffer == ""


def test_go_back_a_step_and_fix_a_value_entered_earlier() -> None:
    flow = new(seats=3)
    press(flow, "30 E 0 E")  # A 30, B 0; now at C's rack
    view = press(flow, "BS")  # nothing typed: back to B
    assert (view.step, view.seat, view.buffer) == (Step.TILES, B, "")
    view = press(flow, "-")
    assert (view.step, view.seat) == (Step.TILES, A)
    view = press(flow, "BS")
    assert view.message == "this is the first seat; nothing to go back to"
    view = press(flow, "32 E")  # correct A; B is already entered, so on to C
    assert (view.step, view.seat) == (Step.TILES, C)
    view = press(flow, "5 E")
    assert small(view) == {A: -32, B: 37, C: -5}


def test_correction_on_the_score_screen_resets_confirmations() -> None:
    flow = new()
    press(flow, "23 E 0 E 10 + E 4 E")
    view = press(flow, "E E")
    assert view.confirmed == (A, B)
    view = press(flow, "3")  # C wants to correct its value
    assert (view.step, view.seat, view.confirmed) == (Step.TILES, C, (A, B))
    view = press(flow, "12 + E")  # all values complete: straight back to the score screen
    assert view.confirmed == ()  # a changed value clears every confirmation
    assert view.step == Step.CONFIRM
    assert view.seat == A
    assert small(view) == {A: -23, B: 89, C: -62, D: -4}


def test_going_back_without_changing_keeps_confirmations() -> None:
    flow = new(seats=3)
    press(flow, "5 E 0 E 7 E")
    press(flow, "E E")
    view = press(flow, "- E")  # back to C's jokers, ENTER keeps 0
    assert (view.step, view.confirmed, view.seat) == (Step.CONFIRM, (A, B), C)


def test_never_opened_toggle_and_judge_could_have_opened() -> None:
    flow = new()
    view = press(flow, "40 *")
    assert view.racks[0].opening == Opening.NOT_OPENED
    view = press(flow, "/")
    assert view.racks[0].opening == Opening.OPENED
    view = press(flow, "* E E 0 E 15 E 8 E")
    # A never opened: flat 100. B out: + (100 + 15 + 8) = 123.
    assert small(view) == {A: -100, B: 123, C: -15, D: -8}
    press(flow, "E E")

    view = flow.judge_set_opening(A, Opening.COULD_HAVE_OPENED)
    assert (view.step, view.confirmed) == (Step.CONFIRM, ())
    assert small(view) == {A: -200, B: 223, C: -15, D: -8}
    assert view.score is not None
    assert view.score.for_seat(A).rack_value == 200

    view = press(flow, "1 *")  # a player cannot undo the judge's decision
    assert view.message == (
        "seat A: opening: could have opened is a judge decision; only the judge can change it"
    )
    assert view.racks[0].opening == Opening.COULD_HAVE_OPENED
    view = press(flow, "E E")
    assert view.step == Step.CONFIRM

    view = flow.judge_set_opening(A, Opening.WAIVED)  # announced "I will open next round"
    assert small(view) == {A: -100, B: 123, C: -15, D: -8}
    view = press(flow, "E E E E")
    assert view.step == Step.READY
    assert flow.report is not None
    assert flow.report.racks[0] == RackReport(A, 40, 0, Opening.WAIVED)


def test_judge_override_accepts_without_every_confirmation() -> None:
    flow = new(seats=3)
    view = flow.judge_override()
    assert view.message == "judge override: enter every seat's values first"
    assert view.step == Step.TILES
    press(flow, "5 E 0 E 7 E E")
    view = flow.judge_override()
    assert (view.step, view.judge_override, view.confirmed) == (Step.READY, True, (A,))
    assert flow.report is not None
    assert flow.mark_submitted().step == Step.SUBMITTED
    view = flow.judge_override()
    assert view.message == "the result is with the hub; the judge corrects it there"
    assert flow.judge_set_opening(A, Opening.NOT_OPENED).racks[0].opening == Opening.OPENED


def test_tile_value_out_of_range_is_shown_and_fixed() -> None:
    flow = new()
    view = press(flow, "999 E")
    assert view.message == "seat A: tiles must be an integer between 0 and 728, got 999"
    assert (view.step, view.seat, view.buffer, view.selected) == (Step.TILES, A, "999", True)
    view = press(flow, "9")  # the refused value is replaced, not added to
    assert (view.buffer, view.selected, view.message) == ("9", False, "")
    view = press(flow, "1 2 3")  # a fourth digit is refused
    assert view.message == "seat A: tiles: at most 3 digits"
    view = press(flow, "BS BS E")
    assert (view.step, view.seat, view.message, view.racks[0].tiles) == (Step.TILES, B, "", 9)


def test_jokers_are_typed_with_plus_and_refused_at_once_beyond_the_table_s_two() -> None:
    flow = new()
    view = press(flow, "9 + +")
    assert (view.buffer, view.jokers_typed, view.message) == ("9", 2, "")
    view = press(flow, "+")
    assert view.message == "seat A: jokers: a rack holds at most 2"
    assert view.jokers_typed == 2
    view = press(flow, "BS")  # the last joker goes first, then digits
    assert (view.buffer, view.jokers_typed) == ("9", 1)
    view = press(flow, "+ E 0 E 5 +")
    assert view.message == "seat C: jokers: a table has only 2 jokers (already entered: A 2)"
    assert (view.step, view.seat, view.jokers_typed) == (Step.TILES, C, 0)
    view = press(flow, "E 4 E")
    assert view.step == Step.CONFIRM
    # A: 9 + 2 × 50 = 109; B out + (109 + 5 + 4) = 118.
    assert small(view) == {A: -109, B: 118, C: -5, D: -4}
    assert view.racks[0] == RackEntry(A, tiles=9, jokers=2)


def test_a_newcomer_types_one_value_per_seat() -> None:
    # The table: typed as "0 Enter 23 Enter 12 Enter 45 Enter", it stays in step.
    flow = new()
    view = press(flow, "0 E 23 E 12 E 45 E")
    assert (view.step, view.seat, view.message) == (Step.CONFIRM, A, "")
    assert [(r.tiles, r.jokers) for r in view.racks] == [(0, 0), (23, 0), (12, 0), (45, 0)]
    assert small(view) == {A: 80, B: -23, C: -12, D: -45}


def test_an_empty_rack_is_never_asked_for_jokers_and_refuses_them_at_once() -> None:
    flow = new()
    view = press(flow, "0 E")  # empty: straight on to the next seat
    assert (view.step, view.seat) == (Step.TILES, B)
    press(flow, "-")
    view = press(flow, "0 +")
    assert view.message == (
        "seat A: only jokers left? Do not type 0, just press +"
    )
    assert (view.seat, view.buffer, view.jokers_typed) == (A, "0", 0)
    view = press(flow, ". + 0")  # the same the other way round
    assert view.message.startswith("seat A: only jokers left?")
    assert (view.buffer, view.jokers_typed) == ("", 1)
    view = press(flow, "E")  # a rack holding only a joker: tiles 0, one joker
    assert view.racks[0] == RackEntry(A, tiles=0, jokers=1)
    assert (view.step, view.seat) == (Step.TILES, B)


def test_nobody_out_must_be_corrected_when_the_game_ended_with_someone_out() -> None:
    flow = new(seats=3)
    view = press(flow, "5 E 6 E 7 E")
    assert view.message == (
        "seats A, B, C: tiles: the game ended with a player going out, but no rack is empty "
        "(tiles 0, jokers 0, opened)"
    )
    assert (view.step, view.seat, view.score) == (Step.TILES, C, None)
    # It was really the bank running out: the judge corrects the ending.
    view = flow.judge_set_ending(NOBODY)
    assert view.ending == NOBODY
    assert view.step == Step.CONFIRM
    assert small(view) == {A: 3, B: -1, C: -2}


def test_never_opened_winner_is_refused_at_its_step() -> None:
    flow = new(seats=3)
    view = press(flow, "0 * E")
    assert view.message.startswith("seat A: opening is not_opened, but an empty rack")
    assert (view.step, view.seat) == (Step.TILES, A)
    view = press(flow, "* E")
    assert (view.step, view.seat) == (Step.TILES, B)


def test_two_empty_racks_refused() -> None:
    flow = new(seats=3)
    view = press(flow, "0 E 0 E")
    assert view.message == (
        "seats A, B: tiles: only one player can empty the rack, got 2 empty racks "
        "(tiles 0, jokers 0)"
    )
    assert (view.step, view.seat) == (Step.TILES, B)


def test_judge_decision_on_the_score_screen_that_breaks_the_report_goes_to_the_seat() -> None:
    flow = new(seats=3)
    press(flow, "5 E 0 E 7 E")
    view = flow.judge_set_opening(B, Opening.NOT_OPENED)
    assert view.message.startswith("seat B: opening is not_opened, but an empty rack")
    assert (view.step, view.seat, view.score) == (Step.TILES, B, None)


def test_judge_ending_change_on_the_score_screen_goes_back_to_the_values() -> None:
    flow = new(seats=3, ending=NOBODY)
    press(flow, "5 E 6 E 7 E")
    view = flow.judge_set_ending(OUT)
    assert view.message.startswith("seats A, B, C: tiles: the game ended with a player going")
    assert (view.step, view.seat) == (Step.TILES, A)


def test_tiles_need_a_typed_value_the_first_time() -> None:
    flow = new()
    view = press(flow, "E")
    assert view.message == (
        "seat A: type the value of the tiles left (0 if the rack is empty), + for each joker, "
        "then ENTER"
    )
    assert view.step == Step.TILES


def test_rejected_result_corrected_and_resubmitted() -> None:
    flow = new(seats=3)
    press(flow, "5 E 0 E 7 E E E E")
    flow.mark_submitted()
    view = flow.mark_rejected("game 2 already closed")
    assert (view.step, view.confirmed) == (Step.REJECTED, ())
    assert view.rejection == "game 2 already closed"
    assert view.message == "rejected by the hub: game 2 already closed"
    assert flow.report is not None

    view = press(flow, "1")  # seat A corrects its value
    assert (view.step, view.seat) == (Step.TILES, A)
    view = press(flow, "8 E")
    assert view.step == Step.CONFIRM
    assert view.rejection == ""
    assert small(view) == {A: -8, B: 15, C: -7}
    view = press(flow, "E E E")
    assert view.step == Step.READY
    flow.mark_submitted()
    flow.mark_rejected("hub busy")
    view = press(flow, "E")  # unchanged: confirm the same values again
    assert (view.step, view.confirmed) == (Step.CONFIRM, ())
    view = press(flow, "E E E")
    assert view.step == Step.READY
    flow.mark_submitted()
    assert flow.mark_accepted().step == Step.ACCEPTED


def test_judge_override_after_rejection() -> None:
    flow = new(seats=3)
    press(flow, "5 E 0 E 7 E E E E")
    flow.mark_submitted()
    flow.mark_rejected("try again")
    assert flow.judge_override().step == Step.READY


def test_hub_answers_out_of_order_are_shell_bugs() -> None:
    flow = new(seats=3)
    with pytest.raises(EntryStateError, match="marked submitted only when ready, not tiles"):
        flow.mark_submitted()
    with pytest.raises(EntryStateError, match="marked accepted only when submitted"):
        flow.mark_accepted()
    with pytest.raises(EntryStateError, match="marked rejected only when submitted"):
        flow.mark_rejected("x")


def test_keys_with_no_meaning_say_so() -> None:
    flow = new(seats=3)
    press(flow, "5 E 0 E 7 E")
    assert press(flow, "*").message == "to change a value press - or the seat's number 1–3"
    assert press(flow, "4").message == "press 1–3 to correct seat A–C"
    press(flow, "E E E")
    assert press(flow, "E").message == "everyone has confirmed; the result is being sent"
    view = press(flow, "-")  # even when ready, players can still go back
    assert (view.step, view.seat) == (Step.TILES, C)


def test_correct_an_unknown_seat() -> None:
    flow = new(seats=3)
    assert flow.correct(D).message == "seat D: not at this table"
    assert flow.judge_set_opening(D, Opening.WAIVED).message == "seat D: not at this table"


def test_unknown_key_string_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="'F1' is not a valid Key"):
        new().press("F1")


def test_flow_construction_is_checked() -> None:
    rs = get_ruleset("000")
    with pytest.raises(GameNumberError, match=r"^game must be an integer of at least 1, got 0$"):
        ResultEntry(0, (A, B, C), rs, OUT)
    message = r"^seats A, B: seats: a table seats 3 or 4 players, got 2$"
    with pytest.raises(SeatError, match=message):
        ResultEntry(1, (A, B), rs, OUT)
    message = r"^seats A, C, B: seats must be A, B, C in order, got A, C, B$"
    with pytest.raises(SeatError, match=message):
        ResultEntry(1, (A, C, B), rs, OUT)


def test_judge_ending_change_clears_confirmations_and_rescores() -> None:
    flow = new(seats=3, ending=NOBODY)
    view = press(flow, "0 E 6 E 7 E E E")
    assert view.confirmed == (A, B)
    view = flow.judge_set_ending(OUT)  # A did go out during the last lap
    assert (view.step, view.confirmed, view.ending) == (Step.CONFIRM, (), OUT)
    assert small(view) == {A: 13, B: -6, C: -7}
    assert flow.judge_set_ending(OUT).confirmed == ()


def test_after_a_jump_ahead_the_flow_returns_to_the_first_seat_missing_values() -> None:
    flow = new(seats=3)
    view = flow.correct(C)  # the shell let C type first
    assert (view.step, view.seat) == (Step.TILES, C)
    view = press(flow, "7 E")
    assert (view.step, view.seat) == (Step.TILES, A)
    view = press(flow, "0 E")
    assert (view.step, view.seat) == (Step.TILES, B)


def test_judge_switching_the_ending_rescores_a_complete_table() -> None:
    # Entered as "went out", but nobody's rack is empty: the bank ran out.
    flow = ResultEntry(1, seats_for(3), get_ruleset("000"), GameEnding.WENT_OUT)
    for key in ["1", "2", "ENTER", "5", "ENTER", "3", "0", "ENTER"]:
        flow.press(key)
    assert flow.view.step is Step.TILES and "going out" in flow.view.message
    view = flow.judge_set_ending(GameEnding.NOBODY_OUT)
    assert view.step is Step.CONFIRM
    assert view.score is not None and view.score.winners == (Seat.B,)


@pytest.mark.parametrize(
    "keys",
    [
        [],
        ["2", "3"],
        ["2", "3", "+"],
        ["2", "3", "ENTER"],
        ["2", "3", "ENTER", "0", "ENTER", "1", "7", "+"],
        ["2", "3", "ENTER", "0", "ENTER", "1", "7", "+", "ENTER"],
        ["2", "3", "ENTER", "0", "ENTER", "1", "7", "+", "ENTER", "ENTER"],
    ],
)
def test_a_flow_resumes_exactly_where_its_view_shows_it(keys: list[str]) -> None:
    flow = ResultEntry(3, seats_for(3), get_ruleset("002"), GameEnding.WENT_OUT)
    for key in keys:
        flow.press(key)
    resumed = ResultEntry.resume(flow.view)
    assert resumed.view == flow.view
    for key in ["ENTER", "5", "ENTER", "ENTER", "ENTER", "ENTER"]:
        assert resumed.press(key) == flow.press(key)


def test_an_entry_saved_at_the_old_joker_step_resumes_at_the_seat_s_rack() -> None:
    flow = new(seats=3)
    press(flow, "23 E")
    saved = flow.view
    older = EntryView(
        game=saved.game,
        ending=saved.ending,
        ruleset=saved.ruleset,
        step=Step.JOKERS,  # an earlier unit asked jokers as a step of its own
        seat=B,
        buffer="1",
        racks=(RackEntry(A, 23, 0), RackEntry(B, tiles=12), RackEntry(C)),
        confirmed=(),
        judge_override=False,
        message="",
        score=None,
        rejection="",
    )
    view = ResultEntry.resume(older).view
    assert (view.step, view.seat, view.buffer) == (Step.TILES, B, "")

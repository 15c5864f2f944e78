"""The table-status model: one word and one look per state, the clock's part of the state,
the phrases built from the words, and the one computation of the time left."""

from __future__ import annotations

import ast
import inspect

import pytest

from tablekit.core import status
from tablekit.core.clock import Phase, time_left
from tablekit.core.clock_events import PauseReason
from tablekit.core.seats import Seat
from tablekit.core.status import (
    CLOCK_STATES,
    JUDGE_STATES,
    LOOKS,
    SHORT_WORDS,
    WORDS,
    Colour,
    TableState,
    clock_state,
    last_lap_text,
    lasting_text,
    look,
    lost_text,
    missing_text,
    paused_state,
    short_word,
    time_text,
    word,
)
from tablekit.core.words import N_


def test_every_state_has_one_word_and_one_look_and_no_two_share_a_word() -> None:
    assert set(WORDS) == set(TableState) == set(LOOKS)
    assert len(set(WORDS.values())) == len(TableState)
    for state in TableState:
        assert word(state) == WORDS[state] and word(state).strip() == word(state) != ""
        assert look(state) is LOOKS[state]


def _luminance(colour: Colour) -> float:
    def channel(c: int) -> float:
        x = c / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("state", list(TableState))
def test_every_state_word_reads_on_its_colour(state: TableState) -> None:
    """WCAG AA contrast (4.5:1) between a state's text and its background, on both screens."""
    lighter, darker = sorted((_luminance(look(state).bg), _luminance(look(state).fg)))[::-1]
    assert (lighter + 0.05) / (darker + 0.05) >= 4.5, state


def test_short_words_are_shorter_and_the_rest_fall_back_to_the_word() -> None:
    for state in TableState:
        if state in SHORT_WORDS:
            assert len(short_word(state)) < len(word(state))
        else:
            assert short_word(state) == word(state)
    assert short_word(TableState.JUDGE_CALLED) == "CALLED"


def _marked_literals() -> set[str]:
    """The string literals inside ``N_(...)`` in the model's source: what gettext's
    extraction (``xgettext --keyword=N_``) finds."""
    tree = ast.parse(inspect.getsource(status))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_":
            (arg,) = node.args
            assert isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            found.add(arg.value)
    return found


def test_every_word_is_marked_for_translation_and_the_marker_does_not_translate() -> None:
    marked = _marked_literals()
    assert set(WORDS.values()) <= marked
    assert set(SHORT_WORDS.values()) <= marked
    assert N_("PLAYING") == "PLAYING"


@pytest.mark.parametrize(
    ("phase", "paused", "last_lap", "expected"),
    [
        (Phase.READY, None, None, TableState.READY),
        (Phase.RUNNING, None, None, TableState.PLAYING),
        (Phase.RUNNING, None, 3, TableState.LAST_LAP),
        (Phase.TIME_UP, None, None, TableState.TIME),
        (Phase.GAME_OVER, None, None, TableState.GAME_OVER),
        (Phase.RUNNING, PauseReason.JUDGE, None, TableState.PAUSED_JUDGE),
        (Phase.TIME_UP, PauseReason.PLAYER_CALL, None, TableState.JUDGE_CALLED),
        (Phase.RUNNING, PauseReason.RECOVERED, 2, TableState.PAUSED_RESTART),
    ],
)
def test_the_clock_tells_its_part_of_the_state(
    phase: Phase, paused: PauseReason | None, last_lap: int | None, expected: TableState
) -> None:
    assert clock_state(phase, paused, last_lap) is expected
    assert expected in CLOCK_STATES


def test_every_pause_reason_is_a_judge_state() -> None:
    assert {paused_state(r) for r in PauseReason} == JUDGE_STATES


def test_phrases_are_built_from_the_words() -> None:
    assert lasting_text(TableState.OFFLINE, "42 s") == "OFFLINE for 42 s"
    assert lasting_text(TableState.PAUSED_JUDGE, "2:05") == "PAUSED — JUDGE for 2:05"
    assert last_lap_text(3) == "LAST LAP — 3 MOVES LEFT"
    assert last_lap_text(1) == "LAST LAP — 1 MOVE LEFT"
    assert missing_text(1) == "1 RESULT MISSING"
    assert missing_text(2) == "2 RESULTS MISSING"
    assert time_text(Seat.B, "Anna Nowak") == "TIME — SEAT B Anna Nowak"
    assert time_text(Seat.C, "") == "TIME — SEAT C"
    assert time_text(None, "") == "TIME"
    assert lost_text("3:20") == "OFFLINE (connection lost; last heard 3:20 ago)"


def test_phrases_follow_a_changed_word(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(WORDS, TableState.OFFLINE, "BEZ ŁĄCZNOŚCI")
    monkeypatch.setitem(WORDS, TableState.LAST_LAP, "OSTATNIA KOLEJKA")
    assert lasting_text(TableState.OFFLINE, "5 s") == "BEZ ŁĄCZNOŚCI for 5 s"
    assert lost_text("1:00").startswith("BEZ ŁĄCZNOŚCI (")
    assert last_lap_text(2) == "OSTATNIA KOLEJKA — 2 MOVES LEFT"


# --- the time left ------------------------------------------------------------------------


def test_a_running_move_counts_down_from_when_it_was_measured() -> None:
    assert time_left(Phase.RUNNING, None, 30.0, 100.0, 112.5) == 17.5
    assert time_left(Phase.RUNNING, None, 30.0, 100.0, 140.0) == 0.0
    assert time_left(Phase.RUNNING, None, 30.0, 100.0, 90.0) == 30.0  # never above


def test_a_stopped_clock_keeps_its_time_and_time_up_has_none() -> None:
    for paused in PauseReason:
        assert time_left(Phase.RUNNING, paused, 30.0, 100.0, 500.0) == 30.0
    assert time_left(Phase.READY, None, 40.0, 100.0, 500.0) == 40.0
    assert time_left(Phase.GAME_OVER, None, 12.0, 100.0, 500.0) == 12.0
    assert time_left(Phase.TIME_UP, None, 5.0, 100.0, 100.0) == 0.0
    assert time_left(Phase.TIME_UP, PauseReason.JUDGE, 5.0, 100.0, 100.0) == 0.0


def test_a_table_no_longer_heard_stands_still() -> None:
    assert time_left(Phase.RUNNING, None, 30.0, 100.0, 112.5, live=False) == 30.0
    assert time_left(Phase.RUNNING, None, -1.0, 100.0, 112.5, live=False) == 0.0

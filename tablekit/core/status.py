"""One table's status as every screen tells it: the state, its word and its colour.

The table unit's display (:mod:`tablekit.view`, :mod:`tablekit.layout`), the hub
screen (:mod:`hub.hall`, :mod:`hub.screen`) and the organizer's command line (``rummikub
round status``) all name a table's state with a :class:`TableState` and read its word
(:func:`word`, or :func:`short_word` where a screen has little room) and its colours
(:func:`look`) from here, so a state is worded and coloured in one place. Each front end
works out the state from what it knows: the unit from its clock and the result being
typed, the hub from the tables' snapshots, statuses and the hub's answers; the clock's
part of it is :func:`clock_state` for all of them.

Every state has a word as well as a colour (never colour alone). The words are marked
with :func:`~tablekit.core.words.N_` for the translation catalogs; the phrases built from
a word (``OFFLINE for 42 s``, ``LAST LAP — 3 MOVES LEFT``) are built here too, in the
language of the catalog the shell passes them (its :class:`~tablekit.core.words.Lookups`;
English without one), a number's phrase in its plural form for the number.

The time left to the seat to move is :func:`tablekit.core.clock.time_left`, one
computation for the unit's clock, the wire snapshot and the hub screen.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from tablekit.core.clock import Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.seats import Seat
from tablekit.core.words import ENGLISH, N_, Lookups, N_plural

Colour = tuple[int, int, int]


class TableState(enum.StrEnum):
    """Every state a table can be in, as the hall sees it."""

    READY = "ready"
    """No game running: the next game starts with a press."""
    PLAYING = "playing"
    LAST_LAP = "last_lap"
    """The round's time is over: each seat makes one more move."""
    TIME = "time"
    """The seat to move ran out of time; nothing runs until its late press."""
    PAUSED_JUDGE = "paused_judge"
    """The judge stopped the clock with the judge key."""
    JUDGE_CALLED = "judge_called"
    """A player stopped the clock and called the judge."""
    PAUSED_RESTART = "paused_restart"
    """The unit restarted mid-move; the judge resumes the clock."""
    GAME_OVER = "game_over"
    ENTERING_RESULT = "entering_result"
    """The game is over and its result is being typed on the keypad."""
    CONFIRMING_RESULT = "confirming_result"
    """The unit shows the scores for the players to confirm (the unit's own step)."""
    RESULT_CONFIRMED = "result_confirmed"
    """Confirmed, waiting to be sent (the unit's own step)."""
    RESULT_SENT = "result_sent"
    """Sent, waiting for the hub's answer (the unit's own step)."""
    RESULT_IN = "result_in"
    """The hub accepted the result of the table's current game."""
    RESULT_REFUSED = "result_refused"
    """The hub refused the result; the table enters it again."""
    RESULT_MISSING = "result_missing"
    """The hub lacks the result of an earlier game of the round (the table played on)."""
    ROUND_FINISHED = "round_finished"
    """Every game of the round has its result in at the hub."""
    OFFLINE = "offline"
    """No connection between the unit and the hub."""
    BEHIND = "behind"
    """Connected, but events the unit sent a while ago are not yet stored at the hub (a
    hub that is down or cannot keep up, a link that loses what it carries)."""
    NO_DATA = "no_data"
    """The hub has not heard the table's clock yet."""
    HALL_CHECK = "hall_check"
    """The unit's self-test before the first round is running."""
    HALL_CHECK_FAULT = "hall_check_fault"
    HALL_CHECK_READY = "hall_check_ready"


@dataclass(frozen=True)
class Look:
    """A state's colours: the background of its band or cell and the text on it."""

    bg: Colour
    fg: Colour


# --- the palette both screens use -------------------------------------------------------------
# Chosen so that people who tell red from green poorly tell every state from every other
# too: any two states' colours differ by a CIEDE2000 distance of 10 or more as they look
# with protanopia and deuteranopia (and with normal vision), 20 or more between the states
# a table passes through in a game (playing, last lap, time, the judge's pause) and between
# a result in and a result refused; each state's text has WCAG AA contrast on it
# (tests/test_palette.py computes all of it). The word still names every state: no state
# is told by colour alone.

WHITE: Final[Colour] = (244, 244, 240)
BLACK: Final[Colour] = (0, 0, 0)
MUTED: Final[Colour] = (160, 168, 180)
SEA_GREEN: Final[Colour] = (0, 120, 105)
RED: Final[Colour] = (215, 0, 10)
AMBER: Final[Colour] = (230, 170, 25)
INDIGO: Final[Colour] = (85, 0, 190)
BLUE: Final[Colour] = (35, 95, 250)
NAVY: Final[Colour] = (20, 45, 90)
MAUVE: Final[Colour] = (130, 95, 150)
DARK_GREY: Final[Colour] = (62, 55, 42)
GREY: Final[Colour] = (70, 80, 95)
PALE: Final[Colour] = (195, 225, 235)
CORAL: Final[Colour] = (250, 115, 125)
CREAM: Final[Colour] = (232, 222, 170)
SKY: Final[Colour] = (80, 180, 240)
SHADOW: Final[Colour] = (40, 33, 44)

WORDS: Final[dict[TableState, str]] = {
    TableState.READY: N_("READY"),
    TableState.PLAYING: N_("PLAYING"),
    TableState.LAST_LAP: N_("LAST LAP"),
    TableState.TIME: N_("TIME"),
    TableState.PAUSED_JUDGE: N_("PAUSED — JUDGE"),
    TableState.JUDGE_CALLED: N_("JUDGE CALLED"),
    TableState.PAUSED_RESTART: N_("PAUSED — RESTARTED"),
    TableState.GAME_OVER: N_("GAME OVER"),
    TableState.ENTERING_RESULT: N_("ENTERING RESULT"),
    TableState.CONFIRMING_RESULT: N_("CONFIRM RESULT"),
    TableState.RESULT_CONFIRMED: N_("RESULT CONFIRMED"),
    TableState.RESULT_SENT: N_("RESULT SENT"),
    TableState.RESULT_IN: N_("RESULT IN"),
    TableState.RESULT_REFUSED: N_("RESULT REFUSED"),
    TableState.RESULT_MISSING: N_("RESULT MISSING"),
    TableState.ROUND_FINISHED: N_("ROUND FINISHED"),
    TableState.OFFLINE: N_("OFFLINE"),
    TableState.BEHIND: N_("BEHIND"),
    TableState.NO_DATA: N_("NO DATA"),
    TableState.HALL_CHECK: N_("HALL CHECK"),
    TableState.HALL_CHECK_FAULT: N_("HALL CHECK: FAULT"),
    TableState.HALL_CHECK_READY: N_("HALL CHECK: READY"),
}
"""The word of each state, as every screen shows it."""

SHORT_WORDS: Final[dict[TableState, str]] = {
    TableState.PAUSED_JUDGE: N_("PAUSED"),
    TableState.JUDGE_CALLED: N_("CALLED"),
    TableState.PAUSED_RESTART: N_("RESTART"),
    TableState.ENTERING_RESULT: N_("ENTERING"),
    TableState.RESULT_REFUSED: N_("REFUSED"),
    TableState.ROUND_FINISHED: N_("FINISHED"),
}
"""Shorter words where a screen has little room (the hub's judge queue, a narrow cell on
the hub's wall: the Polish words are longer); the others are short already."""

LOOKS: Final[dict[TableState, Look]] = {
    TableState.READY: Look(NAVY, WHITE),
    TableState.PLAYING: Look(SEA_GREEN, WHITE),
    TableState.LAST_LAP: Look(INDIGO, WHITE),
    TableState.TIME: Look(RED, WHITE),
    TableState.PAUSED_JUDGE: Look(AMBER, BLACK),
    TableState.JUDGE_CALLED: Look(AMBER, BLACK),
    TableState.PAUSED_RESTART: Look(AMBER, BLACK),
    TableState.GAME_OVER: Look(MAUVE, WHITE),
    TableState.ENTERING_RESULT: Look(BLUE, WHITE),
    TableState.CONFIRMING_RESULT: Look(BLUE, WHITE),
    TableState.RESULT_CONFIRMED: Look(DARK_GREY, WHITE),
    TableState.RESULT_SENT: Look(DARK_GREY, WHITE),
    TableState.RESULT_IN: Look(PALE, BLACK),
    TableState.RESULT_REFUSED: Look(CORAL, BLACK),
    TableState.RESULT_MISSING: Look(CORAL, BLACK),
    TableState.ROUND_FINISHED: Look(CREAM, BLACK),
    TableState.OFFLINE: Look(GREY, WHITE),
    TableState.BEHIND: Look(SKY, BLACK),
    TableState.NO_DATA: Look(SHADOW, MUTED),
    TableState.HALL_CHECK: Look(NAVY, WHITE),
    TableState.HALL_CHECK_FAULT: Look(AMBER, BLACK),
    TableState.HALL_CHECK_READY: Look(SEA_GREEN, WHITE),
}
"""The colours of each state, on the unit's display and on the hub screen alike."""

JUDGE_STATES: Final = frozenset(
    {TableState.PAUSED_JUDGE, TableState.JUDGE_CALLED, TableState.PAUSED_RESTART}
)
"""States in which the table waits for the judge (the hub's judge queue)."""
CLOCK_STATES: Final = frozenset(
    {
        TableState.READY,
        TableState.PLAYING,
        TableState.LAST_LAP,
        TableState.TIME,
        TableState.GAME_OVER,
        *JUDGE_STATES,
    }
)
"""The states :func:`clock_state` gives: what a table's clock alone tells."""

_PAUSED: Final = {
    PauseReason.JUDGE: TableState.PAUSED_JUDGE,
    PauseReason.PLAYER_CALL: TableState.JUDGE_CALLED,
    PauseReason.RECOVERED: TableState.PAUSED_RESTART,
}


def word(state: TableState) -> str:
    """The state's word."""
    return WORDS[state]


def short_word(state: TableState) -> str:
    """The state's word where room is short."""
    return SHORT_WORDS.get(state, WORDS[state])


def look(state: TableState) -> Look:
    """The state's colours."""
    return LOOKS[state]


def paused_state(reason: PauseReason) -> TableState:
    """The state of a clock stopped for ``reason``."""
    return _PAUSED[reason]


def clock_state(phase: Phase, paused: PauseReason | None, last_lap_left: int | None) -> TableState:
    """What a table's clock alone tells of its state (one of :data:`CLOCK_STATES`)."""
    if paused is not None and phase in (Phase.RUNNING, Phase.TIME_UP):
        return _PAUSED[paused]
    if phase is Phase.TIME_UP:
        return TableState.TIME
    if phase is Phase.GAME_OVER:
        return TableState.GAME_OVER
    if phase is Phase.READY:
        return TableState.READY
    if last_lap_left is not None:
        return TableState.LAST_LAP
    return TableState.PLAYING


# --- phrases built from a word ----------------------------------------------------------------


_MOVES_LEFT: Final = N_plural("{word} — {n} MOVE LEFT", "{word} — {n} MOVES LEFT")
_RESULTS_MISSING: Final = N_plural("{n} {word}", "{n} RESULTS MISSING")
"""One missing result is the state's own word with its count (``1 RESULT MISSING``)."""


def duration_text(seconds: float, words: Lookups = ENGLISH, *, short: bool = False) -> str:
    """How long something has lasted, whole seconds rounded down, written as a duration so
    that it never reads as a time of day: ``"42 s"``, ``"2 min 15 s"``, ``"1 h 5 min"``;
    ``short``: its largest unit alone, for a corner of a screen (``"2 min"``, ``"1 h"``)."""
    s = max(0, int(seconds))
    if s < 60:
        return words.gettext(N_("{s} s")).format(s=s)
    if s < 3600:
        m, s = divmod(s, 60)
        if not s or short:
            return words.gettext(N_("{m} min")).format(m=m)
        return words.gettext(N_("{m} min {s} s")).format(m=m, s=s)
    h, m = divmod(s // 60, 60)
    if short:
        return words.gettext(N_("{h} h")).format(h=h)
    return words.gettext(N_("{h} h {m} min")).format(h=h, m=m)


def lasting_text(state: TableState, duration: str, words: Lookups = ENGLISH) -> str:
    """The word with how long the state has lasted: ``"OFFLINE for 42 s"``, in the
    language of ``words`` (the shell's catalog; English without one); ``duration`` is
    :func:`duration_text`'s (``"2 min 15 s"``, not ``"2:15"``: after *for*, Polish *od*,
    a clock's figures read as a time of day)."""
    return words.gettext(N_("{word} for {time}")).format(
        word=words.gettext(word(state)), time=duration
    )


def last_lap_text(moves_left: int, words: Lookups = ENGLISH) -> str:
    """``"LAST LAP — 3 MOVES LEFT"``: the last lap with the moves left in it (the plural
    form for the number: Polish ZOSTAŁ 1 RUCH, ZOSTAŁY 3 RUCHY, ZOSTAŁO 5 RUCHÓW)."""
    return words.ngettext(*_MOVES_LEFT, moves_left).format(
        word=words.gettext(word(TableState.LAST_LAP)), n=moves_left
    )


def missing_text(missing: int, words: Lookups = ENGLISH) -> str:
    """``"1 RESULT MISSING"``, ``"2 RESULTS MISSING"``: earlier games without a result."""
    return words.ngettext(*_RESULTS_MISSING, missing).format(
        n=missing, word=words.gettext(word(TableState.RESULT_MISSING))
    )


def time_text(seat: Seat | None, name: str, words: Lookups = ENGLISH) -> str:
    """``"TIME — SEAT B Anna"``: who ran out of time (just ``"TIME"`` without a seat)."""
    if seat is None:
        return words.gettext(word(TableState.TIME))
    return (
        words.gettext(N_("{word} — SEAT {seat} {name}"))
        .format(word=words.gettext(word(TableState.TIME)), seat=seat, name=name)
        .rstrip()
    )


def lost_text(duration: str, words: Lookups = ENGLISH) -> str:
    """An offline table whose connection was lost, with when it was last heard of."""
    return words.gettext(N_("{word} (connection lost; last heard {time} ago)")).format(
        word=words.gettext(word(TableState.OFFLINE)), time=duration
    )

"""Sample table views: one per state the table display can show, for the PNG command
(``python -m tablekit.display``), the tests and the benchmark. The hall check's and the
result entry's screens are reached by real presses on a :class:`HallCheck` and a
:class:`ResultEntry`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import msgspec

from tablekit.controls import JudgeAction, JudgeMenu, TableAsk
from tablekit.core.clock import ClockError, ClockRules, ClockState, MoveClock, Phase
from tablekit.core.clock_events import GameEndReason, PauseReason, StarterSource
from tablekit.core.hallcheck import HallCheck
from tablekit.core.roundgames import RoundGames
from tablekit.core.rulesets import get_ruleset
from tablekit.core.scoring import GameEnding
from tablekit.core.seats import Seat
from tablekit.core.words import N_
from tablekit.notes import Note
from tablekit.result_entry import Key, ResultEntry
from tablekit.shared.i18n import DEFAULT_LANGUAGE
from tablekit.view import TableView

SAMPLE_NAMES: dict[Seat, str] = {
    Seat.A: "Anna Kowalska",
    Seat.B: "Bartłomiej Wiśniewski",
    Seat.C: "Celina Żak",
    Seat.D: "Dariusz Lewandowski-Grabowski",
}


CONSOLE = "http://rummikub.local:8080"
"""The web console's address in the samples (between games the display shows the QR code
of the table's page there)."""


def sample_views(now: float, language: str = DEFAULT_LANGUAGE) -> dict[str, TableView]:
    """One view per state the display can show, as seen at ``now``, in ``language``."""
    return {
        name: replace(view, language=language) for name, view in _sample_views(now).items()
    }


def _sample_views(now: float) -> dict[str, TableView]:
    rules = ClockRules(seats=4, move_seconds=40)
    running = ClockState(
        rules=rules,
        phase=Phase.RUNNING,
        game=2,
        move=14,
        starter=Seat.B,
        active=Seat.C,
        remaining=37.3,
        since=now,
    )

    def at(remaining: float, **changes: Any) -> ClockState:
        return msgspec.structs.replace(running, remaining=remaining, **changes)

    def view(clock: ClockState, menu: JudgeMenu | None = None, message: str = "") -> TableView:
        return TableView(
            clock, table=7, names=SAMPLE_NAMES, menu=menu, message=message, online=True
        )

    actions = (
        JudgeAction.RESUME,
        JudgeAction.RESTART_MOVE,
        JudgeAction.UNDO_PASS,
        JudgeAction.LAST_LAP,
        JudgeAction.END_GAME,
        JudgeAction.CLOSE,
    )
    game_over = ClockState(
        rules=rules, phase=Phase.GAME_OVER, game=2, move=57, ended_by=GameEndReason.WENT_OUT
    )
    return {
        "ready": view(ClockState(rules=rules, game=2)),
        "playing": view(running),
        "last-10s": view(at(8.4)),
        "last-5s": view(at(3.2)),
        "time": view(at(0.0, phase=Phase.TIME_UP, expired_at=now - 2)),
        "paused-judge": view(at(23.6, paused=PauseReason.JUDGE, paused_at=now - 5)),
        "judge-called": view(at(31.0, paused=PauseReason.PLAYER_CALL, paused_at=now - 3)),
        "restarted": view(at(12.0, paused=PauseReason.RECOVERED, paused_at=now)),
        "last-lap": view(at(28.7, last_lap_left=3)),
        "game-over": view(game_over),
        "judge-menu": view(
            at(19.2, paused=PauseReason.JUDGE, paused_at=now), menu=JudgeMenu(actions, selected=2)
        ),
        "offline": TableView(
            running, table=7, names=SAMPLE_NAMES, online=False, offline_since=now - 135.0
        ),
        "message": _refused_undo(view(at(30.0))),
        "ready-chosen": view(
            ClockState(rules=rules, game=2, starter=Seat.D, starter_from=StarterSource.TABLE)
        ),
        "ready-console": replace(view(ClockState(rules=rules, game=2)), console_url=CONSOLE),
        **_check_samples(now, rules),
        "ask-empty-rack": replace(view(at(21.5)), ask=TableAsk.END_GAME),
        "ask-bank-empty": replace(view(at(33.0)), ask=TableAsk.LAST_LAP),
        "no-names": TableView(running),
        **_entry_samples(game_over),
        **_later_samples(now, rules, game_over),
    }


def _later_samples(now: float, rules: ClockRules, game_over: ClockState) -> dict[str, TableView]:
    """The states added after the first samples (kept last, so the others' numbers stay):
    a hall check that found a fault, and a result every player confirmed, not sent yet."""
    fault = HallCheck(7, 1, now)
    for press in (fault.pass_button, fault.judge_key, fault.judge_key, fault.pass_button):
        press(now)  # the lights did not sweep
    for key in ("7", "enter"):
        fault.key(key, now)
    flow = ResultEntry(game_over.game, game_over.seats, get_ruleset("000"), GameEnding.WENT_OUT)
    confirmed = _typed(flow, "23 ENTER 0 ENTER 17+ ENTER * 31 ENTER ENTER ENTER ENTER ENTER")
    return {
        "check-fault": TableView(
            ClockState(rules=rules, game=1), table=7, online=True, check=fault.view
        ),
        "entry-confirmed": TableView(
            game_over, table=7, names=SAMPLE_NAMES, online=True, entry=confirmed.view
        ),
        **_round_games_samples(rules, game_over),
        **_step_samples(now, rules, game_over),
    }


def _step_samples(now: float, rules: ClockRules, game_over: ClockState) -> dict[str, TableView]:
    """The last lap's final move, a key pressed in a judge pause, and a rack total asked
    once more."""
    final = ClockState(
        rules=rules, phase=Phase.RUNNING, game=2, move=31, active=Seat.D, remaining=22.4,
        since=now, last_lap_left=1,
    )
    paused = msgspec.structs.replace(final, last_lap_left=None, paused=PauseReason.JUDGE)
    keys = Note.of(N_("The clock is stopped: the keys work again when the judge resumes"))
    flow = ResultEntry(
        game_over.game, game_over.seats, get_ruleset("000"), GameEnding.WENT_OUT, ask_above=150
    )
    _typed(flow, "23 ENTER 0 ENTER 350 ENTER")

    def view(clock: ClockState, **more: Any) -> TableView:
        return TableView(clock, table=7, names=SAMPLE_NAMES, online=True, **more)

    restored = Note.of(
        N_("This unit was put back from an older copy of its journal: the judge checks the "
           "table's game, then presses the judge key")
    )
    return {
        "last-lap-final": view(final),
        "paused-keys": view(paused, message=str(keys), said=keys),
        "entry-asked": view(game_over, entry=flow.view),
        "restored-older-copy": view(
            ClockState(rules=rules, game=2), held=True, message=str(restored), said=restored
        ),
    }


def _round_games_samples(rules: ClockRules, game_over: ClockState) -> dict[str, TableView]:
    """What the table shows of its round's games and the results the hub holds: a refusal
    the table can correct, the judge menu of a game whose result is at the hub and of a
    round whose games are all played, a game the judge entered at the hub."""
    flow = ResultEntry(game_over.game, game_over.seats, get_ruleset("000"), GameEnding.WENT_OUT)
    _typed(flow, "23 ENTER 0 ENTER 17+ ENTER 31+ ENTER ENTER ENTER ENTER ENTER")
    flow.mark_submitted()
    jokers = Note.of(
        N_("jokers: a table has only {most} jokers, got {total} in total"), most=2, total=3
    )
    flow.mark_rejected(str(jokers), jokers)
    accepted = ResultEntry(game_over.game, game_over.seats, get_ruleset("000"), GameEnding.WENT_OUT)
    _typed(accepted, "23 ENTER 0 ENTER 17+ ENTER 31 ENTER ENTER ENTER ENTER ENTER")
    accepted.mark_submitted()
    accepted.mark_accepted()
    next_game = RoundGames(games=3, recorded=(1, 2))
    done = RoundGames(games=2, recorded=(1, 2))
    judged = Note.of(
        N_("The judge entered the result of game {game} at the hub: this game is over"), game=2
    )

    def view(entry: ResultEntry | None, games: RoundGames, menu: JudgeMenu | None = None,
             clock: ClockState = game_over) -> TableView:
        return TableView(
            clock, table=7, names=SAMPLE_NAMES, online=True, menu=menu, games=games,
            entry=None if entry is None else entry.view,
        )

    at_hub = Note.of(
        N_("Game {game}: its result is with the hub; corrections are made at the hub"), game=2
    )
    all_played = Note.of(
        N_("All {games} games of this round are played; corrections are made at the hub"),
        games=2,
    )
    return {
        "entry-rejected-values": view(flow, next_game),
        "menu-result-at-hub": view(
            accepted, next_game, JudgeMenu((JudgeAction.START_GAME, JudgeAction.CLOSE), 0, at_hub)
        ),
        "menu-round-done": view(accepted, done, JudgeMenu((JudgeAction.CLOSE,), 0, all_played)),
        "round-done": view(accepted, done),
        "judge-entered": replace(
            view(None, next_game, clock=ClockState(rules=rules, game=3)),
            message=str(judged),
            said=judged,
        ),
    }


def _refused_undo(view: TableView) -> TableView:
    """``view`` with what the clock says when the judge undoes a pass the game does not
    have (a judge action refused: the controls show the clock's error)."""
    try:
        MoveClock().undo_pass(0.0)
    except ClockError as err:
        said = Note.of_words(err)
    return replace(view, message=str(said), said=said)


def _check_samples(now: float, rules: ClockRules) -> dict[str, TableView]:
    """The hall check's screens, each reached by real presses on a HallCheck."""
    ready = ClockState(rules=rules, game=1)

    def view(check: HallCheck) -> TableView:
        return TableView(ready, table=7, online=True, check=check.view)

    leds = HallCheck(7, 1, now)
    leds.pass_button(now)
    leds.judge_key(now)
    keypad = HallCheck(7, 1, now)
    for press in (keypad.pass_button, keypad.judge_key, keypad.pass_button, keypad.judge_key):
        press(now)  # the buzzer was not heard
    keypad.key("7", now)
    done = HallCheck(7, 1, now)
    for press in (done.pass_button, done.judge_key, done.pass_button, done.pass_button):
        press(now)
    for key in ("7", "enter"):
        done.key(key, now)
    return {
        "check-start": view(HallCheck(7, 1, now)),
        "check-leds": view(leds),
        "check-keypad": view(keypad),
        "check-done": view(done),
    }


def _typed(entry: ResultEntry, keys: str) -> ResultEntry:
    """``entry`` after ``keys``: digits, + - * / . and the words ENTER, BACKSPACE."""
    for word in keys.split():
        for key in [word] if word in ("ENTER", "BACKSPACE") else list(word):
            entry.press(Key(key))
    return entry


def _entry_samples(game_over: ClockState) -> dict[str, TableView]:
    """The result-entry screens, each reached by real key presses on a ResultEntry."""
    seats = game_over.seats

    def entry(keys: str, ruleset: str = "000") -> ResultEntry:
        flow = ResultEntry(game_over.game, seats, get_ruleset(ruleset), GameEnding.WENT_OUT)
        return _typed(flow, keys)

    def view(flow: ResultEntry, menu: JudgeMenu | None = None) -> TableView:
        return TableView(
            game_over, table=7, names=SAMPLE_NAMES, menu=menu, online=True, entry=flow.view
        )

    # A 23; B went out; C 17 and a joker; D 31 and never opened.
    typed = "23 ENTER 0 ENTER 17+ ENTER * 31 ENTER"

    def confirming(ruleset: str) -> ResultEntry:
        return entry(f"{typed} ENTER ENTER", ruleset)

    def sent() -> ResultEntry:
        flow = entry(f"{typed} ENTER ENTER ENTER ENTER")
        flow.mark_submitted()
        return flow

    accepted = sent()
    accepted.mark_accepted()
    rejected = sent()
    # what the hub sends when a judge entered the game's result first (hub.competition)
    already = Note.of(
        N_("table {table} game {game}: a result is already recorded (the game is closed); "
           "a judge corrects it at the hub"),
        table=7, game=2,
    )
    rejected.mark_rejected(str(already), already, final=True)
    judge = entry("23 ENTER 0 ENTER 17+ ENTER")
    actions = (
        JudgeAction.ACCEPT_RESULT,
        JudgeAction.COULD_HAVE_OPENED,
        JudgeAction.WAIVE_PENALTY,
        JudgeAction.SWITCH_ENDING,
        JudgeAction.START_GAME,
        JudgeAction.CLOSE,
    )
    return {
        "entry-tiles": view(entry("23 ENTER 0 ENTER 17")),
        "entry-jokers": view(entry("23 ENTER 0 ENTER 17+")),
        "entry-not-opened": view(entry("23 ENTER 0 ENTER 17+ ENTER * 31")),
        "entry-error": view(entry("23 ENTER 0 ENTER 999 ENTER")),
        "entry-empty-joker": view(entry("23 ENTER 0+")),
        "entry-confirm": view(confirming("000")),
        "entry-confirm-002": view(confirming("002")),
        "entry-sent": view(sent()),
        "entry-accepted": view(accepted),
        "entry-rejected": view(rejected),
        "entry-judge-menu": view(judge, JudgeMenu(actions, selected=1)),
    }

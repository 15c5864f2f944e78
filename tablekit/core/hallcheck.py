"""The hall check: a self-test a person completes at each table before the first round.

A pure state machine (time passed in, no I/O). The unit shows its table number large and
walks the steps; the person at the table answers each one:

1. ``PASS`` — press the pass button.
2. ``JUDGE`` — press the judge key.
3. ``LEDS`` — the LED bar sweeps and the status light cycles red, green, blue: the pass
   button says "yes, I see it", the judge key "no".
4. ``BUZZER`` — the buzzer beeps once a second: pass button "heard", judge key "no".
5. ``KEYPAD`` — type the table's number on the keypad, ENTER; the judge key skips the
   step on a unit without a keypad.

The outcome is a :class:`HallChecked` event (journalled and sent to the hub like every
unit event), so the hub can show which tables are checked and ready. A person who finds a
fault says so (``failed``): the check records it, it never decides the table is fine.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Final

import msgspec

from tablekit.core.errors import Phrase
from tablekit.core.fields import GameNo
from tablekit.core.words import N_

BEEP_PERIOD = 1.0
"""Seconds between the beeps of the buzzer step (each beep half of it)."""
SWEEP_PERIOD = 2.0
"""Seconds for the LED bar to sweep from dark to full during the LED step."""


class CheckStep(enum.StrEnum):
    PASS = "pass"
    JUDGE = "judge"
    LEDS = "leds"
    BUZZER = "buzzer"
    KEYPAD = "keypad"
    DONE = "done"


STEPS = (CheckStep.PASS, CheckStep.JUDGE, CheckStep.LEDS, CheckStep.BUZZER, CheckStep.KEYPAD)


class CheckResult(enum.StrEnum):
    OK = "ok"
    FAILED = "failed"
    """The person at the table found a fault (no light, no sound)."""
    SKIPPED = "skipped"
    """Not there to test (a unit without a keypad)."""


class HallChecked(
    msgspec.Struct, frozen=True, tag="hall_checked", tag_field="type", forbid_unknown_fields=True
):
    """The hall check's outcome at one table, journalled and sent to the hub."""

    game: GameNo
    """The game the unit was ready for (a unit event names its game)."""
    pass_button: CheckResult
    """The pass button was pressed when asked."""
    judge_key: CheckResult
    """The judge key was pressed when asked."""
    leds: CheckResult
    """The person saw the LED bar sweep and the status light change colour (``failed``:
    they said no)."""
    buzzer: CheckResult
    """The person heard the buzzer's beeps (``failed``: they said no)."""
    keypad: CheckResult
    """The table's number was typed on the keypad (``skipped``: a unit without one)."""

    @property
    def results(self) -> dict[CheckStep, CheckResult]:
        return {
            CheckStep.PASS: self.pass_button,
            CheckStep.JUDGE: self.judge_key,
            CheckStep.LEDS: self.leds,
            CheckStep.BUZZER: self.buzzer,
            CheckStep.KEYPAD: self.keypad,
        }

    @property
    def faults(self) -> tuple[CheckStep, ...]:
        return tuple(s for s, r in self.results.items() if r is CheckResult.FAILED)


STEP_WORDS = {
    CheckStep.PASS: N_("pass button"),
    CheckStep.JUDGE: N_("judge key"),
    CheckStep.LEDS: N_("lights"),
    CheckStep.BUZZER: N_("buzzer"),
    CheckStep.KEYPAD: N_("keypad"),
}
"""Each step's name, marked for the catalogs (the shell that shows it translates it)."""
NOTHING_SAID: Final = Phrase("")


@dataclass(frozen=True)
class CheckView:
    """What the display and the LEDs need of the check at one moment."""

    table: int | None
    step: CheckStep
    since: float
    """When the step began: the LED sweep and the beeps are timed from it."""
    results: tuple[tuple[CheckStep, CheckResult], ...]
    typed: str = ""
    said: Phrase = NOTHING_SAID
    """What the check tells the person (a key pressed out of turn); the shell shows it
    in the reader's language (``said.message(words.gettext)``), empty for nothing."""

    @property
    def message(self) -> str:
        """What the check tells the person, in English (``""`` for nothing)."""
        return str(self.said)


@dataclass
class HallCheck:
    """The hall check of one table; button and key presses in, a :class:`HallChecked` out."""

    table: int | None
    game: int
    since: float
    step: CheckStep = CheckStep.PASS
    results: dict[CheckStep, CheckResult] = field(default_factory=dict)
    typed: str = ""
    said: Phrase = NOTHING_SAID

    @property
    def message(self) -> str:
        """What the check tells the person, in English (``""`` for nothing)."""
        return str(self.said)

    @property
    def view(self) -> CheckView:
        return CheckView(
            self.table, self.step, self.since, tuple(self.results.items()), self.typed,
            self.said,
        )

    @property
    def done(self) -> bool:
        return self.step is CheckStep.DONE

    def pass_button(self, now: float) -> HallChecked | None:
        """The pass button went down: the step's "yes"."""
        self.said = NOTHING_SAID
        if self.step in (CheckStep.PASS, CheckStep.LEDS, CheckStep.BUZZER):
            return self._answer(CheckResult.OK, now)
        if self.step is CheckStep.JUDGE:
            self.said = Phrase(N_("That was the pass button: now the judge key"))
        elif self.step is CheckStep.KEYPAD:
            self.said = Phrase(
                N_("Type {number} on the keypad, then ENTER"), number=self._number()
            )
        return None

    def judge_key(self, now: float) -> HallChecked | None:
        """The judge key went down: the step's "no" (or the judge key's own step)."""
        self.said = NOTHING_SAID
        match self.step:
            case CheckStep.JUDGE:
                return self._answer(CheckResult.OK, now)
            case CheckStep.LEDS | CheckStep.BUZZER:
                return self._answer(CheckResult.FAILED, now)
            case CheckStep.KEYPAD:
                return self._answer(CheckResult.SKIPPED, now)
            case CheckStep.PASS:
                self.said = Phrase(N_("That was the judge key: first the pass button"))
        return None

    def key(self, key: str, now: float) -> HallChecked | None:
        """A keypad key: in the keypad step it types the table's number; in the other
        steps it only says what to press instead."""
        self.said = NOTHING_SAID
        if self.step is not CheckStep.KEYPAD:
            self.said = Phrase(_KEYPAD_LAST[self.step])
            return None
        if key.isdigit():
            self.typed = (self.typed + key)[-3:]
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif key == "enter":
            if self.typed == self._number():
                return self._answer(CheckResult.OK, now)
            self.said = Phrase(
                N_("Typed {typed}: type {number}, then ENTER")
                if self.typed
                else N_("Typed nothing: type {number}, then ENTER"),
                typed=self.typed, number=self._number(),
            )
            self.typed = ""
        return None

    def _number(self) -> str:
        return str(self.table) if self.table is not None else "0"

    def _answer(self, result: CheckResult, now: float) -> HallChecked | None:
        self.results[self.step] = result
        self.typed = ""
        index = STEPS.index(self.step) + 1
        self.since = now
        if index < len(STEPS):
            self.step = STEPS[index]
            return None
        self.step = CheckStep.DONE
        r = self.results
        return HallChecked(
            game=self.game,
            pass_button=r[CheckStep.PASS],
            judge_key=r[CheckStep.JUDGE],
            leds=r[CheckStep.LEDS],
            buzzer=r[CheckStep.BUZZER],
            keypad=r[CheckStep.KEYPAD],
        )


_KEYPAD_LAST: Final = {
    CheckStep.PASS: N_("The keypad comes last; now: press the pass button"),
    CheckStep.JUDGE: N_("The keypad comes last; now: press the judge key"),
    CheckStep.LEDS: N_("The keypad comes last; now: lights: pass button yes, judge key no"),
    CheckStep.BUZZER: N_("The keypad comes last; now: buzzer: pass button yes, judge key no"),
    CheckStep.DONE: N_("The keypad comes last; now: done"),
}
"""What a keypad key pressed before the keypad step says, by the step the check is at."""

"""The headless unit's output: one line on the terminal per change of state, in the
unit's language (its view's: the config's ``[unit] language``, ``--lang``, then the hall's),
and one when the LEDs or the buzzer change pattern (:class:`SignalsPrinter`)."""

from __future__ import annotations

import sys
from typing import TextIO

from tablekit.config import BuzzerSettings
from tablekit.controls import action_words
from tablekit.core.clock import Phase
from tablekit.core.clock_events import StarterSource
from tablekit.core.hallcheck import STEP_WORDS, CheckResult
from tablekit.core.status import TableState, word
from tablekit.core.words import N_
from tablekit.result_entry import Step
from tablekit.shared.i18n import words
from tablekit.signals import Pattern, Sound, beep_windows, signal_pattern
from tablekit.view import TableView


class TerminalPrinter:
    """Prints what the display would show, once per change (never once per tick)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout
        self._last = ""

    def show(self, view: TableView, now: float) -> None:
        line = describe(view, now)
        if line != self._last:
            self._last = line
            print(line, file=self.stream, flush=True)

    def close(self) -> None:
        self.stream.flush()


class SignalsPrinter:
    """The LED bar, the status light and the buzzer of a unit without them (the headless
    simulator), as the GPIO outputs would drive them: a line when the status light or the
    buzzer changes pattern, or the countdown passes a beep mark (never once per frame)."""

    def __init__(
        self, buzzer: BuzzerSettings, bar_length: int, stream: TextIO | None = None
    ) -> None:
        self.buzzer = buzzer
        self.bar_length = bar_length
        self.stream = stream or sys.stdout
        self._last: tuple[object, ...] | None = None

    def show(self, view: TableView, now: float) -> None:
        pattern = signal_pattern(view, now, self.buzzer, self.bar_length)
        key = (pattern.status, pattern.sound, pattern.marks)
        if key != self._last:
            self._last = key
            print(self.describe(view, pattern), file=self.stream, flush=True)

    def describe(self, view: TableView, pattern: Pattern) -> str:
        _ = words(view.language).gettext
        sound = _(pattern.sound.value)
        if pattern.marks and pattern.sound is Sound.SILENT:
            windows = beep_windows(view.clock.rules.move_seconds, self.buzzer)
            seconds = sorted((high for _low, high in windows), reverse=True)[pattern.marks - 1]
            sound = _("a beep, {seconds} s left").format(seconds=f"{seconds:g}")
        return _("status light: {status} · LED bar: {lit} of {leds} · buzzer: {sound}").format(
            status=_(pattern.status.value), lit=pattern.lit, leds=self.bar_length, sound=sound
        )

    def close(self) -> None:
        self.stream.flush()


_STARTERS = {
    StarterSource.ROTATION: N_("rotation"),
    StarterSource.HUB: N_("organizer's choice"),
    StarterSource.TABLE: N_("chosen here"),
}
"""Who chose the seat that starts the next game."""
_RESULTS = {
    CheckResult.OK: N_("ok"),
    CheckResult.FAILED: N_("failed"),
    CheckResult.SKIPPED: N_("skipped"),
}
"""A hall check step's answer."""
_ENTRY_STEPS = {
    Step.TILES: N_("tiles"),
    Step.JOKERS: N_("jokers"),
    Step.CONFIRM: N_("confirm"),
    Step.READY: N_("ready"),
    Step.SUBMITTED: N_("sent"),
    Step.ACCEPTED: N_("accepted"),
    Step.REJECTED: N_("rejected"),
}
"""Where result entry is."""


def describe(view: TableView, now: float) -> str:
    """The view as one line, in the view's language (:attr:`TableView.language`)."""
    w = words(view.language)
    _ = w.gettext
    c = view.clock
    parts = [
        _("[table {table} game {game} move {move}]").format(
            table=view.table or "-", game=c.game, move=c.move
        ),
        _(view.state_word),
    ]
    if c.active is not None:
        name = view.names.get(c.active, "")
        parts.append(_("seat {seat} {name}").format(seat=c.active, name=name).rstrip())
        if c.phase is Phase.RUNNING and c.paused is None:
            seconds = f"{c.rules.move_seconds:.0f}"
            parts.append(_("clock running ({seconds} s a move)").format(seconds=seconds))
        else:
            parts.append(_("{seconds} s left").format(seconds=f"{view.remaining(now):.0f}"))
        if view.clock.on_deck is not None:
            parts.append(_("next {seat}").format(seat=view.clock.on_deck))
    if c.phase is Phase.READY:
        parts.append(
            _("seat {seat} starts ({chosen})").format(
                seat=c.upcoming_starter, chosen=_(_STARTERS[c.starter_from])
            )
        )
    if c.last_lap_left is not None:
        parts.append(
            w.ngettext("last lap: {n} move", "last lap: {n} moves", c.last_lap_left).format(
                n=c.last_lap_left
            )
        )
    if view.ask is not None:
        parts.append(
            _("asks: {question}? ENTER yes, any other key no").format(
                question=_(action_words(view.ask))
            )
        )
    if view.check is not None:
        k = view.check
        done = " ".join(f"{_(STEP_WORDS[s])}:{_(_RESULTS[r])}" for s, r in k.results)
        step = _(STEP_WORDS[k.step]) if k.step in STEP_WORDS else _("done")
        parts.append(
            _("hall check table {table}: {step} [{typed}] {done}")
            .format(table=k.table, step=step, typed=k.typed, done=done)
            .rstrip()
        )
        said = k.said.message(_)
        if said:
            parts.append(f"— {said}")
    if view.entry is not None:
        e = view.entry
        where = _(" seat {seat}").format(seat=e.seat) if e.seat is not None else ""
        jokers = (
            w.ngettext(" +{n} joker", " +{n} jokers", e.jokers_typed).format(n=e.jokers_typed)
            if e.jokers_typed
            else ""
        )
        parts.append(
            _("result: {step}{seat} [{typed}{jokers}]").format(
                step=_(_ENTRY_STEPS[e.step]), seat=where, typed=e.buffer, jokers=jokers
            )
        )
        if e.score is not None:
            parts.append(" ".join(f"{s.seat}:{s.small:+d}/{s.big}" for s in e.score.scores))
    if view.menu is not None:
        items = [
            ("▶" if i == view.menu.selected else " ") + f"{i + 1} {_(action_words(a))}"
            for i, a in enumerate(view.menu.actions)
        ]
        parts.append(_("judge menu: {items}").format(items=" | ".join(items)))
        if view.menu.note:
            parts.append(f"({view.menu.note.say(_)})")
    if view.online is False:
        parts.append(_(word(TableState.OFFLINE)))
    said = view.said.say(_) if view.said else view.message
    if said:
        parts.append(f"— {said}")
    return "  ".join(parts)

"""The headless unit's output: one line on the terminal per change of state."""

from __future__ import annotations

import sys
from typing import TextIO

from tablekit.core.clock import Phase
from tablekit.core.status import TableState, word
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


def describe(view: TableView, now: float) -> str:
    c = view.clock
    parts = [f"[table {view.table or '-'} game {c.game} move {c.move}]", view.state_word]
    if c.active is not None:
        parts.append(f"seat {c.active} {view.names.get(c.active, '')}".rstrip())
        if c.phase is Phase.RUNNING and c.paused is None:
            parts.append(f"clock running ({c.rules.move_seconds:.0f}s a move)")
        else:
            parts.append(f"{view.remaining(now):.0f}s left")
        if view.clock.on_deck is not None:
            parts.append(f"next {view.clock.on_deck}")
    if c.phase is Phase.READY:
        parts.append(f"seat {c.upcoming_starter} starts ({c.starter_from.value})")
    if c.last_lap_left is not None:
        parts.append(f"last lap: {c.last_lap_left} moves")
    if view.ask is not None:
        parts.append(f"asks: {view.ask.value}? ENTER yes, any other key no")
    if view.check is not None:
        k = view.check
        done = " ".join(f"{step.value}:{result.value}" for step, result in k.results)
        parts.append(f"hall check table {k.table}: {k.step.value} [{k.typed}] {done}".rstrip())
        if k.message:
            parts.append(f"— {k.message}")
    if view.entry is not None:
        e = view.entry
        where = f" seat {e.seat}" if e.seat is not None else ""
        jokers = f" +{e.jokers_typed} joker(s)" if e.jokers_typed else ""
        parts.append(f"result {e.step.value}{where} [{e.buffer}{jokers}]")
        if e.score is not None:
            parts.append(" ".join(f"{s.seat}:{s.small:+d}/{s.big}" for s in e.score.scores))
    if view.menu is not None:
        items = [
            ("▶" if i == view.menu.selected else " ") + f"{i + 1} {a.value}"
            for i, a in enumerate(view.menu.actions)
        ]
        parts.append("judge menu: " + " | ".join(items))
    if view.online is False:
        parts.append(word(TableState.OFFLINE))
    if view.message:
        parts.append(f"— {view.message}")
    return "  ".join(parts)

"""Simulated table units: a real table unit (:func:`tablekit.app.build` on its config) on
a thread of its own, played by a :class:`tablekit.bot.TableBot` — the demo's tables and
the rehearsal's."""

from __future__ import annotations

import threading
from pathlib import Path

from tablekit.app import build
from tablekit.bot import BotStyle, TableBot
from tablekit.config import UnitConfig
from tablekit.unit import Quit, TableUnit


class SimulatedTables:
    """The simulated tables started, stopped together."""

    def __init__(self) -> None:
        self.units: list[TableUnit] = []
        self.bots: list[TableBot] = []
        self.threads: list[threading.Thread] = []

    def start(self, config: UnitConfig, journal: Path, style: BotStyle, seed: int | None) -> None:
        """A table unit on ``config`` journaling to ``journal``, and its players."""
        unit = build(config, journal)
        bot = TableBot(unit.put, lambda: unit.view, style, seed=seed)
        loop = threading.Thread(target=unit.run, name=f"table-{config.unit.table}", daemon=True)
        loop.start()
        bot.start()
        self.units.append(unit)
        self.bots.append(bot)
        self.threads.append(loop)

    def stop(self) -> None:
        """Stop the players, then the units and their links; safe for none started."""
        for bot in self.bots:
            bot.stop_event.set()
        for unit in self.units:
            unit.put(Quit())
        for bot in self.bots:
            bot.stop()
        for thread in self.threads:
            thread.join(timeout=5)
        for unit in self.units:
            stop_link = getattr(unit.uplink, "stop", None)
            if stop_link is not None:
                stop_link()

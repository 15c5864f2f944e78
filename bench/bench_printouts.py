"""PDF printouts: WeasyPrint's time per document, beside a one-line PDF made in the same run.

For a school contest of ``--players`` players (16 and 100 by default: a club evening
and a hall of 25 tables), round 1 drawn: the seating, find your table, the score
sheets (a page per table) and the standings are made as HTML once, then each is turned
into a PDF (:func:`hub.printing.pdf`) ``--repeat`` times. The baseline is the fixed
cost of a PDF: a one-paragraph A4 document with the same style sheet, same fonts.
Prints the median milliseconds and the size; never asserts.

Run: ``.venv/bin/python bench/bench_printouts.py [--players 16 100] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from hub import printing
from hub.competition import Competition, EventCreated, OrganizerFact
from hub.exports.pages import document
from hub.exports.printouts import printouts
from hub.tournament import Player, PlayerCheckedIn, PlayerRegistered, preset
from tablekit.shared.i18n import words

GIVEN = ["Anna", "Łucja", "Żaneta", "Ścibor", "Grzegorz", "Małgorzata", "Jan", "Óla"]
SURNAMES = ["Nowak", "Ćwiek", "Źdźbło", "Kowalczyk-Wiśniewska", "Brzęczyszczykiewicz", "Łoś"]


def contest(players: int, rng: random.Random) -> Competition:
    comp = Competition().apply(
        EventCreated(at=1.0, name="Konkurs — Łódź", preset="school", format=preset("school"))
    )
    for i in range(1, players + 1):
        name = f"{rng.choice(GIVEN)} {rng.choice(SURNAMES)}"
        player = Player(f"P{i:03d}", name, f"SP {rng.randint(1, 40)} Łódź")
        comp = comp.apply(OrganizerFact(at=1.0, fact=PlayerRegistered(player)))
        comp = comp.apply(OrganizerFact(at=1.0, fact=PlayerCheckedIn(player.id)))
    return comp.apply(OrganizerFact(at=2.0, fact=comp.event.draw_next(1)))


def median_ms(make: Callable[[], bytes], repeat: int) -> tuple[float, bytes]:
    times, data = [], b""
    for _ in range(repeat):
        start = time.perf_counter()
        data = make()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[16, 100])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    start = time.perf_counter()
    printing.pdf(document("warm-up", "<p>Zażółć</p>", words("pl")))  # import, fonts
    first = (time.perf_counter() - start) * 1000
    print(f"first PDF of the process (import, fonts): {first:.0f} ms")
    line = document("baseline", "<p>Zażółć gęślą jaźń</p>", words("pl"))
    base, _ = median_ms(lambda: printing.pdf(line), args.repeat)
    print(f"baseline, a one-line A4 PDF: {base:.0f} ms")
    for players in args.players:
        comp = contest(players, random.Random(players))
        for stem, doc in printouts(comp, words("pl")).items():
            ms, data = median_ms(lambda doc=doc: printing.pdf(doc), args.repeat)
            print(
                f"{players:4d} players  {stem:16s} {ms:7.0f} ms  ({ms / base:5.1f}× baseline)"
                f"  {len(data) // 1024} kB"
            )


if __name__ == "__main__":
    main()

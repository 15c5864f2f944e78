"""A sample hall: plausible tables in every state, with standings and seating, for the
documented PNG command (``rummikub-screen --demo N --png DIR``), the screen's ``--demo``
mode, the tests and the benchmark. Reproducible by its seed; nothing here is real data."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace
from typing import Final

import msgspec

from hub.hall import HallView, ResultState, TableCell
from tablekit.core.clock import Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.errors import Phrase
from tablekit.core.gender import propose
from tablekit.core.messages import (
    PROTOCOL_VERSION,
    RoundInfo,
    SeatingBoard,
    SeatingLine,
    StandingLine,
    StandingsBoard,
)
from tablekit.core.names import name_order, split_name
from tablekit.core.seats import SEATS
from tablekit.core.words import N_

_FIRST: Final = (
    "Anna Jan Łukasz Maria Piotr Zofia Tomasz Ewa Krzysztof Agnieszka Michał Katarzyna Paweł "
    "Magdalena Marek Joanna Adam Barbara Ola Wojciech"
)
_LAST: Final = (  # the men's forms; a woman's -ski, -cki is -ska, -cka (Anna Kowalska)
    "Nowak Kowalski Wiśniewski Wójcik Kamiński Lewandowski Zieliński Szymański Woźniak "
    "Dąbrowski Kozłowski Jankowski Mazur Kwiatkowski Krawczyk Piotrowski Grabowski Pawłowski "
    "Michalski Brzęczyszczykiewicz"
)


def _surname(last: str, first: str) -> str:
    """``last`` in the form that agrees with ``first``: the sample's women's names end in
    -a, as Polish given names of women do (Anna Kowalska beside Jan Kowalski)."""
    if first.endswith("a") and last.endswith(("ski", "cki")):
        return last[:-1] + "a"
    return last


def sample_names(count: int, seed: int = 7) -> list[str]:
    """``count`` distinct plausible names, given name first as the kit writes them ("Anna
    Nowak"), reproducible by ``seed``."""
    rng = random.Random(seed)
    pool = [
        f"{first} {_surname(last, first)}" for last in _LAST.split() for first in _FIRST.split()
    ]
    rng.shuffle(pool)
    names = pool[:count]
    while len(names) < count:
        names.append(f"{pool[len(names) % len(pool)]} {len(names) // len(pool) + 1}")
    return names


SAMPLE_CONSOLE = "http://rummikub.local:8080"
"""The web console's address in the sample hall (the list pages show its QR code)."""


def sample_hall(tables: int, now: float, seed: int = 7) -> HallView:
    """A plausible hall of ``tables`` tables in every state, with standings and seating."""
    rng = random.Random(seed)
    three = min(3, tables // 5) if tables >= 10 else 0  # a few 3-player tables at the end
    sizes = [3 if i >= tables - three else 4 for i in range(tables)]
    names = sample_names(sum(sizes), seed)
    info = RoundInfo(
        v=PROTOCOL_VERSION,
        stage="Eliminacje",
        round=2,
        games=3,
        deadline=now + 2533.0,
    )
    views: list[TableCell] = []
    k = 0
    specials: dict[int, str] = {}
    if tables >= 2:
        specials = {2: "judge", 4: "offline", 5: "call", 7: "time", 8: "entering", 9: "in"}
        specials.update({3: "lastlap", 6: "ready", 10: "slow", 11: "over"})
        specials.update({12: "refused", 13: "finished", 14: "missing"})
    for i, size in enumerate(sizes):
        number = i + 1
        seats = tuple(names[k : k + size])
        k += size
        kind = specials.get(number, "play") if tables > 1 else "play"
        game = rng.choice((2, 2, 2, 3)) if kind != "slow" else 1
        move = rng.randint(50, 90)
        active = SEATS[move % size]
        t = TableCell(
            number=number,
            seats=seats,
            stage="R2",
            game=game,
            games=3,
            phase=Phase.RUNNING,
            active=active,
            remaining=float(rng.randint(3, 40)) - 0.25,
            measured_at=now - rng.random() * 2,
            move=move,
            timeouts=tuple(rng.choice((0, 0, 0, 0, 1, 2)) for _ in range(size)),
            pace_since=now - 240.0,
            pace_moves=move - rng.randint(40, 56),
        )
        if kind == "judge":
            t = replace(t, paused=PauseReason.JUDGE, paused_since=now - 150.0)
        elif kind == "call":
            t = replace(t, paused=PauseReason.PLAYER_CALL, paused_since=now - 35.0)
        elif kind == "offline":
            t = replace(t, online=False, offline_since=now - 42.0)
        elif kind == "time":
            t = replace(t, phase=Phase.TIME_UP, remaining=0.0)
        elif kind == "entering":
            t = replace(t, phase=Phase.GAME_OVER, active=None, result=ResultState.ENTERING)
        elif kind == "in":
            t = replace(t, phase=Phase.GAME_OVER, active=None, result=ResultState.IN)
        elif kind == "refused":
            t = replace(
                t,
                phase=Phase.GAME_OVER,
                active=None,
                result=ResultState.REFUSED,
                refused=Phrase(
                    N_("jokers: a table has only {most} jokers, got {total} in total"),
                    most=2, total=3,
                ),  # what the hub sends (tablekit.core.scoring)
            )
        elif kind == "finished":
            t = replace(
                t,
                phase=Phase.GAME_OVER,
                active=None,
                result=ResultState.IN,
                game=3,
                finished=True,
            )
        elif kind == "missing":
            t = replace(t, game=3, missing=1)
        elif kind == "over":
            t = replace(t, phase=Phase.GAME_OVER, active=None)
        elif kind == "lastlap":
            t = replace(t, last_lap_left=3)
        elif kind == "ready":
            t = replace(t, phase=Phase.READY, active=None, move=0, game=2, remaining=40.0)
        elif kind == "slow":
            t = replace(t, pace_moves=move - 12, timeouts=(2, 1, 0, 3)[:size])
        views.append(t)
    standings = sample_standings(names, seed)
    seating = SeatingBoard(
        v=PROTOCOL_VERSION,
        stage="Eliminacje",
        round=3,
        rows=tuple(
            sorted(  # as the hub sends them: in the order of every list of people
                (
                    SeatingLine(name=n, table=1 + j // 4, seat=SEATS[j % 4])
                    for j, n in enumerate(rng.sample(names, len(names)))
                    if 1 + j // 4 <= 999
                ),
                key=lambda line: name_order(line.name),
            )
        ),
    )
    return HallView(
        tables=tuple(views),
        round=info,
        standings=standings,
        seating=seating,
        title="Zimowe Mistrzostwa Klubu",
        console_url=SAMPLE_CONSOLE,
    )


def sample_standings(names: Iterable[str], seed: int = 7) -> StandingsBoard:
    rng = random.Random(seed + 1)
    scored = [(rng.randint(0, 4), rng.randint(-40, 60) * 5, n) for n in names]
    if len(scored) >= 4:  # make sure some places are shared
        scored[1] = (scored[0][0], scored[0][1], scored[1][2])
        scored[3] = (scored[2][0], scored[2][1], scored[3][2])
    scored.sort(key=lambda s: (-s[0], -s[1], name_order(s[2])))
    rows: list[StandingLine] = []
    for i, (big, small, name) in enumerate(scored):
        level = i and (scored[i - 1][0], scored[i - 1][1]) == (big, small)
        place = rows[-1].place if level else i + 1
        rows.append(StandingLine(place=place, name=name, big=big, small=small, games=6))
    return StandingsBoard(v=PROTOCOL_VERSION, stage="Eliminacje", after_round=1, rows=tuple(rows))


def final_hall(tables: int, now: float, seed: int = 7) -> HallView:
    """The sample hall when its event is over: the last round closed, every table's
    round finished, the final standings with the titles of the first places (champion,
    then two vice-champions), no next seating."""
    hall = sample_hall(tables, now, seed)
    assert hall.round is not None and hall.standings is not None
    titles = {1: "champion", 2: "vice-champion", 3: "vice-champion"}
    rows = tuple(
        msgspec.structs.replace(
            row, title=titles[row.place], gender=propose(split_name(row.name)[0])
        )
        if row.place in titles
        else row
        for row in hall.standings.rows
    )
    return replace(
        hall,
        tables=tuple(
            replace(t, phase=Phase.GAME_OVER, active=None, result=ResultState.IN,
                    game=t.games or 1, finished=True, online=True, known=True, paused=None,
                    missing=0, last_lap_left=None)
            for t in hall.tables
        ),
        round=msgspec.structs.replace(hall.round, round=4, closed=True, deadline=None),
        standings=msgspec.structs.replace(hall.standings, after_round=4, rows=rows, final=True),
        seating=None,
    )


"""Ready-made formats (RULES.md §4), runnable by name with :func:`preset`.

League tournaments (003) by entry count — :func:`league_scheme_for`:

====== ============ ================================================================
count  scheme        first stage
====== ============ ================================================================
8      TOP 8         2 tables of 4
9–12   TOP 12        3 tables (9: 3,3,3 · 10: 4,3,3 · 11: 4,4,3 · 12: 4,4,4)
13–16  TOP 16        4 tables (13: 4,3,3,3 · 14: 4,4,3,3 · 15: 4,4,4,3 · 16: 4×4)
17–20  TOP 20        5 tables (17: 4,4,3,3,3 … 20: 5×4); top 3 of each table → TOP 15
21–23  TOP 32        7 tables of 3–4; the 16 best across tables (top 2 of each table and
                     the 2 best third places by BP then SP) → TOP 16
24–32  TOP 32        8 tables (24: 8×3 … 32: 8×4); top 2 of each table → TOP 16
====== ============ ================================================================

After the first stage every scheme seats its last stage by table placement (winners
table 1, seconds table 2 …, see :func:`hub.tournament.seating.by_table_placement` for
uneven counts); that stage's table 1 plays for places 1–4, table 2 for 5–8 and so on.
TOP 20 and TOP 32 have a middle stage: the qualifiers (TOP 15 / TOP 16) are drawn at
random into tables of 3–4, keeping first-stage table-mates apart where possible; that
stage's result then seats the placement stage. The players who do not qualify play two
**consolation** games in that middle stage, drawn the same way (003 §7: every
participant plays at least 4 games); they rank below all qualifiers by their place at
their consolation table, then BP, then SP (TOP 20: places 16–20 — 003's points formula
still gives 16th one point; TOP 32: places 17–32, no points). When they cannot sit at
tables of 3 or 4 (2 or 5 of them: TOP 20 with 17 or 20 entrants, TOP 32 with 21) the
draw asks the organizer (003 §10e lets the organizer adjust the tables):
:class:`~hub.tournament.facts.ConsolationDecided` moves the best of them up into the
qualifiers' stage (5 left: 1 up makes the TOP 16 that 003 §10e.c prefers), or records
that they play no more games. Every player plays 4 games (TOP 8, 12, 16), 4 or 6 (TOP 20
and 32: consolation 4, qualifiers 6).
"""

from __future__ import annotations

from hub.tournament.errors import FormatError, PlayerCountError
from hub.tournament.format_words import CHAMPIONSHIP, LEAGUE, SCHOOL, WINTER
from hub.tournament.formats import (
    Everyone,
    Group,
    RankRule,
    Rest,
    Stage,
    TablePlaces,
    Title,
    TopAcrossTables,
    TopOverall,
    TournamentFormat,
)
from hub.tournament.seating import SeatingMethod
from tablekit.core.errors import Phrase
from tablekit.core.words import N_

LEAGUE_MIN_PLAYERS = 8
LEAGUE_MAX_PLAYERS = 32
CHAMPIONSHIP_MIN_PLAYERS = 16
CHAMPIONSHIP_MAX_PLAYERS = 36
#: 002 §2b: "Do półfinałów zakwalifikuje się 8 lub 6 osób".
CHAMPIONSHIP_SEMIFINALS = (8, 6)
#: Practical ceiling for open formats (winter, school): 100 tables.
OPEN_MAX_PLAYERS = 400

#: The group of players who do not reach TOP 15 / TOP 16 (003 §7).
CONSOLATION = "consolation"

LEAGUE_SCHEMES: tuple[str, ...] = ("top8", "top12", "top16", "top20", "top32")
PRESET_NAMES: tuple[str, ...] = (
    "winter",
    "school",
    "championship",
    "league",
    *(f"league-{s}" for s in LEAGUE_SCHEMES),
)

PRESET_BY_DOCUMENT: dict[str, str] = {
    "000": "winter",
    "002": "championship",
    "003": "league",
    "004": "school",
}
"""The presets by the number of the rule book they follow (docs/rules.md)."""


def preset_name(text: str) -> str:
    """The preset ``text`` names: a name in any letter case, or a rule book's number.

    Raises FormatError naming the presets for anything else.
    """
    name = text.strip().lower()
    name = PRESET_BY_DOCUMENT.get(name, name)
    if name not in PRESET_NAMES:
        numbers = ", ".join(f"{n} = {p}" for n, p in PRESET_BY_DOCUMENT.items())
        raise FormatError(
            N_("unknown preset {preset!r}, expected one of {known} (or a rule book's number: "
               "{numbers})"),
            preset=text, known=", ".join(PRESET_NAMES), numbers=numbers,
        )
    return name


def _cumulative(prefix: str, i: int) -> tuple[str, ...]:
    return tuple(f"{prefix}-{k}" for k in range(1, i + 1))


def winter(ruleset: str = "000") -> TournamentFormat:
    """000: Round I 3 games by random draw, Round II 3 games seated by standings; the
    first place is the school champion, the next two vice-champions (000 §11)."""
    return TournamentFormat(
        name="winter",
        description=str(Phrase(WINTER)),
        stages=(
            Stage("round-1", 3, ruleset, (Group("all", Everyone(), SeatingMethod.RANDOM),)),
            Stage(
                "round-2",
                3,
                ruleset,
                (Group("all", Everyone(), SeatingMethod.BY_STANDINGS),),
                counts=("round-1", "round-2"),
            ),
        ),
        min_players=3,
        max_players=OPEN_MAX_PLAYERS,
        titles=(Title(1, 1, "school champion"), Title(2, 3, "vice-champion")),
    ).validate()


def school(ruleset: str = "004", rounds: int = 4, games: int = 2) -> TournamentFormat:
    """004: ``rounds`` rounds of ``games`` games, a new draw (avoiding repeats) each round."""
    stages = tuple(
        Stage(
            f"round-{i}",
            games,
            ruleset,
            (
                Group(
                    "all",
                    Everyone(),
                    SeatingMethod.RANDOM if i == 1 else SeatingMethod.RANDOM_AVOIDING_REPEATS,
                ),
            ),
            counts=_cumulative("round", i),
        )
        for i in range(1, rounds + 1)
    )
    return TournamentFormat(
        name="school",
        description=str(Phrase(SCHOOL, rounds=rounds, games=games)),
        stages=stages,
        min_players=3,
        max_players=OPEN_MAX_PLAYERS,
        titles=(Title(1, 1, "winner"),),
    ).validate()


def championship(semifinal: int = 8, ruleset: str = "002") -> TournamentFormat:
    """002: eliminations 3 × 2 games, semifinal (top ``semifinal``) seeded snake, final of 4.

    Each elimination is drawn (002 §2: the lot decides the tables); from the second on
    the draw keeps earlier table-mates apart where it can, as the school contest's does.

    Final ranking: the final's table decides places 1–4 (BP then SP over the final's
    games); the semifinal players who did not reach the final follow by BP then SP over
    the semifinal games (both tables together); everyone else follows in elimination
    order (BP then SP over the 6 elimination games).
    """
    if semifinal not in CHAMPIONSHIP_SEMIFINALS:
        raise FormatError(
            N_("championship: a semifinal of {count} players; 002 §2b seats 8 or 6 "
               "(two tables of 4 or of 3)"),
            count=semifinal,
        )
    elims = tuple(
        Stage(
            f"elimination-{i}",
            2,
            ruleset,
            (
                Group(
                    "all",
                    Everyone(),
                    SeatingMethod.RANDOM if i == 1 else SeatingMethod.RANDOM_AVOIDING_REPEATS,
                ),
            ),
            counts=_cumulative("elimination", i),
        )
        for i in (1, 2, 3)
    )
    return TournamentFormat(
        name="championship",
        description=str(Phrase(CHAMPIONSHIP, semifinal=semifinal)),
        stages=(
            *elims,
            Stage(
                "semifinal",
                2,
                ruleset,
                (
                    Group(
                        "semifinal",
                        TopOverall(semifinal, "elimination-3"),
                        SeatingMethod.SEEDED_SNAKE,
                    ),
                ),
            ),
            Stage(
                "final",
                2,
                ruleset,
                (
                    Group(
                        "final",
                        TablePlaces(1, 2, "semifinal"),
                        SeatingMethod.BY_TABLE_PLACEMENT,
                    ),
                ),
                ranking=RankRule.TABLE_BLOCKS,
            ),
        ),
        min_players=CHAMPIONSHIP_MIN_PLAYERS,
        max_players=CHAMPIONSHIP_MAX_PLAYERS,
        titles=(
            Title(1, 1, "champion"),
            Title(2, 2, "vice-champion"),
            Title(3, 3, "second vice-champion"),
        ),
    ).validate()


def league_scheme_for(count: int) -> str:
    """The league scheme for ``count`` entrants (table in the module doc)."""
    if not LEAGUE_MIN_PLAYERS <= count <= LEAGUE_MAX_PLAYERS:
        raise PlayerCountError(
            N_("league: {count} players, a league tournament takes {fewest}–{most}"),
            count=count, fewest=LEAGUE_MIN_PLAYERS, most=LEAGUE_MAX_PLAYERS,
        )
    if count <= 8:
        return "top8"
    if count <= 12:
        return "top12"
    if count <= 16:
        return "top16"
    if count <= 20:
        return "top20"
    return "top32"


def _first_stage(tables: int, ruleset: str) -> Stage:
    return Stage(
        "tables",
        2,
        ruleset,
        (Group("tables", Everyone(), SeatingMethod.LEAGUE_SEEDED, tables=tables),),
        ranking=RankRule.TABLE_PLACE,
    )


def _placement(name: str, of: str, ruleset: str, group: str | None = None) -> Stage:
    return Stage(
        name,
        2,
        ruleset,
        (Group("placement", TopAcrossTables(of, group=group), SeatingMethod.BY_TABLE_PLACEMENT),),
        ranking=RankRule.TABLE_BLOCKS,
    )


def _with_consolation(name: str, main: Group, ruleset: str) -> Stage:
    """The second stage of TOP 20 / TOP 32: the qualifiers, and the consolation games of
    everyone else (003 §7: at least 4 games each; 003: no league points past 16th)."""
    draw = SeatingMethod.RANDOM_AVOIDING_REPEATS
    return Stage(
        name,
        2,
        ruleset,
        (main, Group(CONSOLATION, Rest("tables"), draw)),
        ranking=RankRule.TABLE_PLACE,
    )


def league(scheme: str, players: int | None = None, ruleset: str = "003") -> TournamentFormat:
    """A league tournament (003) with scheme ``top8`` … ``top32`` (module doc).

    ``players`` matters only for ``top32``: with 21–23 entrants the first stage has 7
    tables instead of 8 (module doc).
    """
    draw = SeatingMethod.RANDOM_AVOIDING_REPEATS
    stages: tuple[Stage, ...]
    if scheme == "top8":
        stages = (
            _first_stage(2, ruleset),
            Stage(
                "finals",
                2,
                ruleset,
                (
                    Group("final", TablePlaces(1, 2, "tables"), SeatingMethod.BY_TABLE_PLACEMENT),
                    Group(
                        "consolation", TablePlaces(3, 4, "tables"), SeatingMethod.BY_TABLE_PLACEMENT
                    ),
                ),
                ranking=RankRule.TABLE_BLOCKS,
            ),
        )
        low, high = 7, 8
    elif scheme in ("top12", "top16"):
        tables = 3 if scheme == "top12" else 4
        stages = (_first_stage(tables, ruleset), _placement("placement", "tables", ruleset))
        low, high = 3 * tables, 4 * tables
    elif scheme == "top20":
        stages = (
            _first_stage(5, ruleset),
            _with_consolation(
                "top-15", Group("top-15", TablePlaces(1, 3, "tables"), draw), ruleset
            ),
            _placement("placement", "top-15", ruleset, group="top-15"),
        )
        low, high = 15, 20
    elif scheme == "top32":
        small = players is not None and players < 24
        stages = (
            _first_stage(7 if small else 8, ruleset),
            _with_consolation(
                "top-16", Group("top-16", TopAcrossTables("tables", 16), draw), ruleset
            ),
            _placement("placement", "top-16", ruleset, group="top-16"),
        )
        low, high = (21, 23) if small else (24, 32)
    else:
        raise FormatError(
            N_("league: unknown scheme {scheme!r}, expected one of {known}"),
            scheme=scheme, known=LEAGUE_SCHEMES,
        )
    fmt = TournamentFormat(
        name=f"league-{scheme}",
        description=str(Phrase(LEAGUE, scheme=scheme.upper())),
        stages=stages,
        min_players=low,
        max_players=high,
        league=True,
    ).validate()
    if players is not None:
        fmt.check_player_count(players)
    return fmt


def preset(name: str, *, players: int | None = None, semifinal: int = 8) -> TournamentFormat:
    """A preset by name (:data:`PRESET_NAMES`).

    ``players`` is required for ``league`` (automatic scheme by entry count) and, when
    given, is checked now, at creation, not at the first draw: against the preset's range
    and against the first stage's tables (5 players cannot sit at tables of 3 or 4).
    """
    fmt: TournamentFormat
    name = preset_name(name)
    if name == "winter":
        fmt = winter()
    elif name == "school":
        fmt = school()
    elif name == "championship":
        fmt = championship(semifinal)
    elif name == "league":
        if players is None:
            raise FormatError(
                N_("preset 'league': the automatic scheme needs the number of players")
            )
        fmt = league(league_scheme_for(players), players)
    else:  # league-top8 … league-top32: preset_name() knows no other
        fmt = league(name.removeprefix("league-"), players)
    if players is not None:
        fmt.check_player_count(players)
    return fmt
